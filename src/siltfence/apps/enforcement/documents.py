"""The enforcement documents, as plain lines (tested against golden snapshots) laid out as
PDF and kept with the case: the stop-work placard, the revocation, the referrals, the
notice of intent, the invoice, the tax-roll certification and the complaint
acknowledgement. Every section number, body, officer and statute comes from the
ordinance data, so another village gets its own wording without code."""

from __future__ import annotations

import datetime
import hashlib
import uuid
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from django.core.files.base import ContentFile
from django.db import transaction
from fpdf import FPDF

from siltfence.apps.audit.chain import event_record
from siltfence.apps.documents.addressees import (
    addressee_lines,
    case_addressees,
    office_lines,
    village_holds_land,
)
from siltfence.apps.documents.pdf import latin1, lines_to_pdf
from siltfence.core.ordinance.loader import load
from siltfence.core.ordinance.model import Ordinance
from siltfence.presentation.today import ordinance_on

KIND_TITLES = {
    "stop_work_placard": "Stop-work order",
    "revocation": "Revocation of permit",
    "retraction": "Retraction",
    "cease_and_desist_referral": "Cease-and-desist referral",
    "notice_of_intent": "Notice of intent",
    "notice_to_cease": "Notice to cease",
    "warning_letter": "Warning letter",
    "invoice": "Invoice",
    "tax_roll_certification": "Certification to the tax roll",
    "injunction_referral": "Injunction referral",
    "prosecution_referral": "Forfeiture prosecution referral",
}


def _when(at: datetime.datetime, zone: str, *, time: bool = True) -> str:
    local = at.astimezone(ZoneInfo(zone))
    if not time:
        return f"{local:%B %-d, %Y}"
    return f"{local:%B %-d, %Y at %-I:%M %p}".replace("AM", "a.m.").replace("PM", "p.m.")


def _day(value: datetime.date | str) -> str:
    if isinstance(value, str):
        value = datetime.date.fromisoformat(value)
    return f"{value:%B %-d, %Y}"


def _money(value: Decimal | str) -> str:
    return f"${Decimal(value):,.2f}"


def _head(ordinance: Ordinance, title: str) -> list[str]:
    return [
        ordinance.name.upper(),
        f"{ordinance.county}, {ordinance.state}",
        "",
        title,
        f"Ch. {ordinance.chapter}, {ordinance.title}",
        "",
    ]


def _site(case: Any) -> list[str]:
    lines = [f"Site: {case.address}"]
    if case.parcel_number:
        lines.append(f"Parcel: {case.parcel_number}")
    permit = _permit(case)
    lines.append(f"Permit: {permit.number}" if permit else "Permit: none issued for this site")
    lines.append(f"Case: {case.number}")
    return lines


def _permit(case: Any) -> Any:
    if case.application_id is None:
        return None
    return getattr(case.application, "permit", None)


def _gap(ordinance: Ordinance, id: str) -> dict[str, Any] | None:
    return next((dict(g) for g in ordinance.rules["gaps"] if g["id"] == id), None)


def _village_land(ordinance: Ordinance, case: Any) -> str:
    """A line saying the village holds the land, where it does (the ``village-holds-land``
    reading: the notices and the bill go to the permittee)."""
    application = case.application if case.application_id is not None else None
    if not village_holds_land(application):
        return ""
    gap = _gap(ordinance, "village-holds-land")
    cited = f" [{', '.join(gap['citations'])}]" if gap else ""
    permittee = ordinance.words.get("permittee", "permittee")
    return (
        f"Landowner: the {ordinance.name} itself holds this land (a right-of-way); this "
        f"notice goes to the {permittee}, and no special assessment is made against the "
        f"village's own land{cited}."
    )


def addressed(ordinance: Ordinance, case: Any) -> list[str]:
    """To whom (names and mailing addresses, or plainly none) and from what office (its
    address and phone from the village's data), for the head of a notice."""
    lines = addressee_lines(
        case_addressees(case, ordinance), village_land=_village_land(ordinance, case)
    )
    return [*lines, "", *office_lines(ordinance, case.village), ""]


