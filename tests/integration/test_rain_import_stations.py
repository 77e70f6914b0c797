"""Importing rain the way a clerk expects: the stations a file holds are offered, the clerk
ticks which to import, the file is kept so the choice can be made again, the village's own
gauge is added as a station and its days entered by hand, and the page says which permits
read their rain at the stations imported.

The files are real records. ``2024-by_year-sample.csv`` is NOAA's GHCN-Daily ``by_year``
layout for 1-5 June 2024 at four stations; its Milwaukee rows are the real file's
(``/work/shared/data`` layout: 0.25984266 in on June 1 is 66 tenths of a millimetre, 0.50000027
in on June 3 is 127). ``GHCN_USW00014839.csv`` is Milwaukee Mitchell's daily record in
inches; in July 2026 it has 1.74803244 in on the 27th (444 tenths) and 0.90944931 in on
the 31st (231 tenths), each half an inch or more on its own: two rains.
"""

from __future__ import annotations

import datetime
import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from factories import make_user, text_of
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rainfiles import STATIONS, many_days_file
from siltfence.apps.accounts.models import Role
from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.duties.models import PermitDuties, SiteStation
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.rain import gauges, jobs
from siltfence.apps.rain.models import RainDay, RainImportJob, Station
from siltfence.apps.rain.services import rain_file_import
from siltfence.apps.rain.tasks import rain_import_task

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[1] / "unit" / "rain" / "fixtures"
BY_YEAR = FIXTURES / "2024-by_year-sample.csv"
MILWAUKEE_FILE = Path("/work/shared/data/rain/GHCN_USW00014839.csv")
CHICAGO = ZoneInfo("America/Chicago")
SPENCER, NEW_GLARUS = "spencer-wi", "new-glarus-wi"
MILWAUKEE, MONROE, MADISON, PERTH = "USW00014839", "USC00475573", "USW00014837", "ASN00001019"


def said(response) -> str:
    """The page's text as a person reads it: a link followed by a comma reads "link,"."""
    return re.sub(r" ([,.;:)])", r"\1", text_of(response))


def upload(client, content: bytes, name: str = "june.csv", **fields):
    file = SimpleUploadedFile(name, content, content_type="text/csv")
    return client.post("/rain/import/", {"file": file, **fields})


def milwaukee_july_2026() -> bytes:
    """The real file's header and its 31 days of July 2026."""
    lines = MILWAUKEE_FILE.read_text().splitlines()
    days = [line for line in lines if line.startswith("2026,07,")]
    assert len(days) == 31
    return ("\n".join([lines[0], *days]) + "\n").encode()


def kept_job(client, people, village: str = SPENCER) -> RainImportJob:
    client.force_login(people.staff[village])
    response = upload(client, BY_YEAR.read_bytes())
    job = RainImportJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/rain/import/{job.pk}/stations/"
    return job


# -- the choice of stations -------------------------------------------------------------


def test_a_file_of_four_stations_offers_each_and_writes_nothing_until_the_clerk_chooses(
    client, people
):
    job = kept_job(client, people)
    assert (job.status, job.choose, job.villages, job.name) == (
        "choosing",
        True,
        [SPENCER],
        "june.csv",
    )
    # Kept under a name the server made, with nothing of it written yet.
    assert Path(job.file.path).read_bytes() == BY_YEAR.read_bytes()
    assert not RainDay.objects.exists() and not Station.objects.exists()
    assert not AuditEvent.objects.filter(entity="rain_file").exists()

    page = client.get(f"/rain/import/{job.pk}/stations/")
    assert page.status_code == 200
    text = said(page)
    # Worked out from the file by hand: Perth (Australia) has 0 mm and 1.2 mm on June 1
    # and 2 and -9999 (missing) on June 3; the three Wisconsin stations a value each day.
    assert (
        f"{PERTH} 2 days with a record, from June 1, 2024 to June 2, 2024; 1 day without "
        "one. Where it stands is not known."
    ) in text
    assert (
        f"{MONROE}, MONROE WWTP 5 days with a record, from June 1, 2024 to June 5, 2024. "
        "Stands at 42.5992° N, 89.6669° W."
    ) in text
    assert (
        f"{MADISON}, MADISON DANE CO RGNL AP 5 days with a record, from June 1, 2024 to "
        "June 5, 2024. Stands at 43.1406° N, 89.3453° W."
    ) in text
    assert (
        f"{MILWAUKEE}, MILWAUKEE MITCHELL AP 5 days with a record, from June 1, 2024 to "
        "June 5, 2024. Stands at 42.9550° N, 87.9044° W."
    ) in text
    # Every one ticked at first; the page says what happens next and links back.
    assert page.content.decode().count('name="stations"') == 4
    assert page.content.decode().count(" checked>") == 4
    assert "What happens next: the ticked stations are imported at once." in text
    assert f'href="/rain/import/{job.pk}/"' in page.content.decode()
    assert 'href="/rain/import/"' in page.content.decode()
    # The import page and the job's page both lead to the choice.
    listed = client.get("/rain/import/").content.decode()
    assert (
        f'<a href="/rain/import/{job.pk}/stations/">choose the stations of june.csv</a>' in listed
    )
    job_page = client.get(f"/rain/import/{job.pk}/")
    assert b'data-status="choosing"' in job_page.content
    assert f'href="/rain/import/{job.pk}/stations/"'.encode() in job_page.content
    assert b'http-equiv="refresh"' not in job_page.content  # nothing runs while it waits


