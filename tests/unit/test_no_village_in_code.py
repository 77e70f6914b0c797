"""No village's facts in the code: a new village needs a data folder, not code.

Why this test exists. DESIGN.md: "Adding another Wisconsin village's chapter is a data file,
not code." A village's facts (its section numbers, its citations, its jurisdiction id) live
in ``ordinances/<id>/``, each dated and cited. Once one is written into ``src/`` the code
answers for that village and is quietly wrong for the next: a third village's plan would
be checked against Spencer's "§ 413-7B(1)", or a rule would run only when the id is
"spencer-wi". This test fails as soon as such a fact is written into code, so it is moved
to the data (and the schema in ``siltfence.core.ordinance.loader``) instead.

What it reads: every ``.py`` file under ``src/`` and ``tools/``, and every template. What it
looks for: a section number (``§`` then a digit: "§ 413-7B(1)", "§§ 135-9") and the id of
any folder under ``ordinances/`` that holds a ``jurisdiction.yaml``, read when the test runs.

What it leaves alone:

- comments and docstrings, which may quote and cite the law the code encodes (STYLE.md:
  the law's text next to the code). Python source is read with ``ast``: comments never reach
  the tree, a docstring is the string that is the first statement of a module, class or
  function, and implicitly joined literals (a citation split over two lines) are one string.
  Template comments (``{# #}``, ``{% comment %}``) are left out;
- the demo loader (``tools/demo/`` and its entry ``tools/demo_load.py``), which loads the
  two demo villages and names them on purpose;
- citations of Wisconsin statutes and administrative code ("§ 66.0703 Wis. Stats.",
  "NR 216.42 Wis. Adm. Code"). State law binds every village alike, so code may cite it;
  the state's legal holidays and counting rules are data all the same, in
  ``ordinances/_states/<state>/`` (``test_no_state_law_in_code.py``). A statute number
  always has a dot (990.001), a village section a hyphen (413-7), so one is not taken for
  the other.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SRC = REPO / "src"
TOOLS = REPO / "tools"
DEMO = (TOOLS / "demo", TOOLS / "demo_load.py")
ORDINANCES = REPO / "ordinances"

SECTION = re.compile(r"§+\s*\d[\w.()\[\]-]*")
STATE_LAW = re.compile(r"§§?\s*\d+\.\d+[^§]*?Wis\.\s*(?:Stats?\.|Adm\.\s*Code)")
TEMPLATE_COMMENT = re.compile(r"\{#.*?#\}|\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}", re.S)


def jurisdiction_ids() -> list[str]:
    return sorted(p.name for p in ORDINANCES.iterdir() if (p / "jurisdiction.yaml").is_file())


def python_strings(source: str) -> list[tuple[int, str]]:
    """Each string literal outside docstrings, with its line, in order (an f-string with
    ``{}`` where its values go)."""
    tree = ast.parse(source)
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skip.add(id(first.value))
        if isinstance(node, ast.JoinedStr):
            skip.update(id(part) for part in ast.walk(node) if part is not node)
    pieces: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.JoinedStr):
            text = "".join(
                str(part.value) if isinstance(part, ast.Constant) else "{}" for part in node.values
            )
            pieces.append((node.lineno, text))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            pieces.append((node.lineno, node.value))
    return sorted(pieces)


def template_lines(text: str) -> list[tuple[int, str]]:
    """Each line of a template with its comments blanked (line numbers kept)."""
    kept = TEMPLATE_COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    return list(enumerate(kept.splitlines(), start=1))


def village_facts(text: str, ids: list[str]) -> list[str]:
    """The section numbers and jurisdiction ids in ``text``, state-law citations aside."""
    found = [m.group(0) for m in SECTION.finditer(STATE_LAW.sub("", text))]
    for ident in ids:
        if re.search(rf"(?<![\w-]){re.escape(ident)}(?![\w-])", text):
            found.append(ident)
    return found


def findings(root: Path, ids: list[str]) -> list[str]:
    found = []
    for path in sorted(root.rglob("*")):
        if not path.is_file() or any(path.is_relative_to(demo) for demo in DEMO):
            continue
        if path.suffix == ".py":
            pieces = python_strings(path.read_text(encoding="utf-8"))
        elif "templates" in path.parts and path.suffix in (".html", ".txt"):
            pieces = template_lines(path.read_text(encoding="utf-8"))
        else:
            continue
        for line, text in pieces:
            for fact in village_facts(text, ids):
                found.append(f"{path.relative_to(root.parent)}:{line}: {fact!r} in {text[:80]!r}")
    return found


def test_no_section_number_or_jurisdiction_id_is_written_in_the_code():
    ids = jurisdiction_ids()
    assert ids, "no jurisdiction folder found under ordinances/"
    found = findings(SRC, ids) + findings(TOOLS, ids)
    assert not found, (
        "A village's facts belong in ordinances/<id>/ (read through the loader), not in code. "
        "Move each of these into the data, or into a comment or docstring if it only "
        "explains:\n" + "\n".join(found)
    )


# -- the scan itself, on sources written here ----------------------------------------------


def test_the_scan_finds_a_section_or_an_id_in_a_string_of_code(tmp_path: Path):
    (tmp_path / "rule.py").write_text(
        'CITATION = "§ 413-7B(1)"\n'
        'def f(village):\n    return village == "spencer-wi"\n'
        'WHERE = (f"(§ {1}-5)", "see §§ " "135-9")\n',
        encoding="utf-8",
    )
    found = findings(tmp_path, ["spencer-wi"])
    assert [f.split(":")[1] for f in found] == ["1", "3", "4"]


def test_the_scan_leaves_comments_docstrings_and_state_law_alone(tmp_path: Path):
    (tmp_path / "rule.py").write_text(
        '"""Spencer § 413-7B(1), spencer-wi."""\n'
        "# § 135-13 and new-glarus-wi\n"
        "class Rule:\n"
        '    """§ 413-4."""\n'
        '    CITATION = "§ 990.001(4)(a), (b), " "(c) Wis. Stats."\n'
        '    CODE = "§ NR 216.42 Wis. Adm. Code; § 66.0703 Wis. Stats."\n'
        '    CHAPTER = f"§ {CITATION}-5"\n'
        '    SPENCER_ISH = "spencer-wide"\n',
        encoding="utf-8",
    )
    assert findings(tmp_path, ["spencer-wi", "new-glarus-wi"]) == []


def test_the_scan_reads_templates_but_not_their_comments(tmp_path: Path):
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "page.html").write_text(
        "{# Spencer § 413-8D #}\n{% comment %}\nnew-glarus-wi\n{% endcomment %}\n"
        "<p>§ {{ section.number }}</p>\n<p>open (§ 135-13)</p>\n",
        encoding="utf-8",
    )
    found = findings(tmp_path, ["new-glarus-wi"])
    assert len(found) == 1 and found[0].endswith("'<p>open (§ 135-13)</p>'")
    assert ":6:" in found[0]
