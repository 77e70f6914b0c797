"""Who may reach what among the enforcement, appeals and register routes (the role x
endpoint matrix of test_access_matrix.py, for the URLconfs of those apps).

The table is compared with the URLconfs, so a new route without a row fails. Targets are
applicant A's permit case in Spencer. Outcomes as in test_access_matrix.py:
  200 403 404 405   that status code
  login             302 to the login page
  did:PLACE         302 to PLACE, and the action was recorded (new audit events)
Places: C the case page, CS the cases list, V Spencer's enforcement settings, AP an
appeal's page (new or the target's), R the complaint receipt page, SV the stop-work
placard's service page.
Whatever the outcome, a GET or a refused POST writes nothing. A 500 fails the test.
"""

from __future__ import annotations

import datetime
import re
from typing import Any

import factories
import pytest
from board_helpers import board_decides, roll_all_present, seat_board
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLPattern, reverse
from django.utils import timezone
from enforcement_helpers import permit_filed_on
from shared_rows import _uploads_in_tmp, module_media, module_people, people  # noqa: F401
from test_access_matrix import ROLES, Row, _parse

from siltfence.apps.appeals import services as appeals
from siltfence.apps.appeals import urls as appeals_urls
from siltfence.apps.appeals.models import Appeal
from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.enforcement import register_urls
from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement import urls as enforcement_urls
from siltfence.apps.enforcement.models import (
    EnforcementAction,
    EnforcementCase,
    Invoice,
    Violation,
    WorkCost,
)
from siltfence.apps.permits.models import Permit, TimelineEvent

pytestmark = pytest.mark.django_db

PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"
    b"\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00"
    b"\x00\x00\x00IEND\xaeB`\x82"
)

MATRIX = """
name                             method target   anon   owner  appl_b staff  stf_ng insp   board
enforcement:cases                GET    -        login  403    403    200    200    200    200
enforcement:cases                POST   -        login  405    405    405    405    405    405
enforcement:case                 GET    case     login  200    404    200    404    200    200
enforcement:case                 POST   case     login  405    405    405    405    405    405
enforcement:case-step            GET    case     login  405    405    405    405    405    405
enforcement:case-step            POST   case     login  403    404    did:C  404    403    403
enforcement:invoice-step         GET    invoice  login  405    405    405    405    405    405
enforcement:invoice-step         POST   invoice  login  403    404    did:C  404    403    403
enforcement:violation-new        GET    -        login  403    403    200    200    200    403
enforcement:violation-new        POST   -        login  403    403    did:*  404    did:*  403
enforcement:complaint-review     GET    report   login  405    405    405    405    405    405
enforcement:complaint-review     POST   report   login  404    404    did:CS 404    404    404
enforcement:photo                GET    photo    login  404    404    200    404    200    200
enforcement:photo                POST   photo    login  405    405    405    405    405    405
enforcement:document             GET    doc      login  200    404    200    404    200    200
enforcement:document             POST   doc      login  405    405    405    405    405    405
enforcement:service              GET    doc      login  404    404    200    404    200    200
enforcement:service              POST   doc      login  404    404    did:SV 404    did:SV 403
enforcement:proof-of-service     GET    doc      login  404    404    200    404    200    200
enforcement:proof-of-service     POST   doc      login  405    405    405    405    405    405
enforcement:service-received     GET    service  login  405    405    405    405    405    405
enforcement:service-received     POST   service  login  403    404    did:SV 404    did:SV 403
enforcement:village              GET    village  login  403    403    200    403    403    403
enforcement:village              POST   village  login  403    403    did:V  403    403    403
enforcement:complaint            GET    -        200    200    200    200    200    200    200
enforcement:complaint            POST   -        did:R  did:R  did:R  did:R  did:R  did:R  did:R
enforcement:complaint-received   GET    report   404    404    404    404    404    404    404
enforcement:complaint-received   POST   report   405    405    405    405    405    405    405
enforcement:complaint-receipt    GET    report   404    404    404    404    404    404    404
enforcement:complaint-receipt    POST   report   405    405    405    405    405    405    405
register:register                GET    -        200    200    200    200    200    200    200
register:register                POST   -        405    405    405    405    405    405    405
register:csv                     GET    -        200    200    200    200    200    200    200
register:csv                     POST   -        405    405    405    405    405    405    405
register:geojson                 GET    -        200    200    200    200    200    200    200
register:geojson                 POST   -        405    405    405    405    405    405    405
register:feed                    GET    -        200    200    200    200    200    200    200
register:feed                    POST   -        200    200    200    200    200    200    200
register:reports                 GET    -        200    200    200    200    200    200    200
register:reports                 POST   -        405    405    405    405    405    405    405
appeals:docket                   GET    -        login  403    403    200    200    403    200
appeals:docket                   POST   -        login  405    405    405    405    405    405
appeals:new                      GET    -        login  200    404    200    404    200    200
appeals:new                      POST   -        login  did:AP 404    did:AP 404    200    200
appeals:detail                   GET    appeal   login  200    404    200    404    200    200
appeals:detail                   POST   appeal   login  405    405    405    405    405    405
appeals:hearing                  GET    appeal   login  405    405    405    405    405    405
appeals:hearing                  POST   appeal   login  403    404    did:AP 404    403    did:AP
appeals:roll                     GET    appeal   login  405    405    405    405    405    405
appeals:roll                     POST   appeal   login  403    404    did:AP 404    403    403
appeals:vote                     GET    appeal   login  405    405    405    405    405    405
appeals:vote                     POST   appeal   login  403    404    400    404    403    403
appeals:not-reversed             GET    appeal   login  405    405    405    405    405    405
appeals:not-reversed             POST   appeal   login  403    404    400    404    403    403
appeals:notice                   GET    appeal   login  200    404    200    404    200    200
appeals:notice                   POST   appeal   login  405    405    405    405    405    405
appeals:agenda                   GET    agenda   login  403    403    200    403    403    200
appeals:agenda                   POST   agenda   login  405    405    405    405    405    405
appeals:document                 GET    decided  login  200    404    200    404    200    200
appeals:document                 POST   decided  login  405    405    405    405    405    405
"""

