"""docs/deploy.md's environment file and its cron lines, run as written.

The environment file is sourced by a shell (`set -a && . /etc/siltfence/env`), as the cron
lines do; a value with a space or a `<` must be quoted, or every cron job exits 2 and never
runs (the audit checkpoint, its verification, the backup). The cron lines are run with the
guide's paths pointed at a throw-away copy: the checkpoint, the verification and the
backup each exit 0 and leave what they promise.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GUIDE = (REPO / "docs" / "deploy.md").read_text()


def _environment_file() -> str:
    section = GUIDE[GUIDE.index("## 1. The environment") :]
    return section[section.index("```sh\n") + 6 : section.index("\n```", section.index("```sh"))]


def _cron_lines() -> list[str]:
    lines = []
    for block in re.findall(r"```cron\n(.*?)\n```", GUIDE, flags=re.S):
        lines += [line for line in block.splitlines() if line and not line.startswith("#")]
    return lines


def _sourced(env_file: Path, names: list[str]) -> dict[str, str]:
    shown = "; ".join(f'printf "%s\\0" "${name}"' for name in names)
    done = subprocess.run(
        ["bash", "-c", f"set -euo pipefail; set -a; . {env_file}; {shown}"],
        capture_output=True,
        text=True,
        env={"PATH": os.environ["PATH"]},
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    return dict(zip(names, done.stdout.split("\0")[:-1], strict=True))


@pytest.mark.no_suite_database
def test_the_environment_file_sources_in_a_shell_to_the_values_it_shows(tmp_path):
    env_file = tmp_path / "env"
    env_file.write_text(_environment_file() + "\n")
    values = _sourced(env_file, ["DEFAULT_FROM_EMAIL", "ALLOWED_HOSTS", "SILTFENCE_WORKER_CLASS"])
    assert values == {
        "DEFAULT_FROM_EMAIL": "Village permits <permits@example.org>",
        "ALLOWED_HOSTS": "permits.example.org",
        "SILTFENCE_WORKER_CLASS": "sync",
    }


@pytest.mark.no_suite_database
def test_the_guides_cron_lines_run_as_written_against_a_copy(tmp_path):
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    backups = tmp_path / "backups"
    backups.mkdir()
    # The guide's file, with this machine's places and secrets put in for its own: a SQLite
    # database in the copy's data folder and no mail server to reach.
    text = _environment_file()
    text = text.replace("SECRET_KEY=...", "SECRET_KEY=" + "k" * 50)
    text = text.replace("SILTFENCE_AUDIT_KEY=...", "SILTFENCE_AUDIT_KEY=" + "a" * 48)
    text = text.replace(
        "SILTFENCE_SECOND_FACTOR_KEY=...", "SILTFENCE_SECOND_FACTOR_KEY=" + "s" * 40
    )
    text = text.replace("EMAIL_HOST_PASSWORD=...", "EMAIL_HOST_PASSWORD=x")
    text = re.sub(
        r"(?m)^DATABASE_URL=.*$", f"DATABASE_URL=sqlite:///{data}/siltfence.sqlite3", text
    )
    text = re.sub(r"(?m)^SILTFENCE_DATA_DIR=.*$", f"SILTFENCE_DATA_DIR={data}", text)
    text = re.sub(r"(?m)^SILTFENCE_AUDIT_CLERK_EMAIL=.*$", "SILTFENCE_AUDIT_CLERK_EMAIL=", text)
    text = re.sub(r"(?m)^SILTFENCE_ENV=.*$", "SILTFENCE_ENV=local", text)
    env_file = tmp_path / "env"
    env_file.write_text(text + "\n")
    base = {"PATH": os.environ["PATH"], "HOME": str(tmp_path)}
    migrate = subprocess.run(
        ["bash", "-c", f"set -a && . {env_file} && .venv/bin/python -m siltfence.manage migrate"],
        cwd=REPO,
        env=base,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert migrate.returncode == 0, migrate.stderr[-2000:]
    ran = []
    for line in _cron_lines():
        fields = line.split(None, 6)
        command = fields[6]  # minute hour day month weekday user COMMAND
        if "rsync" in command:
            continue  # a copy to another machine: not this test's to reach
        command = (
            command.replace("/srv/siltfence/app", str(REPO))
            .replace("/etc/siltfence/env", str(env_file))
            .replace("/srv/backups", str(backups))
        )
        done = subprocess.run(
            ["bash", "-c", command], env=base, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, f"{line}\n{done.stdout[-1000:]}{done.stderr[-2000:]}"
        ran.append(command)
    assert any("audit checkpoint" in c for c in ran) and any("audit verify" in c for c in ran)
    archives = list(backups.glob("siltfence-*.tar.gz"))
    assert len(archives) == 1
    assert archives[0].stat().st_mode & 0o077 == 0  # the archive holds the whole database