def test_only_the_ticked_stations_are_imported_and_more_may_be_chosen_later(client, people):
    job = kept_job(client, people)
    chosen = client.post(f"/rain/import/{job.pk}/stations/", {"stations": [MONROE, MILWAUKEE]})
    assert chosen.status_code == 302 and chosen["Location"] == f"/rain/import/{job.pk}/"
    job.refresh_from_db()
    assert (job.status, job.chosen, job.imported) == (
        "done",
        [MONROE, MILWAUKEE],
        [MONROE, MILWAUKEE],
    )
    assert job.summary == (
        f"june.csv: 10 day(s) of {MONROE} (5 days), {MILWAUKEE} (5 days): 10 new, 0 changed, "
        "0 unchanged"
    )
    days = {
        (s, d.day): t for s, d, t in RainDay.objects.values_list("station_id", "day", "tenths_mm")
    }
    assert len(days) == 10
    assert (days[(MILWAUKEE, 1)], days[(MILWAUKEE, 3)], days[(MONROE, 3)]) == (66, 127, 142)
    assert sorted(Station.objects.values_list("id", flat=True)) == [MONROE, MILWAUKEE]
    done = client.get(f"/rain/import/{job.pk}/")
    assert f"Imported. {job.summary}" in said(done)
    assert b'data-testid="served"' in done.content
    assert "Import other stations of this file (4 in all; imported: USC00475573, USW00014839)" in (
        said(done)
    )

    # Back on the choice page, the stations imported last are ticked; Madison is added.
    again = client.get(f"/rain/import/{job.pk}/stations/").content.decode()
    assert again.count(" checked>") == 2
    more = client.post(
        f"/rain/import/{job.pk}/stations/", {"stations": [MONROE, MADISON, MILWAUKEE]}
    )
    assert more.status_code == 302
    job.refresh_from_db()
    assert job.summary == (
        f"june.csv: 15 day(s) of {MONROE} (5 days), {MADISON} (5 days), {MILWAUKEE} (5 days): "
        "5 new, 0 changed, 10 unchanged"
    )
    assert RainDay.objects.count() == 15


def test_a_file_of_one_station_skips_the_choice(client, people):
    client.force_login(people.staff[SPENCER])
    done = upload(client, milwaukee_july_2026(), "july.csv", station=MILWAUKEE)
    assert done.status_code == 200
    assert (
        f"july.csv: 31 day(s) of {MILWAUKEE} (31 days): 31 new, 0 changed, 0 unchanged"
    ) in said(done)
    assert not RainImportJob.objects.exists()
    days = dict(RainDay.objects.values_list("day", "tenths_mm"))
    assert (days[datetime.date(2026, 7, 27)], days[datetime.date(2026, 7, 31)]) == (444, 231)


