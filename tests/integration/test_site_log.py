"""The permittee's site log: each entry is the timeline event that closes its duty, kept
with its findings and photos in the audit record; bad input names its field and writes
nothing; a draft sent twice is recorded once."""

from __future__ import annotations

import datetime
import io
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sitework import local, permit_issued, station_with_record

from siltfence.apps.audit.chain import chain_verify
from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.duties.models import PermitDuties
from siltfence.apps.duties.rain_events import rain_sweep
from siltfence.apps.duties.services import permit_duties_recompute
from siltfence.apps.duties.stations import stations_sync
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import TimelineEvent
from siltfence.apps.rain.days import rain_days_record
from siltfence.apps.sitelog.models import SiteLogEntry
from siltfence.apps.sitelog.services import Photo, site_log_record

pytestmark = pytest.mark.django_db
MARSHFIELD, MT_HOREB = "USC00475120", "USC00475674"


def png() -> bytes:
    # The smallest valid PNG: 1x1 pixel.
    return bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
    )


@pytest.fixture
def spencer_permit(people):
    stations_sync()
    permit = permit_issued(
        applicant=people.applicant_a,
        staff=people.staff["spencer-wi"],
        village="spencer-wi",
        filed=local(2026, 7, 1, 9),
    )
    station_with_record(site=permit.application.site)
    return permit


def log(permit, user, kind, at, now=None, token="", photos=(), **data):
    return site_log_record(
        permit=permit,
        user=user,
        kind=kind,
        at=at,
        data=data,
        photos=list(photos),
        client_token=token,
        now=now or local(2026, 7, 31, 12),
    )


def duty(permit, kind, as_of):
    permit_duties_recompute(permit_ids=[permit.pk], as_of=as_of)
    state = PermitDuties.objects.get(permit=permit)
    return [d for d in state.duties if d["kind"] == kind]


def test_an_inspection_logged_the_day_after_a_rain_closes_the_rain_inspection(
    spencer_permit, people
):
    rain_days_record(station_id=MARSHFIELD, days={datetime.date(2026, 7, 8): 150}, source="t")
    rain_sweep(day=datetime.date(2026, 7, 8))
    [open_duty] = duty(spencer_permit, "rain_inspection", local(2026, 7, 8, 20))
    assert open_duty["status"] == "open"
    entry = log(
        spencer_permit,
        people.applicant_a,
        "self_inspection",
        "2026-07-09T10:15",
        inspector="Jo Contractor",
        phase="rough grading",
        findings="Fence SF-1 sagging at the east corner",
        repairs="Restaked SF-1",
        photos=[Photo("fence.png", png(), "image/png")],
    )
    [closed] = duty(spencer_permit, "rain_inspection", local(2026, 7, 9, 20))
    assert closed["status"] == "met"
    assert closed["met_by"]["type"] == "self_inspection"
    assert closed["met_by"]["id"] == entry.timeline_event.fields["id"]
    assert entry.timeline_event.fields["inspector"] == "Jo Contractor"
    assert entry.photos.count() == 1
    audit = AuditEvent.objects.filter(action="site_log_self_inspection").get()
    assert audit.citation == "§ 413-8E(3)(g)"
    assert audit.after["repairs"] == "Restaked SF-1"
    assert chain_verify().ok


def test_a_draft_sent_twice_is_recorded_once(spencer_permit, people):
    first = log(spencer_permit, people.applicant_a, "work_started", "2026-07-06T08:00", token="t1")
    second = log(spencer_permit, people.applicant_a, "work_started", "2026-07-06T08:00", token="t1")
    assert first.pk == second.pk
    assert TimelineEvent.objects.filter(type="work_started").count() == 1


def test_the_start_notice_logged_within_48_hours_closes_the_spencer_start_notice(
    spencer_permit, people
):
    # § 413-8E(3)(a): within 48 hours of commencing. Started Monday 2026-07-06 08:00.
    log(spencer_permit, people.applicant_a, "work_started", "2026-07-06T08:00")
    [due] = duty(spencer_permit, "start_notice", local(2026, 7, 6, 12))
    assert due["status"] == "open" and due["due"].startswith("2026-07-08T08:00")
    log(spencer_permit, people.applicant_a, "start_notice_given", "2026-07-07T09:30")
    [met] = duty(spencer_permit, "start_notice", local(2026, 7, 7, 12))
    assert met["status"] == "met" and met["met_by"]["type"] == "start_notice_given"


