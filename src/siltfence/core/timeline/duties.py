"""The permittee's and the authority's duties, computed from what happened on the site.

Which duties a jurisdiction has, who owes them, their citations and their periods come
from ``duties:`` in its ``rules.yaml`` and the parameters it names; how each is counted
from its events is below, with the law it reads.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from siltfence.core.timeline.context import Context, moment_label, not_before
from siltfence.core.timeline.counting import DayDeadline, HourDeadline, day_label
from siltfence.core.timeline.events import Event
from siltfence.core.timeline.model import Duty, Permit, readings_words
from siltfence.core.timeline.rain import Storm, each_rain, to_tenths_mm


def _date_only_hours(ctx: Context, event: Event, citation: str) -> None:
    if not event.has_time:
        ctx.note(
            "hours-from-a-date",
            "An event that starts a period in hours was given as a date without a time; the "
            "hours are counted from the start of that day, the stricter reading. Give the "
            "time to count from the event itself",
            [citation],
        )


# -- notice of commencement -----------------------------------------------------------


def start_notices(ctx: Context) -> list[Duty]:
    """Spencer § 413-8E(3)(a): "Notify the Building Inspector within 48 hours of commencing
    any land disturbing activity". New Glarus § 135-7E(1): "Notify the Village
    Administrator 48 hours prior to commencing any land-disturbing construction activity"."""
    rule = ctx.duty_rule("start_notice")
    if rule is None:
        return []
    if rule["relation"] == "before":
        return _start_notices_before(ctx, rule)
    return _start_notices_after(ctx, rule)


def _start_notices_after(ctx: Context, rule: Mapping[str, Any]) -> list[Duty]:
    duties = []
    notices = ctx.of("start_notice_given")
    used: set[int] = set()
    for start in ctx.of(rule["event"]):
        if not ctx.binds(rule, start.day):
            continue  # no permit in force: work without a permit (``work_without_permit``)
        hours = ctx.whole(rule["period"], start.day)
        deadline = ctx.rule.hours_after(start.at, hours)
        _date_only_hours(ctx, start, rule["citation"])
        met = next((n for n in notices if n.index not in used), None)
        if met is not None:
            used.add(met.index)
        duties.append(
            Duty.by_rule(
                rule,
                deadline,
                because=(
                    f"land disturbing activity commenced {moment_label(start)}; notify the "
                    f"{ctx.authority()} within {hours} hours"
                ),
                met_by=met,
            )
        )
    return duties


def _start_notices_before(ctx: Context, rule: Mapping[str, Any]) -> list[Duty]:
    """The announced start (``work_planned.start``) or, failing it or if earlier, the actual
    start (``work_started.at``) is the moment the 48 hours run back from."""
    starts = ctx.of("work_started")
    plans = ctx.of(rule["event"])
    notices = ctx.of("start_notice_given")
    used: set[int] = set()
    moments: list[tuple[datetime.datetime, bool, str, Event]] = []
    previous: Event | None = None
    for start in starts:
        announced = [
            p for p in plans if not_before(start, p) and (previous is None or p.at > previous.at)
        ]
        plan = announced[-1] if announced else None
        if plan is not None and plan.fields["start"][0] <= start.at:
            when, has_time = plan.fields["start"]
            moments.append((when, has_time, f"announced start {_label(when, has_time)}", start))
        else:
            moments.append((start.at, start.has_time, f"work started {moment_label(start)}", start))
        previous = start
    later = [p for p in plans if previous is None or p.at > previous.at]
    if later:
        plan = later[-1]
        when, has_time = plan.fields["start"]
        moments.append((when, has_time, f"announced start {_label(when, has_time)}", plan))
    duties = []
    for when, has_time, what, source in moments:
        if not ctx.binds(rule, when.date()):
            continue  # no permit in force at the start: work without a permit
        hours = ctx.whole(rule["period"], when.date())
        deadline = ctx.rule.hours_before(when, hours)
        if not has_time:
            ctx.note(
                "hours-from-a-date",
                "A start was given as a date without a time; the 48 hours are counted back "
                "from the start of that day, the stricter reading. Give the time of the start",
                [rule["citation"]],
            )
        met = next((n for n in notices if n.index not in used), None)
        if met is not None:
            used.add(met.index)
        duties.append(
            Duty.by_rule(
                rule,
                deadline,
                because=f"{what}; notify the {ctx.authority()} {hours} hours before",
                met_by=met,
                extra={"source": source.ref()},
            )
        )
    return duties


