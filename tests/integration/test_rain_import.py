"""Importing rain files into the database: idempotent, resumable after a kill, all or
nothing for a bad file, and the staff upload page.

The amounts are the fixtures' (NOAA's May 2024 record of Milwaukee Mitchell, in tenths of
a millimetre, as published): on 2024-05-07 the station measured 31.0 mm.
"""

from __future__ import annotations

import datetime
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rainfiles import many_days_file
from siltfence.apps.rain.models import RainDay, RainImportJob, Station
from siltfence.apps.rain.services import rain_file_import
from siltfence.core.errors import SiltfenceError

FIXTURES = Path(__file__).resolve().parents[1] / "unit" / "rain" / "fixtures"
BY_STATION = FIXTURES / "USW00014839-by_station.csv"


def table() -> list[tuple]:
    return list(
        RainDay.objects.order_by("station_id", "day").values_list(
            "station_id", "day", "tenths_mm", "set_aside", "source"
        )
    )


@pytest.mark.django_db
def test_importing_a_file_twice_changes_nothing_the_second_time():
    first = rain_file_import(path=BY_STATION)
    assert (first.new, first.changed, first.unchanged) == (31, 0, 0)
    stored = table()
    assert len(stored) == 31
    day = {row[1]: row for row in stored}
    assert day[datetime.date(2024, 5, 7)][2] == 310
    assert day[datetime.date(2024, 5, 5)][2] == 0  # a trace is no measurable rain
    # 2024-05-16 carries quality flag K: kept as a day with no amount, and why
    assert day[datetime.date(2024, 5, 16)][2:4] == (
        None,
        "failed NOAA's quality control (Q flag K)",
    )
    station = Station.objects.get()
    assert (station.id, station.name, station.latitude) == (
        "USW00014839",
        "MILWAUKEE MITCHELL AP",
        42.955,
    )

    second = rain_file_import(path=BY_STATION)
    assert (second.new, second.changed, second.unchanged) == (0, 0, 31)
    assert table() == stored


@pytest.mark.django_db
def test_a_corrected_value_changes_only_that_day(tmp_path):
    rain_file_import(path=BY_STATION)
    corrected = tmp_path / "corrected.csv"
    corrected.write_text(
        BY_STATION.read_text().replace(
            "USW00014839,20240507,PRCP,310,", "USW00014839,20240507,PRCP,312,"
        )
    )
    result = rain_file_import(path=corrected)
    assert (result.new, result.changed, result.unchanged) == (0, 1, 30)
    assert RainDay.objects.get(day=datetime.date(2024, 5, 7)).tenths_mm == 312


