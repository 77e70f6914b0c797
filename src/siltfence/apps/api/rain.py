"""``POST /api/v1/rain/storms``, and the rain file of ``POST /api/v1/duties``.

The body carries the rain file's text (any layout ``siltfence rain storms`` reads; bounded
in size) and the same parameters as the command line. Bad input answers 400 with the same
sentence the CLI prints. Mounted in ``api.py`` with ``api.add_router("", router)``.
"""

from __future__ import annotations

import datetime
import io
from typing import Any
from zoneinfo import ZoneInfo

from django.http import HttpRequest
from ninja import Router, Schema
from pydantic import ConfigDict, Field

from siltfence.apps.api.schemas import RAIN_TEXT_MAX, ErrorOut
from siltfence.core.errors import SiltfenceError
from siltfence.core.ordinance.loader import load
from siltfence.core.ordinance.model import Ordinance

RAIN_DESCRIPTION = (
    "The rain file's text, in any layout siltfence reads (GHCN-Daily .dly or CSV, the daily "
    "CSV in inches, a Climate Data Online export, a gauge CSV with a header like "
    f"`timestamp,rain_in`); at most {RAIN_TEXT_MAX:,} characters"
)


class RainStormsIn(Schema):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    jurisdiction: str = Field(description="Jurisdiction id (GET /api/v1/jurisdictions lists them)")
    file: str = Field(max_length=RAIN_TEXT_MAX, description=RAIN_DESCRIPTION)
    from_: str = Field(alias="from", description="First day YYYY-MM-DD")
    to: str = Field(description="Last day YYYY-MM-DD")
    station: str | None = Field(
        default=None, description="Station ID (for a file that names none, or of several)"
    )
    site: str | None = Field(
        default=None, description="The site as LAT,LON: the distance to the station is shown"
    )
    units: str | None = Field(
        default=None, description='Units of a Climate Data Online export: "inch" or "mm"'
    )


def open_text(
    text: str,
    zone: datetime.tzinfo,
    station: str | None,
    site: str | None,
    units: str | None,
) -> Any:
    """A rain source from a file's text, as the CLI opens a file (read today in ``zone``:
    a day after tomorrow is refused)."""
    from django.utils import timezone

    from siltfence.core.rain import open_rain, parse_point

    point = parse_point(site, "site") if site is not None else None
    return open_rain(
        io.BytesIO(text.encode("utf-8", "surrogatepass")),
        zone=zone,
        station=station,
        site=point,
        units=units,
        max_bytes=4 * RAIN_TEXT_MAX,
        read_on=timezone.now().astimezone(zone).date(),
    )


def file_rains(
    events: Any,
    text: str,
    ordinance: Ordinance,
    when: datetime.datetime,
    *,
    station: str | None,
    site: str | None,
    units: str | None = None,
) -> tuple[Any, dict[str, Any]]:
    """The duties' events with the rain file's wet days, and what was added."""
    from siltfence.core.rain import with_file_rains

    zone = ZoneInfo(ordinance.time_zone)
    source = open_text(text, zone, station, site, units)
    if not isinstance(events, list):
        raise SiltfenceError("events: expected a list of events", field="events")
    return with_file_rains(events, source, zone, when)


def make_router() -> Router:
    """A fresh router (a ninja Router mounts on one API only; tests mount their own)."""
    router = Router(tags=["rain"])

    @router.post(
        "/v1/rain/storms",
        response={200: dict[str, Any], 400: ErrorOut},
        summary="Which rains of a rain file meet the jurisdiction's rain rule",
        description=(
            "The storms (runs of consecutive wet days) from `from` to `to`, each with its "
            "total in inches and mm, whether it meets the jurisdiction's threshold, its "
            "citation and a sentence; the station with its distance from the site."
        ),
    )
    def post_rain_storms(request: HttpRequest, payload: RainStormsIn) -> dict[str, Any]:
        from siltfence.core.rain import read_day, storms_report

        ordinance = load(payload.jurisdiction)
        start = read_day(payload.from_, "from")
        end = read_day(payload.to, "to")
        zone = ZoneInfo(ordinance.time_zone)
        source = open_text(payload.file, zone, payload.station, payload.site, payload.units)
        return storms_report(source, ordinance, start, end, zone)

    return router


router = make_router()