def _remedy(rule: Any) -> str:
    remedy = rule.get("remedy") if rule else None
    if not remedy:
        return ""
    return f"{remedy['says']} [{remedy['citation']}]."


def _action_rule(ordinance: Ordinance, action: str, citation: str = "") -> Any:
    rules = [r for r in ordinance.rules["enforcement"]["actions"] if r["action"] == action]
    cited = [r for r in rules if r["citation"] == citation]
    return (cited or rules or [None])[0]


def order_must_do(ordinance: Ordinance, grounds: list[dict[str, Any]]) -> list[str]:
    """What lifts a stop-work order: what each of its grounds requires, how it ends, and
    what follows if it is not done (the steps that run from the posting)."""
    rule = ordinance.rules["enforcement"]["stop_work_order"]
    by_id = {g["id"]: g for g in rule["grounds"]}
    lines = ["WHAT YOU MUST DO TO LIFT THIS ORDER:"]
    for ground in grounds:
        remedy = _remedy(by_id.get(ground["id"]))
        if remedy:
            lines.append(f"- {remedy}")
    lift = rule.get("lift")
    if lift:
        lines.append(f"{lift['says']} [{lift['citation']}].")
    permitted = all(g["id"] != "no-permit" for g in grounds)
    follows = [
        r
        for r in ordinance.rules["enforcement"]["actions"]
        if r["after_event"] == "stop_work_order_posted"
        and r.get("requires_permit") in (None, permitted)
    ]
    if follows:
        lines.append("IF IT IS NOT DONE:")
        lines += [f"- {r['says']} [{r['citation']}]." for r in follows]
    return lines


def appeal_lines(ordinance: Ordinance, what: str) -> list[str]:
    """How to appeal ``what`` (an order's id as in ``appeals.not_appealable``), from the
    data: the body, who may appeal, and what may not be appealed."""
    appeals = ordinance.rules["appeals"]
    barred = [n for n in appeals["not_appealable"] if n["what"] == what]
    if barred:
        return [
            f"APPEAL. This order may not be appealed to the {appeals['body']} "
            f"[{barred[0]['citation']}]."
        ]
    who = ", ".join(w.replace("_", " ") for w in appeals["who_may_appeal"])
    lines = [
        f"APPEAL. {appeals['says']} [{appeals['citation']}].",
        f"Who may appeal: {who} [{appeals['who_citation']}].",
    ]
    for item in appeals["not_appealable"]:
        lines.append(f"Not appealable: {item['what'].replace('_', ' ')} [{item['citation']}].")
    return lines


def placard_lines(*, ordinance: Ordinance, case: Any, action: Any) -> list[str]:
    rule = ordinance.rules["enforcement"]["stop_work_order"]
    lines = [
        "STOP WORK ORDER",
        ordinance.name.upper(),
        f"Ch. {ordinance.chapter}, {ordinance.title} [{rule['citation']}]",
        "",
        f"The {ordinance.authority_title} orders that {rule['requires']['says']} "
        f"[{rule['requires']['citation']}].",
        "",
        *_site(case),
        f"Posted: {_when(action.at, ordinance.time_zone)}",
        "",
        *addressed(ordinance, case),
        "GROUNDS:",
    ]
    lines += [f"- {g['says']} [{g['citation']}]" for g in action.grounds]
    lines += ["", *order_must_do(ordinance, list(action.grounds))]
    lines += ["", "DO NOT REMOVE THIS NOTICE.", ""]
    lines += appeal_lines(ordinance, "stop_work_order")
    lines += ["", f"{ordinance.authority_title}, {ordinance.name}"]
    return lines


