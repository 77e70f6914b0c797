"""A county at scale in the configured database: ``python -m tools.scale``.

Municipalities that run on the encoded chapters under names of their own (see
``places``), years of daily rain at the stations (``rain``), and applications in every
state with the timelines, site logs, inspections, enforcement and audit events that lead
to them (``plans``, ``municipality``), written set-based: COPY on PostgreSQL, multi-row
inserts on SQLite. Idempotent: a municipality is written in one transaction, and one
that already has applications is left as it is, so a second run with the same seed
adds nothing, and a run cut short goes on where it stopped.

The stored values the pages read are made by the project's own code from the written
events: each permit's duties (``permit_duties_recompute``) and, where the model keeps
them, each application's decision clock.
"""

from __future__ import annotations

import datetime
import os
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tools.scale.municipality import Counts, MunicipalityWriter
from tools.scale.places import (
    Municipality,
    base_ids,
    county_root_write,
    municipalities,
    own_closures,
    prefix_of,
)
from tools.scale.plans import go_live
from tools.scale.rain import (
    SOURCE_RESAMPLED,
    SOURCE_SYNTHETIC,
    StationSpec,
    daily_amounts,
    qualifying_days,
    record_days,
    stations,
)

Progress = Callable[[str, int, int], None]
ROOT_SETTING = "SILTFENCE_ORDINANCES"
SIZE_SIGMA = 0.45  # how much municipalities differ in size (lognormal)


@dataclass
class ScaleOptions:
    permits: int = 100_000
    municipalities: int = 50
    years: int = 20
    stations: int = 30
    seed: int = 1
    rain_file: Path | None = None
    rain_station: str | None = None
    ordinances: Path | None = None  # the county's ordinance root (default: under DATA_DIR)
    now: datetime.datetime | None = None
    jobs: int | None = None  # processes writing municipalities (default: one per core)


@dataclass
class ScaleReport:
    ordinances: Path
    municipalities: list[str]
    written: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    stations: int = 0
    rain_days_written: int = 0
    rain_source: str = ""
    counts: Counts = field(default_factory=Counts)
    seconds: float = 0.0
    # The county's applications in the database after the run: what was asked for, unless
    # municipalities written by an earlier run with another size were left as they were.
    in_database: int = 0


def default_root() -> Path:
    from django.conf import settings

    return Path(settings.DATA_DIR) / "county-ordinances"


def sizes(total: int, count: int, seed: int) -> list[int]:
    """How many applications each municipality has: unequal, ``total`` in all."""
    rng = random.Random(f"sizes-{seed}")
    weights = [rng.lognormvariate(0, SIZE_SIGMA) for _ in range(count)]
    scale = total / sum(weights)
    exact = [w * scale for w in weights]
    found = [int(x) for x in exact]
    for index in sorted(range(count), key=lambda i: exact[i] - found[i], reverse=True)[
        : total - sum(found)
    ]:
        found[index] += 1
    return found


def county_places(options: ScaleOptions) -> tuple[list[Municipality], Path, list[str]]:
    """The municipalities of the seed, the ordinance root they are written to, and the
    encoded chapters they copy."""
    from siltfence.core.rain import registry

    source = _source_root()
    bases = base_ids(source)
    near = [(s.latitude, s.longitude) for s in sorted(registry().values(), key=lambda s: s.id)]
    places = municipalities(
        options.municipalities,
        seed=options.seed,
        bases=bases,
        near=near,
        taken_prefixes={prefix_of(b) for b in bases},
    )
    return places, source, bases


def _source_root() -> Path:
    """Where the encoded chapters are read from: the ordinance root in use, or, when it
    names the county's root before that is written, the installed one."""
    from siltfence.core.ordinance.loader import ordinances_root

    root = ordinances_root()
    if root.is_dir() and base_ids(root):
        return root
    saved = os.environ.pop(ROOT_SETTING, None)
    try:
        return ordinances_root()
    finally:
        if saved is not None:
            os.environ[ROOT_SETTING] = saved


def use_root(root: Path) -> None:
    """Read the law from ``root`` from now on in this process."""
    from siltfence.core.ordinance.loader import load

    os.environ[ROOT_SETTING] = str(root)
    load.cache_clear()