ROWS = _parse(MATRIX)
CASES = [
    pytest.param(row, role, id=f"{row.name}-{row.method}-{role}") for row in ROWS for role in ROLES
]


def _names(module: Any, namespace: str) -> set[str]:
    names = set()
    for pattern in module.urlpatterns:
        assert isinstance(pattern, URLPattern) and pattern.name, pattern
        names.add(f"{namespace}:{pattern.name}")
    return names


def test_every_enforcement_appeals_and_register_url_has_a_get_and_a_post_row():
    names = (
        _names(enforcement_urls, "enforcement")
        | _names(register_urls, "register")
        | _names(appeals_urls, "appeals")
    )
    covered = {row.name for row in ROWS}
    assert names == covered
    for name in names:
        assert sorted(r.method for r in ROWS if r.name == name) == ["GET", "POST"], name


class World:
    """Applicant A's Spencer permit case: a violation with a photo, a stop-work order, a
    notice of intent, village work with a cost and an invoice; a public report waiting for
    review; an appeal with its hearing held, and one already decided."""

    def __init__(self, people: factories.People) -> None:
        self.people = people
        staff = people.staff[factories.SPENCER]
        now = timezone.now()
        ago = lambda days: now - datetime.timedelta(days=days)  # noqa: E731
        permit = permit_filed_on(
            applicant=people.applicant_a,
            village=factories.SPENCER,
            staff=staff,
            filed=(timezone.localdate() - datetime.timedelta(days=80)).isoformat(),
            address="12 Park St, Spencer",
        )
        self.permit = permit
        violation = s.violation_record(
            village=permit.village,
            recorded_by=staff,
            source="observation",
            description="Inlet unprotected.",
            provision="§ 413-7B(4)",
            days_from=timezone.localdate(ago(60)),
            at=ago(60),
            permit=permit,
            photos=[s.Photo("inlet.png", PNG, "image/png")],
        )
        self.case = violation.case
        self.photo = violation.photos.get()
        self.order = s.stop_work_order_post(
            case=self.case, staff=staff, at=ago(59), grounds=["conditions-not-met"]
        )
        s.notice_of_intent_issue(case=self.case, staff=staff, at=ago(45), work="Fence")
        s.village_work_begin(case=self.case, staff=staff, at=ago(25))
        s.work_cost_record(
            case=self.case,
            staff=staff,
            category="labour",
            description="Crew",
            amount="300",
            incurred_on=timezone.localdate(ago(25)),
        )
        # Due ten days ago, so that its costs can be recorded as unpaid.
        self.invoice = s.invoice_issue(
            case=self.case, staff=staff, on=timezone.localdate(ago(20)), due_in_days=10
        )
        self.document = self.case.documents.first()
        # A copy of the placard mailed, the day it was received not yet known.
        self.service = s.document_serve(
            document=self.document,
            user=staff,
            method="mailed_first_class",
            at=ago(58),
            to_name="Alex Schmid",
            address={"street": "PO Box 12", "city": "Spencer", "state": "WI", "zip_code": "54479"},
        )
        self.report = s.complaint_file(
            village=permit.village,
            description="Mud.",
            at=ago(1),
            address="9 Elm St",
            phone="555-0100",
        )

        def heard(grounds: str, appellant: str = "Alex Schmid") -> Appeal:
            appeal = appeals.appeal_file(
                village=permit.village,
                filed_by=staff,
                on=timezone.localdate(ago(50)),
                appellant_name=appellant,
                standing="permittee",
                grounds=grounds,
                action=self.order,
            )
            return appeals.appeal_hearing_schedule(
                appeal=appeal,
                user=staff,
                hearing_at=ago(40),
                notice_given_on=timezone.localdate(ago(48)),
                notice_to="Alex Schmid",
            )

        self.appeal = heard("The fence was up.")
        # A second appellant's appeal (one appellant has one pending appeal of an order),
        # decided by the board (its chair records the roll and the vote).
        self.decided = board_decides(
            heard("Again.", appellant="Schmid Excavating LLC"),
            at=ago(39),
            decision="affirm",
            reasons="The photo shows the inlet.",
        )
        self.board = seat_board(factories.SPENCER)

    def roll_data(self) -> dict[str, str]:
        """Everyone on the roll of the undecided appeal's hearing present."""
        return {
            f"status_{call.person}": call.status
            for call in roll_all_present(self.appeal, self.board)
        }

    def user(self, role: str) -> Any:
        p, sp = self.people, factories.SPENCER
        return {
            "anon": None,
            "owner": p.applicant_a,
            "appl_b": p.applicant_b,
            "staff": p.staff[sp],
            "stf_ng": p.staff[factories.NEW_GLARUS],
            "insp": p.inspector[sp],
            "board": p.board[sp],
        }[role]

    def url(self, row: Row) -> str:
        args: list[Any] = {
            "-": [],
            "case": [self.case.pk],
            "invoice": [self.invoice.pk],
            "report": [self.report.pk],
            "photo": [self.photo.pk],
            "doc": [self.document.pk],
            "service": [self.service.pk],
            "village": [factories.SPENCER],
            "appeal": [self.appeal.pk],
            "decided": [self.decided.pk],
            "agenda": [factories.SPENCER, timezone.localtime(self.appeal.hearing_at).date()],
        }[row.target]
        if row.name == "enforcement:case-step":
            args.append("compliance")
        if row.name == "enforcement:invoice-step":
            args.append("unpaid")
        url = reverse(row.name, args=args)
        if row.name == "appeals:new":
            url += f"?action={self.order.pk}"
        return url

    def place(self, place: str) -> str:
        return {
            "C": reverse("enforcement:case", args=[self.case.pk]),
            "CS": reverse("enforcement:cases"),
            "V": reverse("enforcement:village", args=[factories.SPENCER]),
            "SV": reverse("enforcement:service", args=[self.document.pk]),
        }[place]