def revocation_lines(*, ordinance: Ordinance, case: Any, action: Any) -> list[str]:
    permit = _permit(case)
    lines = _head(ordinance, f"REVOCATION OF PERMIT No. {permit.number if permit else ''}")
    lines += [
        *_site(case),
        f"Revoked: {_when(action.at, ordinance.time_zone)}",
        "",
        *addressed(ordinance, case),
        f"The {ordinance.authority_title} revokes this permit [{action.citation}].",
        f"Lawful from {_day(action.details['lawful_from'])}: {action.details['because']}.",
        "",
        "REASONS:",
        action.note,
        "",
    ]
    remedy = _remedy(_action_rule(ordinance, "revoke_permit", action.citation))
    if remedy:
        lines += ["WHAT YOU MUST DO:", remedy, ""]
    lines += appeal_lines(ordinance, "revocation")
    retraction = ordinance.rules["enforcement"]["retraction"]
    lines += [f"RETRACTION. {retraction['says']} [{retraction['citation']}].", ""]
    lines += [f"{ordinance.authority_title}, {ordinance.name}"]
    return lines


def retraction_lines(*, ordinance: Ordinance, case: Any, action: Any) -> list[str]:
    """The letter that lifts a stop-work order or a revocation (§ 413-10D, § 135-11D)."""
    order = action.details["order"]
    what = "STOP-WORK ORDER" if order == "stop_work_order" else "REVOCATION OF PERMIT"
    by = (
        f"the {ordinance.appeals_body['title']}, deciding appeal {action.details['appeal']}"
        if action.details.get("by") == "appeals_board"
        else f"the {ordinance.authority_title}"
    )
    lines = _head(ordinance, f"RETRACTION OF {what}")
    lines += [*_site(case), f"Retracted: {_when(action.at, ordinance.time_zone)}", ""]
    lines += addressed(ordinance, case)
    if order == "stop_work_order":
        lines.append(f"The stop-work order on this site is retracted by {by} [{action.citation}].")
        lines.append("Work may resume under the permit and its approved plan.")
    else:
        lines.append(
            f"The revocation of permit {action.details.get('permit', '')} is retracted by {by} "
            f"[{action.citation}]."
        )
        permit = _permit(case)
        retracted_on = action.at.astimezone(ZoneInfo(ordinance.time_zone)).date()
        if permit is not None and permit.expires_on < retracted_on:
            lines.append(
                f"The permit's period ended on {_day(permit.expires_on)}: work on the site "
                "needs a new permit."
            )
        elif permit is not None:
            rule = ordinance.rules["permit"]
            lines.append(
                "The permit is in force again, with all its conditions, through "
                f"{_day(permit.expires_on)}. Its period is not lengthened by the time it was "
                f"revoked; the {ordinance.authority_title} may extend it [{rule['citation']}]."
            )
    if action.note:
        lines += ["", "REASONS:", action.note]
    lines += ["", f"{ordinance.authority_title}, {ordinance.name}"]
    return lines


def _attorney(ordinance: Ordinance) -> str:
    attorney = ordinance.rules["enforcement"].get("attorney") or {}
    return str(attorney.get("title", "attorney for the village"))


