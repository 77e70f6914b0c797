"""``POST /api/v1/duties``: a permit past its last day is expired, not in force.

§ 413-8E(1), § 135-7G: "Permits shall be valid for a period of 180 days ... from the date of
issuance." Issued Monday January 5, 2026: January 6 is day 1, January 31 day 26, February
28 day 54, March 31 day 85, April 30 day 115, May 31 day 146, June 30 day 176, Saturday July
4 day 180. A validity period is not a time to act, so its last day stays on the Saturday
and the holiday (gap 18): July 4 is the last day in both villages, July 5 the first day
with no permit.
"""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.django_db

EVENTS = [{"type": "permit_issued", "at": "2026-01-05"}]


def _permit(client, village: str, as_of: str) -> dict:
    response = client.post(
        "/api/v1/duties",
        data=json.dumps({"jurisdiction": village, "events": EVENTS, "as_of": as_of}),
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    return response.json()["permit"]


@pytest.mark.parametrize("village", ["spencer-wi", "new-glarus-wi"])
def test_a_permit_past_its_last_day_is_expired_in_the_api(client, village: str) -> None:
    on_the_last_day = _permit(client, village, "2026-07-04T23:00")
    assert on_the_last_day["expires"] == "2026-07-04"
    assert (on_the_last_day["status"], on_the_last_day["in_force"]) == ("in_force", True)
    the_day_after = _permit(client, village, "2026-07-05T08:00")
    assert the_day_after["expires"] == "2026-07-04"
    assert (the_day_after["status"], the_day_after["in_force"]) == ("expired", False)