def _data(row: Row) -> dict[str, Any]:
    now = timezone.localtime().strftime("%Y-%m-%dT%H:%M")
    today = timezone.localdate().isoformat()
    if row.method == "GET":
        return {}
    return {
        "enforcement:case-step": {"at": now, "text": "Complied."},
        "enforcement:service": {
            "method": "handed_over",
            "served_at": now,
            "to": "other",
            "to_name": "Alex Schmid",
        },
        "enforcement:service-received": {"received_on": today, "received_how": "Receipt card"},
        "enforcement:invoice-step": {"at": now},
        "enforcement:violation-new": {
            "village": factories.SPENCER,
            "address": "77 Oak St, Spencer",
            "source": "inspection",
            "provision": "§ 413-7B(3)",
            "description": "Mud tracked onto Oak St.",
            "days_from": today,
            "party_role": "hauler",
        },
        "enforcement:complaint-review": {"finding": "dismissed", "party_role": "unknown"},
        "enforcement:village": {
            "setting": "interest",
            "effective_from": today,
            "annual_percent": "6",
            "authority": "Res. 2026-9",
        },
        "enforcement:complaint": {
            "village": factories.SPENCER,
            "address": "3 Elm St",
            "description": "Silt fence down.",
            "email": "n@example.org",
            "photos": [SimpleUploadedFile("x.png", PNG, content_type="image/png")],
        },
        "appeals:new": {
            "action": "",  # set per world
            "kind": "appeal",
            # Not the appellant of the appeal already pending on this order.
            "appellant_name": "Pat Schmid",
            "standing": "permittee",
            "grounds": "Wrong lot.",
            "filed_on": today,
        },
        "appeals:hearing": {
            "hearing_at": (timezone.localtime() - datetime.timedelta(hours=2)).strftime(
                "%Y-%m-%dT%H:%M"
            ),
            "notice_given_on": (timezone.localdate() - datetime.timedelta(days=7)).isoformat(),
            "notice_to": "Alex Schmid",
        },
        "appeals:vote": {"kind": "affirm", "reasons": "Upheld.", "voted_at": now},
        "appeals:not-reversed": {"decided_at": now},
        "register:feed": {},
    }.get(row.name, {})


