"""The review clocks and the permit's term.

Spencer § 413-8D: "Within 45 days of receipt of the application, control plan (or
control plan statement) and fee, the Building Inspector shall review the application
[...] If the conditions are not met, the Building Inspector shall inform the applicant in
writing and may either require needed information or disapprove the plan. Within 30 days
of receipt of needed information, the Building Inspector shall again determine if the
plan meets the requirements of this chapter."

New Glarus § 135-7C(1): "Within 30 business days of the receipt of a complete permit
application [...] the Village Administrator shall inform the applicant whether the
application and plan are approved or disapproved"; (4): "If additional information is
submitted, the Village Administrator shall have 10 business days from the date the
additional information is received to inform the applicant that the plan is either
approved or disapproved."

A written request for information is the decision the text allows within the clock, so
it meets the clock as an approval or a disapproval does.

Spencer § 413-8E(1), New Glarus § 135-7G: "Permits shall be valid for a period of 180
days, or the length of the building permit or other construction authorizations,
whichever is longer, from the date of issuance. The [authority] may extend the period one
or more times for up to an additional 180 days."
"""

from __future__ import annotations

import datetime

from siltfence.core.timeline.context import Context, not_before
from siltfence.core.timeline.counting import DayDeadline
from siltfence.core.timeline.events import Event, EventError
from siltfence.core.timeline.model import Duty, Extension, Permit, readings_words

DECIDED_BY = {
    "review_decision": ("application_approved", "application_disapproved", "information_requested"),
    "re_review_decision": (
        "application_approved",
        "application_disapproved",
        "information_requested",
    ),
}
STARTED_BY = {
    "application_received": "complete application received, with its plan and any fee due",
    "information_received": "requested information received",
}


def review_clocks(ctx: Context) -> list[Duty]:
    duties = []
    for clock in ctx.ordinance.rules["clocks"]:
        kind = clock["kind"]
        if kind not in DECIDED_BY:
            continue
        for start in ctx.of(clock["from_event"]):
            n = ctx.whole(clock["period"], start.day)
            deadline: DayDeadline
            if clock["days"] == "business":
                deadline = ctx.rule.business_days_after(start.day, n, ctx.office)
                ctx.gap("business-day")
                unit = "business days"
            else:
                deadline = ctx.rule.days_after(start.day, n)
                unit = "days"
            decisions = ctx.after(start, *DECIDED_BY[kind])
            ctx.gap("information-request-clock")
            what = STARTED_BY.get(start.type, start.type.replace("_", " "))
            # Where the text does not say that a request for information answers the
            # clock, the data names the reading taken (New Glarus § 135-7C(1), gap 22).
            readings = ctx.readings(clock, start.day)
            reading = readings_words(readings)
            duties.append(
                Duty(
                    kind=kind,
                    party="authority",
                    due=deadline.due,
                    citation=clock["citation"],
                    because=(
                        f"{what} {start.day.isoformat()}; the {ctx.authority()} decides "
                        f"within {n} {unit} (approval, disapproval or a written request for "
                        f"information{': ' + reading if reading else ''})"
                    ),
                    counting=deadline.counting,
                    moved=deadline.moved,
                    met_by=decisions[0] if decisions else None,
                    readings=readings,
                )
            )
    return duties


def permit_term(ctx: Context) -> Permit | None:
    """The permit in force: issued, expiring, extended, revoked."""
    issued = ctx.of("permit_issued")
    if not issued:
        return None
    rules = ctx.ordinance.rules["permit"]
    citation = rules["citation"]
    if len(issued) > 1:
        ctx.note(
            "permit-issued-again",
            f"A permit was issued {len(issued)} times; the latest issue "
            f"({issued[-1].day.isoformat()}) sets the term, and earlier extensions are not "
            "carried over",
            [citation],
        )
    issue = issued[-1]
    n = ctx.whole(rules["duration"], issue.day)
    # A validity period is not a time within which an act is to be done: it never moves.
    ctx.gap("permit-validity")
    why = "how long a permit lasts is not a time to act (the reading taken)"
    deadline = ctx.rule.plain_days_after(issue.day, n, why)
    expires, moved, counting = deadline.due, deadline.moved, deadline.counting
    because = f"issued {issue.day.isoformat()}; valid {n} days"
    building = issue.fields.get("building_permit_expires")
    if building is not None:
        if building > expires:
            because += (
                f"; the building permit runs to {building.isoformat()}, which is longer, so "
                "the permit runs as long"
            )
            expires, moved = building, None
        else:
            because += (
                f"; the building permit ends {building.isoformat()}, which is not longer than "
                f"{n} days"
            )
    extensions = []
    for extension in ctx.after(issue, "permit_extended"):
        days = int(extension.fields["days"])
        by = extension.fields.get("by", "authority")
        # The appeals board restoring a revoked permit may set its period even where it ended
        # while the permit stood revoked: it decides with the authority's powers, as ought to
        # be done (§ 413-12A, § 135-12A(3); decision 38). The authority may not (below).
        refused = (
            None if by == "appeals_board" else extension_refused(expires, extension.day, citation)
        )
        if refused is not None:
            raise EventError(f"events[{extension.index}].at", refused)
        counted = ctx.rule.plain_days_after(expires, days, why)
        expires = counted.due
        extensions.append(
            Extension(
                extension,
                days,
                expires,
                counted.moved,
                tuple(extension.fields.get("added_measures", ())),
                by,
            )
        )
        because += f"; extended {days} days on {extension.day.isoformat()}"
        if by == "appeals_board":
            because += f" by the {ctx.ordinance.appeals_body['title']}, restoring the permit"
    cap = ctx.ordinance.parameter(rules["extension_max"], issue.day).value
    if isinstance(cap, float) and sum(e.days for e in extensions) > cap:
        # More than 180 days in all: allowed on the reading taken, not on the other one.
        # The note's numbers are the cap's, read on the day of issue.
        ctx.gap("extension-total", issue.day)
    return Permit(
        issued=issue.day,
        expires=expires,
        citation=citation,
        because=because,
        counting=counting,
        moved=moved,
        building_permit_expires=building,
        extensions=tuple(extensions),
        revoked=revoked_on(ctx, issue),
    )


def extension_refused(expires: datetime.date, on: datetime.date, citation: str) -> str | None:
    """Why an extension granted ``on`` cannot be, or None. § 413-8E(1), § 135-7G: the
    authority "may extend the period": a period that has run out (its last day was
    ``expires``) is no longer there to extend, and a new permit is needed. One rule for the
    timeline and for the permit register."""
    if on > expires:
        return (
            f"the permit expired: its last day was {expires.isoformat()}, so on "
            f'{on.isoformat()} there is no period left to extend ({citation}: "may extend the '
            'period"); apply for a new permit'
        )
    return None


def revoked_on(ctx: Context, issue: Event | None = None) -> datetime.date | None:
    """The day the permit was revoked, unless a later retraction undid it (§ 413-10D,
    § 135-11D: the Zoning Board of Appeals, or Spencer's Building Inspector, "may retract
    ... the revocation")."""
    state: Event | None = None
    for event in ctx.of("permit_revoked", "order_retracted"):
        if issue is not None and not not_before(event, issue):
            continue
        if event.type == "permit_revoked":
            state = state or event
        elif event.fields["order"] == "revocation":
            state = None
    return state.day if state is not None else None
