"""Killed at any moment (SIGKILL: no clean-up runs), the demo loader and a rain import
leave nothing half-written, and run again they finish the job: the database then holds
what one clean run leaves, row for row; every stored file is named by a row and every
row's file is stored; the audit chain verifies (``siltfence audit verify``).

Each process runs as a person runs it, against its own SQLite database and data folder.
The kills land at random moments between 0.2 s and the time a clean run takes on this
machine (measured first); three seeded kills, one in each third of that time, then a run
to the end. The import's rows are also checked against the file itself.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher

from rainfiles import STATIONS, many_days_file

MANAGE = [sys.executable, "-m", "siltfence.manage"]
# The demo loader is a tool of the repository (tools/), found from its root.
REPO = Path(__file__).resolve().parents[2]
DEMO_LOAD = [sys.executable, "-m", "tools.demo_load"]
SILTFENCE = [sys.executable, "-c", "from siltfence.cli.determine import run; run()"]
SEEDS = (11, 22)
RAIN_DAYS = 1_500  # at three stations: 4,500 station-days, 18 batches of 250
BATCH = 250
# Every demo login's password (README, "Trying it").
DEMO_PASSWORD = "silt-fence-demo-2026"
DEMO_LOGINS = 21  # the 20 people of the demo (README) and demo-admin


def _env(data_dir: Path) -> dict[str, str]:
    # Each process reads its database and data folder from the environment; a PostgreSQL
    # DATABASE_URL of the test run must not leak into it.
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SILTFENCE_ENV")}
    return {
        **env,
        "DJANGO_SETTINGS_MODULE": "siltfence.config.settings",
        "SILTFENCE_DATA_DIR": str(data_dir),
        "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p),
    }


def _run(args: list[str], data_dir: Path) -> tuple[subprocess.CompletedProcess[str], float]:
    start = time.monotonic()
    done = subprocess.run(args, capture_output=True, text=True, timeout=300, env=_env(data_dir))
    assert done.returncode == 0, done.stderr[-3000:]
    return done, time.monotonic() - start


def _kill_after(args: list[str], data_dir: Path, delay: float) -> bool:
    """Start ``args`` and SIGKILL it after ``delay`` seconds; whether it was still running."""
    with subprocess.Popen(
        args, env=_env(data_dir), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    ) as child:
        try:
            _, errors = child.communicate(timeout=delay)
        except subprocess.TimeoutExpired:
            child.send_signal(signal.SIGKILL)
            child.communicate(timeout=30)
            return True
        assert child.returncode == 0, errors.decode()[-3000:]
        return False


def _delays(seed: int, typical: float) -> list[float]:
    """Three moments between 0.2 s and ``typical``, one in each third."""
    chooser = random.Random(seed)
    span = (typical - 0.2) / 3
    return [0.2 + span * (third + chooser.random()) for third in range(3)]


def _file_columns() -> list[tuple[str, str]]:
    """(table, column) of every stored-file field of the app's models."""
    from django.apps import apps
    from django.db.models import FileField

    return [
        (model._meta.db_table, field.column)
        for model in apps.get_models()
        for field in model._meta.concrete_fields
        if isinstance(field, FileField)
    ]


