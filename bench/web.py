"""Web pages at county scale, served as in production, under 20 concurrent users.

1. A PostgreSQL database of its own (``siltfence_scale`` next to the one DATABASE_URL or
   SILTFENCE_BENCH_DATABASE_URL names; kept between runs) is migrated and filled by
   ``python -m tools.scale`` (100,000 applications, 50 municipalities, 20 years of rain
   at 30 stations). The generator is idempotent: a second run checks and adds nothing.
   SILTFENCE_BENCH_RAIN_FILE names a real daily rain record to resample (any layout
   ``siltfence rain`` reads); without it the rain is drawn from monthly normals.
2. gunicorn starts with the production settings (``siltfence.config.gunicorn``, two worker
   processes, on 127.0.0.1) and ``SILTFENCE_BENCH=1``, which routes ``/bench/trivial``: a
   JSON answer with no work of its own, the baseline every page is held against. It starts
   twice, and every target is measured on each: ``gthread`` workers (``make run``'s, four
   threads a process), which clients reach on kept-alive connections as a browser reaches
   ``make run``; and ``sync`` workers (``SILTFENCE_WORKER_CLASS=sync``, docs/deploy.md's
   server behind nginx), which clients reach with a new connection per request, as nginx
   reaches the server behind it.
3. The staff of the municipality with the longest review queue get a session made with
   Django's session machinery in the database (and, where sign-in has a second step,
   django-otp's record that the step was passed); the session is checked on the queue
   before anything is measured.
4. Each target (the trivial page, the same signed in as the staff (a reference, with no
   budget: what the session, the user and the second factor's device cost every staff
   page), a permit's page, the staff queue, the public register
   searched again and again, the register searched anew each time,
   ``POST /api/v1/determinations``) is loaded by ``httpload`` with 20 clients
   for a fixed time after a warm-up, three times, the targets taking turns; medians are
   reported, with each page's throughput as a share of the trivial page's in the same
   round, and the budget: at least half the signed-in trivial page's throughput (the
   public register and the API: half the anonymous one's), p95 under 150 ms.
5. Each page is also fetched once in this process, to count its SQL queries and show
   where its time goes (the top of a profile).
6. The daily sweep and the recompute of the stored duties of every permit in force, at
   this scale, in a transaction rolled back afterwards.

Prints JSON. Without PostgreSQL it prints {"skipped": reason}. Alone:
``python bench/web.py [--permits N] [--seconds S] [--repeats R] [--only T,T]``; ``--only``
measures only the targets named (e.g. ``trivial,trivial_signed_in``: what signing in costs)
and leaves out the sweep.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import datetime
import json
import os
import pstats
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from httpload import Request, load, summarize  # noqa: E402

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/test"
SCALE_DATABASE = "siltfence_scale"
DATA = REPO / "var" / "bench-scale"
CLIENTS = 20
WORKERS = 2
# The two ways siltfence is served, each measured as its clients reach it: a browser keeps
# its connection to `make run`'s gthread server; nginx opens a new one for each request to
# the sync server behind it (its default towards the server behind it).
SERVERS = {
    "gthread": {"keep_alive": True, "serves": "make run: two processes of four threads"},
    "sync": {
        "keep_alive": False,
        "serves": "docs/deploy.md behind nginx: two processes, one request at a time each",
    },
}
BUDGET_P95_MS = 150.0
BUDGET_SHARE_OF_TRIVIAL = 0.5
# Measured beside the pages, held to no budget: the baseline, and the same signed in.
REFERENCES = ("trivial", "trivial_signed_in")
STREETS = ("Main St", "Oak", "Mill Rd", "Prairie Ln", "County Rd K")
FACTS = (
    {"disturbed_area": 5000},
    {"disturbed_area": "1.2 acre", "land_use": "commercial"},
    {"excavation_fill_volume": 450},
    {"subdivision_plat": True, "disturbed_area": "4 acre"},
)


def _bin(name: str) -> str:
    return str(Path(sys.executable).with_name(name))


def _admin_url() -> str:
    return os.environ.get("SILTFENCE_BENCH_DATABASE_URL") or os.environ.get(
        "DATABASE_URL", DEFAULT_URL
    )


def _scale_url(base: str) -> str:
    name = os.environ.get("SILTFENCE_SCALE_DATABASE", SCALE_DATABASE)
    return base.rsplit("/", 1)[0] + "/" + name


def _ensure_database(base: str) -> str:
    import psycopg

    url = _scale_url(base)
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(base, autocommit=True, connect_timeout=3) as admin:
        found = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not found:
            admin.execute(f'CREATE DATABASE "{name}"')
    return url


def _secret(path: Path) -> str:
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


def _environment(url: str, port: int) -> dict[str, str]:
    """What the server runs with: the production settings, as ``make run`` sets them."""
    leave_out = ("DJANGO_ALLOW_ASYNC_UNSAFE", "DEBUG", "DJANGO_SETTINGS_MODULE")
    env = {k: v for k, v in os.environ.items() if k not in leave_out}
    env.update(
        {
            "SILTFENCE_ENV": "production",
            "SILTFENCE_LOCAL_HTTP": "true",
            "SILTFENCE_EMAIL": "console",  # no mail server here, said on purpose
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECRET_KEY": _secret(DATA / "secret-key"),
            "SILTFENCE_AUDIT_KEY": _secret(DATA / "audit-key"),
            "SILTFENCE_SECOND_FACTOR_KEY": _secret(DATA / "second-factor-key"),
            "SILTFENCE_DATA_DIR": str(DATA),
            "SILTFENCE_URL": f"http://127.0.0.1:{port}/",
            "SILTFENCE_ORDINANCES": str(DATA / "county-ordinances"),
            "SILTFENCE_BENCH": "1",
            "DATABASE_URL": url,
            "WEB_CONCURRENCY": str(WORKERS),
        }
    )
    return env


def _run(command: list[str], env: dict[str, str], timeout: float = 7200) -> float:
    began = time.perf_counter()
    # From the repository's root, where the tools (``python -m tools.scale``) are found.
    done = subprocess.run(
        command, env=env, cwd=REPO, capture_output=True, text=True, timeout=timeout, check=False
    )
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        raise RuntimeError(f"{' '.join(command[:3])} failed: " + " | ".join(tail))
    return time.perf_counter() - began


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# -- in this process: the session, the targets, the queries --------------------------------


def _django(env: dict[str, str]) -> None:
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "siltfence.config.settings"
    import django

    django.setup()


def staff_session(username: str) -> tuple[str, str, str]:
    """A session of ``username`` made with Django's session machinery, in the database the
    server reads, marked as having passed the second sign-in step where there is one.
    Returns (cookie name, value, how the second step was handled)."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    user = get_user_model().objects.get(username=username)
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    second = "none asked"
    if "django_otp" in settings.INSTALLED_APPS:
        from django_otp import DEVICE_ID_SESSION_KEY
        from django_otp.plugins.otp_totp.models import TOTPDevice

        device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
        if device is None:
            device = TOTPDevice.objects.create(user=user, name="benchmark", confirmed=True)
        session = client.session
        session[DEVICE_ID_SESSION_KEY] = device.persistent_id
        session.save()
        second = "django-otp device recorded in the session"
    name = settings.SESSION_COOKIE_NAME
    return name, client.cookies[name].value, second


