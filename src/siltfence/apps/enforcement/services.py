"""Every change to the enforcement record: ``<entity>_<verb>`` functions.

Each runs in one transaction, locks the case row (PostgreSQL: SELECT ... FOR UPDATE;
SQLite: the write lock), checks its preconditions inside the lock, asks the core timeline
whether the step is lawful on its date (``allowed_actions``), writes, records the
timeline event the law counts from and appends the change to the audit chain. The
waiting periods and who may act come from the ordinance data, never from here.
"""

from __future__ import annotations

import datetime
import hashlib
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any
from zoneinfo import ZoneInfo

from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone

from siltfence.apps.accounts.rules import is_inspector_of, is_staff_of
from siltfence.apps.audit.chain import event_record
from siltfence.apps.enforcement import errors
from siltfence.apps.enforcement.errors import ActionRefused
from siltfence.apps.enforcement.models import (
    ActionKind,
    CaseEvent,
    EnforcementAction,
    EnforcementCase,
    PartyRole,
    Violation,
    ViolationPhoto,
    ViolationSource,
    ViolationStatus,
)
from siltfence.apps.permits.models import Permit, TimelineEvent, Village
from siltfence.apps.permits.uploads import checked_upload
from siltfence.core.ordinance.loader import load
from siltfence.core.ordinance.model import Ordinance

MAX_DESCRIPTION = 5000
MAX_TEXT = 300
MAX_PHOTOS = 6
PHOTO_TYPES = ("image/jpeg", "image/png")


@dataclass(frozen=True)
class Photo:
    """An uploaded photo as received: its name, its bytes and the type the browser claimed."""

    name: str
    content: bytes
    content_type: str


# -- helpers ------------------------------------------------------------------------------


def _ordinance(village: Village | str) -> Ordinance:
    return load(village if isinstance(village, str) else village.id)


def _zone(ordinance: Ordinance) -> ZoneInfo:
    return ZoneInfo(ordinance.time_zone)


def _local_day(ordinance: Ordinance, at: datetime.datetime) -> datetime.date:
    return timezone.localtime(at, _zone(ordinance)).date()


def _require_staff(user: Any, obj: Any, ordinance: Ordinance) -> None:
    if not is_staff_of(user, obj):
        raise ActionRefused(
            errors.NOT_STAFF.format(authority=ordinance.authority_title, village=ordinance.name),
            field="village",
        )


def _text(value: str, field: str, limit: int = MAX_TEXT) -> str:
    value = (value or "").strip()
    if len(value) > limit:
        raise ActionRefused(errors.TEXT_TOO_LONG.format(field=field, limit=limit), field=field)
    if any(ord(ch) < 32 and ch not in "\n\t\r" for ch in value):
        raise ActionRefused(errors.CONTROL_CHARACTERS.format(field=field), field=field)
    return value


def _location(latitude: float | None, longitude: float | None) -> tuple[float | None, float | None]:
    if latitude is None and longitude is None:
        return None, None
    try:
        lat, lon = float(latitude), float(longitude)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ActionRefused(errors.LOCATION_INVALID, field="location") from None
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise ActionRefused(errors.LOCATION_INVALID, field="location")
    return lat, lon


def _number(prefix: str, village: Village | str, model: type[Any]) -> str:
    village_id = village if isinstance(village, str) else village.id
    parts = village_id.split("-")[:-1]
    initials = (parts[0][:2] if len(parts) == 1 else "".join(p[0] for p in parts)).upper()
    year = timezone.now().year
    stem = f"{initials}-{prefix}-{year}-"
    count = model.objects.filter(number__startswith=stem).count()
    return f"{stem}{count + 1:04d}"


def _case_snapshot(case: EnforcementCase) -> dict[str, Any]:
    return {
        "number": case.number,
        "application": case.application_id,
        "address": case.address,
        "actions": list(case.actions.values_list("kind", flat=True)),
    }


def event_add(
    case: EnforcementCase, *, type: str, at: datetime.datetime, fields: dict[str, Any] | None = None
) -> Any:
    """Record a contract event on the case: on the permit's timeline when it has one."""
    if case.application_id is not None:
        return TimelineEvent.objects.create(
            application_id=case.application_id, type=type, at=at, fields=fields or {}
        )
    return CaseEvent.objects.create(case=case, type=type, at=at, fields=fields or {})


