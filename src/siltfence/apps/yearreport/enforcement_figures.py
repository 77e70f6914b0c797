"""The report's figures on complaints, enforcement actions, and costs and forfeitures.

Complaints from the public and what became of them, the violations the village found
itself, each kind of enforcement action taken, and the money: the costs of the village's
own work billed and recovered, the draws on sureties, and the forfeitures referred. Every
figure is counted in the database by aggregate queries, never row by row.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, DecimalField, FloatField, Q, QuerySet, Sum
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce

from siltfence.apps.enforcement.models import (
    ActionKind,
    EnforcementAction,
    Invoice,
    Violation,
    ViolationSource,
    ViolationStatus,
)
from siltfence.apps.permits.models import SuretyMovement, SuretyMovementKind
from siltfence.apps.yearreport.report import (
    COMPLAINTS,
    ENFORCEMENT,
    MONEY,
    Figure,
    _Period,
    count,
    money,
    times,
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