def test_the_page_says_which_permits_read_their_rain_at_the_stations_imported(client, people):
    # A Spencer permit issued in July 2026 whose site the village pinned to Milwaukee: the
    # real file's July brings two rains of half an inch or more (the 27th and the 31st),
    # written onto the permit at once, its duties recomputed.
    from sitework import local, permit_issued

    from siltfence.apps.duties.stations import site_station_pin, stations_sync

    stations_sync()
    staff = people.staff[SPENCER]
    permit = permit_issued(
        applicant=people.applicant_a, staff=staff, village=SPENCER, filed=local(2026, 7, 1, 9)
    )
    site_station_pin(
        site=permit.application.site, staff=staff, station_id=MILWAUKEE, reason="the test"
    )
    client.force_login(staff)
    done = upload(client, milwaukee_july_2026(), "july.csv", station=MILWAUKEE)
    assert done.status_code == 200, done.content
    text = said(done)
    assert (
        "On the permits: 2 qualifying rain(s) written onto 1 permit(s); 1 permit(s) now owe "
        "an inspection after rain."
    ) in text
    assert f"Permit {permit.number}, 220 S Pacific St (Village of Spencer): reads" in text
    assert f"MILWAUKEE MITCHELL AP ({MILWAUKEE})" in text and "chosen by the village" in text
    assert f'href="/permits/{permit.pk}/"' in done.content.decode()
    rains = [
        d for d in PermitDuties.objects.get(permit=permit).duties if d["kind"] == "rain_inspection"
    ]
    assert sorted(r["due"] for r in rains) == ["2026-07-28", "2026-08-01"]

    # New Glarus's staff import the same days: Spencer's permit is counted, not listed.
    client.force_login(people.staff[NEW_GLARUS])
    other = upload(client, milwaukee_july_2026(), "july.csv", station=MILWAUKEE)
    assert "No permit in force in your village reads its rain at USW00014839 yet." in said(other)
    assert "1 permit of other villages reads their rain here too." in said(other)
    assert f"Permit {permit.number}" not in said(other)


def test_a_large_file_of_several_stations_waits_on_the_worker_for_the_choice(
    client, people, tmp_path, django_capture_on_commit_callbacks
):
    path = tmp_path / "three.csv"
    expected = many_days_file(path, days=2_500)
    client.force_login(people.staff[NEW_GLARUS])
    with django_capture_on_commit_callbacks(execute=True):
        queued = upload(client, path.read_bytes(), "three.csv")
    job = RainImportJob.objects.get()
    assert queued["Location"] == f"/rain/import/{job.pk}/"
    assert rain_import_task.call(job.pk) == "choosing"
    job.refresh_from_db()
    assert [s["id"] for s in job.found] == list(STATIONS)
    assert [(s["days"], s["first"], s["last"]) for s in job.found] == [
        (2_500, "1960-01-01", "1966-11-04")
    ] * 3
    assert not RainDay.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        chosen = client.post(f"/rain/import/{job.pk}/stations/", {"stations": [STATIONS[1]]})
    assert chosen.status_code == 302
    # Back on the worker's queue (a file this large is not imported while the page waits).
    assert RainImportJob.objects.get().status == "queued"
    assert rain_import_task.call(job.pk) == "done"
    stored = {
        (s, d): t for s, d, t in RainDay.objects.values_list("station_id", "day", "tenths_mm")
    }
    assert stored == {k: v for k, v in expected.items() if k[0] == STATIONS[1]}


def test_a_climate_data_online_export_names_its_station_and_its_place(people):
    # The export's own NAME, LATITUDE and LONGITUDE, not NOAA's list (MILWAUKEE MITCHELL
    # AP, 42.9550, -87.9044); April 29 failed NOAA's quality control (flag G).
    result = rain_file_import(path=FIXTURES / "cdo-metric-attributes.csv")
    assert result.found == [
        {
            "id": MILWAUKEE,
            "name": "MILWAUKEE MITCHELL INTERNATIONAL AIRPORT, WI US",
            "first": "2017-04-25",
            "last": "2017-04-28",
            "days": 4,
            "without": 1,
            "latitude": 42.95489,
            "longitude": -87.9045,
        }
    ]
    # Without the columns of the place, the place is the list's.
    [standard] = rain_file_import(path=FIXTURES / "cdo-standard.csv").found
    assert (standard["name"], standard["days"], standard["without"]) == (
        "MILWAUKEE MITCHELL INTERNATIONAL AIRPORT, WI US",
        5,
        1,
    )
    assert (standard["latitude"], standard["longitude"]) == (42.955, -87.9044)


