"""The figures of a village's year-end report to its board, for one calendar year.

Every figure is counted in the database, by aggregate queries whose number does not grow
with the village's records: a few counts and sums per table, one grouped count per chart,
and one query over the stored duties' lists. Nothing is read row by row into Python.

The year runs from January 1, 00:00 to December 31, 24:00 in the village's own time zone
(its ordinance data): an application received at 23:30 on December 31 is in that year, one
received at 00:30 on January 1 is in the next. A year still running is counted to today.

``year_report`` puts the report together. Its figures are counted by subject in
``permit_figures`` (permits, inspections, and the months), ``enforcement_figures``
(complaints, enforcement actions, costs and forfeitures) and ``ms4`` (the MS4 part);
``report`` holds the report's shape and the words its numbers are written in.
"""

from __future__ import annotations

import datetime
from zoneinfo import ZoneInfo

from siltfence.apps.permits.models import Village
from siltfence.apps.yearreport.enforcement_figures import (
    _action_figures,
    _complaint_figures,
    _money_figures,
)
from siltfence.apps.yearreport.ms4 import _ms4
from siltfence.apps.yearreport.permit_figures import (
    _inspection_figures,
    _months,
    _permit_figures,
    duties_missed,
)
from siltfence.apps.yearreport.report import (
    COMPLAINTS,
    ENFORCEMENT,
    FIRST_YEAR,
    INSPECTIONS,
    LAST_YEAR,
    MONEY,
    NOT_RECORDED,
    PERMITS,
    Figure,
    YearReport,
    _Period,
    acres,
    count,
    money,
    times,
)
from siltfence.core.ordinance.loader import load
from siltfence.presentation.today import village_today

# What the views import from here: the report, and the names now kept beside it.
__all__ = [
    "FIRST_YEAR",
    "LAST_YEAR",
    "NOT_RECORDED",
    "Figure",
    "YearReport",
    "acres",
    "count",
    "duties_missed",
    "money",
    "times",
    "village_names",
    "year_report",
]


def village_names() -> dict[str, str]:
    """Every village's name by its id, in the order of the names."""
    return dict(Village.objects.order_by("name").values_list("pk", "name"))


def year_report(village_id: str, year: int) -> YearReport:
    """The year-end report of ``village_id`` for calendar ``year``."""
    ordinance = load(village_id)
    zone = ZoneInfo(ordinance.time_zone)
    first_day, last_day = datetime.date(year, 1, 1), datetime.date(year, 12, 31)
    today = village_today(village_id)
    begun = today >= first_day
    running = begun and today <= last_day
    counted_to = today if running else last_day
    report = YearReport(
        village_id=village_id,
        village=ordinance.name,
        year=year,
        first_day=first_day,
        last_day=last_day,
        today=today,
        counted_to=counted_to,
        running=running,
        begun=begun,
    )
    period = _Period(year, zone, first_day, last_day, today, counted_to)
    permits = _permit_figures(village_id, period)
    inspections = _inspection_figures(village_id, period, ordinance)
    complaints = _complaint_figures(village_id, period)
    actions, actions_total, by_kind = _action_figures(village_id, period)
    report.sections = [
        (PERMITS, permits.figures),
        (INSPECTIONS, inspections.figures),
        (COMPLAINTS, complaints.figures),
        (ENFORCEMENT, actions),
        (MONEY, _money_figures(village_id, period)),
    ]
    report.months = _months(village_id, period)
    report.ms4 = _ms4(report, ordinance, permits, inspections, complaints, actions_total, by_kind)
    return report
