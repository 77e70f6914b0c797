"""A rain file over 200 KB uploaded on the staff page is imported by the background worker,
with a page that shows how far it has got and then what it changed; a smaller one is
imported while the page waits, as before. Only the uploader and the staff of the
uploader's village see the job; a file the worker refuses says why, and writes nothing.
A file of several stations uploaded on the page waits, checked, for the clerk to choose
which to import (``test_rain_import_stations.py``).

The files are station-days in NOAA's GHCN-Daily CSV layout (``rainfiles.many_days_file``):
2,500 days at each of three stations, 7,500 lines, 284,225 bytes."""

from __future__ import annotations

import datetime
import hashlib
import stat
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from factories import make_user

from rainfiles import STATIONS, many_days_file
from siltfence.apps.accounts.models import Role
from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.rain import jobs
from siltfence.apps.rain.models import RainDay, RainImportJob, Station
from siltfence.apps.rain.tasks import rain_import_task

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[1] / "unit" / "rain" / "fixtures"
BY_STATION = FIXTURES / "USW00014839-by_station.csv"
THRESHOLD = 200 * 1024  # 204,800 bytes
DAYS = 2_500
SUMMARY = (
    "three-stations.csv: 7500 day(s) of USC00475573 (2500 days), USW00014837 (2500 days), "
    "USW00014839 (2500 days): 7500 new, 0 changed, 0 unchanged"
)
REFRESH = b'<meta http-equiv="refresh" content="2">'


@pytest.fixture
def big(tmp_path: Path) -> tuple[Path, dict]:
    path = tmp_path / "three-stations.csv"
    expected = many_days_file(path, days=DAYS)
    assert len(expected) == 3 * DAYS == 7_500
    assert path.stat().st_size == 284_225 > THRESHOLD
    return path, expected


def upload(client, content: bytes, name: str = "three-stations.csv", **fields):
    file = SimpleUploadedFile(name, content, content_type="text/csv")
    return client.post("/rain/import/", {"file": file, **fields})


def stored() -> dict:
    return {
        (station, day): tenths
        for station, day, tenths in RainDay.objects.values_list("station_id", "day", "tenths_mm")
    }


def test_a_file_over_200_kb_is_queued_and_its_page_follows_the_worker_to_the_result(
    client, people, big, django_capture_on_commit_callbacks
):
    path, expected = big
    content = path.read_bytes()
    staff = people.staff["new-glarus-wi"]
    client.force_login(staff)
    with django_capture_on_commit_callbacks(execute=True):
        response = upload(client, content)
    job = RainImportJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/rain/import/{job.pk}/"
    assert (job.status, job.user, job.villages, job.name) == (
        "queued",
        staff,
        ["new-glarus-wi"],
        "three-stations.csv",
    )
    assert (job.bytes_total, job.sha256) == (len(content), hashlib.sha256(content).hexdigest())
    # Stored under a name the server made, readable by the server's account only.
    on_disk = Path(job.file.path)
    assert on_disk.read_bytes() == content
    assert stat.S_IMODE(on_disk.stat().st_mode) == 0o600
    assert "three-stations" not in on_disk.name
    # On the worker's queue, and nothing imported yet.
    [queued] = DBTaskResult.objects.all()
    assert queued.status == "READY"
    assert queued.task_path == "siltfence.apps.rain.tasks.rain_import_task"
    assert queued.args_kwargs == {"args": [job.pk], "kwargs": {}}
    assert RainDay.objects.count() == 0

    waiting = client.get(f"/rain/import/{job.pk}/")
    assert waiting.status_code == 200
    assert REFRESH in waiting.content
    assert b'data-status="queued"' in waiting.content
    assert "Waiting for its turn." in waiting.content.decode()

    # The worker checks it whole and finds three stations: the clerk chooses (all of them).
    assert rain_import_task.call(job.pk) == "choosing"
    assert RainDay.objects.count() == 0
    choosing = client.get(f"/rain/import/{job.pk}/")
    assert REFRESH not in choosing.content
    assert f'href="/rain/import/{job.pk}/stations/"'.encode() in choosing.content
    with django_capture_on_commit_callbacks(execute=True):
        chosen = client.post(f"/rain/import/{job.pk}/stations/", {"stations": list(STATIONS)})
    assert chosen.status_code == 302
    assert rain_import_task.call(job.pk) == "done"
    assert stored() == expected
    job.refresh_from_db()
    assert (job.status, job.bytes_done, job.summary, job.error) == (
        "done",
        len(content),
        SUMMARY,
        "",
    )
    assert job.finished_at is not None
    done = client.get(f"/rain/import/{job.pk}/")
    assert REFRESH not in done.content
    assert f"Imported. {SUMMARY}" in done.content.decode()
    # The audit record names the person who uploaded the file.
    ended = AuditEvent.objects.get(entity="rain_file", action="rain_import")
    assert (ended.actor_id, ended.after["new"]) == (staff.pk, 7_500)

    # Run twice, the task does nothing the second time.
    events = AuditEvent.objects.count()
    assert rain_import_task.call(job.pk) == "done"
    assert AuditEvent.objects.count() == events
    assert stored() == expected
    # The uploader finds the job again from the import page.
    page = client.get("/rain/import/").content.decode()
    assert f'<a href="/rain/import/{job.pk}/">three-stations.csv</a>' in page
    assert "three-stations.csv</a>, uploaded" in page and ": imported</li>" in page


