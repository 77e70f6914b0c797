"""The recompute of stored duties (after the ordinance data, the office calendar or the
code changed): every active permit once with --all, the same result in several processes as
in one; otherwise only the permits whose stored duties are out of date.

Rain of 0.55 inch (140 tenths of a millimetre, over the half inch of § 413-8E(3)(g)) at
Marshfield on Wednesday 2026-07-08 sets each Spencer permit a rain inspection; the text
gives no deadline (gap 3) and the reading taken is the next day, Thursday 2026-07-09.
"""

from __future__ import annotations

import datetime

import pytest
from django.core.management import CommandError, call_command
from sitework import local, permit_issued, station_with_record

from siltfence.apps.duties import services as duty_services
from siltfence.apps.duties.models import PermitDuties
from siltfence.apps.duties.rain_events import rain_sweep
from siltfence.apps.duties.services import duties_recompute_all, stale_permit_ids
from siltfence.apps.duties.stations import stations_sync
from siltfence.apps.permits import inputs
from siltfence.apps.permits.models import OfficeClosure, PermitStatus, TimelineEvent
from siltfence.apps.rain.days import rain_days_record

MARSHFIELD = "USC00475120"
RAIN_DAY = datetime.date(2026, 7, 8)


def _permits(people, count, village="spencer-wi"):
    stations_sync()
    permits = []
    for i in range(count):
        permit = permit_issued(
            applicant=people.applicant_a,
            staff=people.staff[village],
            village=village,
            filed=local(2026, 7, 1, 9),
            address=f"{i} Recompute Rd",
        )
        station_with_record(site=permit.application.site)
        permits.append(permit)
    rain_days_record(station_id=MARSHFIELD, days={RAIN_DAY: 140}, source="t")
    rain_sweep(day=RAIN_DAY)
    return permits


def _self_inspection(permit, at):
    """A self-inspection written straight to the table, as a bulk load would leave it."""
    TimelineEvent.objects.create(
        application=permit.application,
        type="self_inspection",
        at=at,
        fields={"inspector": "Pat Doe", "phase": "grading"},
    )


def _stored():
    return {
        row.permit_id: (row.duties, row.next_due, row.open_count, row.overdue_count)
        for row in PermitDuties.objects.all()
    }


@pytest.mark.django_db(transaction=True)
def test_a_full_recompute_in_two_processes_stores_what_one_process_stores(people):
    permits = _permits(people, 5)
    moment = local(2026, 7, 8, 18)
    assert duties_recompute_all(jobs=1, as_of=moment, everything=True).recomputed == 5
    one = _stored()
    PermitDuties.objects.all().delete()
    # Chunks of two permits: three chunks shared by two processes on PostgreSQL.
    assert duties_recompute_all(jobs=2, as_of=moment, chunk=2, everything=True).recomputed == 5
    two = _stored()
    assert two == one
    assert set(two) == {p.pk for p in permits}
    for duties, _, _, _ in two.values():
        [rain] = [d for d in duties if d["kind"] == "rain_inspection"]
        assert (rain["due"], rain["status"], rain["citation"]) == (
            "2026-07-09",
            "open",
            "§ 413-8E(3)(g)",
        )


@pytest.mark.django_db
def test_a_full_recompute_leaves_permits_that_are_not_active_alone(people):
    active, closed = _permits(people, 2)
    closed.status = PermitStatus.CLOSED
    closed.save(update_fields=["status"])
    result = duties_recompute_all(as_of=local(2026, 7, 8, 18), everything=True)
    assert (result.in_force, result.recomputed) == (1, 1)
    assert set(PermitDuties.objects.values_list("permit_id", flat=True)) == {active.pk}


@pytest.mark.django_db
def test_the_command_recomputes_one_village_and_says_how_many(people, capsys):
    _permits(people, 2)
    PermitDuties.objects.all().delete()
    call_command("duties_recompute", "--village", "spencer-wi", "--jobs", "2")
    assert "Recomputed the duties of 2 of 2 permit(s) in force" in capsys.readouterr().out
    assert PermitDuties.objects.count() == 2
    call_command("duties_recompute", "--village", "spencer-wi")
    out = capsys.readouterr().out
    assert "Recomputed the duties of 0 of 2 permit(s) in force" in out
    assert "the others were up to date" in out
    call_command("duties_recompute", "--all")
    assert "Recomputed the duties of 2 of 2 permit(s) in force" in capsys.readouterr().out


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--jobs", "0"], "--jobs"),
        (["--jobs", "65"], "--jobs"),
        (["--village", "nowhere-wi"], "--village"),
    ],
)
def test_the_command_refuses_bad_options_naming_them(villages, args, field):
    with pytest.raises(CommandError, match=f"^{field}:"):
        call_command("duties_recompute", *args)