def test_a_kept_file_gone_from_the_server_says_to_upload_it_again(client, people):
    job = kept_job(client, people)
    Path(job.file.path).unlink()
    page = client.get(f"/rain/import/{job.pk}/stations/")
    assert "The uploaded file is no longer on the server" in said(page)
    assert b'name="stations"' not in page.content
    refused = client.post(f"/rain/import/{job.pk}/stations/", {"stations": [MONROE]})
    assert refused.status_code == 400
    assert "The uploaded file is no longer on the server; upload it again" in said(refused)
    assert not RainDay.objects.exists()


# -- refusals ---------------------------------------------------------------------------


def test_a_file_that_is_not_rain_is_a_field_error_and_nothing_is_kept(client, people):
    client.force_login(people.staff[SPENCER])
    png = bytes.fromhex("89504e470d0a1a0a0000000d49484452")
    for content in (png, b"name,address\nJo,Main\n"):
        refused = upload(client, content, "rain.csv")
        assert refused.status_code == 400
        error = re.search(rb'data-testid="error-file">([^<]*)', refused.content)
        assert error and b"rain: line 1:" in error.group(1)
    assert not RainImportJob.objects.exists()


def test_a_file_over_the_upload_limit_is_refused_and_one_at_it_is_taken(client, people, settings):
    content = BY_YEAR.read_bytes()
    client.force_login(people.staff[SPENCER])
    settings.SILTFENCE_UPLOAD_MAX_BYTES = len(content) - 1
    over = upload(client, content)
    assert over.status_code == 400
    assert f"larger than {len(content) - 1:,} bytes".encode() in over.content
    assert not RainImportJob.objects.exists()
    settings.SILTFENCE_UPLOAD_MAX_BYTES = len(content)
    assert upload(client, content).status_code == 302
    assert RainImportJob.objects.get().bytes_total == len(content) == 705


def test_a_station_not_in_the_file_or_none_at_all_is_refused_naming_the_field(client, people):
    job = kept_job(client, people)
    url = f"/rain/import/{job.pk}/stations/"
    # Marshfield is a real station, but not one of this file's.
    refused = client.post(url, {"stations": [MONROE, "USC00475120"]})
    assert refused.status_code == 400
    assert "USC00475120 is not a station of this file." in said(refused)
    assert b"usa-error-message" in refused.content
    empty = client.post(url, {})
    assert empty.status_code == 400
    assert "Choose at least one station to import." in said(empty)
    job.refresh_from_db()
    assert job.status == "choosing" and not RainDay.objects.exists()
    # The service refuses it too, whatever the form let through.
    with pytest.raises(ActionRefused, match=r"^stations: USC00475120 is not a station of this"):
        jobs.rain_import_job_choose(
            job_id=job.pk, actor=people.staff[SPENCER], stations=["USC00475120"]
        )
    with pytest.raises(ActionRefused, match=r"^stations: choose at least one station"):
        jobs.rain_import_job_choose(job_id=job.pk, actor=people.staff[SPENCER], stations=[])
    assert not RainDay.objects.exists()


def test_another_village_s_job_is_no_page_and_its_stations_cannot_be_chosen(client, people):
    job = kept_job(client, people, village=NEW_GLARUS)
    for stranger in (people.staff[SPENCER], people.applicant_a, people.inspector[NEW_GLARUS]):
        client.force_login(stranger)
        assert client.get(f"/rain/import/{job.pk}/stations/").status_code == 404
        assert (
            client.post(f"/rain/import/{job.pk}/stations/", {"stations": [MONROE]}).status_code
            == 404
        )
    # A colleague of the uploader may choose.
    colleague = make_user("newglarus-clerk", village=NEW_GLARUS, role=Role.STAFF)
    client.force_login(colleague)
    assert client.get(f"/rain/import/{job.pk}/stations/").status_code == 200
    # In the service: another village's staff, and an applicant.
    with pytest.raises(ActionRefused, match=r"^job: no such import"):
        jobs.rain_import_job_choose(job_id=job.pk, actor=people.staff[SPENCER], stations=[MONROE])
    with pytest.raises(ActionRefused, match=r"^user: only a village's staff may import rain"):
        jobs.rain_import_job_choose(job_id=job.pk, actor=people.applicant_a, stations=[MONROE])
    assert RainImportJob.objects.get().status == "choosing" and not RainDay.objects.exists()


