"""A permit's term, extensions and surety, as an independent reader of the texts wrote the
answers before seeing the code (§ 413-8E(1)-(2), § 135-7D, § 135-7G).

"Permits shall be valid for a period of 180 days, or the length of the building permit or
other construction authorizations, whichever is longer, from the date of issuance. The
[authority] may extend the period one or more times for up to an additional 180 days."
The day of issuance is not counted. The reader's cases are named by their ids.
"""

from __future__ import annotations

import pytest

from siltfence.core.errors import SiltfenceError

from .helpers import ev, notes, run

VILLAGES = ["spencer-wi", "new-glarus-wi"]
ISSUED = ev("permit_issued", "2026-05-01")


@pytest.mark.parametrize("village", VILLAGES)
@pytest.mark.parametrize(
    ("case", "events", "expires"),
    [
        # D-1: May 1 + 180 = Wed Oct 28.
        ("D-1", [ISSUED], "2026-10-28"),
        # D-2: the building permit runs to Mar 1, 2027, which is longer.
        (
            "D-2",
            [ev("permit_issued", "2026-05-01", building_permit_expires="2027-03-01")],
            "2027-03-01",
        ),
        # D-3: the building permit ends Aug 1, shorter than 180 days.
        (
            "D-3",
            [ev("permit_issued", "2026-05-01", building_permit_expires="2026-08-01")],
            "2026-10-28",
        ),
        # D-4: 90 days added to the period ending Oct 28, granted on its last day: Jan 26.
        ("D-4", [ISSUED, ev("permit_extended", "2026-10-28", days=90)], "2027-01-26"),
        # D-5: granted early, still added to the period, not counted from the grant.
        ("D-5", [ISSUED, ev("permit_extended", "2026-09-01", days=90)], "2027-01-26"),
        # D-8: exactly 180 days: Apr 26, 2027.
        ("D-8", [ISSUED, ev("permit_extended", "2026-10-28", days=180)], "2027-04-26"),
        # D-10: 60 days on the building permit's term (Mar 1, 2027): Apr 30.
        (
            "D-10",
            [
                ev("permit_issued", "2026-05-01", building_permit_expires="2027-03-01"),
                ev("permit_extended", "2027-02-15", days=60),
            ],
            "2027-04-30",
        ),
        # U-2, U-3: approved May 1 subject to a surety, deposited and issued May 14: the
        # period runs "from the date of issuance", to Nov 10 (not from the approval).
        (
            "U-2",
            [ev("application_approved", "2026-05-01"), ev("permit_issued", "2026-05-14")],
            "2026-11-10",
        ),
    ],
)
def test_the_permit_s_last_day(village, case, events, expires):
    assert run(village, events)["permit"]["expires"] == expires, case


@pytest.mark.parametrize("village", VILLAGES)
@pytest.mark.parametrize(
    ("case", "extension", "field"),
    [
        # D-6: asked the day after the last day: no period left to extend.
        ("D-6", ev("permit_extended", "2026-10-29", days=90), "events[1].at"),
        # D-7: 181 days is more than "up to an additional 180 days".
        ("D-7", ev("permit_extended", "2026-10-01", days=181), "events[1].days"),
    ],
)
def test_an_extension_the_text_does_not_allow_is_refused(village, case, extension, field):
    with pytest.raises(SiltfenceError) as refused:
        run(village, [ISSUED, extension])
    assert refused.value.field == field, case


@pytest.mark.parametrize("village", VILLAGES)
def test_d9_two_extensions_of_181_days_in_all_carry_the_other_reading(village):
    # The reader capped the total at 180 days (a DOUBT); the reading taken caps each
    # extension, and the answer says so with gap extension-total.
    result = run(
        village,
        [
            ISSUED,
            ev("permit_extended", "2026-10-20", days=90),
            ev("permit_extended", "2027-01-20", days=91),
        ],
    )
    assert result["permit"]["expires"] == "2027-04-27"
    assert "extension-total" in notes(result)


def test_d11_a_last_day_on_a_saturday_does_not_move_and_says_why():
    # Issued Mon May 4: the 180th day is Sat Oct 31. The reader moved New Glarus's to Mon
    # Nov 2 under its Ch. 1 rule, with a DOUBT on whether a validity period is "a time
    # within which an act is to be done"; the reading taken (gap permit-validity) does not
    # move it, in either village, and the answer says so.
    for village in VILLAGES:
        result = run(village, [ev("permit_issued", "2026-05-04")])
        assert result["permit"]["expires"] == "2026-10-31"
        assert "permit-validity" in notes(result)
