"""The village's own rain gauge: its staff add it as a station, where it stands, and enter
its days by hand, one day at a time, from the gauge's own log.

A gauge is a station like NOAA's (``Station``, with ``village`` set): a site reads its rain
there when it is the nearest station with a record (``duties.site_station_assign``), or
when staff choose it for the site. A day entered by hand goes into the same rain record as
an imported one (``rain.days.rain_days_record``, on the audit record with who entered it
and, for a correction, why), and shows on the permits at once, as an import does
(``rain.signals.rain_recorded``, which ``duties.rain_applied.rain_apply`` answers).

The bounds (why: decision 41): a gauge stands in Wisconsin; a day is entered once it has
fallen (not after today on the village's clock) and at most ``YEARS_BACK`` years back; a
day's rain is 0 to ``MOST_INCHES`` inches, to the hundredth (what a rain gauge reads); a
day already on record changes only as a correction, with its reason.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import IntegrityError, transaction

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.rain.days import rain_days_record
from siltfence.apps.rain.models import RainDay, Station
from siltfence.apps.rain.signals import rain_recorded_send
from siltfence.core.ordinance.sentences import day_words
from siltfence.core.rain.readings import tenths_of

# Wisconsin's extent in decimal degrees (WGS 84), rounded outward to the hundredth: from
# the Illinois line (42.49 N) to the Apostle Islands (47.31 N), and from the St. Croix
# (92.89 W) to Lake Michigan's shore (86.25 W). The ordinance data give no county outline,
# so a gauge's place is bounded by the state's.
LATITUDES = (Decimal("42.49"), Decimal("47.31"))
LONGITUDES = (Decimal("-92.89"), Decimal("-86.25"))
# A day's rain at a village gauge: Wisconsin's record for a day is 11.72 in (Mellen, 1946),
# so more than this is a misread gauge or a typing slip (decision 41).
MOST_INCHES = Decimal("15")
YEARS_BACK = 10
NAME_MAX = 120
REASON_MAX = 300
SOURCE = "entered by hand"

NOT_STAFF = "village: only the staff of {village} may add its rain gauge or enter its rain"
NO_VILLAGE = "village: choose one of your villages"
NO_GAUGE = "station: {village} has no gauge {station!r}"
NAME = f"name: give the gauge a name of 1 to {NAME_MAX} characters, like Public works yard"
NAME_TAKEN = "name: {village} already has a gauge named {name!r}; give this one another name"
DEGREES = "{field}: give the {what} in decimal degrees, from {low} to {high} ({hint}); got {got!r}"
DAY_MISSING = "day: give the day the rain fell"
DAY_FUTURE = "day: {day} has not come yet (today is {today}); enter a day's rain once it has fallen"
DAY_TOO_OLD = "day: {day} is more than {years} years ago; the earliest day taken is {earliest}"
INCHES = (
    "inches: give the day's rain in inches, to the hundredth, like 0.62 (0 for a dry day); "
    "got {got!r}"
)
INCHES_NEGATIVE = "inches: a day's rain cannot be less than 0; got {got!r}"
INCHES_TOO_MUCH = (
    "inches: {got} in is more than {most} in, more than Wisconsin's record for a day "
    "(11.72 in); check the gauge's reading"
)
ALREADY = (
    "day: {day} already has {inches} in on record at this gauge; to correct it, say why in "
    "the reason for the correction"
)
SAME = "inches: {day} already has {inches} in on record; nothing to correct"
REASON = f"reason: say why in at most {REASON_MAX} characters"
TAKEN_MEANWHILE = "name: the gauge could not be added just now; add it again"

_INCHES = re.compile(r"([0-9]{1,3}(\.[0-9]{0,2})?|\.[0-9]{1,2})")


def village_gauges(village_ids_: set[str]) -> list[Station]:
    """The gauges of these villages, by village and name."""
    return list(
        Station.objects.filter(village_id__in=sorted(village_ids_)).order_by("village_id", "name")
    )


def gauge_for(user: Any, station_id: str) -> Station | None:
    """The gauge ``station_id`` if ``user`` is staff of its village (else None)."""
    if not isinstance(station_id, str) or len(station_id) > 40:
        return None
    gauge = Station.objects.filter(pk=station_id, village__isnull=False).first()
    if gauge is None or gauge.village_id not in village_ids(user, Role.STAFF):
        return None
    return gauge


def _staff_of(actor: Any, village_id: str) -> None:
    if village_id not in village_ids(actor, Role.STAFF):
        from siltfence.apps.permits.models import Village

        name = Village.objects.filter(pk=village_id).values_list("name", flat=True).first()
        raise ActionRefused(NOT_STAFF.format(village=name or "the village"), field="village")


def _text(value: Any, limit: int, message: str) -> str:
    """One line of printable text, spaces collapsed; empty or longer than ``limit`` is
    refused with ``message``."""
    text = " ".join("".join(ch for ch in str(value or "") if ch.isprintable()).split())
    if "\x00" in str(value or "") or len(text) > limit:
        raise ActionRefused(message, field=message.split(":", 1)[0])
    return text


def _degrees(value: Any, field: str, bounds: tuple[Decimal, Decimal]) -> float:
    what, hint = (
        ("latitude", "north")
        if field == "latitude"
        else ("longitude", "west of Greenwich is negative")
    )
    shown = str(value if value is not None else "")[:30]
    message = DEGREES.format(
        field=field, what=what, low=bounds[0], high=bounds[1], hint=hint, got=shown
    )
    text = str(value if value is not None else "").strip()
    if not re.fullmatch(r"[+-]?[0-9]{1,3}(\.[0-9]{1,8})?", text):
        raise ActionRefused(message, field=field)
    number = Decimal(text)
    if not bounds[0] <= number <= bounds[1]:
        raise ActionRefused(message, field=field)
    return float(number)


def _gauge_id(village_id: str) -> str:
    """``GAUGE-SPENCER-WI-2``: a station ID of the gauge form (``core.rain.stations``), the
    next number for the village."""
    stem = "GAUGE-" + re.sub(r"[^A-Z0-9]+", "-", village_id.upper()).strip("-")[:24]
    taken = set(Station.objects.filter(id__startswith=stem + "-").values_list("id", flat=True))
    number = 1
    while f"{stem}-{number}" in taken:
        number += 1
    return f"{stem}-{number}"


def rain_gauge_add(
    *, actor: Any, village_id: str, name: Any, latitude: Any, longitude: Any
) -> Station:
    """Add the village's own rain gauge as a station: its name and where it stands.
    Only the village's staff may; refused with the field named, nothing written."""
    if not isinstance(village_id, str) or not village_id:
        raise ActionRefused(NO_VILLAGE, field="village")
    _staff_of(actor, village_id)
    cleaned = _text(name, NAME_MAX, NAME)
    if not cleaned:
        raise ActionRefused(NAME, field="name")
    lat = _degrees(latitude, "latitude", LATITUDES)
    lon = _degrees(longitude, "longitude", LONGITUDES)
    from siltfence.apps.permits.models import Village

    village = Village.objects.get(pk=village_id)
    try:
        with transaction.atomic():
            if Station.objects.filter(village=village, name__iexact=cleaned).exists():
                raise ActionRefused(
                    NAME_TAKEN.format(village=village.name, name=cleaned), field="name"
                )
            return Station.objects.create(
                id=_gauge_id(village_id),
                name=cleaned,
                state="WI",
                latitude=lat,
                longitude=lon,
                village=village,
            )
    except IntegrityError:  # another clerk's gauge took the number or the name meanwhile
        raise ActionRefused(TAKEN_MEANWHILE, field="name") from None