def _audit(
    case: EnforcementCase,
    *,
    actor: Any,
    action: str,
    citation: str,
    reason: str = "",
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> None:
    event_record(
        actor=actor,
        entity="enforcement_case",
        entity_id=case.pk,
        action=action,
        village=case.village_id,
        reason=reason,
        citation=citation,
        before=before,
        after={**_case_snapshot(case), **(after or {})},
    )


def _case_for(
    *,
    village: Village,
    permit: Permit | None,
    address: str,
    parcel_number: str,
    latitude: float | None,
    longitude: float | None,
    at: datetime.datetime,
) -> EnforcementCase:
    """The case of the permit's site, or of an address with no permit; opened if none."""
    if permit is not None:
        existing = EnforcementCase.objects.filter(application_id=permit.application_id).first()
        if existing is not None:
            return existing
        site = permit.application.site
        return EnforcementCase.objects.create(
            village=village,
            number=_number("E", village, EnforcementCase),
            application_id=permit.application_id,
            address=site.address,
            parcel_number=site.parcel_number,
            latitude=latitude,
            longitude=longitude,
            opened_at=at,
        )
    existing = EnforcementCase.objects.filter(
        village=village, application__isnull=True, address__iexact=address
    ).first()
    if existing is not None:
        return existing
    return EnforcementCase.objects.create(
        village=village,
        number=_number("E", village, EnforcementCase),
        address=address,
        parcel_number=parcel_number,
        latitude=latitude,
        longitude=longitude,
        opened_at=at,
    )


def _photos_store(violation: Violation, photos: Sequence[Photo]) -> None:
    for photo in photos:
        checked = checked_upload(
            name=photo.name, content=photo.content, claimed_type=photo.content_type, kind="photo"
        )
        stored = ViolationPhoto(
            violation=violation,
            original_name=checked.display_name,
            content_type=checked.content_type,
            size=len(photo.content),
            sha256=hashlib.sha256(photo.content).hexdigest(),
        )
        stored.file.save(
            f"{uuid.uuid4().hex}{checked.extension}", ContentFile(photo.content), save=False
        )
        stored.save()


def _photos_check(photos: Sequence[Photo]) -> None:
    """Check every photo before anything is written (size and real type: ``checked_upload``)."""
    if len(photos) > MAX_PHOTOS:
        raise ActionRefused(errors.TOO_MANY_PHOTOS.format(limit=MAX_PHOTOS), field="photos")
    for photo in photos:
        try:
            checked = checked_upload(
                name=photo.name,
                content=photo.content,
                claimed_type=photo.content_type,
                kind="photo",
            )
        except ActionRefused as exc:
            raise ActionRefused(
                "photos: " + str(exc).removeprefix("file: ").removeprefix("kind: "),
                field="photos",
            ) from None
        if checked.content_type not in PHOTO_TYPES:
            raise ActionRefused(errors.PHOTO_TYPE.format(name=checked.display_name), field="photos")


def provision_read(ordinance: Ordinance, provision: str) -> tuple[str, str]:
    """A citation of the chapter, normalized ("413-7B(4)" -> "§ 413-7B(4)"), and the
    heading of its section; refused when it points outside the chapter."""
    text = " ".join((provision or "").split())
    if not text:
        return "", ""
    if not text.startswith("§"):
        text = "§ " + text
    text = text.replace("§", "§ ").replace("§  ", "§ ")
    section = ordinance.section_for(text)
    if section is None or len(text) > 60:
        raise ActionRefused(
            errors.PROVISION_UNKNOWN.format(
                provision=text[:60], village=ordinance.name, chapter=ordinance.chapter
            ),
            field="provision",
        )
    return text, section.heading


def _violation_fields(violation: Violation) -> dict[str, Any]:
    return {
        "id": violation.event_id,
        "from": violation.days_from.isoformat(),
        "to": (violation.days_to or violation.days_from).isoformat(),
    }


def _violation_event(case: EnforcementCase, violation: Violation) -> None:
    """The ``violation`` event: days from and to. While the violation continues (no end
    day yet), the event's ``to`` is its first day, and ``case_events`` extends it to the
    day asked about."""
    at = datetime.datetime.combine(
        violation.days_from,
        datetime.time(0),
        tzinfo=_zone(_ordinance(case.village_id)),
    )
    event_add(case, type="violation", at=at, fields=_violation_fields(violation))


# -- violations ---------------------------------------------------------------------------


def violation_record(
    *,
    village: Village,
    recorded_by: Any,
    source: str,
    description: str,
    days_from: datetime.date,
    at: datetime.datetime,
    days_to: datetime.date | None = None,
    provision: str = "",
    permit: Permit | None = None,
    address: str = "",
    parcel_number: str = "",
    party_name: str = "",
    party_role: str = PartyRole.UNKNOWN,
    latitude: float | None = None,
    longitude: float | None = None,
    photos: Sequence[Photo] = (),
) -> Violation:
    """Record a violation found by the village (a municipal inspection or a staff
    observation) and put it on the site's enforcement record.

    How to call it (for instance from an inspection form)::

        violation_record(
            village=permit.village, recorded_by=request.user, source="inspection",
            description="Silt fence down along the east lot line", provision="§ 413-7B(5)(c)",
            days_from=datetime.date(2026, 7, 1), days_to=None,   # None: still continuing
            at=timezone.now(), permit=permit,                    # or permit=None, address=...
            party_name="Acme Grading", party_role="subcontractor",
            photos=[Photo(name, bytes, content_type), ...],
        )

    ``recorded_by`` must be staff or an inspector of the village. ``source`` is
    "inspection" or "observation" (public complaints come through ``complaint_file``).
    ``provision`` is a citation inside the chapter; its section heading is kept. The party
    is anyone § 413-11 / § 135-11 binds: the permittee, or any person (agent, employee,
    subcontractor, hauler...) at a site with or without a permit. The violation is recorded
    on the timeline as a ``violation`` event (each day a separate offense). Raises
    ``ActionRefused`` naming the field; nothing is written then.
    """
    ordinance = _ordinance(village)
    if not (is_staff_of(recorded_by, village) or is_inspector_of(recorded_by, village)):
        raise ActionRefused(
            errors.NOT_STAFF_OR_INSPECTOR.format(
                authority=ordinance.authority_title, village=ordinance.name
            ),
            field="village",
        )
    found = (ViolationSource.INSPECTION, ViolationSource.OBSERVATION)
    if source not in found:
        raise ActionRefused(
            errors.SOURCE.format(
                choices=", ".join(ViolationSource(s).label for s in found).lower()
            ),
            field="source",
        )
    cited, heading = provision_read(ordinance, provision)
    if not cited:
        example = ordinance.rules["enforcement"]["stop_work_order"]["citation"]
        raise ActionRefused(errors.PROVISION_REQUIRED.format(example=example), field="provision")
    values = _checked_common(
        ordinance,
        village=village,
        description=description,
        days_from=days_from,
        days_to=days_to,
        at=at,
        permit=permit,
        address=address,
        party_name=party_name,
        party_role=party_role,
        latitude=latitude,
        longitude=longitude,
        photos=photos,
    )
    with transaction.atomic():
        case = _case_for(
            village=village,
            permit=permit,
            address=values["address"],
            parcel_number=_text(parcel_number, "parcel number", 60),
            latitude=values["latitude"],
            longitude=values["longitude"],
            at=at,
        )
        case = EnforcementCase.objects.select_for_update().get(pk=case.pk)
        violation = Violation.objects.create(
            village=village,
            case=case,
            source=source,
            status=ViolationStatus.FOUND,
            provision=cited,
            provision_heading=heading,
            found_by=recorded_by,
            reported_at=at,
            reviewed_by=recorded_by,
            reviewed_at=at,
            **{k: values[k] for k in _COMMON},
        )
        _photos_store(violation, photos)
        _violation_event(case, violation)
        _audit(
            case,
            actor=recorded_by,
            action="violation_record",
            citation=cited,
            reason=values["description"][:500],
            after={"violation": violation.pk, "source": source, **_violation_fields(violation)},
        )
    return violation


_COMMON = (
    "description",
    "days_from",
    "days_to",
    "address",
    "party_name",
    "party_role",
    "latitude",
    "longitude",
)


def _checked_common(
    ordinance: Ordinance,
    *,
    village: Village,
    description: str,
    days_from: datetime.date,
    days_to: datetime.date | None,
    at: datetime.datetime,
    permit: Permit | None,
    address: str,
    party_name: str,
    party_role: str,
    latitude: float | None,
    longitude: float | None,
    photos: Sequence[Photo],
) -> dict[str, Any]:
    text = _text(description, "description", MAX_DESCRIPTION)
    if not text:
        raise ActionRefused(errors.DESCRIPTION_REQUIRED, field="description")
    today = _local_day(ordinance, at)
    if days_from > today:
        raise ActionRefused(errors.DAYS_FUTURE.format(today=today), field="days_from")
    if days_to is not None and days_to < days_from:
        raise ActionRefused(errors.DAYS_ORDER.format(to=days_to, frm=days_from), field="days_to")
    if permit is not None and permit.village_id != village.id:
        raise ActionRefused(
            errors.PERMIT_OTHER_VILLAGE.format(number=permit.number, village=ordinance.name),
            field="permit",
        )
    place = _text(address, "address")
    if permit is not None:
        place = permit.application.site.address
    lat, lon = _location(latitude, longitude)
    if not place and lat is None:
        raise ActionRefused(errors.ADDRESS_REQUIRED, field="address")
    if not place:
        place = f"{lat:.5f}, {lon:.5f}"
    if party_role not in PartyRole.values:
        raise ActionRefused(
            errors.PARTY_ROLE.format(choices=", ".join(PartyRole.labels).lower()),
            field="party_role",
        )
    _photos_check(photos)
    return {
        "description": text,
        "days_from": days_from,
        "days_to": days_to,
        "address": place,
        "party_name": _text(party_name, "party name", 200),
        "party_role": party_role,
        "latitude": lat,
        "longitude": lon,
    }


def complaint_file(
    *,
    village: Village,
    description: str,
    at: datetime.datetime,
    address: str = "",
    latitude: float | None = None,
    longitude: float | None = None,
    seen_on: datetime.date | None = None,
    name: str = "",
    email: str = "",
    phone: str = "",
    photos: Sequence[Photo] = (),
) -> Violation:
    """A member of the public reports a site. The report waits for staff review
    (``violation_review``); it is not a violation found until staff say so, so nothing is
    put on any timeline yet. The complainant's contact details are kept private."""
    ordinance = _ordinance(village)
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email

    email = _text(email, "email", 200)
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise ActionRefused(
                errors.EMAIL_INVALID.format(value=repr(email[:60])), field="email"
            ) from None
    phone = _text(phone, "phone", 40)
    if not email and not phone:
        raise ActionRefused(errors.CONTACT_REQUIRED, field="contact")
    values = _checked_common(
        ordinance,
        village=village,
        description=description,
        days_from=seen_on or _local_day(ordinance, at),
        days_to=None,
        at=at,
        permit=None,
        address=address,
        party_name="",
        party_role=PartyRole.UNKNOWN,
        latitude=latitude,
        longitude=longitude,
        photos=photos,
    )
    with transaction.atomic():
        violation = Violation.objects.create(
            village=village,
            source=ViolationSource.COMPLAINT,
            status=ViolationStatus.REPORTED,
            reported_at=at,
            complainant_name=_text(name, "name", 200),
            complainant_email=email,
            complainant_phone=phone,
            **{k: values[k] for k in _COMMON},
        )
        _photos_store(violation, photos)
        event_record(
            actor=None,
            entity="violation",
            entity_id=violation.pk,
            action="complaint_file",
            village=village.id,
            citation=ordinance.rules["enforcement"]["stop_work_order"]["citation"],
            # The complainant's details stay out of the audit record's public fields.
            after={"violation": violation.pk, "address": values["address"]},
        )
    return violation


def violation_review(
    *,
    violation: Violation,
    staff: Any,
    at: datetime.datetime,
    found: bool,
    note: str = "",
    provision: str = "",
    permit: Permit | None = None,
    party_name: str = "",
    party_role: str = PartyRole.UNKNOWN,
    days_to: datetime.date | None = None,
) -> Violation:
    """Staff review a public complaint: a finding (the violation goes on the site's record,
    with the provision broken) or a dismissal with a note."""
    ordinance = _ordinance(violation.village_id)
    _require_staff(staff, violation, ordinance)
    note = _text(note, "note", MAX_DESCRIPTION)
    cited, heading = ("", "")
    if found:
        cited, heading = provision_read(ordinance, provision)
        if not cited:
            example = ordinance.rules["enforcement"]["stop_work_order"]["citation"]
            raise ActionRefused(
                errors.PROVISION_REQUIRED.format(example=example), field="provision"
            )
        if permit is not None and permit.village_id != violation.village_id:
            raise ActionRefused(
                errors.PERMIT_OTHER_VILLAGE.format(number=permit.number, village=ordinance.name),
                field="permit",
            )
        if party_role not in PartyRole.values:
            raise ActionRefused(
                errors.PARTY_ROLE.format(choices=", ".join(PartyRole.labels).lower()),
                field="party_role",
            )
    with transaction.atomic():
        locked = Violation.objects.select_for_update().get(pk=violation.pk)
        if locked.status != ViolationStatus.REPORTED:
            raise ActionRefused(
                errors.NOT_REPORTED.format(status=locked.get_status_display().lower()),
                field="violation",
            )
        if days_to is not None and days_to < locked.days_from:
            raise ActionRefused(
                errors.DAYS_ORDER.format(to=days_to, frm=locked.days_from), field="days_to"
            )
        locked.reviewed_by = staff
        locked.reviewed_at = at
        locked.review_note = note
        if not found:
            locked.status = ViolationStatus.DISMISSED
            locked.save()
            event_record(
                actor=staff,
                entity="violation",
                entity_id=locked.pk,
                action="complaint_dismiss",
                village=locked.village_id,
                reason=note,
            )
            return locked
        case = _case_for(
            village=locked.village,
            permit=permit,
            address=locked.address,
            parcel_number="",
            latitude=locked.latitude,
            longitude=locked.longitude,
            at=at,
        )
        case = EnforcementCase.objects.select_for_update().get(pk=case.pk)
        locked.case = case
        locked.status = ViolationStatus.FOUND
        locked.provision = cited
        locked.provision_heading = heading
        locked.found_by = staff
        locked.party_name = _text(party_name, "party name", 200)
        locked.party_role = party_role
        locked.days_to = days_to
        locked.save()
        _violation_event(case, locked)
        _audit(
            case,
            actor=staff,
            action="violation_find",
            citation=cited,
            reason=note,
            after={"violation": locked.pk, "source": locked.source, **_violation_fields(locked)},
        )
    return locked


def violation_end(
    *, violation: Violation, staff: Any, days_to: datetime.date, at: datetime.datetime
) -> None:
    """The last day of a continuing violation: the forfeiture days stop there."""
    ordinance = _ordinance(violation.village_id)
    _require_staff(staff, violation, ordinance)
    with transaction.atomic():
        locked = Violation.objects.select_for_update().get(pk=violation.pk)
        if locked.status != ViolationStatus.FOUND or locked.case is None:
            raise ActionRefused(errors.NO_VIOLATION, field="violation")
        if days_to < locked.days_from:
            raise ActionRefused(
                errors.DAYS_ORDER.format(to=days_to, frm=locked.days_from), field="days_to"
            )
        case = EnforcementCase.objects.select_for_update().get(pk=locked.case_id)
        locked.days_to = days_to
        locked.save(update_fields=["days_to"])
        _event_update(case, locked.event_id, _violation_fields(locked))
        _audit(
            case,
            actor=staff,
            action="violation_end",
            citation=locked.provision,
            after={"violation": locked.pk, "to": days_to.isoformat()},
        )


def _event_update(case: EnforcementCase, event_id: str, fields: dict[str, Any]) -> None:
    rows: Iterable[Any]
    if case.application_id is not None:
        rows = TimelineEvent.objects.filter(
            application_id=case.application_id, type="violation", fields__id=event_id
        )
    else:
        rows = CaseEvent.objects.filter(case=case, type="violation", fields__id=event_id)
    for row in rows:
        row.fields = fields
        row.save(update_fields=["fields"])


# -- the steps ----------------------------------------------------------------------------

ACTION_WORDS = {
    "revoke_permit": "revocation of the permit",
    "request_cease_and_desist": "a cease-and-desist referral",
    "issue_notice_of_intent": "a notice of intent",
    "begin_village_work": "village work on the land",
    "certify_special_assessment": "certification to the tax roll",
}
FIELDS = {
    "revoke_permit": "revocation",
    "request_cease_and_desist": "referral",
    "issue_notice_of_intent": "notice of intent",
    "begin_village_work": "village work",
    "certify_special_assessment": "certification",
}


def _lock(case: EnforcementCase) -> EnforcementCase:
    return EnforcementCase.objects.select_for_update().get(pk=case.pk)


FUTURE = "date: a step is recorded when it is taken; {at} has not come yet"


def _not_future_day(day: datetime.date, field: str) -> None:
    if day > timezone.localdate() + datetime.timedelta(days=1):
        raise ActionRefused(errors.DAY_TO_COME.format(field=field, day=day), field=field)


def _not_future(at: datetime.datetime) -> None:
    if at > timezone.now() + datetime.timedelta(minutes=5):
        raise ActionRefused(FUTURE.format(at=at.strftime("%Y-%m-%d %H:%M")), field="date")


def lawful(case: EnforcementCase, action: str, at: datetime.datetime) -> dict[str, Any]:
    """The core's word on ``action`` in this case at ``at``: the allowed action (with its
    ``from`` date and citation), or ``ActionRefused`` with the reason and, when it is only
    early, the date it becomes lawful."""
    from siltfence.apps.enforcement.selectors import case_timeline

    ordinance = _ordinance(case.village_id)
    timeline = case_timeline(case, at).to_json()
    field = FIELDS[action]
    found = [a for a in timeline.get("allowed_actions", []) if a["action"] == action]
    if not found:
        # The action's precondition has not happened (or the permit is already revoked).
        preconditions = [
            rule for rule in ordinance.rules["enforcement"]["actions"] if rule["action"] == action
        ]
        why = (
            "; or ".join(f"{rule['says']} ({rule['citation']})" for rule in preconditions)
            or "the chapter does not give this step"
        )
        raise ActionRefused(
            errors.NOT_LAWFUL.format(field=field, what=ACTION_WORDS[action], why=why),
            field=field,
        )
    allowed = found[0]
    if not allowed["available"]:
        raise ActionRefused(
            errors.NOT_LAWFUL_YET.format(
                field=field,
                start=allowed["from"],
                citation=allowed["citation"],
                because=allowed["because"],
            ),
            field=field,
        )
    return dict(allowed)


def _permit_in_force(case: EnforcementCase, at: datetime.datetime) -> Permit | None:
    """The case's permit if it is in force at ``at``: issued, its last day not passed, and
    neither revoked nor closed. An expired or revoked permit is no permit (§ 413-10A(1),
    § 135-11A(1): "being undertaken without a permit")."""
    from siltfence.apps.permits.models import PermitStatus

    permit = _has_permit(case, at)
    if permit is None or permit.status != PermitStatus.ACTIVE:
        return None
    if _local_day(_ordinance(case.village_id), at) > permit.expires_on:
        return None
    return permit


def _no_permit_why(case: EnforcementCase, at: datetime.datetime) -> str:
    permit = _has_permit(case, at)
    if permit is None:
        return ""
    if permit.status != "active":
        return f" (permit {permit.number} is {permit.get_status_display().lower()})"
    return f" (permit {permit.number} expired: its last day was {permit.expires_on})"


def _has_permit(case: EnforcementCase, at: datetime.datetime) -> Permit | None:
    if case.application_id is None:
        return None
    permit = Permit.objects.filter(application_id=case.application_id).first()
    if permit is None or permit.issued_on > _local_day(_ordinance(case.village_id), at):
        return None
    return permit


def _action_create(
    case: EnforcementCase,
    *,
    kind: str,
    at: datetime.datetime,
    staff: Any,
    citation: str,
    grounds: list[dict[str, Any]] | None = None,
    details: dict[str, Any] | None = None,
    note: str = "",
    public: bool = True,
) -> EnforcementAction:
    return EnforcementAction.objects.create(
        case=case,
        kind=kind,
        at=at,
        taken_by=staff if getattr(staff, "is_authenticated", False) else None,
        citation=citation,
        grounds=grounds or [],
        details=details or {},
        note=note,
        public=public,
    )


def _document(case: EnforcementCase, action: EnforcementAction | None, kind: str) -> Any:
    from siltfence.apps.enforcement.documents import document_store

    return document_store(case=case, action=action, kind=kind)


def stop_work_order_post(
    *,
    case: EnforcementCase,
    staff: Any,
    at: datetime.datetime,
    grounds: Sequence[str],
    note: str = "",
) -> EnforcementAction:
    """Post a stop-work order on the site (§ 413-10A, § 135-11A), on the grounds the chapter
    lists, at a date and time; the site placard is made with it."""
    _not_future(at)
    ordinance = _ordinance(case.village_id)
    _require_staff(staff, case, ordinance)
    rule = ordinance.rules["enforcement"]["stop_work_order"]
    by_id = {g["id"]: g for g in rule["grounds"]}
    citations = ", ".join(g["citation"] for g in rule["grounds"])
    chosen = list(dict.fromkeys(grounds))
    if not chosen:
        raise ActionRefused(errors.GROUNDS_REQUIRED.format(citations=citations), field="grounds")
    for ground in chosen:
        if ground not in by_id:
            raise ActionRefused(
                errors.GROUNDS_UNKNOWN.format(ground=repr(str(ground)[:40]), citations=citations),
                field="grounds",
            )
    note = _text(note, "note", MAX_DESCRIPTION)
    with transaction.atomic():
        locked = _lock(case)
        from siltfence.apps.enforcement.selectors import open_stop_work_order

        current = open_stop_work_order(locked)
        if current is not None:
            raise ActionRefused(
                errors.ORDER_OPEN.format(day=_local_day(ordinance, current.at)), field="order"
            )
        permit = _permit_in_force(locked, at)
        day = _local_day(ordinance, at)
        for ground in chosen:
            g = by_id[ground]
            if ground == "no-permit" and permit is not None:
                raise ActionRefused(
                    errors.GROUND_NO_PERMIT.format(
                        says=g["says"],
                        citation=g["citation"],
                        number=permit.number,
                        day=day,
                        issued=permit.issued_on,
                        expires=permit.expires_on,
                    ),
                    field="grounds",
                )
            if ground != "no-permit" and permit is None:
                raise ActionRefused(
                    errors.GROUND_NEEDS_PERMIT.format(
                        says=g["says"],
                        citation=g["citation"],
                        day=day,
                        why=_no_permit_why(locked, at),
                    ),
                    field="grounds",
                )
        action = _action_create(
            locked,
            kind=ActionKind.STOP_WORK_ORDER,
            at=at,
            staff=staff,
            citation=rule["citation"],
            grounds=[dict(by_id[g]) for g in chosen],
            note=note,
        )
        event_add(locked, type="stop_work_order_posted", at=at, fields={"id": f"order-{action.pk}"})
        _audit(
            locked,
            actor=staff,
            action="stop_work_order_post",
            citation=rule["citation"],
            reason="; ".join(by_id[g]["says"] for g in chosen),
            after={"grounds": chosen, "posted_at": at.isoformat()},
        )
        _document(locked, action, "stop_work_placard")
    return action


def compliance_record(
    *, case: EnforcementCase, staff: Any, at: datetime.datetime, note: str = ""
) -> EnforcementAction:
    """The site complies with the stop-work order: the order ends."""
    _not_future(at)
    ordinance = _ordinance(case.village_id)
    _require_staff(staff, case, ordinance)
    note = _text(note, "note", MAX_DESCRIPTION)
    with transaction.atomic():
        locked = _lock(case)
        from siltfence.apps.enforcement.selectors import open_stop_work_order

        if open_stop_work_order(locked) is None:
            raise ActionRefused(errors.NO_OPEN_ORDER, field="order")
        citation = ordinance.rules["enforcement"]["stop_work_order"]["citation"]
        action = _action_create(
            locked, kind=ActionKind.COMPLIANCE, at=at, staff=staff, citation=citation, note=note
        )
        event_add(locked, type="compliance_achieved", at=at)
        _audit(locked, actor=staff, action="compliance_record", citation=citation, reason=note)
    return action


def permit_revoke(
    *, case: EnforcementCase, staff: Any, at: datetime.datetime, reasons: str
) -> EnforcementAction:
    """Revoke the permit where the chapter allows it, from the day it allows it (Spencer
    § 413-10B: after the 10 days to comply with a stop-work order; New Glarus § 135-11B: on a
    stop-work order not obeyed, or on a recorded violation of the plan or permit)."""
    _not_future(at)
    ordinance = _ordinance(case.village_id)
    _require_staff(staff, case, ordinance)
    reasons = _text(reasons, "reasons", MAX_DESCRIPTION)
    if not reasons:
        raise ActionRefused(errors.REVOCATION_REASONS, field="reasons")
    from siltfence.apps.permits.models import PermitStatus

    with transaction.atomic():
        locked = _lock(case)
        permit = _has_permit(locked, at)
        if permit is None:
            raise ActionRefused(errors.REVOKE_NO_PERMIT, field="permit")
        permit = Permit.objects.select_for_update().get(pk=permit.pk)
        if permit.status != PermitStatus.ACTIVE:
            raise ActionRefused(
                errors.PERMIT_NOT_ACTIVE.format(status=permit.get_status_display().lower()),
                field="permit",
            )
        allowed = lawful(locked, "revoke_permit", at)
        permit.status = PermitStatus.REVOKED
        permit.save(update_fields=["status"])
        action = _action_create(
            locked,
            kind=ActionKind.REVOCATION,
            at=at,
            staff=staff,
            citation=allowed["citation"],
            details={"because": allowed["because"], "lawful_from": allowed["from"]},
            note=reasons,
        )
        event_add(locked, type="permit_revoked", at=at, fields={"id": f"order-{action.pk}"})
        _audit(
            locked,
            actor=staff,
            action="permit_revoke",
            citation=allowed["citation"],
            reason=reasons,
            before={"permit_status": "active"},
            after={"permit": permit.number, "permit_status": "revoked"},
        )
        _document(locked, action, "revocation")
    return action


def _retraction(
    locked: EnforcementCase,
    *,
    actor: Any,
    at: datetime.datetime,
    order: str,
    by: str,
    reason: str,
    appeal: Any = None,
) -> EnforcementAction:
    """Retract a stop-work order or a revocation (§ 413-10D, § 135-11D); a retracted
    revocation puts the permit back in force. Call inside the case's lock."""
    from siltfence.apps.enforcement.selectors import open_stop_work_order
    from siltfence.apps.permits.models import PermitStatus

    ordinance = _ordinance(locked.village_id)
    rule = ordinance.rules["enforcement"]["retraction"]
    if by not in rule["by"]:
        titles = {
            "authority": f"the {ordinance.authority_title}",
            "appeals_board": f"the {ordinance.appeals_body['title']}",
        }
        raise ActionRefused(
            errors.RETRACT_BY.format(
                citation=rule["citation"], who=" or ".join(titles[b] for b in rule["by"])
            ),
            field="by",
        )
    details: dict[str, Any] = {"order": order, "by": by}
    if appeal is not None:
        details["appeal"] = appeal.number
    if order == "stop_work_order":
        if open_stop_work_order(locked) is None:
            raise ActionRefused(errors.NO_OPEN_ORDER, field="order")
    else:
        permit = (
            Permit.objects.select_for_update().filter(application_id=locked.application_id).first()
        )
        if permit is None or permit.status != PermitStatus.REVOKED:
            raise ActionRefused(errors.NOT_REVOKED, field="order")
        permit.status = PermitStatus.ACTIVE
        permit.save(update_fields=["status"])
        details["permit"] = permit.number
    action = _action_create(
        locked,
        kind=ActionKind.RETRACTION,
        at=at,
        staff=actor,
        citation=rule["citation"],
        details=details,
        note=reason,
    )
    event_add(locked, type="order_retracted", at=at, fields={"order": order, "by": by})
    _document(locked, action, "retraction")
    _audit(
        locked,
        actor=actor,
        action="order_retract",
        citation=rule["citation"],
        reason=reason,
        after=details,
    )
    return action


def order_retract(
    *, case: EnforcementCase, staff: Any, at: datetime.datetime, order: str, reason: str
) -> EnforcementAction:
    """The authority retracts its own stop-work order or revocation, where the chapter lets
    it (Spencer § 413-10D: the Building Inspector may; New Glarus § 135-11D: only the
    Zoning Board of Appeals may, on appeal)."""
    _not_future(at)
    ordinance = _ordinance(case.village_id)
    _require_staff(staff, case, ordinance)
    if order not in ("stop_work_order", "revocation"):
        raise ActionRefused(errors.ORDER_CHOICE, field="order")
    reason = _text(reason, "reason", MAX_DESCRIPTION)
    with transaction.atomic():
        locked = _lock(case)
        return _retraction(locked, actor=staff, at=at, order=order, by="authority", reason=reason)


def notice_to_cease_give(
    *, case: EnforcementCase, staff: Any, at: datetime.datetime, note: str = ""
) -> EnforcementAction:
    """Tell a party working without a permit to cease (New Glarus § 135-11C): from then, a
    cease-and-desist referral is open if they do not."""
    _not_future(at)
    ordinance = _ordinance(case.village_id)
    _require_staff(staff, case, ordinance)
    rules = [
        r
        for r in ordinance.rules["enforcement"]["actions"]
        if r["after_event"] == "notified_to_cease"
    ]
    if not rules:
        raise ActionRefused(
            errors.NO_NOTICE_TO_CEASE.format(chapter=ordinance.chapter),
            field="notice",
        )
    note = _text(note, "note", MAX_DESCRIPTION)
    with transaction.atomic():
        locked = _lock(case)
        permit = _permit_in_force(locked, at)
        if permit is not None:
            raise ActionRefused(
                errors.NOTICE_NEEDS_NO_PERMIT.format(
                    citation=rules[0]["citation"],
                    number=permit.number,
                    day=_local_day(ordinance, at),
                ),
                field="notice",
            )
        action = _action_create(
            locked,
            kind=ActionKind.NOTICE_TO_CEASE,
            at=at,
            staff=staff,
            citation=rules[0]["citation"],
            note=note,
        )
        event_add(locked, type="notified_to_cease", at=at)
        _audit(locked, actor=staff, action="notice_to_cease_give", citation=rules[0]["citation"])
    return action


def cease_and_desist_refer(
    *, case: EnforcementCase, staff: Any, at: datetime.datetime, note: str = ""
) -> EnforcementAction:
    """Ask the village's attorney to obtain a cease-and-desist order (§ 413-10C, § 135-11C),
    from the day the chapter allows it. Recorded as an action with its letter, in the audit
    chain, and as ``cease_and_desist_requested`` on the timeline, so it is not offered
    again."""
    _not_future(at)
    ordinance = _ordinance(case.village_id)
    _require_staff(staff, case, ordinance)
    note = _text(note, "note", MAX_DESCRIPTION)
    with transaction.atomic():
        locked = _lock(case)
        allowed = lawful(locked, "request_cease_and_desist", at)
        action = _action_create(
            locked,
            kind=ActionKind.CEASE_AND_DESIST_REFERRAL,
            at=at,
            staff=staff,
            citation=allowed["citation"],
            details={"because": allowed["because"], "lawful_from": allowed["from"]},
            note=note,
        )
        event_add(
            locked, type="cease_and_desist_requested", at=at, fields={"id": f"referral-{action.pk}"}
        )
        _audit(locked, actor=staff, action="cease_and_desist_refer", citation=allowed["citation"])
        _document(locked, action, "cease_and_desist_referral")
    return action


def notice_of_intent_issue(
    *, case: EnforcementCase, staff: Any, at: datetime.datetime, work: str
) -> EnforcementAction:
    """The notice of intent to do the work needed to comply (§ 413-10E: from ten days after
    the stop-work order; § 135-11E: after posting it)."""
    _not_future(at)
    ordinance = _ordinance(case.village_id)
    _require_staff(staff, case, ordinance)
    work = _text(work, "work", MAX_DESCRIPTION)
    if not work:
        raise ActionRefused(errors.WORK_REQUIRED, field="work")
    with transaction.atomic():
        locked = _lock(case)
        allowed = lawful(locked, "issue_notice_of_intent", at)
        action = _action_create(
            locked,
            kind=ActionKind.NOTICE_OF_INTENT,
            at=at,
            staff=staff,
            citation=allowed["citation"],
            details={"work": work, "because": allowed["because"], "lawful_from": allowed["from"]},
        )
        event_add(
            locked, type="notice_of_intent_issued", at=at, fields={"id": f"notice-{action.pk}"}
        )
        _audit(
            locked,
            actor=staff,
            action="notice_of_intent_issue",
            citation=allowed["citation"],
            reason=work,
        )
        # The day the work may begin is worked out before the notice is written: it says so.
        action.details["work_from"] = _work_from(locked, at)
        action.save(update_fields=["details"])
        _document(locked, action, "notice_of_intent")
    return action


def _work_from(case: EnforcementCase, at: datetime.datetime) -> str | None:
    """The day village work becomes lawful after the notice (from the core)."""
    from siltfence.apps.enforcement.selectors import case_timeline

    far = at + datetime.timedelta(days=400)
    for allowed in case_timeline(case, far).to_json().get("allowed_actions", []):
        if allowed["action"] == "begin_village_work":
            return str(allowed["from"])
    return None


def village_work_begin(
    *, case: EnforcementCase, staff: Any, at: datetime.datetime, note: str = ""
) -> EnforcementAction:
    """The village goes on the land and begins the work (§ 413-10E: after 14 days from the
    notice of intent; § 135-11E: after the notice)."""
    _not_future(at)
    ordinance = _ordinance(case.village_id)
    _require_staff(staff, case, ordinance)
    note = _text(note, "note", MAX_DESCRIPTION)
    with transaction.atomic():
        locked = _lock(case)
        if locked.actions.filter(kind=ActionKind.VILLAGE_WORK).exists():
            raise ActionRefused(errors.WORK_BEGUN, field="village work")
        allowed = lawful(locked, "begin_village_work", at)
        action = _action_create(
            locked,
            kind=ActionKind.VILLAGE_WORK,
            at=at,
            staff=staff,
            citation=allowed["citation"],
            details={"because": allowed["because"], "lawful_from": allowed["from"]},
            note=note,
        )
        event_add(locked, type="village_work_begun", at=at, fields={"id": f"work-{action.pk}"})
        _audit(locked, actor=staff, action="village_work_begin", citation=allowed["citation"])
    return action


MAX_AMOUNT = Decimal("10000000")


def amount_read(value: Any, field: str = "amount") -> Decimal:
    """A dollar amount typed on a form: digits with at most two decimals, above 0."""
    text = str(value).strip().replace(",", "").removeprefix("$")
    try:
        amount = Decimal(text)
    except (InvalidOperation, ValueError):
        raise ActionRefused(
            errors.COST_AMOUNT.format(limit=f"${MAX_AMOUNT:,}"), field=field
        ) from None
    if (
        not amount.is_finite()
        or amount <= 0
        or amount > MAX_AMOUNT
        or amount != amount.quantize(Decimal("0.01"))
    ):
        raise ActionRefused(errors.COST_AMOUNT.format(limit=f"${MAX_AMOUNT:,}"), field=field)
    return amount.quantize(Decimal("0.01"))


def work_cost_record(
    *,
    case: EnforcementCase,
    staff: Any,
    category: str,
    description: str,
    amount: Any,
    incurred_on: datetime.date,
) -> Any:
    """A cost of the village's work: labour, equipment, materials or contracts."""
    from siltfence.apps.enforcement.models import CostCategory, WorkCost

    ordinance = _ordinance(case.village_id)
    _require_staff(staff, case, ordinance)
    if category not in CostCategory.values:
        raise ActionRefused(
            errors.COST_CATEGORY.format(choices=", ".join(CostCategory.labels).lower()),
            field="category",
        )
    description = _text(description, "description", MAX_TEXT)
    if not description:
        raise ActionRefused(errors.COST_DESCRIPTION, field="description")
    money = amount_read(amount)
    _not_future_day(incurred_on, "date")
    with transaction.atomic():
        locked = _lock(case)
        work = locked.actions.filter(kind=ActionKind.VILLAGE_WORK).first()
        if work is None:
            raise ActionRefused(errors.NO_WORK, field="village work")
        start = _local_day(ordinance, work.at)
        if incurred_on < start:
            raise ActionRefused(
                errors.COST_BEFORE_WORK.format(start=start, day=incurred_on), field="date"
            )
        cost = WorkCost.objects.create(
            case=locked,
            category=category,
            description=description,
            amount=money,
            incurred_on=incurred_on,
            recorded_by=staff,
        )
        _audit(
            locked,
            actor=staff,
            action="work_cost_record",
            citation=work.citation,
            after={"cost": cost.pk, "category": category, "amount": str(money)},
        )
    return cost


def interest_due(invoice: Any, on: datetime.date) -> Decimal:
    """Simple interest at the invoice's annual rate on what is still owed, for each day
    after the due date up to ``on`` (none when the authority set no rate)."""
    if invoice.interest_rate_percent is None or on <= invoice.due_on:
        return Decimal("0.00")
    owed = invoice.principal - invoice.paid_amount
    if owed <= 0:
        return Decimal("0.00")
    days = (on - invoice.due_on).days
    interest = owed * invoice.interest_rate_percent / Decimal(100) * Decimal(days) / Decimal(365)
    return interest.quantize(Decimal("0.01"))


def invoice_issue(
    *, case: EnforcementCase, staff: Any, on: datetime.date, due_in_days: int = 30
) -> Any:
    """Bill the costs of village work not yet billed. The interest rate is the one the
    authority set and in force on the issue day; with none set, the bill charges no
    interest and says so (docs/decisions)."""
    from siltfence.apps.enforcement.models import Invoice, WorkCost
    from siltfence.apps.enforcement.selectors import interest_rate_in_force

    ordinance = _ordinance(case.village_id)
    _require_staff(staff, case, ordinance)
    if (
        isinstance(due_in_days, bool)
        or not isinstance(due_in_days, int)
        or not 1 <= due_in_days <= 365
    ):
        raise ActionRefused(errors.DUE_DAYS, field="due_in_days")
    _not_future_day(on, "invoice date")
    with transaction.atomic():
        locked = _lock(case)
        costs = list(WorkCost.objects.select_for_update().filter(case=locked, invoice__isnull=True))
        if not costs:
            raise ActionRefused(errors.NO_COSTS, field="costs")
        rate = interest_rate_in_force(locked.village_id, on)
        work = locked.actions.filter(kind=ActionKind.VILLAGE_WORK).first()
        invoice = Invoice.objects.create(
            case=locked,
            number=_number("INV", locked.village_id, Invoice),
            issued_on=on,
            due_on=on + datetime.timedelta(days=due_in_days),
            principal=sum((c.amount for c in costs), Decimal("0.00")),
            interest_rate_percent=rate.annual_percent if rate else None,
            interest_authority=rate.authority if rate else "",
        )
        WorkCost.objects.filter(pk__in=[c.pk for c in costs]).update(invoice=invoice)
        action = _action_create(
            locked,
            kind=ActionKind.INVOICE,
            at=datetime.datetime.combine(on, datetime.time(12), tzinfo=_zone(ordinance)),
            staff=staff,
            citation=work.citation if work else "",
            details={"invoice": invoice.number, "principal": str(invoice.principal)},
        )
        _audit(
            locked,
            actor=staff,
            action="invoice_issue",
            citation=action.citation,
            after={
                "invoice": invoice.number,
                "principal": str(invoice.principal),
                "rate": str(invoice.interest_rate_percent) if rate else None,
            },
        )
        _document(locked, action, "invoice")
    return invoice


def payment_record(*, invoice: Any, staff: Any, amount: Any, on: datetime.date) -> Any:
    from siltfence.apps.enforcement.models import Invoice

    ordinance = _ordinance(invoice.case.village_id)
    _require_staff(staff, invoice.case, ordinance)
    money = amount_read(amount)
    _not_future_day(on, "paid on")
    with transaction.atomic():
        locked_case = _lock(invoice.case)
        locked = Invoice.objects.select_for_update().get(pk=invoice.pk)
        owed = locked.principal - locked.paid_amount + interest_due(locked, on)
        if owed <= 0:
            raise ActionRefused(errors.INVOICE_PAID.format(number=locked.number), field="invoice")
        if money > owed:
            raise ActionRefused(errors.PAYMENT_AMOUNT.format(owed=owed), field="amount")
        locked.paid_amount += money
        locked.paid_on = on
        locked.save(update_fields=["paid_amount", "paid_on"])
        _audit(
            locked_case,
            actor=staff,
            action="payment_record",
            citation="",
            after={"invoice": locked.number, "paid": str(money), "on": on.isoformat()},
        )
    return locked


def costs_unpaid_record(*, invoice: Any, staff: Any, at: datetime.datetime) -> EnforcementAction:
    """The bill is past due and not paid: the precondition of certifying the costs to the
    tax roll (``costs_unpaid``)."""
    from siltfence.apps.enforcement.models import Invoice

    _not_future(at)
    ordinance = _ordinance(invoice.case.village_id)
    _require_staff(staff, invoice.case, ordinance)
    day = _local_day(ordinance, at)
    with transaction.atomic():
        locked_case = _lock(invoice.case)
        locked = Invoice.objects.select_for_update().get(pk=invoice.pk)
        if day <= locked.due_on:
            raise ActionRefused(
                errors.NOT_DUE_YET.format(number=locked.number, due=locked.due_on), field="date"
            )
        if locked.principal - locked.paid_amount <= 0:
            raise ActionRefused(errors.NOTHING_UNPAID.format(number=locked.number), field="invoice")
        if locked_case.actions.filter(
            kind=ActionKind.COSTS_UNPAID, details__invoice=locked.number
        ).exists():
            raise ActionRefused(errors.ALREADY_UNPAID.format(number=locked.number), field="invoice")
        work = locked_case.actions.filter(kind=ActionKind.VILLAGE_WORK).first()
        action = _action_create(
            locked_case,
            kind=ActionKind.COSTS_UNPAID,
            at=at,
            staff=staff,
            citation=work.citation if work else "",
            details={"invoice": locked.number},
            public=False,
        )
        event_add(locked_case, type="costs_unpaid", at=at, fields={"id": locked.number})
        _audit(
            locked_case,
            actor=staff,
            action="costs_unpaid_record",
            citation=action.citation,
            after={"invoice": locked.number},
        )
    return action


def tax_roll_certify(*, invoice: Any, staff: Any, at: datetime.datetime) -> EnforcementAction:
    """Certify the unpaid costs to the village's billing officer for the tax roll, as a
    special assessment against the parcel (§ 413-10E and § 66.0703; § 135-11E and Subch.
    VII of Ch. 66), once the costs are recorded as unpaid."""
    from siltfence.apps.enforcement.models import Invoice

    _not_future(at)
    ordinance = _ordinance(invoice.case.village_id)
    _require_staff(staff, invoice.case, ordinance)
    day = _local_day(ordinance, at)
    with transaction.atomic():
        locked_case = _lock(invoice.case)
        locked = Invoice.objects.select_for_update().get(pk=invoice.pk)
        if locked.certified_on is not None:
            raise ActionRefused(
                errors.ALREADY_CERTIFIED.format(number=locked.number, day=locked.certified_on),
                field="invoice",
            )
        if not locked_case.parcel_number:
            raise ActionRefused(errors.NO_PARCEL, field="parcel number")
        allowed = lawful(locked_case, "certify_special_assessment", at)
        owed = locked.principal - locked.paid_amount
        if owed <= 0:
            raise ActionRefused(errors.NOTHING_UNPAID.format(number=locked.number), field="invoice")
        interest = interest_due(locked, day)
        locked.certified_on = day
        locked.save(update_fields=["certified_on"])
        action = _action_create(
            locked_case,
            kind=ActionKind.CERTIFICATION,
            at=at,
            staff=staff,
            citation=allowed["citation"],
            details={
                "invoice": locked.number,
                "principal_unpaid": str(owed),
                "interest": str(interest),
                "total": str(owed + interest),
                "parcel": locked_case.parcel_number,
            },
        )
        event_add(
            locked_case,
            type="special_assessment_certified",
            at=at,
            fields={"id": locked.number},
        )
        _audit(
            locked_case,
            actor=staff,
            action="tax_roll_certify",
            citation=allowed["citation"],
            after=action.details,
        )
        _document(locked_case, action, "tax_roll_certification")
    return action


def case_parcel_set(*, case: EnforcementCase, staff: Any, parcel_number: str) -> None:
    ordinance = _ordinance(case.village_id)
    _require_staff(staff, case, ordinance)
    parcel = _text(parcel_number, "parcel number", 60)
    if not parcel:
        raise ActionRefused(errors.PARCEL_REQUIRED, field="parcel number")
    with transaction.atomic():
        locked = _lock(case)
        before = {"parcel_number": locked.parcel_number}
        locked.parcel_number = parcel
        locked.save(update_fields=["parcel_number"])
        _audit(
            locked,
            actor=staff,
            action="case_parcel_set",
            citation="",
            before=before,
            after={"parcel_number": parcel},
        )


def _found_violation(case: EnforcementCase) -> Violation:
    violation = case.violations.filter(status=ViolationStatus.FOUND).first()
    if violation is None:
        raise ActionRefused(errors.NO_VIOLATION, field="violation")
    return violation


def injunction_refer(
    *, case: EnforcementCase, staff: Any, at: datetime.datetime, note: str = ""
) -> EnforcementAction:
    """Refer the case to the village's attorney for an injunction (§ 413-10F; § 135-11G,
    without first prosecuting for a forfeiture or a cease-and-desist order)."""
    _not_future(at)
    ordinance = _ordinance(case.village_id)
    _require_staff(staff, case, ordinance)
    rule = ordinance.rules["enforcement"]["injunction"]
    note = _text(note, "note", MAX_DESCRIPTION)
    with transaction.atomic():
        locked = _lock(case)
        _found_violation(locked)
        action = _action_create(
            locked,
            kind=ActionKind.INJUNCTION_REFERRAL,
            at=at,
            staff=staff,
            citation=rule["citation"],
            details={"says": rule["says"]},
            note=note,
        )
        _audit(locked, actor=staff, action="injunction_refer", citation=rule["citation"])
        _document(locked, action, "injunction_referral")
    return action


def prosecution_refer(
    *, case: EnforcementCase, staff: Any, at: datetime.datetime, note: str = ""
) -> EnforcementAction:
    """Refer the violations for prosecution for the forfeiture (§ 413-10E and § 1-3;
    § 135-11F), with the days counted by the core, each a separate offense."""
    from siltfence.apps.enforcement.selectors import forfeiture_summary

    _not_future(at)
    ordinance = _ordinance(case.village_id)
    _require_staff(staff, case, ordinance)
    note = _text(note, "note", MAX_DESCRIPTION)
    with transaction.atomic():
        locked = _lock(case)
        _found_violation(locked)
        summary = forfeiture_summary(locked, at) or {}
        citation = ordinance.rules["enforcement"]["forfeiture"]["citation"]
        action = _action_create(
            locked,
            kind=ActionKind.PROSECUTION_REFERRAL,
            at=at,
            staff=staff,
            citation=citation,
            details={
                k: (str(v) if isinstance(v, Decimal) else v)
                for k, v in summary.items()
                if k
                in (
                    "days",
                    "offenses",
                    "min",
                    "max",
                    "min_per_day",
                    "max_per_day",
                    "source",
                    "first_day",
                    "last_day",
                    "plus_costs",
                )
            },
            note=note,
        )
        _audit(
            locked, actor=staff, action="prosecution_refer", citation=citation, after=action.details
        )
        _document(locked, action, "prosecution_referral")
    return action


# -- village settings ---------------------------------------------------------------------


def forfeiture_schedule_set(
    *,
    village: Village,
    staff: Any,
    effective_from: datetime.date,
    per_day_min: Any,
    per_day_max: Any,
    authority: str,
) -> Any:
    """Enter the forfeiture a day the village set outside the chapter (Spencer: Code
    § 1-3), in force from a date. Refused where the chapter sets the amounts itself."""
    from siltfence.apps.enforcement.models import ForfeitureSchedule

    ordinance = _ordinance(village)
    _require_staff(staff, village, ordinance)
    rule = ordinance.rules["enforcement"]["forfeiture"]
    low = ordinance.parameter(rule["min"], effective_from)
    high = ordinance.parameter(rule["max"], effective_from)
    if low.value is not None and high.value is not None:
        raise ActionRefused(
            errors.FORFEITURE_IN_CHAPTER.format(
                citation=rule["citation"], low=f"{low.value:,.0f}", high=f"{high.value:,.0f}"
            ),
            field="per_day",
        )
    try:
        smallest = amount_read(per_day_min, "per_day")
        largest = amount_read(per_day_max, "per_day")
    except ActionRefused:
        raise ActionRefused(errors.FORFEITURE_INVALID, field="per_day") from None
    if largest < smallest:
        raise ActionRefused(errors.FORFEITURE_INVALID, field="per_day")
    authority = _text(authority, "authority", 200)
    if not authority:
        raise ActionRefused(errors.AUTHORITY_REQUIRED, field="authority")
    with transaction.atomic():
        entry, created = ForfeitureSchedule.objects.update_or_create(
            village=village,
            effective_from=effective_from,
            defaults={"per_day_min": smallest, "per_day_max": largest, "authority": authority},
        )
        event_record(
            actor=staff,
            entity="village",
            entity_id=0,
            action="forfeiture_schedule_set",
            village=village.id,
            reason=authority,
            citation=rule["citation"],
            after={
                "effective_from": effective_from,
                "min": str(smallest),
                "max": str(largest),
                "new": created,
            },
        )
    return entry


def interest_rate_set(
    *,
    village: Village,
    staff: Any,
    effective_from: datetime.date,
    annual_percent: Any,
    authority: str,
) -> Any:
    """Enter the interest rate the authority set on the costs of village work (§ 413-10E,
    § 135-11E: "plus interest at the rate authorized"), in force from a date."""
    from siltfence.apps.enforcement.models import InterestRate

    ordinance = _ordinance(village)
    _require_staff(staff, village, ordinance)
    text = str(annual_percent).strip().removesuffix("%").strip()
    try:
        rate = Decimal(text)
    except (InvalidOperation, ValueError):
        raise ActionRefused(errors.RATE_INVALID, field="rate") from None
    if not rate.is_finite() or not 0 <= rate <= 100 or rate != rate.quantize(Decimal("0.001")):
        raise ActionRefused(errors.RATE_INVALID, field="rate")
    authority = _text(authority, "authority", 200)
    if not authority:
        raise ActionRefused(errors.AUTHORITY_REQUIRED, field="authority")
    citation = next(
        (
            r["citation"]
            for r in ordinance.rules["enforcement"]["actions"]
            if r["action"] == "begin_village_work"
        ),
        "",
    )
    with transaction.atomic():
        entry, created = InterestRate.objects.update_or_create(
            village=village,
            effective_from=effective_from,
            defaults={"annual_percent": rate, "authority": authority},
        )
        event_record(
            actor=staff,
            entity="village",
            entity_id=0,
            action="interest_rate_set",
            village=village.id,
            reason=authority,
            citation=citation,
            after={"effective_from": effective_from, "rate": str(rate), "new": created},
        )
    return entry