def test_the_job_s_row_follows_the_import_through_both_steps(people, big, monkeypatch):
    path, _ = big
    job = jobs.rain_import_job_queue(
        path=path,
        name="three-stations.csv",
        station=None,
        units=None,
        actor=people.staff["spencer-wi"],
        villages={"spencer-wi"},
    )
    monkeypatch.setattr(jobs, "PROGRESS_EVERY", 0)
    seen: list[tuple[str, int]] = []
    importing = jobs.rain_file_import

    def watched(**options):
        report = options["on_progress"]

        def spy(phase, done):
            report(phase, done)
            seen.append(RainImportJob.objects.values_list("status", "bytes_done").get(pk=job.pk))

        return importing(**{**options, "on_progress": spy})

    monkeypatch.setattr(jobs, "rain_file_import", watched)
    assert jobs.rain_import_job_run(job_id=job.pk) == "done"
    size = path.stat().st_size
    steps = [status for status, _ in seen]
    # Checked whole first, then written; each step's bytes rise to the file's size.
    assert steps == sorted(steps) and set(steps) == {"checking", "importing"}
    for step in ("checking", "importing"):
        done = [count for status, count in seen if status == step]
        assert done == sorted(done) and done[-1] == size and done[0] < size


def test_a_running_job_s_page_shows_the_step_and_how_far_it_has_got(client, people, big):
    path, _ = big
    staff = people.staff["spencer-wi"]
    job = jobs.rain_import_job_queue(
        path=path, name="x.csv", station=None, units=None, actor=staff, villages={"spencer-wi"}
    )
    client.force_login(staff)
    row = RainImportJob.objects.filter(pk=job.pk)
    row.update(status="checking", bytes_total=1000, bytes_done=500)
    checking = client.get(f"/rain/import/{job.pk}/").content.decode().replace("\xa0", " ")
    assert "Step 1 of 2: checking every line of the file." in checking
    assert "50% (500 bytes of 1000 bytes)" in checking
    assert '<progress max="100" value="50"' in checking
    # Rounded down: 100 % only once the step has read the whole file.
    row.update(status="importing", bytes_done=999)
    importing = client.get(f"/rain/import/{job.pk}/").content
    assert b"Step 2 of 2: writing the days." in importing and b'value="99"' in importing
    row.update(bytes_done=1000)
    assert b'value="100"' in client.get(f"/rain/import/{job.pk}/").content
    assert REFRESH in importing


def exactly(size: int, big: Path) -> bytes:
    """The first whole lines of ``big`` that fit in ``size`` bytes, then empty lines up to
    ``size`` (the readers skip them; fewer than 1,000 in a row)."""
    lines = big.read_bytes().splitlines(keepends=True)
    content = b""
    for line in lines:
        if len(content) + len(line) > size:
            break
        content += line
    padding = size - len(content)
    assert 0 <= padding < 1_000
    return content + b"\n" * padding


def test_exactly_200_kb_is_imported_at_once_and_one_byte_more_goes_to_the_worker(
    client, people, big
):
    path, _ = big
    client.force_login(people.staff["spencer-wi"])
    at = exactly(THRESHOLD, path)
    assert len(at) == 204_800
    lines = at.count(b"PRCP")
    # Checked while the page waits: its three stations are offered, then imported at once.
    now = upload(client, at, "at.csv")
    kept = RainImportJob.objects.get()
    assert now.status_code == 302 and now["Location"] == f"/rain/import/{kept.pk}/stations/"
    assert kept.status == "choosing" and len(kept.found) == 3
    chosen = client.post(now["Location"], {"stations": list(STATIONS)})
    assert chosen.status_code == 302
    kept.refresh_from_db()
    assert kept.status == "done" and kept.summary.startswith(f"at.csv: {lines} day(s)")
    assert RainDay.objects.count() == lines
    assert not DBTaskResult.objects.exists()

    over = upload(client, at + b"\n", "over.csv")
    job = RainImportJob.objects.latest("pk")
    assert over.status_code == 302 and over["Location"] == f"/rain/import/{job.pk}/"
    assert (job.name, job.bytes_total, job.status) == ("over.csv", 204_801, "queued")


