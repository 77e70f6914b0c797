"""What happened on each application of a municipality: pure Python, no database.

Each application gets a state and the dates that lead to it, and its timeline is the
list of events in the public contract's shape that a permittee, the staff and the daily
sweep would have written on the way. Everything follows from the seed.

States (shares of all applications, by default): a draft not yet filed; filed in the
last few days; under review (some clocks overdue); waiting for information asked for;
under re-review after the answer; disapproved with written reasons; approved with the
permit issued and no work yet; in force with work started; closed at final
stabilization; revoked after a stop-work order. Some permits in force, closed or revoked
carry a violation and a stop-work order.

Records filed before the system went live (``IMPORTED_YEARS`` before today) carry only
their milestones, as a county's older permits arrive from its paper files: received,
decided, issued, work started, the village's inspection, closed. Later ones carry what
the site log, the inspections and the sweep write: notices, measures, the rains that
meet the chapter's rule at the site's station, the permittee's inspections after them.
"""

from __future__ import annotations

import bisect
import datetime
import random
from dataclasses import dataclass, field
from typing import Any

STATE_SHARES = {
    "draft": 0.02,
    "filed": 0.015,
    "under_review": 0.025,
    "information_requested": 0.015,
    "information_received": 0.01,
    "disapproved": 0.025,
    "approved": 0.02,
    "active": 0.08,
    "closed": 0.785,
    "revoked": 0.005,
}
PERMIT_STATES = ("approved", "active", "closed", "revoked")
# How long ago an application still in review was filed, and a decided one decided (days);
# closed and disapproved ones were decided at any time in the span.
RECEIVED_DAYS_AGO = {
    "filed": (0, 3),
    "under_review": (5, 60),
    "information_requested": (10, 60),
    "information_received": (20, 75),
}
DECIDED_DAYS_AGO = {"approved": (1, 45), "active": (15, 190), "revoked": (60, 400)}
# Days from receipt to decision: most well inside the clock, a few late.
REVIEW_DAYS = (3, 5, 7, 9, 12, 15, 20, 25, 30, 38, 50)
REVIEW_STATES = ("filed", "under_review", "information_requested", "information_received")
IMPORTED_YEARS = 3
ENFORCEMENT_SHARE = {"active": 0.05, "closed": 0.035, "revoked": 1.0}
BUILDING_PERMIT_SHARE = 0.05
MEASURES = (("SF-1", "silt fence"), ("TP-1", "tracking pad"), ("IP-1", "inlet protection"))
PHASES = ("clearing and grubbing", "rough grading", "utilities", "foundations", "final grading")
STREETS = [
    "Main St",
    "Oak St",
    "Park Ave",
    "Mill Rd",
    "Church St",
    "Railroad St",
    "Maple Ave",
    "Center St",
    "River Rd",
    "School St",
    "Hill St",
    "Lake Dr",
    "Prairie Ln",
    "Elm St",
    "Pine St",
    "Cedar Ave",
    "County Rd K",
    "County Rd N",
    "State Hwy 13",
    "Ridge Rd",
    "Meadow Ln",
    "Birch Ct",
    "Willow Way",
]
PEOPLE = [
    "Becker",
    "Brandt",
    "Fischer",
    "Hoffmann",
    "Jensen",
    "Kowalski",
    "Larson",
    "Meyer",
    "Nelson",
    "Olson",
    "Peterson",
    "Schmidt",
    "Schultz",
    "Wagner",
    "Weber",
    "Zimmerman",
    "Anderson",
    "Bauer",
    "Koch",
    "Lang",
]
GIVEN = [
    "Alex",
    "Chris",
    "Dana",
    "Jamie",
    "Jo",
    "Kim",
    "Lee",
    "Morgan",
    "Pat",
    "Robin",
    "Sam",
    "Terry",
]
INFORMATION_ASKED = (
    "Show the stockpile locations and the silt fence along the downslope line.",
    "Add the tracking pad at the construction entrance to the site map.",
    "Give the schedule of land disturbing activities and the seeding dates.",
    "Show inlet protection for the street inlets on the frontage.",
)
DISAPPROVAL_REASONS = (
    "The plan shows no inlet protection for the street inlets on the frontage.",
    "The plan gives no schedule for stabilization of disturbed areas.",
    "The site map does not show the drainage leaving the site or the controls on it.",
)
VIOLATIONS = (
    "Silt fence down along the downslope lot line; sediment in the street.",
    "No tracking pad at the entrance; soil tracked onto the public road.",
    "Stockpile left uncovered beside the ditch after rain.",
)


