"""Golden snapshots of the permit and the disapproval letter (holidays' snapshots/ habit).

The text is laid out from fixed records, so any change to the wording or the conditions
shows in review as a diff of the snapshot. Regenerate on purpose with
SILTFENCE_UPDATE_SNAPSHOTS=1 and read the diff before committing.
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from siltfence.apps.documents.pdf import lines_to_pdf
from siltfence.apps.documents.text import disapproval_lines, permit_lines
from siltfence.core.ordinance.loader import load

SNAPSHOTS = Path(__file__).parent / "snapshots"
UTC = datetime.UTC


class _Parties:
    def __init__(self, name: str) -> None:
        self.name = name

    def filter(self, **_: object) -> _Parties:
        return self

    def first(self) -> SimpleNamespace:
        return SimpleNamespace(name=self.name)


class _Rows:
    def __init__(self, rows: list) -> None:
        self.rows = rows

    def all(self) -> list:
        return self.rows


def _application(
    village: str, plan: dict, requirements: list, reasons: str = ""
) -> SimpleNamespace:
    return SimpleNamespace(
        number="SW-2026-0007",
        village_id=village,
        site=SimpleNamespace(address="220 S Pacific St", parcel_number="031-1040"),
        received_at=datetime.datetime(2026, 5, 1, 15, tzinfo=UTC),
        decided_at=datetime.datetime(2026, 5, 20, 15, tzinfo=UTC),
        plan_kind=plan["kind"],
        determination={"plan": plan, "requirements": requirements},
        decision_reasons=reasons,
        parties=_Parties("Alex Schmid"),
    )


def _check(name: str, lines: list[str]) -> None:
    text = "\n".join(lines) + "\n"
    path = SNAPSHOTS / name
    if os.environ.get("SILTFENCE_UPDATE_SNAPSHOTS") == "1":
        path.write_text(text)
    assert path.exists(), f"no snapshot {path.name}; run with SILTFENCE_UPDATE_SNAPSHOTS=1"
    assert text == path.read_text()


@pytest.mark.parametrize("village", ["spencer-wi", "new-glarus-wi"])
def test_the_permit_states_every_condition_the_ordinance_attaches(village):
    ordinance = load(village)
    plan = {"kind": "control_plan_statement", "citation": "§ 413-8C"}
    if village == "new-glarus-wi":
        plan = {"kind": "erosion_and_sediment_control_plan", "citation": "§ 135-8A"}
    application = _application(
        village,
        plan,
        [{"says": "Every storm drain inlet must be protected", "citation": "§ 413-7B(4)"}],
    )
    permit = SimpleNamespace(
        number="PSW-2026-0003",
        issued_on=datetime.date(2026, 5, 20),
        expires_on=datetime.date(2026, 11, 16),
        added_conditions=[],
        extensions=_Rows([]),
        sureties=_Rows([]),
    )
    lines = permit_lines(ordinance=ordinance, permit=permit, application=application)
    _check(f"permit-{village}.txt", lines)
    # Spencer 8E(3)(a)-(i) is nine conditions; New Glarus 7E(1)-(8) is eight.
    conditions = [
        line for line in lines if line.startswith("- ") and ("8E(3)" in line or "7E(" in line)
    ]
    assert len(conditions) == (9 if village == "spencer-wi" else 8)
    # § 413-8E(3)(i), § 135-7E(8): a copy of the plan is kept on the site; nothing in either
    # chapter asks that the permit itself be kept there.
    text = "\n".join(lines)
    assert "Keep this permit" not in text
    # § 413-8A, § 135-7B: "By submitting an application, the applicant is authorizing ... to
    # enter the site"; the permit says so, with the section.
    cite = "§ 413-8A" if village == "spencer-wi" else "§ 135-7B"
    assert "to enter the site to obtain information required for" in text
    assert f"[{cite}]" in text
    assert ("Keep a copy of the control plan on the site [§ 413-8E(3)(i)]" in text) is (
        village == "spencer-wi"
    )
    assert lines_to_pdf(lines, title="permit").startswith(b"%PDF-")


@pytest.mark.parametrize("village", ["spencer-wi", "new-glarus-wi"])
def test_the_disapproval_letter_gives_the_reasons_and_the_right_of_appeal(village):
    ordinance = load(village)
    application = _application(
        village,
        {"kind": "control_plan", "citation": "§ 413-8B"},
        [],
        reasons="The plan shows no inlet protection for the two street inlets.",
    )
    lines = disapproval_lines(ordinance=ordinance, application=application)
    _check(f"disapproval-{village}.txt", lines)
    text = "\n".join(lines)
    assert "The plan shows no inlet protection" in text
    if village == "spencer-wi":
        assert "applicant, permittee, landowner, land user [§ 413-12B]" in text
    else:
        assert "except cease-and-desist orders" in text and "[§ 135-12B]" in text


def test_a_new_glarus_permit_prints_the_conditions_the_administrator_added():
    # § 135-7F: "Permits issued under this section may include conditions established by
    # Village Administrator in addition to the requirements set forth in Subsection E".
    ordinance = load("new-glarus-wi")
    plan = {"kind": "erosion_and_sediment_control_plan", "citation": "§ 135-8A"}
    permit = SimpleNamespace(
        number="PNG-2026-0001",
        issued_on=datetime.date(2026, 5, 20),
        expires_on=datetime.date(2026, 11, 16),
        added_conditions=["Sweep Second Street daily while trucks haul fill"],
        extensions=_Rows([]),
        sureties=_Rows([]),
    )
    lines = permit_lines(
        ordinance=ordinance, permit=permit, application=_application("new-glarus-wi", plan, [])
    )
    heading = lines.index("CONDITIONS ADDED BY THE VILLAGE ADMINISTRATOR [§ 135-7F]:")
    assert lines[heading + 1] == "- Sweep Second Street daily while trucks haul fill"