def test_a_compressed_file_is_judged_by_the_size_it_expands_to(client, people, big):
    import gzip

    path, _ = big
    client.force_login(people.staff["spencer-wi"])
    packed = gzip.compress(path.read_bytes())
    assert len(packed) < THRESHOLD < path.stat().st_size
    response = upload(client, packed, "three-stations.csv.gz")
    assert response.status_code == 302
    assert RainImportJob.objects.get().bytes_total == len(packed)
    small = gzip.compress(BY_STATION.read_bytes())
    assert upload(client, small, "may.csv.gz").status_code == 200
    assert RainDay.objects.count() == 31


def test_a_small_file_is_imported_while_the_page_waits_as_before(client, people):
    client.force_login(people.staff["new-glarus-wi"])
    done = upload(client, BY_STATION.read_bytes(), "may.csv")
    assert done.status_code == 200
    assert b"may.csv: 31 day(s) of USW00014839 (31 days): 31 new, 0 changed" in done.content
    assert RainDay.objects.count() == 31
    assert not RainImportJob.objects.exists()
    assert not DBTaskResult.objects.exists()


def test_only_the_uploader_and_the_staff_of_the_uploader_s_village_see_the_job(client, people, big):
    path, _ = big
    uploader = people.staff["new-glarus-wi"]
    client.force_login(uploader)
    response = upload(client, path.read_bytes())
    url = response["Location"]
    assert client.get(url).status_code == 200
    colleague = make_user("newglarus-clerk", village="new-glarus-wi", role=Role.STAFF)
    client.force_login(colleague)
    assert client.get(url).status_code == 200
    # A stranger: staff of the other village, an inspector of the same one, an applicant.
    for stranger in (
        people.staff["spencer-wi"],
        people.inspector["new-glarus-wi"],
        people.applicant_a,
    ):
        client.force_login(stranger)
        assert client.get(url).status_code == 404
    # Nor does the other village's staff see it listed on the import page.
    assert b'data-testid="jobs"' not in client.get("/rain/import/").content
    client.force_login(uploader)
    assert client.get(f"/rain/import/{RainImportJob.objects.get().pk + 1}/").status_code == 404
    client.logout()
    assert client.get(url).status_code == 302  # to the sign-in page


def test_a_file_the_worker_refuses_shows_why_in_plain_words_and_writes_nothing(client, people, big):
    path, _ = big
    # The 7,501st line: 1,000.1 mm in a day, one tenth of a millimetre past the bound.
    content = path.read_bytes() + b"USW00014839,19700101,PRCP,10001,,,W,2400\n"
    client.force_login(people.staff["spencer-wi"])
    response = upload(client, content)
    job = RainImportJob.objects.get()
    assert response.status_code == 302
    assert rain_import_task.call(job.pk) == "failed"
    job.refresh_from_db()
    reason = (
        "rain: line 7501: DATA VALUE: 1,000.1 mm is more than 1,000 mm (39.37 in), the most "
        "rain siltfence reads for one day (the world record is 1,825 mm in 24 hours); check "
        "the file's values and units. Nothing of the file was written: correct the file and "
        "upload it again."
    )
    assert (job.status, job.error, job.summary) == ("failed", reason, "")
    assert RainDay.objects.count() == 0 and Station.objects.count() == 0
    assert not AuditEvent.objects.filter(entity="rain_file").exists()
    page = client.get(f"/rain/import/{job.pk}/")
    assert REFRESH not in page.content
    assert "The import did not finish" in page.content.decode()
    assert reason in page.content.decode().replace("&#x27;", "'")
    assert rain_import_task.call(job.pk) == "failed"  # and it stays so
    assert RainDay.objects.count() == 0


def test_a_large_file_that_is_not_a_rain_file_is_refused_at_once_and_not_stored(
    client, people, settings
):
    client.force_login(people.staff["spencer-wi"])
    notes = b"name,address\n" + b"Jo Schmid,220 S Pacific St\n" * 10_000
    assert len(notes) > THRESHOLD
    refused = upload(client, notes, "notes.csv")
    assert refused.status_code == 400
    assert b"rain: line 1: not a rain file siltfence reads" in refused.content
    assert not RainImportJob.objects.exists()
    media = Path(settings.MEDIA_ROOT)
    assert not media.exists() or not any(p.is_file() for p in media.rglob("*"))