def _label(moment: datetime.datetime, has_time: bool) -> str:
    if has_time:
        return f"{day_label(moment.date())} {moment.strftime('%H:%M')}"
    return moment.date().isoformat()


# -- completed control measures --------------------------------------------------------


def completion_notices(ctx: Context) -> list[Duty]:
    """Spencer § 413-8E(3)(b): "Notify the Building Inspector of completion of any control
    measures within 14 days after their installation". New Glarus § 135-7E(2): "[...] of
    completion of any BMPs within five days after their installation"."""
    rule = ctx.duty_rule("measure_completion_notice")
    if rule is None:
        return []
    duties = []
    word = ctx.measure_word()
    for installed in ctx.of(rule["event"]):
        if not ctx.binds(rule, installed.day):
            continue
        measure = installed.fields["measure"]
        n = ctx.whole(rule["period"], installed.day)
        filing = bool(rule.get("filed_with_office"))
        deadline = ctx.rule.days_after(installed.day, n, filing=filing)
        if filing:
            _saturday_office_note(ctx, deadline, rule["citation"])
        notices = [
            e
            for e in ctx.after(installed, "measure_completion_notice_given")
            if e.fields["measure"] == measure
        ]
        name = installed.fields.get("description", word)
        duties.append(
            Duty.by_rule(
                rule,
                deadline,
                because=(
                    f"{name} {measure} installed {installed.day.isoformat()}; "
                    f"notice within {n} days"
                ),
                met_by=notices[0] if notices else None,
                extra={"measure": measure},
            )
        )
    return duties


def _saturday_office_note(ctx: Context, deadline: DayDeadline, citation: str) -> None:
    """A notice due on a Saturday, under a rule that moves a filing off a Saturday the
    village office is closed (the rule's ``saturday_filing``), where the village has not
    said whether its office is closed on Saturdays: the day is kept, and the note says what
    would move it."""
    office = ctx.ordinance.office_calendar
    filing = ctx.rule.data.saturday_filing
    if (
        filing is not None
        and deadline.due.weekday() == 5
        and office.get("closed_on_saturdays") is None
    ):
        ctx.note(
            "saturday-office-hours",
            " ".join(str(office.get("closed_on_saturdays_note", "")).split())
            or "The village has not said whether its office is closed on Saturdays; a notice "
            "due on a Saturday is kept on that Saturday",
            [citation, filing.citation],
        )


# -- inspections after rain --------------------------------------------------------------