def _state(data_dir: Path) -> dict[str, Any]:
    """Rows per table, the file names rows hold, and the files on disk."""
    with sqlite3.connect(data_dir / "siltfence.sqlite3") as db:
        tables = [
            name
            for (name,) in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        counts = {t: db.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in tables}
        named: list[str] = []
        for table, column in _file_columns():
            named += [
                name
                for (name,) in db.execute(f'SELECT "{column}" FROM "{table}"')
                if name  # an appeal not yet decided has no decision document
            ]
        # The rain file's stations (the demo keeps a month of rain at its own).
        rain = {
            (station, day): tenths
            for station, day, tenths in db.execute(
                "SELECT station_id, day, tenths_mm FROM rain_rainday WHERE station_id IN (?, ?, ?)",
                STATIONS,
            )
        }
        passwords = [p for (p,) in db.execute("SELECT password FROM auth_user")]
        # Each run of an import is on the audit record ("begun", and "ended" when it ends):
        # one cut short leaves its "begun" entry, by design.
        begun = db.execute(
            "SELECT COUNT(*) FROM audit_auditevent "
            "WHERE action IN ('rain_import_begin', 'rain_import')"
        ).fetchone()[0]
    media = data_dir / "media"
    stored = sorted(p.relative_to(media).as_posix() for p in media.rglob("*") if p.is_file())
    staging = data_dir / "media-staging"
    staged = sorted(
        p.relative_to(staging).as_posix()
        for p in staging.rglob("*")
        if p.is_file() and p.name != ".lock"
    )
    return {
        "counts": counts,
        "named": named,
        "stored": stored,
        "staged": staged,
        "rain": rain,
        "passwords": passwords,
        "begun": begun,
    }


def _no_file_without_its_row(state: dict[str, Any], when: str) -> None:
    orphans = set(state["stored"]) - set(state["named"])
    assert not orphans, f"{when}: {len(orphans)} stored files no row names: {sorted(orphans)[:5]}"


def _complete(state: dict[str, Any], clean: dict[str, Any], when: str) -> None:
    # The same rows as a run never killed, but for the audit record's entries of the runs
    # of the import that were cut short (or run again): nothing else.
    audit = "audit_auditevent"
    assert {**state["counts"], audit: 0} == {**clean["counts"], audit: 0}, when
    extra = state["counts"][audit] - clean["counts"][audit]
    assert extra == state["begun"] - clean["begun"] >= 0, when
    # One row a file, every file stored once, and nothing left half-moved.
    assert len(state["named"]) == len(set(state["named"])), when
    assert sorted(state["named"]) == state["stored"], when
    assert state["staged"] == [], when


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("migrated")
    _run([*MANAGE, "migrate", "--noinput", "--skip-checks"], folder)
    return folder


def _copy(migrated: Path, folder: Path) -> Path:
    folder.mkdir()
    for file in migrated.glob("siltfence.sqlite3*"):
        shutil.copy(file, folder / file.name)
    return folder


def _verify(data_dir: Path) -> str:
    done, _ = _run([*SILTFENCE, "audit", "verify"], data_dir)
    return done.stdout


def _kill_then_finish(args: list[str], data_dir: Path, typical: float, seed: int) -> list[Any]:
    """Kill ``args`` at three random moments, checking what each kill left, then run it
    to the end. Returns each kill's moment and whether the process was still running."""
    kills: list[Any] = []
    for delay in _delays(seed, typical):
        killed = _kill_after(args, data_dir, delay)
        kills.append((round(delay, 2), "killed" if killed else "had finished"))
        after = _state(data_dir)
        _no_file_without_its_row(after, f"after the kill at {kills[-1]}")
        # Whole batches of rain only.
        assert len(after["rain"]) % BATCH == 0, kills[-1]
    _run(args, data_dir)
    return kills


def test_the_demo_and_a_rain_import_killed_at_random_moments_finish_when_run_again(
    migrated: Path, tmp_path: Path
):
    rain_file = tmp_path / "three-stations.csv"
    expected_rain = {
        (station, day.isoformat()): tenths
        for (station, day), tenths in many_days_file(rain_file, days=RAIN_DAYS).items()
    }
    demo = DEMO_LOAD
    rain = [*SILTFENCE, "rain", "import", str(rain_file), "--batch-size", str(BATCH)]
    folders = {name: _copy(migrated, tmp_path / name) for name in ("demo", "rain")}
    clean = {name: _copy(migrated, tmp_path / f"clean-{name}") for name in ("demo", "rain")}

    # The demo and the import are independent: each runs beside the other, in its own
    # database. First a clean run of each, timed: what a finished run leaves.
    with ThreadPoolExecutor(2) as pool:
        demo_run = pool.submit(_run, demo, clean["demo"])
        rain_run = pool.submit(_run, rain, clean["rain"])
        demo_time, rain_time = demo_run.result()[1], rain_run.result()[1]
    finished = {name: _state(folder) for name, folder in clean.items()}
    assert finished["rain"]["rain"] == expected_rain
    assert finished["demo"]["named"]  # the demo stores plans, permits, letters and placards

    # Then each killed three times at random moments, and run to the end.
    with ThreadPoolExecutor(2) as pool:
        demo_kills = pool.submit(_kill_then_finish, demo, folders["demo"], demo_time, SEEDS[0])
        rain_kills = pool.submit(_kill_then_finish, rain, folders["rain"], rain_time, SEEDS[1])
        kills = {"demo_load": demo_kills.result(), "rain import": rain_kills.result()}
        verified = {name: pool.submit(_verify, folder) for name, folder in folders.items()}
        said = {name: future.result() for name, future in verified.items()}
    for name, folder in folders.items():
        state = _state(folder)
        _complete(state, finished[name], f"{name} after the kills {kills}")
        events = state["counts"]["audit_auditevent"]
        assert said[name] == f"audit chain intact: {events} events verified\n"
    assert _state(folders["rain"])["rain"] == expected_rain

    # Every demo login has its password, whatever moment a kill came at.
    passwords = _state(folders["demo"])["passwords"]
    assert len(passwords) == DEMO_LOGINS
    # Each run hashes the password once, so a load killed part way and run again may hold
    # two hashes (two salts) of it: each one must be the password's.
    for hashed in set(passwords):
        assert hashed.startswith("pbkdf2_sha256$")  # Django's default hasher
        assert PBKDF2PasswordHasher().verify(DEMO_PASSWORD, hashed)
