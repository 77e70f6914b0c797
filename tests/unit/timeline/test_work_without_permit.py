"""Work on a site with no permit: the timeline names the violation, not a permittee's duties.

§ 413-8A: "No landowner or land user may commence a land disturbance or land development
activity subject to this chapter without receiving prior approval of a control plan for
the site and a permit from the Building Inspector." § 135-7A: "No responsible party may
commence a land-disturbing construction activity subject to this chapter without receiving
prior approval of an erosion and sediment control plan for the site and a permit from the
Village Administrator." The notices and inspections of § 413-8E(3) and § 135-7E are what
"All permits shall require the permittee [responsible party] to" do: with no permit, none
is owed. Spencer's § 413-11B binds every site and is cited with the violation.

A permit issued Friday October 3, 2025 is valid 180 days: October 4 is day 1, October 31
day 28, November 30 day 58, December 31 day 89, January 31 day 120, February 28 day 148,
March 31 day 179, April 1, 2026 day 180, its last day (it never moves, gap 18).
"""

from __future__ import annotations

import pytest

from .helpers import ev, run

SPENCER, NEW_GLARUS = "spencer-wi", "new-glarus-wi"

REQUIRED = {
    SPENCER: (
        "§ 413-8A: No landowner or land user may commence a land disturbance or land "
        "development activity subject to this chapter without receiving prior approval of a "
        "control plan for the site and a permit from the Building Inspector"
    ),
    NEW_GLARUS: (
        "§ 135-7A: No responsible party may commence a land-disturbing construction activity "
        "subject to this chapter without receiving prior approval of an erosion and sediment "
        "control plan for the site and a permit from the Village Administrator"
    ),
}
CITED = {SPENCER: ["§ 413-8A", "§ 413-11B"], NEW_GLARUS: ["§ 135-7A"]}
BINDS_A_PERMITTEE = (
    "The permit's conditions bind a permittee only; what binds every site still does"
)


def _note(result: dict, id: str) -> dict:
    (found,) = [n for n in result["notes"] if n["id"] == id]
    return found


@pytest.mark.parametrize("village", [SPENCER, NEW_GLARUS])
def test_work_started_with_no_permit_is_named_and_owes_no_permittee_duty(village: str):
    result = run(
        village,
        [
            ev("work_started", "2026-06-01T07:00"),
            ev("measure_installed", "2026-06-02T08:00", measure="SF-1"),
            ev("rain", "2026-06-10", inches=1.0, runoff=True),
        ],
        "2026-07-01T12:00",
    )
    note = _note(result, "work-without-permit")
    assert note["says"] == (
        f"Work started on 2026-06-01 with no permit issued yet: work without a permit "
        f"({REQUIRED[village]}). {BINDS_A_PERMITTEE}"
    )
    assert note["citations"] == CITED[village]
    # No start notice, completion notice, weekly inspection or inspection after the rain of
    # June 10: nothing is owed as a condition of a permit that does not exist.
    assert result["permit"] is None
    assert result["duties"] == []
    assert result["allowed_actions"] == []
    rain = _note(result, "rain-without-permit")
    assert rain["says"].startswith("A rain of 1 in (25.4 mm) on 2026-06-10 fell while no permit")


@pytest.mark.parametrize("village", [SPENCER, NEW_GLARUS])
def test_work_started_the_day_after_the_permit_s_last_day_is_work_without_a_permit(
    village: str,
):
    result = run(
        village,
        [ev("permit_issued", "2025-10-03"), ev("work_started", "2026-04-02T08:00")],
        "2026-04-20T12:00",
    )
    assert (result["permit"]["expires"], result["permit"]["status"]) == ("2026-04-01", "expired")
    note = _note(result, "work-without-permit")
    assert note["says"].startswith(
        "Work started on 2026-04-02 with no permit in force (its last day was 2026-04-01): "
        f"work without a permit ({REQUIRED[village]})"
    )
    kinds = {d["kind"] for d in result["duties"]}
    assert kinds.isdisjoint({"start_notice", "weekly_inspection", "rain_inspection"})
