"""The daily rain sweep: qualifying rain at a site's station becomes a rain event on every
active permit there, once; the permits' stored duties follow.

Stations and distances are worked out by hand from NOAA's station list: Spencer's centre
(44.7573 N, 90.2966 W) is about 18 km from Marshfield Exp Farm (USC00475120, 44.6411 N,
90.1333 W), nearer than Wausau (about 56 km: 18.9 km north and 53.0 km east) or Stevens
Point; New Glarus's centre
(42.8136 N, 89.6351 W) is about 21.5 km from Mt Horeb (USC00475674), nearer than Monroe
(about 24 km). Half an inch is 12.7 mm, 127 tenths of a millimetre (the ordinance data's
threshold at GHCN-Daily's precision).
"""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from sitework import local, permit_issued, station_with_record

from siltfence.apps.audit.chain import chain_verify
from siltfence.apps.duties.models import PermitDuties, SiteStation
from siltfence.apps.duties.rain_events import rain_sweep
from siltfence.apps.duties.services import permit_duties_recompute
from siltfence.apps.duties.stations import site_station_assign, site_station_pin, stations_sync
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import TimelineEvent
from siltfence.apps.rain.days import rain_days_record
from siltfence.apps.rain.models import Station
from siltfence.apps.reminders.sweep import daily_sweep

pytestmark = pytest.mark.django_db
MARSHFIELD, MT_HOREB, WAUSAU = "USC00475120", "USC00475674", "USW00014897"


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


def rains(permit):
    return list(
        TimelineEvent.objects.filter(application=permit.application, type="rain").order_by("at")
    )


def test_a_spencer_site_without_a_drawing_reads_rain_at_marshfield_about_18_km_away(
    spencer_permit,
):
    link = SiteStation.objects.get(site=spencer_permit.application.site)
    assert link.station_id == MARSHFIELD
    assert 17.5 < link.distance_km < 19.0
    assert link.pinned_reason == ""


def test_a_new_glarus_site_reads_rain_at_mt_horeb(people):
    stations_sync()
    permit = permit_issued(
        applicant=people.applicant_a,
        staff=people.staff["new-glarus-wi"],
        village="new-glarus-wi",
        filed=local(2026, 7, 1, 9),
    )
    link = station_with_record(site=permit.application.site)
    assert link.station_id == MT_HOREB
    assert 20.5 < link.distance_km < 22.5


def test_a_day_of_exactly_half_an_inch_lands_on_the_permit_once(spencer_permit):
    rain_days_record(station_id=MARSHFIELD, days={datetime.date(2026, 7, 8): 127}, source="t")
    first = rain_sweep(day=datetime.date(2026, 7, 8))
    second = rain_sweep(day=datetime.date(2026, 7, 8))
    assert first.rain_events == 1 and first.touched == [spencer_permit.pk]
    assert second.rain_events == 0 and second.touched == []
    [event] = rains(spencer_permit)
    assert event.fields == {"inches": 0.5, "station": MARSHFIELD}
    assert chain_verify().ok


def test_a_day_of_a_tenth_of_a_millimetre_under_half_an_inch_is_not_swept(spencer_permit):
    rain_days_record(station_id=MARSHFIELD, days={datetime.date(2026, 7, 8): 126}, source="t")
    assert rain_sweep(day=datetime.date(2026, 7, 8)).rain_events == 0
    assert rains(spencer_permit) == []


def test_two_wet_days_that_reach_half_an_inch_together_both_land_as_one_storm(spencer_permit):
    # 7.6 mm + 5.1 mm = 12.7 mm over consecutive days: one storm of half an inch (gap 4).
    rain_days_record(
        station_id=MARSHFIELD,
        days={datetime.date(2026, 7, 8): 76, datetime.date(2026, 7, 9): 51},
        source="t",
    )
    assert rain_sweep(day=datetime.date(2026, 7, 8)).rain_events == 0  # 7.6 mm alone
    assert rain_sweep(day=datetime.date(2026, 7, 9)).rain_events == 2
    assert [e.at.date() for e in rains(spencer_permit)] == [
        datetime.date(2026, 7, 8),
        datetime.date(2026, 7, 9),
    ]


def test_rain_at_another_station_does_not_land(spencer_permit):
    rain_days_record(station_id=WAUSAU, days={datetime.date(2026, 7, 8): 300}, source="t")
    assert rain_sweep(day=datetime.date(2026, 7, 8)).rain_events == 0


def test_rain_before_the_permit_was_issued_does_not_land(spencer_permit):
    # The permit was issued 2026-07-03.
    rain_days_record(station_id=MARSHFIELD, days={datetime.date(2026, 7, 2): 300}, source="t")
    assert rain_sweep(day=datetime.date(2026, 7, 2)).rain_events == 0
    rain_days_record(station_id=MARSHFIELD, days={datetime.date(2026, 7, 3): 300}, source="t")
    assert rain_sweep(day=datetime.date(2026, 7, 3)).rain_events == 1


