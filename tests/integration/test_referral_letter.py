"""The New Glarus request for a cease-and-desist order, as the app writes it from the record.

§ 135-11C: "if a responsible party violates a stop-work order posted under Subsection A".
Posting the order is not violating it: the referral is lawful once something recorded
shows the order disobeyed (decision 6), and the letter must say that, never that the
posting alone made it lawful.

Worked by hand: a permit issued June 3, 2026; a violation of its conditions found July 1;
the order posted July 1 at 10:00. Until work is found going on after it, no referral is
open (New Glarus sets no waiting period). Grading found going on Friday July 3, after the
order: the order was violated, and the referral is lawful from that day. It is asked for
on Monday July 6.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from enforcement_helpers import at
from factories import NEW_GLARUS
from season_helpers import case_document_text
from sitework import local, permit_issued

from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.documents import referral_lines
from siltfence.apps.enforcement.models import EnforcementAction
from siltfence.apps.enforcement.services import ActionRefused
from siltfence.core.ordinance.loader import load

pytestmark = pytest.mark.django_db


def _violation(people: Any, permit: Any, day: str, description: str) -> Any:
    return s.violation_record(
        village=permit.village,
        recorded_by=people.staff[NEW_GLARUS],
        source="observation",
        description=description,
        provision="§ 135-11",
        days_from=datetime.date.fromisoformat(day),
        days_to=datetime.date.fromisoformat(day),
        at=at(day, 9),
        permit=permit,
    )


def test_the_referral_letter_rests_on_the_order_disobeyed_not_on_its_posting(people) -> None:
    staff = people.staff[NEW_GLARUS]
    permit = permit_issued(
        applicant=people.applicant_a,
        staff=staff,
        village=NEW_GLARUS,
        filed=local(2026, 6, 1, 9),
        approved=local(2026, 6, 3, 9),
    )
    case = _violation(people, permit, "2026-07-01", "Storm inlet on Park St not protected.").case
    s.stop_work_order_post(
        case=case, staff=staff, at=at("2026-07-01", 10), grounds=["conditions-not-met"]
    )
    with pytest.raises(ActionRefused, match="not open in this case"):
        s.cease_and_desist_refer(case=case, staff=staff, at=at("2026-07-02", 9))
    _violation(people, permit, "2026-07-03", "Grading going on after the order was posted.")
    s.cease_and_desist_refer(case=case, staff=staff, at=at("2026-07-06", 9))

    action = EnforcementAction.objects.get(case=case, kind="cease_and_desist_referral")
    assert (action.citation, action.details["lawful_from"]) == ("§ 135-11C", "2026-07-03")
    lines = referral_lines(ordinance=load(NEW_GLARUS), case=case, action=action)
    (lawful,) = [line for line in lines if line.startswith("Lawful from")]
    assert lawful.startswith("Lawful from July 3, 2026: violation 2026-07-03; ")
    assert "If a responsible party violates a stop-work order posted under § 135-11A" in lawful
    assert "stop work order posted" not in lawful  # not the posting alone
    # The letter the village sends (the stored PDF) says the same.
    letter = case_document_text(case, "cease_and_desist_referral")
    assert "Lawful from July 3, 2026: violation 2026-07-03;" in letter
    assert "Lawful from July 1, 2026" not in letter
    assert "stop work order posted 2026-07-01." not in letter
    assert "Grading going on after the order was posted." in letter
