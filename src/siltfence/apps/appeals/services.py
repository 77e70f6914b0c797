"""Appeals and variances: ``appeal_file``, ``appeal_hearing_schedule``, and the decision a
vote of the board carries (``decision_terms``, ``decision_apply``; the hearing's roll and
the votes are ``siltfence.apps.appeals.hearings``).

Who may appeal, and what may not be appealed, come from ``appeals`` in the ordinance data
(Spencer § 413-12B: any applicant, permittee, landowner or land user; New Glarus § 135-12:
any aggrieved person or village office, except a cease-and-desist order). A reversed
stop-work order is retracted and a reversed revocation puts the permit back in force
(``order_retracted`` by the appeals board, § 413-10D, § 135-11D). A variance is granted
only with written findings on the three tests. Each function runs in one transaction,
locks its rows, and appends to the audit chain.
"""

from __future__ import annotations

import datetime
import hashlib
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone

from siltfence.apps.accounts.rules import is_applicant_of, is_board_member_of, is_staff_of
from siltfence.apps.appeals.models import Appeal, AppealKind, AppealStatus, Decision
from siltfence.apps.audit.chain import change_record, event_record
from siltfence.apps.enforcement.models import EnforcementAction, EnforcementCase
from siltfence.apps.enforcement.services import ActionRefused, clean_text, order_retraction
from siltfence.apps.permits.models import Application, Village
from siltfence.apps.permits.services.common import village_ordinance
from siltfence.core.ordinance.model import Ordinance

KIND_CHOICE = "kind: choose an appeal or a variance"
NOT_STANDING = (
    "standing: under {citation} an appeal may be brought by {who}; '{given}' is not one of them"
)
NOT_APPEALABLE = "decision: {what} may not be appealed ({citation})"
RETRACTS_ONLY_ON_MODIFY = (
    "retracts: only a modified decision says whether it lifts the order; a reversal always "
    "does, and an affirmance never does"
)
NOT_YOURS = "decision: you may appeal only decisions on your own permits and applications"
NO_DECISION = "decision: choose the order, decision or determination appealed"
OTHER_VILLAGE = "decision: that decision is not one of {village}'s"
ALREADY_FILED = (
    "decision: this appellant's appeal of that decision is already filed: appeal {number}, filed "
    "{on}, not yet decided"
)
GROUNDS_REQUIRED = "grounds: say why the decision is wrong (or, for a variance, what is asked)"
NAME_REQUIRED = "appellant: give the name of the person or office appealing"
NOT_BOARD_OR_STAFF = "village: only the {body} or the {authority} of {village} may do this"
ALREADY_DECIDED = "appeal: {number} was already decided ({decision})"
NOTICE_AFTER_HEARING = (
    "notice given on: the notice ({notice}) must come before the hearing ({hearing})"
)
NOTICE_TO_REQUIRED = "notice to: say who was given notice of the hearing"
HEARING_BEFORE_FILING = "hearing: the hearing ({hearing}) cannot come before the filing ({filed})"
NO_HEARING = "decision: the {body} decides after a hearing; none has been held (hearing: {when})"
DECISION_CHOICE = "decision: choose one of {choices}"
REASONS_REQUIRED = "reasons: the decision must state its reasons in writing"
MODIFICATION_REQUIRED = "modification: say how the decision is modified"
RESTORED_UNTIL_ONLY = (
    "restored until: a new last day is set only by a decision that restores a revoked permit "
    "(a reversal of the revocation, or a modification that lifts it); leave it empty otherwise."
)
RESTORED_UNTIL_PAST = (
    "restored until: the last day ({day}) cannot come before the decision ({decided})."
)
RESTORED_UNTIL_NOT_LATER = (
    "restored until: the permit already runs through {expires}; a last day set on restoring "
    "it extends the period, so it must come after that day."
)
RESTORED_UNTIL_TOO_FAR = (
    "restored until: {day} is {days} days after the permit's last day ({expires}); the "
    "{body} decides with the {authority}'s powers, who may extend the period by up to "
    '{maximum} days at a time ({citation}: "{text}"), so the latest is {latest}. A longer '
    "period needs a variance."
)
FINDING_REQUIRED = (
    "findings: a variance is granted only with a written finding that {test} ({citation})"
)

