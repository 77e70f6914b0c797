"""The words of the generated documents, as plain lines, so they can be read, tested
against golden snapshots, and laid out as PDF. Each condition carries its section."""

from __future__ import annotations

from typing import Any

from siltfence.core.ordinance.model import Ordinance


def permit_lines(*, ordinance: Ordinance, permit: Any, application: Any) -> list[str]:
    words = ordinance.words
    authority = ordinance.authority_title
    duration_cite = ordinance.rules["permit"]["citation"]
    lines = [
        f"{ordinance.name.upper()}",
        f"{ordinance.county}, {ordinance.state}",
        "",
        f"CONSTRUCTION SITE EROSION CONTROL PERMIT No. {permit.number}",
        f"Issued under Ch. {ordinance.chapter}, {ordinance.title} "
        f"({ordinance.rules['permit']['citation']})",
        "",
        f"{words.get('permittee', 'permittee').capitalize()}: {_applicant_name(application)}",
        f"Site: {application.site.address}"
        + (f", parcel {application.site.parcel_number}" if application.site.parcel_number else ""),
        f"Application: {application.number}, received {_date(application.received_at)}",
        f"Plan approved: {application.plan_kind.replace('_', ' ')}"
        f" ({(application.determination.get('plan') or {}).get('citation', '')})",
        f"Issued: {permit.issued_on:%B %-d, %Y}",
        f"Valid through: {permit.expires_on:%B %-d, %Y} "
        f"(180 days, or the building permit's length if longer; {duration_cite})",
        "",
        "CONDITIONS. This permit requires the permittee to:",
    ]
    for condition in ordinance.rules["permit_conditions"]:
        lines.append(f"- {condition['says']} [{condition['citation']}]")
        if condition.get("note"):
            lines.append(f"  Note: {condition['note']}.")
    requirements = application.determination.get("requirements", [])
    if requirements:
        lines += ["", "REQUIREMENTS ON THE SITE:"]
        for requirement in requirements:
            lines.append(f"- {requirement['says']} [{requirement['citation']}]")
    added = ordinance.rules["permit"].get("added_conditions")
    if added and permit.added_conditions:
        lines += ["", f"CONDITIONS ADDED BY THE {authority.upper()} [{added['citation']}]:"]
        lines += [f"- {condition}" for condition in permit.added_conditions]
    if application.decision_reasons:
        lines += ["", f"Notes from the decision: {application.decision_reasons}"]
    entry = ordinance.rules["permit"]["entry_by_application"]
    lines += [
        "",
        f"ENTRY. {entry['says']} [{entry['citation']}].",
        "",
        f"The {authority} may extend this permit one or more times for up to 180 days each "
        f"[{ordinance.rules['permit']['citation']}].",
        "",
        f"{authority}, {ordinance.name}",
    ]
    return lines


def disapproval_lines(*, ordinance: Ordinance, application: Any) -> list[str]:
    appeals = ordinance.rules["appeals"]
    who = ", ".join(w.replace("_", " ") for w in appeals["who_may_appeal"])
    citation = ordinance.rules["permit"]["disapproval_citation"]
    lines = [
        f"{ordinance.name.upper()}",
        f"{ordinance.county}, {ordinance.state}",
        "",
        f"DISAPPROVAL OF APPLICATION No. {application.number}",
        f"Ch. {ordinance.chapter}, {ordinance.title}",
        "",
        f"To: {_applicant_name(application)}",
        f"Site: {application.site.address}",
        f"Application received: {_date(application.received_at)}",
        f"Decided: {_date(application.decided_at)}",
        "",
        f"The {ordinance.authority_title} has disapproved the application and "
        f"{ordinance.words.get('control_plan', 'control plan')} for these reasons [{citation}]:",
        "",
        application.decision_reasons,
        "",
        f"APPEAL. {appeals['says']} [{appeals['citation']}]",
        f"Who may appeal: {who} [{appeals['who_citation']}].",
        "",
        f"{ordinance.authority_title}, {ordinance.name}",
    ]
    return lines


def _applicant_name(application: Any) -> str:
    party = application.parties.filter(
        role__in=["landowner", "responsible_party", "land_user"]
    ).first()
    if party is not None:
        return str(party.name)
    user = application.applicant
    return str(user.get_full_name() or user.get_username())


def _date(value: Any) -> str:
    if value is None:
        return "-"
    from django.utils import timezone

    return f"{timezone.localtime(value):%B %-d, %Y}"