def scale_generate(options: ScaleOptions, progress: Progress | None = None) -> ScaleReport:
    from django.utils import timezone

    from siltfence.apps.permits.models import Application

    started = time.perf_counter()
    report_progress = progress or (lambda stage, done, total: None)
    places, source, _ = county_places(options)
    root = (options.ordinances or default_root()).resolve()
    county_root_write(root, source, places)
    use_root(root)
    _check_prefixes(places)
    now = (options.now or timezone.now()).replace(microsecond=0)
    today = timezone.localtime(now).date()
    first_day = today.replace(year=today.year - options.years)
    report = ScaleReport(ordinances=root, municipalities=[p.id for p in places])
    _villages(places, range(first_day.year, today.year + 2))
    specs = stations(options.stations, places)
    report.stations = len(specs)
    rain_source, written = _rain(specs, first_day, today - datetime.timedelta(days=1), options)
    report.rain_source, report.rain_days_written = rain_source, written
    report_progress("rain", len(specs), len(specs))
    written = set(
        Application.objects.filter(village_id__in=report.municipalities)
        .values_list("village_id", flat=True)
        .distinct()
    )
    pending = [p for p in places if p.id not in written]
    qualifying = _qualifying(specs, pending, go_live(today) - datetime.timedelta(days=31), today)
    points = [(s.id, s.latitude, s.longitude) for s in specs]
    counts = sizes(options.permits, len(places), options.seed)
    report.skipped = [p.id for p in places if p.id in written]
    done = sum(total for place, total in zip(places, counts, strict=True) if place.id in written)
    report_progress("applications", done, options.permits)
    work = [
        Work(place, total, options.seed, now, first_day, qualifying[place.base], points)
        for place, total in sorted(zip(places, counts, strict=True), key=lambda w: -w[1])
        if place.id not in written
    ]
    for work_done, found in _each_written(work, _jobs(options.jobs)):
        if found.applications:
            report.written.append(work_done.place.id)
            for name in vars(report.counts):
                setattr(report.counts, name, getattr(report.counts, name) + getattr(found, name))
        else:
            report.skipped.append(work_done.place.id)
        done += work_done.total
        report_progress("applications", done, options.permits)
    if report.written:
        _analyze()
    report.in_database = Application.objects.filter(village_id__in=report.municipalities).count()
    report.seconds = round(time.perf_counter() - started, 1)
    return report


@dataclass(frozen=True)
class Work:
    place: Municipality
    total: int
    seed: int
    now: datetime.datetime
    first_day: datetime.date
    rains: dict[str, list[tuple[datetime.date, int]]]
    stations: list[tuple[str, float, float]]


def _write(work: Work) -> tuple[Work, Counts]:
    import django

    django.setup()  # in a process of the pool: the parent's settings and ordinance root
    writer = MunicipalityWriter(
        place=work.place,
        total=work.total,
        seed=work.seed,
        now=work.now,
        first_day=work.first_day,
        rains=work.rains,
        stations=work.stations,
    )
    return work, writer.write()


def _jobs(asked: int | None) -> int:
    from django.db import connection

    if connection.vendor != "postgresql" or connection.in_atomic_block:
        # SQLite has one writer at a time; and a caller's open transaction is not seen by
        # other processes.
        return 1
    return max(1, asked if asked is not None else (os.cpu_count() or 1))


def _each_written(work: list[Work], jobs: int) -> Iterator[tuple[Work, Counts]]:
    """Each municipality written, in this process or in a pool of ``jobs`` processes (each
    in its own transaction; the audit chain's head lock puts their events in turn)."""
    if jobs == 1 or len(work) <= 1:
        yield from map(_write, work)
        return
    import multiprocessing

    from django.db import connections

    connections.close_all()  # a child must not share the parent's connection
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "siltfence.config.settings")
    with multiprocessing.get_context().Pool(min(jobs, len(work))) as pool:
        yield from pool.imap_unordered(_write, work)


def _check_prefixes(places: list[Municipality]) -> None:
    """A village already in the database with the initials of a new one would share its
    numbers (they are unique across villages): refuse, naming both."""
    from siltfence.apps.permits.models import Village

    ours = {p.id for p in places}
    theirs = {
        prefix_of(v): v for v in Village.objects.values_list("id", flat=True) if v not in ours
    }
    for place in places:
        if place.prefix in theirs:
            raise ValueError(
                f"municipalities: {place.id} would number its records {place.prefix}-..., as "
                f"{theirs[place.prefix]} already does; use another seed or a database of its own"
            )