# -- only what changed -------------------------------------------------------------------


@pytest.mark.django_db
def test_a_second_recompute_with_nothing_changed_computes_no_permit(people):
    _permits(people, 3)
    moment = local(2026, 7, 8, 18)
    first = duties_recompute_all(as_of=moment)
    assert (first.in_force, first.recomputed) == (3, 3)  # the rain landed on all three
    again = duties_recompute_all(as_of=moment)
    assert (again.in_force, again.recomputed) == (3, 0)


@pytest.mark.django_db
def test_an_event_that_did_not_recompute_its_permit_makes_that_permit_stale(people):
    first, second = _permits(people, 2)
    moment = local(2026, 7, 8, 18)
    duties_recompute_all(as_of=moment)
    # Written straight to the table, as a bulk load or a failed on-commit hook would leave it.
    # The station's rain of 2026-07-08 is a day's total: it ends at midnight, so an
    # inspection "after" it (§ 413-8E(3)(g)) is one made from July 9 on.
    _self_inspection(second, local(2026, 7, 9, 8))
    later = local(2026, 7, 9, 9)
    assert stale_permit_ids(later) == [second.pk]
    assert duties_recompute_all(as_of=later).recomputed == 1
    # The self-inspection after the rain of 2026-07-08 meets its inspection.
    [rain] = [
        d for d in PermitDuties.objects.get(pk=second.pk).duties if d["kind"] == "rain_inspection"
    ]
    assert (rain["status"], rain["met_by"]["type"]) == ("met", "self_inspection")
    [untouched] = [
        d for d in PermitDuties.objects.get(pk=first.pk).duties if d["kind"] == "rain_inspection"
    ]
    assert untouched["status"] == "open"
    assert stale_permit_ids(moment) == []


@pytest.mark.django_db
def test_an_event_many_permits_share_is_read_once_and_each_permit_keeps_its_own_record(people):
    """The recompute reads the station's rain, the same on every permit, once; each permit's
    duties are still those of its own record: the rain is the 5th event of one record and
    the 6th of another (an inspection the day before it), and only the permit inspected
    after the rain has its inspection met."""
    plain, inspected, earlier = _permits(people, 3)
    _self_inspection(inspected, local(2026, 7, 9, 8))
    _self_inspection(earlier, local(2026, 7, 7, 10))
    moment = local(2026, 7, 9, 18)
    assert duties_recompute_all(as_of=moment, everything=True).recomputed == 3

    def record(permit):
        return list(
            TimelineEvent.objects.filter(application=permit.application).order_by("at", "id")
        )

    def rain_duty(permit):
        stored = PermitDuties.objects.get(pk=permit.pk).duties
        [rain] = [d for d in stored if d["kind"] == "rain_inspection"]
        return rain

    for permit in (plain, inspected, earlier):
        rows = record(permit)
        [rain_index] = [i for i, e in enumerate(rows) if e.type == "rain"]
        assert rain_duty(permit)["rain"]["events"] == [rain_index]
    assert rain_duty(earlier)["rain"]["events"] == [rain_duty(plain)["rain"]["events"][0] + 1]
    # Due through the day after the rain (gap 3), so still open at 18:00 that day.
    assert (rain_duty(plain)["status"], rain_duty(plain)["due"]) == ("open", "2026-07-09")
    assert rain_duty(earlier)["status"] == "open"  # inspected before the rain, not after
    met = rain_duty(inspected)
    assert (met["status"], met["met_by"]["index"]) == ("met", len(record(inspected)) - 1)
    # What each permit stores is what the engine answers for its record given whole.
    from siltfence.core.timeline import compute

    for permit in (plain, inspected, earlier):
        events = [{"type": e.type, "at": e.at, **e.fields} for e in record(permit)]
        answer = compute("spencer-wi", events, as_of=moment)
        expected = [
            d.to_json(answer.as_of)
            for d in answer.duties
            if d.kind not in ("review_decision", "re_review_decision")
        ]
        assert PermitDuties.objects.get(pk=permit.pk).duties == expected