@pytest.mark.django_db
def test_a_bad_line_at_the_end_of_a_file_writes_nothing(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text(BY_STATION.read_text() + "USW00014839,20240601,PRCP,x,,,W,2400\n")
    with pytest.raises(SiltfenceError, match=r"^rain: line 63: DATA VALUE"):
        rain_file_import(path=bad)
    assert RainDay.objects.count() == 0
    assert Station.objects.count() == 0


@pytest.mark.django_db
def test_a_file_that_names_no_station_needs_one_and_a_gauge_is_summed_by_day():
    with pytest.raises(SiltfenceError, match=r"^station: the file names no station"):
        rain_file_import(path=FIXTURES / "gauge-minutes.csv")
    call_command("rain_import", str(FIXTURES / "gauge-minutes.csv"), "--station", "SITE-7")
    days = dict(RainDay.objects.values_list("day", "tenths_mm"))
    # 0.25 + 0.40 + 0.05 + 0.30 in on May 7 local = 1.00 in = 25.4 mm
    assert days[datetime.date(2024, 5, 7)] == 254
    assert Station.objects.get().id == "SITE-7"


def database_url() -> str:
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    return (
        f"postgres://{settings['USER']}:{settings['PASSWORD']}@{settings['HOST'] or 'localhost'}"
        f":{settings['PORT'] or 5432}/{settings['NAME']}"
    )


@pytest.mark.django_db(transaction=True)
def test_an_import_killed_part_way_loses_and_duplicates_nothing_when_run_again(tmp_path):
    big = tmp_path / "three-stations.csv"
    expected = many_days_file(big)
    command = [
        sys.executable,
        "-c",
        "from siltfence.cli.determine import run; run()",
        "rain",
        "import",
        str(big),
        "--batch-size",
        "250",
    ]
    env = {**os.environ, "DATABASE_URL": database_url(), "COLUMNS": "200"}
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while RainDay.objects.count() < 2_000:
        assert child.poll() is None, child.stderr.read() if child.stderr else ""
        assert time.monotonic() < deadline, "the import wrote nothing in two minutes"
        time.sleep(0.02)
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    after_kill = RainDay.objects.count()
    assert 2_000 <= after_kill < len(expected), "the kill must land part way"
    assert after_kill % 250 == 0  # whole batches only: nothing half-written

    rerun = rain_file_import(path=big, batch_size=250)
    assert (rerun.new, rerun.changed, rerun.unchanged) == (
        len(expected) - after_kill,
        0,
        after_kill,
    )
    stored = {
        (station, day): tenths
        for station, day, tenths in RainDay.objects.values_list("station_id", "day", "tenths_mm")
    }
    assert stored == expected
    assert RainDay.objects.count() == len(expected) == 60_000


@pytest.mark.django_db
def test_staff_import_a_file_on_the_page_and_others_may_not(client, people, settings):
    staff = people.staff["new-glarus-wi"]
    client.force_login(people.applicant_a)
    assert client.get("/rain/import/").status_code == 403
    client.force_login(staff)
    page = client.get("/rain/import/")
    assert page.status_code == 200
    assert b"No rain imported yet." in page.content
    upload = SimpleUploadedFile("may.csv", BY_STATION.read_bytes(), content_type="text/csv")
    done = client.post("/rain/import/", {"file": upload})
    assert done.status_code == 200
    assert b"may.csv: 31 day(s) of USW00014839 (31 days): 31 new, 0 changed" in done.content
    assert RainDay.objects.count() == 31

    bad = SimpleUploadedFile("notes.csv", b"name,address\nJo,Main\n", content_type="text/csv")
    refused = client.post("/rain/import/", {"file": bad})
    assert refused.status_code == 400
    assert b"rain: line 1: not a rain file siltfence reads" in refused.content

    settings.SILTFENCE_UPLOAD_MAX_BYTES = 100
    again = SimpleUploadedFile("may.csv", BY_STATION.read_bytes(), content_type="text/csv")
    too_big = client.post("/rain/import/", {"file": again})
    assert too_big.status_code == 400
    assert b"larger than 100 bytes" in too_big.content
    assert RainDay.objects.count() == 31


def _by_station_days() -> dict[datetime.date, int | None]:
    """The fixture's days as written in it: PRCP lines, tenths of a millimetre; a day with a
    quality flag is kept with no amount."""
    days: dict[datetime.date, int | None] = {}
    for line in BY_STATION.read_text().splitlines():
        station, day, element, value, _, quality, *_ = line.split(",")
        if station == "USW00014839" and element == "PRCP":
            on = datetime.datetime.strptime(day, "%Y%m%d").date()
            days[on] = None if quality else int(value)
    return days


def _fingerprint() -> tuple:
    return (
        table(),
        sorted(Station.objects.values_list("id", "name", "latitude", "longitude")),
        RainImportJob.objects.count(),
    )


@settings(
    deadline=5000,
    max_examples=39,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    content=st.one_of(st.binary(max_size=300), st.just(BY_STATION.read_bytes())),
    station=st.text(max_size=45),
    units=st.text(max_size=6),
)
@example(content=BY_STATION.read_bytes(), station=" ", units="")
@pytest.mark.django_db
def test_any_upload_on_the_page_is_imported_or_refused_never_a_server_error(
    client, people, content, station, units
):
    client.force_login(people.staff["spencer-wi"])
    before = _fingerprint()
    upload = SimpleUploadedFile("rain.csv", content, content_type="text/csv")
    response = client.post("/rain/import/", {"file": upload, "station": station, "units": units})
    assert response.status_code in (200, 400)
    if response.status_code == 400:
        assert b"usa-error-message" in response.content or b"usa-alert--error" in response.content
        assert _fingerprint() == before  # refused: nothing written
        return
    rows, after = before[0], table()
    others = [r for r in after if r[0] != "USW00014839"]
    if content == BY_STATION.read_bytes() and station.strip() in ("", "USW00014839"):
        # Accepted: the station's days are exactly the file's, and nothing else changed.
        days = {r[1]: r[2] for r in after if r[0] == "USW00014839"}
        assert days == _by_station_days()
        assert others == [r for r in rows if r[0] != "USW00014839"]
        station_row = Station.objects.get(pk="USW00014839")
        assert (station_row.name, station_row.latitude) == ("MILWAUKEE MITCHELL AP", 42.955)
        assert b"31 day(s) of USW00014839" in response.content
    else:
        # Anything else taken: what changed is what the page says was imported.
        result = response.context["result"]
        changed = set(after) - set(rows)
        assert len(changed) == result.new + result.changed
        assert {r[0] for r in changed} <= set(result.stations)
        assert set(rows) - set(after) <= {r for r in rows if r[0] in result.stations}


@pytest.mark.django_db
def test_rain_imported_shows_on_the_permits_at_once(client, people):
    # A Spencer permit issued in July 2026 whose site has no station yet (no station had a
    # record for its days). Staff import Marshfield's gauge: 0.30 + 0.50 in on 2026-07-08,
    # 0.8 in (20.3 mm), at least half an inch. Without waiting for the morning's sweep the
    # site reads Marshfield (18 km), the rain is on the permit, and an inspection is owed
    # by the next day (§ 413-8E(3)(g), gap 3).
    from sitework import local, permit_issued

    from siltfence.apps.duties.models import PermitDuties, SiteStation
    from siltfence.apps.duties.stations import stations_sync

    stations_sync()
    permit = permit_issued(
        applicant=people.applicant_a,
        staff=people.staff["spencer-wi"],
        village="spencer-wi",
        filed=local(2026, 7, 1, 9),
    )
    assert not SiteStation.objects.filter(site=permit.application.site).exists()
    client.force_login(people.staff["spencer-wi"])
    gauge = SimpleUploadedFile(
        "gauge.csv",
        b"timestamp,rain_in\n2026-07-08T03:00,0.30\n2026-07-08T05:00,0.50\n",
        content_type="text/csv",
    )
    done = client.post("/rain/import/", {"file": gauge, "station": "USC00475120"})
    assert done.status_code == 200, done.content
    assert (
        "On the permits: 1 site(s) now read their rain here; 1 qualifying rain(s) written "
        "onto 1 permit(s); 1 permit(s) now owe an inspection after rain."
    ) in done.content.decode()
    [rain] = [
        d for d in PermitDuties.objects.get(permit=permit).duties if d["kind"] == "rain_inspection"
    ]
    assert (rain["due"], rain["rain"]["mm"]) == ("2026-07-09", 20.3)
    # Staff see the station's rains, which meet the rule and why.
    station_page = client.get(f"/staff/sites/{permit.application.site.pk}/rain-station/")
    rains = station_page.content.decode()
    assert 'data-testid="station-rains"' in rains
    assert "2026-07-08</td>" in rains and "<strong>Yes</strong>" in rains
    # The same file again changes nothing on the permits either.
    again = SimpleUploadedFile(
        "gauge.csv",
        b"timestamp,rain_in\n2026-07-08T03:00,0.30\n2026-07-08T05:00,0.50\n",
        content_type="text/csv",
    )
    repeat = client.post("/rain/import/", {"file": again, "station": "USC00475120"})
    assert "On the permits" not in repeat.content.decode()


@pytest.mark.django_db
def test_an_import_is_on_the_audit_record_with_the_file_s_hash_and_counts():
    import hashlib

    from siltfence.apps.audit.models import AuditEvent

    digest = hashlib.sha256(BY_STATION.read_bytes()).hexdigest()
    rain_file_import(path=BY_STATION, name="milwaukee-may-2024.csv")
    rain_file_import(path=BY_STATION, name="milwaukee-may-2024.csv")
    events = list(AuditEvent.objects.filter(entity="rain_file").order_by("seq"))
    assert [e.action for e in events] == [
        "rain_import_begin",
        "rain_import",
        "rain_import_begin",
        "rain_import",
    ]
    begun, done = events[0], events[1]
    assert begun.after["sha256"] == digest and begun.after["file"] == "milwaukee-may-2024.csv"
    assert begun.after["stations"] == {"USW00014839": 31}
    # The fixture's May 2024: 31 days, all new the first time, all unchanged the second.
    assert (done.after["new"], done.after["changed"], done.after["unchanged"]) == (31, 0, 0)
    assert (events[3].after["new"], events[3].after["unchanged"]) == (0, 31)


@pytest.mark.django_db
def test_a_bad_file_leaves_nothing_on_the_record_but_a_refusal(tmp_path):
    from siltfence.apps.audit.models import AuditEvent

    bad = tmp_path / "bad.csv"
    bad.write_text(BY_STATION.read_text() + "USW00014839,20240601,PRCP,x,,,W,2400\n")
    with pytest.raises(SiltfenceError):
        rain_file_import(path=bad)
    assert not AuditEvent.objects.filter(entity="rain_file").exists()
    assert not RainDay.objects.exists()


@pytest.mark.django_db
def test_a_rain_day_cannot_be_edited_in_the_admin_site_only_imported(people):
    from django.contrib.auth import get_user_model
    from django.test import Client

    rain_file_import(path=BY_STATION)
    day = RainDay.objects.get(day=datetime.date(2024, 5, 7))
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "x" * 20)
    client = Client()
    client.force_login(admin)
    url = f"/admin/rain/rainday/{day.pk}/change/"
    assert client.get(url).status_code == 200  # it can be read
    client.post(url, {"station": day.station_id, "day": "2024-05-07", "tenths_mm": "999"})
    client.post(f"/admin/rain/rainday/{day.pk}/delete/", {"post": "yes"})
    day.refresh_from_db()
    assert day.tenths_mm == 310


