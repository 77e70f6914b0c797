"""The people named on an application, with the mailing addresses notices are sent to:
read and checked field by field (no mass assignment), and a mailing address added later
by the village's staff or inspector when a notice must be mailed to someone who has none
on the record."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction

from siltfence.apps.accounts.rules import is_inspector_of, is_staff_of
from siltfence.apps.audit.chain import event_record
from siltfence.apps.permits import errors
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import Party, PartyRole
from siltfence.apps.permits.services.common import village_ordinance
from siltfence.core.mailing import (
    CITY_MAX,
    EMAIL_MAX,
    NAME_MAX,
    PHONE,
    PHONE_MAX,
    STREET_MAX,
    US_STATES,
    ZIP_CODE,
    zip_written,
)

# An application names its owner, the party who answers for the work, a contractor, an
# engineer and a contact on the site: a handful; far more is not an application.
MAX_PARTIES = 12
ADDRESS_KEYS = ("street", "city", "state", "zip_code")
PARTY_KEYS = ("role", "name", "email", "phone", "address", *ADDRESS_KEYS)


def _text(value: Any, field: str, limit: int) -> str:
    text = " ".join(str(value if value is not None else "").split())
    if len(text) > limit:
        raise ActionRefused(
            errors.PARTY_TEXT_TOO_LONG.format(field=field, limit=limit), field=field
        )
    if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in text):
        raise ActionRefused(errors.PARTY_CONTROL_CHARACTERS.format(field=field), field=field)
    return text


def mailing_address_read(data: Mapping[str, Any], where: str = "") -> dict[str, str]:
    """A mailing address as typed: all four parts or none; the state as its two letters,
    the ZIP code as 5 digits or ZIP+4. Raises ``ActionRefused`` naming the part."""
    prefix = f"{where}." if where else ""
    parts = {
        "street": _text(data.get("street", ""), f"{prefix}street", STREET_MAX),
        "city": _text(data.get("city", ""), f"{prefix}city", CITY_MAX),
        "state": _text(data.get("state", ""), f"{prefix}state", 2).upper(),
        "zip_code": _text(data.get("zip_code", ""), f"{prefix}zip_code", 10),
    }
    given = [key for key, value in parts.items() if value]
    if not given:
        return parts
    if len(given) < len(parts):
        missing = next(key for key, value in parts.items() if not value)
        raise ActionRefused(
            errors.PARTY_ADDRESS_PART.format(field=f"{prefix}{missing}"), field=f"{prefix}{missing}"
        )
    if parts["state"] not in US_STATES:
        raise ActionRefused(
            errors.PARTY_STATE.format(field=f"{prefix}state", value=repr(parts["state"])),
            field=f"{prefix}state",
        )
    if not ZIP_CODE.match(parts["zip_code"]):
        raise ActionRefused(
            errors.PARTY_ZIP.format(field=f"{prefix}zip_code", value=repr(parts["zip_code"])),
            field=f"{prefix}zip_code",
        )
    parts["zip_code"] = zip_written(parts["zip_code"])
    return parts


def party_read(data: Mapping[str, Any], where: str = "party") -> dict[str, str]:
    """One party as typed on the application, checked: a role of the list, a name, an
    email and a phone that are such, a mailing address whole or absent, and a phone for the
    on-site contact. Only the known keys are read."""
    for key in data:
        if key not in PARTY_KEYS:
            raise ActionRefused(
                errors.PARTY_UNKNOWN_FIELD.format(
                    field=f"{where}.{str(key)[:40]}", expected=", ".join(PARTY_KEYS)
                ),
                field=f"{where}.{str(key)[:40]}",
            )
    role = str(data.get("role", ""))
    if role not in PartyRole.values:
        raise ActionRefused(
            errors.PARTY_ROLE.format(
                field=f"{where}.role", choices=", ".join(PartyRole.labels).lower()
            ),
            field=f"{where}.role",
        )
    name = _text(data.get("name", ""), f"{where}.name", NAME_MAX)
    if not name:
        raise ActionRefused(errors.PARTY_NAME.format(field=f"{where}.name"), field=f"{where}.name")
    email = _text(data.get("email", ""), f"{where}.email", EMAIL_MAX)
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise ActionRefused(
                errors.PARTY_EMAIL.format(field=f"{where}.email", value=repr(email[:60])),
                field=f"{where}.email",
            ) from None
    phone = _text(data.get("phone", ""), f"{where}.phone", PHONE_MAX)
    if phone and not PHONE.match(phone):
        raise ActionRefused(
            errors.PARTY_PHONE.format(field=f"{where}.phone", value=repr(phone)),
            field=f"{where}.phone",
        )
    if role == PartyRole.ON_SITE_CONTACT and not phone:
        raise ActionRefused(
            errors.PARTY_PHONE_REQUIRED.format(field=f"{where}.phone"), field=f"{where}.phone"
        )
    return {
        "role": role,
        "name": name,
        "email": email,
        "phone": phone,
        "address": _text(data.get("address", ""), f"{where}.address", 300),
        **mailing_address_read(data, where),
    }


def parties_read(parties: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    """The parties of an application, each checked (``parties[i].<field>`` in a refusal)."""
    if len(parties) > MAX_PARTIES:
        raise ActionRefused(errors.TOO_MANY_PARTIES.format(limit=MAX_PARTIES), field="parties")
    read = [party_read(p, f"parties[{i}]") for i, p in enumerate(parties)]
    if sum(1 for p in read if p["role"] == PartyRole.VILLAGE) > 1:
        raise ActionRefused(errors.VILLAGE_HOLDS_LAND_TWICE, field="parties")
    return read


def party_address_set(*, party: Party, user: Any, address: Mapping[str, Any]) -> Party:
    """Record the mailing address of a party named on an application (for a notice to be
    mailed to them): the village's staff or inspector only; the address whole."""
    application = party.application
    ordinance = village_ordinance(application.village_id)
    if not (is_staff_of(user, application) or is_inspector_of(user, application)):
        raise ActionRefused(
            errors.NOT_STAFF_OR_INSPECTOR.format(
                authority=ordinance.authority_title, village=ordinance.name
            ),
            field="village",
        )
    parts = mailing_address_read(address)
    if not parts["street"]:
        raise ActionRefused(errors.PARTY_ADDRESS_PART.format(field="street"), field="street")
    with transaction.atomic():
        locked = Party.objects.select_for_update().get(pk=party.pk)
        before = {key: getattr(locked, key) for key in ADDRESS_KEYS}
        for key, value in parts.items():
            setattr(locked, key, value)
        locked.save(update_fields=list(ADDRESS_KEYS))
        event_record(
            actor=user,
            entity="application",
            entity_id=application.pk,
            action="party_address_set",
            village=application.village_id,
            # The party is named on the application the chapter asks for.
            citation=ordinance.applicant_citations[0],
            before={"party": locked.pk, **before},
            after={"party": locked.pk, **parts},
        )
    return locked
