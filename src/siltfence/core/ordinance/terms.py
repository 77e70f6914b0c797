"""The terms a chapter defines (Spencer § 413-4, New Glarus § 135-13), read from the
definitions section's own text in the ordinance data, and found where they appear.

The definitions section reads: "As used in this chapter, the following terms shall have
the meanings indicated:", then each term on a line of its own in capitals ("RUNOFF",
"BEST MANAGEMENT PRACTICE or BMP"), then its meaning on the lines below it.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from siltfence.core.ordinance.model import Ordinance

# A term's line: capitals, digits, spaces, hyphens, apostrophes and "or" between names.
_TERM_LINE = re.compile(r"[A-Z0-9][A-Z0-9 ,'\-]*(?: or [A-Z0-9][A-Z0-9 ,'\-]*)*")


@dataclass(frozen=True)
class Term:
    names: tuple[str, ...]  # as the text writes them, e.g. ("BEST MANAGEMENT PRACTICE", "BMP")
    meaning: str
    citation: str


def _definitions_section(ordinance: Ordinance) -> tuple[str, str] | None:
    for section in ordinance.sections:
        if section.heading.strip().lower() == "definitions" and section.text:
            return section.citation, section.text
    return None


@functools.cache
def _terms(ordinance_id: str, citation: str, text: str) -> tuple[Term, ...]:
    terms: list[Term] = []
    names: tuple[str, ...] | None = None
    meaning: list[str] = []
    for line in text.splitlines()[1:]:
        stripped = line.strip()
        is_term = (
            bool(stripped)
            and len(stripped) <= 80
            and _TERM_LINE.fullmatch(stripped) is not None
            and any(ch.isalpha() for ch in stripped)
        )
        if is_term:
            if names is not None:
                terms.append(Term(names, " ".join(meaning).strip(), citation))
            names = tuple(n.strip() for n in stripped.split(" or ") if n.strip())
            meaning = []
        elif names is not None:
            meaning.append(stripped)
    if names is not None:
        terms.append(Term(names, " ".join(meaning).strip(), citation))
    return tuple(t for t in terms if t.meaning)


def definitions_citation(ordinance: Ordinance) -> str | None:
    """The citation of the section that defines the chapter's terms, if it has one."""
    found = _definitions_section(ordinance)
    return found[0] if found is not None else None


def defined_terms(ordinance: Ordinance) -> tuple[Term, ...]:
    """Every term the chapter defines, with its meaning and the definitions' citation."""
    found = _definitions_section(ordinance)
    if found is None:
        return ()
    return _terms(ordinance.id, found[0], found[1])


@dataclass(frozen=True)
class Mention:
    start: int
    end: int
    term: Term


def mentions(text: str, terms: tuple[Term, ...]) -> list[Mention]:
    """The first place each term appears in ``text``: whole words, any case, a plural
    "s" allowed, spaces and hyphens alike; where terms overlap the longer one wins
    ("construction site control measure" over "control measure")."""
    taken: list[Mention] = []
    seen: set[int] = set()
    for pattern, term in _patterns(terms):
        if id(term) in seen:
            continue
        for match in pattern.finditer(text):
            if any(match.start() < m.end and m.start < match.end() for m in taken):
                continue
            taken.append(Mention(match.start(), match.end(), term))
            seen.add(id(term))
            break
    return sorted(taken, key=lambda m: m.start)


@functools.lru_cache(maxsize=64)
def _patterns(terms: tuple[Term, ...]) -> tuple[tuple[re.Pattern[str], Term], ...]:
    """Each name of each term as the pattern that finds it, longest name first: made once a
    chapter, not every time a text is marked."""
    names = sorted(
        ((name, term) for term in terms for name in term.names), key=lambda p: -len(p[0])
    )
    return tuple(
        (
            re.compile(
                r"(?<![\w-])"
                + re.escape(name).replace(r"\ ", r"[\s-]+").replace(r"\-", r"[\s-]+")
                + r"(?:e?s)?(?![\w-])",
                re.IGNORECASE,
            ),
            term,
        )
        for name, term in names
    )