def referral_lines(*, ordinance: Ordinance, case: Any, action: Any) -> list[str]:
    kind = action.kind
    title = {
        "cease_and_desist_referral": "REQUEST FOR A CEASE-AND-DESIST ORDER",
        "injunction_referral": "REFERRAL FOR AN INJUNCTION",
        "prosecution_referral": "REFERRAL FOR FORFEITURE PROSECUTION",
    }[kind]
    lines = _head(ordinance, title)
    lines += [
        f"To: {_attorney(ordinance)}",
        f"From: {ordinance.authority_title}",
        f"Date: {_when(action.at, ordinance.time_zone, time=False)}",
        "",
        *_site(case),
        "",
    ]
    if kind == "cease_and_desist_referral":
        lines += [
            f"The {ordinance.authority_title} asks the {_attorney(ordinance)} to obtain a "
            f"cease-and-desist order [{action.citation}].",
            f"Lawful from {_day(action.details['lawful_from'])}: {action.details['because']}.",
        ]
        lines += ["", *appeal_lines(ordinance, "cease_and_desist_referral")]
    elif kind == "injunction_referral":
        lines += [f"{action.details['says']} [{action.citation}]."]
    else:
        rule = ordinance.rules["enforcement"]["forfeiture"]
        details = action.details
        lines += [f"{rule['says']} [{rule['citation']}].", ""]
        if details.get("days"):
            offenses = details.get("offenses", details["days"])
            lines.append(
                f"Offenses: {offenses}, each violation on each day it existed until compliance "
                f"a separate offense; on {details['days']} days from "
                f"{_day(details['first_day'])} to {_day(details['last_day'])}."
            )
        if details.get("source") == "not_entered":
            lines.append(
                f"Forfeiture for each offense: the amount set by {_outside(rule)}, not entered "
                "in the village's settings."
            )
        elif details.get("min_per_day") is not None:
            lines.append(
                f"Forfeiture for each offense: {_money(details['min_per_day'])} to "
                f"{_money(details['max_per_day'])}; for all offenses: "
                f"{_money(details['min'])} to {_money(details['max'])}."
            )
        if rule.get("plus_costs") is True:
            lines.append("Plus the costs of prosecution.")
        elif rule.get("plus_costs") is None and rule.get("plus_costs_unknown"):
            lines.append(f"Costs: {rule['plus_costs_unknown']}.")
    lines += ["", "VIOLATIONS ON THE RECORD:"]
    for violation in case.violations.filter(status="found"):
        end = _day(violation.days_to) if violation.days_to else "continuing"
        lines.append(
            f"- {violation.provision} ({violation.provision_heading}): "
            f"{_day(violation.days_from)} to {end}. {violation.description}"
        )
    if action.note:
        lines += ["", f"Notes: {action.note}"]
    lines += ["", f"{ordinance.authority_title}, {ordinance.name}"]
    return lines


def _outside(rule: Any) -> str:
    """Where the chapter sends for the amounts (Spencer: "§ 1-3"), read from its words."""
    says = str(rule.get("says", ""))
    marker = "as provided in "
    if marker in says:
        return says.split(marker, 1)[1].split(";")[0].split(",")[0].strip()
    return "the village's general penalty"


def notice_of_intent_lines(*, ordinance: Ordinance, case: Any, action: Any) -> list[str]:
    order = case.actions.filter(kind="stop_work_order").order_by("at").first()
    lines = _head(ordinance, "NOTICE OF INTENT TO PERFORM WORK")
    lines += [
        *_site(case),
        f"Issued: {_when(action.at, ordinance.time_zone)}",
    ]
    if order is not None:
        lines.append(f"Stop-work order posted: {_when(order.at, ordinance.time_zone)}")
    lines += [
        "",
        *addressed(ordinance, case),
        f"The {ordinance.authority_title} intends to perform the work needed to comply with "
        f"Ch. {ordinance.chapter} [{action.citation}]:",
        action.details["work"],
        "",
    ]
    begin = [
        r for r in ordinance.rules["enforcement"]["actions"] if r["action"] == "begin_village_work"
    ]
    if begin:
        lines.append(f"{begin[0]['says']} [{begin[0]['citation']}].")
    work_from = action.details.get("work_from")
    if work_from:
        lines.append(f"The work may begin on or after {_day(work_from)}.")
    elif begin:
        lines.append(
            "The wait for the work runs from the day this notice is delivered to you (handed "
            "over, posted on the site or mailed); the record of its delivery gives the day."
        )
    remedy = _remedy(begin[0] if begin else None)
    if remedy:
        lines += ["", "WHAT YOU MUST DO:", remedy, ""]
    certify = [
        r
        for r in ordinance.rules["enforcement"]["actions"]
        if r["action"] == "certify_special_assessment"
    ]
    if certify:
        # "plus interest at the rate authorized" (§ 413-10E, § 135-11E): promised only once
        # a rate is authorized (gap 24).
        from siltfence.apps.enforcement.selectors import interest_rate_in_force

        day = action.at.astimezone(ZoneInfo(ordinance.time_zone)).date()
        rate = interest_rate_in_force(case.village_id, day)
        billed = (
            f"The costs of the work, plus interest at {rate.annual_percent.normalize():f}% a "
            f"year (the rate authorized: {rate.authority}), will be billed."
            if rate is not None
            else f"The costs of the work will be billed. The {ordinance.authority_title} has "
            "authorized no interest rate, so no interest is charged."
        )
        lines.append(f"{billed} {certify[0]['says']} [{certify[0]['citation']}].")
    lines += ["", f"{ordinance.authority_title}, {ordinance.name}"]
    return lines


