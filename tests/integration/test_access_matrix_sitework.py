"""Who may reach what among the routes after the permit: the daily sweep's pages, the site
log, reminders and calendars, the village's inspections (the role x endpoint matrix of
test_access_matrix.py, for the URLconfs of those apps).

The table is compared with the URLconfs, so a new route without a row fails. Targets are
applicant A's permit in Spencer. Outcomes:
  200 403 404 405   that status code
  login             302 to the login page
  did:PLACE         302 to PLACE, and something was written
Places: SS the site's rain station page, RS the reminders page, LOG the permit's site log,
INSP the permit's inspection page.
Whatever the outcome, a GET or a refused POST writes nothing. A 500 fails the test.
"""

from __future__ import annotations

from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import URLPattern, reverse
from django.utils import timezone
from shared_rows import _uploads_in_tmp, module_media, module_people, people  # noqa: F401
from sitework import station_with_record
from test_access_matrix import ROLES, Row, _parse

from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.duties import urls as duties_urls
from siltfence.apps.duties.models import SiteStation
from siltfence.apps.duties.stations import stations_sync
from siltfence.apps.inspections import urls as inspections_urls
from siltfence.apps.inspections.models import Inspection
from siltfence.apps.inspections.services import Photo as InspectionPhoto
from siltfence.apps.inspections.services import inspection_record
from siltfence.apps.permits.models import TimelineEvent
from siltfence.apps.reminders import urls as reminders_urls
from siltfence.apps.reminders.models import CalendarFeed, ReminderPreference
from siltfence.apps.reminders.services import calendar_feed_create
from siltfence.apps.sitelog import urls as sitelog_urls
from siltfence.apps.sitelog.models import SiteLogEntry
from siltfence.apps.sitelog.services import Photo, site_log_record

pytestmark = pytest.mark.django_db

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)

MATRIX = """
name                             method target    anon   owner  appl_b staff  stf_ng insp   board
duties:dashboard                 GET    -         login  403    403    200    200    403    403
duties:dashboard                 POST   -         login  405    405    405    405    405    405
duties:site-station              GET    site      login  403    403    200    404    403    403
duties:site-station              POST   site      login  403    403    did:SS 404    403    403
duties:site-station-unpin        GET    site      login  405    405    405    405    405    405
duties:site-station-unpin        POST   site      login  403    403    did:SS 404    403    403
reminders:settings               GET    -         login  200    200    200    200    200    200
reminders:settings               POST   -         login  did:RS did:RS did:RS did:RS did:RS did:RS
reminders:feed-new               GET    -         login  405    405    405    405    405    405
reminders:feed-new               POST   -         login  did:RS did:RS did:RS did:RS did:RS did:RS
reminders:feed-revoke            GET    feedid    login  405    405    405    405    405    405
reminders:feed-revoke            POST   feedid    login  did:RS 404    404    404    404    404
reminders:feed                   GET    token     200    200    200    200    200    200    200
reminders:feed                   POST   token     405    405    405    405    405    405    405
sitelog:log                      GET    permit    login  200    404    200    404    200    200
sitelog:log                      POST   permit    login  did:LOG 404   403    404    403    403
sitelog:photo                    GET    logphoto  login  200    404    200    404    200    200
sitelog:photo                    POST   logphoto  login  405    405    405    405    405    405
inspections:round                GET    -         login  403    403    200    200    200    403
inspections:round                POST   -         login  405    405    405    405    405    405
inspections:inspect              GET    permit    login  403    404    200    404    200    403
inspections:inspect              POST   permit    login  403    404    did:INSP 404  did:INSP 403
inspections:photo                GET    inspphoto login  200    404    200    404    200    200
inspections:photo                POST   inspphoto login  405    405    405    405    405    405
"""

ROWS = _parse(MATRIX)
CASES = [
    pytest.param(row, role, id=f"{row.name}-{row.method}-{role}") for row in ROWS for role in ROLES
]


def _names(module: Any, namespace: str) -> set[str]:
    names = set()
    for pattern in module.urlpatterns:
        assert isinstance(pattern, URLPattern)
        names.add(f"{namespace}:{pattern.name}")
    return names


def test_every_route_after_the_permit_has_a_get_and_a_post_row():
    names = (
        _names(duties_urls, "duties")
        | _names(reminders_urls, "reminders")
        | _names(sitelog_urls, "sitelog")
        | _names(inspections_urls, "inspections")
    )
    covered = {row.name for row in ROWS}
    assert names == covered
    for name in names:
        assert sorted(r.method for r in ROWS if r.name == name) == ["GET", "POST"]


