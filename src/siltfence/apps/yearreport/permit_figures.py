"""The report's figures on permits and inspections, and the same counts month by month.

Permits: applications received and disapproved, permits issued, extended, closed, expired
and in force, and the acres disturbed. Inspections: those the village and the permittees
made, and those missed, from the stored duties of each permit. Every figure is counted in
the database by aggregate queries, never row by row.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Count, Exists, FloatField, OuterRef, Q, QuerySet, Sum
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast, ExtractMonth

from siltfence.apps.duties.models import PermitDuties
from siltfence.apps.enforcement.models import ActionKind, EnforcementAction
from siltfence.apps.inspections.models import Inspection
from siltfence.apps.permits.models import (
    Application,
    ApplicationStatus,
    Permit,
    PermitExtension,
    PermitStatus,
)
from siltfence.apps.sitelog.models import EntryKind, SiteLogEntry
from siltfence.apps.yearreport.report import (
    INSPECTIONS,
    PERMITS,
    Figure,
    _Period,
    acres,
    count,
    times,
)
from siltfence.core.ordinance.sentences import MONTHS, day_words
from siltfence.core.quantities import convert_between

ONE_ACRE_SQ_FT = convert_between(1.0, "acre", "ft**2") or 43_560.0
# The permittee's inspections the stored duties hold (the core's duty kinds), and the
# village's own, where its chapter sets a schedule of them.
PERMITTEE_INSPECTIONS = ("weekly_inspection", "rain_inspection")
VILLAGE_INSPECTIONS = ("municipal_inspection",)


# -- permits ------------------------------------------------------------------------------


@dataclass
class _Permits:
    figures: list[Figure]
    received: int
    issued: int
    in_force: int
    in_force_day: str
    one_acre: int
    with_area: int


def _permit_figures(village_id: str, p: _Period) -> _Permits:
    year = p.year
    applications = (
        Application.objects.filter(village_id=village_id)
        .order_by()
        .aggregate(
            received=Count("pk", filter=p.moments("received_at")),
            disapproved=Count(
                "pk",
                filter=Q(status=ApplicationStatus.DISAPPROVED) & p.moments("decided_at"),
            ),
        )
    )
    # In force at the end of the day: issued by then, its last day not passed, and neither
    # closed nor revoked by then (a revocation retracted later leaves the permit active).
    day = p.counted_to
    end_of_day = datetime.datetime.combine(
        day + datetime.timedelta(days=1), datetime.time(0), tzinfo=p.zone
    )
    revoked_by_then = EnforcementAction.objects.filter(
        case__application_id=OuterRef("application_id"),
        kind=ActionKind.REVOCATION,
        at__lt=end_of_day,
    )
    in_force = Q(issued_on__lte=day, expires_on__gte=day) & (
        Q(status=PermitStatus.ACTIVE)
        | Q(status=PermitStatus.CLOSED, closed_on__gt=day)
        | (Q(status=PermitStatus.REVOKED) & ~Q(Exists(revoked_by_then)))
    )
    # Expired: the last day passed (before today) in the year, never closed or revoked.
    expired_to = min(p.last_day, p.today - datetime.timedelta(days=1))
    issued = p.days("issued_on")
    # The area the application gave (its facts hold it in sq ft, as the core read it); a
    # JSON null is no area, whatever the database makes of it.
    given = Q(application__facts__has_key="disturbed_area") & ~Q(
        application__facts__disturbed_area=None
    )
    permits = (
        Permit.objects.filter(village_id=village_id)
        .order_by()
        .annotate(
            sq_ft=Cast(KeyTextTransform("disturbed_area", "application__facts"), FloatField())
        )
        .aggregate(
            issued=Count("pk", filter=issued),
            closed=Count("pk", filter=Q(status=PermitStatus.CLOSED) & p.days("closed_on")),
            expired=Count(
                "pk",
                filter=Q(
                    status=PermitStatus.ACTIVE,
                    expires_on__gte=p.first_day,
                    expires_on__lte=expired_to,
                ),
            ),
            in_force=Count("pk", filter=in_force),
            area=Sum("sq_ft", filter=issued & given),
            with_area=Count("pk", filter=issued & given),
            one_acre=Count("pk", filter=issued & given & Q(sq_ft__gte=ONE_ACRE_SQ_FT)),
        )
    )
    extensions = (
        PermitExtension.objects.filter(permit__village_id=village_id, on_appeal="")
        .filter(p.days("granted_on"))
        .order_by()
        .aggregate(permits=Count("permit", distinct=True), extensions=Count("pk"))
    )
    square_feet = float(permits["area"] or 0)
    area = convert_between(square_feet, "ft**2", "acre") or 0.0
    missing = permits["issued"] - permits["with_area"]
    in_force_day = day_words(day) + (" (today)" if day == p.today else "")
    figures = [
        Figure(
            "applications-received",
            PERMITS,
            "Applications received",
            count(applications["received"]),
            f"applications whose complete filing was received in {year} (the day the review "
            "clock started)",
        ),
        Figure(
            "permits-issued",
            PERMITS,
            "Permits issued",
            count(permits["issued"]),
            f"permits whose day of issue is in {year}",
        ),
        Figure(
            "applications-disapproved",
            PERMITS,
            "Applications disapproved",
            count(applications["disapproved"]),
            f"applications disapproved, with written reasons, in {year}",
        ),
        Figure(
            "permits-extended",
            PERMITS,
            "Permits extended",
            count(extensions["permits"]),
            f"permits the village extended in {year} "
            f"({times(extensions['extensions'], 'extension', 'extensions')} in all); a period "
            "set on appeal is not counted",
        ),
        Figure(
            "permits-closed",
            PERMITS,
            "Permits closed at final stabilization",
            count(permits["closed"]),
            f"permits closed at final stabilization with a closing day in {year}",
        ),
        Figure(
            "permits-expired",
            PERMITS,
            "Permits that expired",
            count(permits["expired"]),
            f"permits whose last day fell in {year}"
            + (" before today" if expired_to < p.last_day else "")
            + ", and that were never closed at final stabilization nor revoked",
        ),
        Figure(
            "permits-in-force",
            PERMITS,
            f"Permits in force on {in_force_day}",
            count(permits["in_force"]),
            f"permits issued by {day_words(day)} whose last day had not passed, and that "
            "were not closed or revoked by the end of that day",
        ),
        Figure(
            "acres-disturbed",
            PERMITS,
            "Acres disturbed on permits issued",
            acres(area),
            f"the disturbed area the applications gave, added up over the permits issued in "
            f"{year}; "
            + (
                f"{times(missing, 'permit', 'permits')} gave no area and "
                + ("is" if missing == 1 else "are")
                + " not counted"
                if missing
                else "every one gave its area"
            ),
        ),
    ]
    return _Permits(
        figures=figures,
        received=applications["received"],
        issued=permits["issued"],
        in_force=permits["in_force"],
        in_force_day=in_force_day,
        one_acre=permits["one_acre"],
        with_area=permits["with_area"],
    )


# -- inspections --------------------------------------------------------------------------


@dataclass
class _Inspections:
    figures: list[Figure]
    made: int
    sites: int
    permittee: int


def _inspection_figures(village_id: str, p: _Period, ordinance: Any) -> _Inspections:
    year = p.year
    village = (
        Inspection.objects.filter(permit__village_id=village_id)
        .filter(p.moments("at"))
        .order_by()
        .aggregate(made=Count("pk"), sites=Count("permit", distinct=True))
    )
    permittee = (
        SiteLogEntry.objects.filter(permit__village_id=village_id, kind=EntryKind.SELF_INSPECTION)
        .filter(p.moments("at"))
        .order_by()
        .aggregate(made=Count("pk"), sites=Count("permit", distinct=True))
    )
    missed = duties_missed(village_id, year)
    sets_village_inspections = any(
        rule["kind"] in VILLAGE_INSPECTIONS for rule in ordinance.rules["duties"]
    )
    village_missed_how = (
        f"periods of the village's inspection schedule ending in {year} in which a permitted "
        "site had fewer village inspections than the chapter sets, as the program last "
        "worked out each permit's duties"
        if sets_village_inspections
        else "the village's chapter sets no schedule of village inspections, so none is "
        "counted as missed"
    )
    figures = [
        Figure(
            "village-inspections",
            INSPECTIONS,
            "Inspections made by the village",
            count(village["made"]),
            f"the village's inspection records of permitted sites dated in {year}",
        ),
        Figure(
            "sites-inspected",
            INSPECTIONS,
            "Sites inspected by the village",
            count(village["sites"]),
            f"permitted sites with at least one village inspection dated in {year}",
        ),
        Figure(
            "permittee-inspections",
            INSPECTIONS,
            "Inspections made by permittees",
            count(permittee["made"]),
            f"inspections of the control measures the permittees entered in their site logs, "
            f"dated in {year} (on {times(permittee['sites'], 'site', 'sites')})",
        ),
        Figure(
            "permittee-duties-missed",
            INSPECTIONS,
            "Inspections the permittees missed",
            count(missed["permittee"]),
            f"weekly inspections and inspections after rain that the permittees owed by a day "
            f"in {year} and had not made when the program last worked out each permit's "
            "duties (a week that passed with no inspection stays missed; an inspection after "
            "rain made late is not counted)",
        ),
        Figure(
            "village-duties-missed",
            INSPECTIONS,
            "Inspections the village missed",
            count(missed["village"]),
            village_missed_how,
        ),
    ]
    return _Inspections(
        figures=figures, made=village["made"], sites=village["sites"], permittee=permittee["made"]
    )


def duties_missed(village_id: str, year: int) -> dict[str, int]:
    """The inspection duties of the village's permits, as last stored (``PermitDuties``),
    that are due in ``year`` and were overdue when stored: the permittees' weekly and
    after-rain inspections, and the village's own scheduled inspections.

    A duty's status is the core's: "met" (with the event that met it), "open" (not yet due)
    or "overdue" (due and not met). A week with no inspection stays overdue for good: the
    next inspection meets the next week, not that one. A duty's due is a day
    (``2026-05-15``) or a local moment (``2026-05-15T10:00:00-05:00``); its first four
    characters are its year, in the village's time. One query, counted in the database."""
    table = PermitDuties._meta.db_table
    kinds = PERMITTEE_INSPECTIONS + VILLAGE_INSPECTIONS
    marks = ", ".join(["%s"] * len(kinds))
    if connection.vendor == "postgresql":
        rows = f"{table} AS p CROSS JOIN LATERAL jsonb_array_elements(p.duties) AS d(value)"

        def get(key: str) -> str:
            return f"(d.value ->> '{key}')"
    else:
        rows = f"{table} AS p, json_each(p.duties) AS d"

        def get(key: str) -> str:
            return f"json_extract(d.value, '$.{key}')"

    permittee = ", ".join(["%s"] * len(PERMITTEE_INSPECTIONS))
    sql = (
        "SELECT "
        f"COALESCE(SUM(CASE WHEN {get('kind')} IN ({permittee}) THEN 1 ELSE 0 END), 0), "
        "COUNT(*) "
        f"FROM {rows} "
        f"WHERE p.village_id = %s AND {get('kind')} IN ({marks}) "
        f"AND {get('status')} = %s AND substr({get('due')}, 1, 4) = %s"
    )
    params: list[Any] = [*PERMITTEE_INSPECTIONS, village_id, *kinds, "overdue", f"{year:04d}"]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchone()
    permittee_missed, missed = (int(found[0] or 0), int(found[1] or 0)) if found else (0, 0)
    return {"permittee": permittee_missed, "village": missed - permittee_missed}


