"""A letter says the law in force on the day of the act it records (decision 39): with an
amendment entered in the data for a later day, a notice of intent issued before that day
keeps the old number, one issued on or after it has the new one. The day is the village's:
a notice issued at 11:30 p.m. in Spencer on the eve of the amendment is issued before it,
though it is already the next day in UTC.

Spencer § 413-10E: "after 14 days from issuing the notice of intent". The test's amendment
(no village's) makes it 21 days from 2030-01-01."""

from __future__ import annotations

import datetime
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest
from tests.integration.test_enforcement_documents import _case, _order

from siltfence.apps.enforcement.documents import lines_for
from siltfence.core.ordinance.loader import installed_root, load
from siltfence.presentation.today import ordinance_on

CHICAGO = ZoneInfo("America/Chicago")
AMENDED = datetime.date(2030, 1, 1)
OLD = '"after 14 days from issuing the notice of intent", so from the 15th day after the notice'
NEW = '"after 14 days from issuing the notice of intent", so from the 22nd day after the notice'


@pytest.fixture
def amended(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    root = tmp_path / "ordinances"
    shutil.copytree(installed_root(), root, ignore=shutil.ignore_patterns("cases"))
    path = root / "spencer-wi" / "parameters.yaml"
    text = path.read_text(encoding="utf-8")
    head = "\nvillage_work_wait_days:\n"
    assert text.count(head) == 1
    end = text.find("\n\n", text.index(head) + len(head))
    entry = (
        f"\n    {AMENDED.isoformat()}:\n      value: 21\n      citation: § 413-10E\n"
        "      text: an amendment (a test's, no village's)"
    )
    path.write_text(text[:end] + entry + text[end:], encoding="utf-8")
    monkeypatch.setenv("SILTFENCE_ORDINANCES", str(root))
    monkeypatch.setenv("SILTFENCE_CACHE_DIR", str(tmp_path / "cache"))
    load.cache_clear()
    yield
    load.cache_clear()


def _notice_at(moment: datetime.datetime) -> str:
    # The case and its stop-work order as the document tests make them: the rows do not
    # matter here, only the day the notice is read on.
    case = _case("spencer-wi", _order("spencer-wi"))
    action = SimpleNamespace(
        kind="notice_of_intent",
        at=moment,
        citation="§ 413-10E",
        details={"work": "Reinstall silt fence on the east line.", "work_from": "2030-01-20"},
    )
    return "\n".join(lines_for(case=case, action=action, kind="notice_of_intent"))


def test_the_ordinance_of_a_moment_is_the_one_of_the_villages_day(amended):
    eve = datetime.datetime(2029, 12, 31, 23, 30, tzinfo=CHICAGO)
    assert eve.astimezone(datetime.UTC).date() == AMENDED  # already the next day in UTC
    spencer = load("spencer-wi")
    assert ordinance_on("spencer-wi", eve).rules is spencer.rules_on(eve.date())
    assert ordinance_on("spencer-wi", eve).rules is not spencer.rules_on(AMENDED)
    assert ordinance_on("spencer-wi", AMENDED).rules is spencer.rules_on(AMENDED)


@pytest.mark.django_db
def test_a_notice_issued_before_the_amendment_keeps_the_old_number(amended):
    eve = datetime.datetime(2029, 12, 31, 23, 30, tzinfo=CHICAGO)
    text = _notice_at(eve)
    assert OLD in text and NEW not in text


@pytest.mark.django_db
def test_a_notice_issued_on_the_amendments_day_has_the_new_number(amended):
    text = _notice_at(datetime.datetime(2030, 1, 1, 9, tzinfo=CHICAGO))
    assert NEW in text and OLD not in text