class World:
    def __init__(self, people: factories.People, spencer: factories.Spencer) -> None:
        self.people = people
        self.permit = spencer.permit
        stations_sync()
        station_with_record(site=self.permit.application.site)
        self.feed = calendar_feed_create(user=people.applicant_a)
        now = timezone.localtime()
        entry = site_log_record(
            permit=self.permit,
            user=people.applicant_a,
            kind="work_started",
            at=now.strftime("%Y-%m-%dT%H:%M"),
            data={},
            photos=[Photo("site.png", PNG, "image/png")],
            client_token="matrix",
        )
        self.log_photo = entry.photos.get()
        inspection = inspection_record(
            permit=self.permit,
            user=people.inspector["spencer-wi"],
            at=now.strftime("%Y-%m-%dT%H:%M"),
            result="compliant",
            answers={},
            findings="",
            photos=[InspectionPhoto("fence.png", PNG, "image/png")],
            client_token="matrix",
        )
        self.inspection_photo = inspection.photos.get()

    def user(self, role: str) -> Any:
        p, s = self.people, factories.SPENCER
        return {
            "anon": None,
            "owner": p.applicant_a,
            "appl_b": p.applicant_b,
            "staff": p.staff[s],
            "stf_ng": p.staff[factories.NEW_GLARUS],
            "insp": p.inspector[s],
            "board": p.board[s],
        }[role]

    def args(self, target: str) -> list[Any]:
        return {
            "-": [],
            "permit": [self.permit.pk],
            "site": [self.permit.application.site_id],
            "feedid": [self.feed.pk],
            "token": [self.feed.token],
            "logphoto": [self.log_photo.pk],
            "inspphoto": [self.inspection_photo.pk],
        }[target]

    def place(self, place: str) -> str:
        return {
            "SS": reverse("duties:site-station", args=[self.permit.application.site_id]),
            "RS": reverse("reminders:settings"),
            "LOG": reverse("sitelog:log", args=[self.permit.pk]),
            "INSP": reverse("inspections:inspect", args=[self.permit.pk]),
        }[place]


def _data(row: Row) -> dict[str, Any]:
    if row.method == "GET":
        return {}
    now = timezone.localtime().strftime("%Y-%m-%dT%H:%M")
    return {
        "duties:site-station": {"station": "USW00014897", "reason": "hilltop site"},
        "reminders:settings": {"due_soon": "on", "days_ahead": "3"},
        "reminders:feed-new": {"permit": ""},
        "sitelog:log": {"kind": "start_notice_given", "at": now, "client_token": "m2"},
        "inspections:inspect": {"result": "compliant", "at": now, "client_token": "m2"},
    }.get(row.name, {})


def snapshot() -> dict[str, Any]:
    return {
        "audit": AuditEvent.objects.count(),
        "events": TimelineEvent.objects.count(),
        "log": SiteLogEntry.objects.count(),
        "inspections": Inspection.objects.count(),
        "stations": sorted(SiteStation.objects.values_list("station_id", "pinned_reason")),
        "preferences": sorted(
            ReminderPreference.objects.values_list("user_id", "due_soon", "days_ahead")
        ),
        "feeds": sorted(CalendarFeed.objects.values_list("pk", "revoked_at")),
    }


@pytest.fixture(scope="module")
def module_world(module_people, django_db_blocker):
    """One world for the module (its rows kept with the module's people); each test's
    requests change it only inside the test's savepoint."""
    with django_db_blocker.unblock():
        return World(module_people, factories.Spencer(module_people))


@pytest.fixture
def world(module_world, people):
    return module_world


@pytest.mark.parametrize("row, role", CASES)
def test_each_role_gets_the_expected_answer_from_each_route_after_the_permit(row, role, world):
    url = reverse(row.name, args=world.args(row.target))
    client = Client()
    user = world.user(role)
    if user is not None:
        client.force_login(user, backend=factories.ModelBackend)
    before = snapshot()
    response = client.get(url) if row.method == "GET" else client.post(url, _data(row))
    expected = row.expect[role]
    where = f"{row.method} {url} as {role}"
    assert response.status_code != 500, f"{where}: server error"
    after = snapshot()
    kind, _, place = expected.partition(":")
    if kind.isdigit():
        assert response.status_code == int(kind), (
            f"{where}: expected {expected}, got {response.status_code} "
            f"{response.get('Location', '')}"
        )
    else:
        assert response.status_code == 302, (
            f"{where}: expected {expected}, got a {response.status_code}"
        )
        location = response["Location"]
        if kind == "login":
            assert location.startswith(reverse("web:login") + "?next="), f"{where}: {location}"
        else:
            assert location.split("?")[0] == world.place(place), f"{where}: {location}"
    if kind == "did":
        assert after != before, f"{where}: the action should have been carried out"
    else:
        assert after == before, f"{where} ({expected}) must not write anything"
