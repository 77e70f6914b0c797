"""A stored file (a plan, a permit, a placard, a photo) is in MEDIA_ROOT only once the row
that names it is committed: a rolled-back transaction leaves no file there, and the
files of a process that ended part way are moved into place or deleted by whether their
row was committed (decision 22)."""

from __future__ import annotations

import datetime
import fcntl
import hashlib
import uuid
from pathlib import Path
from typing import Any

import factories
import pytest
from django.conf import settings
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from siltfence.apps.documents.storage import staged_files_recover, staging_root
from siltfence.apps.permits import services
from siltfence.apps.permits.models import Document, Permit

pytestmark = pytest.mark.django_db(transaction=True)


class RequestFailed(Exception):
    """What makes a request's transaction roll back after the decision was written."""


def media_files() -> set[str]:
    media = Path(settings.MEDIA_ROOT)
    return {p.relative_to(media).as_posix() for p in media.rglob("*") if p.is_file()}


def named_files() -> set[str]:
    return set(Document.objects.values_list("file", flat=True))


@pytest.fixture
def under_review(people: factories.People) -> Any:
    return factories.make_application(
        applicant=people.applicant_a, village=factories.SPENCER, state="under_review"
    )


def test_a_permit_rolled_back_with_its_decision_leaves_no_file_and_a_committed_one_is_stored(
    people: factories.People, under_review: Any
):
    staff = people.staff[factories.SPENCER]
    plan_only = media_files()
    assert plan_only == named_files() and len(plan_only) == 1

    with pytest.raises(RequestFailed), transaction.atomic():
        services.application_approve(application=under_review, staff=staff, at=timezone.now())
        raise RequestFailed
    assert not Permit.objects.exists()
    assert media_files() == plan_only == named_files()

    services.application_approve(application=under_review, staff=staff, at=timezone.now())
    permit = Document.objects.get(kind="permit")
    # Right after the commit, the permit is in MEDIA_ROOT, as its row describes it.
    stored = Path(settings.MEDIA_ROOT) / permit.file.name
    content = stored.read_bytes()
    assert content.startswith(b"%PDF")
    assert (permit.size, permit.sha256) == (len(content), hashlib.sha256(content).hexdigest())
    assert media_files() == named_files() == plan_only | {permit.file.name}


def _ended_process_folder() -> Path:
    """A staging folder whose process has ended: its lock file is there, held by nobody."""
    folder = staging_root() / f"4242-{uuid.uuid4().hex[:12]}"
    folder.mkdir(parents=True)
    (folder / ".lock").touch()
    return folder


def test_files_left_by_an_ended_process_are_moved_into_place_or_deleted_by_their_rows(
    people: factories.People, under_review: Any
):
    plan = factories.plan_document(under_review)
    media = Path(settings.MEDIA_ROOT)
    content = (media / plan.file.name).read_bytes()
    # The process committed the plan's row, then ended before moving its file into place;
    # another transaction of it had written a file and never committed.
    folder = _ended_process_folder()
    left = folder / plan.file.name
    left.parent.mkdir(parents=True)
    (media / plan.file.name).rename(left)
    never = folder / "documents" / f"{datetime.date.today():%Y/%m}" / f"{uuid.uuid4().hex}.pdf"
    never.parent.mkdir(parents=True, exist_ok=True)
    never.write_bytes(b"%PDF-1.4 never committed")

    # Meanwhile the committed plan is served from where it is.
    client = Client()
    client.force_login(people.applicant_a)
    response = client.get(reverse("web:document", args=[plan.pk]))
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == content

    assert staged_files_recover() == {"published": 1, "deleted": 1}
    assert (media / plan.file.name).read_bytes() == content
    assert media_files() == named_files()
    assert not folder.exists()


def test_the_staging_folder_of_a_running_process_is_left_alone():
    folder = _ended_process_folder()
    staged = folder / "documents" / "2026" / "07" / f"{uuid.uuid4().hex}.pdf"
    staged.parent.mkdir(parents=True)
    staged.write_bytes(b"%PDF-1.4 a transaction still open")
    with (folder / ".lock").open("a") as running:
        fcntl.flock(running, fcntl.LOCK_EX)
        assert staged_files_recover() == {"published": 0, "deleted": 0}
        assert staged.exists()
    # The process ended (its lock is free) with the transaction never committed.
    assert staged_files_recover() == {"published": 0, "deleted": 1}
    assert not folder.exists()
