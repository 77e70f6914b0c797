"""No app imports the web app: what pages of several apps share is in
``siltfence.presentation``, below every app (docs/decisions/0048-shared-page-helpers.md).

``web`` holds the public pages, the applicant's portal and the staff's pages for
applications and permits; it may import the other apps, never the other way round. The
test reads every ``.py`` file of every app but ``web``, of ``siltfence.presentation`` and of
``tools/`` with ``ast`` (so a comment or a docstring naming ``siltfence.apps.web`` is not an
import), and fails on any import of ``siltfence.apps.web`` or a module under it: ``import``,
``from ... import``, at the top of a module or inside a function.

What it leaves alone: the settings and the root URLs (``siltfence.config``), which name web
as an installed app, its middleware, its error views and its URLs, as they name every app.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
APPS = REPO / "src" / "siltfence" / "apps"
WEB = "siltfence.apps.web"


def _roots() -> list[Path]:
    apps = sorted(p for p in APPS.iterdir() if p.is_dir() and (p / "__init__.py").exists())
    return [p for p in apps if p.name != "web"] + [
        REPO / "src" / "siltfence" / "presentation",
        REPO / "tools",
    ]


def _imports_web(node: ast.AST) -> str | None:
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    else:
        return None
    for name in names:
        if name == WEB or name.startswith(WEB + "."):
            return name
    return None


def web_imports(roots: list[Path]) -> list[str]:
    found = []
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                name = _imports_web(node)
                if name is not None:
                    where = path.relative_to(REPO) if path.is_relative_to(REPO) else path
                    found.append(f"{where}:{node.lineno}: imports {name}")
    return found


def test_the_walk_reaches_every_app_but_web_and_the_tools() -> None:
    roots = _roots()
    names = {p.name for p in roots}
    assert "web" not in names
    assert {"accounts", "enforcement", "plans", "presentation", "tools"} <= names
    assert all(root.is_dir() for root in roots)


def test_an_import_of_web_is_found(tmp_path: Path) -> None:
    (tmp_path / "views.py").write_text(
        "def page():\n    from siltfence.apps.web.forms import ClosureForm\n", encoding="utf-8"
    )
    (tmp_path / "other.py").write_text(
        '"""Not siltfence.apps.web."""\nfrom siltfence.apps import web\n', encoding="utf-8"
    )
    found = web_imports([tmp_path])
    assert len(found) == 2, found


def test_no_app_and_no_tool_imports_web() -> None:
    found = web_imports(_roots())
    assert not found, (
        "import from siltfence.presentation (or the app's own module), not web:\n"
        + "\n".join(found)
    )
