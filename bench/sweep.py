"""The daily rain sweep and the duties recompute on PostgreSQL, at scale.

Makes a throw-away database next to the one DATABASE_URL (or the local default) names,
fills it with N active permits whose sites all read their rain at one station (the worst
case: one rain touches every permit), and measures:

- the sweep of one rain day: wall time and the number of SQL queries;
- the sweep again (nothing to write: the idempotent path);
- the recompute of the stored duties of the permits a rain landed on, timed over a sample
  and projected to all of them.

Prints JSON. With no PostgreSQL reachable it prints {"skipped": reason}. Run by
bench/run.py; alone: `python bench/sweep.py [N]`.
"""

from __future__ import annotations

import datetime
import json
import os
import sys
import time
from typing import Any

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/test"
STATION = "USC00475120"  # Marshfield Exp Farm, nearest Spencer


def _connect(url: str) -> Any:
    import psycopg

    return psycopg.connect(url, autocommit=True, connect_timeout=3)


def main(count: int, sample: int) -> dict[str, Any]:
    base = os.environ.get("SILTFENCE_BENCH_DATABASE_URL") or os.environ.get(
        "DATABASE_URL", DEFAULT_URL
    )
    if not base.startswith("postgres"):
        return {"skipped": f"the sweep benchmark needs PostgreSQL; DATABASE_URL is {base!r}"}
    try:
        admin = _connect(base)
    except Exception as exc:  # any failure to connect means: no PostgreSQL here
        return {"skipped": f"no PostgreSQL reachable at {base}: {str(exc).strip()[:200]}"}
    name = f"siltfence_bench_{os.getpid()}"
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        return _run(base.rsplit("/", 1)[0] + "/" + name, count, sample)
    finally:
        from django.conf import settings

        if settings.configured:
            from django.db import connections

            connections.close_all()
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def _run(url: str, count: int, sample: int) -> dict[str, Any]:
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "siltfence.config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from siltfence.apps.duties.rain_events import rain_sweep
    from siltfence.apps.duties.services import permit_duties_recompute
    from siltfence.apps.duties.stations import stations_sync
    from siltfence.apps.permits.services import village_sync
    from siltfence.apps.rain.days import rain_days_record

    call_command("migrate", verbosity=0)
    village_sync(years=range(2026, 2027))
    stations_sync()
    started = time.perf_counter()
    _fill(connection, count)
    fill_s = time.perf_counter() - started
    day = datetime.date(2026, 7, 8)
    rain_days_record(station_id=STATION, days={day: 150}, source="bench")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        result = rain_sweep(day=day)
        sweep_s = time.perf_counter() - started
    with CaptureQueriesContext(connection) as again_queries:
        started = time.perf_counter()
        again = rain_sweep(day=day)
        again_s = time.perf_counter() - started
    touched = result.touched
    chosen = touched[:sample]
    as_of = datetime.datetime(
        2026, 7, 8, 20, tzinfo=datetime.timezone(datetime.timedelta(hours=-5))
    )
    from siltfence.core.ordinance.loader import load
    from siltfence.core.timeline import compute

    events = [  # one touched permit's record, as the recompute reads it
        {"type": "application_received", "at": "2026-06-01T09:00:00-05:00"},
        {"type": "application_approved", "at": "2026-06-03T10:00:00-05:00"},
        {"type": "permit_issued", "at": "2026-06-03T10:00:00-05:00"},
        {"type": "work_started", "at": "2026-06-08T07:00:00-05:00"},
        {"type": "rain", "at": "2026-07-08T00:00:00-05:00", "inches": 0.5906, "station": STATION},
    ]
    ordinance = load("spencer-wi")
    started = time.perf_counter()
    for _ in range(sample):
        compute(ordinance, events, as_of, frozenset()).to_json()
    engine_per_permit = (time.perf_counter() - started) / max(sample, 1)
    with CaptureQueriesContext(connection) as recompute_queries:
        started = time.perf_counter()
        permit_duties_recompute(permit_ids=chosen, as_of=as_of)
        recompute_s = time.perf_counter() - started
    per_permit = recompute_s / max(len(chosen), 1)
    full = _full_recompute(connection, count, sample)
    return {
        "database": "postgresql",
        "permits": count,
        "fill_s": round(fill_s, 1),
        "sweep": {
            "rain_events_written": result.rain_events,
            "permits_touched": len(touched),
            "seconds": round(sweep_s, 3),
            "queries": len(queries),
            "budget_s": 1,
        },
        "sweep_again_idempotent": {
            "rain_events_written": again.rain_events,
            "seconds": round(again_s, 3),
            "queries": len(again_queries),
        },
        "recompute_touched": {
            "sample_permits": len(chosen),
            "events_per_permit": 5,
            "sample_s": round(recompute_s, 2),
            "queries": len(recompute_queries),
            "ms_per_permit": round(per_permit * 1000, 3),
            "projected_100k_s": round(per_permit * 100_000, 1),
            "engine_alone_ms_per_permit": round(engine_per_permit * 1000, 3),
            "budget_100k_s": 30,
        },
        "full_recompute": full,
    }


