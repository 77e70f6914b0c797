"""The board's documents as plain lines (golden snapshots), in the words of the data: the
written decision with the minutes of each sitting (who sat, each vote, the outcome), the
notice of a hearing, and the agenda of a day's hearings."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.utils import timezone

from siltfence.apps.appeals.minutes import RollLine, SittingMinutes
from siltfence.apps.documents.addressees import (
    Addressee,
    addressee_lines,
    application_addressees,
    case_addressees,
    office_lines,
)
from siltfence.core.ordinance.model import Ordinance

TEST_WORDS = {
    "public_interest": "Not contrary to the public interest",
    "special_conditions": "Special conditions",
    "unnecessary_hardship": "Unnecessary hardship",
}


def _when(value: Any, ordinance: Ordinance, *, time: bool = True, weekday: bool = False) -> str:
    from zoneinfo import ZoneInfo

    if value is None:
        return "-"
    day = "%A, " if weekday else ""
    if hasattr(value, "hour"):
        local = timezone.localtime(value, ZoneInfo(ordinance.time_zone))
        text = f"{local:{day}%B %-d, %Y at %-I:%M %p}" if time else f"{local:{day}%B %-d, %Y}"
        return text.replace("AM", "a.m.").replace("PM", "p.m.")
    return f"{value:{day}%B %-d, %Y}"


def decision_lines(
    *, ordinance: Ordinance, appeal: Any, minutes: Sequence[SittingMinutes] = ()
) -> list[str]:
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
        *addressee_lines(decision_addressees(appeal, ordinance)),
        "",
        *_board_office_lines(body, ordinance, appeal.village),
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
    ]
    for sitting in minutes:
        lines += ["", *minutes_lines(ordinance, sitting)]
    lines += [
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
    for barred in rule["not_appealable"]:
        lines += [
            "",
            f"Not appealable to the board: {barred['what'].replace('_', ' ')} "
            f"[{barred['citation']}].",
        ]
    lines += ["", f"{body}, {ordinance.name}"]
    return lines


def decision_addressees(appeal: Any, ordinance: Ordinance) -> list[Addressee]:
    """Who the board's decision is sent to: the appellant, and the permittee and the
    landowner the appealed decision concerns (each with the mailing address on the record,
    or a plain line that none is)."""
    application = appeal.application
    if application is None and appeal.case is not None:
        application = appeal.case.application
    if application is not None:
        found = application_addressees(application, ordinance)
    elif appeal.case is not None:
        found = case_addressees(appeal.case, ordinance)
    else:
        found = []
    if all(a.name != appeal.appellant_name for a in found):
        found.insert(0, Addressee("Appellant", appeal.appellant_name))
    return found


def _board_office_lines(body: str, ordinance: Ordinance, village: Any) -> list[str]:
    """ "FROM:" the board, at the village office's address, phone and email."""
    office = office_lines(ordinance, village)
    return ["FROM:", f"{body}, {ordinance.name}", *office[2:]]


def _gap_number(ordinance: Ordinance, gap: str) -> Any:
    for note in ordinance.rules["gaps"]:
        if note["id"] == gap:
            return note.get("number")
    return None


def _board_caveat(ordinance: Ordinance, gap: str) -> str:
    number = _gap_number(ordinance, gap)
    return (
        "The board's seats, quorum and the votes that decide are the village's reading of the "
        "statute the chapter incorporates, not yet confirmed by the village"
        + (f" (gap {number})." if number else ".")
    )


def _who(line: RollLine) -> str:
    return f"{line.name} ({line.seat})"


def minutes_lines(ordinance: Ordinance, sitting: SittingMinutes) -> list[str]:
    """One sitting: who sat (the alternates marked, and why they sat), who was present and
    did not sit, absent, recused with the reason; the quorum; each motion and vote."""
    heading = f"HEARING OF {_when(sitting.held_at, ordinance).upper()}"
    if sitting.place:
        heading += f", {sitting.place.upper()}"
    lines = [heading]
    sat = [_who(r) + (f": {r.why_seated}" if r.why_seated else "") for r in sitting.sitting]
    lines.append("Sitting: " + ("; ".join(sat) if sat else "no one") + ".")
    if sitting.present_not_seated:
        lines.append(
            "Present, not sitting, did not vote: "
            + "; ".join(_who(r) for r in sitting.present_not_seated)
            + "."
        )
    if sitting.absent:
        lines.append("Absent: " + "; ".join(_who(r) for r in sitting.absent) + ".")
    for line in sitting.recused:
        lines.append(
            f"Recused: {_who(line)} refused to vote because of an interest: {line.reason}."
        )
    lines.append(sitting.quorum_says)
    if not sitting.confirmed:
        lines.append(_board_caveat(ordinance, sitting.gap))
    for motion in sitting.motions:
        lines += [
            "",
            f"MOTION {motion.number}: TO {motion.words.upper()} "
            f"({_when(motion.voted_at, ordinance).upper()})",
            f"Grounds stated: {motion.reasons}",
        ]
        if motion.modification:
            lines.append(f"As modified: {motion.modification}")
        lines += [f"- {v.name} ({v.seat}): {v.vote.lower()}" for v in motion.votes]
        lines.append(motion.outcome)
    return lines


def _address(appeal: Any) -> str:
    if getattr(appeal, "case", None) is not None and appeal.case.address:
        return str(appeal.case.address)
    application = getattr(appeal, "application", None)
    if application is not None and getattr(application, "site", None) is not None:
        return str(application.site.address)
    return ""