VARIANCE_TESTS = {
    "public_interest": "the variance is not contrary to the public interest",
    "special_conditions": "special conditions apply to the property",
    "unnecessary_hardship": "a literal enforcement would result in unnecessary hardship",
}
APPEAL_DECISIONS = (Decision.AFFIRM, Decision.REVERSE, Decision.MODIFY)
VARIANCE_DECISIONS = (Decision.GRANT, Decision.DENY)
# The enforcement steps by the id ``appeals.not_appealable`` names them with. New Glarus
# § 135-12A(1) bars appeals of "cease-and-desist orders obtained under § 135-11C", which
# § 135-13 defines as court-issued: the court's order is no step the village records, and
# the Village Administrator's decision to ask the Village Attorney for one (the referral)
# is a decision of the Administrator like any other, open to appeal.
BARRED_KINDS: dict[str, tuple[str, ...]] = {"cease_and_desist_order": ()}


def standing_label(standing: str) -> str:
    return standing.replace("_", " ")


def _number(village_id: str) -> str:
    parts = village_id.split("-")[:-1]
    initials = (parts[0][:2] if len(parts) == 1 else "".join(p[0] for p in parts)).upper()
    stem = f"{initials}-A-{timezone.now().year}-"
    count = Appeal.objects.filter(number__startswith=stem).count()
    return f"{stem}{count + 1:04d}"


def _snapshot(appeal: Appeal) -> dict[str, Any]:
    return {
        "number": appeal.number,
        "status": appeal.status,
        "decision": appeal.decision,
        "hearing_at": appeal.hearing_at,
    }


