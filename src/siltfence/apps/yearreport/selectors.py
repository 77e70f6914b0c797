"""The figures of a village's year-end report to its board, for one calendar year.

Every figure is counted in the database, by aggregate queries whose number does not grow
with the village's records: a few counts and sums per table, one grouped count per chart,
and one query over the stored duties' lists. Nothing is read row by row into Python.

The year runs from January 1, 00:00 to December 31, 24:00 in the village's own time zone
(its ordinance data): an application received at 23:30 on December 31 is in that year, one
received at 00:30 on January 1 is in the next. A year still running is counted to today.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from django.db import connection
from django.db.models import Count, DecimalField, Exists, FloatField, OuterRef, Q, QuerySet, Sum
from django.db.models.fields.json import KT, KeyTextTransform
from django.db.models.functions import Cast, Coalesce, ExtractMonth

from siltfence.apps.accounts.models import village_today
from siltfence.apps.duties.models import PermitDuties
from siltfence.apps.enforcement.models import (
    ActionKind,
    EnforcementAction,
    Invoice,
    Violation,
    ViolationSource,
    ViolationStatus,
)
from siltfence.apps.inspections.models import Inspection
from siltfence.apps.permits.models import (
    Application,
    ApplicationStatus,
    Permit,
    PermitExtension,
    PermitStatus,
    SuretyMovement,
    SuretyMovementKind,
)
from siltfence.apps.sitelog.models import EntryKind, SiteLogEntry
from siltfence.core.ordinance.loader import load
from siltfence.core.quantities import convert_between

FIRST_YEAR = 1990
LAST_YEAR = 2100
ONE_ACRE_SQ_FT = convert_between(1.0, "acre", "ft**2") or 43_560.0

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)

# Steps of an enforcement case that are not actions the village takes against a site: a
# site complying, and the record that a bill went unpaid (the board reports leave them out
# the same way, ``enforcement.register.report_data``).
NOT_ACTIONS = (ActionKind.COMPLIANCE, ActionKind.COSTS_UNPAID)
# What each kind of enforcement action counts, in words.
ACTION_COUNTS = {
    ActionKind.STOP_WORK_ORDER: "stop-work orders posted on sites",
    ActionKind.REVOCATION: "permits revoked",
    ActionKind.NOTICE_TO_CEASE: "notices to cease work without a permit given",
    ActionKind.CEASE_AND_DESIST_REFERRAL: (
        "cases sent to the village's attorney for a cease-and-desist order"
    ),
    ActionKind.RETRACTION: (
        "stop-work orders and revocations retracted, by the village or on appeal"
    ),
    ActionKind.NOTICE_OF_INTENT: "notices of the village's intent to do the work itself",
    ActionKind.VILLAGE_WORK: "times the village began doing the work on the land itself",
    ActionKind.INVOICE: "bills sent for the costs of the village's work",
    ActionKind.CERTIFICATION: "unpaid costs certified to the tax roll",
    ActionKind.INJUNCTION_REFERRAL: "cases referred to the village's attorney for an injunction",
    ActionKind.PROSECUTION_REFERRAL: "cases referred for prosecution for a forfeiture",
}
# The permittee's inspections the stored duties hold (the core's duty kinds), and the
# village's own, where its chapter sets a schedule of them.
PERMITTEE_INSPECTIONS = ("weekly_inspection", "rain_inspection")
VILLAGE_INSPECTIONS = ("municipal_inspection",)
NOT_RECORDED = "Not recorded in siltfence — fill in by hand"

PERMITS = "Permits"
INSPECTIONS = "Inspections"
COMPLAINTS = "Complaints and violations"
ENFORCEMENT = "Enforcement actions"
MONEY = "Costs and forfeitures"
BY_MONTH = "By month"
MS4 = "MS4 annual report: construction site pollutant control (minimum control measure 4)"


@dataclass(frozen=True)
class Figure:
    """One figure of the report as the page and the CSV show it."""

    key: str
    section: str
    name: str
    value: str
    how: str


@dataclass
class YearReport:
    village_id: str
    village: str
    year: int
    first_day: datetime.date
    last_day: datetime.date
    today: datetime.date
    counted_to: datetime.date  # the last day counted: December 31, or today while it runs
    running: bool
    begun: bool
    sections: list[tuple[str, list[Figure]]] = field(default_factory=list)
    months: list[dict[str, Any]] = field(default_factory=list)
    ms4: list[Figure] = field(default_factory=list)

    @property
    def monthly_figures(self) -> list[Figure]:
        figures = []
        for row in self.months:
            for key, name in MONTH_COLUMNS:
                figures.append(
                    Figure(
                        key=f"{key}-{row['number']:02d}",
                        section=BY_MONTH,
                        name=f"{name}, {row['name']}",
                        value=count(row[key]),
                        how=f"the same count as the year's figure, for {row['name']} {self.year}",
                    )
                )
        return figures

    def figures(self) -> list[Figure]:
        """Every figure, in the page's order: the sections, the months, the MS4 part."""
        found = [f for _, figures in self.sections for f in figures]
        return found + self.monthly_figures + self.ms4


