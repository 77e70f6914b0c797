"""The decision clock stored on each application (what the review queue sorts on) is the
clock the core computes from the events, after every kind of event that moves a clock,
in both villages; office closures, the recompute command and the migration keep it so.

Expected days are worked out by hand from the ordinance text:

- Spencer § 413-8D: "Within 45 days of receipt of the application [...] Within 30 days
  of receipt of needed information". Calendar days, the day of the event excluded
  (§ 990.001(4) Wis. Stats.).
- New Glarus § 135-7C(1): "Within 30 business days of the receipt of a complete permit
  application"; (4): "10 business days from the date the additional information is
  received". Business days: the days the office is open (§ 135-13), so weekends and the
  office's closure days are skipped. March and April 2026 hold no Wisconsin legal holiday
  (Good Friday is not one, § 995.20 Wis. Stats.).
- Spencer § 413-8E(1), New Glarus § 135-7G: a permit is valid 180 days from issuance,
  and may be extended "for up to an additional 180 days".

Filed Monday 2026-03-02; information requested Friday 2026-03-20 and received Tuesday
2026-03-24:

- Spencer: 2026-03-02 + 45 days = Thursday 2026-04-16; 2026-03-24 + 30 days = Thursday
  2026-04-23.
- New Glarus: 30 business days after 2026-03-02 = Monday 2026-04-13 (March 3-6, four
  full weeks to April 3, then April 6-10 and 13); 10 business days after 2026-03-24 =
  Tuesday 2026-04-07 (March 25-27, March 30-April 3, April 6-7).
- Approved 2026-03-30: valid through 2026-03-30 + 180 days = 2026-09-26; extended 60
  days on 2026-08-01: through 2026-11-25.
"""

from __future__ import annotations

import datetime
from io import StringIO
from typing import Any
from zoneinfo import ZoneInfo

import factories
import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from factories import NEW_GLARUS, SPENCER

from siltfence.apps.permits import services
from siltfence.apps.permits.clocks import permit_expiry, review_clock
from siltfence.apps.permits.models import Application, Permit
from siltfence.apps.permits.stored_clocks import decision_clocks_recompute, stored_review_clock
from siltfence.presentation.wording import duty_words

pytestmark = pytest.mark.django_db
CHICAGO = ZoneInfo("America/Chicago")
D = datetime.date

FILED = D(2026, 3, 2)
ASKED = D(2026, 3, 20)
ANSWERED = D(2026, 3, 24)
APPROVED = D(2026, 3, 30)
EXTENDED = D(2026, 8, 1)

EXPECTED = {
    SPENCER: {
        "review": D(2026, 4, 16),
        "re_review": D(2026, 4, 23),
        "review_citation": "§ 413-8D",
        "re_review_citation": "§ 413-8D",
    },
    NEW_GLARUS: {
        "review": D(2026, 4, 13),
        "re_review": D(2026, 4, 7),
        "review_citation": "§ 135-7C(1)",
        "re_review_citation": "§ 135-7C(4)",
    },
}
ISSUED_THROUGH = D(2026, 9, 26)
EXTENDED_THROUGH = D(2026, 11, 25)


def at(day: datetime.date, hour: int = 10) -> datetime.datetime:
    return datetime.datetime.combine(day, datetime.time(hour), tzinfo=CHICAGO)


def filed(people: Any, village: str, address: str = "12 Clock St") -> Application:
    application = factories.make_application(
        applicant=people.applicant_a, village=village, state="draft", address=address
    )
    services.application_submit(application=application, user=people.applicant_a, at=at(FILED))
    return application


def stored_is_computed(application: Application) -> dict[str, Any]:
    """The stored clock reads as the clock the core computes from all the events, in
    every field the screens show, and the stored date is that clock's while it runs."""
    application = Application.objects.get(pk=application.pk)
    computed = review_clock(application)
    stored = stored_review_clock(application)
    assert computed is not None and stored is not None
    for key in ("kind", "due", "status", "citation", "late", "waiting_since"):
        assert stored.get(key) == computed.get(key), key
    for key in ("type", "at"):
        assert (stored.get("met_by") or {}).get(key) == (computed.get("met_by") or {}).get(key)
    zone = "America/Chicago"
    assert duty_words(stored, zone=zone)["label"] == duty_words(computed, zone=zone)["label"]
    running = computed["status"] != "met"
    assert application.decision_due == (D.fromisoformat(computed["due"]) if running else None)
    return computed