@dataclass(frozen=True)
class GaugeReading:
    """A day entered by hand: its amount now and before (tenths of mm; None: no record),
    and what it changed on the permits, in words."""

    station: Station
    day: datetime.date
    tenths: int
    before: int | None
    applied: str


def inches_tenths(value: Any) -> int:
    """A reading typed in inches (``0.62``) as tenths of a millimetre, bounded."""
    shown = str(value if value is not None else "")[:30]
    text = str(value if value is not None else "").strip()
    if text.startswith("-") and _INCHES.fullmatch(text[1:]):
        if Decimal(text[1:]) != 0:
            raise ActionRefused(INCHES_NEGATIVE.format(got=shown), field="inches")
        text = text[1:]
    if not _INCHES.fullmatch(text):
        raise ActionRefused(INCHES.format(got=shown), field="inches")
    try:
        amount = Decimal(text)
    except InvalidOperation:  # pragma: no cover - the pattern admits only numbers
        raise ActionRefused(INCHES.format(got=shown), field="inches") from None
    if amount > MOST_INCHES:
        raise ActionRefused(INCHES_TOO_MUCH.format(got=text, most=MOST_INCHES), field="inches")
    return tenths_of(amount, "inch")


def inches_words(tenths: int) -> str:
    """Tenths of a millimetre as inches to the hundredth: 157 -> ``0.62``."""
    return f"{Decimal(tenths) / Decimal(254):.2f}"


