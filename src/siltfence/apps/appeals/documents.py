"""The appeal decision as plain lines (golden snapshots), in the words of the data."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from siltfence.core.ordinance.model import Ordinance

TEST_WORDS = {
    "public_interest": "Not contrary to the public interest",
    "special_conditions": "Special conditions",
    "unnecessary_hardship": "Unnecessary hardship",
}


def _when(value: Any, ordinance: Ordinance, *, time: bool = True) -> str:
    from zoneinfo import ZoneInfo

    if value is None:
        return "-"
    if hasattr(value, "hour"):
        local = timezone.localtime(value, ZoneInfo(ordinance.time_zone))
        text = f"{local:%B %-d, %Y at %-I:%M %p}" if time else f"{local:%B %-d, %Y}"
        return text.replace("AM", "a.m.").replace("PM", "p.m.")
    return f"{value:%B %-d, %Y}"


def decision_lines(*, ordinance: Ordinance, appeal: Any) -> list[str]:
    rule = ordinance.rules["appeals"]
    body = rule["body"]
    kind = "VARIANCE" if appeal.kind == "variance" else "APPEAL"
    lines = [
        ordinance.name.upper(),
        f"{ordinance.county}, {ordinance.state}",
        "",
        f"DECISION OF THE {body.upper()} ON {kind} No. {appeal.number}",
        f"Ch. {ordinance.chapter}, {ordinance.title} [{rule['citation']}]",
        "",
        f"Appellant: {appeal.appellant_name} ({appeal.appellant_standing.replace('_', ' ')}; "
        f"{rule['who_citation']})",
        f"Decision appealed: {appeal.decision_appealed}",
        f"Filed: {_when(appeal.filed_on, ordinance)}",
        f"Hearing: {_when(appeal.hearing_at, ordinance)}"
        + (f", {appeal.hearing_place}" if appeal.hearing_place else ""),
        f"Notice of the hearing given {_when(appeal.notice_given_on, ordinance)} to "
        f"{appeal.notice_to}",
        "",
        "GROUNDS OF THE APPEAL:",
        appeal.grounds,
        "",
        f"DECISION: {appeal.get_decision_display().upper()} "
        f"({_when(appeal.decided_at, ordinance, time=False)})",
        appeal.decision_reasons,
    ]
    if appeal.modification:
        lines += ["", "AS MODIFIED:", appeal.modification]
    if appeal.findings:
        lines += ["", "FINDINGS:"]
        for test, words in TEST_WORDS.items():
            lines.append(f"- {words}: {appeal.findings.get(test, '')}")
    if appeal.action is not None and _retracted_by(appeal):
        retraction = ordinance.rules["enforcement"]["retraction"]
        if appeal.action.kind in ("stop_work_order", "revocation"):
            what = "stop-work order" if appeal.action.kind == "stop_work_order" else "revocation"
            lines += ["", f"The {what} is retracted [{retraction['citation']}]."]
            if what == "revocation":
                lines.append(_restored_permit(appeal, ordinance))
    lines += ["", f"{body}, {ordinance.name}"]
    return lines


def _restored_permit(appeal: Any, ordinance: Ordinance) -> str:
    """What the restoration leaves of the permit's period: the last day the board set, the
    one it keeps, or a period that ended while the permit stood revoked (decision 38)."""
    from siltfence.apps.permits.models import Permit, PermitExtension

    permit = Permit.objects.get(application_id=appeal.action.case.application_id)
    citation = ordinance.rules["permit"]["citation"]
    set_by_board = PermitExtension.objects.filter(permit=permit, on_appeal=appeal.number).first()
    if set_by_board is not None:
        return (
            f"The permit is again in force, and the {ordinance.appeals_body['title']} extends "
            f"its period by {set_by_board.days} days: it was valid through "
            f"{set_by_board.expires_before:%B %-d, %Y} and is now valid through "
            f"{set_by_board.expires_after:%B %-d, %Y} [{citation}; "
            f"{ordinance.rules['appeals']['citation']}]."
        )
    from zoneinfo import ZoneInfo

    decided = _when(appeal.decided_at, ordinance, time=False)
    decided_day = timezone.localtime(appeal.decided_at, ZoneInfo(ordinance.time_zone)).date()
    if permit.expires_on < decided_day:
        return (
            f"The permit's period ended on {permit.expires_on:%B %-d, %Y} [{citation}], while "
            f"it stood revoked, and this decision ({decided}) sets no new last day: the permit "
            "is restored but has expired, and further work needs a new permit."
        )
    return f"The permit is again in force through {permit.expires_on:%B %-d, %Y} [{citation}]."


def _retracted_by(appeal: Any) -> bool:
    """The decision retracted the order or the revocation appealed (a reversal, or a
    modification that lifts it): the case holds the board's retraction citing the appeal."""
    if appeal.decision == "reverse":
        return True
    if appeal.decision != "modify" or appeal.action is None:
        return False
    return bool(
        appeal.action.case.actions.filter(kind="retraction", details__appeal=appeal.number).exists()
    )
