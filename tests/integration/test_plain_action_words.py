"""Every kind of entry the audit record holds is a member of ``AuditAction`` and reads in
plain words on the pages.

The names come from the source itself (the package and the tools): each ``action=...``
given to ``event_record`` or to the services' wrappers around it. A new action that is not
in ``AuditAction``, or whose label there is not plain words, fails here, before a clerk
reads "municipal inspection record" on a permit's record (and before ``event_record``
refuses it).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import siltfence
from siltfence.apps.audit.models import AuditAction, action_words
from siltfence.apps.permits.models import DocumentKind, SuretyMovementKind
from siltfence.apps.sitelog.models import EntryKind

SRC = Path(siltfence.__file__).parent
TOOLS = Path(__file__).resolve().parents[2] / "tools"
# argparse's own actions, which are no audit record's
ARGPARSE = {"store_true", "store_false", "store_const", "append", "count", "store", "version"}
# action="name", action=f"{kind}_generate", action="one" if ... else "other"
ACTION = re.compile(r'\baction=(f?"[^"]*"(?:\s+if\s+.+?\s+else\s+f?"[^"]*")?)')
LITERAL = re.compile(r'(f?)"([^"]*)"')


def _sources() -> dict[Path, str]:
    return {
        path: path.read_text(encoding="utf-8")
        for root in (SRC, TOOLS)
        for path in root.rglob("*.py")
        if "migrations" not in path.parts
    }


def _generated_kinds(sources: dict[Path, str]) -> set[str]:
    """The kinds of the documents written with an ``{kind}_generate`` record."""
    kinds: set[str] = set()
    for path, text in sources.items():
        if path.match("permits/services/letters.py"):
            kinds |= {DocumentKind[name].value for name in re.findall(r"DocumentKind\.(\w+)", text)}
        if path.match("enforcement/services/*.py"):
            # _document(locked, action, "kind"), or a lawful step's row: document="kind"
            kinds |= set(re.findall(r'_document\(\w+, \w+, "([a-z_]+)"\)', text))
            kinds |= set(re.findall(r'\bdocument="([a-z_]+)"', text))
    return kinds


def _expansions(sources: dict[Path, str]) -> dict[str, set[str]]:
    return {
        "{kind}_generate": {f"{kind}_generate" for kind in _generated_kinds(sources)},
        "site_log_{kind}": {f"site_log_{kind}" for kind in EntryKind.values},
        "surety_{kind}": {f"surety_{kind}" for kind in SuretyMovementKind.values},
    }


def action_names() -> set[str]:
    sources = _sources()
    expansions = _expansions(sources)
    names: set[str] = set()
    for path, text in sources.items():
        for number, line in enumerate(text.splitlines(), 1):
            found = ACTION.search(line)
            if found is None:
                continue
            for f_string, value in LITERAL.findall(found.group(1)):
                if value in ARGPARSE:
                    continue
                if f_string:
                    assert value in expansions, (
                        f"{path}:{number}: the action f{value!r} is made "
                        "from a variable; name its values in this test's expansions"
                    )
                    names |= expansions[value]
                else:
                    names.add(value)
    return names


def _plain(name: str) -> str | None:
    return str(AuditAction(name).label) if name in AuditAction.values else None


def test_the_source_is_read() -> None:
    names = action_names()
    # A few of every source: literal, conditional, and made from a kind.
    assert {
        "application_create",
        "fee_payment_record",
        "fee_payment_correct",
        "municipal_inspection_record",
        "site_log_no_runoff",
        "surety_draw",
        "permit_generate",
        "stop_work_placard_generate",
        "appeal_decision_generate",
    } <= names
    assert not names & ARGPARSE


def test_every_action_written_is_a_member_of_the_enumeration() -> None:
    missing = sorted(action_names() - set(AuditAction.values))
    assert not missing, f"add these to AuditAction (event_record refuses them): {missing}"


@pytest.mark.parametrize("name", sorted(action_names()))
def test_every_action_of_the_record_has_plain_words(name: str) -> None:
    words = _plain(name)
    assert words, f"{name}: add it to AuditAction, with its plain words as its label"
    assert "_" not in words and words[0].isupper(), words
    assert action_words(name) == words
    # Not the name with its underscores taken out.
    assert words.lower() != name.replace("_", " "), words
