"""``python -m tools.scale`` on a small county: the counts asked for, nothing added by a
second run, and every record one the law allows, with the stored values the pages read
equal to what the project's own code computes from the events. On SQLite here, and on
PostgreSQL (COPY) when DATABASE_URL names it."""

from __future__ import annotations

import datetime
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from siltfence.core.ordinance.loader import load
from tools.scale import ScaleOptions, scale_generate
from tools.scale.plans import STATE_SHARES

NOW = datetime.datetime(2026, 9, 15, 15, 0, tzinfo=datetime.UTC)


@pytest.fixture
def county_root(tmp_path: Path) -> Iterator[Path]:
    """The county's ordinance root in a throw-away folder (the generator points the process
    at it); the process reads the ordinances it read before afterwards."""
    original = os.environ.get("SILTFENCE_ORDINANCES")
    yield tmp_path / "county-ordinances"
    if original is None:
        os.environ.pop("SILTFENCE_ORDINANCES", None)
    else:
        os.environ["SILTFENCE_ORDINANCES"] = original
    load.cache_clear()


def _options(root: Path, permits: int) -> ScaleOptions:
    return ScaleOptions(
        permits=permits,
        municipalities=2,
        years=3,
        stations=16,
        seed=7,
        ordinances=root,
        now=NOW,
        jobs=1,
    )


def _table_counts() -> dict[str, int]:
    from siltfence.apps.audit.models import AuditEvent
    from siltfence.apps.duties.models import PermitDuties, SiteStation
    from siltfence.apps.enforcement.models import EnforcementCase
    from siltfence.apps.permits.models import Application, Permit, TimelineEvent, Village
    from siltfence.apps.rain.models import RainDay

    return {
        model.__name__: model.objects.count()
        for model in (
            Village,
            Application,
            Permit,
            TimelineEvent,
            RainDay,
            SiteStation,
            PermitDuties,
            EnforcementCase,
            AuditEvent,
        )
    }


@pytest.mark.django_db
def test_a_small_county_has_what_was_asked_for_and_a_second_run_adds_nothing(
    county_root: Path, expect_postgres_when_asked: None
) -> None:
    from siltfence.apps.permits.models import Application, Permit, Village
    from siltfence.apps.rain.models import RainDay

    first = scale_generate(_options(county_root, 200))
    assert len(first.written) == 2 and first.skipped == []
    assert Application.objects.count() == 200
    places = first.municipalities
    assert set(Village.objects.filter(id__in=places).values_list("id", flat=True)) == set(places)
    for place in places:
        assert Application.objects.filter(village_id=place).exists()
        copy = county_root / place
        assert load(place).name.split(" of ", 1)[0] in ("Village", "City", "Town")
        assert (copy / "rules.yaml").resolve() != copy / "rules.yaml"  # a link to the chapter
    assert first.counts.permits == Permit.objects.count()
    issued = sum(round(STATE_SHARES[s] * 200) for s in ("approved", "active", "closed", "revoked"))
    assert abs(first.counts.permits - issued) <= 2
    # Three years: every record is kept in full (notices, measures, the rains swept).
    assert 10 <= first.counts.events / 200 <= 45
    days = (NOW.date() - NOW.date().replace(year=NOW.year - 3)).days
    assert RainDay.objects.count() == first.stations * days == first.rain_days_written
    before = _table_counts()

    again = scale_generate(_options(county_root, 200))

    assert again.written == [] and sorted(again.skipped) == sorted(places)
    assert again.rain_days_written == 0
    assert _table_counts() == before
    assert first.in_database == again.in_database == 200

    # A bigger county asked of the same database leaves it as it is, and says so.
    bigger = scale_generate(_options(county_root, 400))
    assert bigger.written == [] and bigger.in_database == 200
    assert _table_counts() == before