def rain_inspections(ctx: Context) -> list[Duty]:
    """Spencer § 413-8E(3)(g): "Inspect the construction control measures after each rain
    of 0.5 inch or more". New Glarus § 135-7E(7): "Inspect the BMPs within 24 hours after
    each rain of 0.5 inch or more which results in runoff during active construction
    periods".

    "Each rain" is read as ``timeline.rain`` says (gaps 4 and 20): consecutive wet days
    summed until they reach the threshold, so every day of 0.5 inch or more is a rain of
    its own, and a rain recorded later never moves or removes a duty. "After" a rain: an
    inspection counts only once the rain has ended.

    Which rains count is the duty's ``window`` in the data: ``active_construction`` (New
    Glarus's words) or ``permit`` (Spencer, whose text has no such limit: every rain while
    the permit is in force, until final stabilization, gap note
    ``rain-inspection-window``). Either way it is a condition of the permit
    (``condition_of_permit``): no permit in force, no duty."""
    rule = ctx.duty_rule("rain_inspection")
    events = ctx.of("rain")
    if rule is None or not events:
        return []
    ctx.gap("rain-event")
    ctx.gap("each-rain")
    duties = []
    inspections = ctx.of("self_inspection")

    def threshold_mm(day: datetime.date) -> Decimal:
        value = ctx.param(rule["threshold"], day).value
        assert isinstance(value, float)
        return to_tenths_mm(value)

    for rain in each_rain(events, ctx.zone, threshold_mm):
        first = rain.events[0]
        threshold = ctx.param(rule["threshold"], first.day)
        assert isinstance(threshold.value, float)
        if not rain.at_least(threshold.value):
            continue
        if not ctx.binds(rule, *_days(rain)):
            ctx.note(
                "rain-without-permit",
                f"A {rain.describe()} fell while no permit was in force, so it sets no "
                "inspection duty as a condition of a permit; what binds every site still "
                "does",
                [rule["citation"]],
            )
            continue
        window = rule.get("window", "active_construction")
        if window == "active_construction":
            ctx.gap("active-construction")
        if window == "active_construction" and not _active(ctx, rain):
            ctx.note(
                "rain-outside-construction",
                f"A {rain.describe()} fell outside active construction (before work started "
                "or after final stabilization), so it sets no inspection duty",
                [rule["citation"]],
            )
            continue
        if window == "permit":
            ctx.gap("rain-inspection-window")
            if _stabilized_before(ctx, rain):
                ctx.note(
                    "rain-outside-permit",
                    f"A {rain.describe()} fell after final stabilization, so it sets no "
                    "inspection duty",
                    [rule["citation"]],
                )
                continue
        # What "a rain" is read as (the rule's ``readings:``: gaps 4 and 20), on each duty.
        readings = ctx.readings(rule, first.day)
        reading = readings_words(readings)
        because = f"{rain.describe()}, {_storm_end(rain)}"
        if len(rain.events) > 1:
            because += " (consecutive wet days summed until they reach the threshold"
            because += f": {reading})" if reading else ")"
        elif reading:
            because += f" ({reading})"
        if "period" in rule:
            if rain.runoff is False:
                ctx.note(
                    "rain-without-runoff",
                    f"A {rain.describe()} resulted in no runoff, so it sets no inspection "
                    'duty: the chapter asks for one only after rain "which results in runoff"',
                    [rule["citation"]],
                )
                continue
            if rain.runoff is None:
                ctx.note(
                    "runoff-assumed",
                    "A rain of 0.5 inch or more was recorded without saying whether it "
                    "resulted in runoff; runoff is assumed (the stricter reading), so an "
                    "inspection is due. Record runoff: false when there was none",
                    [rule["citation"]],
                )
                ctx.gap("rain-runoff")  # the jurisdiction's own words for this reading
            hours = ctx.whole(rule["period"], first.day)
            deadline: DayDeadline | HourDeadline = ctx.rule.hours_after(rain.end, hours)
            because += f"; inspect within {hours} hours after it ends"
        else:
            # No deadline in the text (gap 3): the end of the next day after the rain.
            ctx.gap("rain-inspection-deadline")
            end_day = rain.end.date() if rain.end.time() != datetime.time(0) else rain.last_day
            deadline = ctx.rule.days_after(end_day, 1)
            because += "; inspect after it ends (no deadline in the text: the next day is taken)"
        met = _inspected_after(ctx, inspections, rain, rule["citation"])
        duties.append(
            Duty.by_rule(
                rule,
                deadline,
                because=because,
                met_by=met,
                readings=readings,
                extra={
                    "rain": {
                        "inches": rain.inches,
                        "mm": float(rain.mm),
                        "threshold_mm": float(to_tenths_mm(threshold.value)),
                        "from": rain.first_day.isoformat(),
                        "to": rain.last_day.isoformat(),
                        "ended": rain.end.isoformat(),
                        "events": [e.index for e in rain.events],
                    }
                },
            )
        )
    return duties