def invoice_lines(*, ordinance: Ordinance, case: Any, invoice: Any) -> list[str]:
    costs = list(invoice.costs.filter(correction__isnull=True).select_related("corrects"))
    corrections = [c for c in costs if c.corrects is not None]
    title = "CORRECTED INVOICE" if corrections else "INVOICE"
    lines = _head(ordinance, f"{title} No. {invoice.number} FOR WORK PERFORMED BY THE VILLAGE")
    lines += [*_site(case), f"Issued: {_day(invoice.issued_on)}"]
    if corrections:
        latest = max(c.recorded_at for c in corrections)
        lines.append(
            f"Corrected: {_day(latest.astimezone(ZoneInfo(ordinance.time_zone)).date())}. "
            f"This invoice replaces the one issued {_day(invoice.issued_on)}; each cost "
            "corrected says what it was and why."
        )
    lines += [f"Due: {_day(invoice.due_on)}", "", *addressed(ordinance, case), "COSTS:"]
    for cost in costs:
        was = (
            f" (corrected from {_money(cost.corrects.amount)}: {cost.reason})"
            if cost.corrects is not None
            else ""
        )
        lines.append(
            f"- {_day(cost.incurred_on)}, {cost.get_category_display().lower()}: "
            f"{cost.description}: {_money(cost.amount)}{was}"
        )
    lines += ["", f"Total due: {_money(invoice.principal)}", ""]
    work = case.actions.filter(kind="village_work").first()
    citation = work.citation if work else ""
    if invoice.interest_rate_percent is not None:
        lines.append(
            f"INTEREST. Unpaid amounts after {_day(invoice.due_on)} bear simple interest at "
            f"{invoice.interest_rate_percent.normalize():f}% a year, the rate set by the "
            f"{ordinance.authority_title} ({invoice.interest_authority}) [{citation}]."
        )
    else:
        lines.append(
            f"INTEREST. The {ordinance.authority_title} has set no interest rate, so no "
            f"interest is charged on this invoice [{citation}]."
        )
    certify = [
        r
        for r in ordinance.rules["enforcement"]["actions"]
        if r["action"] == "certify_special_assessment"
    ]
    if certify:
        lines.append(f"UNPAID COSTS. {certify[0]['says']} [{certify[0]['citation']}].")
    lines += ["", "WHAT YOU MUST DO TO SETTLE THIS BILL:"]
    lines.append(f"Amount due: {_money(invoice.principal)}, by {_day(invoice.due_on)}.")
    if _village_land(ordinance, case):
        lines.append(
            f"Pay it at the village office named on this notice [{citation}]. The village "
            "holds this land, so no special assessment is made against it if the bill is "
            "not paid."
        )
    elif certify:
        lines.append(_remedy(certify[0]) or "")
        after = invoice.due_on + datetime.timedelta(days=1)
        lines.append(
            f"If it is not paid by {_day(invoice.due_on)}, it may be certified to the tax roll "
            f"from {_day(after)} [{certify[0]['citation']}]."
        )
    lines += ["", f"{ordinance.authority_title}, {ordinance.name}"]
    return lines