def _audit(
    appeal: Appeal,
    *,
    actor: Any,
    action: str,
    citation: str,
    reason: str = "",
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> None:
    change_record(
        appeal,
        entity="appeal",
        snapshot=_snapshot(appeal),
        actor=actor,
        action=action,
        citation=citation,
        reason=reason,
        before=before,
        after=after,
    )


def _described(
    action: EnforcementAction | None, application: Application | None, ordinance: Ordinance
) -> str:
    if action is not None:
        day = timezone.localtime(action.at).date()
        return (
            f"{action.get_kind_display()} of {day:%B %-d, %Y} ({action.citation}), "
            f"case {action.case.number}"
        )
    if application is not None:
        if application.surety_required is not None:
            rules = ordinance.rules["permit"]
            return (
                f"Decision on application {application.number}: approved subject to a surety "
                f"of ${application.surety_required:,.2f} ({rules['surety_citation']})"
            )
        status = application.get_status_display().lower()
        return f"Decision on application {application.number} ({status})"
    return f"A variance from Ch. {ordinance.chapter}"


def appeal_file(
    *,
    village: Village,
    filed_by: Any,
    on: datetime.date,
    appellant_name: str,
    standing: str,
    grounds: str,
    action: EnforcementAction | None = None,
    application: Application | None = None,
    kind: str = AppealKind.APPEAL,
) -> Appeal:
    """File an appeal of an order, decision or determination of the authority, or a
    request for a variance. Filed by the village's staff (a paper filing they enter) or
    by the permittee or applicant online, for their own permit or application."""
    ordinance = village_ordinance(village.id)
    rule = ordinance.rules["appeals"]
    who = rule["who_may_appeal"]
    if standing not in who:
        raise ActionRefused(
            NOT_STANDING.format(
                citation=rule["who_citation"],
                who=", ".join(standing_label(w) for w in who),
                given=standing_label(str(standing))[:40],
            ),
            field="standing",
        )
    if kind not in AppealKind.values:
        raise ActionRefused(KIND_CHOICE, field="kind")
    name = clean_text(appellant_name, "appellant", 200)
    if not name:
        raise ActionRefused(NAME_REQUIRED, field="appellant")
    grounds = clean_text(grounds, "grounds", 10000)
    if not grounds:
        raise ActionRefused(GROUNDS_REQUIRED, field="grounds")
    if kind == AppealKind.APPEAL and action is None and application is None:
        raise ActionRefused(NO_DECISION, field="decision")
    for item in (action.case if action else None, application):
        if item is not None and item.village_id != village.id:
            raise ActionRefused(OTHER_VILLAGE.format(village=ordinance.name), field="decision")
    if action is not None:
        for barred in rule["not_appealable"]:
            if action.kind in BARRED_KINDS.get(barred["what"], ()):
                raise ActionRefused(
                    NOT_APPEALABLE.format(
                        what=f"a {standing_label(barred['what'])}", citation=barred["citation"]
                    ),
                    field="decision",
                )
    owner = application or (action.case.application if action else None)
    staff = is_staff_of(filed_by, village)
    if not staff and not (owner is not None and is_applicant_of(filed_by, owner)):
        raise ActionRefused(NOT_YOURS, field="decision")
    with transaction.atomic():
        case = None
        if action is not None:
            case = EnforcementCase.objects.select_for_update().get(pk=action.case_id)
        if application is not None:
            Application.objects.select_for_update().filter(pk=application.pk).exists()
        # One pending appeal of a decision by one appellant: a second filing (ten at once)
        # is refused with the one on record, under the lock just taken.
        pending = (
            Appeal.objects.filter(
                kind=kind,
                action=action,
                application=application if action is None else None,
                appellant_name__iexact=name,
            )
            .exclude(status=AppealStatus.DECIDED)
            .first()
            if kind == AppealKind.APPEAL
            else None
        )
        if pending is not None:
            raise ActionRefused(
                ALREADY_FILED.format(number=pending.number, on=pending.filed_on.isoformat()),
                field="decision",
            )
        appeal = Appeal.objects.create(
            village=village,
            number=_number(village.id),
            kind=kind,
            case=case,
            action=action,
            application=application,
            decision_appealed=_described(action, application, ordinance)[:300],
            appellant_name=name,
            appellant_standing=standing,
            filed_by=filed_by,
            filed_on=on,
            grounds=grounds,
        )
        _audit(
            appeal,
            actor=filed_by,
            action="appeal_file",
            citation=rule["citation"],
            reason=grounds[:500],
        )
    return appeal


def appeal_hearing_schedule(
    *,
    appeal: Appeal,
    user: Any,
    hearing_at: datetime.datetime,
    notice_given_on: datetime.date,
    notice_to: str,
    place: str = "",
) -> Appeal:
    """Set the hearing, with the notice given (by the board, or the village's staff for it)."""
    ordinance = village_ordinance(appeal.village_id)
    if not (is_board_member_of(user, appeal) or is_staff_of(user, appeal)):
        raise ActionRefused(
            NOT_BOARD_OR_STAFF.format(
                body=ordinance.rules["appeals"]["body"],
                authority=ordinance.authority_title,
                village=ordinance.name,
            ),
            field="village",
        )
    notice_to = clean_text(notice_to, "notice to", 300)
    if not notice_to:
        raise ActionRefused(NOTICE_TO_REQUIRED, field="notice_to")
    place = clean_text(place, "place", 200)
    zone = ordinance.time_zone
    hearing_day = timezone.localtime(hearing_at, _zone(zone)).date()
    if notice_given_on > hearing_day:
        raise ActionRefused(
            NOTICE_AFTER_HEARING.format(notice=notice_given_on, hearing=hearing_day),
            field="notice_given_on",
        )
    with transaction.atomic():
        locked = Appeal.objects.select_for_update().get(pk=appeal.pk)
        not_decided_check(locked)
        if hearing_day < locked.filed_on:
            raise ActionRefused(
                HEARING_BEFORE_FILING.format(hearing=hearing_day, filed=locked.filed_on),
                field="hearing",
            )
        before = _snapshot(locked)
        locked.hearing_at = hearing_at
        locked.hearing_place = place
        locked.notice_given_on = notice_given_on
        locked.notice_to = notice_to
        locked.status = AppealStatus.SCHEDULED
        locked.save()
        _audit(
            locked,
            actor=user,
            action="appeal_hearing_schedule",
            citation=ordinance.rules["appeals"]["citation"],
            before=before,
        )
    return locked


def _zone(name: str) -> Any:
    from zoneinfo import ZoneInfo

    return ZoneInfo(name)


def _in_effect(case: EnforcementCase, action: EnforcementAction) -> bool:
    """Whether the order or revocation appealed is still the one in effect in the case.

    Reversing it undoes it only then: a stop-work order already complied with or retracted,
    or a revocation already retracted, has nothing left to undo, and an order or
    revocation made after it is another decision of the authority, appealed on its own.
    Call inside the case's lock."""
    from siltfence.apps.enforcement.selectors import open_stop_work_order
    from siltfence.apps.permits.models import Permit, PermitStatus

    if action.kind == "stop_work_order":
        current = open_stop_work_order(case)
        return current is not None and current.pk == action.pk
    revoked = case.application_id is not None and (
        Permit.objects.select_for_update()
        .filter(application_id=case.application_id, status=PermitStatus.REVOKED)
        .exists()
    )
    latest = case.actions.filter(kind="revocation").order_by("at", "id").last()
    return revoked and latest is not None and latest.pk == action.pk


def _day(day: datetime.date) -> str:
    return f"{day:%B %-d, %Y}"


def _restored_period(
    appeal: Appeal,
    ordinance: Ordinance,
    *,
    board_member: Any,
    at: datetime.datetime,
    until: datetime.date,
) -> None:
    """The board's decision restoring a revoked permit sets its last day: an extension by
    the board at the decision's moment, after its retraction of the revocation (decision 38).
    Call inside the case's lock, after the retraction."""
    from siltfence.apps.permits.clocks import permit_expiry
    from siltfence.apps.permits.models import Permit, PermitExtension, TimelineEvent
    from siltfence.apps.permits.services.letters import (
        extension_letter_store,
        permit_document_store,
    )

    # Called once the revocation appealed was undone: the appeal has its action, and the
    # case the revoked permit's application (``_in_effect``).
    action = appeal.action
    assert action is not None and action.case.application_id is not None
    permit = Permit.objects.select_for_update().get(application_id=action.case.application_id)
    decided = timezone.localtime(at, _zone(ordinance.time_zone)).date()
    if until < decided:
        raise ActionRefused(
            RESTORED_UNTIL_PAST.format(day=_day(until), decided=_day(decided)),
            field="restored_until",
        )
    before = permit.expires_on
    if until <= before:
        raise ActionRefused(
            RESTORED_UNTIL_NOT_LATER.format(expires=_day(before)), field="restored_until"
        )
    days = (until - before).days
    cap = ordinance.parameter(ordinance.rules["permit"]["extension_max"], decided)
    maximum = int(float(cap.value)) if cap.value is not None else None
    if maximum is not None and days > maximum:
        raise ActionRefused(
            RESTORED_UNTIL_TOO_FAR.format(
                day=_day(until),
                days=days,
                expires=_day(before),
                body=ordinance.appeals_body["title"],
                authority=ordinance.authority_title,
                maximum=maximum,
                citation=cap.citation,
                text=cap.text,
                latest=_day(before + datetime.timedelta(days=maximum)),
            ),
            field="restored_until",
        )
    TimelineEvent.objects.create(
        application_id=permit.application_id,
        type="permit_extended",
        at=at,
        fields={"days": days, "by": "appeals_board"},
    )
    permit.expires_on = permit_expiry(permit.application)
    permit.save(update_fields=["expires_on"])
    extension = PermitExtension.objects.create(
        permit=permit,
        days=days,
        granted_on=decided,
        granted_by=board_member,
        on_appeal=appeal.number,
        expires_before=before,
        expires_after=permit.expires_on,
    )
    event_record(
        actor=board_member,
        entity="permit",
        entity_id=permit.pk,
        action="permit_extend",
        village=permit.village_id,
        reason=f"on appeal {appeal.number}",
        citation=ordinance.rules["appeals"]["citation"],
        before={"expires_on": before},
        after={"expires_on": permit.expires_on, "days": days, "appeal": appeal.number},
    )
    extension_letter_store(extension=extension)
    permit_document_store(permit=permit)


@dataclass(frozen=True)
class DecisionTerms:
    """What a motion proposes the board decide, checked (``decision_terms``)."""

    decision: str
    reasons: str
    modification: str = ""
    findings: dict[str, str] = field(default_factory=dict)
    retracts: bool = False
    restored_until: datetime.date | None = None

    @property
    def lifts(self) -> bool:
        """The decision lifts the order or revocation appealed: a reversal, or a modification
        that says it does."""
        return self.decision == Decision.REVERSE or (
            self.decision == Decision.MODIFY and self.retracts
        )


def decision_terms(
    *,
    appeal: Appeal,
    ordinance: Ordinance,
    decision: str,
    reasons: str,
    modification: str = "",
    findings: dict[str, str] | None = None,
    retracts: bool = False,
    restored_until: datetime.date | None = None,
) -> DecisionTerms:
    """Check what a decision would say, before anything is written: affirm, reverse or
    modify (an appeal), grant or deny (a variance), with written reasons; a modification
    says how; a variance is granted only with the three findings; a new last day only on a
    decision that restores a revoked permit (decision 38)."""
    rule = ordinance.rules["appeals"]
    choices = VARIANCE_DECISIONS if appeal.kind == AppealKind.VARIANCE else APPEAL_DECISIONS
    if decision not in choices:
        raise ActionRefused(
            DECISION_CHOICE.format(choices=", ".join(Decision(c).label.lower() for c in choices)),
            field="decision",
        )
    reasons = clean_text(reasons, "reasons", 10000)
    if not reasons:
        raise ActionRefused(REASONS_REQUIRED, field="reasons")
    modification = clean_text(modification, "modification", 10000)
    if decision == Decision.MODIFY and not modification:
        raise ActionRefused(MODIFICATION_REQUIRED, field="modification")
    if retracts and decision != Decision.MODIFY:
        raise ActionRefused(RETRACTS_ONLY_ON_MODIFY, field="retracts")
    terms = DecisionTerms(
        decision=decision,
        reasons=reasons,
        modification=modification,
        retracts=retracts,
        restored_until=restored_until,
    )
    if restored_until is not None and not (
        terms.lifts and appeal.action is not None and appeal.action.kind == "revocation"
    ):
        raise ActionRefused(RESTORED_UNTIL_ONLY, field="restored_until")
    if decision == Decision.GRANT:
        for test, words in VARIANCE_TESTS.items():
            value = clean_text((findings or {}).get(test, ""), "findings", 5000)
            if not value:
                raise ActionRefused(
                    FINDING_REQUIRED.format(test=words, citation=rule["citation"]),
                    field="findings",
                )
            terms.findings[test] = value
    return terms


def hearing_held_check(appeal: Appeal, at: datetime.datetime, ordinance: Ordinance) -> None:
    """The board decides after a hearing: one set, and its time come by ``at``."""
    if appeal.hearing_at is None or appeal.hearing_at > at:
        when = "not set"
        if appeal.hearing_at is not None:
            local = timezone.localtime(appeal.hearing_at, _zone(ordinance.time_zone))
            when = f"set for {local:%Y-%m-%d %H:%M}"
        raise ActionRefused(
            NO_HEARING.format(body=ordinance.rules["appeals"]["body"], when=when),
            field="decision",
        )


def not_decided_check(appeal: Appeal) -> None:
    if appeal.status == AppealStatus.DECIDED:
        raise ActionRefused(
            ALREADY_DECIDED.format(number=appeal.number, decision=appeal.get_decision_display()),
            field="appeal",
        )


def decision_apply(
    locked: Appeal,
    locked_case: EnforcementCase | None,
    ordinance: Ordinance,
    terms: DecisionTerms,
    *,
    by: Any,
    at: datetime.datetime,
) -> Appeal:
    """Write the board's decision on the record: the decision carried by a vote of the board
    (``siltfence.apps.appeals.hearings``), never one member's. A reversed stop-work order
    is retracted and a reversed revocation restores the permit, as ``order_retracted`` by
    the appeals board on the timeline; so is a modified one when the modification lifts it.
    The record changes at once, with the decision cited, and the written decision is made.

    A decision restoring a revoked permit may set its period (``restored_until``, its new
    last day): an extension by the board, which decides with the authority's powers
    (§ 413-12A, § 135-12A(3)), up to the authority's limit on one extension, and given even
    where the period ended while the permit stood revoked (decision 38).

    Call inside the transaction, holding the locks of the appeal and its case, after the
    checks (``decision_terms``, ``hearing_held_check``, ``not_decided_check``). ``by`` is
    who recorded the board's vote."""
    rule = ordinance.rules["appeals"]
    before = _snapshot(locked)
    locked.status = AppealStatus.DECIDED
    locked.decision = terms.decision
    locked.decision_reasons = terms.reasons
    locked.modification = terms.modification
    locked.findings = terms.findings
    locked.decided_at = at
    locked.decided_by = by
    locked.save()
    restored = False
    if terms.lifts and locked.action is not None and locked_case is not None:
        order = {"stop_work_order": "stop_work_order", "revocation": "revocation"}.get(
            locked.action.kind
        )
        if order is not None and _in_effect(locked_case, locked.action):
            order_retraction(
                locked_case,
                actor=by,
                at=at,
                order=order,
                by="appeals_board",
                reason=(
                    f"{'Reversed' if terms.decision == Decision.REVERSE else 'Modified'} on "
                    f"appeal {locked.number}: {terms.modification or terms.reasons}"
                )[:2000],
                appeal=locked,
            )
            restored = order == "revocation"
    if terms.restored_until is not None:
        if not restored:
            # The revocation was no longer the one in effect: nothing is restored.
            raise ActionRefused(RESTORED_UNTIL_ONLY, field="restored_until")
        _restored_period(locked, ordinance, board_member=by, at=at, until=terms.restored_until)
    _audit(
        locked,
        actor=by,
        action="appeal_decide",
        citation=rule["citation"],
        reason=terms.reasons[:500],
        before=before,
    )
    from siltfence.apps.appeals.documents import decision_lines
    from siltfence.apps.appeals.minutes import minutes_of
    from siltfence.apps.documents.pdf import lines_to_pdf
    from siltfence.presentation.today import ordinance_on

    content = lines_to_pdf(
        decision_lines(
            ordinance=ordinance_on(locked.village_id, at),
            appeal=locked,
            minutes=minutes_of(locked),
        ),
        title=f"Decision {locked.number}",
    )
    locked.decision_sha256 = hashlib.sha256(content).hexdigest()
    locked.decision_document.save(f"{uuid.uuid4().hex}.pdf", ContentFile(content), save=False)
    locked.save(update_fields=["decision_document", "decision_sha256"])
    event_record(
        actor=None,
        entity="appeal",
        entity_id=locked.pk,
        action="appeal_decision_generate",
        village=locked.village_id,
        citation=rule["citation"],
        after={"sha256": locked.decision_sha256},
    )
    return locked