def _days(rain: Storm) -> list[datetime.date]:
    count = (rain.last_day - rain.first_day).days + 1
    return [rain.first_day + datetime.timedelta(days=i) for i in range(count)]


def _inspected_after(
    ctx: Context, inspections: list[Event], rain: Storm, citation: str
) -> Event | None:
    """The first inspection made after the rain ended ("after each rain"). An inspection
    given as a date alone stands for the start of its day, so on the day a rain ended it
    does not count: it may have been made while the rain still fell."""
    for inspection in inspections:
        if inspection.at >= rain.end:
            return inspection
    if any(not i.has_time and i.day == rain.end.date() for i in inspections):
        ctx.note(
            "inspection-on-the-rain-day",
            "An inspection given without a time on the day a rain ended is not counted as "
            "made after the rain, since it may have been made while the rain still fell. "
            "Give the time of the inspection",
            [citation],
        )
    return None


def _storm_end(storm: Storm) -> str:
    if storm.end.time() == datetime.time(0):
        last = storm.end.date() - datetime.timedelta(days=1)
        return f"ending with {day_label(last)}"
    return f"ended {_label(storm.end, True)}"


def _stabilized_before(ctx: Context, storm: Storm) -> bool:
    """Final stabilization was recorded before the rain began, for the permit in force."""
    issued = ctx.permit.issued if ctx.permit is not None else None
    return any(
        f.at <= storm.start and (issued is None or f.day >= issued)
        for f in ctx.of("final_stabilization")
    )


def _active(ctx: Context, storm: Storm) -> bool:
    """During active construction: after work started and before final stabilization."""
    started = [s for s in ctx.of("work_started") if s.at < storm.end]
    if not started:
        return False
    finished = [f for f in ctx.of("final_stabilization") if f.at <= storm.start]
    return not any(f.at >= started[0].at for f in finished)


# -- weekly inspections ----------------------------------------------------------------


def weekly_inspections(ctx: Context) -> list[Duty]:
    """ "and at least once each week" (§ 413-8E(3)(g), § 135-7E(7)). Gap 13: read as seven
    days since the last inspection, or since the duty began for the first one. Each week is
    owed: a week that passes with no inspection is a missed duty of its own, due on its own
    day, and the next week runs on from that day. The duty begins once work has started
    with a permit in force (a condition of the permit) and ends at final stabilization or
    when the permit ends. Every week is listed: those met (with the inspection that met
    them), those missed, and the current one."""
    rule = ctx.duty_rule("weekly_inspection")
    started = ctx.of(rule["event"]) if rule is not None else []
    if rule is None or not started:
        return []
    begin = _weekly_begin(ctx, rule, started)
    if begin is None:
        return []
    ctx.gap("weekly-inspection")
    begin_day, begin_what = begin
    final = [f.day for f in ctx.of("final_stabilization") if f.day >= begin_day]
    permit_end = (
        ctx.permit.ended_on()
        if rule.get("condition_of_permit") and ctx.permit is not None
        else None
    )

    def ended_before(due: datetime.date) -> bool:
        """Final stabilization (on or before the day due) or the permit's end (before it)
        ends the duty before this week fell due."""
        return bool(final and final[0] <= due) or (permit_end is not None and permit_end < due)

    inspections = [
        i for i in ctx.of("self_inspection") if i.day >= begin_day and not ended_before(i.day)
    ]

    def duty_from(day: datetime.date, what: str) -> Duty:
        n = ctx.whole(rule["period"], day)
        # How "week" is read (the rule's ``readings:``, gap 13), on each week's duty.
        readings = ctx.readings(rule, day)
        reading = readings_words(readings)
        deadline = (
            ctx.rule.days_after(day, n)
            if rule.get("moves", True)
            else ctx.rule.plain_days_after(
                day, n, "a week is at most seven days" + (f" ({reading})" if reading else "")
            )
        )
        return Duty.by_rule(
            rule,
            deadline,
            because=f"{what}; inspect at least once each week ({n} days"
            + (f": {reading})" if reading else ")"),
            extra={"week": {"from": day.isoformat(), "to": deadline.due.isoformat()}},
            readings=readings,
        )

    shown: list[Duty] = []
    current = duty_from(begin_day, begin_what)
    for inspection in inspections:
        while isinstance(current.due, datetime.date) and current.due < inspection.day:
            shown.append(current)  # a week with no inspection: missed
            current = duty_from(current.due, f"no inspection in the week to {current.due}")
        current.met_by = inspection
        shown.append(current)
        current = duty_from(inspection.day, f"last inspection {inspection.day.isoformat()}")
    as_of = ctx.as_of.date()
    while isinstance(current.due, datetime.date) and not ended_before(current.due):
        shown.append(current)
        if current.due >= as_of:
            break
        current = duty_from(current.due, f"no inspection in the week to {current.due}")
    return shown