def _targets(session: tuple[str, str] | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The pages to load, and what they are: the municipality, its queue, the permits."""
    from django.db.models import Count, Q

    from siltfence.apps.permits.models import Application, Permit, Village

    busiest = (
        Village.objects.annotate(
            queue=Count(
                "applications",
                filter=Q(applications__status__in=["under_review", "information_requested"]),
            )
        )
        .order_by("-queue", "id")
        .first()
    )
    assert busiest is not None, "no village in the scale database"
    permits = list(
        Permit.objects.filter(village=busiest, status="active")
        .order_by("-issued_on", "id")
        .values_list("pk", flat=True)[:20]
    ) + list(
        Permit.objects.filter(village=busiest, status="closed")
        .order_by("id")
        .values_list("pk", flat=True)[:20]
    )
    about = {
        "municipality": busiest.id,
        "queue_length": busiest.queue,
        "municipality_applications": Application.objects.filter(village=busiest).count(),
        "permits_loaded_in_turn": len(permits),
    }
    cookie: tuple[tuple[str, str], ...] = ()
    if session is not None:
        cookie = (("Cookie", f"{session[0]}={session[1]}"),)
    targets: dict[str, Any] = {"trivial": [Request("GET", "/bench/trivial")]}
    if session is not None:
        # Not a page: the trivial page again, signed in as the staff, for what signing in
        # alone costs every staff page (the session, the user and the second factor's
        # device: decision 45). It has no budget of its own.
        targets["trivial_signed_in"] = [Request("GET", "/bench/trivial", cookie)]
        targets["permit_page"] = [Request("GET", f"/permits/{pk}/", cookie) for pk in permits]
        targets["staff_queue"] = [Request("GET", "/staff/", cookie)]
    targets["register_search"] = [
        Request("GET", "/register/?" + urllib.parse.urlencode({"q": q})) for q in STREETS
    ]
    # The register keeps each search's page until the record changes, so the five searches
    # above are, after the first time, kept pages. These 2,000 searches (a house number on
    # one of the streets) are each new when asked, more than the 300 pages a process keeps.
    targets["register_search_each_new"] = [
        Request("GET", "/register/?" + urllib.parse.urlencode({"q": f"{n} {street}"}))
        for n in range(1, 401)
        for street in STREETS
    ]
    json_type = (("Content-Type", "application/json"),)
    targets["determinations_api"] = [
        Request(
            "POST",
            "/api/v1/determinations",
            json_type,
            json.dumps({"jurisdiction": j, "on": "2026-06-01", "facts": f}).encode(),
        )
        for j in ("spencer-wi", "new-glarus-wi")
        for f in FACTS
    ]
    return targets, about


def _inspect(requests: list[Request]) -> dict[str, Any]:
    """One request of the target in this process: its status, SQL queries and where its
    time goes (the siltfence and Django functions on top of a profile)."""
    from django.test import Client

    request = requests[0]
    client = Client(HTTP_HOST="127.0.0.1")
    headers = dict(request.headers)
    if "Cookie" in headers:
        name, value = headers["Cookie"].split("=", 1)
        client.cookies[name] = value
    call = (
        (lambda: client.get(request.path))
        if request.method == "GET"
        else (lambda: client.post(request.path, request.body, content_type="application/json"))
    )
    call()  # warm: caches, the loader, the connection
    # The page's whole cost, not a page kept from the warming call (the public register
    # keeps its pages until the record changes).
    from django.core.cache import cache

    cache.clear()
    profile = cProfile.Profile()
    with Queries() as queries:
        began = time.perf_counter()
        profile.enable()
        response = call()
        profile.disable()
        took = time.perf_counter() - began
    stats = pstats.Stats(profile)
    top = []
    entries = stats.stats  # type: ignore[attr-defined]
    for (filename, line, function), (_, calls, _tt, cumulative, _) in sorted(
        entries.items(), key=lambda item: item[1][3], reverse=True
    ):
        if "siltfence" in filename and "bench" not in filename:
            short = filename.split("siltfence/", 1)[-1]
            top.append(f"{short}:{line} {function}: {cumulative * 1000:.0f} ms in {calls} call(s)")
        if len(top) == 8:
            break
    return {
        "status": response.status_code,
        "location": response.get("Location", ""),
        "queries": queries.count,
        "sql_ms": round(queries.seconds * 1000, 1),
        "in_process_ms": round(took * 1000, 1),
        "bytes": len(response.content),
        "profile_top": top,
    }


class _Rollback(Exception):
    pass


class Queries:
    """Counts the SQL queries run inside it, and their time (no limit on how many)."""

    def __init__(self) -> None:
        self.count = 0
        self.seconds = 0.0

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        began = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.count += 1
            self.seconds += time.perf_counter() - began

    def __enter__(self) -> Queries:
        from django.db import connection

        self._wrapper = connection.execute_wrapper(self)
        self._wrapper.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._wrapper.__exit__(*exc)


def sweep_at_scale() -> dict[str, Any]:
    """The daily sweep of a new rain at every station, and the recompute of the duties of
    every permit in force, on the county; rolled back afterwards."""
    from django.db import transaction
    from django.utils import timezone

    from siltfence.apps.duties.rain_events import rain_sweep
    from siltfence.apps.duties.services import active_permit_ids, permit_duties_recompute
    from siltfence.apps.rain.days import rain_days_record
    from siltfence.apps.rain.models import Station

    now = timezone.now()
    day = timezone.localdate(now)
    result: dict[str, Any] = {}
    with contextlib.suppress(_Rollback), transaction.atomic():
        stations = list(Station.objects.values_list("id", flat=True))
        for station in stations:
            rain_days_record(station_id=station, days={day: 150}, source="bench")
        with Queries() as queries:
            began = time.perf_counter()
            swept = rain_sweep(day=day)
            sweep_s = time.perf_counter() - began
        began = time.perf_counter()
        permit_duties_recompute(permit_ids=swept.touched, as_of=now)
        touched_s = time.perf_counter() - began
        active = active_permit_ids()
        with Queries() as recompute_queries:
            began = time.perf_counter()
            permit_duties_recompute(permit_ids=active, as_of=now)
            full_s = time.perf_counter() - began
        result = {
            "stations_with_rain": len(stations),
            "sweep": {
                "rain_events_written": swept.rain_events,
                "permits_touched": len(swept.touched),
                "seconds": round(sweep_s, 2),
                "queries": queries.count,
                "budget_s_for_100k_active": 1,
            },
            "recompute_touched_s": round(touched_s, 1),
            "full_recompute": {
                "permits_in_force": len(active),
                "seconds": round(full_s, 1),
                "queries": recompute_queries.count,
                "ms_per_permit": round(full_s / max(len(active), 1) * 1000, 2),
                "projected_100k_s": round(full_s / max(len(active), 1) * 100_000, 1),
                "budget_100k_s": 30,
            },
        }
        raise _Rollback
    return result


def _counts() -> dict[str, Any]:
    from siltfence.apps.audit.models import AuditEvent
    from siltfence.apps.permits.models import Application, Permit, TimelineEvent, Village
    from siltfence.apps.rain.models import RainDay, Station

    return {
        "villages": Village.objects.count(),
        "applications": Application.objects.count(),
        "permits": Permit.objects.count(),
        "permits_in_force": Permit.objects.filter(status="active").count(),
        "timeline_events": TimelineEvent.objects.count(),
        "audit_events": AuditEvent.objects.count(),
        "rain_stations": Station.objects.filter(rain_days__isnull=False).distinct().count(),
        "rain_station_days": RainDay.objects.count(),
        # How the rain was made when the database was filled (a later run only checks it).
        "rain_sources": sorted(set(RainDay.objects.values_list("source", flat=True))),
    }


# -- the server ------------------------------------------------------------------------


@contextlib.contextmanager
def gunicorn(env: dict[str, str], port: int) -> Iterator[subprocess.Popen[bytes]]:
    command = [
        _bin("gunicorn"),
        "-c",
        "python:siltfence.config.gunicorn",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(WORKERS),
    ]
    server = subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.DEVNULL,  # the access log
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                error = server.stderr.read().decode()[-600:] if server.stderr else ""
                raise RuntimeError(f"gunicorn did not come up: {error}")
            time.sleep(0.5)
        yield server
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def _code() -> dict[str, object]:
    """The commit measured, and how many files differ from it in the working tree."""

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=False)
        return done.stdout.strip()

    changed = [line for line in git("status", "--porcelain").splitlines() if line.strip()]
    return {"commit": git("rev-parse", "--short", "HEAD"), "files_changed": len(changed)}


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 1)


def measure(
    targets: dict[str, list[Request]],
    port: int,
    seconds: float,
    warmup: float,
    repeats: int,
    keep_alive: bool,
) -> dict[str, Any]:
    def run(requests: list[Request], for_seconds: float) -> Any:
        return load(
            "127.0.0.1", port, requests, clients=CLIENTS, seconds=for_seconds, keep_alive=keep_alive
        )

    for requests in targets.values():
        run(requests, warmup)
    rounds: dict[str, list[dict[str, Any]]] = {name: [] for name in targets}
    for _ in range(repeats):
        for name, requests in targets.items():
            rounds[name].append(summarize(run(requests, seconds)))
    found: dict[str, Any] = {}
    trivial = rounds["trivial"]
    for name, runs in rounds.items():
        shares = [
            r["requests_per_s"] / t["requests_per_s"] if t["requests_per_s"] else 0.0
            for r, t in zip(runs, trivial, strict=True)
        ]
        median = {
            key: _median([float(r[key]) for r in runs if r[key] is not None] or [float("nan")])
            for key in ("requests_per_s", "p50_ms", "p95_ms", "p99_ms")
        }
        entry: dict[str, Any] = {
            "median": median,
            "share_of_trivial": round(statistics.median(shares), 3),
            "errors": sum(int(r["errors"]) for r in runs),
            "runs": runs,
        }
        if name not in REFERENCES:
            # A staff page is held against the trivial page signed in (issue's budget: what
            # signing in costs is budgeted apart), where that was measured.
            against = rounds.get("trivial_signed_in", trivial)
            entry["share_of_signed_in_trivial"] = round(
                statistics.median(
                    r["requests_per_s"] / t["requests_per_s"] if t["requests_per_s"] else 0.0
                    for r, t in zip(runs, against, strict=True)
                ),
                3,
            )
            throughput_ok = entry["share_of_signed_in_trivial"] >= BUDGET_SHARE_OF_TRIVIAL
            latency_ok = median["p95_ms"] < BUDGET_P95_MS
            entry["budget"] = {
                "share_of_signed_in_trivial_at_least": BUDGET_SHARE_OF_TRIVIAL,
                "p95_ms_under": BUDGET_P95_MS,
                "throughput": "pass" if throughput_ok else "fail",
                "p95": "pass" if latency_ok else "fail",
                "pass": throughput_ok and latency_ok and entry["errors"] == 0,
            }
        found[name] = entry
    return found


def main(
    permits: int, seconds: float, warmup: float, repeats: int, only: list[str] | None = None
) -> dict[str, Any]:
    base = _admin_url()
    if not base.startswith("postgres"):
        return {"skipped": f"the web benchmark needs PostgreSQL; DATABASE_URL is {base!r}"}
    try:
        url = _ensure_database(base)
    except Exception as exc:  # any failure to connect means: no PostgreSQL here
        return {"skipped": f"no PostgreSQL reachable at {base}: {str(exc).strip()[:200]}"}
    port = _free_port()
    env = _environment(url, port)
    manage = [sys.executable, "-m", "siltfence.manage"]
    _run([*manage, "migrate", "--noinput"], env)
    scale = ["--permits", str(permits), "--seed", "1"]
    rain_file = os.environ.get("SILTFENCE_BENCH_RAIN_FILE")
    shown = ["python", "-m", "tools.scale", *scale]
    if rain_file:
        scale += ["--rain-file", rain_file]
        shown += ["--rain-file", "$SILTFENCE_BENCH_RAIN_FILE"]
    generated_s = _run([sys.executable, "-m", "tools.scale", *scale], env)
    _run([*manage, "collectstatic", "--noinput", "--verbosity", "0"], env)
    _django(env)
    from django.conf import settings

    counts = _counts()
    targets, about = _targets(None)
    username = f"{about['municipality']}-staff"
    session = staff_session(username)
    targets, about = _targets(session[:2])
    if only:
        unknown = sorted(set(only) - set(targets))
        if unknown:
            raise SystemExit(f"--only: no such target: {', '.join(unknown)}")
        # The trivial page stays: every share is of it.
        targets = {name: r for name, r in targets.items() if name in {"trivial", *only}}
    inspected = {name: _inspect(requests) for name, requests in targets.items()}
    session_note = (
        f"{session[2]}; the queue answered {inspected.get('staff_queue', {}).get('status')}"
    )
    for name in ("staff_queue", "permit_page"):
        if name in inspected and inspected[name]["status"] != 200:
            where = inspected[name]["location"]
            inspected[name]["skipped"] = f"the staff session was not accepted (sent to {where})"
            del targets[name]
    swept = sweep_at_scale() if not only else {"skipped": "--only"}
    from django.db import connections

    connections.close_all()
    from siltfence.config.gunicorn import threads_for

    servers: dict[str, Any] = {}
    for worker_class, how in SERVERS.items():
        load_before = os.getloadavg()
        with gunicorn({**env, "SILTFENCE_WORKER_CLASS": worker_class}, port):
            measured = measure(targets, port, seconds, warmup, repeats, how["keep_alive"])
        pages: dict[str, Any] = {}
        for name, requests in targets.items():
            pages[name] = {
                "requests": [f"{r.method} {r.path}" for r in requests[:3]]
                + ([f"... {len(requests)} in turn"] if len(requests) > 3 else []),
                **measured[name],
                "in_process": inspected[name],
            }
        for name, found in inspected.items():
            if "skipped" in found:
                pages[name] = {"skipped": found["skipped"], "in_process": found}
        servers[worker_class] = {
            "serves": how["serves"],
            "worker_class": worker_class,
            "gunicorn_workers": WORKERS,
            "threads_per_worker": threads_for(worker_class),
            "clients_keep_their_connection": how["keep_alive"],
            # The machine is shared: its load (1, 5 and 15 minutes) around the measurements.
            "load_average_before": [round(x, 2) for x in load_before],
            "load_average_after": [round(x, 2) for x in os.getloadavg()],
            "pages": pages,
        }
    return {
        "database": "postgresql",
        "scale": {
            **counts,
            "command": " ".join(shown),
            "generator_s": round(generated_s, 1),
            "rain_sources": counts.pop("rain_sources"),
        },
        "load": {
            "clients": CLIENTS,
            "seconds_per_run": seconds,
            "warmup_s": warmup,
            "repeats": repeats,
            "debug": settings.DEBUG,
        },
        "code": _code(),
        "staff": {"user": username, "session": session_note, **about},
        "servers": servers,
        "sweep_and_recompute_at_scale": swept,
        "when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--permits", type=int, default=100_000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", default="", help="targets, comma-separated (default: all)")
    arguments = parser.parse_args()
    only = [name.strip() for name in arguments.only.split(",") if name.strip()]
    json.dump(
        main(arguments.permits, arguments.seconds, arguments.warmup, arguments.repeats, only),
        sys.stdout,
        indent=2,
    )
    sys.stdout.write("\n")