@pytest.mark.django_db
def test_rain_days_recorded_directly_are_audited_with_a_correction_before_and_after():
    from siltfence.apps.audit.models import AuditEvent
    from siltfence.apps.duties.stations import stations_sync
    from siltfence.apps.rain.days import rain_days_record

    stations_sync()
    rain_days_record(station_id="USC00475120", days={datetime.date(2026, 7, 8): 150}, source="test")
    rain_days_record(
        station_id="USC00475120",
        days={datetime.date(2026, 7, 8): 180, datetime.date(2026, 7, 9): 0},
        source="test",
    )
    rain_days_record(
        station_id="USC00475120", days={datetime.date(2026, 7, 8): 180}, source="test"
    )  # unchanged: no entry
    events = list(AuditEvent.objects.filter(action="rain_days_record").order_by("seq"))
    assert len(events) == 2
    assert events[0].after["added"] == 1 and "corrected" not in events[0].after
    assert events[1].after["corrected"] == {"2026-07-08": {"before": 150, "after": 180}}
    assert events[1].after["added"] == 1


@pytest.mark.django_db
def test_an_import_is_anchored_at_once_where_the_deployment_has_a_key(settings, tmp_path):
    import json

    from siltfence.apps.audit.models import AuditEvent

    settings.SILTFENCE_AUDIT_KEY = "k" * 48
    settings.SILTFENCE_AUDIT_CHECKPOINTS = str(tmp_path / "checkpoints.jsonl")
    rain_file_import(path=BY_STATION)
    lines = (tmp_path / "checkpoints.jsonl").read_text().splitlines()
    assert len(lines) == 1
    # The checkpoint covers every event up to the import's end: none is left unanchored.
    assert json.loads(lines[0])["count"] == AuditEvent.objects.count() > 0


