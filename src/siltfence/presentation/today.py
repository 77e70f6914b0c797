"""Today in a village: the day a list is downloaded, a board member's term is counted or a
year's report ends, in the village's time zone (its ordinance data). A village with no
encoded ordinance counts in the server's zone. The core never asks what day it is; the
pages do, here."""

from __future__ import annotations

import datetime
import functools
from pathlib import Path
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone

from siltfence.core.ordinance.loader import jurisdiction_ids, load, ordinances_root
from siltfence.core.ordinance.model import Ordinance


def village_today(village_id: str) -> datetime.date:
    """Today in the village's time zone (its ordinance data), where a term's days are
    counted; a village with no encoded ordinance counts in the server's zone."""
    return timezone.now().astimezone(ZoneInfo(_zone_of(village_id))).date()


def _zone_of(village_id: str) -> str:
    for zone, villages in village_zones():
        if village_id in villages:
            return zone
    return str(settings.TIME_ZONE)


@functools.cache
def _zones(root: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """(zone, the villages in it) for every encoded ordinance, read once a process."""
    found: dict[str, set[str]] = {}
    for village in jurisdiction_ids(Path(root)):
        found.setdefault(load(village).time_zone, set()).add(village)
    return tuple((zone, frozenset(villages)) for zone, villages in sorted(found.items()))


def village_zones() -> tuple[tuple[str, frozenset[str]], ...]:
    """(zone, the villages in it) for every encoded ordinance."""
    return _zones(str(ordinances_root()))


def ordinance_on(
    village_id: str, when: datetime.date | datetime.datetime | None = None
) -> Ordinance:
    """The village's ordinance with its sentences' numbers as of ``when`` (a moment is read
    as the village's day; None: today there). A letter says the law in force on the day of
    the act it records: ``load(...)`` alone gives the sentences as of the latest date the
    data holds, which may be an amendment not yet in force (decision 39)."""
    ordinance = load(village_id)
    if when is None:
        day = village_today(village_id)
    elif isinstance(when, datetime.datetime):
        day = when.astimezone(ZoneInfo(ordinance.time_zone)).date()
    else:
        day = when
    return ordinance.on(day)