def place_words(latitude: Any, longitude: Any) -> str:
    """``42.5992° N, 89.6669° W``, or "" for a place not known."""
    if not (isinstance(latitude, float | int) and isinstance(longitude, float | int)):
        return ""
    north = "N" if latitude >= 0 else "S"
    west = "W" if longitude < 0 else "E"
    return f"{abs(latitude):.4f}° {north}, {abs(longitude):.4f}° {west}"


def rain_gauge_reading_record(
    *,
    actor: Any,
    station_id: str,
    day: Any,
    inches: Any,
    reason: Any = "",
    today: datetime.date,
) -> GaugeReading:
    """Enter one day's rain at the village's gauge, by hand. ``today``: the day on the
    village's clock when the request came. A day already on record changes only with a
    ``reason`` (a correction, on the audit record with its amount before and after). Only
    the staff of the gauge's village may. Refused with the field named, nothing written.
    Once written, the rain shows on the permits whose sites read this gauge."""
    gauge = Station.objects.filter(pk=str(station_id)[:40], village__isnull=False).first()
    if gauge is None:
        raise ActionRefused(
            NO_GAUGE.format(village="the village", station=str(station_id)[:40]),
            field="station",
        )
    _staff_of(actor, str(gauge.village_id))
    if not isinstance(day, datetime.date) or isinstance(day, datetime.datetime):
        raise ActionRefused(DAY_MISSING, field="day")
    if day > today:
        raise ActionRefused(
            DAY_FUTURE.format(day=day_words(day), today=day_words(today)), field="day"
        )
    earliest = _years_before(today, YEARS_BACK)
    if day < earliest:
        raise ActionRefused(
            DAY_TOO_OLD.format(day=day_words(day), years=YEARS_BACK, earliest=day_words(earliest)),
            field="day",
        )
    tenths = inches_tenths(inches)
    why = _text(reason, REASON_MAX, REASON)
    with transaction.atomic():
        # One clerk at a time per gauge: the day's row is read and written under this lock.
        Station.objects.select_for_update().filter(pk=gauge.pk).exists()
        stored = RainDay.objects.filter(station=gauge, day=day).first()
        before = stored.tenths_mm if stored is not None else None
        if before is not None and not why:
            raise ActionRefused(
                ALREADY.format(day=day_words(day), inches=inches_words(before)), field="day"
            )
        if before is not None and before == tenths:
            raise ActionRefused(
                SAME.format(day=day_words(day), inches=inches_words(before)), field="inches"
            )
        if stored is not None and before is None:
            stored.delete()  # a day the record held without an amount: now measured
        rain_days_record(
            station_id=gauge.pk,
            days={day: tenths},
            source=SOURCE,
            actor=actor,
            reason=why if before is not None else SOURCE,
        )
    applied = rain_recorded_send(stations=[gauge.pk], first=day, last=day)
    return GaugeReading(station=gauge, day=day, tenths=tenths, before=before, applied=applied)


def _years_before(day: datetime.date, years: int) -> datetime.date:
    try:
        return day.replace(year=day.year - years)
    except ValueError:  # 29 February
        return day.replace(year=day.year - years, day=28)