def test_only_a_village_s_staff_may_import_in_the_service_as_on_the_page(client, people, tmp_path):
    path = tmp_path / "june.csv"
    path.write_bytes(BY_YEAR.read_bytes())
    for outsider in (people.applicant_a, people.inspector[SPENCER]):
        with pytest.raises(ActionRefused, match=r"^user: only a village's staff may import"):
            jobs.rain_upload_import(
                path=path, name="june.csv", station=None, units=None, actor=outsider
            )
        with pytest.raises(ActionRefused, match=r"^user: only a village's staff may import"):
            jobs.rain_import_job_queue(
                path=path,
                name="june.csv",
                station=None,
                units=None,
                actor=outsider,
                villages={SPENCER},
            )
        client.force_login(outsider)
        file = SimpleUploadedFile("june.csv", BY_YEAR.read_bytes(), content_type="text/csv")
        assert client.post("/rain/import/", {"file": file}).status_code == 403
        assert client.get("/rain/gauges/").status_code == 403
    assert not RainDay.objects.exists() and not RainImportJob.objects.exists()


# -- the village's own gauge --------------------------------------------------------------


def add_gauge(actor, **fields):
    values = {"village_id": SPENCER, "name": "Public works yard"}
    values |= {"latitude": "44.7573", "longitude": "-90.2966"} | fields
    return gauges.rain_gauge_add(actor=actor, **values)


def test_staff_add_the_village_s_gauge_where_it_stands_in_wisconsin(client, people):
    client.force_login(people.staff[SPENCER])
    added = client.post(
        "/rain/gauges/",
        {
            "village": SPENCER,
            "name": "  Public   works yard ",
            "latitude": "44.7573",
            "longitude": "-90.2966",
        },
    )
    gauge = Station.objects.get()
    assert added.status_code == 302 and added["Location"] == "/rain/gauges/GAUGE-SPENCER-WI-1/"
    assert (gauge.id, gauge.name, gauge.village_id, gauge.latitude, gauge.longitude) == (
        "GAUGE-SPENCER-WI-1",
        "Public works yard",
        SPENCER,
        44.7573,
        -90.2966,
    )
    page = client.get(added["Location"])
    text = said(page)
    assert "Public works yard is added as the rain station GAUGE-SPENCER-WI-1." in text
    assert "standing at 44.7573° N, 90.2966° W." in text
    assert "No day is recorded at this gauge yet." in text
    assert 'href="/rain/gauges/GAUGE-SPENCER-WI-1/"' in client.get("/rain/import/").content.decode()

    staff = people.staff[SPENCER]
    second = add_gauge(staff, name="Village hall")
    assert second.id == "GAUGE-SPENCER-WI-2"
    with pytest.raises(ActionRefused, match=r"^name: Village of Spencer already has a gauge named"):
        add_gauge(staff, name="PUBLIC WORKS YARD")


@pytest.mark.parametrize(
    ("field", "inside", "outside"),
    [
        ("latitude", "42.49", "42.48"),
        ("latitude", "47.31", "47.32"),
        ("longitude", "-92.89", "-92.9"),
        ("longitude", "-86.25", "-86.24"),
    ],
)
def test_a_gauge_stands_in_wisconsin_on_both_sides_of_each_edge(people, field, inside, outside):
    staff = people.staff[SPENCER]
    assert add_gauge(staff, **{field: inside}).village_id == SPENCER
    with pytest.raises(ActionRefused, match=rf"^{field}: give the {field} in decimal degrees") as e:
        add_gauge(staff, name="Other", **{field: outside})
    assert e.value.field == field
    assert Station.objects.count() == 1


def test_a_gauge_s_name_is_required_and_bounded(people):
    staff = people.staff[SPENCER]
    for bad in ("", "   ", "x" * 121):
        with pytest.raises(ActionRefused, match=r"^name: give the gauge a name of 1 to 120"):
            add_gauge(staff, name=bad)
    assert add_gauge(staff, name="x" * 120).name == "x" * 120
    with pytest.raises(ActionRefused, match=r"^latitude"):
        add_gauge(staff, name="y", latitude="nan")


