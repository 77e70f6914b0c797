"""Plain words for the screens: a refusal without its field-name prefix, and the state
of each clock as a sentence a clerk or a contractor reads at a glance."""

from __future__ import annotations

import datetime
from typing import Any
from zoneinfo import ZoneInfo

from siltfence.core.errors import SiltfenceError


def plain(exc: SiltfenceError) -> str:
    """The refusal as a sentence: ``"reasons: a disapproval must ..."`` reads
    ``"A disapproval must ..."``. The services keep the field name for the API and logs."""
    message = str(exc)
    field = getattr(exc, "field", None)
    if field and message.startswith(f"{field}: "):
        message = message[len(field) + 2 :]
    return message[:1].upper() + message[1:]


DECISIONS = ("review_decision", "re_review_decision")
MET_BY = {
    "information_requested": " by a written request for information",
    "application_approved": " by the approval",
    "application_disapproved": " by the disapproval",
}


def duty_words(duty: dict[str, Any], *, zone: str) -> dict[str, Any]:
    """A duty of the timeline with its true state in words.

    ``state`` is one of ``running``, ``paused``, ``met``, ``overdue``. A decision duty
    met by a written request for information is ``paused`` while that request is
    unanswered (``duty["waiting_since"]``: the date it was sent): the ordinance's shorter
    clock starts only when the information arrives."""
    waiting_since = duty.get("waiting_since")
    met_by = duty.get("met_by") or {}
    met_on = str(met_by.get("at", ""))[:10] or None
    due = str(duty["due"])
    if duty["status"] == "overdue":
        state, label = "overdue", f"was due {when(due, zone)}: overdue"
    elif (
        duty["status"] == "met" and met_by.get("type") == "information_requested" and waiting_since
    ):
        state = "paused"
        label = (
            f"clock paused while waiting for the information requested on {waiting_since}; "
            "a new clock starts when it arrives"
        )
    elif duty["status"] == "met":
        how = MET_BY.get(str(met_by.get("type")), "")
        late = f", late by {_late_by(due, str(met_by.get('at', '')))}" if duty.get("late") else ""
        state, label = "met", f"met on {met_on}{how} (due {when(due, zone)}{late})"
    elif duty["kind"] in DECISIONS:
        state, label = "running", f"due {when(due, zone)}, clock running"
    else:
        state, label = "running", f"due {when(due, zone)}"
    return {**duty, "state": state, "label": label, "met_on": met_on}


def _late_by(due: str, met_at: str) -> str:
    """How late a duty was met: whole days for a duty due on a day, hours for one due at
    a time (rounded up: 25 minutes late is an hour late)."""
    if "T" in due:
        start = datetime.datetime.fromisoformat(due)
        end = datetime.datetime.fromisoformat(met_at) if "T" in met_at else start
        hours = max(1, -(-int((end - start).total_seconds()) // 3600))
        return f"{hours} hour{'s' if hours != 1 else ''}"
    days = (datetime.date.fromisoformat(met_at[:10]) - datetime.date.fromisoformat(due)).days
    return f"{days} day{'s' if days != 1 else ''}"


def local_time(moment: datetime.datetime, zone: str) -> str:
    """A stored time (UTC in the database) as the village's clock shows it, with the
    zone's abbreviation: ``2026-11-30 11:55 CST``."""
    return moment.astimezone(ZoneInfo(zone)).strftime("%Y-%m-%d %H:%M %Z")


def when(value: str, zone: str) -> str:
    """A timeline date (``2026-12-01``) as is; a timeline time
    (``2026-12-01T10:00:00-06:00``) in the village's zone: ``2026-12-01 10:00 CST``."""
    if "T" not in value:
        return value
    moment = datetime.datetime.fromisoformat(value)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=ZoneInfo(zone))
    return local_time(moment, zone)


# The core lists every closure day it counted on; on a screen, the rule is what matters.
_CLOSURES_LISTED = "; closure days given for this computation"


def counting_words(duty: dict[str, Any]) -> dict[str, Any]:
    """The duty with its counting rule's words fit for a screen: the rule and its
    citation, without the list of every closure day the computation was given."""
    counting = duty.get("counting")
    if not counting:
        return duty
    says = str(counting.get("says", ""))
    if _CLOSURES_LISTED in says:
        says = (
            says.split(_CLOSURES_LISTED)[0] + " (the closure days are the ones the village keeps)"
        )
    return {**duty, "counting": {**counting, "says": says}}