@pytest.mark.django_db
def test_an_office_closure_makes_only_that_villages_permits_stale(people):
    spencer = _permits(people, 2)
    glarus = _permits(people, 1, village="new-glarus-wi")
    moment = local(2026, 7, 8, 18)
    duties_recompute_all(as_of=moment)
    assert stale_permit_ids(moment) == []
    OfficeClosure.objects.create(
        village_id="new-glarus-wi", day=datetime.date(2026, 7, 24), reason="Wilhelm Tell"
    )
    assert stale_permit_ids(moment) == [glarus[0].pk]
    assert stale_permit_ids(moment, ["spencer-wi"]) == []
    assert {p.pk for p in spencer}.isdisjoint(stale_permit_ids(moment))


@pytest.mark.django_db
def test_new_code_or_ordinance_data_makes_every_permit_stale(people, monkeypatch):
    permits = _permits(people, 2)
    moment = local(2026, 7, 8, 18)
    duties_recompute_all(as_of=moment)
    real = inputs.ordinance_digest
    monkeypatch.setattr(duty_services, "ordinance_digest", lambda v: real(v) + "-release 2")
    duty_services._rules_digest.cache_clear()
    try:
        assert stale_permit_ids(moment) == sorted(p.pk for p in permits)
    finally:
        monkeypatch.undo()
        duty_services._rules_digest.cache_clear()
    assert stale_permit_ids(moment) == []


@pytest.mark.django_db
def test_stored_duties_go_stale_when_their_next_duty_falls_due(people):
    _permits(people, 1)
    moment = local(2026, 7, 8, 18)
    duties_recompute_all(as_of=moment)
    [state] = PermitDuties.objects.all()
    # The rain of 2026-07-08 is to be inspected by the end of the next day (gap 3).
    assert state.recompute_by == local(2026, 7, 10, 0)
    assert stale_permit_ids(local(2026, 7, 9, 23, 59)) == []
    assert stale_permit_ids(local(2026, 7, 10, 0)) == [state.permit_id]


@pytest.mark.django_db
def test_stored_duties_go_stale_when_a_new_inspection_period_begins(people):
    """§ 413-9: one village inspection a month from March 1 to October 31. With July's done
    and no duty left open (the rain's inspection is late, and no work start is recorded, so
    no weekly one runs), nothing falls due; yet August's duty appears on August 1 with no
    event, so the stored duties must be recomputed by then."""
    [permit] = _permits(people, 1)
    TimelineEvent.objects.create(
        application=permit.application,
        type="municipal_inspection",
        at=local(2026, 7, 20, 10),
        fields={"inspector": "Building Inspector", "result": "in compliance"},
    )
    _self_inspection(permit, local(2026, 7, 29, 9))
    moment = local(2026, 7, 30, 12)
    duties_recompute_all(as_of=moment)
    state = PermitDuties.objects.get(pk=permit.pk)
    assert state.next_due is None
    assert state.recompute_by == local(2026, 8, 1, 0)
    assert stale_permit_ids(local(2026, 7, 31, 23, 59)) == []
    assert stale_permit_ids(local(2026, 8, 1, 0)) == [permit.pk]
    duties_recompute_all(as_of=local(2026, 8, 1, 8))
    periods = [
        d["period"]["from"]
        for d in PermitDuties.objects.get(pk=permit.pk).duties
        if d["kind"] == "municipal_inspection"
    ]
    assert periods == ["2026-07-01", "2026-08-01"]


@pytest.mark.django_db
def test_the_stored_duties_are_compressed_with_lz4_where_the_server_has_it():
    """On PostgreSQL a permit's duties (about 13 kB of JSON) are compressed with lz4, the
    cheaper to write at each full recompute; a server built without lz4 keeps its default.
    SQLite keeps them as text, with no compression to choose."""
    from django.db import connection

    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":
            cursor.execute(
                "SELECT type FROM pragma_table_info('duties_permitduties') WHERE name = 'duties'"
            )
            assert cursor.fetchone()[0].lower() == "text"
            return
        cursor.execute(
            "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
        )
        has_lz4 = cursor.fetchone()[0]
        cursor.execute(
            "SELECT attcompression FROM pg_attribute "
            "WHERE attrelid = 'duties_permitduties'::regclass AND attname = 'duties'"
        )
        assert cursor.fetchone()[0] == ("l" if has_lz4 else "")