def test_new_glarus_no_runoff_record_lifts_the_inspection_the_station_rain_set(people):
    stations_sync()
    permit = permit_issued(
        applicant=people.applicant_a,
        staff=people.staff["new-glarus-wi"],
        village="new-glarus-wi",
        filed=local(2026, 7, 1, 9),
    )
    station_with_record(site=permit.application.site)
    log(permit, people.applicant_a, "work_started", "2026-07-06T08:00")
    rain_days_record(station_id=MT_HOREB, days={datetime.date(2026, 7, 8): 200}, source="t")
    rain_sweep(day=datetime.date(2026, 7, 8))
    assert len(duty(permit, "rain_inspection", local(2026, 7, 8, 20))) == 1
    with pytest.raises(ActionRefused) as refused:
        log(permit, people.applicant_a, "no_runoff", "2026-07-08T18:00", evidence="")
    assert refused.value.field == "evidence"
    log(
        permit,
        people.applicant_a,
        "no_runoff",
        "2026-07-08T18:00",
        evidence="Ground was dry; water stayed in the swale, nothing reached the street",
    )
    assert duty(permit, "rain_inspection", local(2026, 7, 8, 20)) == []


@pytest.mark.parametrize(
    ("kind", "at", "data", "field"),
    [
        ("self_inspection", "2026-07-09T10:00", {"phase": "grading"}, "inspector"),
        ("self_inspection", "2026-07-09T10:00", {"inspector": "Jo"}, "phase"),
        ("measure_installed", "2026-07-09T10:00", {}, "measure"),
        ("area_inactive", "2026-07-09T10:00", {}, "area"),
        ("work_started", "2026-13-01T10:00", {}, "at"),
        ("work_started", "yesterday", {}, "at"),
        ("work_started", "2026-08-01T10:00", {}, "at"),  # after "now" (2026-07-31 12:00)
        ("work_started", "2026-06-01T10:00", {}, "at"),  # before the application was filed
        ("dance", "2026-07-09T10:00", {}, "kind"),
        (
            "self_inspection",
            "2026-07-09T10:00",
            {"inspector": "J" * 201, "phase": "x"},
            "inspector",
        ),
    ],
)
def test_bad_input_is_refused_naming_its_field_and_writes_nothing(
    spencer_permit, people, kind, at, data, field
):
    before = (TimelineEvent.objects.count(), AuditEvent.objects.count())
    with pytest.raises(ActionRefused) as refused:
        log(spencer_permit, people.applicant_a, kind, at, **data)
    assert refused.value.field == field
    assert str(refused.value).startswith(f"{field}: ")
    assert (TimelineEvent.objects.count(), AuditEvent.objects.count()) == before


def test_a_pdf_is_not_taken_as_a_photo(spencer_permit, people):
    from factories import plan_pdf

    with pytest.raises(ActionRefused) as refused:
        log(
            spencer_permit,
            people.applicant_a,
            "work_started",
            "2026-07-06T08:00",
            photos=[Photo("x.pdf", plan_pdf("x"), "application/pdf")],
        )
    assert refused.value.field in ("file", "photos")
    assert SiteLogEntry.objects.count() == 0


def test_only_the_permittee_keeps_the_log(spencer_permit, people):
    for user in (people.applicant_b, people.staff["spencer-wi"], people.inspector["spencer-wi"]):
        with pytest.raises(ActionRefused) as refused:
            log(spencer_permit, user, "work_started", "2026-07-06T08:00")
        assert refused.value.field == "permit"


def _one_line(value: str) -> str:
    """A name or id as the log keeps it: control characters dropped, spaces collapsed."""
    kept = "".join(ch for ch in value if ch in "\n\t" or ch >= " ")
    return " ".join(kept.split())


def _tables() -> tuple[int, int, int]:
    return (
        SiteLogEntry.objects.count(),
        TimelineEvent.objects.count(),
        AuditEvent.objects.count(),
    )


