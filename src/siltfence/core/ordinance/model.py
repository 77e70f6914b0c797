"""The ordinance as loaded: a jurisdiction, its section map, its dated parameters and rules.

Everything here is immutable and was checked by the loader, so the rules engine can
trust it. ``rules`` keeps the structure of ``rules.yaml`` (plain mappings), because it
is read by the engines that own each part of it (determinations, clocks, duties,
enforcement) rather than by one class hierarchy.

A sentence of ``rules.yaml`` takes its numbers from the parameters (``{area_trigger}``,
``siltfence.core.ordinance.sentences``), so it is dated as they are: ``rules`` holds the
sentences as of the latest date the data holds, and ``rules_on(on)`` (or ``on(on)``, the
whole ordinance) those of the parameters in force on a date.
"""

from __future__ import annotations

import bisect
import dataclasses
import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from siltfence.core.board.rule import BoardRule
from siltfence.core.errors import NotInForce
from siltfence.core.ordinance import sentences as _sentences
from siltfence.core.ordinance.state_law import CountingRuleData, HolidayCalendar, StateLaw

TYPE_CHECKING = False  # typing is not imported at run time: see siltfence/core/__init__.py
if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True)
class Section:
    number: str  # "413-7"
    heading: str
    reconstructed: bool
    text: str | None
    received: bool = True
    note: str | None = None

    @property
    def citation(self) -> str:
        return f"§ {self.number}"


@dataclass(frozen=True)
class ParameterValue:
    effective: datetime.date
    value: float | str | None
    citation: str
    text: str
    not_in_text: str | None = None


@dataclass(frozen=True)
class Parameter:
    name: str
    description: str
    unit: str
    values: tuple[ParameterValue, ...]  # oldest first

    def at(self, on: datetime.date) -> ParameterValue:
        """The value in force on ``on``: the latest whose effective date is not after it."""
        in_force = [v for v in self.values if v.effective <= on]
        if not in_force:
            raise NotInForce(
                f"on: parameter {self.name} has no value before {self.values[0].effective}"
            )
        return in_force[-1]


@dataclass(frozen=True)
class Version:
    effective: datetime.date
    title: str
    note: str


