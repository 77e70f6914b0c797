"""The village's inspections: the checklist from the measures on the stored control plan,
recording an inspection (a finding of non-compliance goes on the enforcement record as a
violation), who may record one, and the round planner."""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sitework import local, permit_issued

from siltfence.apps.duties.models import PermitDuties
from siltfence.apps.duties.services import permit_duties_recompute
from siltfence.apps.enforcement.models import Violation
from siltfence.apps.inspections.models import Inspection
from siltfence.apps.inspections.services import (
    checklist_for,
    inspection_record,
    nearest_neighbour_order,
    round_plan,
)
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import TimelineEvent

pytestmark = pytest.mark.django_db
REPO = Path(__file__).resolve().parents[2]
PLAN = json.loads((REPO / "ordinances/spencer-wi/cases/design/stockpiles.json").read_text())


@pytest.fixture
def planned(people):
    return permit_issued(
        applicant=people.applicant_a,
        staff=people.staff["spencer-wi"],
        village="spencer-wi",
        filed=local(2026, 7, 1, 9),
        plan=PLAN,
    )


def record(permit, user, result="compliant", answers=None, findings="", at="2026-07-15T10:00"):
    return inspection_record(
        permit=permit,
        user=user,
        at=at,
        result=result,
        answers=answers or {},
        findings=findings,
        photos=[],
        client_token="",
        now=local(2026, 7, 31, 12),
    )


def test_the_checklist_lists_each_measure_on_the_stored_plan_with_its_requirement(planned):
    items = [(i["label"], i["citation"]) for i in checklist_for(planned)]
    assert items == [
        ("Stockpile P-1", "§ 413-7B(5)(d)"),
        ("Stockpile P-2", "§ 413-7B(5)(d)"),
        ("Stockpile P-3", "§ 413-7B(5)(d)"),
        ("Inlet protection at inlet I-2", "§ 413-7B(4)"),
        ("Silt fence SF-1", "§ 413-7B(5)(c)[3]"),
        ("Straw bales SB-1", "§ 413-7B(5)(c)[3]"),
        ("A copy of the plan is kept on the site", "§ 413-8E(3)(i)"),
        ("The control measures are installed as the approved plan shows", "§ 413-8E(3)(d)"),
        ("Drainage systems and control measures are maintained", "§ 413-8E(3)(e)"),
        ("Erosion damage to adjoining surfaces and drainageways is repaired", "§ 413-8E(3)(f)"),
    ]


def test_an_inspection_in_compliance_meets_the_months_municipal_inspection(planned, people):
    permit_duties_recompute(permit_ids=[planned.pk], as_of=local(2026, 7, 10, 12))
    july = [
        d
        for d in PermitDuties.objects.get(permit=planned).duties
        if d["kind"] == "municipal_inspection"
    ]
    assert [(d["due"], d["status"]) for d in july] == [("2026-07-31", "open")]
    inspection = record(planned, people.inspector["spencer-wi"])
    assert inspection.timeline_event.type == "municipal_inspection"
    permit_duties_recompute(permit_ids=[planned.pk], as_of=local(2026, 7, 16, 12))
    [met] = [
        d
        for d in PermitDuties.objects.get(permit=planned).duties
        if d["kind"] == "municipal_inspection"
    ]
    assert met["status"] == "met" and met["citation"] == "§ 413-9"
    assert Violation.objects.count() == 0


def test_a_finding_of_non_compliance_records_a_violation_citing_the_failed_measure(planned, people):
    fence = "silt_fence:SF-1"
    inspection = record(
        planned,
        people.inspector["spencer-wi"],
        result="not_compliant",
        answers={fence: "needs_work"},
        findings="Silt fence SF-1 down along the east line",
    )
    violation = Violation.objects.get()
    assert violation.case.application_id == planned.application_id
    assert violation.provision == "§ 413-7B(5)(c)[3]"
    assert "SF-1" in violation.description
    assert inspection.violation_ref == f"violation {violation.pk}"
    types = set(
        TimelineEvent.objects.filter(application=planned.application).values_list("type", flat=True)
    )
    assert {"municipal_inspection", "violation"} <= types


