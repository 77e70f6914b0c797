"""One municipality's records, written set-based in one transaction: its people, sites,
applications, permits, timelines, site logs, inspections, enforcement, each site's rain
station, the audit chain's events for all of it, and the stored values the pages read
(each permit in force's duties, and each application's decision clock where the model
keeps one), made by the project's own code from the events.
"""

from __future__ import annotations

import datetime
import json
import math
import random
import string
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db import models, transaction

from tools.scale.audit import AuditTrail
from tools.scale.places import Municipality
from tools.scale.plans import (
    GIVEN,
    PEOPLE,
    STATE_SHARES,
    STREETS,
    Event,
    Plan,
    Planner,
)
from tools.scale.tables import Table, commit_unsynced, ids_take

# Projects as applicants describe them, most of them house lots (with their weights).
TEMPLATES: tuple[tuple[dict[str, Any], int], ...] = (
    ({"disturbed_area": 4800, "land_use": "residential"}, 14),
    ({"disturbed_area": 6500, "land_use": "residential"}, 16),
    ({"disturbed_area": 9000, "land_use": "residential"}, 14),
    ({"disturbed_area": 12000, "land_use": "residential"}, 10),
    ({"disturbed_area": 15000, "land_use": "institutional"}, 3),
    ({"disturbed_area": "0.5 acre", "land_use": "commercial"}, 6),
    ({"disturbed_area": "1.2 acre", "land_use": "commercial"}, 6),
    ({"disturbed_area": "3 acre", "land_use": "industrial"}, 3),
    ({"subdivision_plat": True, "disturbed_area": "6 acre", "land_use": "residential"}, 3),
    ({"certified_survey": True, "disturbed_area": 20000, "land_use": "residential"}, 4),
    ({"underground_pipe_length": 420, "land_use": "other"}, 5),
    ({"excavation_fill_volume": 800, "land_use": "commercial"}, 4),
    ({"road_work": True, "disturbed_area": "2 acre", "land_use": "other"}, 3),
    ({"channel_length_disturbed": 140, "land_use": "other"}, 2),
)
DATE_MARK = "9999-12-31"
STATUS = {
    "draft": "draft",
    "filed": "under_review",
    "under_review": "under_review",
    "information_requested": "information_requested",
    "information_received": "under_review",
    "disapproved": "disapproved",
}


@dataclass
class Counts:
    applications: int = 0
    permits: int = 0
    events: int = 0
    site_log_entries: int = 0
    inspections: int = 0
    enforcement_cases: int = 0
    audit_events: int = 0
    users: int = 0


def state_counts(total: int, rng: random.Random) -> list[str]:
    """``total`` states in the shares of ``STATE_SHARES`` (largest remainders), shuffled."""
    exact = {s: share * total for s, share in STATE_SHARES.items()}
    counts = {s: int(v) for s, v in exact.items()}
    rest = total - sum(counts.values())
    for state in sorted(exact, key=lambda s: exact[s] - counts[s], reverse=True)[:rest]:
        counts[state] += 1
    states = [s for s, n in counts.items() for _ in range(n)]
    rng.shuffle(states)
    return states


class Determinations:
    """Each project template's determination under the municipality's chapter, made once
    per version in force; ``evaluated_on`` is each application's own day."""

    def __init__(self, village_id: str) -> None:
        from siltfence.core.ordinance.loader import load

        self.village_id = village_id
        self.ordinance = load(village_id)
        self.cache: dict[tuple[int, datetime.date, bool], tuple[str, str, str, str, int]] = {}
        latest = max(self.ordinance.versions[-1].effective, datetime.date(2020, 6, 1))
        self.templates = [
            (facts, weight)
            for facts, weight in TEMPLATES
            if self._determine(facts, latest).applies  # an application needs a permit
        ]

    def _determine(self, facts: dict[str, Any], on: datetime.date) -> Any:
        from siltfence.core.rules import determine

        return determine(self.village_id, facts, on)

    def pick(self, rng: random.Random) -> int:
        return rng.choices(range(len(self.templates)), [w for _, w in self.templates])[0]

    def answer(self, template: int, on: datetime.date) -> tuple[str, str, str, str, int]:
        """(determination JSON, facts JSON, ordinance version, plan kind, plan items)."""
        version, stands_in = self.ordinance.version_on(on)
        key = (template, version.effective, stands_in is not None)
        if key not in self.cache:
            result = self._determine(self.templates[template][0], on).to_json()
            result["evaluated_on"] = DATE_MARK
            plan = result["plan"] or {}
            self.cache[key] = (
                json.dumps(result),
                json.dumps(result["facts"]),
                result["ordinance"]["version"],
                plan.get("kind") or "",
                len(plan.get("contents", [])),
            )
        text, facts, version_name, kind, items = self.cache[key]
        return text.replace(DATE_MARK, on.isoformat(), 1), facts, version_name, kind, items