def certification_lines(*, ordinance: Ordinance, case: Any, action: Any) -> list[str]:
    details = action.details
    law = (ordinance.rules["enforcement"].get("special_assessment") or {}).get("law", "")
    officer = ordinance.words.get("billing_officer", "Clerk-Treasurer")
    from siltfence.apps.enforcement.models import Invoice

    invoice = Invoice.objects.get(number=details["invoice"])
    lines = _head(ordinance, "CERTIFICATION OF UNPAID COSTS TO THE TAX ROLL")
    lines += [
        f"To: the {officer}",
        f"From: the {ordinance.authority_title}",
        f"Date: {_when(action.at, ordinance.time_zone, time=False)}",
        "",
        f"Parcel: {details['parcel']}",
        f"Site: {case.address}",
        f"Case: {case.number}",
        "",
        f"Invoice {invoice.number}, issued {_day(invoice.issued_on)}, due {_day(invoice.due_on)}",
        f"Costs billed: {_money(invoice.principal)}",
        f"Paid: {_money(invoice.paid_amount)}"
        + (f" (last payment {_day(invoice.paid_on)})" if invoice.paid_on else ""),
        f"Unpaid costs: {_money(details['principal_unpaid'])}",
        f"Interest to {_when(action.at, ordinance.time_zone, time=False)}: "
        f"{_money(details['interest'])}"
        + ("" if invoice.interest_rate_percent is not None else " (no rate was set)"),
        f"Amount certified: {_money(details['total'])}",
        "",
        f"The {ordinance.authority_title} certifies this amount to the {officer}, to be entered "
        f"on the tax roll and collected as a special assessment against the parcel under {law} "
        f"[{action.citation}].",
        "",
        "COPY TO:",
        *addressee_lines(case_addressees(case, ordinance))[1:],
        "",
        *office_lines(ordinance, case.village),
        "",
        "TO SETTLE THIS DEBT:",
        f"The amount certified is {_money(details['total'])}.",
    ]
    remedy = _remedy(_action_rule(ordinance, "certify_special_assessment", action.citation))
    if remedy:
        lines.append(remedy)
    lines += ["", f"{ordinance.authority_title}, {ordinance.name}"]
    return lines


def notice_to_cease_lines(*, ordinance: Ordinance, case: Any, action: Any) -> list[str]:
    """The notice telling a party working without a permit to cease (§ 135-11C "after being
    notified"): what to do, and what follows if not."""
    rule = _action_rule(ordinance, "request_cease_and_desist", action.citation)
    required = ordinance.rules["permit"]["required"]
    lines = _head(ordinance, "NOTICE TO CEASE")
    lines += [
        *_site(case),
        f"Given: {_when(action.at, ordinance.time_zone)}",
        "",
        *addressed(ordinance, case),
        f"The {ordinance.authority_title} notifies you that "
        f"{ordinance.words.get('land_disturbing_activity', 'land disturbing activity')} on "
        f"this site is going on without a permit [{action.citation}]. {required['says']} "
        f"[{required['citation']}].",
        "",
    ]
    remedy = _remedy(rule)
    if remedy:
        lines += ["WHAT YOU MUST DO:", remedy, ""]
    if rule is not None:
        lines += ["IF IT IS NOT DONE:", f"- {rule['says']} [{rule['citation']}].", ""]
    lines += [f"{ordinance.authority_title}, {ordinance.name}"]
    return lines