def _full_recompute(connection: Any, count: int, sample: int) -> dict[str, Any]:
    """Every permit's whole season: eight weekly self-inspections and, on two permits in
    three, four rains of 0.62 inch (16 events in all). Then the recompute of the stored
    duties, timed in three cases:

    - ``all_permits``: every permit computed (``duties_recompute --all``, as after a release
      that changes the code, which the stored duties' inputs catch for every village at
      once), in one process (a sample) and in one process per core (all of them);
    - ``nothing_changed``: the same command with no --all, run again at once: it finds
      that no permit's inputs changed (what the daily sweep does on a dry day);
    - ``one_percent_changed``: after a new self-inspection on one permit in a hundred,
      written straight to the table (as a bulk load would, with no recompute after it)."""
    from siltfence.apps.duties.services import duties_recompute_all, permit_duties_recompute
    from siltfence.apps.permits.models import Permit

    with connection.cursor() as c:
        for week in range(1, 9):
            day = datetime.date(2026, 6, 8) + datetime.timedelta(days=7 * week)
            c.execute(
                "INSERT INTO permits_timelineevent (application_id, type, at, fields, "
                "recorded_at) SELECT a.id, 'self_inspection', %s, %s::jsonb, now() "
                "FROM permits_application a",
                [f"{day} 09:00-05", '{"inspector": "Pat Doe", "phase": "grading"}'],
            )
            if week % 2:
                c.execute(
                    "INSERT INTO permits_timelineevent (application_id, type, at, fields, "
                    "recorded_at) SELECT a.id, 'rain', %s, %s::jsonb, now() "
                    "FROM permits_application a WHERE a.id %% 3 <> 0",
                    [
                        f"{day - datetime.timedelta(days=2)} 00:00-05",
                        json.dumps({"inches": 0.62, "station": STATION}),
                    ],
                )
        c.execute("ANALYZE")
        c.execute("SELECT count(*) FROM permits_timelineevent")
        events = c.fetchone()[0]
    as_of = datetime.datetime(
        2026, 8, 20, 20, tzinfo=datetime.timezone(datetime.timedelta(hours=-5))
    )
    ids = list(Permit.objects.order_by("pk").values_list("pk", flat=True)[:sample])
    started = time.perf_counter()
    permit_duties_recompute(permit_ids=ids, as_of=as_of)
    one_process = (time.perf_counter() - started) / max(len(ids), 1)
    jobs = os.cpu_count() or 1
    started = time.perf_counter()
    everything = duties_recompute_all(jobs=jobs, as_of=as_of, everything=True)
    all_s = time.perf_counter() - started

    started = time.perf_counter()
    unchanged = duties_recompute_all(jobs=jobs, as_of=as_of)
    unchanged_s = time.perf_counter() - started

    with connection.cursor() as c:
        c.execute(
            "INSERT INTO permits_timelineevent (application_id, type, at, fields, recorded_at) "
            "SELECT a.id, 'self_inspection', %s, %s::jsonb, now() "
            "FROM permits_application a WHERE a.id %% 100 = 0",
            ["2026-08-20 09:00-05", '{"inspector": "Pat Doe", "phase": "grading"}'],
        )
    started = time.perf_counter()
    some = duties_recompute_all(jobs=jobs, as_of=as_of)
    some_s = time.perf_counter() - started
    return {
        "permits": everything.in_force,
        "events_per_permit": round(events / max(count, 1), 1),
        "budget_100k_s": 30,
        "all_permits": {
            "one_process_sample_permits": len(ids),
            "one_process_ms_per_permit": round(one_process * 1000, 3),
            "jobs": jobs,
            "recomputed": everything.recomputed,
            "seconds": round(all_s, 1),
            "projected_100k_s": round(all_s * 100_000 / max(everything.recomputed, 1), 1),
        },
        "nothing_changed": {
            "recomputed": unchanged.recomputed,
            "seconds": round(unchanged_s, 2),
            "projected_100k_s": round(unchanged_s * 100_000 / max(unchanged.in_force, 1), 1),
        },
        "one_percent_changed": {
            "recomputed": some.recomputed,
            "seconds": round(some_s, 2),
            "projected_100k_s": round(some_s * 100_000 / max(some.in_force, 1), 1),
        },
    }