def _weekly_begin(
    ctx: Context, rule: Mapping[str, Any], started: list[Event]
) -> tuple[datetime.date, str] | None:
    """The day the weekly inspections begin: work started, with a permit in force; where
    work started before the permit was issued, the permit's issue."""
    first = started[0]
    if not rule.get("condition_of_permit"):
        return first.day, f"work started {first.day.isoformat()}"
    permit = ctx.permit
    if permit is None:
        return None
    if permit.in_force_on(first.day):
        return first.day, f"work started {first.day.isoformat()}"
    if first.day < permit.issued and permit.ended_on() >= permit.issued:
        return permit.issued, (
            f"work started {first.day.isoformat()}, before the permit issued "
            f"{permit.issued.isoformat()}"
        )
    later = [s for s in started if permit.in_force_on(s.day)]
    if later:
        return later[0].day, f"work started {later[0].day.isoformat()}"
    return None


# -- stabilization of inactive areas ----------------------------------------------------


def stabilizations(ctx: Context) -> list[Duty]:
    """Spencer § 413-7B(5)(c)[1]: disturbed ground left inactive for seven or more days
    must be stabilized by seeding or sodding (only available prior to September 15) or by
    mulching or covering or other equivalent control measure."""
    rule = ctx.duty_rule("stabilization")
    if rule is None:
        return []
    duties = []
    for inactive in ctx.of(rule["event"]):
        area = inactive.fields["area"]
        n = ctx.whole(rule["period"], inactive.day)
        deadline = ctx.rule.days_after(inactive.day, n)
        ctx.gap("stabilization-deadline")
        done = [e for e in ctx.after(inactive, "area_stabilized") if e.fields["area"] == area]
        cutoff = _seeding_cutoff(ctx, deadline.due)
        seeding = (
            "seeding or sodding, only before September 15, or mulching, covering or an "
            "equivalent measure"
        )
        if cutoff is not None and deadline.due >= cutoff:
            seeding = (
                f"after {cutoff.strftime('%B')} {cutoff.day} seeding and sodding are not "
                "available: mulching, covering or an equivalent measure"
            )
        ctx.note(
            "seeding-cutoff",
            "Seeding or sodding stabilizes inactive ground only before September 15; after "
            "that date it must be mulched, covered or protected by an equivalent measure",
            [rule["citation"]],
        )
        duties.append(
            Duty.by_rule(
                rule,
                deadline,
                because=(
                    f"area {area} inactive since {inactive.day.isoformat()}; stabilize within "
                    f"{n} days by {seeding}"
                ),
                met_by=done[0] if done else None,
                extra={"area": area},
            )
        )
    return duties


def _seeding_cutoff(ctx: Context, day: datetime.date) -> datetime.date | None:
    if "seeding_cutoff" not in ctx.ordinance.parameters:
        return None
    value = ctx.param("seeding_cutoff", day).value
    if not isinstance(value, str):
        return None
    month, dom = (int(part) for part in value.split("-"))
    return datetime.date(day.year, month, dom)


