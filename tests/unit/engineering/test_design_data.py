"""The design checks read every village fact from the ordinance data (``rules.yaml``, ``design``
and the plans' contents): a check called without a village's data names no section, a
village whose data leaves a block out still gets an answer, and a mistake in the new data is
refused with the file, the key and the reason."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from siltfence.core.engineering.dewatering import check_dewatering
from siltfence.core.engineering.report import review_plan
from siltfence.core.errors import OrdinanceFileError
from siltfence.core.ordinance.loader import load, load_folder

from .spencer import DEWATERING

REPO = Path(__file__).resolve().parents[3]
ORDINANCES = REPO / "ordinances"
DESIGN = ORDINANCES / "spencer-wi/cases/design"


def edited(folder: Path, file: str, old: str, new: str) -> None:
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} should occur exactly once in {file}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def spencer_copy(root: Path, name: str = "spencer-wi") -> Path:
    folder = root / name
    shutil.copytree(ORDINANCES / "spencer-wi", folder, ignore=shutil.ignore_patterns("cases"))
    if name != "spencer-wi":
        edited(folder, "jurisdiction.yaml", "id: spencer-wi", f"id: {name}")
    return folder


def cut(folder: Path, file: str, start: str, end: str) -> None:
    """Remove the text from ``start`` up to (not including) ``end``."""
    path = folder / file
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: text.index(start)] + text[text.index(end) :], encoding="utf-8")


def refusal(folder: Path) -> OrdinanceFileError:
    with pytest.raises(OrdinanceFileError) as raised:
        load_folder(folder)
    return raised.value


@pytest.fixture
def third_village(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An ordinances folder holding a third village: Spencer's text under another id."""
    root = tmp_path / "ordinances"
    root.mkdir()
    folder = spencer_copy(root, "testville-wi")
    monkeypatch.setenv("SILTFENCE_ORDINANCES", str(root))
    monkeypatch.setenv("SILTFENCE_CACHE_DIR", str(tmp_path / "cache"))
    load.cache_clear()
    yield folder
    load.cache_clear()


def plan_for(jurisdiction: str, case: str = "stockpiles.json") -> dict:
    plan = json.loads((DESIGN / case).read_text(encoding="utf-8"))
    plan["jurisdiction"] = jurisdiction
    return plan


# -- the checks hold no village's citations -----------------------------------------------


def test_a_check_called_without_a_villages_data_cites_the_chapter_and_no_section():
    result = check_dewatering(**DEWATERING, highest_pumping_rate=100, shown_free_of_particles=True)
    text = json.dumps(result.to_dict(), ensure_ascii=False)
    assert result.citation == "the chapter"
    assert "§" not in text
    assert "Building Inspector" not in text
    assert "unless the authority decides otherwise" in result.says


# -- a third village: the same text, with blocks of the data left out ----------------------


def test_a_village_with_the_same_design_data_gets_the_same_citations(third_village: Path):
    answer = review_plan(plan_for("testville-wi")).to_dict()
    citations = {c["id"]: c["citation"] for c in answer["checks"]}
    # § 413-7B(5)(d), (c)[1] and (4): the rules on piles, inactive ground and inlets.
    assert citations["stockpile"] == "§ 413-7B(5)(d)"
    assert citations["stabilization"] == "§ 413-7B(5)(c)[1]"
    assert citations["inlet-protection"] == "§ 413-7B(4)"


def test_a_village_whose_data_names_no_design_rules_cites_where_its_numbers_come_from(
    third_village: Path,
):
    cut(third_village, "rules.yaml", "\n# The design checks", "\nclocks:")
    assert "design" not in load("testville-wi").rules
    answer = review_plan(plan_for("testville-wi")).to_dict()
    checks = {c["id"]: c for c in answer["checks"]}
    # The pile rules' numbers are in parameters.yaml, each citing § 413-7B(5)(d).
    assert checks["stockpile"]["citation"] == "§ 413-7B(5)(d)"
    assert any("sources cited (§ 413-7B(5)(d))" in n for n in checks["stockpile"]["notes"])
    # Inlet protection is a rule in words, and this data states none: asked for, not invented.
    assert checks["inlet-protection"]["result"] == "needs-action"
    assert "gives no inlet_protection_required" in checks["inlet-protection"]["says"]
    # Without the design block the chapter's rules are not limited to runoff leaving the site.
    kept = plan_for("testville-wi")
    kept["runoff_leaves_site"] = False
    piles = [c for c in review_plan(kept).to_dict()["checks"] if c["id"] == "stockpile"]
    assert piles and all("does not leave the site" not in c["says"] for c in piles)


