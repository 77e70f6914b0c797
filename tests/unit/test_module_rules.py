"""The layout rules a newcomer can rely on (decision 51), read from the source with ``ast``:

- no two apps import each other, at the top of a module or inside a function: each pair
  of apps has one direction, so an app can be read with only what is below it in mind;
- ``siltfence.presentation`` (what the pages of several apps share) imports no app;
- a module imports a private name (one beginning with ``_``) only from a module of its own
  folder: what another folder uses is public, and says so by its name;
- no source file is over 800 lines, migrations aside;
- a page reads through selectors: no module of views (``views.py``, ``*_views.py``) reaches
  a model's manager (``Model.objects``) itself.

Each rule has a test that runs its scanner on a few lines written for it, so a scanner
that found nothing because it looked at nothing would fail.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "src" / "siltfence"
LINE_LIMIT = 800


def _sources(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if "migrations" not in p.parts)


def _imported_modules(tree: ast.AST) -> list[tuple[int, str, list[str]]]:
    """(line, module, names) of every absolute import of siltfence in the tree."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] == "siltfence":
                found.append((node.lineno, node.module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "siltfence":
                    found.append((node.lineno, alias.name, []))
    return found


def _unit(module: str) -> str | None:
    """The app (``apps.permits``) or top-level package (``presentation``) of a module."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[1] == "apps":
        return f"apps.{parts[2]}"
    if len(parts) >= 2 and parts[1] != "apps":
        return parts[1]
    return None


def _module_of(path: Path, package: Path) -> str:
    return ".".join(("siltfence", *path.relative_to(package).with_suffix("").parts))


def import_graph(package: Path) -> dict[tuple[str, str], list[str]]:
    """(importing unit, imported unit) -> where, for every import between two units."""
    edges: dict[tuple[str, str], list[str]] = defaultdict(list)
    for path in _sources(package):
        me = _unit(_module_of(path, package))
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, module, _names in _imported_modules(tree):
            other = _unit(module)
            if me and other and other != me:
                edges[(me, other)].append(f"{path.relative_to(package)}:{line} imports {module}")
    return edges


def mutual_imports(package: Path) -> list[str]:
    edges = import_graph(package)
    found = []
    for (a, b), where in sorted(edges.items()):
        if a < b and (b, a) in edges:
            found.append(f"{a} and {b} import each other: {where[0]}; {edges[(b, a)][0]}")
    return found


def presentation_imports_of_apps(package: Path) -> list[str]:
    edges = import_graph(package)
    return [
        where[0]
        for (a, b), where in sorted(edges.items())
        if a == "presentation" and b.startswith("apps.")
    ]


def private_imports(package: Path) -> list[str]:
    """Imports of a ``_name`` from a module of another folder."""
    found = []
    for path in _sources(package):
        here = _module_of(path, package).rsplit(".", 1)[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, module, names in _imported_modules(tree):
            folder = module.rsplit(".", 1)[0]
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            if private and folder != here and module != here:
                where = path.relative_to(package)
                found.append(f"{where}:{line} imports {', '.join(private)} from {module}")
    return found


def long_files(package: Path) -> list[str]:
    found = []
    for path in _sources(package):
        lines = path.read_text(encoding="utf-8").count("\n")
        if lines > LINE_LIMIT:
            found.append(f"{path.relative_to(package)}: {lines} lines")
    return found


def manager_reads_in_views(package: Path) -> list[str]:
    """``X.objects`` in a module of views: a read (or write) that belongs in a selector."""
    found = []
    for path in _sources(package / "apps"):
        if path.name != "views.py" and not path.name.endswith("_views.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "objects":
                found.append(f"{path.relative_to(package)}:{node.lineno}")
    return found


def _write(root: Path, files: dict[str, str]) -> Path:
    package = root / "siltfence"
    for name, text in files.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return package


# The scanners, on lines written for them.


def test_two_apps_importing_each_other_are_found_even_inside_a_function(tmp_path: Path) -> None:
    package = _write(
        tmp_path,
        {
            "apps/rain/jobs.py": "def run():\n    from siltfence.apps.duties.services import x\n",
            "apps/duties/services.py": "from siltfence.apps.rain.models import RainDay\n",
            "apps/permits/models.py": "from siltfence.apps.accounts.models import Role\n",
            "apps/accounts/models.py": "import siltfence.core.dates\n",
        },
    )
    found = mutual_imports(package)
    assert len(found) == 1 and "apps.duties and apps.rain" in found[0], found


def test_presentation_importing_an_app_is_found(tmp_path: Path) -> None:
    package = _write(
        tmp_path,
        {
            "presentation/tables.py": (
                "def f():\n    from siltfence.apps.accounts.models import village_today\n"
            ),
            "presentation/labels.py": "from siltfence.core.dates import read_date\n",
        },
    )
    found = presentation_imports_of_apps(package)
    assert len(found) == 1 and "presentation/tables.py:2" in found[0], found


def test_a_private_name_from_another_folder_is_found_but_not_from_its_own(
    tmp_path: Path,
) -> None:
    package = _write(
        tmp_path,
        {
            "apps/payments/services.py": (
                "from siltfence.apps.permits.services.common import _ordinance, public\n"
            ),
            "apps/permits/services/review.py": (
                "from siltfence.apps.permits.services.common import _clock_cite\n"
            ),
            "apps/permits/services/__init__.py": (
                "from siltfence.apps.permits.services.review import _added\n"
            ),
            "apps/appeals/views.py": "from siltfence.apps.enforcement.views import _aware\n",
        },
    )
    found = private_imports(package)
    assert sorted(f.split(":")[0] for f in found) == [
        "apps/appeals/views.py",
        "apps/payments/services.py",
    ], found


def test_a_long_file_is_found(tmp_path: Path) -> None:
    package = _write(
        tmp_path,
        {
            "apps/a/views.py": "x = 1\n" * (LINE_LIMIT + 1),
            "apps/a/forms.py": "x = 1\n" * LINE_LIMIT,
            "apps/a/migrations/0001_initial.py": "x = 1\n" * 2000,
        },
    )
    assert long_files(package) == [f"apps/a/views.py: {LINE_LIMIT + 1} lines"]


def test_a_manager_read_in_a_view_is_found_but_not_in_a_selector(tmp_path: Path) -> None:
    package = _write(
        tmp_path,
        {
            "apps/a/views.py": "def page(r):\n    return Permit.objects.all()\n",
            "apps/a/staff_views.py": "rows = Permit.objects.filter(x=1)\n",
            "apps/a/selectors.py": "def rows():\n    return Permit.objects.all()\n",
            "apps/a/reviews.py": "n = Permit.objects.count()\n",
        },
    )
    assert manager_reads_in_views(package) == ["apps/a/staff_views.py:1", "apps/a/views.py:2"]


# The rules, on the source.


def test_the_scan_reads_every_app() -> None:
    units = {a for a, _b in import_graph(PACKAGE)} | {b for _a, b in import_graph(PACKAGE)}
    apps = {f"apps.{p.name}" for p in (PACKAGE / "apps").iterdir() if (p / "apps.py").exists()}
    assert len(apps) >= 15
    assert apps <= units, apps - units


def test_no_two_apps_import_each_other() -> None:
    found = mutual_imports(PACKAGE)
    assert not found, "\n".join(found)


def test_presentation_imports_no_app() -> None:
    found = presentation_imports_of_apps(PACKAGE)
    assert not found, "\n".join(found)


def test_no_module_imports_a_private_name_of_another_folder() -> None:
    found = private_imports(PACKAGE)
    assert not found, "\n".join(found)


def test_no_source_file_is_over_800_lines() -> None:
    found = long_files(PACKAGE)
    assert not found, "\n".join(found)


def test_no_view_reads_a_model_but_through_a_selector() -> None:
    found = manager_reads_in_views(PACKAGE)
    assert not found, "\n".join(found)