def go_live(today: datetime.date) -> datetime.date:
    """The day the system went live: records filed before it carry their milestones only,
    and the sweep wrote rains from it on."""
    return today.replace(year=today.year - IMPORTED_YEARS, day=min(today.day, 28))


@dataclass
class Event:
    type: str
    at: datetime.datetime
    fields: dict[str, Any] = field(default_factory=dict)
    log: str = ""  # the site log entry kind that recorded it (permittee), if any
    inspection: str = ""  # "compliant" or "not_compliant": a municipal inspection row
    ref: str = ""  # "violation" or "order": fields["id"] is filled once ids are known
    id: int = 0


@dataclass
class Extension:
    granted_on: datetime.date
    days: int
    expires_before: datetime.date
    expires_after: datetime.date
    added_measures: str = ""


@dataclass
class Enforcement:
    opened_at: datetime.datetime
    provision: str
    description: str
    days_from: datetime.date
    days_to: datetime.date | None
    order_at: datetime.datetime
    ground: dict[str, Any]
    compliance_at: datetime.datetime | None
    revoked_at: datetime.datetime | None
    revocation: dict[str, Any] = field(default_factory=dict)  # the action's details
    revocation_citation: str = ""


@dataclass
class Plan:
    state: str
    full: bool
    address: str
    parcel: str
    point: tuple[float, float]  # latitude, longitude
    applicant: int  # index into the municipality's applicants
    created_at: datetime.datetime
    received_at: datetime.datetime | None = None
    decided_at: datetime.datetime | None = None
    decision_reasons: str = ""
    information: list[tuple[datetime.datetime, datetime.datetime | None, str, str]] = field(
        default_factory=list
    )
    building_permit_expires: datetime.date | None = None
    issued_at: datetime.datetime | None = None
    expires_on: datetime.date | None = None
    permit_status: str = ""
    closed_on: datetime.date | None = None
    cover: int | None = None
    extensions: list[Extension] = field(default_factory=list)
    enforcement: Enforcement | None = None
    events: list[Event] = field(default_factory=list)
    station: str = ""
    distance_km: float = 0.0
    template: int = 0  # which project (the municipality's list of them)

    @property
    def issued_on(self) -> datetime.date:
        assert self.issued_at is not None
        return self.issued_at.date()  # the village's day: the moment is in its zone


