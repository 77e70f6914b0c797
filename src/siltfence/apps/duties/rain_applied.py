"""Rain just recorded, onto the permits at once: the stations it gives sites that had none,
its qualifying rains written onto the permits (``duties.rain_events``) and their duties
recomputed (``duties.services``).

The rain record sends ``rain.signals.rain_recorded`` when an import or a day entered at a
village's gauge wrote new rain; ``rain_recorded_received`` (connected in ``DutiesConfig``)
answers it with ``rain_apply``, and what changed goes back in words
(docs/decisions/0049-lower-apps-signal-higher-ones.md). The station page calls
``rain_apply`` itself.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from siltfence.apps.duties.models import PermitDuties
from siltfence.apps.duties.rain_events import (
    LOOKBACK_DAYS,
    _open_on,
    rain_events_follow_record,
    rain_sweep,
)
from siltfence.apps.duties.services import permit_duties_recompute
from siltfence.apps.duties.stations import site_station_assign
from siltfence.apps.permits.models import (
    Permit,
    PermitStatus,
    Site,
)
from siltfence.core.ordinance.sentences import MONTHS, day_words


@dataclass
class RainApplied:
    """What newly recorded rain changed on the permits, at once."""

    stations_chosen: int  # sites that had no station and now read one of these
    rains: int  # qualifying rains written onto permits (a rain of two wet days is one)
    permits: list[int]  # the permits they landed on
    owing: int  # of those, the permits that now owe an inspection after rain
    # Rain already on permits that followed a corrected record: amounts, days withdrawn.
    corrected: int = 0
    withdrawn: int = 0

    def says(self) -> str:
        if not self.rains and not self.stations_chosen and not self.corrected + self.withdrawn:
            return "No permit in force reads rain at these stations on these days: nothing changed."
        parts = []
        if self.corrected or self.withdrawn:
            parts.append(
                f"{self.corrected} rain day(s) on permits now show the corrected amount and "
                f"{self.withdrawn} were withdrawn (the record now holds no rain that day)"
            )
        if self.stations_chosen:
            parts.append(f"{self.stations_chosen} site(s) now read their rain here")
        parts.append(f"{self.rains} qualifying rain(s) written onto {len(self.permits)} permit(s)")
        parts.append(f"{self.owing} permit(s) now owe an inspection after rain")
        return "; ".join(parts) + "."


def rain_apply(
    *, stations: Iterable[str], first: datetime.date, last: datetime.date
) -> RainApplied:
    """Rain just recorded at ``stations`` from ``first`` to ``last`` shows on the permits
    without waiting for the morning's sweep: sites with no station are given one (a
    station with a record may now qualify), every qualifying rain is written onto the
    permits open on its day that read it (a closed permit included, when the rain fell
    before it was closed), and their duties are recomputed."""
    wanted = set(stations)
    # Rain already written onto permits follows a corrected record first; the sweep below
    # then writes what now qualifies and was not yet written.
    followed = rain_events_follow_record(stations=sorted(wanted), first=first, last=last)
    chosen = 0
    for site in Site.objects.filter(
        rain__isnull=True, applications__permit__status=PermitStatus.ACTIVE
    ).distinct():
        link = site_station_assign(site=site)
        chosen += link is not None and link.station_id in wanted
    earliest = (
        Permit.objects.filter(_open_on(first), application__site__rain__station_id__in=wanted)
        .order_by("issued_on")
        .values_list("issued_on", flat=True)
        .first()
    )
    rains: set[tuple[str, datetime.date]] = set()
    touched: set[int] = set(followed.touched)
    if earliest is not None:
        today = timezone.localdate()
        start, day = max(first, earliest), min(last + datetime.timedelta(days=1), today)
        # Each sweep takes the LOOKBACK_DAYS before its day: step back by that much.
        while day >= start:
            result = rain_sweep(day=day)
            rains |= result.rains
            touched.update(result.touched)
            day -= datetime.timedelta(days=LOOKBACK_DAYS)
    owed_before = _rain_inspections_owed(followed.touched)
    permit_duties_recompute(permit_ids=sorted(touched))
    owed_now = _rain_inspections_owed(touched)
    _withdrawn_inspections_record(owed_before, owed_now)
    owing = sum(1 for owed in owed_now.values() if owed)
    return RainApplied(
        chosen,
        len(rains),
        sorted(touched),
        owing,
        corrected=followed.changed,
        withdrawn=followed.withdrawn,
    )


def _rain_inspections_owed(permit_ids: Iterable[int]) -> dict[int, list[dict[str, Any]]]:
    """The inspections after rain each of these permits owes and has not made, as stored."""
    return {
        state.permit_id: [
            d for d in state.duties if d["kind"] == "rain_inspection" and d["status"] != "met"
        ]
        for state in PermitDuties.objects.filter(permit_id__in=list(permit_ids))
    }


def _days_words(first: str, last: str) -> str:
    """A rain's days: ``July 8, 2026``, or ``July 8 to July 9, 2026``."""
    one, two = datetime.date.fromisoformat(first), datetime.date.fromisoformat(last)
    if one == two:
        return day_words(one)
    return f"{MONTHS[one.month - 1]} {one.day} to {day_words(two)}"


def _withdrawn_inspections_record(
    before: dict[int, list[dict[str, Any]]], after: dict[int, list[dict[str, Any]]]
) -> None:
    """An inspection after rain owed before a correction of the rain record and not after
    it (no rain owed now shares a day with its rain) is withdrawn: on the permit's audit
    record, and the permittee is told (``notices.services.FLAGGED``), so a person who was
    reminded of it does not go on looking for it."""
    from siltfence.apps.audit.chain import event_record

    withdrawn = [
        (permit_id, duty)
        for permit_id, owed in before.items()
        for duty in owed
        if not any(_overlap(duty["rain"], now["rain"]) for now in after.get(permit_id, []))
    ]
    villages = dict(
        Permit.objects.filter(pk__in={p for p, _ in withdrawn}).values_list("pk", "village_id")
    )
    with transaction.atomic():
        for permit_id, duty in withdrawn:
            rain = duty["rain"]
            event_record(
                actor=None,
                entity="permit",
                entity_id=permit_id,
                action="rain_inspection_withdrawn",
                village=villages[permit_id],
                reason="the rain record was corrected",
                citation=duty["citation"],
                before={"rain": rain, "due": duty["due"], "status": duty["status"]},
                after={
                    "inspection_withdrawn": {
                        "days": _days_words(rain["from"], rain["to"]),
                        "was": f"{round(rain['inches'], 2):g} inch ({rain['mm']:g} mm)",
                        "due": day_words(datetime.date.fromisoformat(duty["due"][:10])),
                        "citation": duty["citation"],
                    }
                },
            )


def _overlap(one: dict[str, Any], other: dict[str, Any]) -> bool:
    """Two rains (their first and last days, ISO dates) share a day."""
    return bool(one["from"] <= other["to"] and other["from"] <= one["to"])


def rain_recorded_received(
    sender: Any, *, stations: list[str], first: datetime.date, last: datetime.date, **kwargs: Any
) -> str:
    """The receiver of ``rain.signals.rain_recorded``: the rain onto the permits, and what
    it changed in words (``RainApplied.says``)."""
    return rain_apply(stations=stations, first=first, last=last).says()
