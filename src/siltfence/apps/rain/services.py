"""Importing rain files: idempotent, resumable, in bounded memory.

``rain_file_import`` reads a file twice. The first pass checks all of it (every line's
layout and value, no day twice) and writes nothing, so a bad file changes nothing. The
second pass writes the days in batches, each batch one transaction, as upserts keyed on
(station, day). Killed at any moment, an import leaves whole batches behind and nothing
half-written; run again, it writes what is missing and leaves the rest alone. Imported
twice, a file changes nothing the second time (every day comes back "unchanged").
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO
from zoneinfo import ZoneInfo

from django.db import transaction

from siltfence.apps.audit.chain import event_record
from siltfence.apps.rain.models import RainDay, Station
from siltfence.core.errors import SiltfenceError
from siltfence.core.rain import RainFile, Reading, registry
from siltfence.core.rain.record import collect
from siltfence.core.rain.source import NAMES_STATIONS, RegisteredAndFirst, check_station_id

# Rain files are read in the villages' zone (both are America/Chicago); only a gauge's time
# stamps depend on it.
ZONE = ZoneInfo("America/Chicago")
BATCH = 1000
NO_STATION = "station: the file names no station; give the station's ID (--station)"
NOT_IN_FILE = "stations: {station} is not a station of this file"

Progress = Callable[[str, int], None]  # (phase "check" or "write", bytes read so far)


@dataclass
class ImportResult:
    file: str
    format: str
    stations: dict[str, int] = field(default_factory=dict)  # days per station
    new: int = 0
    changed: int = 0
    unchanged: int = 0
    batches: int = 0
    # The first and last day written (new or changed), for applying them to the permits.
    first_changed: datetime.date | None = None
    last_changed: datetime.date | None = None
    applied: str = ""  # what the new rain changed on the permits, in words
    # The stations the file holds (all of them, also those not imported), as ``found``.
    found: list[dict[str, Any]] = field(default_factory=list)

    @property
    def days(self) -> int:
        return sum(self.stations.values())

    def says(self) -> str:
        names = ", ".join(f"{s} ({n} days)" for s, n in sorted(self.stations.items()))
        return (
            f"{self.file}: {self.days} day(s) of {names}: {self.new} new, "
            f"{self.changed} changed, {self.unchanged} unchanged"
        )


class StationsToChoose(Exception):
    """The file holds several stations and the person importing it chooses which: raised
    after the check, before anything is written. ``found``: the stations (``found``)."""

    def __init__(self, found: list[dict[str, Any]]) -> None:
        super().__init__(f"the file holds {len(found)} stations")
        self.found = found


def _open(path: Path) -> BinaryIO:
    try:
        return path.open("rb")
    except OSError as exc:
        raise SiltfenceError(f"rain: cannot read {path} ({exc.strerror})", field="rain") from None


def _reader(
    handle: BinaryIO,
    station: str | None,
    units: str | None,
    keep: Any,
    read_on: datetime.date | None = None,
) -> tuple[RainFile, Iterable[Reading]]:
    rain = RainFile(handle, zone=ZONE, station=station, units=units, read_on=read_on)
    if rain.format in NAMES_STATIONS:
        rain.keep_only(keep)
    elif station is None:
        raise SiltfenceError(NO_STATION, field="station")
    return rain, rain.readings()


def rain_file_import(
    *,
    path: Path,
    station: str | None = None,
    units: str | None = None,
    batch_size: int = BATCH,
    on_progress: Progress | None = None,
    actor: Any = None,
    name: str | None = None,
    read_on: datetime.date | None = None,
    only: Collection[str] | None = None,
    ask_when_several: bool = False,
) -> ImportResult:
    """Import one rain file (any layout the core reads). Raises ``SiltfenceError`` (naming
    the line) for a bad file, before anything is written. ``read_on``: the day the file is
    read in the villages' zone (today by default); a day after the next one is refused.

    ``only``: import only these stations of the file (each must be in it, else
    ``SiltfenceError`` naming ``stations``). ``ask_when_several``: with no ``only``, a file
    that holds more than one station raises ``StationsToChoose`` once checked, having
    written nothing.

    Rain sets duties, so an import is on the audit record: when its writing begins (the
    file's ``name``, size and SHA-256, who imported it) and when it ends (the days new,
    changed and unchanged per station). A run cut short leaves the first without the
    second."""
    if station is not None:
        station = check_station_id(station)
    if read_on is None:
        read_on = village_today()
    report = on_progress or (lambda phase, done: None)
    known = {s.encode() for s in registry()} | {
        s.encode("ascii", "replace") for s in Station.objects.values_list("id", flat=True)
    }
    keep: Any = {station.encode("ascii")} if station else RegisteredAndFirst(known)
    if only is not None and not station:
        # The chosen stations only: another station's rows are not read at all.
        keep = {str(s).encode("ascii", "replace") for s in only}

    # Pass 1: check everything, write nothing.
    with _open(path) as handle:
        rain, readings = _reader(handle, station, units, keep, read_on)
        records = collect(_reporting(readings, handle, "check", report))
    present = {sid: r for sid, r in records.items() if r.lines}
    if not present:
        raise SiltfenceError("rain: the file holds no precipitation values", field="rain")
    found = stations_found(present, path=path, format=rain.format)
    if only is not None:
        wanted_ids = {str(s) for s in only}
        for sid in sorted(wanted_ids - {str(s) for s in present}):
            raise SiltfenceError(NOT_IN_FILE.format(station=sid[:40]), field="stations")
        present = {sid: r for sid, r in present.items() if str(sid) in wanted_ids}
    elif ask_when_several and len(present) > 1:
        raise StationsToChoose(found)
    result = ImportResult(
        file=path.name,
        format=rain.format,
        stations={str(sid): len(r.lines) for sid, r in present.items()},
        found=found,
    )

    # Pass 2: write, one transaction a batch, between two entries of the audit record.
    digest = file_sha256(path)
    shown = (name or path.name)[:120]
    file_id = int(digest[:15], 16)
    with transaction.atomic():
        event_record(
            actor=actor,
            entity="rain_file",
            entity_id=file_id,
            action="rain_import_begin",
            reason=shown,
            after={
                "file": shown,
                "sha256": digest,
                "bytes": path.stat().st_size,
                "format": rain.format,
                "stations": result.stations,
            },
        )
    wanted = {str(sid).encode("ascii", "replace") for sid in present}
    with _open(path) as handle:
        _, readings = _reader(handle, station, units, wanted, read_on)
        batch: list[Reading] = []
        for reading in _reporting(readings, handle, "write", report):
            batch.append(reading)
            if len(batch) >= batch_size:
                _write(batch, rain.format, result)
                batch = []
        if batch:
            _write(batch, rain.format, result)
    with transaction.atomic():
        event_record(
            actor=actor,
            entity="rain_file",
            entity_id=file_id,
            action="rain_import",
            reason=shown,
            after={
                "file": shown,
                "sha256": digest,
                "new": result.new,
                "changed": result.changed,
                "unchanged": result.unchanged,
                "first_changed": result.first_changed,
                "last_changed": result.last_changed,
            },
        )
    from siltfence.apps.audit.anchor import checkpoint_if_keyed

    checkpoint_if_keyed()  # an import is a large change: anchor it at once
    return result


def stations_found(present: dict[Any, Any], *, path: Path, format: str) -> list[dict[str, Any]]:
    """What a clerk needs to choose among a file's stations, one dict each, by ID: the
    name and place (the file's own, where it gives them, as a Climate Data Online export
    does; else the station's row; else NOAA's station list), the first and last day with
    an amount, how many days have one, and how many the file gives without one."""
    ids = [str(sid) for sid in present]
    details = _cdo_details(path, set(ids)) if format == "cdo-csv" else {}
    rows = {row.id: row for row in Station.objects.filter(id__in=ids)}
    listed = registry()
    found = []
    for sid, record in sorted(present.items(), key=lambda item: str(item[0])):
        key = str(sid)
        known: Any = rows.get(key) or listed.get(key)
        name, latitude, longitude = details.get(key, ("", None, None))
        if not name and known is not None:
            name = known.name or ""
        if (latitude is None or longitude is None) and known is not None:
            latitude, longitude = known.latitude, known.longitude
        amounts = sorted(record.days)
        found.append(
            {
                "id": key,
                "name": name[:120],
                "first": amounts[0].isoformat() if amounts else None,
                "last": amounts[-1].isoformat() if amounts else None,
                "days": len(amounts),
                "without": len(record.lines) - len(amounts),
                "latitude": latitude,
                "longitude": longitude,
            }
        )
    return found


def _cdo_details(path: Path, ids: set[str]) -> dict[str, tuple[str, float | None, float | None]]:
    """Each station's NAME, LATITUDE and LONGITUDE as a Climate Data Online export gives
    them (the columns it has when station details were asked for), read until every one of
    ``ids`` is seen. Called once the file has been checked whole."""
    import csv

    from siltfence.core.rain.lines import numbered_lines

    seen: dict[str, tuple[str, float | None, float | None]] = {}
    header: list[str] | None = None
    with _open(path) as handle:
        for _, raw in numbered_lines(handle):
            line = raw.decode("utf-8", "replace")
            if not line.strip():
                continue
            try:
                fields = [f.strip() for f in next(csv.reader([line]))]
            except (csv.Error, StopIteration):
                continue
            if header is None:
                header = [f.upper() for f in fields]
                if "NAME" not in header:
                    return seen
                continue
            if len(fields) != len(header):
                continue
            row = dict(zip(header, fields, strict=True))
            station = row.get("STATION", "")
            if station in ids and station not in seen:
                seen[station] = (
                    "".join(ch for ch in row.get("NAME", "") if ch.isprintable())[:120],
                    _degrees(row.get("LATITUDE"), 90),
                    _degrees(row.get("LONGITUDE"), 180),
                )
                if len(seen) == len(ids):
                    break
    return seen


def _degrees(text: str | None, bound: float) -> float | None:
    try:
        value = float(text or "")
    except ValueError:
        return None
    return value if -bound <= value <= bound else None


def rain_file_recognise(*, path: Path, station: str | None, units: str | None) -> str | None:
    """What can be told of a rain file without reading it through: the station ID given,
    and from the first line, whether it is a file siltfence reads and, if it names no
    station, that one was given. Returns the station ID as it will be used (or None);
    raises ``SiltfenceError`` naming the field."""
    if station is not None:
        station = check_station_id(station)
    with _open(path) as handle:
        _reader(handle, station, units, None)
    return station


def village_today() -> datetime.date:
    """Today in the villages' zone."""
    from django.utils import timezone

    return timezone.now().astimezone(ZONE).date()


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _reporting(
    readings: Iterable[Reading], handle: BinaryIO, phase: str, report: Progress
) -> Iterable[Reading]:
    for count, reading in enumerate(readings, 1):
        if count % 2000 == 0:
            report(phase, handle.tell())
        yield reading
    report(phase, handle.tell())