def test_only_the_village_s_staff_may_add_its_gauge_or_enter_its_days(client, people):
    gauge = add_gauge(people.staff[SPENCER])
    today = datetime.date(2026, 7, 10)
    for outsider in (people.staff[NEW_GLARUS], people.applicant_a):
        with pytest.raises(ActionRefused, match=r"^village: only the staff of Village of Spencer"):
            add_gauge(outsider, name="Theirs")
        with pytest.raises(ActionRefused, match=r"^village: only the staff of Village of Spencer"):
            gauges.rain_gauge_reading_record(
                actor=outsider, station_id=gauge.pk, day=today, inches="0.5", today=today
            )
        client.force_login(outsider)
        assert client.get(f"/rain/gauges/{gauge.pk}/").status_code == 404
        assert (
            client.post(
                f"/rain/gauges/{gauge.pk}/", {"day": "2026-07-08", "inches": "1"}
            ).status_code
            == 404
        )
    assert Station.objects.count() == 1 and not RainDay.objects.exists()


def test_a_day_s_rain_is_entered_by_hand_within_its_bounds(people):
    gauge = add_gauge(people.staff[SPENCER])
    today = datetime.date(2026, 7, 10)

    def enter(day, inches, reason=""):
        return gauges.rain_gauge_reading_record(
            actor=people.staff[SPENCER],
            station_id=gauge.pk,
            day=day,
            inches=inches,
            reason=reason,
            today=today,
        )

    # The day: today yes, tomorrow no; ten years back yes, a day more no.
    assert enter(today, "0").tenths == 0
    with pytest.raises(ActionRefused, match=r"^day: July 11, 2026 has not come yet"):
        enter(datetime.date(2026, 7, 11), "0.1")
    assert enter(datetime.date(2016, 7, 10), "0.1").tenths == 25  # 2.54 mm, half up
    with pytest.raises(ActionRefused, match=r"^day: July 9, 2016 is more than 10 years ago"):
        enter(datetime.date(2016, 7, 9), "0.1")
    # The amount: 0 to 15 in, to the hundredth.
    with pytest.raises(ActionRefused, match=r"^inches: a day's rain cannot be less than 0"):
        enter(datetime.date(2026, 7, 1), "-0.01")
    assert enter(datetime.date(2026, 7, 1), "15.00").tenths == 3810  # 381.0 mm
    with pytest.raises(ActionRefused, match=r"^inches: 15.01 in is more than 15 in"):
        enter(datetime.date(2026, 7, 2), "15.01")
    for bad in ("0.625", "abc", "1e2", "", "0,5", "½"):
        with pytest.raises(ActionRefused, match=r"^inches: give the day's rain in inches"):
            enter(datetime.date(2026, 7, 3), bad)
    assert RainDay.objects.filter(station=gauge).count() == 3


def test_a_day_already_recorded_changes_only_as_a_correction_with_its_reason(people):
    staff = people.staff[SPENCER]
    gauge = add_gauge(staff)
    today = datetime.date(2026, 7, 10)
    day = datetime.date(2026, 7, 8)
    first = gauges.rain_gauge_reading_record(
        actor=staff, station_id=gauge.pk, day=day, inches="0.62", today=today
    )
    assert (first.tenths, first.before) == (157, None)  # 0.62 in = 15.748 mm
    with pytest.raises(ActionRefused, match=r"^day: July 8, 2026 already has 0.62 in on record"):
        gauges.rain_gauge_reading_record(
            actor=staff, station_id=gauge.pk, day=day, inches="0.26", today=today
        )
    with pytest.raises(ActionRefused, match=r"^inches: July 8, 2026 already has 0.62 in"):
        gauges.rain_gauge_reading_record(
            actor=staff, station_id=gauge.pk, day=day, inches="0.62", reason="again", today=today
        )
    fixed = gauges.rain_gauge_reading_record(
        actor=staff,
        station_id=gauge.pk,
        day=day,
        inches="0.26",
        reason="read the 0.62 upside down",
        today=today,
    )
    assert (fixed.tenths, fixed.before) == (66, 157)
    assert RainDay.objects.get(station=gauge, day=day).tenths_mm == 66
    entered, corrected = AuditEvent.objects.filter(action="rain_days_record").order_by("seq")
    assert (entered.actor_id, entered.village, entered.reason) == (
        staff.pk,
        SPENCER,
        "entered by hand",
    )
    assert (corrected.actor_id, corrected.reason) == (staff.pk, "read the 0.62 upside down")
    assert corrected.after["corrected"] == {"2026-07-08": {"before": 157, "after": 66}}