def test_a_station_pinned_by_staff_replaces_the_nearest_one_and_needs_a_reason(
    spencer_permit, people
):
    site = spencer_permit.application.site
    staff = people.staff["spencer-wi"]
    with pytest.raises(ActionRefused) as refused:
        site_station_pin(site=site, staff=staff, station_id=WAUSAU, reason="  ")
    assert refused.value.field == "reason"
    with pytest.raises(ActionRefused) as refused:
        site_station_pin(
            site=site, staff=people.applicant_a, station_id=WAUSAU, reason="closer gauge"
        )
    link = site_station_pin(site=site, staff=staff, station_id=WAUSAU, reason="hilltop site")
    assert link.station_id == WAUSAU and 55.5 < link.distance_km < 57
    assert site_station_assign(site=site).station_id == WAUSAU  # a pin is kept
    rain_days_record(station_id=WAUSAU, days={datetime.date(2026, 7, 8): 200}, source="t")
    assert rain_sweep(day=datetime.date(2026, 7, 8)).rain_events == 1


def test_the_sweep_runs_the_same_number_of_queries_for_3_and_for_12_permits(people):
    stations_sync()
    counts = []
    for n, day in ((3, datetime.date(2026, 7, 8)), (12, datetime.date(2026, 8, 20))):
        for i in range(n if not counts else n - 3):
            permit = permit_issued(
                applicant=people.applicant_a,
                staff=people.staff["spencer-wi"],
                village="spencer-wi",
                filed=local(2026, 7, 1, 9),
                address=f"{i} Test Rd {n}",
            )
            station_with_record(site=permit.application.site)
        rain_days_record(station_id=MARSHFIELD, days={day: 200}, source="t")
        with CaptureQueriesContext(connection) as queries:
            result = rain_sweep(day=day)
        assert result.rain_events == n
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_rain_at_stations_no_site_draws_from_adds_no_query_to_the_sweep(spencer_permit):
    """The sweep visits only the (village, station) pairs where a permit in force draws its
    rain: a wet day at every other station of the registry, near two villages, costs it
    nothing more."""
    wet = datetime.date(2026, 7, 8)
    rain_days_record(station_id=MARSHFIELD, days={wet: 200}, source="t")
    with CaptureQueriesContext(connection) as alone:
        assert rain_sweep(day=wet).rain_events == 1
    others = list(Station.objects.exclude(pk=MARSHFIELD).values_list("pk", flat=True))
    assert len(others) >= 10
    later = datetime.date(2026, 8, 7)  # the first storm is past the sweep's look-back
    for station in [MARSHFIELD, *others]:
        rain_days_record(station_id=station, days={later: 200}, source="t")
    with CaptureQueriesContext(connection) as crowded:
        assert rain_sweep(day=later).rain_events == 1
    assert len(crowded) == len(alone)
    assert [e.at.date() for e in rains(spencer_permit)] == [wet, later]


def test_stored_duties_show_the_spencer_rain_inspection_due_the_next_day(spencer_permit):
    # § 413-8E(3)(g) sets no deadline (gap 3): the reading taken is the next day. Rain on
    # Wednesday 2026-07-08 is to be inspected by Thursday 2026-07-09.
    rain_days_record(station_id=MARSHFIELD, days={datetime.date(2026, 7, 8): 140}, source="t")
    result = rain_sweep(day=datetime.date(2026, 7, 8))
    permit_duties_recompute(permit_ids=result.touched, as_of=local(2026, 7, 8, 18))
    state = PermitDuties.objects.get(permit=spencer_permit)
    [duty] = [d for d in state.duties if d["kind"] == "rain_inspection"]
    assert duty["due"] == "2026-07-09" and duty["status"] == "open"
    assert duty["citation"] == "§ 413-8E(3)(g)"
    assert state.open_count >= 1


def test_the_daily_sweep_recomputes_only_the_permits_a_rain_landed_on(people):
    stations_sync()
    wet = permit_issued(
        applicant=people.applicant_a,
        staff=people.staff["spencer-wi"],
        village="spencer-wi",
        filed=local(2026, 7, 1, 9),
    )
    dry = permit_issued(
        applicant=people.applicant_a,
        staff=people.staff["new-glarus-wi"],
        village="new-glarus-wi",
        filed=local(2026, 7, 1, 9),
        address="1 Dry Ln",
    )
    daily_sweep(day=datetime.date(2026, 7, 7), as_of=local(2026, 7, 7, 23))
    before = PermitDuties.objects.get(permit=dry).computed_at
    rain_days_record(station_id=MARSHFIELD, days={datetime.date(2026, 7, 8): 150}, source="t")
    run = daily_sweep(day=datetime.date(2026, 7, 8), as_of=local(2026, 7, 8, 6))
    assert run.rain_events == 1 and run.permits_recomputed == 1
    assert PermitDuties.objects.get(permit=dry).computed_at == before
    assert any(d["kind"] == "rain_inspection" for d in PermitDuties.objects.get(permit=wet).duties)