def _asked(appeal: Any, ordinance: Ordinance) -> str:
    if appeal.kind == "variance":
        return f"A variance from the provisions of Ch. {ordinance.chapter}"
    if appeal.action is not None and appeal.action.kind in ("stop_work_order", "revocation"):
        what = "stop-work order" if appeal.action.kind == "stop_work_order" else "revocation"
        return (
            f"That the {ordinance.appeals_body['title']} reverse the decision appealed, and "
            f"retract the {what} [{ordinance.rules['enforcement']['retraction']['citation']}]"
        )
    return f"That the {ordinance.appeals_body['title']} reverse or modify the decision appealed"


def board_rule_lines(ordinance: Ordinance) -> list[str]:
    board = ordinance.board
    lines = [
        f"The {ordinance.appeals_body['title']} decides by the procedure of the statute the "
        f"chapter incorporates [{board.cites}]: a quorum of {board.quorum} of its "
        f"{board.seats} seats; to reverse or modify a decision, or grant a variance, "
        f"{_needs(board.to_reverse)}; to affirm, or deny a variance, {_needs(board.to_affirm)}."
    ]
    if not board.confirmed:
        lines.append(_board_caveat(ordinance, board.gap))
    return lines


def _needs(rule: int | str) -> str:
    if rule == "majority_of_seated":
        return "a majority of the members sitting"
    if rule == "majority_of_votes_cast":
        return "a majority of the votes cast"
    return f"{rule} concurring votes"


def notice_lines(*, ordinance: Ordinance, appeal: Any) -> list[str]:
    """The notice of the hearing: the appeal, the appellant, what is appealed and asked, the
    date, time and place, how to take part, and the sections."""
    rule = ordinance.rules["appeals"]
    body = ordinance.appeals_body["title"]
    kind = "VARIANCE" if appeal.kind == "variance" else "APPEAL"
    lines = [
        ordinance.name.upper(),
        f"{ordinance.county}, {ordinance.state}",
        "",
        f"NOTICE OF HEARING: {body.upper()}",
        f"{kind} No. {appeal.number} [{rule['citation']}]",
        "",
        f"The {body} of the {ordinance.name} will hold a public hearing on "
        f"{_when(appeal.hearing_at, ordinance, weekday=True)}"
        + (f", at {appeal.hearing_place}." if appeal.hearing_place else "."),
        "",
        f"Appellant: {appeal.appellant_name} ({appeal.appellant_standing.replace('_', ' ')}; "
        f"{rule['who_citation']})",
    ]
    if appeal.action is not None or appeal.application is not None:
        lines.append(
            f"Decision appealed: {appeal.decision_appealed}, a decision of the "
            f"{ordinance.authority_title}"
        )
    address = _address(appeal)
    if address:
        lines.append(f"Site: {address}")
    lines += [
        f"Asked: {_asked(appeal, ordinance)}",
        f"Filed: {_when(appeal.filed_on, ordinance)}",
        "",
        "GROUNDS OF THE APPEAL:",
        appeal.grounds,
        "",
        "HOW TO TAKE PART:",
        f"{ordinance.board.parties_may_appear} [{ordinance.board.statute}]",
        "The hearing is open to the public. The appeal's record may be seen at the office of "
        f"the {ordinance.authority_title}.",
        "",
        *board_rule_lines(ordinance),
        "",
    ]
    if appeal.notice_given_on:
        lines.append(
            f"Notice given {_when(appeal.notice_given_on, ordinance)} to {appeal.notice_to}."
        )
    lines += ["", f"{body}, {ordinance.name}"]
    return lines


def agenda_lines(*, ordinance: Ordinance, day: datetime.date, appeals: Sequence[Any]) -> list[str]:
    """The agenda of the board's hearings on a day: the roll and the quorum, the seating of
    alternates, disclosures of interest, and each appeal with its public hearing and vote."""
    body = ordinance.appeals_body["title"]
    board = ordinance.board
    places = sorted({a.hearing_place for a in appeals if a.hearing_place})
    lines = [
        ordinance.name.upper(),
        f"{ordinance.county}, {ordinance.state}",
        "",
        f"AGENDA: {body.upper()}",
        f"Meeting of {day:%A, %B %-d, %Y} [{ordinance.rules['appeals']['citation']}]",
    ]
    if places:
        lines.append(f"Place: {'; '.join(places)}")
    lines += [
        "The meeting is open to the public.",
        "",
        "1. Call to order; roll call; whether the board has a quorum "
        f"({board.quorum} of its {board.seats} seats) [{board.cites}].",
        "2. Seating of alternates in place of members absent or recused.",
        "3. Disclosures of interest; members who refuse to vote because of an interest.",
        "4. Public hearings, each followed by the board's deliberation, a motion and a "
        "roll-call vote:",
    ]
    if not appeals:
        lines.append("   No appeal is set for a hearing on this day.")
    for index, appeal in enumerate(appeals, 1):
        address = _address(appeal)
        lines.append(
            f"   4.{index}. {_when(appeal.hearing_at, ordinance).split(' at ')[-1]}: "
            f"{'Variance' if appeal.kind == 'variance' else 'Appeal'} {appeal.number}. "
            f"{appeal.appellant_name} ({appeal.appellant_standing.replace('_', ' ')}). "
            f"{appeal.decision_appealed}"
            + (f"; site: {address}" if address else "")
            + f". Asked: {_asked(appeal, ordinance)}."
        )
    lines += [
        "5. Approval of the minutes of the last meeting.",
        "6. Adjournment.",
        "",
        *board_rule_lines(ordinance),
        "",
        f"{body}, {ordinance.name}",
    ]
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
