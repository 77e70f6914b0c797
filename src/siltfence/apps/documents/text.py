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
    ]
    for extension in permit.extensions.all():
        lines.append(
            f"Extended on {extension.granted_on:%B %-d, %Y} by {extension.days} days, from "
            f"{extension.expires_before:%B %-d, %Y} to {extension.expires_after:%B %-d, %Y} "
            f"[{duration_cite}]"
            + (
                f"; added control measures: {extension.added_measures}"
                if extension.added_measures
                else ""
            )
        )
    for surety in permit.sureties.all():
        lines.append(
            f"Surety: {surety.get_kind_display().lower()} of ${surety.amount:,.2f}, "
            f"{surety.issuer} {surety.reference}, received {surety.received_on:%B %-d, %Y} "
            f"[{ordinance.rules['permit']['surety_citation']}]"
        )
    lines += [
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


def _letter_head(ordinance: Ordinance, title: str, application: Any) -> list[str]:
    return [
        f"{ordinance.name.upper()}",
        f"{ordinance.county}, {ordinance.state}",
        "",
        title,
        f"Ch. {ordinance.chapter}, {ordinance.title}",
        "",
        f"To: {_applicant_name(application)}",
        f"Site: {application.site.address}",
    ]


def surety_required_lines(*, ordinance: Ordinance, application: Any) -> list[str]:
    """The written decision when the approval is subject to a surety (§ 413-8E(2),
    § 135-7D): approved, and the permit issued once the surety is deposited."""
    rules = ordinance.rules["permit"]
    lines = _letter_head(
        ordinance,
        f"APPROVAL OF APPLICATION No. {application.number}, SUBJECT TO A SURETY",
        application,
    )
    lines += [
        f"Application received: {_date(application.received_at)}",
        f"Decided: {_date(application.decided_at)}",
        "",
        f"The {ordinance.authority_title} approves the "
        f"{ordinance.words.get('control_plan', 'control plan')} [{rules['approval_citation']}].",
        "",
        f"SURETY. {rules['surety']} [{rules['surety_citation']}]. The {ordinance.authority_title} "
        f"requires a surety bond or irrevocable letter of credit of "
        f"${application.surety_required:,.2f}. The permit is issued when it is deposited; its "
        f"period runs from that day [{rules['citation']}].",
    ]
    if application.pending_conditions:
        added = rules["added_conditions"]
        lines += ["", f"CONDITIONS THE PERMIT WILL CARRY [{added['citation']}]:"]
        lines += [f"- {condition}" for condition in application.pending_conditions]
    if application.decision_reasons:
        lines += ["", f"Notes from the decision: {application.decision_reasons}"]
    lines += [
        "",
        "No land disturbing work may begin before the permit is issued "
        f"[{rules['required']['citation']}].",
        "",
        f"{ordinance.authority_title}, {ordinance.name}",
    ]
    return lines


def extension_lines(*, ordinance: Ordinance, extension: Any) -> list[str]:
    permit = extension.permit
    citation = ordinance.rules["permit"]["citation"]
    lines = _letter_head(ordinance, f"EXTENSION OF PERMIT No. {permit.number}", permit.application)
    signed, cited = ordinance.authority_title, citation
    who = f"The {signed} extends this permit"
    if extension.on_appeal:
        # The board's decision restoring a revoked permit set its period (decision 38).
        signed = ordinance.appeals_body["title"]
        who = (
            f"The {signed}, deciding appeal {extension.on_appeal}, restores this permit and "
            "extends it"
        )
        cited = f"{citation}; {ordinance.rules['appeals']['citation']}"
    lines += [
        f"Extended: {extension.granted_on:%B %-d, %Y}",
        "",
        f"{who} by {extension.days} days [{cited}]. It was valid through "
        f"{extension.expires_before:%B %-d, %Y}; it is now valid through "
        f"{extension.expires_after:%B %-d, %Y}.",
    ]
    if extension.added_measures:
        lines += [
            "",
            f"ADDED CONTROL MEASURES, a condition of the extension [{citation}]:",
            extension.added_measures,
        ]
    lines += [
        "",
        "A permit document showing the new last day is issued with this letter; it replaces "
        "the earlier one.",
        "",
        f"{signed}, {ordinance.name}",
    ]
    return lines


def closeout_lines(*, ordinance: Ordinance, permit: Any) -> list[str]:
    final = ordinance.rules["permit"]["final_stabilization"]
    lines = _letter_head(ordinance, f"CLOSEOUT OF PERMIT No. {permit.number}", permit.application)
    lines += [f"Closed: {permit.closed_on:%B %-d, %Y}", ""]
    lines.append(
        f"The {ordinance.authority_title} closes this permit at final stabilization "
        f"[{final['citation']}]."
    )
    if final.get("activities_completed"):
        lines.append(f"Recorded: {final['activities_completed']}.")
    if permit.final_cover_percent is not None:
        lines.append(f"Perennial cover found: {permit.final_cover_percent}%.")
    if permit.final_stabilization_measures:
        lines.append(
            f"Equivalent permanent stabilization measures: {permit.final_stabilization_measures}."
        )
    held = [s for s in permit.sureties.all() if s.released_on is None]
    if held:
        lines += [
            "",
            "The surety is not released by this letter; its release is written separately "
            f"[{ordinance.rules['permit']['surety_citation']}].",
        ]
    lines += ["", f"{ordinance.authority_title}, {ordinance.name}"]
    return lines


def surety_release_lines(*, ordinance: Ordinance, movement: Any) -> list[str]:
    surety = movement.surety
    permit = surety.permit
    whole = surety.released_on is not None
    lines = _letter_head(
        ordinance, f"RELEASE OF SURETY, PERMIT No. {permit.number}", permit.application
    )
    lines += [
        f"Surety: {surety.get_kind_display().lower()} of ${surety.amount:,.2f}, {surety.issuer} "
        f"{surety.reference}, received {surety.received_on:%B %-d, %Y} "
        f"[{ordinance.rules['permit']['surety_citation']}]",
        f"Released: {movement.on:%B %-d, %Y}",
        "",
    ]
    drawn = [m for m in surety.movements.all() if m.kind == "draw"]
    for draw in drawn:
        lines.append(f"Drawn on {draw.on:%B %-d, %Y}: ${draw.amount:,.2f} ({draw.reason}).")
    if whole:
        lines.append(
            f"The {ordinance.authority_title} releases the surety in full: ${movement.amount:,.2f}."
        )
    else:
        lines.append(
            f"The {ordinance.authority_title} releases ${movement.amount:,.2f} of the surety; "
            f"${surety.balance:,.2f} is still held."
        )
    if movement.reason:
        lines += ["", f"Reasons: {movement.reason}"]
    lines += ["", f"{ordinance.authority_title}, {ordinance.name}"]
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