def warning_letter_lines(*, ordinance: Ordinance, case: Any, action: Any) -> list[str]:
    """A warning before any stop-work order, which the chapter does not require: what was
    found, what the village asks, and, in the chapter's own words, that the order may be
    posted on its grounds without this letter. It promises no time before an order, and
    says no step follows from it (decision 54)."""
    rules = ordinance.rules["enforcement"]
    order = rules["stop_work_order"]
    chapter = f"Chapter {ordinance.chapter}"
    lines = _head(ordinance, "WARNING LETTER")
    lines += [
        *_site(case),
        f"Written: {_when(action.at, ordinance.time_zone)}",
        "",
        *addressed(ordinance, case),
        f"THIS LETTER IS NOT REQUIRED BY {chapter.upper()}.",
        f"The {ordinance.authority_title} may post a stop-work order without this letter or "
        f"any other notice before it [{order['citation']}], if:",
        *(f"- {ground['says']}" for ground in order["grounds"]),
        "This letter gives no time before an order may be posted, and no step of the "
        "chapter counts from it.",
        "",
        f"WHAT THE {ordinance.authority_title.upper()} FOUND:",
    ]
    for violation in case.violations.filter(status="found", days_to__isnull=True):
        lines.append(
            f"- Since {_day(violation.days_from)}: {violation.description} [{violation.provision}]"
        )
    asks = action.details.get("asks", "")
    if asks:
        lines += ["", f"WHAT THE {ordinance.authority_title.upper()} ASKS:", asks]
    forfeiture = rules.get("forfeiture")
    if forfeiture:
        lines += [
            "",
            "FORFEITURES:",
            f"A violation may already be subject to a forfeiture: {forfeiture['says']} "
            f"[{forfeiture['citation']}]. Putting it right does not cancel days that have "
            "passed.",
        ]
    if any(a["after_event"] == "notified_to_cease" for a in rules["actions"]):
        cease = next(a for a in rules["actions"] if a["after_event"] == "notified_to_cease")
        lines += [
            "",
            f"This letter is not the notice to cease of {cease['citation']}; that notice, "
            "where it applies, is given separately.",
        ]
    lines += ["", f"{ordinance.authority_title}, {ordinance.name}"]
    return lines


def complaint_lines(*, ordinance: Ordinance, violation: Any) -> list[str]:
    """What the person who complained gets: a receipt, with no one else's details."""
    lines = _head(ordinance, f"COMPLAINT RECEIVED No. C-{violation.pk}")
    lines += [
        f"Received: {_when(violation.reported_at, ordinance.time_zone)}",
        f"Place: {violation.address}",
        "",
        "What was reported:",
        violation.description,
        "",
        f"Photos received: {violation.photos.count()}",
        "",
        f"The {ordinance.authority_title} will review the report. A report is not a finding: "
        "a violation is recorded only when the village finds one. Your name and contact "
        "details are kept private and are never shown on the public register.",
        "",
        f"{ordinance.authority_title}, {ordinance.name}",
    ]
    return lines


def service_line(record: Any, zone: str) -> str:
    """One service in words: how, when, by whom, to whom, and where it was mailed."""
    line = (
        f"- {record.get_method_display()}: {_when(record.served_at, zone)}, by "
        f"{record.served_by}, to {record.to_name}"
    )
    if record.mailing_lines():
        line += f", at {', '.join(record.mailing_lines())}"
    if record.email:
        line += f", at {record.email}"
    if record.certified_number:
        line += f"; certified mail No. {record.certified_number}"
    if record.received_on:
        line += f"; received {_day(record.received_on)}"
        if record.received_how:
            line += f" ({record.received_how})"
    elif record.method in ("mailed_first_class", "mailed_certified", "emailed"):
        line += "; the day it was received is not recorded"
    if record.note:
        line += f". Note: {record.note}"
    return line + "."


def proof_of_service_lines(*, document: Any) -> list[str]:
    """How a document was served, from the records: a page kept with the document."""
    case = document.case
    ordinance = load(case.village_id)
    from siltfence.apps.enforcement.services.serving import KIND_TITLES as TITLES
    from siltfence.apps.enforcement.services.serving import issued_at

    lines = _head(ordinance, f"PROOF OF SERVICE: {TITLES.get(document.kind, document.kind)}")
    lines += [
        *_site(case),
        f"Document: {document.name} (SHA-256 {document.sha256})",
        f"Issued: {_when(issued_at(document), ordinance.time_zone)}",
        "",
        "SERVED:",
    ]
    records = list(document.services.all())
    lines += [service_line(r, ordinance.time_zone) for r in records] or [
        "No service is recorded yet."
    ]
    lines += ["", *office_lines(ordinance, case.village), ""]
    lines += [f"{ordinance.authority_title}, {ordinance.name}"]
    return lines