def test_a_village_with_no_storm_table_asks_for_the_storms(third_village: Path):
    cut(third_village, "rules.yaml", "\ndesign_storms:", "\n# The design checks")
    answer = review_plan(plan_for("testville-wi", "sheet-flow.json")).to_dict()
    sheets = [c for c in answer["checks"] if c["id"] == "sheet-flow"]
    assert sheets and all(c["result"] == "needs-action" for c in sheets)
    assert all("gives no design_storms" in c["says"] for c in sheets)


def test_a_plan_content_item_without_an_id_is_ticked_under_an_id_made_from_its_citation(
    third_village: Path,
):
    edited(
        third_village,
        "rules.yaml",
        "citation: § 413-8B(1)(d), id: soils}",
        "citation: § 413-8B(1)(d)}",
    )
    plan = plan_for("testville-wi")
    plan.pop("contents", None)
    answer = review_plan(plan).to_dict()
    ids = [i["id"] for i in answer["checklist"]["items"]]
    assert "413_8b_1_d" in ids and "soils" not in ids


def test_a_feature_kind_the_plans_do_not_have_is_refused_naming_the_rules_key(
    third_village: Path,
):
    edited(third_village, "rules.yaml", "features: [stockpile]}", "features: [stockpiles]}")
    with pytest.raises(OrdinanceFileError) as raised:
        review_plan(plan_for("testville-wi"))
    assert raised.value.file == "testville-wi/rules.yaml"
    assert raised.value.key == "plans[0].contents[11].features[0]"
    assert "'stockpiles' is not a kind of site feature" in str(raised.value)


# -- the loader refuses mistakes in the new blocks ----------------------------------------


@pytest.mark.parametrize(
    ("file", "old", "new", "key", "reason"),
    [
        (
            "rules.yaml",
            "    tracking: § 413-7B(3)\n",
            "    tracking: § 413-7B(3)\n    silt-fence: § 413-7B(4)\n",
            "design.checks.silt-fence",
            "unknown key",
        ),
        (
            "rules.yaml",
            "runoff_leaving_site: § 413-7B(5)",
            "runoff_leaving_site: 413-7B(5)",
            "design.runoff_leaving_site",
            "is not a citation",
        ),
        (
            "rules.yaml",
            "    perimeter_fences:\n      value: true",
            "    perimeter_fences:\n      value: yes please",
            "design.stated.perimeter_fences.value",
            "expected true or false",
        ),
        (
            "rules.yaml",
            "    inlet_protection_required:\n",
            "    stockpile_setback:\n      value: true\n      citation: § 413-7B(4)\n"
            "      text: x\n    inlet_protection_required:\n",
            "design.stated.stockpile_setback",
            "unknown key",
        ),
        (
            "rules.yaml",
            "id: maintenance, plan_field: maintenance}",
            "id: maintenance, plan_field: upkeep}",
            "plans[0].contents[14].plan_field",
            "expected one of schedule, maintenance, description",
        ),
        (
            "rules.yaml",
            "id: maintenance, plan_field: maintenance}",
            "id: schedule, plan_field: maintenance}",
            "plans[0].contents[14].id",
            "'schedule' is used twice in this plan",
        ),
        (
            "rules.yaml",
            "id: soils}",
            "id: Soils}",
            "plans[0].contents[4].id",
            "lower_snake_case",
        ),
        (
            "jurisdiction.yaml",
            "  stands_in: true\n",
            "  stands_in: false\n",
            "time_counting.stands_in_for",
            "stands_in is false",
        ),
    ],
)
def test_a_mistake_in_the_design_data_is_refused_with_the_file_key_and_reason(
    tmp_path: Path, file: str, old: str, new: str, key: str, reason: str
):
    folder = spencer_copy(tmp_path)
    edited(folder, file, old, new)
    error = refusal(folder)
    assert error.file == f"spencer-wi/{file}"
    assert error.key == key
    assert reason in str(error)