def _villages(places: list[Municipality], years: range) -> None:
    """Every municipality as a village with its office calendar for the whole span, and
    the audit chain's record of it (as ``village_sync`` writes one for each chapter)."""
    from django.db import transaction

    from siltfence.apps.audit.chain import event_record
    from siltfence.apps.permits.inputs import ordinance_digest
    from siltfence.apps.permits.models import OfficeClosure, Village
    from siltfence.apps.permits.services import village_sync
    from siltfence.core.ordinance.loader import load

    with transaction.atomic():
        there = set(
            Village.objects.filter(id__in=[p.id for p in places]).values_list("id", flat=True)
        )
        rows = []
        for place in places:
            ordinance = load(place.id)
            business = bool(ordinance.office_calendar["business_days"])
            closures = own_closures(place, years, ordinance.holidays if business else None)
            rows += [OfficeClosure(village_id=place.id, day=d, reason=r) for d, r in closures]
            if place.id in there:
                continue
            # The generator stores each application's decision clock as it writes it, from
            # this data and this code: the village's clocks are up to date.
            Village.objects.create(
                id=place.id, name=place.name, clocks_inputs=ordinance_digest(place.id)
            )
            event_record(
                actor=None,
                entity="village",
                entity_id=0,
                action="village_sync",
                village=place.id,
                citation=ordinance.office_calendar["citation"],
                after={
                    "name": place.name,
                    "copy_of": place.base,
                    "closures_seeded_for_years": [years.start, years.stop - 1],
                },
            )
        OfficeClosure.objects.bulk_create(rows, batch_size=2000, ignore_conflicts=True)
    village_sync()  # the encoded chapters' own villages, if they are not there yet


def _rain(
    specs: list[StationSpec],
    first: datetime.date,
    last: datetime.date,
    options: ScaleOptions,
) -> tuple[str, int]:
    """The stations as rows of the rain record, and every day of the span at each one
    that the record does not hold yet."""
    from zoneinfo import ZoneInfo

    from django.db import transaction

    from siltfence.apps.duties.stations import stations_sync
    from siltfence.apps.rain.models import RainDay, Station
    from tools.scale.tables import Table, commit_unsynced

    stations_sync()
    Station.objects.bulk_create(
        [Station(id=s.id, **Station.listed_fields(s)) for s in specs],
        ignore_conflicts=True,
    )
    record = None
    source = SOURCE_SYNTHETIC
    if options.rain_file is not None:
        record = record_days(options.rain_file, ZoneInfo("America/Chicago"), options.rain_station)
        source = SOURCE_RESAMPLED
    amounts = daily_amounts(specs, first, last, seed=options.seed, record=record)
    with transaction.atomic():
        commit_unsynced()
        held = set(
            RainDay.objects.filter(
                station_id__in=[s.id for s in specs], day__gte=first, day__lte=last
            ).values_list("station_id", "day")
        )
        written = Table(RainDay).write(
            [
                {
                    "station_id": spec.id,
                    "day": day,
                    "tenths_mm": tenths,
                    "set_aside": "",
                    "source": source,
                }
                for spec in specs
                for day, tenths in sorted(amounts[spec.id].items())
                if (spec.id, day) not in held
            ]
        )
    return source, written


def _qualifying(
    specs: list[StationSpec],
    places: list[Municipality],
    first: datetime.date,
    today: datetime.date,
) -> dict[str, dict[str, list[tuple[datetime.date, int]]]]:
    """For each chapter copied, the rains at each station that meet its rule, read from
    the rain record as the sweep reads it."""
    from zoneinfo import ZoneInfo

    from siltfence.apps.rain.models import RainDay
    from siltfence.core.ordinance.loader import load

    stored: dict[str, dict[datetime.date, int]] = {s.id: {} for s in specs}
    for station_id, day, tenths in RainDay.objects.filter(
        station_id__in=list(stored), day__gte=first, day__lt=today, tenths_mm__isnull=False
    ).values_list("station_id", "day", "tenths_mm"):
        stored[station_id][day] = tenths
    found: dict[str, dict[str, list[tuple[datetime.date, int]]]] = {}
    for base in sorted({p.base for p in places}):
        ordinance = load(base)
        zone = ZoneInfo(ordinance.time_zone)
        found[base] = {
            s: qualifying_days(days, ordinance, first, today, zone) for s, days in stored.items()
        }
    return found


def _analyze() -> None:
    """Fresh planner statistics for the tables just filled, and their visibility map
    (PostgreSQL): rows written by COPY are all-visible only once vacuumed, and until then
    the planner will not read an index alone (the register's search by address), as it
    does in a database that autovacuum has been through. VACUUM cannot run inside a
    transaction: there (a test's), the statistics only."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE" if connection.in_atomic_block else "VACUUM ANALYZE")
