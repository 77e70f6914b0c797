"""The permit: its issue (at approval, or once the surety the approval required is
deposited), its extensions, and the sureties held for it (recorded, drawn on, released)."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from siltfence.apps.audit.chain import event_record
from siltfence.apps.permits import errors
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import (
    Application,
    ApplicationStatus,
    Permit,
    PermitExtension,
    PermitStatus,
    Surety,
    SuretyKind,
    SuretyMovement,
    TimelineEvent,
)
from siltfence.apps.permits.services.common import (
    MAX_MEASURES_LENGTH,
    _day_moment,
    _not_before_issue,
    _number,
    _village_prefix,
    application_transition,
    require_staff,
    village_ordinance,
    village_zone,
)
from siltfence.core.ordinance.model import Ordinance

MAX_SURETY = 10_000_000


def _dollars(amount: Any, field: str) -> Decimal:
    """An amount of money as it was given: whole cents, more than $0, at most
    ``MAX_SURETY``. A fraction of a cent is refused, never rounded away."""
    what = "surety's amount" if field == "surety" else "amount"
    if not isinstance(amount, Decimal) or not amount.is_finite():
        raise ActionRefused(
            errors.SURETY_AMOUNT.format(field=field, what=what, limit=MAX_SURETY), field=field
        )
    if not Decimal(0) < amount <= MAX_SURETY or amount != amount.quantize(Decimal("0.01")):
        raise ActionRefused(
            errors.SURETY_AMOUNT.format(field=field, what=what, limit=MAX_SURETY), field=field
        )
    return amount.quantize(Decimal("0.01"))


def _short(text: str, field: str, limit: int) -> str:
    text = str(text).strip()
    if not text or len(text) > limit or "\x00" in text:
        raise ActionRefused(errors.SHORT_TEXT.format(field=field, limit=limit), field=field)
    return text


def _issue(
    locked: Application, *, at: datetime.datetime, added: list[str], ordinance: Ordinance
) -> Permit:
    """The permit, issued at ``at``: its event, its row, its term from the core."""
    from siltfence.apps.permits.clocks import permit_expiry

    fields: dict[str, Any] = {}
    if locked.building_permit_expires:
        fields["building_permit_expires"] = locked.building_permit_expires.isoformat()
    TimelineEvent.objects.create(application=locked, type="permit_issued", at=at, fields=fields)
    return Permit.objects.create(
        application=locked,
        village_id=locked.village_id,
        number=_number(_village_prefix(locked.village) + "-P", locked.village, Permit),
        issued_on=timezone.localtime(at, village_zone(ordinance)).date(),
        expires_on=permit_expiry(locked),
        added_conditions=added,
    )


def surety_receive(
    *,
    application: Application,
    staff: Any,
    kind: str,
    amount: Decimal,
    issuer: str,
    reference: str,
    at: datetime.datetime,
    expires_on: datetime.date | None = None,
) -> Permit:
    """The surety the approval required is deposited: record it and issue the permit, whose
    term runs from today (§ 413-8E(1)-(2), § 135-7D, § 135-7G)."""
    ordinance = village_ordinance(application.village_id)
    require_staff(staff, application, ordinance)
    citation = ordinance.rules["permit"]["surety_citation"]
    if kind not in SuretyKind.values:
        raise ActionRefused(errors.SURETY_KIND, field="kind")
    issuer, reference = _short(issuer, "issuer", 200), _short(reference, "reference", 100)
    amount = _dollars(amount, "amount")
    if at > timezone.now():
        raise ActionRefused(errors.SURETY_FUTURE, field="at")
    with transaction.atomic():
        locked = Application.objects.select_for_update().get(pk=application.pk)
        if locked.status != ApplicationStatus.AWAITING_SURETY or locked.surety_required is None:
            raise ActionRefused(
                errors.SURETY_NOT_AWAITED.format(status=locked.get_status_display().lower()),
                field="application",
            )
        if amount < locked.surety_required:
            raise ActionRefused(
                errors.SURETY_SHORT.format(
                    required=locked.surety_required, citation=citation, given=amount
                ),
                field="amount",
            )
        if locked.decided_at and at < locked.decided_at:
            raise ActionRefused(
                errors.DATE_BEFORE_RECEIPT.format(received=locked.decided_at.isoformat()),
                field="at",
            )
        received_on = timezone.localtime(at, village_zone(ordinance)).date()
        if expires_on is not None and expires_on <= received_on:
            raise ActionRefused(
                errors.SURETY_EXPIRES_BEFORE.format(expires=expires_on, received=received_on),
                field="expires_on",
            )
        permit = _issue(locked, at=at, added=list(locked.pending_conditions), ordinance=ordinance)
        Surety.objects.create(
            permit=permit,
            kind=kind,
            amount=amount,
            issuer=issuer,
            reference=reference,
            received_on=received_on,
            expires_on=expires_on,
        )
        application_transition(
            locked,
            actor=staff,
            action="surety_receive",
            citation=citation,
            reason="",
            after_extra={
                "permit": permit.number,
                "expires_on": permit.expires_on,
                "surety": {
                    "kind": kind,
                    "amount": str(amount),
                    "issuer": issuer,
                    "reference": reference,
                    **({"expires_on": expires_on} if expires_on else {}),
                },
            },
            status=ApplicationStatus.APPROVED,
        )
        from siltfence.apps.permits.services.letters import permit_document_store

        permit_document_store(permit=permit)
    application.refresh_from_db()
    return permit


def permit_extend(
    *, permit: Permit, staff: Any, days: int, on: datetime.date, added_measures: str = ""
) -> PermitExtension:
    """Extend the permit by up to 180 days, possibly adding measures (§ 413-8E(1), § 135-7G)."""
    from siltfence.apps.permits.clocks import permit_expiry
    from siltfence.core.timeline.clocks import extension_refused

    ordinance = village_ordinance(permit.village_id)
    require_staff(staff, permit, ordinance)
    maximum = int(ordinance.parameter("extension_max", on).value or 180)
    citation = ordinance.rules["permit"]["citation"]
    if not 1 <= days <= maximum:
        raise ActionRefused(
            errors.EXTENSION_DAYS.format(max=maximum, citation=citation, days=days), field="days"
        )
    with transaction.atomic():
        locked = Permit.objects.select_for_update().get(pk=permit.pk)
        if locked.status != PermitStatus.ACTIVE:
            raise ActionRefused(
                errors.PERMIT_NOT_ACTIVE.format(status=locked.status), field="permit"
            )
        refused = extension_refused(locked.expires_on, on, citation)
        if refused is not None:
            raise ActionRefused(f"permit: {refused}", field="permit")
        _not_before_issue(locked, on)
        fields: dict[str, Any] = {"days": days}
        if added_measures.strip():
            fields["added_measures"] = [added_measures.strip()]
        at = _day_moment(locked, on, ordinance)
        TimelineEvent.objects.create(
            application_id=locked.application_id, type="permit_extended", at=at, fields=fields
        )
        before = locked.expires_on
        locked.expires_on = permit_expiry(locked.application)
        locked.save(update_fields=["expires_on"])
        extension = PermitExtension.objects.create(
            permit=locked,
            days=days,
            added_measures=added_measures.strip(),
            granted_on=on,
            granted_by=staff,
            expires_before=before,
            expires_after=locked.expires_on,
        )
        event_record(
            actor=staff,
            entity="permit",
            entity_id=locked.pk,
            action="permit_extend",
            village=locked.village_id,
            reason=added_measures.strip(),
            citation=citation,
            before={"expires_on": before},
            after={"expires_on": locked.expires_on, "days": days},
        )
        # The letter and the new permit document are part of the extension.
        from siltfence.apps.permits.services.letters import (
            extension_letter_store,
            permit_document_store,
        )

        extension_letter_store(extension=extension)
        permit_document_store(permit=locked)
    permit.refresh_from_db()
    return extension


def surety_record(
    *,
    permit: Permit,
    staff: Any,
    kind: str,
    amount: Decimal,
    issuer: str,
    reference: str,
    received_on: datetime.date,
    expires_on: datetime.date | None = None,
) -> Surety:
    """Record a surety bond or letter of credit deposited for an issued permit (§ 413-8E(2),
    § 135-7D): a replacement for one that expires, or one held before this program. A
    surety required at approval is recorded by ``surety_receive``, which issues the permit."""
    ordinance = village_ordinance(permit.village_id)
    require_staff(staff, permit, ordinance)
    if kind not in SuretyKind.values:
        raise ActionRefused(errors.SURETY_KIND, field="kind")
    amount = _dollars(amount, "amount")
    issuer, reference = _short(issuer, "issuer", 200), _short(reference, "reference", 100)
    if received_on > timezone.localdate():
        raise ActionRefused(errors.SURETY_FUTURE, field="received_on")
    if expires_on is not None and expires_on <= received_on:
        raise ActionRefused(
            errors.SURETY_EXPIRES_BEFORE.format(expires=expires_on, received=received_on),
            field="expires_on",
        )
    with transaction.atomic():
        surety = Surety.objects.create(
            permit=permit,
            kind=kind,
            amount=amount,
            issuer=issuer,
            reference=reference,
            received_on=received_on,
            expires_on=expires_on,
        )
        event_record(
            actor=staff,
            entity="permit",
            entity_id=permit.pk,
            action="surety_record",
            village=permit.village_id,
            citation=ordinance.rules["permit"]["surety_citation"],
            after={"kind": kind, "amount": str(amount), "issuer": issuer, "reference": reference},
        )
    return surety


def surety_draw(
    *, surety: Surety, staff: Any, amount: Decimal, on: datetime.date, reason: str
) -> SuretyMovement:
    """Draw on a surety for what the village spent doing the permittee's work. The chapters
    say only what the surety guarantees ("a good faith execution of the approved ... plan
    and any permit conditions", § 413-8E(2), § 135-7D); how it is drawn is the bond's or
    the letter of credit's own terms, so the draw is recorded, not computed."""
    return _surety_move(
        surety=surety, staff=staff, amount=amount, on=on, reason=reason, kind="draw"
    )


def surety_release(
    *,
    surety: Surety,
    staff: Any,
    on: datetime.date,
    amount: Decimal | None = None,
    reason: str = "",
) -> SuretyMovement:
    """Release a surety, in whole (``amount`` None: what is left) or in part, with a letter
    to the permittee."""
    return _surety_move(
        surety=surety, staff=staff, amount=amount, on=on, reason=reason, kind="release"
    )


def _surety_move(
    *,
    surety: Surety,
    staff: Any,
    amount: Decimal | None,
    on: datetime.date,
    reason: str,
    kind: str,
) -> SuretyMovement:
    permit = surety.permit
    ordinance = village_ordinance(permit.village_id)
    require_staff(staff, permit, ordinance)
    reason = str(reason).strip()
    if len(reason) > MAX_MEASURES_LENGTH or "\x00" in reason:
        raise ActionRefused(
            errors.MEASURES_TOO_LONG.format(limit=MAX_MEASURES_LENGTH), field="reason"
        )
    if kind == "draw" and not reason:
        raise ActionRefused(errors.SHORT_TEXT.format(field="reason", limit=2000), field="reason")
    if on > timezone.localdate():
        raise ActionRefused(errors.SURETY_FUTURE, field="on")
    with transaction.atomic():
        locked = Surety.objects.select_for_update().get(pk=surety.pk)
        if locked.released_on is not None:
            raise ActionRefused(
                errors.SURETY_RELEASED.format(on=locked.released_on), field="surety"
            )
        if on < locked.received_on:
            raise ActionRefused(errors.SURETY_DATE.format(received=locked.received_on), field="on")
        balance = locked.balance
        taken = balance if amount is None else _dollars(amount, "amount")
        if not taken > 0:
            raise ActionRefused(errors.SURETY_NOTHING_LEFT, field="amount")
        if taken > balance:
            raise ActionRefused(
                errors.SURETY_OVER_BALANCE.format(amount=taken, balance=balance), field="amount"
            )
        movement = SuretyMovement.objects.create(
            surety=locked, kind=kind, amount=taken, on=on, reason=reason, recorded_by=staff
        )
        if kind == "release" and taken == balance:
            locked.released_on = on
            locked.save(update_fields=["released_on"])
        event_record(
            actor=staff,
            entity="permit",
            entity_id=permit.pk,
            action=f"surety_{kind}",
            village=permit.village_id,
            reason=reason,
            citation=ordinance.rules["permit"]["surety_citation"],
            before={"balance": str(balance)},
            after={"amount": str(taken), "balance": str(balance - taken), "on": on},
        )
        if kind == "release":
            from siltfence.apps.permits.services.letters import surety_release_document_store

            surety_release_document_store(movement=movement)
    return movement
