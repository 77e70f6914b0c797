"""A section's verbatim words as subsections a page can point into.

The received texts put each subsection's marker on a line of its own ("A.", "(1)", "(a)",
"[1]") with its words on the next line. Here each marker joins its words again, and each
subsection gets the anchor its citation names: ``§ 413-7B(5)(c)[2]`` is ``413-7B-5-c-2``.
The words themselves are never changed. ``citation_href`` is the link to a cited
subsection's words on its section's page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from django.urls import reverse

if TYPE_CHECKING:
    from siltfence.core.ordinance.model import Ordinance

# Marker -> depth: A. (1) (a) [1]
_MARKERS = [
    (re.compile(r"^([A-Z])\.$"), 0),
    (re.compile(r"^\((\d+)\)$"), 1),
    (re.compile(r"^\(([a-z]+)\)$"), 2),
    (re.compile(r"^\[(\d+)\]$"), 3),
]
_CITATION = re.compile(r"^§ (\d+-\d+)((?:[A-Z])?(?:\([0-9a-z]+\)|\[\d+\])*)")
_PART = re.compile(r"[A-Z]|\(([0-9a-z]+)\)|\[(\d+)\]")


@dataclass(frozen=True)
class Subsection:
    anchor: str | None  # None for a note or an editor's note, which no citation names
    marker: str
    text: str
    depth: int


def _marker(line: str) -> tuple[str, int] | None:
    for pattern, depth in _MARKERS:
        match = pattern.match(line)
        if match:
            return match.group(1), depth
    return None


def _anchor(number: str, keys: list[str]) -> str:
    """``413-7``, ``[B, 5, c, 2]`` -> ``413-7B-5-c-2``; ``135-5``, ``[1]`` -> ``135-5-1``."""
    anchor = number
    for position, key in enumerate(keys):
        anchor += key if position == 0 and key.isalpha() and key.isupper() else f"-{key}"
    return anchor


@lru_cache(maxsize=256)
def subsections(number: str, text: str) -> tuple[Subsection, ...]:
    """The section's paragraphs, each marker on the line of its words, with anchors."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    path: list[tuple[int, str]] = []  # (depth, key) of the subsections we are in
    parts: list[Subsection] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        found = _marker(line)
        index += 1
        if found is None:
            parts.append(Subsection(None, "", line, max(len(path) - 1, 0)))
            continue
        words = ""
        if index < len(lines) and _marker(lines[index]) is None:
            words = lines[index]
            index += 1
        if words.startswith("Editor's Note"):
            parts.append(Subsection(None, line, words, max(len(path) - 1, 0)))
            continue
        key, depth = found
        while path and path[-1][0] >= depth:
            path.pop()
        path.append((depth, key))
        anchor = _anchor(number, [k for _, k in path])
        parts.append(Subsection(anchor, line, words, len(path) - 1))
    return tuple(parts)


def anchor_for(citation: str) -> str | None:
    """``§ 413-7A(3)`` -> ``413-7A-3``; None for a citation of a whole section."""
    match = _CITATION.match(citation)
    if not match or not match.group(2):
        return None
    keys = [m.group(1) or m.group(2) or m.group(0) for m in _PART.finditer(match.group(2))]
    return _anchor(match.group(1), keys)


def cited_anchor(number: str, text: str, citation: str) -> str | None:
    """The deepest subsection of the text the citation points into (its own, or the
    nearest one above it when the text has no marker that deep)."""
    anchor = anchor_for(citation)
    known = {s.anchor for s in subsections(number, text) if s.anchor}
    while anchor and len(anchor) > len(number):
        if anchor in known:
            return anchor
        anchor = anchor.rpartition("-")[0]
    return None


def citation_href(ordinance: Ordinance, citation: str) -> str | None:
    """The link to the words a citation names: its section's page, at the subsection."""
    section = ordinance.section_for(citation)
    if section is None:
        return None
    url = reverse("web:section-detail", args=[ordinance.id, section.number])
    anchor = cited_anchor(section.number, section.text or "", citation)
    return f"{url}?{urlencode({'cite': citation})}" + (f"#{anchor}" if anchor else "")
