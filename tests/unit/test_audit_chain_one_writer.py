"""The audit chain has one writer: the audit app (``event_record``, ``append_many``).

Code outside ``siltfence/apps/audit/`` (the other apps, the command line, the tools, the
benchmarks) appends through those two functions and reads the head with ``chain_head``:
it imports no private name of the chain (the hashing of an event is the chain's own, and
one copy of it is what ``chain_verify`` checks against), never names the head's row, and
never inserts an audit row itself. The tests may: they tamper with the chain on purpose.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
AUDIT_APP = REPO / "src/siltfence/apps/audit"
ROOTS = (REPO / "src", REPO / "tools", REPO / "bench")
CHAIN = "siltfence.apps.audit.chain"
# ``audit.chain._digest``, ``chain._hashed_fields`` after ``from ... import chain``
PRIVATE_ATTRIBUTE = re.compile(r"\b(?:audit\.)?chain\._\w")
# The head's row, a new audit row, or the chain's tables in SQL: the audit app's alone.
ROW_WRITES = re.compile(
    r"\bChainHead\b|\bAuditEvent\(|AuditEvent\.objects\.(?:create|bulk_create|update)\b"
    r"|Table\(AuditEvent\)|\baudit_(?:chainhead|auditevent)\b"
)


def chain_breaches(path: Path, source: str) -> list[str]:
    """What ``source`` (the file ``path``, outside the audit app) does that only the chain's
    own code may do."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == CHAIN:
            found += [
                f"{path}:{node.lineno}: imports {alias.name} from {CHAIN}"
                for alias in node.names
                if alias.name.startswith("_")
            ]
    for number, line in enumerate(source.splitlines(), start=1):
        if PRIVATE_ATTRIBUTE.search(line):
            found.append(f"{path}:{number}: reads a private name of the chain: {line.strip()}")
        if ROW_WRITES.search(line):
            found.append(f"{path}:{number}: reaches the chain's rows itself: {line.strip()}")
    return found


def _sources() -> list[Path]:
    return sorted(
        path
        for root in ROOTS
        if root.is_dir()
        for path in root.rglob("*.py")
        if not path.is_relative_to(AUDIT_APP)
    )


def test_nothing_outside_the_audit_app_writes_the_chain_or_reads_its_private_names():
    sources = _sources()
    assert any(p.match("tools/scale/audit.py") for p in sources), "the generator is read"
    found = [
        breach
        for path in sources
        for breach in chain_breaches(path.relative_to(REPO), path.read_text(encoding="utf-8"))
    ]
    assert not found, (
        "Append with event_record or append_many, and read the head with chain_head:\n"
        + "\n".join(found)
    )


def test_the_scan_finds_each_way_round_the_writer():
    source = (
        "from siltfence.apps.audit.chain import _digest, append_many\n"
        "from siltfence.apps.audit.chain import (\n    SYSTEM,\n    _hashed_fields,\n)\n"
        "from siltfence.apps.audit import chain\n"
        "digest = chain._digest(previous, fields)\n"
        "head = ChainHead.objects.select_for_update().get(id=1)\n"
        "Table(AuditEvent).write(rows)\n"
        "AuditEvent.objects.bulk_create(events)\n"
        'cursor.execute("SELECT seq FROM audit_chainhead WHERE id = 1")\n'
    )
    found = chain_breaches(Path("x.py"), source)
    assert [f.split(":")[1] for f in found] == ["1", "2", "7", "8", "9", "10", "11"]
    assert "imports _digest" in found[0] and "imports _hashed_fields" in found[1]


def test_the_scan_leaves_the_public_writer_alone():
    source = (
        "from siltfence.apps.audit.chain import SYSTEM, AuditEntry, append_many, chain_head\n"
        "from siltfence.apps.audit.models import AuditAction, AuditEvent\n"
        "events = AuditEvent.objects.filter(action=AuditAction.PERMIT_CLOSE).count()\n"
        "head = chain_head().seq\n"
    )
    assert chain_breaches(Path("x.py"), source) == []