# Compared by identity (eq=False): a chapter is loaded once per process, and a dated one is
# kept per span of dates; no code asks whether two are equal field by field, and the
# comparison and hash a frozen dataclass would write for its thirty fields cost a cold
# determination a millisecond to create.
@dataclass(frozen=True, eq=False)
class Ordinance:
    id: str
    name: str
    state: str
    county: str
    time_zone: str
    chapter: str
    title: str
    history: str
    adopted: datetime.date
    versions: tuple[Version, ...]
    authority: Mapping[str, str]
    applicant_citations: tuple[str, ...]
    applicant_role: str
    appeals_body: Mapping[str, str]
    # How the appeals board sits and how many votes decide (the village's data).
    board: BoardRule
    words: Mapping[str, str]
    time_counting: Mapping[str, Any]
    office_calendar: Mapping[str, Any]
    # The authority's office as the notices print it: name, mailing_address, phone, email,
    # hours (null where not given), source, not_given.
    office: Mapping[str, Any]
    # The state's folder (its name is ``state``): its legal holidays and counting rules.
    state_law: StateLaw
    # The rule ``time_counting.rule`` names: the village's own, or its state's.
    counting_rule: CountingRuleData
    map_centre: tuple[float, float]  # (latitude, longitude): where a site map opens
    sections: tuple[Section, ...]
    parameters: Mapping[str, Parameter]
    rules: Mapping[str, Any]
    folder: Path = field(compare=False)
    # The texts of rules.yaml that hold placeholders: (path in the rules, template).
    sentences: tuple[tuple[tuple[str | int, ...], str], ...] = field(
        default=(), compare=False, repr=False
    )
    # The days on which a number of a sentence changes (the values' effective dates), and
    # the rules (and the ordinance) filled for each span between them, once each: never
    # shared with a copy made by ``dataclasses.replace``, whose parameters may differ.
    _changes: tuple[datetime.date, ...] = field(init=False, default=(), compare=False, repr=False)
    _filled: dict[int, tuple[Mapping[str, Any], Ordinance | None]] = field(
        init=False, default_factory=dict, compare=False, repr=False
    )
    # The gap notes of each of those rules by id (``gaps_on``), keyed by the rules' id and
    # holding the rules themselves, so that the id is never reused while it is a key.
    _gaps: dict[int, tuple[Mapping[str, Any], Mapping[str, Mapping[str, Any]]]] = field(
        init=False, default_factory=dict, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        names = _sentences.names_in(self.sentences)
        changes = {v.effective for n in names for v in self.parameters[n].values}
        object.__setattr__(self, "_changes", tuple(sorted(changes)))

    @property
    def holidays(self) -> HolidayCalendar:
        """The legal holidays the village counts time around: its state's."""
        return self.state_law.holidays

    @property
    def authority_title(self) -> str:
        return self.authority["title"]

    def version_on(self, on: datetime.date) -> tuple[Version, str | None]:
        """The version in force on ``on`` and a note when it only stands in for it.

        Before adoption the chapter did not exist: that is an error, never an answer.
        Between adoption and the oldest version held, the oldest held text stands in,
        with a note that says so.
        """
        if on < self.adopted:
            raise NotInForce(
                f"on: {self.name} Ch. {self.chapter} was adopted on {self.adopted.isoformat()}; "
                f"it was not in force on {on.isoformat()}"
            )
        in_force = [v for v in self.versions if v.effective <= on]
        if in_force:
            return in_force[-1], None
        oldest = self.versions[0]
        return oldest, oldest.note

    def section(self, number: str) -> Section | None:
        for section in self.sections:
            if section.number == number:
                return section
        return None

    def section_for(self, citation: str) -> Section | None:
        """The section a citation like ``§ 413-7A(3)`` points into, if it is in this chapter."""
        match = _SECTION_OF.match(citation)
        if not match:
            return None
        return self.section(match.group(1))

    def parameter(self, name: str, on: datetime.date) -> ParameterValue:
        return self.parameters[name].at(on)

    def rules_on(self, on: datetime.date) -> Mapping[str, Any]:
        """The rules with each sentence's numbers from the parameters in force on ``on``:
        after an amendment the new number, before it the old one."""
        return self._dated(on)[0]

    def gaps_on(self, on: datetime.date | None = None) -> Mapping[str, Mapping[str, Any]]:
        """The gap notes of ``rules_on(on)`` (of ``rules`` when ``on`` is None) by their id:
        the engine looks one up for every duty it explains."""
        rules = self.rules if on is None else self.rules_on(on)
        found = self._gaps.get(id(rules))
        if found is None:
            found = self._gaps[id(rules)] = (rules, {g["id"]: g for g in rules["gaps"]})
        return found[1]

    def on(self, on: datetime.date) -> Ordinance:
        """This ordinance with ``rules`` as of ``on`` (``rules_on``), for an engine that
        answers for one date and hands the ordinance on."""
        if not self.sentences:
            return self
        span = bisect.bisect_right(self._changes, on)
        rules, dated = self._dated(on)
        if dated is None:
            dated = dataclasses.replace(self, rules=rules)
            self._filled[span] = (rules, dated)
        return dated

    def _dated(self, on: datetime.date) -> tuple[Mapping[str, Any], Ordinance | None]:
        if not self.sentences:
            return self.rules, self
        span = bisect.bisect_right(self._changes, on)
        found = self._filled.get(span)
        if found is None:
            rules = _sentences.filled(self.rules, self.sentences, self.parameters, on)
            found = self._filled[span] = (rules, None)
        return found


_SECTION_OF = re.compile(r"^§ (\d+-\d+)")