# The bounds of decision 34, on the three ways in: the staff page, the command line and the
# API. Each refuses alike, with the same sentence, naming the line and the field.

TOO_MUCH = (
    "is more than 1,000 mm (39.37 in), the most rain siltfence reads for one day (the world "
    "record is 1,825 mm in 24 hours); check the file's values and units"
)


def three_ways(client, content: bytes, tmp_path, station: str | None = None) -> list[str]:
    """The refusal of ``content`` on the upload page, by ``manage.py rain_import`` and by
    ``POST /api/v1/rain/storms``, each as its sentence; nothing is imported."""
    import html
    import json
    import re

    from django.core.management import CommandError

    upload = SimpleUploadedFile("rain.csv", content, content_type="text/csv")
    page = client.post("/rain/import/", {"file": upload, "station": station or ""})
    assert page.status_code == 400
    [shown] = re.findall(r'<p class="usa-alert__text">([^<]*)</p>', page.content.decode())
    path = tmp_path / "rain.csv"
    path.write_bytes(content)
    with pytest.raises(CommandError) as cli:
        call_command("rain_import", str(path), *(["--station", station] if station else []))
    body = {
        "jurisdiction": "new-glarus-wi",
        "file": content.decode(),
        "from": "2024-05-01",
        "to": "2024-05-31",
        **({"station": station} if station else {}),
    }
    api = client.post("/api/v1/rain/storms", json.dumps(body), content_type="application/json")
    assert api.status_code == 400
    assert not RainDay.objects.exists()
    return [html.unescape(shown), str(cli.value), api.json()["detail"]]