@pytest.mark.django_db
def test_every_record_of_the_county_is_one_its_ordinance_allows(
    county_root: Path, expect_postgres_when_asked: None
) -> None:
    from siltfence.apps.audit.chain import chain_verify
    from siltfence.apps.duties.models import PermitDuties, SiteStation
    from siltfence.apps.duties.services import permit_duties_recompute
    from siltfence.apps.duties.stations import site_station_assign
    from siltfence.apps.enforcement.models import EnforcementAction
    from siltfence.apps.permits.clocks import application_events, application_timeline
    from siltfence.apps.permits.models import Application, ApplicationStatus, Permit
    from siltfence.core.timeline.events import parse_events

    report = scale_generate(_options(county_root, 200))
    statuses = Counter(Application.objects.values_list("status", flat=True))
    assert set(statuses) <= set(ApplicationStatus.values)
    assert {"draft", "under_review", "approved"} <= set(statuses)
    for application in Application.objects.filter(village_id__in=report.municipalities):
        ordinance = load(application.village_id)
        events = application_events(application)
        parse_events(events, ZoneInfo(ordinance.time_zone))  # the public contract's shape
        assert all(datetime.datetime.fromisoformat(e["at"]) <= NOW for e in events)
        if application.status == ApplicationStatus.DRAFT:
            assert application.received_at is None and events == []
            continue
        assert events[0]["type"] == "application_received"
        assert application.received_at is not None and application.received_at <= NOW
        if application.decided_at is not None:
            assert application.received_at < application.decided_at <= NOW
        if application.status == ApplicationStatus.DISAPPROVED:
            assert application.decision_reasons
            assert events[-1]["type"] == "application_disapproved"
    for permit in Permit.objects.select_related("application"):
        timeline = application_timeline(permit.application, as_of=NOW).to_json()
        assert timeline["permit"]["expires"] == permit.expires_on.isoformat(), permit.number
        assert permit.issued_on < permit.expires_on
        if permit.status == "closed":
            assert permit.closed_on is not None and permit.closed_on <= permit.expires_on
            assert permit.final_cover_percent is not None and permit.final_cover_percent >= 70
        if permit.status == "revoked":
            assert EnforcementAction.objects.filter(
                case__application=permit.application, kind="revocation"
            ).exists()
        if permit.status == "active":
            assert PermitDuties.objects.filter(permit=permit).exists()
    # The stored values are what the project's own code computes from the events.
    stored = {d.permit_id: d.duties for d in PermitDuties.objects.all()}
    permit_duties_recompute(permit_ids=list(stored), as_of=NOW)
    assert {d.permit_id: d.duties for d in PermitDuties.objects.all()} == stored
    try:
        from siltfence.apps.permits.stored_clocks import decision_clocks_recompute
    except ImportError:
        pass
    else:
        clocks = dict(Application.objects.values_list("pk", "decision_clock"))
        decision_clocks_recompute()
        assert dict(Application.objects.values_list("pk", "decision_clock")) == clocks
    for link in SiteStation.objects.select_related("site")[:10]:
        station = link.station_id
        assert site_station_assign(site=link.site).station_id == station
    assert chain_verify().ok


@pytest.mark.django_db
def test_the_command_says_when_the_database_holds_another_size_of_county(
    county_root: Path, expect_postgres_when_asked: None
) -> None:
    from typer.testing import CliRunner

    from tools.scale.command import app

    scale_generate(_options(county_root, 200))
    asked = [
        "--municipalities", "2", "--years", "3", "--stations", "16",
        "--seed", "7", "--ordinances", str(county_root), "--jobs", "1",
    ]  # fmt: skip
    bigger = CliRunner().invoke(app, [*asked, "--permits", "400"])
    assert bigger.exit_code == 0, bigger.output
    assert "2 already there" in bigger.stdout
    assert (
        "note: the database holds 200 applications of this county, not the 400 asked for"
        in bigger.stdout
    )
    same = CliRunner().invoke(app, [*asked, "--permits", "200"])
    assert same.exit_code == 0 and "note:" not in same.stdout


@pytest.mark.django_db
def test_a_municipality_whose_people_an_earlier_run_wrote_is_not_written_twice(
    county_root: Path, expect_postgres_when_asked: None
) -> None:
    """A run killed while a worker process was still writing leaves that process to commit
    its municipality after the next run began: the next run must pass over it, not fail on
    its staff account (a unique violation, twice in two reruns before this was fixed)."""
    from django.contrib.auth import get_user_model

    from siltfence.apps.permits.models import Application
    from tools.scale import county_places

    places, _, _ = county_places(_options(county_root, 200))
    late = places[0].id
    get_user_model().objects.create_user(f"{late}-staff")  # what the late writer committed
    report = scale_generate(_options(county_root, 200))
    assert late in report.skipped and late not in report.written
    assert not Application.objects.filter(village_id=late).exists()
    assert len(report.written) == len(places) - 1
