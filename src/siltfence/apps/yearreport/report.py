"""What the year-end report is made of, and the words its numbers are written in.

A ``Figure`` is one line of the report as the page and the CSV show it; a ``YearReport``
holds them all, section by section, with the month table and the MS4 part. The year counted
(``_Period``) runs from January 1, 00:00 to December 31, 24:00 in the village's own time
zone. The small helpers write a day, a count, an amount of money or an area the way the
report prints them.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import Q

from siltfence.core import fees

FIRST_YEAR = 1990
LAST_YEAR = 2100

NOT_RECORDED = "Not recorded in siltfence — fill in by hand"

PERMITS = "Permits"
INSPECTIONS = "Inspections"
COMPLAINTS = "Complaints and violations"
ENFORCEMENT = "Enforcement actions"
MONEY = "Costs and forfeitures"
BY_MONTH = "By month"
MS4 = "MS4 annual report: construction site pollutant control (minimum control measure 4)"


@dataclass(frozen=True)
class Figure:
    """One figure of the report as the page and the CSV show it."""

    key: str
    section: str
    name: str
    value: str
    how: str


@dataclass
class YearReport:
    village_id: str
    village: str
    year: int
    first_day: datetime.date
    last_day: datetime.date
    today: datetime.date
    counted_to: datetime.date  # the last day counted: December 31, or today while it runs
    running: bool
    begun: bool
    sections: list[tuple[str, list[Figure]]] = field(default_factory=list)
    months: list[dict[str, Any]] = field(default_factory=list)
    ms4: list[Figure] = field(default_factory=list)

    @property
    def monthly_figures(self) -> list[Figure]:
        figures = []
        for row in self.months:
            for key, name in MONTH_COLUMNS:
                figures.append(
                    Figure(
                        key=f"{key}-{row['number']:02d}",
                        section=BY_MONTH,
                        name=f"{name}, {row['name']}",
                        value=count(row[key]),
                        how=f"the same count as the year's figure, for {row['name']} {self.year}",
                    )
                )
        return figures

    def figures(self) -> list[Figure]:
        """Every figure, in the page's order: the sections, the months, the MS4 part."""
        found = [f for _, figures in self.sections for f in figures]
        return found + self.monthly_figures + self.ms4


MONTH_COLUMNS = (
    ("applications", "Applications received"),
    ("permits", "Permits issued"),
    ("village_inspections", "Inspections by the village"),
    ("permittee_inspections", "Inspections by permittees"),
)


# -- words --------------------------------------------------------------------------------


def count(n: int | None) -> str:
    return f"{n or 0:,}"


def money(amount: Decimal | None) -> str:
    """``$1,234.50``, as ``core.fees`` writes money; no amount (an empty sum) is ``$0.00``."""
    return fees.money(Decimal(amount or 0).quantize(fees.CENT))


def acres(value: float) -> str:
    return f"{value:,.2f} acres"


def times(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


# -- the year counted ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Period:
    year: int
    zone: ZoneInfo
    first_day: datetime.date
    last_day: datetime.date
    today: datetime.date
    counted_to: datetime.date

    @property
    def start(self) -> datetime.datetime:
        return datetime.datetime.combine(self.first_day, datetime.time(0), tzinfo=self.zone)

    @property
    def end(self) -> datetime.datetime:
        day = self.last_day + datetime.timedelta(days=1)
        return datetime.datetime.combine(day, datetime.time(0), tzinfo=self.zone)

    def moments(self, name: str) -> Q:
        """``name`` (a moment) falls in the year, in the village's time."""
        return Q(**{f"{name}__gte": self.start, f"{name}__lt": self.end})

    def days(self, name: str) -> Q:
        """``name`` (a day) falls in the year."""
        return Q(**{f"{name}__gte": self.first_day, f"{name}__lte": self.last_day})