def _fill(connection: Any, count: int) -> None:
    """``count`` active Spencer permits, each with its site at the station, set-based."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("bench-applicant", password="bench-not-used-7!")
    with connection.cursor() as c:
        c.execute(
            "INSERT INTO permits_site (village_id, address, parcel_number, legal_description) "
            "SELECT 'spencer-wi', 'Bench site ' || g, '', '' FROM generate_series(1, %s) g",
            [count],
        )
        c.execute(
            """INSERT INTO permits_application (village_id, number, applicant_id, site_id, status,
                 description, facts, determination, ordinance_version, plan_kind, checklist,
                 received_at, decided_at, decision_reasons, pending_conditions, created_at,
                 decision_clock)
               SELECT 'spencer-wi', 'BENCH-' || s.id, %s, s.id, 'approved', '', '{}'::jsonb,
                 '{}'::jsonb, '2015-02-17', 'control_plan', '[]'::jsonb,
                 '2026-06-01 09:00-05', '2026-06-03 10:00-05', '', '[]'::jsonb, now(),
                 '{}'::jsonb
               FROM permits_site s""",
            [user.pk],
        )
        c.execute(
            """INSERT INTO permits_permit (application_id, village_id, number, issued_on,
                 expires_on, status, final_stabilization_measures, added_conditions)
               SELECT a.id, 'spencer-wi', 'BP-' || a.id, '2026-06-03', '2026-11-30', 'active',
                 '', '[]'::jsonb FROM permits_application a"""
        )
        c.execute(
            """INSERT INTO duties_sitestation (site_id, station_id, distance_km, latitude,
                 longitude, pinned_reason)
               SELECT s.id, %s, 18.3, 44.7573, -90.2966, '' FROM permits_site s""",
            [STATION],
        )
        for kind, at, fields in (
            ("application_received", "2026-06-01 09:00-05", "{}"),
            ("application_approved", "2026-06-03 10:00-05", "{}"),
            ("permit_issued", "2026-06-03 10:00-05", "{}"),
            ("work_started", "2026-06-08 07:00-05", "{}"),
        ):
            c.execute(
                "INSERT INTO permits_timelineevent (application_id, type, at, fields, recorded_at) "
                "SELECT a.id, %s, %s, %s::jsonb, now() FROM permits_application a",
                [kind, at, fields],
            )


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    sample = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
    json.dump(main(count, sample), sys.stdout, indent=2)
    sys.stdout.write("\n")
