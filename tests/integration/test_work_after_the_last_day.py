"""Work recorded in the site log after the permit's last day is work without a permit.

§ 413-8E(1), § 135-7G: "Permits shall be valid for a period of 180 days ... from the date of
issuance." § 413-8A: "No landowner or land user may commence a land disturbance or land
development activity subject to this chapter without receiving prior approval of a control
plan for the site and a permit from the Building Inspector"; § 135-7A says the same of a
responsible party and the Village Administrator. An expired permit is no permit.

Worked by hand: filed Wednesday October 1, 2025, approved and issued Friday October 3.
October 4 is day 1 of the 180, October 31 day 28, November 30 day 58, December 31 day 89,
January 31 day 120, February 28 day 148, March 31 day 179, April 1, 2026 day 180: the last
day (a validity period never moves, gap 18). An inspection logged at 16:00 on April 1 is
under the permit; work started at 08:00 on April 2 is not. The entry is kept (the record of
what happened is never refused), flagged on itself and on the permit page, and the
village's staff are told by email.
"""

from __future__ import annotations

import datetime

import pytest
from factories import NEW_GLARUS, SPENCER
from sitework import local, permit_issued

from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.outbox.models import Message
from siltfence.apps.permits.clocks import application_timeline
from siltfence.apps.sitelog.models import SiteLogEntry
from siltfence.apps.sitelog.services import site_log_record

pytestmark = pytest.mark.django_db
REQUIRED = {SPENCER: "§ 413-8A", NEW_GLARUS: "§ 135-7A"}


def _log(permit, user, kind: str, at: str, **data: str):
    return site_log_record(
        permit=permit,
        user=user,
        kind=kind,
        at=at,
        data=data,
        photos=[],
        client_token="",
        now=local(2026, 4, 20, 12),
    )


@pytest.mark.parametrize("village", [SPENCER, NEW_GLARUS])
def test_an_entry_dated_after_the_last_day_is_kept_and_flagged_as_work_without_a_permit(
    client, people, village: str
) -> None:
    staff = people.staff[village]
    permit = permit_issued(
        applicant=people.applicant_a,
        staff=staff,
        village=village,
        filed=local(2025, 10, 1, 9),
        approved=local(2025, 10, 3, 9),
    )
    assert (permit.issued_on, permit.expires_on) == (
        datetime.date(2025, 10, 3),
        datetime.date(2026, 4, 1),
    )
    within = _log(
        permit,
        people.applicant_a,
        "self_inspection",
        "2026-04-01T16:00",
        inspector="Pat Doe",
        phase="final grading",
    )
    after = _log(permit, people.applicant_a, "work_started", "2026-04-02T08:00")
    assert SiteLogEntry.objects.filter(permit=permit).count() == 2  # both kept

    # On the record: the entry of April 2 says so, the one of April 1 does not.
    records = {
        e.after["entry"]: e.after
        for e in AuditEvent.objects.filter(entity="permit", entity_id=permit.pk)
        if e.action.startswith("site_log_")
    }
    assert records[after.pk]["without_permit"] == {
        "day": "2026-04-02",
        "last_day": "2026-04-01",
        "citation": REQUIRED[village],
    }
    assert "without_permit" not in records[within.pk]

    # The village's staff are told, once, of the entry after the last day; the permittee
    # who wrote it is not.
    (told,) = Message.objects.filter(kind="without_permit")
    assert told.to_address == staff.email and told.permit_id == permit.pk
    assert told.subject == "Work recorded without a permit: 220 S Pacific St"
    assert (
        f"The site log of permit {permit.number} (220 S Pacific St) has an entry dated "
        "2026-04-02, after the permit's last day (2026-04-01). An expired permit is no "
        "permit: work on the site after that day is work without a permit."
    ) in told.body
    assert f"Section: {REQUIRED[village]}." in told.body

    # On the entry, in the site log.
    client.force_login(people.applicant_a)
    log = client.get(f"/permits/{permit.pk}/log/").content.decode()
    assert f'data-testid="without-permit-{after.pk}"' in log
    assert f'data-testid="without-permit-{within.pk}"' not in log
    assert "Work without a permit: dated after the permit's last day (April 1, 2026)" in log

    # On the permit page.
    client.force_login(staff)
    page = client.get(f"/permits/{permit.pk}/").content.decode()
    assert 'data-testid="work-without-permit"' in page
    assert "The permit's last day was April 1, 2026. An expired permit is no permit" in page
    assert f'<span class="cite">{REQUIRED[village]}</span>' in page
    assert f"/permits/{permit.pk}/log/#entry-{after.pk}" in page
    assert f"#entry-{within.pk}" not in page

    # The timeline names it too (the core's reading of § 413-8A, § 135-7A).
    notes = {n["id"]: n for n in application_timeline(permit.application).to_json()["notes"]}
    assert notes["work-without-permit"]["says"].startswith(
        "Work started on 2026-04-02 with no permit in force (its last day was 2026-04-01)"
    )


def test_an_entry_within_the_permit_s_period_is_not_flagged(client, people) -> None:
    permit = permit_issued(
        applicant=people.applicant_a,
        staff=people.staff[SPENCER],
        village=SPENCER,
        filed=local(2025, 10, 1, 9),
        approved=local(2025, 10, 3, 9),
    )
    # 23:59 on the last day, in the village's zone, is still under the permit.
    _log(permit, people.applicant_a, "work_started", "2026-04-01T23:59")
    assert not Message.objects.filter(kind="without_permit").exists()
    client.force_login(people.staff[SPENCER])
    page = client.get(f"/permits/{permit.pk}/").content.decode()
    assert 'data-testid="work-without-permit"' not in page