# -- the authority's inspections -------------------------------------------------------


def municipal_inspections(ctx: Context, permit: Permit | None) -> list[Duty]:
    """Spencer § 413-9: "The Building Inspector shall inspect construction sites at least
    once a month during the period starting March 1 and ending October 31 and at least two
    times during the period starting November 1 and ending February 28"."""
    rule = ctx.duty_rule("municipal_inspection")
    if rule is None:
        if permit is not None:
            # A chapter with no inspection schedule says why in its data (New Glarus: the
            # section is not in the received text, gap 9).
            ctx.gap("no-municipal-inspection-schedule")
        return []
    if permit is None:
        return []
    last = permit.expires
    if permit.revoked is not None:
        last = min(last, permit.revoked)
    final = [f.day for f in ctx.of("final_stabilization") if f.day >= permit.issued]
    if final:
        last = min(last, final[0])
    in_force_to, last = last, min(last, ctx.as_of.date())
    inspections = ctx.of("municipal_inspection")
    duties = []
    seasons = ctx.ordinance.rules["municipal_inspections"]["seasons"]
    periods = _periods(permit.issued, last, seasons)
    if periods and periods[-1][1] < in_force_to:
        # The permit is still in force when the period holding as_of ends: the next
        # period's duty appears that day, with no event to announce it.
        ctx.changes.append(periods[-1][1] + datetime.timedelta(days=1))
    for start, end, needed, name in periods:
        due = min(end, permit_end(permit, final))
        done = [i for i in inspections if start <= i.day <= due and i.day >= permit.issued]
        met = done[needed - 1] if len(done) >= needed else None
        times = "once" if needed == 1 else f"{needed} times"
        if _leap_day_added(end, seasons):
            ctx.gap("winter-inspection-leap-day")
        partial = ""
        covered_from, covered_to = max(start, permit.issued), min(end, permit_end(permit, final))
        if (covered_from, covered_to) != (start, end):
            # § 413-9 counts inspections per period and does not scale them for a permit in
            # force for part of one: the full count is owed (the reading that protects the
            # waters), by the last day the permit is in force in the period.
            partial = (
                f"; the permit is in force only {covered_from.isoformat()} to "
                f"{covered_to.isoformat()} of this period, and the count is not reduced for "
                "part of a period"
            )
            ctx.note(
                "partial-inspection-period",
                "A permit in force for only part of an inspection period is owed the period's "
                "full count of inspections: the text sets the count per period and does not "
                "scale it, so the stricter reading is taken; they are due by the last day the "
                "permit is in force in the period",
                [rule["citation"]],
            )
        duties.append(
            Duty(
                kind="municipal_inspection",
                party=rule["party"],
                due=due,
                citation=rule["citation"],
                because=(
                    f"permit in force during {name}; the {ctx.authority()} inspects at least "
                    f"{times} in {start.isoformat()} to {end.isoformat()}"
                    + partial
                    + (f" ({len(done)} so far)" if needed > 1 and not met else "")
                ),
                met_by=met,
                extra={
                    "period": {"from": start.isoformat(), "to": end.isoformat()},
                    "at_least": needed,
                    "inspections": len(done),
                },
            )
        )
    return duties


def permit_end(permit: Permit, final: list[datetime.date]) -> datetime.date:
    end = permit.expires
    if permit.revoked is not None:
        end = min(end, permit.revoked)
    if final:
        end = min(end, final[0])
    return end


Season = Mapping[str, Any]


def _month_day(text: str) -> tuple[int, int]:
    month, day = (int(part) for part in text.split("-"))
    return month, day


def _on(year: int, month_day: tuple[int, int]) -> datetime.date:
    return datetime.date(year, *month_day)