def _station_row(station_id: str) -> Station:
    listed = registry().get(station_id)
    if listed is None:
        return Station(id=station_id)
    return Station(id=listed.id, **Station.listed_fields(listed))


def _write(batch: list[Reading], source: str, result: ImportResult) -> None:
    """One batch as upserts keyed on (station, day), in one transaction."""
    station_ids = {str(r.station) for r in batch}
    days = {r.day for r in batch}
    with transaction.atomic():
        there = set(Station.objects.filter(id__in=station_ids).values_list("id", flat=True))
        Station.objects.bulk_create(
            [_station_row(s) for s in sorted(station_ids - there)], ignore_conflicts=True
        )
        stored = {
            (row[0], row[1]): (row[2], row[3])
            for row in RainDay.objects.filter(station_id__in=station_ids, day__in=days).values_list(
                "station_id", "day", "tenths_mm", "set_aside"
            )
        }
        rows = []
        for reading in batch:
            key = (str(reading.station), reading.day)
            value = (reading.tenths, (reading.dropped or "")[:120])
            before = stored.get(key)
            if before == value:
                result.unchanged += 1
                continue
            if before is None:
                result.new += 1
            else:
                result.changed += 1
            result.first_changed = min(result.first_changed or reading.day, reading.day)
            result.last_changed = max(result.last_changed or reading.day, reading.day)
            rows.append(
                RainDay(
                    station_id=key[0],
                    day=key[1],
                    tenths_mm=value[0],
                    set_aside=value[1],
                    source=source,
                )
            )
        RainDay.objects.bulk_create(
            rows,
            update_conflicts=True,
            unique_fields=["station", "day"],
            update_fields=["tenths_mm", "set_aside", "source"],
        )
    result.batches += 1


def station_days(station_id: str, start: datetime.date, end: datetime.date) -> dict[Any, int]:
    """A station's imported amounts from ``start`` to ``end`` (days with a value)."""
    return {
        day: tenths
        for day, tenths in RainDay.objects.filter(
            station_id=station_id, day__gte=start, day__lte=end, tenths_mm__isnull=False
        ).values_list("day", "tenths_mm")
        if tenths is not None  # none is: the filter's tenths_mm__isnull=False
    }