class DecisionClocks:
    """Each application's stored decision clock, where the model keeps one: computed from
    its events by the project's own functions (``stored_clocks``), as its recompute does."""

    def __init__(self, village_id: str) -> None:
        from siltfence.apps.permits.clocks import office_closures
        from siltfence.apps.permits.models import Application

        try:
            from siltfence.apps.permits import stored_clocks
        except ImportError:  # a model without stored clocks: nothing to fill
            stored_clocks = None  # type: ignore[assignment]
        fields = {f.name for f in Application._meta.concrete_fields}
        self.enabled = stored_clocks is not None and {"decision_due", "decision_clock"} <= fields
        if self.enabled:
            from siltfence.core.ordinance.loader import load

            self.module = stored_clocks
            self.village_id = village_id
            self.zone = load(village_id).time_zone
            self.types = stored_clocks.clock_event_types(load(village_id))
            self.closures = office_closures(village_id)

    def values(self, events: list[Event]) -> dict[str, Any]:
        if not self.enabled:
            return {}
        contract = [
            self.module.contract_event(e.type, e.at, e.fields, self.zone)
            for e in events
            if e.type in self.types
        ]
        clock = self.module.decision_clock_of(self.village_id, contract, self.closures)
        return {
            "decision_due": self.module.decision_due_of(clock),
            "decision_clock": json.dumps(clock),
        }


def _password(rng: random.Random) -> str:
    # An unusable password, as Django's make_password(None) writes one: these people sign
    # in only after a password reset (or with a session made for a benchmark).
    return "!" + "".join(rng.choices(string.ascii_letters + string.digits, k=40))


def _square(latitude: float, longitude: float, metres: float) -> dict[str, Any]:
    """A site drawn as a square around its point (GeoJSON, longitude first)."""
    dlat = metres / 111_200
    dlon = metres / (111_200 * math.cos(math.radians(latitude)))
    corners = [(-1, -1), (1, -1), (1, 1), (-1, 1), (-1, -1)]
    ring = [[round(longitude + x * dlon, 6), round(latitude + y * dlat, 6)] for x, y in corners]
    return {"type": "Polygon", "coordinates": [ring]}


def nearest_stations(
    points: list[tuple[float, float]], stations: list[tuple[str, float, float]]
) -> list[tuple[str, float]]:
    """The nearest station to each point and its geodesic distance in km, as
    ``site_station_assign`` finds it (a tie goes to the lower id)."""
    import numpy as np
    from pyproj import Geod

    geod = Geod(ellps="WGS84")
    lats = np.array([p[0] for p in points])
    lons = np.array([p[1] for p in points])
    ordered = sorted(stations)
    table = np.empty((len(ordered), len(points)))
    for row, (_, lat, lon) in enumerate(ordered):
        _, _, metres = geod.inv(lons, lats, np.full_like(lons, lon), np.full_like(lats, lat))
        table[row] = metres
    best = table.argmin(axis=0)
    return [(ordered[b][0], float(table[b, i]) / 1000) for i, b in enumerate(best)]


def _recorded(event: Event) -> datetime.datetime:
    # A rain is written by the sweep the morning after; anything else as it happened.
    if event.type == "rain":
        return event.at + datetime.timedelta(days=1, hours=6)
    return event.at + datetime.timedelta(minutes=3)


def _heading(ordinance: Any, citation: str) -> str:
    from siltfence.apps.enforcement.services import provision_read

    try:
        return str(provision_read(ordinance, citation)[1])
    except Exception:  # a provision the chapter's map does not resolve: no heading kept
        return ""


class Rows:
    """The rows of each table, written in an order that keeps every reference valid."""

    def __init__(self) -> None:
        self.by_model: dict[type[models.Model], list[dict[str, Any]]] = defaultdict(list)

    def add(self, model: type[models.Model], **row: Any) -> dict[str, Any]:
        self.by_model[model].append(row)
        return row

    def count(self, model: type[models.Model]) -> int:
        return len(self.by_model[model])

    def write(self) -> None:
        for model, rows in self.by_model.items():
            Table(model).write(rows)


