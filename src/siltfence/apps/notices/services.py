"""Telling the people a change concerns, by email, in the transaction that makes the change.

Every change of state is an audit event (``apps.audit``); when one is written, this module
looks its action up in ``NOTICES`` and records an email (``outbox.services.message_record``) to
each person the change concerns: the applicant, the permittee and the landowner, the
person who reported a problem, the village's staff. Each email says what happened, what
the person must do, cites the section the event cites, and links to the page. A notice the
chapter requires be given to the person (a request for information and a disapproval's
reasons, in writing; a stop-work order, a revocation, a notice of intent, a bill, a
certification to the tax roll; a board's decision) goes out whatever the person chose; the
others follow the person's choices (``NoticePreference``).

A notice that cannot be worked out (a person with no email address) is left out; it never
stops the change it tells of.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.urls import reverse

from siltfence.apps.accounts.models import Membership, Role
from siltfence.apps.appeals.models import Appeal
from siltfence.apps.enforcement.models import EnforcementCase, Violation
from siltfence.apps.outbox.models import NoticePreference
from siltfence.apps.outbox.services import message_record
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import Application, PartyRole, Permit

logger = logging.getLogger(__name__)

# The groups a person may turn off (a notice the chapter requires be given belongs to none).
GROUPS = {
    "applications": "My applications and permits: approved, issued, extended, closed; a "
    "violation found on my site, an order lifted",
    "appeals": "Appeals I filed: the hearing",
    "office": "For village staff: new applications, answers to information requests, appeals "
    "filed, work recorded after a permit's last day",
}


@dataclass(frozen=True)
class Notice:
    subject: str  # with {number} and {address}
    says: str  # what happened, with {number}, {address}
    to_do: str  # what the person must do now ("" when nothing)
    who: tuple[str, ...]  # applicant, owners, staff, appellant, reporter
    group: str | None  # None: the chapter requires it be given; sent whatever was chosen
    with_reason: bool = False  # the event's reason is the letter's words (shown)


APPLICANT_DECISION = ("applicant",)
PARTIES = ("applicant", "owners")

NOTICES: dict[str, Notice] = {
    # -- applications and permits --------------------------------------------------------
    "application_submit": Notice(
        "New application {number}",
        "Application {number} for {address} was filed.",
        "Review it in the queue; the decision clock runs from its filing.",
        ("staff",),
        "office",
    ),
    "application_information_request": Notice(
        "Information needed for application {number}",
        "The village asks for more information on application {number} ({address}). The "
        "review clock is paused until you answer.",
        "Answer on your application's page.",
        APPLICANT_DECISION,
        None,
        with_reason=True,
    ),
    "application_information_provide": Notice(
        "Answer received on application {number}",
        "The applicant answered the request for information on application {number} "
        "({address}); the review clock runs again.",
        "Review the answer.",
        ("staff",),
        "office",
        with_reason=True,
    ),
    "application_approve": Notice(
        "Application {number} approved",
        "Application {number} ({address}) was approved.",
        "Open the page for the permit and its conditions, or for the surety the village "
        "needs before it issues the permit.",
        APPLICANT_DECISION,
        "applications",
        with_reason=True,
    ),
    "application_disapprove": Notice(
        "Application {number} disapproved",
        "Application {number} ({address}) was disapproved. The reasons are below and in the "
        "letter on the application's page.",
        "You may apply again with a plan that meets them, or appeal the decision.",
        APPLICANT_DECISION,
        None,
        with_reason=True,
    ),
    "surety_receive": Notice(
        "Permit {number} issued",
        "The surety was received and permit {number} for {address} is issued.",
        "Keep a copy of the plan on the site, and keep to the permit's conditions.",
        APPLICANT_DECISION,
        "applications",
    ),
    "permit_extend": Notice(
        "Permit {number} extended",
        "Permit {number} ({address}) was extended; its new last day is on the permit page.",
        "",
        APPLICANT_DECISION,
        "applications",
    ),
    "permit_close": Notice(
        "Permit {number} closed",
        "Permit {number} ({address}) was closed at final stabilization.",
        "",
        APPLICANT_DECISION,
        "applications",
    ),
    # -- enforcement: each is a notice the chapter requires --------------------------------
    "violation_find": Notice(
        "Violation found at {address}",
        "The village found a violation at {address} (case {number}).",
        "Correct it; the case page says what was found and what may follow.",
        PARTIES,
        "applications",
    ),
    "stop_work_order_post": Notice(
        "Stop-work order at {address}",
        "A stop-work order was posted at {address} (case {number}).",
        "Stop the work the order names until the village lifts it; the order is on the case page.",
        PARTIES,
        None,
        with_reason=True,
    ),
    "permit_revoke": Notice(
        "Permit revoked at {address}",
        "The permit for {address} was revoked (case {number}).",
        "Land disturbing work there needs a new permit. The case page says how to appeal.",
        PARTIES,
        None,
        with_reason=True,
    ),
    "order_retract": Notice(
        "Order lifted at {address}",
        "An order at {address} was retracted (case {number}).",
        "",
        PARTIES,
        "applications",
        with_reason=True,
    ),
    "warning_letter_send": Notice(
        "Warning letter about {address}",
        "The village wrote a warning letter about {address} (case {number}).",
        "Read it on the case page: it says what was found and what the village asks.",
        PARTIES,
        None,
    ),
    "notice_of_intent_issue": Notice(
        "Notice of intent: village work at {address}",
        "The village gave notice that it intends to do the required work at {address} "
        "itself, at the owner's cost (case {number}).",
        "Do the work by the date in the notice on the case page, or the village will.",
        PARTIES,
        None,
    ),
    "village_work_begin": Notice(
        "Village work begun at {address}",
        "The village began the work at {address} (case {number}); its costs will be billed.",
        "",
        PARTIES,
        None,
    ),
    "invoice_issue": Notice(
        "Invoice for village work at {address}",
        "An invoice for the village's work at {address} was issued (case {number}).",
        "Pay it by the date on the invoice on the case page, or it may be charged to the tax roll.",
        PARTIES,
        None,
    ),
    "work_cost_correct": Notice(
        "Cost of the village's work corrected at {address}",
        "A cost of the village's work at {address} was corrected (case {number}).",
        "If it was on an invoice, the corrected invoice on the case page says the amount now "
        "due and by when.",
        PARTIES,
        None,
        with_reason=True,
    ),
    "tax_roll_certify": Notice(
        "Costs charged to the tax roll for {address}",
        "The unpaid costs of the village's work at {address} were certified to the tax "
        "roll (case {number}).",
        "",
        PARTIES,
        None,
    ),
    # -- appeals ------------------------------------------------------------------------
    "appeal_file": Notice(
        "Appeal {number} filed",
        "Appeal {number} was filed ({address}).",
        "Schedule the hearing.",
        ("staff",),
        "office",
    ),
    "appeal_hearing_schedule": Notice(
        "Hearing of appeal {number}",
        "The hearing of appeal {number} ({address}) is set; the date, time and place are on "
        "the appeal's page.",
        "Come to the hearing, or send someone to speak for you.",
        ("appellant",),
        "appeals",
    ),
    "appeal_decide": Notice(
        "Decision on appeal {number}",
        "The board decided appeal {number} ({address}). The written decision is on the "
        "appeal's page.",
        "",
        ("appellant", "staff"),
        None,
        with_reason=True,
    ),
    # -- a report from the public --------------------------------------------------------
    "complaint_file": Notice(
        "Your report about {address} was received",
        "Your report about {address} was received; the village will look at the site.",
        "",
        ("reporter",),
        None,
    ),
    "complaint_dismiss": Notice(
        "Your report about {address}",
        "The village looked into your report about {address} and found no violation.",
        "",
        ("reporter",),
        None,
    ),
}


# Notices told of by a flag in the event's record rather than by its action: the flag's
# words (a dict) fill the notice's, and its ``citation`` is the section the email cites.
FLAGGED: dict[str, Notice] = {
    # An inspection after rain withdrawn because the rain record was corrected below what
    # calls for one (``duties.rain_applied``): the permittee was reminded of it.
    "inspection_withdrawn": Notice(
        "Inspection after rain no longer owed: permit {number}",
        "The rain record for {days} was corrected. The rain of {was} that called for an "
        "inspection on permit {number} ({address}), due {due}, is no longer in the record "
        "at that amount, so that inspection is no longer owed.",
        "Nothing to do for that rain. The permit's page shows what is owed now.",
        ("applicant",),
        "applications",
    ),
    # A site-log entry, of any kind, dated after the permit's last day: an expired permit
    # is no permit (§ 413-8E(1), § 135-7G), so the work is work without a permit
    # (§ 413-8A, § 135-7A). The entry is kept; the staff are told.
    "without_permit": Notice(
        "Work recorded without a permit: {address}",
        "The site log of permit {number} ({address}) has an entry dated {day}, after the "
        "permit's last day ({last_day}). An expired permit is no permit: work on the site "
        "after that day is work without a permit.",
        "Look into the site; the permit page lists the entries. Work there needs a new permit.",
        ("staff",),
        "office",
    ),
}


@dataclass
class Subject:
    """What an event is about, as a notice needs it."""

    village_id: str
    number: str
    address: str
    applicant: Any = None
    owners: tuple[str, ...] = ()  # landowners' and responsible parties' addresses
    appellant: Any = None
    reporter: str = ""
    permit: Any = None
    case: Any = None
    links: dict[str, str] | None = None  # who → path of the page to open


def _owners(application: Any) -> tuple[str, ...]:
    wanted = (PartyRole.LANDOWNER, PartyRole.RESPONSIBLE_PARTY)
    return tuple(p.email for p in application.parties.all() if p.role in wanted and p.email)


def _of_application(application: Any) -> Subject:
    permit = getattr(application, "permit", None) if application.status == "approved" else None
    return Subject(
        village_id=application.village_id,
        number=application.number,
        address=application.site.address,
        applicant=application.applicant,
        owners=_owners(application),
        permit=permit,
        links={
            "applicant": reverse("web:portal-application", args=[application.pk]),
            "staff": reverse("web:staff-application", args=[application.pk]),
        },
    )


def _subject(entity: str, entity_id: int, after: dict[str, Any]) -> Subject | None:
    if entity == "application":
        application = Application.objects.select_related("site", "applicant").get(pk=entity_id)
        return _of_application(application)
    if entity == "permit":
        permit = Permit.objects.select_related("application__site", "application__applicant")
        found = permit.get(pk=entity_id)
        subject = _of_application(found.application)
        subject.number, subject.permit = found.number, found
        path = reverse("web:permit", args=[found.pk])
        subject.links = {"applicant": path, "staff": path}
        return subject
    if entity == "enforcement_case":
        case = EnforcementCase.objects.select_related(
            "application__applicant", "application__site"
        ).get(pk=entity_id)
        path = reverse("enforcement:case", args=[case.pk])
        of_case = case.application
        return Subject(
            village_id=case.village_id,
            number=case.number,
            address=case.address,
            applicant=of_case.applicant if of_case else None,
            owners=_owners(of_case) if of_case else (),
            permit=getattr(of_case, "permit", None) if of_case else None,
            case=case,
            links={"applicant": path, "staff": path},
        )
    if entity == "appeal":
        appeal = Appeal.objects.select_related("filed_by", "application__site").get(pk=entity_id)
        path = reverse("appeals:detail", args=[appeal.pk])
        return Subject(
            village_id=appeal.village_id,
            number=appeal.number,
            address=appeal.application.site.address if appeal.application else "",
            appellant=appeal.filed_by,
            links={"appellant": path, "staff": path},
        )
    if entity == "violation":
        violation = Violation.objects.get(pk=entity_id)
        return Subject(
            village_id=violation.village_id,
            number="",
            address=violation.address or "the site you reported",
            reporter=violation.complainant_email,
        )
    return None


def _staff(village_id: str) -> list[Any]:
    return [
        m.user
        for m in Membership.objects.filter(village_id=village_id, role=Role.STAFF).select_related(
            "user"
        )
    ]


def _people(notice: Notice, subject: Subject) -> Iterable[tuple[str, Any, str]]:
    """(address, user or None, whose link) for each person the notice goes to, once each."""
    seen: set[str] = set()

    def one(address: str, user: Any, link: str) -> Iterable[tuple[str, Any, str]]:
        if address and address.lower() not in seen:
            seen.add(address.lower())
            yield address, user, link

    for who in notice.who:
        if who == "applicant" and subject.applicant is not None:
            yield from one(subject.applicant.email, subject.applicant, "applicant")
        elif who == "owners":
            for address in subject.owners:
                yield from one(address, None, "")
        elif who == "staff":
            for user in _staff(subject.village_id):
                yield from one(user.email, user, "staff")
        elif who == "appellant" and subject.appellant is not None:
            yield from one(subject.appellant.email, subject.appellant, "appellant")
        elif who == "reporter":
            yield from one(subject.reporter, None, "")


def _body(
    notice: Notice,
    subject: Subject,
    event: Any,
    link: str,
    flag: dict[str, Any] | None = None,
) -> str:
    words = {**(flag or {}), "number": subject.number, "address": subject.address}
    parts = [notice.says.format(**words)]
    if notice.with_reason and event.reason.strip():
        parts.append(event.reason.strip())
    if notice.to_do:
        parts.append(notice.to_do)
    citation = event.citation if flag is None else str(flag.get("citation", ""))
    if citation:
        parts.append(f"Section: {citation}.")
    base = getattr(settings, "SILTFENCE_URL", "").rstrip("/")
    path = (subject.links or {}).get(link, "")
    if base and path:
        parts.append(f"See: {base}{path}")
    if notice.group is not None:
        parts.append(
            f"Choose which emails you get: {base}/reminders/"
            if base
            else "Choose which emails you get on the Reminders page."
        )
    return "\n\n".join(parts)


def _turned_off(users: list[Any], group: str) -> set[int]:
    return {
        p.user_id
        for p in NoticePreference.objects.filter(user__in=[u for u in users if u is not None])
        if group in p.off
    }


def notices_for(event: Any) -> None:
    """Record the emails that tell of ``event`` (an audit event just written)."""
    told: list[tuple[str, Notice, dict[str, Any] | None]] = []
    if event.action in NOTICES:
        told.append((event.action, NOTICES[event.action], None))
    for flag, flagged in FLAGGED.items():
        words = (event.after or {}).get(flag)
        if isinstance(words, dict):
            told.append((flag, flagged, words))
    if not told:
        return
    subject = _subject(event.entity, event.entity_id, event.after or {})
    if subject is None:
        return
    for kind, notice, flag_words in told:
        people = list(_people(notice, subject))
        off = _turned_off([u for _, u, _ in people], notice.group) if notice.group else set()
        for address, user, link in people:
            if user is not None and user.pk in off:
                continue
            if user is not None and event.actor_id == user.pk:
                continue  # the person who made the change is not told of it
            heading = notice.subject.format(number=subject.number, address=subject.address)
            message_record(
                kind=kind,
                to=address,
                user=user,
                village_id=subject.village_id,
                permit=subject.permit,
                case=subject.case,
                subject=heading[:200],
                body=_body(notice, subject, event, link, flag_words),
            )


def on_audit_event(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    """Connected to the audit event's ``post_save``: inside the change's transaction."""
    if not created:
        return
    try:
        with transaction.atomic():  # a savepoint: a failure here leaves the change whole
            notices_for(instance)
    except Exception:
        logger.exception("notice of %s %s not recorded", instance.action, instance.entity_id)


def notice_preference_set(*, user: Any, receive: list[str]) -> None:
    """Which kinds of notice ``user`` receives (``GROUPS``); the rest are turned off.
    A notice the chapter requires in writing is sent whatever is chosen."""
    unknown = [g for g in receive if g not in GROUPS]
    if unknown:
        raise ActionRefused(
            f"notices: {str(unknown[0])[:40]!r} is not a kind of email; choose among "
            + ", ".join(GROUPS),
            field="notices",
        )
    NoticePreference.objects.update_or_create(
        user=user, defaults={"off": sorted(g for g in GROUPS if g not in receive)}
    )