@pytest.mark.django_db
def test_a_day_of_9999_9_mm_is_refused_alike_on_the_page_the_command_line_and_the_api(
    client, people, tmp_path
):
    client.force_login(people.staff["spencer-wi"])
    content = b"USW00014839,20240506,PRCP,0,,,W,2400\nUSW00014839,20240507,PRCP,99999,,,W,2400\n"
    assert (
        three_ways(client, content, tmp_path)
        == [f"rain: line 2: DATA VALUE: 9,999.9 mm {TOO_MUCH}"] * 3
    )


@pytest.mark.django_db
def test_a_day_of_exactly_1000_mm_is_imported_as_given_and_1000_1_mm_is_refused(
    client, people, tmp_path
):
    client.force_login(people.staff["spencer-wi"])
    more = b"USW00014839,20240507,PRCP,10001,,,W,2400\n"
    assert (
        three_ways(client, more, tmp_path)
        == [f"rain: line 1: DATA VALUE: 1,000.1 mm {TOO_MUCH}"] * 3
    )
    exactly = b"USW00014839,20240507,PRCP,10000,,,W,2400\n"
    upload = SimpleUploadedFile("rain.csv", exactly, content_type="text/csv")
    assert client.post("/rain/import/", {"file": upload}).status_code == 200
    assert RainDay.objects.get().tenths_mm == 10_000


@pytest.mark.django_db
def test_a_station_called_nope_is_refused_alike_naming_the_station_field(client, people, tmp_path):
    client.force_login(people.staff["spencer-wi"])
    gauge = b"timestamp,rain_in\n2024-05-07T01:00,0.25\n"
    expected = (
        "station: expected a NOAA station ID of 11 letters and digits like USW00014839 or "
        "US1WIDN0004, or for a gauge of the village's own or a site's, SITE- or GAUGE- and a "
        "number or name, like SITE-7; got 'nope'"
    )
    assert three_ways(client, gauge, tmp_path, station="nope") == [expected] * 3


@pytest.mark.django_db
def test_a_rain_after_tomorrow_is_refused_alike_and_tomorrow_s_is_imported(
    client, people, tmp_path
):
    from django.utils import timezone

    from siltfence.apps.rain.services import ZONE

    client.force_login(people.staff["spencer-wi"])
    today = timezone.now().astimezone(ZONE).date()
    tomorrow, after = (today + datetime.timedelta(days=n) for n in (1, 2))
    row = "USW00014839,{:%Y%m%d},PRCP,127,,,W,2400\n"
    refused = three_ways(client, row.format(after).encode(), tmp_path)
    assert (
        refused
        == [
            f"rain: line 1: DATE: {after.isoformat()} is in the future (the file was read on "
            f"{today.isoformat()}, and a day up to {tomorrow.isoformat()} is taken): a rain "
            "record holds only days already measured, not a forecast"
        ]
        * 3
    )
    upload = SimpleUploadedFile("rain.csv", row.format(tomorrow).encode(), content_type="text/csv")
    assert client.post("/rain/import/", {"file": upload}).status_code == 200
    assert list(RainDay.objects.values_list("day", "tenths_mm")) == [(tomorrow, 127)]


@pytest.mark.django_db
def test_a_rain_in_the_year_2199_is_refused_on_the_page(client, people):
    client.force_login(people.staff["spencer-wi"])
    upload = SimpleUploadedFile(
        "rain.csv", b"USW00014839,21990507,PRCP,127,,,W,2400\n", content_type="text/csv"
    )
    refused = client.post("/rain/import/", {"file": upload})
    assert refused.status_code == 400
    assert b"rain: line 1: DATE: the year 2199 is outside 1700 to 2100" in refused.content