class Planner:
    """The applications of one municipality."""

    def __init__(
        self,
        *,
        ordinance: Any,
        zone: datetime.tzinfo,
        now: datetime.datetime,
        first_day: datetime.date,
        rng: random.Random,
        rains: dict[str, list[tuple[datetime.date, int]]],
        inspector_name: str,
    ) -> None:
        self.ordinance = ordinance
        self.zone = zone
        self.now = now.astimezone(zone)
        self.today = self.now.date()
        self.first_day = first_day
        self.go_live = go_live(self.today)
        self.rng = rng
        self.rains = rains
        self.rain_days = {s: [d for d, _ in days] for s, days in rains.items()}
        self.inspector_name = inspector_name
        self.duration = int(ordinance.parameter("permit_duration", self.today).value or 180)
        self.extension_max = int(ordinance.parameter("extension_max", self.today).value or 180)
        rule = ordinance.rules["enforcement"]["stop_work_order"]
        self.grounds = [dict(g) for g in rule["grounds"] if g["id"] != "no-permit"]
        self.revoke = next(
            dict(a)
            for a in ordinance.rules["enforcement"]["actions"]
            if a["action"] == "revoke_permit" and a["after_event"] == "stop_work_order_posted"
        )
        self.cover_minimum = 0
        if "final_stabilization_cover" in ordinance.parameters:
            value = ordinance.parameter("final_stabilization_cover", self.today).value
            self.cover_minimum = int(float(value)) if value is not None else 0

    # -- time helpers -------------------------------------------------------------

    def _at(self, day: datetime.date, hour: int, minute: int = 0) -> datetime.datetime:
        return datetime.datetime.combine(day, datetime.time(hour, minute), tzinfo=self.zone)

    def _office(self, day: datetime.date) -> datetime.datetime:
        """A moment in office hours on ``day``, or the next weekday."""
        while day.weekday() >= 5:
            day += datetime.timedelta(days=1)
        moment = self._at(day, self.rng.randint(8, 15), self.rng.choice((0, 10, 20, 30, 40, 50)))
        return min(moment, self.now - datetime.timedelta(minutes=5))

    def _days_ago(self, low: int, high: int) -> datetime.date:
        return self.today - datetime.timedelta(days=self.rng.randint(low, high))

    # -- one application ----------------------------------------------------------

    def plan(self, state: str, site: dict[str, Any]) -> Plan:
        """One application in ``state``. A decided one is laid out backwards from its
        decision, so that everything before it fits between the first day and now."""
        rng = self.rng
        plan = Plan(
            state=state,
            full=True,
            address=site["address"],
            parcel=site["parcel"],
            point=site["point"],
            applicant=site["applicant"],
            created_at=self.now,
            station=site["station"],
            distance_km=site["distance_km"],
        )
        if state == "draft":
            plan.created_at = self._office(self._days_ago(0, 40))
            return plan
        decided = self._decided(state)
        if decided is None:  # still in review: filed in the last weeks
            received = self._office(self._days_ago(*RECEIVED_DAYS_AGO[state]))
        else:
            review = datetime.timedelta(days=rng.choice(REVIEW_DAYS))
            earliest = self._at(self.first_day, 9)
            received = self._office(max(decided - review, earliest).date())
            received = min(received, decided - datetime.timedelta(hours=2))
        plan.received_at = received
        plan.created_at = max(
            received - datetime.timedelta(days=rng.randint(0, 12), hours=rng.randint(0, 5)),
            self._at(self.first_day, 8),
        )
        plan.full = received.date() >= self.go_live
        plan.events.append(Event("application_received", received))
        if state in PERMIT_STATES and rng.random() < BUILDING_PERMIT_SHARE:
            plan.building_permit_expires = received.date() + datetime.timedelta(
                days=rng.randint(300, 540)
            )
        until = decided or self.now
        if state in ("information_requested", "information_received") or (
            decided is not None and rng.random() < 0.2
        ):
            self._information(plan, received, until, answered=state != "information_requested")
        if decided is None:
            return plan
        if state == "disapproved":
            reasons = rng.choice(DISAPPROVAL_REASONS)
            plan.decided_at, plan.decision_reasons = decided, reasons
            plan.events.append(Event("application_disapproved", decided, {"reasons": reasons}))
            return plan
        self._permit(plan, decided)
        return plan

    def _decided(self, state: str) -> datetime.datetime | None:
        """When the application was decided, by its state (None: not yet)."""
        if state in RECEIVED_DAYS_AGO:
            return None
        if state in DECIDED_DAYS_AGO:
            return self._office(self._days_ago(*DECIDED_DAYS_AGO[state]))
        # closed and disapproved: any time in the span, long enough ago to have ended
        span = (self.today - self.first_day).days
        return self._office(
            self.first_day + datetime.timedelta(days=self.rng.randint(30, span - 60))
        )

    def _information(
        self,
        plan: Plan,
        received: datetime.datetime,
        until: datetime.datetime,
        *,
        answered: bool,
    ) -> None:
        """Information asked for in writing between receipt and ``until`` (and given)."""
        rng = self.rng
        room = until - received
        asked = received + room * rng.uniform(0.1, 0.45)
        message = rng.choice(INFORMATION_ASKED)
        plan.events.append(Event("information_requested", asked))
        if not answered:
            plan.information.append((asked, None, message, ""))
            return
        got = asked + (until - asked) * rng.uniform(0.2, 0.7)
        plan.information.append((asked, got, message, "Revised site map uploaded as asked."))
        plan.events.append(Event("information_received", got))

    def _permit(self, plan: Plan, approved: datetime.datetime) -> None:
        rng = self.rng
        plan.decided_at = approved
        plan.issued_at = approved
        issued = approved.date()
        fields: dict[str, Any] = {}
        if plan.building_permit_expires:
            fields["building_permit_expires"] = plan.building_permit_expires.isoformat()
        plan.events.append(Event("application_approved", approved))
        plan.events.append(Event("permit_issued", approved, fields))
        expires = issued + datetime.timedelta(days=self.duration)
        if plan.building_permit_expires and plan.building_permit_expires > expires:
            expires = plan.building_permit_expires
        plan.expires_on = expires
        plan.permit_status = "active"
        if plan.state == "approved":
            self._rain(plan, issued, self.today - datetime.timedelta(days=1))
            return
        # Work starts within weeks of the permit; one in force started well before now.
        wait = datetime.timedelta(days=rng.randint(1, 25), hours=rng.randint(-3, 0))
        start = approved + min(wait, (self.now - approved) * 0.7)
        if plan.state == "active":
            end = self.today
        elif plan.state == "closed":
            work = int(rng.choice((30, 45, 60, 75, 90, 110, 130, 160, 200, 240, 300)))
            work = rng.randint(int(work * 0.8), int(work * 1.2))
            end = min(
                start.date() + datetime.timedelta(days=work),
                self.today - datetime.timedelta(days=2),
            )
        else:  # revoked
            end = self.today
        plan.events.append(Event("work_started", start, log="work_started"))
        if plan.state in ("active", "closed") and rng.random() < ENFORCEMENT_SHARE[plan.state]:
            self._enforcement(plan, start, end, revoke=False)
        elif plan.state == "revoked":
            self._enforcement(plan, start, end, revoke=True)
        last = end
        if plan.state == "closed":
            plan.closed_on = end
            plan.permit_status = "closed"
            plan.cover = rng.randint(max(self.cover_minimum, 70), 96)
        elif plan.state == "revoked":
            assert plan.enforcement is not None and plan.enforcement.revoked_at is not None
            plan.permit_status = "revoked"
            last = plan.enforcement.revoked_at.date()
        # Extensions granted while the permit was in force, so that it runs to its end (a
        # permit in force now was extended past today).
        self._extend_to(plan, last)
        if plan.full:
            self._site_work(plan, start, last)
        else:
            if rng.random() < 0.7:
                self._municipal(plan, start, last, count=1, rows=False)
        if plan.state == "closed":
            plan.events.append(Event("final_stabilization", self._at(end, 12)))
        rain_from = max(issued, self.go_live)
        rain_to = (
            (last - datetime.timedelta(days=1))
            if plan.state != "active"
            else self.today - datetime.timedelta(days=1)
        )
        self._rain(plan, rain_from, rain_to)

    def _extend_to(self, plan: Plan, end: datetime.date) -> None:
        """Extensions granted while the permit was in force, so that it runs to ``end``."""
        assert plan.expires_on is not None
        while plan.expires_on < end:
            before = plan.expires_on
            granted = before - datetime.timedelta(days=self.rng.randint(1, 14))
            needed = (end - before).days + self.rng.randint(5, 40)
            days = min(self.extension_max, needed)
            after = before + datetime.timedelta(days=days)
            measures = (
                "Second row of silt fence along the low side." if self.rng.random() < 0.3 else ""
            )
            plan.extensions.append(Extension(granted, days, before, after, measures))
            fields: dict[str, Any] = {"days": days}
            if measures:
                fields["added_measures"] = [measures]
            plan.events.append(Event("permit_extended", self._at(granted, 12), fields))
            plan.expires_on = after

    def _site_work(self, plan: Plan, start: datetime.datetime, last: datetime.date) -> None:
        rng = self.rng
        if rng.random() < 0.88:
            late = rng.random() < 0.1
            notice = start + datetime.timedelta(
                hours=rng.randint(60, 120) if late else rng.randint(1, 40)
            )
            if notice < self.now:
                plan.events.append(Event("start_notice_given", notice, log="start_notice_given"))
        for measure, _name in rng.sample(MEASURES, rng.randint(1, 3)):
            installed = start + datetime.timedelta(hours=rng.randint(2, 60))
            if installed >= self.now:
                continue
            plan.events.append(
                Event("measure_installed", installed, {"measure": measure}, log="measure_installed")
            )
            if rng.random() < 0.8:
                notice = installed + datetime.timedelta(
                    days=rng.randint(0, 16), hours=rng.randint(1, 6)
                )
                if notice < self.now:
                    plan.events.append(
                        Event(
                            "measure_completion_notice_given",
                            notice,
                            {"measure": measure},
                            log="measure_completion_notice_given",
                        )
                    )
        inspector = f"{rng.choice(GIVEN)} {rng.choice(PEOPLE)}"
        days = self.rain_days.get(plan.station, [])
        low = bisect.bisect_left(days, start.date())
        high = bisect.bisect_right(days, last)
        previous = None
        for day in days[low:high]:
            if previous is not None and (day - previous).days <= 1:
                previous = day
                continue  # one inspection after a storm of several days
            previous = day
            if rng.random() < 0.55:
                at = self._at(day + datetime.timedelta(days=1), rng.randint(8, 15))
                if at < self.now and at.date() <= last:
                    plan.events.append(
                        Event(
                            "self_inspection",
                            at,
                            {"inspector": inspector, "phase": rng.choice(PHASES)},
                            log="self_inspection",
                        )
                    )
        if rng.random() < 0.5:
            at = self._at(start.date() + datetime.timedelta(days=7), 10)
            if at < self.now and at.date() <= last:
                plan.events.append(
                    Event(
                        "self_inspection",
                        at,
                        {"inspector": inspector, "phase": PHASES[0]},
                        log="self_inspection",
                    )
                )
        months = max((last - start.date()).days // 45, 1)
        self._municipal(plan, start, last, count=min(months, 3), rows=True)
        if plan.state == "closed":
            at = self._at(last - datetime.timedelta(days=rng.randint(1, 10)), 14)
            if at > start:
                plan.events.append(
                    Event("area_stabilized", at, {"area": "A-1"}, log="area_stabilized")
                )

    def _municipal(
        self, plan: Plan, start: datetime.datetime, last: datetime.date, *, count: int, rows: bool
    ) -> None:
        span = max((last - start.date()).days, 1)
        for _ in range(count):
            if self.rng.random() < 0.25:
                continue
            day = start.date() + datetime.timedelta(days=self.rng.randint(1, span))
            at = self._at(day, self.rng.randint(9, 15))
            if at >= self.now:
                continue
            plan.events.append(
                Event(
                    "municipal_inspection",
                    at,
                    {"inspector": self.inspector_name, "result": "in compliance"},
                    inspection="compliant" if rows else "",
                )
            )

    def _enforcement(
        self, plan: Plan, start: datetime.datetime, end: datetime.date, *, revoke: bool
    ) -> None:
        rng = self.rng
        room = max((end - start.date()).days - 30, 2)
        found_day = start.date() + datetime.timedelta(days=rng.randint(1, room))
        found = min(self._at(found_day, rng.randint(9, 14)), self.now - datetime.timedelta(hours=4))
        found_day = found.date()
        ground = rng.choice(self.grounds)
        order_at = min(
            found + datetime.timedelta(hours=rng.randint(1, 30)),
            self.now - datetime.timedelta(hours=3),
        )
        compliance = None
        revoked = None
        revocation: dict[str, Any] = {}
        if revoke:
            wait = 0
            if self.revoke.get("wait"):
                wait = int(float(self.ordinance.parameter(self.revoke["wait"], found_day).value))
            revoked = self._at(
                order_at.date() + datetime.timedelta(days=wait + rng.randint(2, 10)), 11
            )
            revoked = min(revoked, self.now - datetime.timedelta(hours=2))
            lawful_from = (order_at.date() + datetime.timedelta(days=wait)).isoformat()
            revocation = {"because": self.revoke["says"], "lawful_from": lawful_from}
        elif plan.state == "closed" or rng.random() < 0.6:
            compliance = order_at + datetime.timedelta(
                days=rng.randint(1, 9), hours=rng.randint(1, 5)
            )
            compliance = min(compliance, self.now - datetime.timedelta(hours=1))
        days_to = compliance.date() if compliance else None
        plan.enforcement = Enforcement(
            opened_at=found,
            provision=ground["citation"],
            description=rng.choice(VIOLATIONS),
            days_from=found_day,
            days_to=days_to,
            order_at=order_at,
            ground=ground,
            compliance_at=compliance,
            revoked_at=revoked,
            revocation=revocation,
            revocation_citation=self.revoke["citation"],
        )
        violation_to = (days_to or found_day).isoformat()
        plan.events.append(
            Event(
                "municipal_inspection",
                found,
                {"inspector": self.inspector_name, "result": "not in compliance"},
                inspection="not_compliant" if plan.full else "",
            )
        )
        plan.events.append(
            Event(
                "violation",
                self._at(found_day, 0),
                {"from": found_day.isoformat(), "to": violation_to},
                ref="violation",
            )
        )
        plan.events.append(Event("stop_work_order_posted", order_at, ref="order"))
        if compliance is not None:
            plan.events.append(Event("compliance_achieved", compliance))
        if revoked is not None:
            plan.events.append(Event("permit_revoked", revoked, ref="revocation"))

    def _rain(self, plan: Plan, first: datetime.date, last: datetime.date) -> None:
        """The qualifying rains at the site's station the sweep wrote while the permit was
        in force (none before the system went live)."""
        first = max(first, self.go_live)
        days = self.rain_days.get(plan.station, [])
        amounts = self.rains.get(plan.station, [])
        low = bisect.bisect_left(days, first)
        high = bisect.bisect_right(days, last)
        for day, tenths in amounts[low:high]:
            plan.events.append(
                Event(
                    "rain",
                    self._at(day, 0),
                    {"inches": round(tenths / 254, 4), "station": plan.station},
                )
            )