def _season_span(day: datetime.date, season: Season) -> tuple[datetime.date, datetime.date] | None:
    """The span of ``season`` (its ``from`` and ``to`` in the data, "MM-DD") holding
    ``day``, as the text gives it; None if the day is outside it."""
    start, end = _month_day(season["from"]), _month_day(season["to"])
    here = (day.month, day.day)
    if start <= end:
        if start <= here <= end:
            return _on(day.year, start), _on(day.year, end)
        return None
    if here >= start:  # a season across the new year, e.g. November 1 to February 28
        return _on(day.year, start), _on(day.year + 1, end)
    if here <= end:
        return _on(day.year - 1, start), _on(day.year, end)
    return None


def _in_a_season(day: datetime.date, seasons: list[Season]) -> bool:
    return any(_season_span(day, s) is not None for s in seasons)


def _stretched(end: datetime.date, seasons: list[Season]) -> datetime.date:
    """A season's end moved over the days that fall in no season, as February 29 does in
    Spencer's text ("ending February 28", gap 12): the reading taken counts such a day in
    the season before it, so no day of a permit's term goes uninspected."""
    for _ in range(3):
        following = end + datetime.timedelta(days=1)
        if _in_a_season(following, seasons):
            break
        end = following
    return end


def _leap_day_added(end: datetime.date, seasons: list[Season]) -> bool:
    return (
        end.month == 2
        and end.day == 29
        and not any(_season_span(end, s) is not None for s in seasons)
    )


Period = tuple[datetime.date, datetime.date, int, str]


def _periods(first: datetime.date, last: datetime.date, seasons: list[Season]) -> list[Period]:
    """The inspection periods of ``seasons`` overlapping ``first``..``last`` (see
    ``_periods_of``). Permits issued on the same day share them, so they are worked out
    once per (first, last, seasons)."""
    key = tuple((s["from"], s["to"], s["per"], int(s["at_least"])) for s in seasons)
    return list(_periods_of(first, last, key))


@functools.lru_cache(maxsize=8192)
def _periods_of(
    first: datetime.date, last: datetime.date, key: tuple[tuple[str, str, str, int], ...]
) -> tuple[Period, ...]:
    seasons: list[Season] = [
        {"from": f, "to": t, "per": per, "at_least": n} for f, t, per, n in key
    ]
    return tuple(_periods_uncached(first, last, seasons))


def _periods_uncached(
    first: datetime.date, last: datetime.date, seasons: list[Season]
) -> list[Period]:
    """The inspection periods of the jurisdiction's ``municipal_inspections.seasons`` that
    overlap ``first``..``last``: each month of a season counted ``per: month``, the whole
    season of one counted ``per: season``, with ``at_least`` inspections in each.

    Spencer § 413-9: each month from March 1 to October 31 needs one inspection; the winter
    from November 1 to February 28 needs two. February 29 counts in the winter (gap 12).
    """
    periods = []
    day = first
    while day <= last:
        found = None
        for season in seasons:
            span = _season_span(day, season)
            if span is None:
                span = _season_span(day - datetime.timedelta(days=1), season)
                if span is None or _stretched(span[1], seasons) < day:
                    continue
            found = (season, span)
            break
        if found is None:  # a day no season covers, even stretched: nothing is owed on it
            day += datetime.timedelta(days=1)
            continue
        season, (start, end) = found
        end = _stretched(end, seasons)
        needed = int(season["at_least"])
        if season["per"] == "month":
            month_start = day.replace(day=1)
            following = (month_start + datetime.timedelta(days=32)).replace(day=1)
            start = max(start, month_start)
            end = min(end, following - datetime.timedelta(days=1))
            periods.append((start, end, needed, start.strftime("%B %Y")))
        else:
            name = (
                f"the winter of {start.year}-{str(end.year)[-2:]}"
                if start.year != end.year
                else f"{start.isoformat()} to {end.isoformat()}"
            )
            periods.append((start, end, needed, name))
        day = end + datetime.timedelta(days=1)
    return periods