MONTH_COLUMNS = (
    ("applications", "Applications received"),
    ("permits", "Permits issued"),
    ("village_inspections", "Inspections by the village"),
    ("permittee_inspections", "Inspections by permittees"),
)


# -- words --------------------------------------------------------------------------------


def day_words(day: datetime.date) -> str:
    """``December 31, 2026``."""
    return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"


def count(n: int | None) -> str:
    return f"{n or 0:,}"


def money(amount: Decimal | None) -> str:
    value = Decimal(amount or 0).quantize(Decimal("0.01"))
    return f"${value:,.2f}"


def acres(value: float) -> str:
    return f"{value:,.2f} acres"


def times(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


# -- the report ---------------------------------------------------------------------------


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


@dataclass(frozen=True)
class _Period:
    year: int
    zone: ZoneInfo
    first_day: datetime.date
    last_day: datetime.date
    today: datetime.date
    counted_to: datetime.date

    @property
    def start(self) -> datetime.datetime:
        return datetime.datetime.combine(self.first_day, datetime.time(0), tzinfo=self.zone)

    @property
    def end(self) -> datetime.datetime:
        day = self.last_day + datetime.timedelta(days=1)
        return datetime.datetime.combine(day, datetime.time(0), tzinfo=self.zone)

    def moments(self, name: str) -> Q:
        """``name`` (a moment) falls in the year, in the village's time."""
        return Q(**{f"{name}__gte": self.start, f"{name}__lt": self.end})

    def days(self, name: str) -> Q:
        """``name`` (a day) falls in the year."""
        return Q(**{f"{name}__gte": self.first_day, f"{name}__lte": self.last_day})


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


# -- complaints ---------------------------------------------------------------------------


@dataclass
class _Complaints:
    figures: list[Figure]
    received: int
    found: int
    dismissed: int
    waiting: int


def _complaint_figures(village_id: str, p: _Period) -> _Complaints:
    year = p.year
    complaint = Q(source=ViolationSource.COMPLAINT) & p.moments("reported_at")
    found = (
        Violation.objects.filter(village_id=village_id)
        .order_by()
        .aggregate(
            received=Count("pk", filter=complaint),
            found=Count("pk", filter=complaint & Q(status=ViolationStatus.FOUND)),
            dismissed=Count("pk", filter=complaint & Q(status=ViolationStatus.DISMISSED)),
            waiting=Count("pk", filter=complaint & Q(status=ViolationStatus.REPORTED)),
            by_village=Count(
                "pk",
                filter=Q(
                    source__in=(ViolationSource.INSPECTION, ViolationSource.OBSERVATION),
                    status=ViolationStatus.FOUND,
                )
                & p.moments("reported_at"),
            ),
        )
    )
    of_them = f"of the complaints received in {year}"
    figures = [
        Figure(
            "complaints-received",
            COMPLAINTS,
            "Complaints received from the public",
            count(found["received"]),
            f"reports about a site that members of the public sent in {year}",
        ),
        Figure(
            "complaints-found",
            COMPLAINTS,
            "Complaints that found a violation",
            count(found["found"]),
            f"{of_them}, those staff reviewed and found a violation",
        ),
        Figure(
            "complaints-dismissed",
            COMPLAINTS,
            "Complaints dismissed",
            count(found["dismissed"]),
            f"{of_them}, those staff reviewed and dismissed",
        ),
        Figure(
            "complaints-waiting",
            COMPLAINTS,
            "Complaints still waiting for review",
            count(found["waiting"]),
            f"{of_them}, those staff have not reviewed yet",
        ),
        Figure(
            "violations-found",
            COMPLAINTS,
            "Violations the village found itself",
            count(found["by_village"]),
            f"violations recorded in {year} from the village's own inspections and "
            "observations (complaints are counted above)",
        ),
    ]
    return _Complaints(
        figures=figures,
        received=found["received"],
        found=found["found"],
        dismissed=found["dismissed"],
        waiting=found["waiting"],
    )


# -- enforcement --------------------------------------------------------------------------


def _actions(village_id: str, p: _Period) -> QuerySet[EnforcementAction]:
    return EnforcementAction.objects.filter(case__village_id=village_id).filter(p.moments("at"))


def _action_figures(village_id: str, p: _Period) -> tuple[list[Figure], int, list[tuple[str, int]]]:
    found = dict(
        _actions(village_id, p)
        .order_by()
        .values("kind")
        .annotate(n=Count("pk"))
        .values_list("kind", "n")
    )
    figures = []
    by_kind = []
    for kind in ActionKind:
        if kind in NOT_ACTIONS:
            continue
        n = int(found.get(kind.value, 0))
        by_kind.append((str(kind.label), n))
        what = ACTION_COUNTS.get(kind, str(kind.label).lower())
        figures.append(
            Figure(
                f"action-{kind.value}",
                ENFORCEMENT,
                str(kind.label),
                count(n),
                f"{what}, in {p.year}",
            )
        )
    total = sum(n for _, n in by_kind)
    figures.append(
        Figure(
            "actions-total",
            ENFORCEMENT,
            "Enforcement actions in all",
            count(total),
            f"every enforcement action above, taken in {p.year} (a site's compliance with an "
            "order, and the record that a bill went unpaid, are not actions and not counted)",
        )
    )
    return figures, total, by_kind


# -- costs and forfeitures ----------------------------------------------------------------


def _money_figures(village_id: str, p: _Period) -> list[Figure]:
    year = p.year
    bills = (
        Invoice.objects.filter(case__village_id=village_id)
        .order_by()
        .aggregate(
            bills=Count("pk", filter=p.days("issued_on")),
            billed=Sum("principal", filter=p.days("issued_on")),
            paid_bills=Count("pk", filter=p.days("paid_on") & Q(paid_amount__gt=0)),
            recovered=Sum("paid_amount", filter=p.days("paid_on") & Q(paid_amount__gt=0)),
        )
    )
    draws = (
        SuretyMovement.objects.filter(
            surety__permit__village_id=village_id, kind=SuretyMovementKind.DRAW
        )
        .filter(p.days("on"))
        .order_by()
        .aggregate(n=Count("pk"), amount=Sum("amount"))
    )
    amount = DecimalField(max_digits=14, decimal_places=2)
    referrals = (
        _actions(village_id, p)
        .filter(kind=ActionKind.PROSECUTION_REFERRAL)
        .order_by()
        .annotate(
            least=Cast(KT("details__min"), amount),
            most=Cast(KT("details__max"), amount),
            days=Cast(Coalesce(KT("details__offenses"), KT("details__days")), FloatField()),
        )
        .aggregate(
            n=Count("pk"),
            with_amounts=Count("pk", filter=Q(details__has_key="min") & ~Q(details__min=None)),
            smallest=Sum("least"),
            largest=Sum("most"),
            offenses=Sum("days"),
        )
    )
    unpriced = referrals["n"] - referrals["with_amounts"]
    unpriced_words = (
        f"; {times(unpriced, 'referral has', 'referrals have')} no amount entered and "
        + ("is" if unpriced == 1 else "are")
        + " not in it"
        if unpriced
        else ""
    )
    return [
        Figure(
            "costs-billed",
            MONEY,
            "Costs of village work billed",
            money(bills["billed"]),
            f"{times(bills['bills'], 'bill', 'bills')} for the costs of the village's own work "
            f"on the land, dated in {year}",
        ),
        Figure(
            "costs-recovered",
            MONEY,
            "Costs of village work recovered",
            money(bills["recovered"]),
            f"what was paid on {times(bills['paid_bills'], 'bill', 'bills')} whose latest "
            f"payment was in {year} (the record keeps each bill's total paid and the day of "
            "its latest payment, so a bill paid in parts over two years counts in the later)",
        ),
        Figure(
            "surety-draws",
            MONEY,
            "Drawn on sureties for the village's costs",
            money(draws["amount"]),
            f"{times(draws['n'], 'draw', 'draws')} on permittees' surety bonds or letters of "
            f"credit dated in {year}",
        ),
        Figure(
            "forfeiture-referrals",
            MONEY,
            "Cases referred for a forfeiture",
            count(referrals["n"]),
            f"referrals for prosecution for a forfeiture made in {year}",
        ),
        Figure(
            "forfeiture-offenses",
            MONEY,
            "Offenses referred",
            count(int(referrals["offenses"] or 0)),
            f"offenses in the referrals made in {year}: each violation, each day, is a "
            "separate offense",
        ),
        Figure(
            "forfeiture-smallest",
            MONEY,
            "Forfeitures referred, smallest total",
            money(referrals["smallest"]),
            f"the smallest forfeiture the law sets for the offenses referred in {year}, added "
            f"up{unpriced_words}",
        ),
        Figure(
            "forfeiture-largest",
            MONEY,
            "Forfeitures referred, largest total",
            money(referrals["largest"]),
            f"the largest forfeiture the law sets for the offenses referred in {year}, added "
            f"up{unpriced_words}",
        ),
    ]


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


# -- the MS4 annual report ----------------------------------------------------------------


def _ms4(
    report: YearReport,
    ordinance: Any,
    permits: _Permits,
    inspections: _Inspections,
    complaints: _Complaints,
    actions_total: int,
    by_kind: list[tuple[str, int]],
) -> list[Figure]:
    """What an MS4's annual report asks under construction site pollutant control, each
    with where siltfence holds it, or that it does not."""
    year = report.year
    taken = "; ".join(f"{name} {n}" for name, n in by_kind if n) or "none"
    responded = complaints.found + complaints.dismissed

    def row(key: str, name: str, value: str, how: str) -> Figure:
        return Figure(f"ms4-{key}", MS4, name, value, how)

    return [
        row(
            "ordinance",
            "Construction site erosion control ordinance in force",
            f"Chapter {ordinance.chapter}, {ordinance.title}",
            f"the village's chapter as siltfence holds it, adopted {day_words(ordinance.adopted)}",
        ),
        row(
            "ordinance-changes",
            "Changes to the ordinance during the year",
            NOT_RECORDED,
            "siltfence holds the chapter's words, not the board's actions amending it",
        ),
        row(
            "plans",
            "Erosion control plans received for review",
            count(permits.received),
            "Permits: applications received (each is filed with its control plan)",
        ),
        row(
            "sites-permitted",
            "Construction sites permitted",
            count(permits.issued),
            "Permits: permits issued (one permit per site)",
        ),
        row(
            "one-acre",
            "Permitted sites disturbing one acre or more",
            count(permits.one_acre),
            f"permits issued in {year} whose application gave a disturbed area of one acre or "
            f"more ({times(permits.issued - permits.with_area, 'permit', 'permits')} gave no "
            "area); such sites also need the state's construction site permit, and whether "
            "each has it is not recorded in siltfence",
        ),
        row(
            "sites-active",
            "Permitted construction sites active at the end of the year",
            count(permits.in_force),
            f"Permits: permits in force on {permits.in_force_day}",
        ),
        row(
            "sites-inspected",
            "Construction sites inspected",
            count(inspections.sites),
            "Inspections: sites inspected by the village",
        ),
        row(
            "inspections",
            "Construction site inspections made",
            count(inspections.made),
            "Inspections: inspections made by the village (the permittees' own "
            f"{times(inspections.permittee, 'inspection is', 'inspections are')} not in it)",
        ),
        row(
            "enforcement",
            "Enforcement actions taken, by type",
            count(actions_total),
            f"Enforcement actions, by type: {taken}",
        ),
        row(
            "complaints",
            "Complaints received from the public",
            count(complaints.received),
            "Complaints and violations: complaints received from the public",
        ),
        row(
            "complaints-responded",
            "Complaints responded to",
            count(responded),
            f"complaints received in {year} that staff reviewed: {complaints.found} found a "
            f"violation, {complaints.dismissed} dismissed ({complaints.waiting} still waiting)",
        ),
        row(
            "training",
            "Staff training on construction site erosion control",
            NOT_RECORDED,
            "siltfence keeps no record of training",
        ),
        row(
            "form-fields",
            "The state's annual report form: its question and field numbers",
            NOT_RECORDED,
            "siltfence does not hold the form; copy each figure above to the question it answers",
        ),
    ]