def test_a_day_entered_at_the_village_gauge_shows_on_the_permit_at_once(client, people):
    # A Spencer permit issued in July 2026 whose site (no drawing: the village's centre) has
    # no station with a record yet. The clerk adds the gauge at the centre and enters 0.62
    # in (15.7 mm) for July 8: the site now reads the gauge (0 km), and an inspection after
    # rain is owed by the next day (§ 413-8E(3)(g)).
    from sitework import local, permit_issued

    from siltfence.apps.duties.stations import stations_sync

    stations_sync()
    staff = people.staff[SPENCER]
    permit = permit_issued(
        applicant=people.applicant_a, staff=staff, village=SPENCER, filed=local(2026, 7, 1, 9)
    )
    site = permit.application.site
    assert not SiteStation.objects.filter(site=site).exists()
    gauge = add_gauge(staff)
    client.force_login(staff)
    entered = client.post(f"/rain/gauges/{gauge.pk}/", {"day": "2026-07-08", "inches": "0.62"})
    assert entered.status_code == 302
    page = client.get(entered["Location"])
    text = said(page)
    assert (
        "0.62 in recorded for July 8, 2026. On the permits: 1 site(s) now read their rain "
        "here; 1 qualifying rain(s) written onto 1 permit(s); 1 permit(s) now owe an "
        "inspection after rain."
    ) in text
    assert (
        f"Permit {permit.number}, 220 S Pacific St (Village of Spencer): reads Public works "
        "yard (GAUGE-SPENCER-WI-1), 0.0 km away"
    ) in text
    assert "Wednesday, July 8, 2026 0.62 in" in text
    assert SiteStation.objects.get(site=site).station_id == gauge.pk
    [rain] = [
        d for d in PermitDuties.objects.get(permit=permit).duties if d["kind"] == "rain_inspection"
    ]
    assert (rain["due"], rain["rain"]["mm"]) == ("2026-07-09", 15.7)


def test_the_reading_form_refuses_a_future_day_against_the_request_s_clock(client, people):
    gauge = add_gauge(people.staff[SPENCER])
    client.force_login(people.staff[SPENCER])
    today = timezone.now().astimezone(CHICAGO).date()
    url = f"/rain/gauges/{gauge.pk}/"
    tomorrow = client.post(
        url, {"day": (today + datetime.timedelta(days=1)).isoformat(), "inches": "0.1"}
    )
    assert tomorrow.status_code == 400
    assert b'data-testid="error-day"' in tomorrow.content
    assert "has not come yet" in said(tomorrow)
    assert client.post(url, {"day": today.isoformat(), "inches": "0.1"}).status_code == 302
    twice = client.post(url, {"day": today.isoformat(), "inches": "0.2"})
    assert twice.status_code == 400 and b'data-testid="error-day"' in twice.content
    assert RainDay.objects.get().tenths_mm == 25


# -- any input, never a server error ------------------------------------------------------

