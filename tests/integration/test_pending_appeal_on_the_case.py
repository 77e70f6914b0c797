"""The case page says what a pending appeal does to the step appealed, and stops saying it
once the board has decided.

Neither chapter says whether an appeal holds the order appealed (§ 413-12, § 135-12; gap
25). § 413-10D: "The Building Inspector or the Zoning Board of Appeals upon appeal may
retract the stop-work order", which presumes the order was in effect until then. The
reading taken: a pending appeal holds nothing; the order stands and its waiting periods
run. Posted Wednesday July 1, 2026, the order's 10 days (§ 413-10B) end Saturday July 11:
revocation is lawful from Sunday July 12, appeal or no appeal.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from board_helpers import board_decides
from enforcement_helpers import at
from factories import SPENCER
from sitework import local, permit_issued

from siltfence.apps.appeals import services as appeals
from siltfence.apps.enforcement import services as s

pytestmark = pytest.mark.django_db

PENDING = (
    "While the appeal is pending, the step appealed stands: neither chapter says an appeal "
    "holds it, so it stays in effect until the Zoning Board of Appeals decides or it is "
    'retracted <span class="cite">§ 413-12A</span> (see the reading in the village\'s '
    "decision notes, gap 25)."
)


def test_a_pending_appeal_is_said_to_hold_nothing_until_the_board_decides(
    client: Any, people: Any
) -> None:
    staff = people.staff[SPENCER]
    permit = permit_issued(
        applicant=people.applicant_a,
        staff=staff,
        village=SPENCER,
        filed=local(2026, 6, 1, 9),
        approved=local(2026, 6, 3, 9),
    )
    case = s.violation_record(
        village=permit.village,
        recorded_by=staff,
        source="observation",
        description="No silt fence on the downslope side.",
        provision="§ 413-7B(5)(c)[3]",
        days_from=datetime.date(2026, 7, 1),
        at=at("2026-07-01", 9),
        permit=permit,
    ).case
    order = s.stop_work_order_post(
        case=case, staff=staff, at=at("2026-07-01", 10), grounds=["conditions-not-met"]
    )
    appeal = appeals.appeal_file(
        village=permit.village,
        filed_by=people.applicant_a,
        on=datetime.date(2026, 7, 2),
        appellant_name="Alex Schmid",
        standing="permittee",
        grounds="The fence was up; the photographs show the neighbouring lot.",
        action=order,
    )
    for user in (staff, people.applicant_a):
        client.force_login(user)
        page = client.get(f"/enforcement/cases/{case.pk}/").content.decode()
        assert appeal.number in page
        assert f'data-testid="appeal-pending">{PENDING}</span>' in page
        assert 'data-testid="order-in-force"' in page  # the order appealed stands
    # Its waiting periods run: revocation is lawful from July 12 with the appeal pending.
    assert s.lawful(case, "revoke_permit", at("2026-07-12", 9))["from"] == "2026-07-12"

    appeals.appeal_hearing_schedule(
        appeal=appeal,
        user=staff,
        hearing_at=at("2026-07-14", 18),
        notice_given_on=datetime.date(2026, 7, 6),
        notice_to="Alex Schmid; the Building Inspector",
        place="Village Hall",
    )
    decided = board_decides(
        appeal, at=at("2026-07-14", 20), decision="affirm", reasons="The order stands."
    )
    assert decided.status == "decided"
    for user in (staff, people.applicant_a):
        client.force_login(user)
        page = client.get(f"/enforcement/cases/{case.pk}/").content.decode()
        assert appeal.number in page
        assert 'data-testid="appeal-pending"' not in page