def test_non_compliance_needs_findings_and_bad_answers_are_refused(planned, people):
    inspector = people.inspector["spencer-wi"]
    with pytest.raises(ActionRefused) as refused:
        record(planned, inspector, result="not_compliant")
    assert refused.value.field == "findings"
    with pytest.raises(ActionRefused) as refused:
        record(planned, inspector, answers={"silt_fence:SF-1": "maybe"})
    assert refused.value.field == "checklist"
    with pytest.raises(ActionRefused) as refused:
        record(planned, inspector, result="fine")
    assert refused.value.field == "result"
    with pytest.raises(ActionRefused) as refused:
        record(planned, inspector, at="2026-08-01T10:00")
    assert refused.value.field == "at"
    assert Inspection.objects.count() == 0


def test_inspectors_and_staff_record_inspections_the_appeals_board_and_permittee_cannot(
    planned, people
):
    for user in (people.board["spencer-wi"], people.applicant_a, people.staff["new-glarus-wi"]):
        with pytest.raises(ActionRefused) as refused:
            record(planned, user)
        assert refused.value.field == "permit"
    record(planned, people.staff["spencer-wi"])
    board = Client()
    board.force_login(people.board["spencer-wi"])
    assert board.get(f"/permits/{planned.pk}/inspect/").status_code == 403
    assert board.get("/rounds/").status_code == 403
    inspector = Client()
    inspector.force_login(people.inspector["spencer-wi"])
    page = inspector.get(f"/permits/{planned.pk}/inspect/")
    assert page.status_code == 200 and b"Silt fence SF-1" in page.content
    # A compliance inspection enters under the permit's condition (§ 413-8E(3)(h): "Allow
    # the Building Inspector to enter the site for the purpose of inspecting compliance"),
    # not under § 413-8A, whose entry is "to obtain information required for a review of
    # the control plan".
    entry = re.search(r'data-testid="entry">(.*?)</p>', page.content.decode()).group(1)
    assert "§ 413-8E(3)(h)" in entry and "§ 413-8A" not in entry


def test_nearest_neighbour_order_goes_to_the_closest_stop_each_time():
    # From (0, 0) on the equator: B at 1 degree east, C at 2, A at 3; each leg is one degree
    # of longitude, 111.2 km.
    order = nearest_neighbour_order(
        (0.0, 0.0), [("A", (0.0, 3.0)), ("B", (0.0, 1.0)), ("C", (0.0, 2.0))]
    )
    assert [name for name, _ in order] == ["B", "C", "A"]
    assert all(round(leg, 1) == 111.2 for _, leg in order)


def test_an_inspection_clears_the_site_from_the_round_and_a_missed_month_stays_missed(people):
    late = permit_issued(
        applicant=people.applicant_a,
        staff=people.staff["spencer-wi"],
        village="spencer-wi",
        filed=local(2026, 6, 8, 9),
        address="1 Late St",
    )
    due = permit_issued(
        applicant=people.applicant_a,
        staff=people.staff["spencer-wi"],
        village="spencer-wi",
        filed=local(2026, 7, 1, 9),
        address="2 Due St",
    )
    # § 413-9: at least once a month from March to October. "Late" was in force in June and
    # never inspected: June is missed. In July both owe July's inspection.
    permit_duties_recompute(permit_ids=[late.pk, due.pk], as_of=local(2026, 7, 15, 12))
    inspector = people.inspector["spencer-wi"]
    plan = round_plan(user=inspector, villages={"spencer-wi"}, as_of=local(2026, 7, 15, 12))
    stops = {p["permit"].pk: p for p in plan}
    assert set(stops) == {late.pk, due.pk}
    assert [(s["duty"]["due"], s["overdue"]) for s in stops.values()] == [("2026-07-31", False)] * 2
    assert stops[late.pk]["missed"][0]["from"] == "2026-06-01"  # June, kept on the record
    assert stops[due.pk]["missed"] == []
    # Inspecting "late" on July 16 meets July: it leaves the round. June stays missed.
    record(late, inspector, at="2026-07-16T10:00")
    permit_duties_recompute(permit_ids=[late.pk], as_of=local(2026, 7, 17, 12))
    plan = round_plan(user=inspector, villages={"spencer-wi"}, as_of=local(2026, 7, 17, 12))
    assert [p["permit"].pk for p in plan] == [due.pk]
    june = next(
        d
        for d in PermitDuties.objects.get(permit=late).duties
        if d["kind"] == "municipal_inspection" and d["period"]["from"] == "2026-06-01"
    )
    assert june["status"] == "overdue"