class MunicipalityWriter:
    def __init__(
        self,
        *,
        place: Municipality,
        total: int,
        seed: int,
        now: datetime.datetime,
        first_day: datetime.date,
        rains: dict[str, list[tuple[datetime.date, int]]],
        stations: list[tuple[str, float, float]],
    ) -> None:
        from zoneinfo import ZoneInfo

        self.place = place
        self.total = total
        self.rng = random.Random(f"{seed}-{place.id}")
        self.now = now
        self.first_day = first_day
        self.rains = rains
        self.stations = stations
        self.determinations = Determinations(place.id)
        self.ordinance = self.determinations.ordinance
        self.zone = ZoneInfo(self.ordinance.time_zone)
        self.counts = Counts()
        self.rows = Rows()

    def write(self) -> Counts:
        """Everything, in one transaction; nothing if the municipality was written before."""
        from django.contrib.auth import get_user_model

        from siltfence.apps.permits.models import Application

        with transaction.atomic():
            commit_unsynced()
            _one_writer(self.place.id)
            staff = get_user_model().objects.filter(username=f"{self.place.id}-staff")
            if Application.objects.filter(village_id=self.place.id).exists() or staff.exists():
                # Written by an earlier run, or by one still finishing (a run killed with its
                # worker processes still writing): its own transaction holds it whole.
                return self.counts
            people = self._people()
            plans = self._plans(people)
            audit = self._records(plans, people)
            self.rows.write()
            self._stored_values()
            # Last, so that the chain's head stays locked only until the commit.
            self.counts.audit_events = audit.write()
        return self.counts

    # -- people ---------------------------------------------------------------------------

    def _people(self) -> dict[str, Any]:
        from django.contrib.auth import get_user_model

        from siltfence.apps.accounts.models import Membership, Role

        user_model = get_user_model()
        place, rng = self.place, self.rng
        officials = [
            (f"{place.id}-staff", Role.STAFF),
            (f"{place.id}-inspector", Role.INSPECTOR),
            (f"{place.id}-zba", Role.APPEALS_BOARD),
        ]
        applicants = [f"{place.id}-applicant-{k:04d}" for k in range(max(self.total // 4, 1))]
        accounts = officials + [(username, None) for username in applicants]
        joined = datetime.datetime.combine(self.first_day, datetime.time(9), tzinfo=self.zone)
        people: dict[str, Any] = {"applicants": [], "usernames": {}, "names": {}}
        rows = []
        for pk, (username, role) in zip(ids_take(user_model, len(accounts)), accounts, strict=True):
            first, last = rng.choice(GIVEN), rng.choice(PEOPLE)
            people["usernames"][pk] = username
            people["names"][pk] = f"{first} {last}"
            rows.append(
                {
                    "id": pk,
                    "password": _password(rng),
                    "last_login": None,
                    "is_superuser": False,
                    "username": username,
                    "first_name": first,
                    "last_name": last,
                    "email": f"{username}@example.org",
                    "is_staff": False,
                    "is_active": True,
                    "date_joined": joined,
                }
            )
            if role is None:
                people["applicants"].append(pk)
            else:
                people[role.value] = pk
        Table(user_model).write(rows)
        Table(Membership).write(
            [
                {"user_id": people[role.value], "village_id": place.id, "role": role.value}
                for _, role in officials
            ]
        )
        self.counts.users = len(rows)
        return people

    # -- what happened --------------------------------------------------------------------

    def _site_points(self, count: int) -> list[tuple[float, float]]:
        """Sites within 2.5 km of the municipality's centre, evenly over the area."""
        rng, place = self.rng, self.place
        points = []
        for _ in range(count):
            distance = 2.5 * math.sqrt(rng.random())
            bearing = rng.uniform(0, 2 * math.pi)
            across = 111.2 * math.cos(math.radians(place.latitude))
            points.append(
                (
                    round(place.latitude + distance * math.cos(bearing) / 111.2, 6),
                    round(place.longitude + distance * math.sin(bearing) / across, 6),
                )
            )
        return points

    def _plans(self, people: dict[str, Any]) -> list[Plan]:
        rng = self.rng
        planner = Planner(
            ordinance=self.ordinance,
            zone=self.zone,
            now=self.now,
            first_day=self.first_day,
            rng=rng,
            rains=self.rains,
            inspector_name=people["names"][people["inspector"]],
        )
        states = state_counts(self.total, rng)
        town = self.place.name.split(" of ", 1)[1]
        points = self._site_points(len(states))
        nearest = nearest_stations(points, self.stations)
        applicants = len(people["applicants"])
        plans = []
        for index, state in enumerate(states):
            # A contractor files for many sites: half the files go to the first few.
            frequent = min(int(rng.paretovariate(1.2)) - 1, applicants - 1)
            site = {
                "address": f"{rng.randint(100, 2999)} {rng.choice(STREETS)}, {town}",
                "parcel": f"{self.place.prefix}-{rng.randint(100, 999)}-{index:05d}",
                "point": points[index],
                "applicant": frequent if rng.random() < 0.5 else rng.randrange(applicants),
                "station": nearest[index][0],
                "distance_km": nearest[index][1],
            }
            plan = planner.plan(state, site)
            plan.template = self.determinations.pick(rng)
            plan.events.sort(key=lambda e: e.at)
            plans.append(plan)
        plans.sort(key=lambda p: p.created_at)
        return plans

    # -- the rows -------------------------------------------------------------------------

    def _records(self, plans: list[Plan], people: dict[str, Any]) -> AuditTrail:
        from siltfence.apps.enforcement.models import (
            EnforcementAction,
            EnforcementCase,
            Violation,
        )
        from siltfence.apps.inspections.models import Inspection
        from siltfence.apps.permits.models import Application, Permit, Site, TimelineEvent
        from siltfence.apps.sitelog.models import SiteLogEntry

        audit = AuditTrail(self.place.id, self.ordinance, people["usernames"])
        clocks = DecisionClocks(self.place.id)
        numbers: dict[str, int] = defaultdict(int)

        def number(stem: str) -> str:
            # Counted per village and year, in order, as the services number them.
            numbers[stem] += 1
            return f"{stem}{numbers[stem]:04d}"

        permitted = sorted((p for p in plans if p.issued_at), key=lambda p: p.issued_at)
        permit_of = dict(zip(map(id, permitted), ids_take(Permit, len(permitted)), strict=True))
        permit_number = {
            id(p): number(f"{self.place.prefix}-P-{p.issued_on.year}-") for p in permitted
        }
        cased = sorted((p for p in plans if p.enforcement), key=lambda p: p.enforcement.opened_at)
        case_of = dict(zip(map(id, cased), ids_take(EnforcementCase, len(cased)), strict=True))
        violation_of = dict(zip(map(id, cased), ids_take(Violation, len(cased)), strict=True))
        actions = sum(
            1 + (p.enforcement.compliance_at is not None) + (p.enforcement.revoked_at is not None)
            for p in cased
        )
        action_ids = iter(ids_take(EnforcementAction, actions))
        event_ids = iter(ids_take(TimelineEvent, sum(len(p.events) for p in plans)))
        sites = ids_take(Site, len(plans))
        applications = ids_take(Application, len(plans))
        for site_pk, pk, plan in zip(sites, applications, plans, strict=True):
            applicant = people["applicants"][plan.applicant]
            self._application(plan, pk, site_pk, applicant, people, number, audit)
            permit_pk = permit_of.get(id(plan))
            if permit_pk is not None:
                self._permit(plan, permit_pk, pk, site_pk, permit_number[id(plan)], people)
                audit.permit(permit_pk, plan, people["staff"])
            refs: dict[str, int] = {}
            if plan.enforcement is not None:
                refs = self._enforcement(
                    plan, pk, case_of[id(plan)], violation_of[id(plan)], action_ids, people
                )
                refs["case"] = case_of[id(plan)]
                audit.enforcement(refs["case"], plan, people["staff"], people["inspector"], refs)
            self._timeline(plan, pk, permit_pk, applicant, refs, event_ids, people, audit)
            self.rows.by_model[Application][-1].update(clocks.values(plan.events))
        self.counts.applications = self.rows.count(Application)
        self.counts.permits = self.rows.count(Permit)
        self.counts.events = self.rows.count(TimelineEvent)
        self.counts.enforcement_cases = self.rows.count(EnforcementCase)
        self.counts.site_log_entries = self.rows.count(SiteLogEntry)
        self.counts.inspections = self.rows.count(Inspection)
        self.active_permits = [
            row["id"] for row in self.rows.by_model[Permit] if row["status"] == "active"
        ]
        return audit

    def _application(
        self,
        plan: Plan,
        pk: int,
        site_pk: int,
        applicant: int,
        people: dict[str, Any],
        number: Any,
        audit: AuditTrail,
    ) -> None:
        from siltfence.apps.permits.models import (
            Application,
            InformationRequest,
            Party,
            Site,
        )

        add, place = self.rows.add, self.place
        on = plan.created_at.astimezone(self.zone).date()
        answer, facts, version, kind, items = self.determinations.answer(plan.template, on)
        add(
            Site,
            id=site_pk,
            village_id=place.id,
            address=plan.address,
            parcel_number=plan.parcel,
            legal_description="",
            geometry=json.dumps(_square(plan.point[0], plan.point[1], 25)),
        )
        application_number = number(f"{place.prefix}-{on.year}-")
        add(
            Application,
            id=pk,
            village_id=place.id,
            number=application_number,
            applicant_id=applicant,
            site_id=site_pk,
            status=STATUS.get(plan.state, "approved"),
            description="",
            facts=facts,
            determination=answer,
            ordinance_version=version,
            plan_kind=kind,
            # A filed application holds every item of its plan (it was complete to file).
            checklist=json.dumps(list(range(items)) if plan.received_at else []),
            building_permit_expires=plan.building_permit_expires,
            fee_amount=None,
            fee_paid_on=None,
            received_at=plan.received_at,
            decided_at=plan.decided_at,
            decision_reasons=plan.decision_reasons,
            created_at=plan.created_at,
        )
        party = {"email": "", "phone": "", "application_id": pk}
        add(Party, role="landowner", name=people["names"][applicant], address=plan.address, **party)
        if plan.full and self.rng.random() < 0.4:
            contractor = f"{self.rng.choice(PEOPLE)} Excavating"
            add(Party, role="contractor", name=contractor, address="", **party)
        for asked, answered, message, response in plan.information:
            add(
                InformationRequest,
                application_id=pk,
                requested_at=asked,
                requested_by_id=people["staff"],
                message=message,
                received_at=answered,
                response=response,
            )
        audit.application(pk, plan, applicant, people["staff"], application_number)

    def _permit(
        self,
        plan: Plan,
        pk: int,
        application: int,
        site_pk: int,
        number: str,
        people: dict[str, Any],
    ) -> None:
        from siltfence.apps.duties.models import SiteStation
        from siltfence.apps.permits.models import Permit, PermitExtension

        add = self.rows.add
        assert plan.expires_on is not None
        add(
            Permit,
            id=pk,
            application_id=application,
            village_id=self.place.id,
            number=number,
            issued_on=plan.issued_on,
            expires_on=plan.expires_on,
            status=plan.permit_status,
            closed_on=plan.closed_on,
            final_cover_percent=plan.cover,
            final_stabilization_measures="",
            added_conditions="[]",
        )
        for extension in plan.extensions:
            add(
                PermitExtension,
                permit_id=pk,
                days=extension.days,
                added_measures=extension.added_measures,
                granted_on=extension.granted_on,
                granted_by_id=people["staff"],
                expires_before=extension.expires_before,
                expires_after=extension.expires_after,
            )
        add(
            SiteStation,
            site_id=site_pk,
            station_id=plan.station,
            distance_km=round(plan.distance_km, 3),
            latitude=plan.point[0],
            longitude=plan.point[1],
            pinned_reason="",
        )

    def _enforcement(
        self,
        plan: Plan,
        application: int,
        case: int,
        violation: int,
        action_ids: Any,
        people: dict[str, Any],
    ) -> dict[str, int]:
        from siltfence.apps.enforcement.models import (
            EnforcementAction,
            EnforcementCase,
            Violation,
        )

        found = plan.enforcement
        assert found is not None
        add, place = self.rows.add, self.place
        staff, inspector = people["staff"], people["inspector"]
        year = found.opened_at.astimezone(self.zone).year
        count = self.rows.count(EnforcementCase) + 1
        add(
            EnforcementCase,
            id=case,
            village_id=place.id,
            number=f"{place.prefix}-E-{year}-{count:04d}",
            application_id=application,
            address=plan.address,
            parcel_number=plan.parcel,
            latitude=plan.point[0],
            longitude=plan.point[1],
            opened_at=found.opened_at,
        )
        add(
            Violation,
            id=violation,
            village_id=place.id,
            case_id=case,
            source="inspection",
            status="found",
            party_name="",
            party_role="permittee",
            provision=found.provision,
            provision_heading=_heading(self.ordinance, found.provision),
            description=found.description,
            days_from=found.days_from,
            days_to=found.days_to,
            address=plan.address,
            latitude=plan.point[0],
            longitude=plan.point[1],
            found_by_id=inspector,
            reported_at=found.opened_at,
            complainant_name="",
            complainant_email="",
            complainant_phone="",
            reviewed_by_id=inspector,
            reviewed_at=found.opened_at,
            review_note="",
        )
        order_citation = self.ordinance.rules["enforcement"]["stop_work_order"]["citation"]
        action = {"case_id": case, "taken_by_id": staff, "note": "", "public": True}
        refs = {"violation": violation, "order": next(action_ids)}
        add(
            EnforcementAction,
            id=refs["order"],
            kind="stop_work_order",
            at=found.order_at,
            citation=order_citation,
            grounds=json.dumps([found.ground]),
            details="{}",
            **action,
        )
        if found.compliance_at is not None:
            add(
                EnforcementAction,
                id=next(action_ids),
                kind="compliance",
                at=found.compliance_at,
                citation=order_citation,
                grounds="[]",
                details="{}",
                **action,
            )
        if found.revoked_at is not None:
            refs["revocation"] = next(action_ids)
            add(
                EnforcementAction,
                id=refs["revocation"],
                kind="revocation",
                at=found.revoked_at,
                citation=found.revocation_citation,
                grounds="[]",
                details=json.dumps(found.revocation),
                **action,
            )
        return refs

    def _timeline(
        self,
        plan: Plan,
        application: int,
        permit: int | None,
        applicant: int,
        refs: dict[str, int],
        event_ids: Any,
        people: dict[str, Any],
        audit: AuditTrail,
    ) -> None:
        """The events, each with the site log entry or inspection that recorded it."""
        from siltfence.apps.inspections.models import Inspection
        from siltfence.apps.permits.models import TimelineEvent
        from siltfence.apps.sitelog.models import SiteLogEntry

        add = self.rows.add
        violation_event = None
        for event in plan.events:
            event.id = next(event_ids)
            if event.ref:  # the violation's or the order's own id, as the services write it
                prefix = "violation" if event.ref == "violation" else "order"
                event.fields = {"id": f"{prefix}-{refs[event.ref]}", **event.fields}
                if event.ref == "violation":
                    violation_event = event.id
            if event.log and permit is not None:
                token = f"scale-{event.id}"
                event.fields = {**event.fields, "id": f"log-{token[:24]}"}
                fields = event.fields
                add(
                    SiteLogEntry,
                    permit_id=permit,
                    kind=event.log,
                    at=event.at,
                    inspector=fields.get("inspector", ""),
                    phase=fields.get("phase", ""),
                    findings="Measures in place and working."
                    if event.log == "self_inspection"
                    else "",
                    repairs="",
                    measure=fields.get("measure", ""),
                    area=fields.get("area", ""),
                    evidence="",
                    timeline_event_id=event.id,
                    recorded_by_id=applicant,
                    recorded_at=_recorded(event),
                    client_token=token,
                )
                audit.site_log(permit, event, applicant)
            add(
                TimelineEvent,
                id=event.id,
                application_id=application,
                type=event.type,
                at=event.at,
                fields=json.dumps(event.fields),
                recorded_at=_recorded(event),
            )
        for event in plan.events:
            if not event.inspection or permit is None:
                continue
            failing = event.inspection == "not_compliant" and plan.enforcement is not None
            add(
                Inspection,
                permit_id=permit,
                inspector_id=people["inspector"],
                at=event.at,
                result=event.inspection,
                checklist="[]",
                findings=plan.enforcement.description if failing and plan.enforcement else "",
                timeline_event_id=event.id,
                violation_event_id=violation_event if failing else None,
                violation_ref=f"violation-{refs['violation']}" if failing else "",
                recorded_at=_recorded(event),
                client_token=f"scale-{event.id}",
            )
            audit.inspection(permit, event, people["inspector"])

    # -- stored values --------------------------------------------------------------------

    def _stored_values(self) -> None:
        """Each permit in force's duties, as the daily sweep stores them (the project's own
        recompute, from the events just written)."""
        from siltfence.apps.duties.services import permit_duties_recompute

        permit_duties_recompute(permit_ids=self.active_permits, as_of=self.now)


def _one_writer(place_id: str) -> None:
    """One writer of a municipality at a time (PostgreSQL): a second waits for the first's
    transaction to end, then finds the municipality written. SQLite has one writer at a
    time already."""
    import hashlib

    from django.db import connection

    if connection.vendor != "postgresql":
        return
    key = int.from_bytes(hashlib.sha256(place_id.encode()).digest()[:8], "big", signed=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])