def test_a_large_gauge_file_without_a_station_asks_for_one_at_once(client, people):
    client.force_login(people.staff["spencer-wi"])
    start = datetime.datetime(2020, 1, 1)
    rows = "".join(
        f"{start + datetime.timedelta(minutes=15 * i):%Y-%m-%dT%H:%M},0.01\n" for i in range(12_000)
    )
    gauge = ("timestamp,rain_in\n" + rows).encode()
    assert len(gauge) > THRESHOLD
    refused = upload(client, gauge, "gauge.csv")
    assert refused.status_code == 400
    assert b"station: the file names no station" in refused.content
    assert not RainImportJob.objects.exists()
    queued = upload(client, gauge, "gauge.csv", station="site-7")
    assert queued.status_code == 302
    assert RainImportJob.objects.get().station == "SITE-7"


@override_settings(
    TASKS={"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
)
def test_with_the_immediate_backend_the_upload_is_imported_before_the_page_opens(
    client, people, big, django_capture_on_commit_callbacks
):
    path, expected = big
    client.force_login(people.staff["spencer-wi"])
    with django_capture_on_commit_callbacks(execute=True):
        response = upload(client, path.read_bytes())
    assert response.status_code == 302
    job = RainImportJob.objects.get()
    assert job.status == "choosing"  # checked before the page opened; three stations
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/rain/import/{job.pk}/stations/", {"stations": list(STATIONS)})
    assert stored() == expected
    page = client.get(response["Location"]).content.decode()
    assert f"Imported. {SUMMARY}" in page


def test_a_job_no_worker_has_taken_in_two_minutes_says_the_worker_may_be_stopped(
    client, people, big
):
    path, _ = big
    client.force_login(people.staff["spencer-wi"])
    url = upload(client, path.read_bytes())["Location"]
    job = RainImportJob.objects.get()
    now = timezone.now()
    second = datetime.timedelta(seconds=1)
    RainImportJob.objects.filter(pk=job.pk).update(
        created_at=now - datetime.timedelta(minutes=2) + 5 * second
    )
    assert b'data-testid="stuck"' not in client.get(url).content
    RainImportJob.objects.filter(pk=job.pk).update(
        created_at=now - datetime.timedelta(minutes=2) - second
    )
    assert "may not be running" in client.get(url).content.decode()
    # Taken, but no news for ten minutes: uploading again is safe, and the page says so.
    RainImportJob.objects.filter(pk=job.pk).update(
        status="importing", updated_at=now - datetime.timedelta(minutes=10) + 5 * second
    )
    assert b'data-testid="stuck"' not in client.get(url).content
    RainImportJob.objects.filter(pk=job.pk).update(
        updated_at=now - datetime.timedelta(minutes=10) - second
    )
    assert "Uploading the same file again is safe" in client.get(url).content.decode()


def test_a_job_whose_file_is_gone_says_to_upload_it_again(people, big):
    path, _ = big
    job = jobs.rain_import_job_queue(
        path=path,
        name="x.csv",
        station=None,
        units=None,
        actor=people.staff["spencer-wi"],
        villages={"spencer-wi"},
    )
    Path(job.file.path).unlink()
    assert jobs.rain_import_job_run(job_id=job.pk) == "failed"
    job.refresh_from_db()
    assert job.error == "The uploaded file is no longer on the server; upload it again."


def test_every_station_of_the_file_is_imported_by_the_worker(people, big):
    path, _ = big
    job = jobs.rain_import_job_queue(
        path=path,
        name="x.csv",
        station=None,
        units=None,
        actor=people.staff["spencer-wi"],
        villages={"spencer-wi"},
    )
    jobs.rain_import_job_run(job_id=job.pk)
    assert sorted(Station.objects.values_list("id", flat=True)) == sorted(STATIONS)


def test_an_unexpected_error_on_the_worker_ends_the_job_saying_what_to_do(people, big, monkeypatch):
    path, _ = big
    job = jobs.rain_import_job_queue(
        path=path,
        name="x.csv",
        station=None,
        units=None,
        actor=people.staff["spencer-wi"],
        villages={"spencer-wi"},
    )

    def broken(**options):
        raise OSError("disk full")

    monkeypatch.setattr(jobs, "rain_file_import", broken)
    with pytest.raises(OSError, match="disk full"):  # kept on the worker's own record
        jobs.rain_import_job_run(job_id=job.pk)
    job.refresh_from_db()
    assert (job.status, job.error) == (
        "failed",
        "The import stopped on an unexpected error. The days already written are kept whole, "
        "and uploading the same file again completes the import without doubling anything.",
    )
    assert job.finished_at is not None