def snapshot() -> dict[str, Any]:
    models = (
        AuditEvent,
        EnforcementCase,
        EnforcementAction,
        Violation,
        WorkCost,
        Invoice,
        Appeal,
        TimelineEvent,
    )
    return {
        "counts": {m.__name__: m.objects.count() for m in models},
        "violations": sorted(Violation.objects.values_list("pk", "status")),
        "appeals": sorted(Appeal.objects.values_list("pk", "status", "decision")),
        "permits": sorted(Permit.objects.values_list("pk", "status")),
        "invoices": sorted(Invoice.objects.values_list("pk", "paid_amount")),
    }


@pytest.fixture(scope="module")
def module_world(module_people, django_db_blocker):
    """One world for the module's matrix (its rows kept with the module's people); each
    test's requests change it only inside the test's savepoint."""
    with django_db_blocker.unblock():
        return World(module_people)


@pytest.fixture
def world(module_world, people):
    return module_world


@pytest.mark.parametrize("row, role", CASES)
def test_each_role_gets_the_expected_answer_from_each_enforcement_url(row, role, world):
    cache.clear()  # the complaint form's hourly bound starts afresh
    url = world.url(row)
    data = _data(row)
    if row.name == "appeals:new":
        data["action"] = str(world.order.pk)
    if row.name == "appeals:roll" and row.method == "POST":
        data = world.roll_data()
    client = Client()
    user = world.user(role)
    if user is not None:
        client.force_login(user, backend=factories.ModelBackend)
    before = snapshot()
    response = client.get(url, data) if row.method == "GET" else client.post(url, data)
    expected = row.expect[role]
    where = f"{row.method} {url} as {role}"
    assert response.status_code != 500, f"{where}: server error"
    kind, _, place = expected.partition(":")
    after = snapshot()
    if kind.isdigit():
        assert response.status_code == int(kind), (
            f"{where}: expected {expected}, got {response.status_code} "
            f"{response.get('Location', '')}"
        )
    else:
        assert response.status_code == 302, (
            f"{where}: expected {expected}, got {response.status_code}"
        )
        location = response["Location"]
        if kind == "login":
            assert location.startswith(reverse("web:login") + "?next="), f"{where}: {location}"
        elif place == "AP":
            assert re.fullmatch(r"/appeals/\d+/", location), f"{where}: {location}"
        elif place == "R":
            assert re.fullmatch(r"/report-a-site/\d+/", location), f"{where}: {location}"
        elif place != "*":
            assert location == world.place(place), f"{where}: redirected to {location}"
    if kind == "did":
        assert after["counts"]["AuditEvent"] > before["counts"]["AuditEvent"], (
            f"{where}: the action should have been carried out and recorded"
        )
    else:
        assert after == before, f"{where} ({expected}) must not write anything"


@pytest.mark.parametrize("name", ["enforcement:case", "enforcement:document", "appeals:detail"])
@pytest.mark.parametrize("role", ["appl_b", "stf_ng"])
def test_someone_else_s_enforcement_record_answers_like_one_that_does_not_exist(name, role, world):
    target = {
        "enforcement:case": world.case.pk,
        "enforcement:document": world.document.pk,
        "appeals:detail": world.appeal.pk,
    }[name]
    client = Client()
    client.force_login(world.user(role), backend=factories.ModelBackend)
    real = client.get(reverse(name, args=[target]))
    missing = client.get(reverse(name, args=[999_999]))
    assert real.status_code == missing.status_code == 404
