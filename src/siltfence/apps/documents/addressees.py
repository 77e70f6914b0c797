"""Who a notice is addressed to, with the mailing address it goes to, and the office that
sends it: blocks of lines any document can put at its head (the enforcement notices; the
appeal decision may too) and a template include for pages (``documents/_addressee.html``).

The addressees are the permittee (the party who answers for the work) and the landowner
where that is someone else, as the application names them; never the engineer who drew
the plan, the contractor or the on-site contact. Where the village itself holds the land,
the village is not an addressee (the ``village-holds-land`` gap note). A party with no
mailing address on the record is shown so, plainly."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from siltfence.core.ordinance.model import Ordinance

NO_MAILING_ADDRESS = "Mailing address: none on the village's record"


@dataclass(frozen=True)
class Addressee:
    """One person a notice is addressed to: in what capacity, their name, their mailing
    address as envelope lines (empty when none is on the record) and, for a party named
    on an application, its id."""

    role: str
    name: str
    mailing: tuple[str, ...] = ()
    party_id: int | None = None
    email: str = ""
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def key(self) -> str:
        return f"party-{self.party_id}" if self.party_id is not None else f"name-{self.name}"


def _words(ordinance: Ordinance, key: str, default: str) -> str:
    return str(ordinance.words.get(key, default))


def village_holds_land(application: Any) -> bool:
    return application is not None and any(p.role == "village" for p in application.parties.all())


def application_addressees(application: Any, ordinance: Ordinance) -> list[Addressee]:
    """The permittee, then the landowner where different (and not the village)."""
    parties = list(application.parties.all())
    owner_roles = ("landowner", "responsible_party")
    owner = next((p for p in parties if p.role in owner_roles), None)
    user = next((p for p in parties if p.role == "land_user"), None)
    permittee = _words(ordinance, "permittee", "permittee")
    found: list[Addressee] = []
    principal = user or owner
    if principal is not None:
        found.append(_of(principal, permittee.capitalize()))
    else:
        # No owner or land user named (an application made before they were asked for):
        # the person who filed it, who has no mailing address on the record.
        applicant = application.applicant
        found.append(
            Addressee(
                permittee.capitalize(),
                str(applicant.get_full_name() or applicant.get_username()),
                email=str(applicant.email or ""),
            )
        )
    if owner is not None and owner is not principal:
        found.append(_of(owner, "Landowner"))
    return found


def _of(party: Any, role: str) -> Addressee:
    return Addressee(
        role, str(party.name), tuple(party.mailing_lines()), party.pk, str(party.email or "")
    )


def case_addressees(case: Any, ordinance: Ordinance) -> list[Addressee]:
    """The addressees of a case's notices: from its application, or, for a site with no
    permit, the party the violations name (no mailing address is on the record for them
    until one is given when a notice is mailed)."""
    if case.application_id is not None:
        return application_addressees(case.application, ordinance)
    named = [
        v
        for v in case.violations.filter(status="found").order_by("days_from", "id")
        if v.party_name
    ]
    found: list[Addressee] = []
    for violation in named:
        if all(a.name != violation.party_name for a in found):
            found.append(Addressee(violation.get_party_role_display(), str(violation.party_name)))
    if not found:
        found.append(
            Addressee("Name not yet known", "The owner and the person in charge of the work")
        )
    return found


def addressee_lines(addressees: Sequence[Addressee], *, village_land: str = "") -> list[str]:
    """ "TO:" with each addressee's name, capacity and mailing address (or a plain line that
    none is on the record); and, where the village holds the land, a line that says so."""
    lines = ["TO:"]
    for addressee in addressees:
        lines.append(f"{addressee.name} ({addressee.role.lower()})")
        if addressee.mailing:
            lines += list(addressee.mailing)
        else:
            lines.append(NO_MAILING_ADDRESS)
    if village_land:
        lines.append(village_land)
    return lines


def office_contact(ordinance: Ordinance, village: Any) -> dict[str, str]:
    """The office's phone, email and hours as a notice prints them: what the village's
    staff entered on its settings page (``village``: its record) where they entered it,
    else what the village's data gives, else nothing."""
    data = ordinance.office
    return {
        key: (getattr(village, key, "") or data[key] or "") for key in ("phone", "email", "hours")
    }


def office_address_lines(ordinance: Ordinance) -> list[str]:
    """The office's name, street, and city, state and ZIP, as the village's data gives them."""
    office = ordinance.office
    address = office["mailing_address"]
    return [
        office["name"],
        address["street"],
        f"{address['city']}, {address['state']} {address['zip']}",
    ]


def office_lines(ordinance: Ordinance, village: Any) -> list[str]:
    """ "FROM:" the authority's office: its name and mailing address from the village's data;
    its phone, email and hours as ``office_contact`` gives them; and plainly what the village
    has not given."""
    contact = office_contact(ordinance, village)
    name, *address = office_address_lines(ordinance)
    lines = ["FROM:", f"{ordinance.authority_title}, {name}", *address]
    if contact["phone"]:
        lines.append(f"Phone: {contact['phone']}")
    if contact["email"]:
        lines.append(f"Email: {contact['email']}")
    if contact["hours"]:
        lines.append(f"Office hours: {contact['hours']}")
    missing = [
        word
        for key, word in (
            ("phone", "a phone number"),
            ("email", "an email address"),
            ("hours", "office hours"),
        )
        if not contact[key]
    ]
    if missing:
        listed = missing[0] if len(missing) == 1 else f"{', '.join(missing[:-1])} or {missing[-1]}"
        lines.append(
            f"The village has not given {listed} for these notices: write to the address above."
        )
    return lines
