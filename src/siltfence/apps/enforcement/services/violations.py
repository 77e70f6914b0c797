"""Violations: found by the village (an inspection or a staff observation), reported by
the public and reviewed by staff, and ended; each goes on the site's enforcement record."""

from __future__ import annotations

import datetime
import hashlib
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.files.base import ContentFile
from django.db import transaction

from siltfence.apps.accounts.rules import is_inspector_of, is_staff_of
from siltfence.apps.audit.chain import event_record
from siltfence.apps.enforcement import errors
from siltfence.apps.enforcement.errors import ActionRefused
from siltfence.apps.enforcement.models import (
    CaseEvent,
    EnforcementCase,
    Violation,
    ViolationPhoto,
    ViolationSource,
    ViolationStatus,
    ViolatorRole,
)
from siltfence.apps.enforcement.services.common import (
    MAX_DESCRIPTION,
    _local_day,
    _number,
    case_audit,
    clean_text,
    event_add,
)
from siltfence.apps.permits.models import Permit, TimelineEvent, Village
from siltfence.apps.permits.services.common import require_staff, village_ordinance, village_zone
from siltfence.apps.permits.uploads import checked_upload
from siltfence.core.ordinance.model import Ordinance

MAX_PHOTOS = 6
PHOTO_TYPES = ("image/jpeg", "image/png")


@dataclass(frozen=True)
class Photo:
    """An uploaded photo as received: its name, its bytes and the type the browser claimed."""

    name: str
    content: bytes
    content_type: str


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
        tzinfo=village_zone(village_ordinance(case.village_id)),
    )
    event_add(case, type="violation", at=at, fields=_violation_fields(violation))


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
    party_role: str = ViolatorRole.UNKNOWN,
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
    ordinance = village_ordinance(village)
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
            parcel_number=clean_text(parcel_number, "parcel number", 60),
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
        case_audit(
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
    text = clean_text(description, "description", MAX_DESCRIPTION)
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
    place = clean_text(address, "address")
    if permit is not None:
        place = permit.application.site.address
    lat, lon = _location(latitude, longitude)
    if not place and lat is None:
        raise ActionRefused(errors.ADDRESS_REQUIRED, field="address")
    if not place:
        place = f"{lat:.5f}, {lon:.5f}"
    if party_role not in ViolatorRole.values:
        raise ActionRefused(
            errors.PARTY_ROLE.format(choices=", ".join(ViolatorRole.labels).lower()),
            field="party_role",
        )
    _photos_check(photos)
    return {
        "description": text,
        "days_from": days_from,
        "days_to": days_to,
        "address": place,
        "party_name": clean_text(party_name, "party name", 200),
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
    ordinance = village_ordinance(village)
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email

    email = clean_text(email, "email", 200)
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise ActionRefused(
                errors.EMAIL_INVALID.format(value=repr(email[:60])), field="email"
            ) from None
    phone = clean_text(phone, "phone", 40)
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
        party_role=ViolatorRole.UNKNOWN,
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
            complainant_name=clean_text(name, "name", 200),
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
    party_role: str = ViolatorRole.UNKNOWN,
    days_to: datetime.date | None = None,
) -> Violation:
    """Staff review a public complaint: a finding (the violation goes on the site's record,
    with the provision broken) or a dismissal with a note."""
    ordinance = village_ordinance(violation.village_id)
    require_staff(staff, violation, ordinance)
    note = clean_text(note, "note", MAX_DESCRIPTION)
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
        if party_role not in ViolatorRole.values:
            raise ActionRefused(
                errors.PARTY_ROLE.format(choices=", ".join(ViolatorRole.labels).lower()),
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
        locked.party_name = clean_text(party_name, "party name", 200)
        locked.party_role = party_role
        locked.days_to = days_to
        locked.save()
        _violation_event(case, locked)
        case_audit(
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
    ordinance = village_ordinance(violation.village_id)
    require_staff(staff, violation, ordinance)
    with transaction.atomic():
        locked = Violation.objects.select_for_update().get(pk=violation.pk)
        if locked.status != ViolationStatus.FOUND or locked.case is None:
            raise ActionRefused(errors.NO_VIOLATION, field="violation")
        if days_to < locked.days_from:
            raise ActionRefused(
                errors.DAYS_ORDER.format(to=days_to, frm=locked.days_from), field="days_to"
            )
        case = EnforcementCase.objects.select_for_update().get(pk=locked.case.pk)
        locked.days_to = days_to
        locked.save(update_fields=["days_to"])
        _event_update(case, locked.event_id, _violation_fields(locked))
        case_audit(
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


def _found_violation(case: EnforcementCase) -> Violation:
    violation = case.violations.filter(status=ViolationStatus.FOUND).first()
    if violation is None:
        raise ActionRefused(errors.NO_VIOLATION, field="violation")
    return violation