@settings(
    max_examples=38, deadline=2000, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    kind=st.sampled_from(["self_inspection", "measure_installed", "area_stabilized", "x"]),
    at=st.text(max_size=30),
    inspector=st.text(max_size=250),
    phase=st.text(max_size=50),
    measure=st.text(max_size=80),
)
@example(
    kind="self_inspection",
    at=" 2026-07-09T10:15 ",
    inspector="  Jo   Contractor ",
    phase="rough\tgrading",
    measure="SF-1",
)
@example(kind="area_stabilized", at="2026-07-10", inspector="", phase="", measure=" Lot  2 ")
def test_any_input_is_recorded_or_refused_with_a_field_never_a_crash(
    spencer_permit, people, kind, at, inspector, phase, measure
):
    before = _tables()
    try:
        entry = log(
            spencer_permit,
            people.applicant_a,
            kind,
            at,
            inspector=inspector,
            phase=phase,
            measure=measure,
            area=measure,
        )
    except ActionRefused as exc:
        assert exc.field in ("kind", "at", "inspector", "phase", "measure", "area")
        assert _tables() == before  # refused: nothing written
        return
    # Accepted: one entry, its timeline event and its audit record, holding what was typed.
    assert _tables() == (before[0] + 1, before[1] + 1, before[2] + 1)
    stored = SiteLogEntry.objects.get(pk=entry.pk)
    zone = ZoneInfo("America/Chicago")
    typed = datetime.datetime.fromisoformat(at.strip())
    if typed.tzinfo is None:
        typed = typed.replace(tzinfo=zone)
    expected = {
        "inspector": _one_line(inspector),
        "phase": _one_line(phase),
        "measure": _one_line(measure),
        "area": _one_line(measure),
    }
    assert stored.kind == kind and stored.permit_id == spencer_permit.pk
    assert stored.at == typed.replace(microsecond=0)
    assert {k: getattr(stored, k) for k in expected} == expected
    assert stored.recorded_by_id == people.applicant_a.pk
    event = stored.timeline_event
    assert event.type == kind and event.at == stored.at
    assert event.application_id == spencer_permit.application_id
    named = {
        "self_inspection": ("inspector", "phase"),
        "measure_installed": ("measure",),
        "area_stabilized": ("area",),
    }[kind]
    assert {k: v for k, v in event.fields.items() if k != "id"} == {k: expected[k] for k in named}
    assert stored.photos.count() == 0


def test_the_log_page_takes_an_entry_without_javascript_and_shows_the_error_otherwise(
    spencer_permit, people
):
    client = Client()
    client.force_login(people.applicant_a)
    url = f"/permits/{spencer_permit.pk}/log/"
    page = client.get(url)
    assert page.status_code == 200
    assert b'accept="image/*"' in page.content and b"capture=" in page.content
    bad = client.post(url, {"kind": "self_inspection", "at": "2026-07-09T10:00", "phase": "x"})
    assert bad.status_code == 400
    assert b"inspector: the name of the person inspecting is required" in bad.content
    photo = io.BytesIO(png())
    photo.name = "site.png"
    good = client.post(
        url,
        {
            "kind": "self_inspection",
            "at": "2026-07-09T10:00",
            "inspector": "Jo",
            "phase": "grading",
            "client_token": "abc",
            "photos": photo,
        },
    )
    assert good.status_code == 302
    assert SiteLogEntry.objects.get().photos.count() == 1
    other = Client()
    other.force_login(people.applicant_b)
    assert other.get(url).status_code == 404


def test_a_nul_byte_or_odd_token_never_reaches_the_database(spencer_permit, people):
    entry = log(
        spencer_permit,
        people.applicant_a,
        "self_inspection",
        "2026-07-09T10:00",
        token="a\x00b<c>",
        inspector="Jo\x00 Smith",
        phase="grading",
    )
    assert entry.client_token == "abc"
    assert entry.inspector == "Jo Smith"


def test_the_log_says_which_duty_an_entry_met_and_how_late_or_that_it_met_none(
    spencer_permit, people
):
    # § 413-8E(3)(g) "after each rain": the station's rain of Wednesday 2026-07-08 (0.59
    # in) is a day's total, so it ends at midnight; the inspection is due by Thursday
    # 07-09 (gap 3, the next day). An inspection on the 8th at 15:00 may have been made
    # while it still rained: it meets nothing. One on Saturday 07-11 meets it, 2 days late.
    rain_days_record(station_id=MARSHFIELD, days={datetime.date(2026, 7, 8): 150}, source="t")
    rain_sweep(day=datetime.date(2026, 7, 8))
    client = Client()
    client.force_login(people.applicant_a)

    def saved_message(at: str) -> str:
        entry = log(
            spencer_permit, people.applicant_a, "self_inspection", at, inspector="Jo", phase="g"
        )
        page = client.get(f"/permits/{spencer_permit.pk}/log/?saved={entry.pk}").content.decode()
        start = page.index('data-testid="saved">')
        return page[start : page.index("</p>", start)]

    during = saved_message("2026-07-08T15:00")
    assert "It meets no duty that is owed now" in during
    late = saved_message("2026-07-11T09:00")
    assert "It meets: inspect the control measures after rain, met on 2026-07-11" in late
    assert "late by 2 days" in late
