"""Shared by the rain tests: the fixtures, the real Milwaukee record, and an opener."""

from __future__ import annotations

import datetime
import io
from pathlib import Path
from zoneinfo import ZoneInfo

from siltfence.core.rain import RainFile, open_rain

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).resolve().parents[3]
MILWAUKEE = REPO / ".." / "shared" / "data" / "rain" / "GHCN_USW00014839.csv"
CHICAGO = ZoneInfo("America/Chicago")


def day(text: str) -> datetime.date:
    return datetime.date.fromisoformat(text)


def readings_of(content: bytes, **options: object) -> list:
    rain = RainFile(io.BytesIO(content), zone=CHICAGO, **options)  # type: ignore[arg-type]
    return list(rain.readings())


def source_of(path: Path, **options: object):
    with path.open("rb") as stream:
        return open_rain(stream, zone=CHICAGO, **options)  # type: ignore[arg-type]
