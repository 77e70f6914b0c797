"""A stop-work order on the no-permit ground once the permit is gone, in both villages.

§ 413-10A(1): "A regulated land disturbing or land developing activity is being undertaken
without a permit"; § 135-11A(1): "Regulated land-disturbing construction activity is being
undertaken without a permit." A permit that expired, or was revoked (§ 413-10B, § 135-11B),
is no permit: work going on after it is work without a permit, and the order is posted on
that ground, citing it; the grounds that need a permit ("The conditions of the permit are
not being met") are refused, saying why.

Worked by hand:
- Expired: filed October 1, 2025, issued Friday October 3; valid 180 days, to Wednesday
  April 1, 2026 (October 4 is day 1, March 31 day 179). Work is found on May 1.
- Revoked, Spencer: order posted Wednesday July 1, 2026; the 10 days to comply end Saturday
  July 11, so revocation is lawful from Sunday July 12 (§ 413-10B), and is made then.
- Revoked, New Glarus: a violation of the permit's conditions found July 1 opens revocation
  that day with no order first (§ 135-11B); revoked July 2.
Compliance with the first order is recorded July 13; work is found again July 20.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from enforcement_helpers import at
from factories import NEW_GLARUS, SPENCER
from sitework import local, permit_issued

from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.services import ActionRefused

pytestmark = pytest.mark.django_db

NO_PERMIT = {
    SPENCER: (
        "§ 413-10A(1)",
        "A regulated land disturbing or land developing activity is being undertaken "
        "without a permit",
    ),
    NEW_GLARUS: (
        "§ 135-11A(1)",
        "Regulated land-disturbing construction activity is being undertaken without a permit",
    ),
}
CONDITIONS = {SPENCER: "§ 413-10A(3)", NEW_GLARUS: "§ 135-11A(3)"}


def _violation(people: Any, permit: Any, day: str) -> Any:
    return s.violation_record(
        village=permit.village,
        recorded_by=people.staff[permit.village_id],
        source="observation",
        description="Grading goes on; no silt fence on the downslope side.",
        provision="§ 413-7B(5)(c)[3]" if permit.village_id == SPENCER else "§ 135-11",
        days_from=datetime.date.fromisoformat(day),
        days_to=datetime.date.fromisoformat(day),
        at=at(day, 9),
        permit=permit,
    )


def _posted_on_the_no_permit_ground(people: Any, case: Any, village: str, day: str) -> Any:
    staff = people.staff[village]
    with pytest.raises(ActionRefused) as refused:
        s.stop_work_order_post(
            case=case, staff=staff, at=at(day, 10), grounds=["conditions-not-met"]
        )
    assert CONDITIONS[village] in str(refused.value)
    assert "needs a permit in force" in str(refused.value)
    order = s.stop_work_order_post(case=case, staff=staff, at=at(day, 10), grounds=["no-permit"])
    citation, says = NO_PERMIT[village]
    assert [(g["id"], g["citation"], g["says"]) for g in order.grounds] == [
        ("no-permit", citation, says)
    ]
    return order


@pytest.mark.parametrize("village", [SPENCER, NEW_GLARUS])
def test_after_the_permit_expired_the_order_is_posted_on_the_no_permit_ground(
    people: Any, village: str
) -> None:
    permit = permit_issued(
        applicant=people.applicant_a,
        staff=people.staff[village],
        village=village,
        filed=local(2025, 10, 1, 9),
        approved=local(2025, 10, 3, 9),
    )
    assert permit.expires_on == datetime.date(2026, 4, 1)
    case = _violation(people, permit, "2026-05-01").case
    _posted_on_the_no_permit_ground(people, case, village, "2026-05-01")
    permit.refresh_from_db()
    assert permit.status == "active"  # nobody closed it: its period ran out


@pytest.mark.parametrize("village", [SPENCER, NEW_GLARUS])
def test_after_the_permit_was_revoked_the_order_is_posted_on_the_no_permit_ground(
    people: Any, village: str
) -> None:
    staff = people.staff[village]
    permit = permit_issued(
        applicant=people.applicant_a,
        staff=staff,
        village=village,
        filed=local(2026, 6, 1, 9),
        approved=local(2026, 6, 3, 9),
    )
    case = _violation(people, permit, "2026-07-01").case
    if village == SPENCER:
        s.stop_work_order_post(
            case=case, staff=staff, at=at("2026-07-01", 10), grounds=["conditions-not-met"]
        )
        revoked = s.permit_revoke(
            case=case, staff=staff, at=at("2026-07-12", 9), reasons="Did not comply."
        )
        s.compliance_record(case=case, staff=staff, at=at("2026-07-13", 9), note="Stopped.")
    else:
        revoked = s.permit_revoke(
            case=case, staff=staff, at=at("2026-07-02", 9), reasons="Plan not followed."
        )
    assert revoked.citation == {SPENCER: "§ 413-10B", NEW_GLARUS: "§ 135-11B"}[village]
    permit.refresh_from_db()
    assert permit.status == "revoked"
    again = _violation(people, permit, "2026-07-20").case
    assert again.pk == case.pk
    _posted_on_the_no_permit_ground(people, case, village, "2026-07-20")