@pytest.mark.parametrize("village", [SPENCER, NEW_GLARUS])
def test_each_event_that_moves_a_clock_leaves_the_stored_date_equal_to_the_computed_one(
    people, village
):
    expected = EXPECTED[village]
    staff = people.staff[village]

    draft = factories.make_application(
        applicant=people.applicant_a, village=village, state="draft", address="12 Clock St"
    )
    assert draft.decision_due is None and review_clock(draft) is None
    assert stored_review_clock(draft) is None

    # received: the review clock runs
    services.application_submit(application=draft, user=people.applicant_a, at=at(FILED))
    clock = stored_is_computed(draft)
    assert (clock["kind"], clock["due"]) == ("review_decision", expected["review"].isoformat())
    assert clock["citation"] == expected["review_citation"]
    assert Application.objects.get(pk=draft.pk).decision_due == expected["review"]

    # information requested: the clock is met by the request, and paused
    services.application_information_request(
        application=draft, staff=staff, message="Show the stockpiles.", at=at(ASKED)
    )
    clock = stored_is_computed(draft)
    assert clock["status"] == "met" and clock["met_by"]["type"] == "information_requested"
    assert clock["waiting_since"] == ASKED.isoformat()
    assert Application.objects.get(pk=draft.pk).decision_due is None

    # information received: the shorter re-review clock runs
    services.application_information_provide(
        application=draft, user=people.applicant_a, response="Added.", at=at(ANSWERED)
    )
    clock = stored_is_computed(draft)
    assert clock["kind"] == "re_review_decision"
    assert clock["due"] == expected["re_review"].isoformat()
    assert clock["citation"] == expected["re_review_citation"]
    assert Application.objects.get(pk=draft.pk).decision_due == expected["re_review"]

    # approved: the clock is met, on time; the permit's term starts
    permit = services.application_approve(application=draft, staff=staff, at=at(APPROVED))
    clock = stored_is_computed(draft)
    assert clock["met_by"]["type"] == "application_approved" and clock["late"] is False
    assert Application.objects.get(pk=draft.pk).decision_due is None
    assert permit.expires_on == permit_expiry(draft) == ISSUED_THROUGH

    # extension: the stored expiry is the computed one
    services.permit_extend(permit=permit, staff=staff, days=60, on=EXTENDED)
    permit = Permit.objects.get(pk=permit.pk)
    assert permit.expires_on == permit_expiry(draft) == EXTENDED_THROUGH
    stored_is_computed(draft)  # an event that is not a decision leaves the clock as it was


@pytest.mark.parametrize("village", [SPENCER, NEW_GLARUS])
def test_a_late_disapproval_is_stored_as_met_late(people, village):
    application = filed(people, village)
    late = EXPECTED[village]["review"] + datetime.timedelta(days=15)
    services.application_disapprove(
        application=application,
        staff=people.staff[village],
        reasons="No inlet protection for the street inlets.",
        at=at(late),
    )
    clock = stored_is_computed(application)
    assert clock["met_by"]["type"] == "application_disapproved" and clock["late"] is True
    words = duty_words(stored_review_clock(application) or {}, zone="America/Chicago")
    assert words["label"] == (
        f"met on {late.isoformat()} by the disapproval "
        f"(due {EXPECTED[village]['review'].isoformat()}, late by 15 days)"
    )


def test_a_closure_day_moves_a_business_day_clock_and_removing_it_moves_it_back(people):
    application = filed(people, NEW_GLARUS)
    staff = people.staff[NEW_GLARUS]
    assert Application.objects.get(pk=application.pk).decision_due == D(2026, 4, 13)
    village = application.village

    # Tuesday 2026-03-10 closed: the 30th business day is one open day later.
    services.office_closure_add(village=village, staff=staff, day=D(2026, 3, 10), reason="flood")
    assert stored_is_computed(application)["due"] == "2026-04-14"
    assert Application.objects.get(pk=application.pk).decision_due == D(2026, 4, 14)

    services.office_closure_remove(village=village, staff=staff, day=D(2026, 3, 10))
    assert stored_is_computed(application)["due"] == "2026-04-13"

    # A closure after the clock ran out changes nothing.
    services.office_closure_add(village=village, staff=staff, day=D(2026, 4, 20), reason="x")
    assert Application.objects.get(pk=application.pk).decision_due == D(2026, 4, 13)


def test_a_closure_day_leaves_a_calendar_day_clock_as_it_was(people):
    application = filed(people, SPENCER)
    services.office_closure_add(
        village=application.village,
        staff=people.staff[SPENCER],
        day=D(2026, 3, 10),
        reason="office closed",
    )
    assert stored_is_computed(application)["due"] == "2026-04-16"


def test_the_recompute_command_restores_every_stored_clock_from_the_events(people):
    spencer = filed(people, SPENCER, "1 Recompute St")
    glarus = filed(people, NEW_GLARUS, "2 Recompute St")
    paused = filed(people, SPENCER, "3 Recompute St")
    services.application_information_request(
        application=paused, staff=people.staff[SPENCER], message="Stockpiles?", at=at(ASKED)
    )
    # As after a change to the ordinance data: what is stored no longer holds.
    Application.objects.update(decision_due=D(2000, 1, 1), decision_clock={})

    out = StringIO()
    call_command("clocks_recompute", "--village", SPENCER, stdout=out)
    assert "Recomputed the decision clocks of 2 application(s) in " in out.getvalue()
    assert Application.objects.get(pk=spencer.pk).decision_due == D(2026, 4, 16)
    assert Application.objects.get(pk=paused.pk).decision_due is None
    assert Application.objects.get(pk=glarus.pk).decision_due == D(2000, 1, 1)

    out = StringIO()
    call_command("clocks_recompute", stdout=out)
    assert "Recomputed the decision clocks of 3 application(s) in " in out.getvalue()
    for application in (spencer, glarus, paused):
        stored_is_computed(application)
    assert Application.objects.get(pk=glarus.pk).decision_due == D(2026, 4, 13)


