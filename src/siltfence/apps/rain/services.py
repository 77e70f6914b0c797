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
from collections.abc import Callable, Iterable
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

    @property
    def days(self) -> int:
        return sum(self.stations.values())

    def says(self) -> str:
        names = ", ".join(f"{s} ({n} days)" for s, n in sorted(self.stations.items()))
        return (
            f"{self.file}: {self.days} day(s) of {names}: {self.new} new, "
            f"{self.changed} changed, {self.unchanged} unchanged"
        )


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
) -> ImportResult:
    """Import one rain file (any layout the core reads). Raises ``SiltfenceError`` (naming
    the line) for a bad file, before anything is written. ``read_on``: the day the file is
    read in the villages' zone (today by default); a day after the next one is refused.

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

    # Pass 1: check everything, write nothing.
    with _open(path) as handle:
        rain, readings = _reader(handle, station, units, keep, read_on)
        records = collect(_reporting(readings, handle, "check", report))
    present = {sid: r for sid, r in records.items() if r.lines}
    if not present:
        raise SiltfenceError("rain: the file holds no precipitation values", field="rain")
    result = ImportResult(
        file=path.name,
        format=rain.format,
        stations={str(sid): len(r.lines) for sid, r in present.items()},
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
    return dict(
        RainDay.objects.filter(
            station_id=station_id, day__gte=start, day__lte=end, tenths_mm__isnull=False
        ).values_list("day", "tenths_mm")
    )