# -- by month -----------------------------------------------------------------------------


def _monthly(rows: QuerySet[Any], month: Any) -> list[int]:
    counts = [0] * 12
    grouped = rows.order_by().annotate(m=month).values("m").annotate(n=Count("pk"))
    for m, n in grouped.values_list("m", "n"):
        if m:
            counts[int(m) - 1] = int(n)
    return counts


def _months(village_id: str, p: _Period) -> list[dict[str, Any]]:
    applications = _monthly(
        Application.objects.filter(village_id=village_id).filter(p.moments("received_at")),
        ExtractMonth("received_at", tzinfo=p.zone),
    )
    permits = _monthly(
        Permit.objects.filter(village_id=village_id).filter(p.days("issued_on")),
        ExtractMonth("issued_on"),
    )
    village = _monthly(
        Inspection.objects.filter(permit__village_id=village_id).filter(p.moments("at")),
        ExtractMonth("at", tzinfo=p.zone),
    )
    permittee = _monthly(
        SiteLogEntry.objects.filter(
            permit__village_id=village_id, kind=EntryKind.SELF_INSPECTION
        ).filter(p.moments("at")),
        ExtractMonth("at", tzinfo=p.zone),
    )
    return [
        {
            "number": i + 1,
            "name": name,
            "short": name[:3],
            "applications": applications[i],
            "permits": permits[i],
            "village_inspections": village[i],
            "permittee_inspections": permittee[i],
        }
        for i, name in enumerate(MONTHS)
    ]