def test_the_daily_sweep_restores_the_clocks_of_a_village_whose_ordinance_data_changed(
    people, monkeypatch
):
    from siltfence.apps.permits import inputs
    from siltfence.apps.permits.models import Village
    from siltfence.apps.permits.stored_clocks import decision_clocks_refresh
    from siltfence.apps.reminders.sweep import daily_sweep

    spencer = filed(people, SPENCER, "1 Refresh St")
    glarus = filed(people, NEW_GLARUS, "2 Refresh St")
    decision_clocks_refresh()  # every village's clocks now say what they were made from
    assert decision_clocks_refresh() == []
    # New Glarus's data is edited (its digest changes); the stored days no longer hold.
    Application.objects.update(decision_due=D(2000, 1, 1), decision_clock={})
    real = inputs.ordinance_digest
    monkeypatch.setattr(
        "siltfence.apps.permits.stored_clocks.ordinance_digest",
        lambda v: real(v) + "-edited" if v == NEW_GLARUS else real(v),
    )
    daily_sweep(day=D(2026, 3, 10), as_of=at(D(2026, 3, 10)))
    assert Application.objects.get(pk=glarus.pk).decision_due == D(2026, 4, 13)
    assert Application.objects.get(pk=spencer.pk).decision_due == D(2000, 1, 1)
    assert Village.objects.get(pk=NEW_GLARUS).clocks_inputs == real(NEW_GLARUS) + "-edited"
    assert decision_clocks_refresh() == []


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--village", "springfield-wi"], "--village: no village 'springfield-wi'; known: "),
        (["--village", "x" * 10_000], "--village: no village 'xxx"),
        (["--jobs", "0"], "--jobs: "),
        (["--jobs", "65"], "--jobs: "),
    ],
)
def test_the_recompute_command_refuses_bad_options_naming_them(villages, args, says):
    with pytest.raises(CommandError, match=f"^{says}") as refused:
        call_command("clocks_recompute", *args)
    assert len(str(refused.value)) < 200


@pytest.mark.django_db(transaction=True)
def test_a_full_recompute_in_two_processes_stores_what_one_process_stores(people):
    made = [
        filed(people, village, f"{i} Jobs St")
        for i, village in enumerate([SPENCER, NEW_GLARUS, SPENCER, NEW_GLARUS, SPENCER])
    ]
    services.application_information_request(
        application=made[2], staff=people.staff[SPENCER], message="Stockpiles?", at=at(ASKED)
    )
    stored = dict(Application.objects.values_list("pk", "decision_clock"))
    due = dict(Application.objects.values_list("pk", "decision_due"))
    Application.objects.update(decision_due=None, decision_clock={})

    # Chunks of two applications: three chunks shared by two processes on PostgreSQL.
    assert decision_clocks_recompute(jobs=2, chunk=2) == 5
    assert dict(Application.objects.values_list("pk", "decision_clock")) == stored
    assert dict(Application.objects.values_list("pk", "decision_due")) == due
    assert sorted(d for d in due.values() if d) == [D(2026, 4, 13)] * 2 + [D(2026, 4, 16)] * 2


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_stored_clock_of_applications_filed_before_it(people):
    running = filed(people, NEW_GLARUS, "1 Migration St")
    paused = filed(people, SPENCER, "2 Migration St")
    services.application_information_request(
        application=paused, staff=people.staff[SPENCER], message="Stockpiles?", at=at(ASKED)
    )
    decided = filed(people, SPENCER, "3 Migration St")
    services.application_approve(application=decided, staff=people.staff[SPENCER], at=at(APPROVED))
    draft = factories.make_application(
        applicant=people.applicant_a, village=SPENCER, state="draft", address="4 Migration St"
    )

    executor = MigrationExecutor(connection)
    executor.migrate([("permits", "0002_permit_stabilization_measures_and_added_conditions")])
    executor.loader.build_graph()
    executor.migrate([("permits", "0004_fill_decision_due")])
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert Application.objects.get(pk=running.pk).decision_due == D(2026, 4, 13)
    assert Application.objects.get(pk=paused.pk).decision_due is None
    assert Application.objects.get(pk=decided.pk).decision_clock["met_by"]["type"] == (
        "application_approved"
    )
    for application in (running, paused, decided):
        stored_is_computed(application)
    blank = Application.objects.get(pk=draft.pk)
    assert blank.decision_due is None and blank.decision_clock == {}
