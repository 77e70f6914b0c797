"""The core is pure Python: it never imports Django, and it never reads the clock
(DESIGN.md, Architecture: "core uses nothing of theirs"; "It never calls today()")."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import siltfence.core

CORE = Path(siltfence.core.__file__).resolve().parent

IMPORT_EVERYTHING = textwrap.dedent(
    """
    import importlib
    import pkgutil
    import sys

    import siltfence.core

    names = ["siltfence.core"]
    for module in pkgutil.walk_packages(siltfence.core.__path__, "siltfence.core."):
        importlib.import_module(module.name)
        names.append(module.name)
    print(len(names))
    print("\\n".join(names))
    leaked = sorted(m for m in sys.modules if m == "django" or m.startswith("django."))
    assert not leaked, f"siltfence.core imported Django: {leaked[:5]}"
    """
)

CLOCK_CALLS = re.compile(
    r"\bdate\.today\(|\bdatetime\.now\(|\bdatetime\.today\(|\bdatetime\.utcnow\(|\btimezone\.now\("
)


def test_importing_every_core_module_in_a_fresh_python_never_imports_django() -> None:
    env_free_of_django = {"PYTHONDONTWRITEBYTECODE": "1", "PATH": "/usr/bin:/bin"}
    completed = subprocess.run(
        [sys.executable, "-c", IMPORT_EVERYTHING],
        capture_output=True,
        text=True,
        timeout=120,
        env=env_free_of_django,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    count, *names = completed.stdout.split()
    assert int(count) == len(names)
    # The walk really reached the subpackages, not only the top.
    assert "siltfence.core.rules.determine" in names
    assert "siltfence.core.ordinance.loader" in names


def test_the_core_source_never_reads_the_clock() -> None:
    offenders = []
    sources = sorted(CORE.rglob("*.py"))
    assert sources
    for path in sources:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if CLOCK_CALLS.search(line):
                offenders.append(f"{path.relative_to(CORE.parent)}:{number}: {line.strip()}")
    assert not offenders, "the core reads the clock:\n" + "\n".join(offenders)