FUZZ = settings(
    deadline=5000,
    max_examples=40,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(
    name=st.text(max_size=130),
    latitude=st.one_of(st.text(max_size=20), st.decimals(allow_nan=True).map(str)),
    longitude=st.one_of(st.text(max_size=20), st.floats().map(str)),
    village=st.sampled_from([SPENCER, NEW_GLARUS, "", "x" * 50]),
)
def test_any_gauge_typed_is_added_or_refused_naming_the_field(
    client, people, name, latitude, longitude, village
):
    client.force_login(people.staff[SPENCER])
    before = Station.objects.count()
    response = client.post(
        "/rain/gauges/",
        {"village": village, "name": name, "latitude": latitude, "longitude": longitude},
    )
    assert response.status_code in (302, 400)
    if response.status_code == 400:
        assert b"usa-error-message" in response.content or b"usa-alert--error" in response.content
        assert Station.objects.count() == before
    else:
        gauge = Station.objects.get(pk=response["Location"].split("/")[-2])
        assert gauge.village_id == SPENCER
        assert 42.49 <= gauge.latitude <= 47.31 and -92.89 <= gauge.longitude <= -86.25


def _rain_rows() -> dict[tuple[str, datetime.date], int | None]:
    return {
        (station, day): tenths
        for station, day, tenths in RainDay.objects.values_list("station_id", "day", "tenths_mm")
    }


@settings(FUZZ, max_examples=38)
@given(
    day=st.one_of(st.text(max_size=12), st.dates().map(str)),
    inches=st.one_of(st.text(max_size=12), st.decimals(places=2).map(str)),
    reason=st.text(max_size=320),
)
@example(day=f" {datetime.date.today() - datetime.timedelta(days=2)} ", inches=" 0.62 ", reason="")
@example(
    day=str(datetime.date.today() - datetime.timedelta(days=2)), inches="1.5", reason="misread"
)
def test_any_reading_typed_is_recorded_or_refused_naming_the_field(
    client, people, day, inches, reason
):
    gauge = Station.objects.filter(pk="GAUGE-SPENCER-WI-1").first() or add_gauge(
        people.staff[SPENCER]
    )
    client.force_login(people.staff[SPENCER])
    before = list(RainDay.objects.values_list("day", "tenths_mm"))
    rows = _rain_rows()
    response = client.post(
        f"/rain/gauges/{gauge.pk}/", {"day": day, "inches": inches, "reason": reason}
    )
    assert response.status_code in (302, 400)
    if response.status_code == 400:
        assert b"usa-error-message" in response.content or b"usa-alert--error" in response.content
        assert list(RainDay.objects.values_list("day", "tenths_mm")) == before
        assert _rain_rows() == rows
    for tenths in RainDay.objects.values_list("tenths_mm", flat=True):
        assert 0 <= tenths <= 3810
    if response.status_code == 302:
        # Recorded: the gauge's day typed holds the inches typed, in tenths of a millimetre
        # (25.4 mm an inch, half up); every other row is as it was. A day already on record
        # changes only with a reason.
        on = datetime.date.fromisoformat(day.strip())
        inches_typed = Decimal(inches.strip()).copy_abs()
        tenths = int((inches_typed * 254).quantize(Decimal(1), rounding=ROUND_HALF_UP))
        key = (gauge.pk, on)
        if key in rows:
            assert reason.strip() and rows[key] != tenths
        assert _rain_rows() == {**rows, key: tenths}


def _by_year_days() -> dict[tuple[str, datetime.date], int | None]:
    """The sample file's days as written in it (PRCP, tenths of a millimetre); -9999 is
    NOAA's mark of a day not measured, kept as a day with no amount."""
    days: dict[tuple[str, datetime.date], int | None] = {}
    for line in BY_YEAR.read_text().splitlines():
        station, day, element, value, *_ = line.split(",")
        if element == "PRCP":
            on = datetime.datetime.strptime(day, "%Y%m%d").date()
            days[(station, on)] = None if value == "-9999" else int(value)
    return days


@FUZZ
@given(
    stations=st.lists(st.one_of(st.text(max_size=45), st.sampled_from([MONROE, PERTH])), max_size=6)
)
def test_any_choice_of_stations_is_imported_or_refused_naming_the_field(client, people, stations):
    job = RainImportJob.objects.first() or kept_job(client, people)
    client.force_login(people.staff[SPENCER])
    rows = _rain_rows()
    response = client.post(f"/rain/import/{job.pk}/stations/", {"stations": stations})
    assert response.status_code in (302, 400)
    if response.status_code == 400:
        assert b"usa-error-message" in response.content or b"usa-alert--error" in response.content
        assert _rain_rows() == rows  # refused: nothing written
    else:
        assert set(RainDay.objects.values_list("station_id", flat=True)) <= {MONROE, PERTH}
        # Imported: each station ticked holds exactly its days in the file; a station not
        # ticked now holds what it held before (from an earlier choice, or nothing).
        ticked = set(stations)
        after = _rain_rows()
        file_days = _by_year_days()
        for station in {MONROE, PERTH}:
            held = {k: v for k, v in after.items() if k[0] == station}
            if station in ticked:
                assert held == {k: v for k, v in file_days.items() if k[0] == station}
            else:
                assert held == {k: v for k, v in rows.items() if k[0] == station}
        job.refresh_from_db()
        assert set(job.chosen) == ticked