def placard_pdf(lines: list[str], *, title: str) -> bytes:
    """The placard in large print, for posting on the site."""
    pdf = FPDF(format="Letter")
    pdf.set_title(latin1(title))
    pdf.set_creator("siltfence")
    pdf.set_auto_page_break(auto=True, margin=14)
    pdf.add_page()
    pdf.set_margins(16, 14, 16)
    for index, line in enumerate(lines):
        if index == 0:
            pdf.set_font("Helvetica", "B", 44)
            pdf.multi_cell(0, 20, latin1(line), align="C", new_x="LMARGIN", new_y="NEXT")
        elif index == 1:
            pdf.set_font("Helvetica", "B", 22)
            pdf.multi_cell(0, 11, latin1(line), align="C", new_x="LMARGIN", new_y="NEXT")
        elif line.isupper() and line:
            pdf.set_font("Helvetica", "B", 16)
            pdf.multi_cell(0, 8, latin1(line), new_x="LMARGIN", new_y="NEXT")
        else:
            pdf.set_font("Helvetica", "", 13)
            pdf.multi_cell(0, 6.5, latin1(line) or " ", new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def lines_for(*, case: Any, action: Any, kind: str) -> list[str]:
    # The law in force on the day of the step the document records (decision 39).
    ordinance = ordinance_on(case.village_id, action.at)
    if kind == "stop_work_placard":
        return placard_lines(ordinance=ordinance, case=case, action=action)
    if kind == "revocation":
        return revocation_lines(ordinance=ordinance, case=case, action=action)
    if kind == "retraction":
        return retraction_lines(ordinance=ordinance, case=case, action=action)
    if kind == "notice_of_intent":
        return notice_of_intent_lines(ordinance=ordinance, case=case, action=action)
    if kind == "invoice":
        from siltfence.apps.enforcement.models import Invoice

        invoice = Invoice.objects.get(number=action.details["invoice"])
        return invoice_lines(ordinance=ordinance, case=case, invoice=invoice)
    if kind == "tax_roll_certification":
        return certification_lines(ordinance=ordinance, case=case, action=action)
    if kind == "notice_to_cease":
        return notice_to_cease_lines(ordinance=ordinance, case=case, action=action)
    if kind == "warning_letter":
        return warning_letter_lines(ordinance=ordinance, case=case, action=action)
    return referral_lines(ordinance=ordinance, case=case, action=action)


def document_store(*, case: Any, action: Any, kind: str) -> Any:
    """Make the document of ``action`` and keep it with the case (inside the step's
    transaction: if the document cannot be made, the step is not taken)."""
    from siltfence.apps.enforcement.models import EnforcementDocument
    from siltfence.apps.enforcement.services.letters import worded

    lines = worded(lines_for(case=case, action=action, kind=kind), case.village_id, kind)
    title = f"{KIND_TITLES[kind]} {case.number}"
    content = (
        placard_pdf(lines, title=title)
        if kind == "stop_work_placard"
        else lines_to_pdf(lines, title=title)
    )
    with transaction.atomic():
        document = EnforcementDocument(
            case=case,
            action=action,
            kind=kind,
            name=f"{kind.replace('_', '-')}-{case.number}-{action.pk}.pdf",
            size=len(content),
            sha256=hashlib.sha256(content).hexdigest(),
        )
        document.file.save(f"{uuid.uuid4().hex}.pdf", ContentFile(content), save=False)
        document.save()
        event_record(
            actor=None,
            entity="enforcement_case",
            entity_id=case.pk,
            action=f"{kind}_generate",
            village=case.village_id,
            citation=action.citation,
            after={"document": document.pk, "sha256": document.sha256},
        )
    return document


def complaint_pdf(violation: Any) -> bytes:
    ordinance = ordinance_on(violation.village_id, violation.reported_at)
    return lines_to_pdf(
        complaint_lines(ordinance=ordinance, violation=violation),
        title=f"Complaint received C-{violation.pk}",
    )