def _tables() -> tuple[int, ...]:
    from siltfence.apps.audit.models import AuditEvent

    return (
        Inspection.objects.count(),
        TimelineEvent.objects.count(),
        Violation.objects.count(),
        AuditEvent.objects.count(),
    )


@settings(
    max_examples=28, deadline=3000, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    at=st.text(max_size=25),
    result=st.sampled_from(["compliant", "not_compliant", "", "x"]),
    answer=st.text(max_size=12),
    findings=st.text(max_size=60),
)
@example(at=" 2026-07-15T10:00 ", result="compliant", answer="good", findings="  All fine. ")
@example(at="2026-07-16", result="not_compliant", answer="needs_work", findings="SF-1 down")
def test_any_inspection_input_is_recorded_or_refused_with_a_field(
    planned, people, at, result, answer, findings
):
    before = _tables()
    inspector = people.inspector["spencer-wi"]
    try:
        inspection = record(
            planned,
            inspector,
            result=result,
            answers={"silt_fence:SF-1": answer},
            findings=findings,
            at=at,
        )
    except ActionRefused as exc:
        assert exc.field in ("at", "result", "checklist", "findings")
        assert _tables() == before  # refused: nothing written
        return
    # Accepted: one inspection, its timeline event and its audit record (and for a finding
    # of non-compliance one violation), holding what was typed.
    failed = 1 if result == "not_compliant" else 0
    assert _tables() == (
        before[0] + 1,
        before[1] + 1 + failed,  # the violation is on the timeline too
        before[2] + failed,
        before[3] + 1 + failed,
    )
    stored = Inspection.objects.get(pk=inspection.pk)
    typed = datetime.datetime.fromisoformat(at.strip())
    if typed.tzinfo is None:
        typed = typed.replace(tzinfo=ZoneInfo("America/Chicago"))
    kept = "".join(ch for ch in findings if ch in "\n\t" or ch >= " ").strip()
    assert (stored.permit_id, stored.inspector_id) == (planned.pk, inspector.pk)
    assert (stored.result, stored.at, stored.findings) == (
        result,
        typed.replace(microsecond=0),
        kept,
    )
    answers = {item["key"]: item["answer"] for item in stored.checklist}
    assert answers["silt_fence:SF-1"] == answer
    assert {a for k, a in answers.items() if k != "silt_fence:SF-1"} <= {"not_checked"}
    event = stored.timeline_event
    assert (event.type, event.at) == ("municipal_inspection", stored.at)
    said = "in compliance" if result == "compliant" else "not in compliance"
    assert event.fields["result"] == said
    if failed:
        violation = Violation.objects.latest("pk")
        assert stored.violation_ref == f"violation {violation.pk}"
        assert kept in violation.description
    else:
        assert stored.violation_ref == ""


def _pins() -> tuple[list[tuple], int]:
    from siltfence.apps.audit.models import AuditEvent
    from siltfence.apps.duties.models import SiteStation

    rows = SiteStation.objects.order_by("pk").values_list("site_id", "station_id", "pinned_reason")
    return list(rows), AuditEvent.objects.count()


@settings(
    max_examples=29, deadline=3000, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(station=st.text(max_size=25), reason=st.text(max_size=320))
@example(station="USC00475120", reason="  The  gauge\tnearest\nthe site ")
def test_any_station_choice_is_taken_or_refused_with_a_field(planned, people, station, reason):
    from siltfence.apps.duties.models import SiteStation
    from siltfence.apps.duties.stations import site_station_pin, stations_sync

    stations_sync()
    site = planned.application.site
    rows, audits = _pins()
    try:
        site_station_pin(
            site=site,
            staff=people.staff["spencer-wi"],
            station_id=station,
            reason=reason,
        )
    except ActionRefused as exc:
        assert exc.field in ("station", "reason")
        assert _pins() == (rows, audits)  # refused: nothing written
        return
    # Accepted: the site's one link names the station typed, with the reason as written
    # (control characters dropped, spaces collapsed); no other site's link changed.
    kept = " ".join("".join(ch for ch in reason if ch >= " " or ch in "\n\t").split())
    after, audits_after = _pins()
    assert SiteStation.objects.filter(site=site).count() == 1
    assert [r for r in after if r[0] == site.pk] == [(site.pk, station, kept)]
    assert [r for r in after if r[0] != site.pk] == [r for r in rows if r[0] != site.pk]
    assert audits_after == audits + 1
