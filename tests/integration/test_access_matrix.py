"""Who may reach what (DESIGN.md capability 11; reliability rules: no IDOR).

Every URL of ``siltfence.apps.web.urls`` and of the API, each with GET and POST, for
seven people. The targets are applicant A's objects in Spencer. The table is compared
with the URLconf, so a new URL without a row here fails the suite.

Outcomes:
  200 400 403 404 405   that status code
  login                 302 to the login page (with ?next=)
  go:PLACE              302 to PLACE, nothing written
  did:PLACE             302 to PLACE, and the action was recorded (new audit events)
  nak:PLACE             302 to PLACE with the refusal as a message, nothing written

Places: P portal, PA the target's portal page, SA its staff page, PM the permit's page,
V Spencer's village settings, Q the staff review queue, SP the staff permit list,
IH the inspector's home, AH the appeals board's home, PRD "check your email" after a
password reset, PC the permit check (start page), NEW a new application's portal page,
L the sign-in page, H "My work", A the account page, E the authenticator's set-up page.

Officials' sessions here have passed the code step (``tests/conftest.py``); a session
that has not is refused everywhere by the sign-in tests (``test_sign_in_codes.py``).

Whatever the outcome, nothing is ever written by a GET or by a refused POST: the audit
chain, the record counts and every status are the same afterwards. A 500 fails the test.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import factories
import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLPattern, get_resolver, resolve, reverse
from django.utils import timezone
from shared_rows import _uploads_in_tmp, module_media, module_people, people  # noqa: F401

from siltfence.apps.accounts.models import Membership
from siltfence.apps.api.api import api
from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.permits.models import (
    Application,
    Document,
    FeeSchedule,
    InformationRequest,
    OfficeClosure,
    Permit,
    PermitExtension,
    PlanAmendment,
    Surety,
    TimelineEvent,
    Village,
)
from siltfence.apps.web import urls as web_urls
from siltfence.core.ordinance.loader import load

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[2]

ROLES = ("anon", "owner", "appl_b", "staff", "stf_ng", "insp", "board")

# anon: nobody signed in. owner: applicant A, who owns every target. appl_b: applicant B.
# staff / insp (inspector) / board (appeals board): of Spencer, the targets' village.
# stf_ng: staff of New Glarus.
MATRIX = """
name                      method target    anon   owner  appl_b staff  stf_ng insp   board
# public pages ----------------------------------------------------------------------------------
permit-check              GET    -         200    200    200    200    200    200    200
permit-check              POST   -         405    405    405    405    405    405    405
permit-check-answer       GET    -         405    405    405    405    405    405    405
permit-check-answer       POST   -         200    200    200    200    200    200    200
ordinance-list            GET    -         200    200    200    200    200    200    200
ordinance-list            POST   -         405    405    405    405    405    405    405
ordinance-detail          GET    ordinance 200    200    200    200    200    200    200
ordinance-detail          POST   ordinance 405    405    405    405    405    405    405
section-detail            GET    section   200    200    200    200    200    200    200
section-detail            POST   section   405    405    405    405    405    405    405
ordinance-diff            GET    diff      200    200    200    200    200    200    200
ordinance-diff            POST   diff      405    405    405    405    405    405    405
design-check-report       GET    -         200    200    200    200    200    200    200
design-check-report       POST   -         200    200    200    200    200    200    200
design-check-pdf          GET    -         405    405    405    405    405    405    405
design-check-pdf          POST   -         200    200    200    200    200    200    200
plan-format               GET    -         200    200    200    200    200    200    200
plan-format               POST   -         405    405    405    405    405    405    405
api-reference             GET    -         200    200    200    200    200    200    200
api-reference             POST   -         405    405    405    405    405    405    405
# people ----------------------------------------------------------------------------------------
login                     GET    -         200    200    200    200    200    200    200
login                     POST   -         200    200    200    200    200    200    200
logout                    GET    -         200    200    200    200    200    200    200
logout                    POST   -         go:PC  go:PC  go:PC  go:PC  go:PC  go:PC  go:PC
register                  GET    -         200    200    200    200    200    200    200
register                  POST   -         200    200    200    200    200    200    200
register-sent             GET    -         200    200    200    200    200    200    200
register-sent             POST   -         405    405    405    405    405    405    405
register-confirm          GET    regtok    400    400    400    400    400    400    400
register-confirm          POST   regtok    400    400    400    400    400    400    400
home                      GET    -         login  go:P   go:P   go:Q   go:Q   go:IH  go:AH
home                      POST   -         login  go:P   go:P   go:Q   go:Q   go:IH  go:AH
password-reset            GET    -         200    200    200    200    200    200    200
password-reset            POST   -         go:PRD go:PRD go:PRD go:PRD go:PRD go:PRD go:PRD
password-reset-done       GET    -         200    200    200    200    200    200    200
password-reset-done       POST   -         405    405    405    405    405    405    405
password-reset-confirm    GET    reset     200    200    200    200    200    200    200
password-reset-confirm    POST   reset     200    200    200    200    200    200    200
password-reset-complete   GET    -         200    200    200    200    200    200    200
password-reset-complete   POST   -         405    405    405    405    405    405    405
sign-in-code              GET    -         go:L   go:H   go:H   go:H   go:H   go:H   go:H
sign-in-code              POST   -         go:L   go:H   go:H   go:H   go:H   go:H   go:H
sign-in-enrol             GET    -         go:L   200    200    go:A   go:A   go:A   go:A
sign-in-enrol             POST   -         go:L   200    200    go:A   go:A   go:A   go:A
account                   GET    -         login  200    200    200    200    200    200
account                   POST   -         login  405    405    405    405    405    405
account-backup-codes      GET    -         login  405    405    405    405    405    405
account-backup-codes      POST   -         login  go:A   go:A   400    400    400    400
account-new-phone         GET    -         login  405    405    405    405    405    405
account-new-phone         POST   -         login  go:E   go:E   400    400    400    400
account-turn-off          GET    -         login  405    405    405    405    405    405
account-turn-off          POST   -         login  go:A   go:A   403    403    403    403
# applicant portal ------------------------------------------------------------------------------
portal                    GET    -         login  200    200    200    200    200    200
portal                    POST   -         login  405    405    405    405    405    405
apply                     GET    -         login  200    200    200    200    200    200
apply                     POST   -         login  did:NEW did:NEW did:NEW did:NEW did:NEW did:NEW
portal-application        GET    review    login  200    404    go:SA  404    go:SA  go:SA
portal-application        POST   review    login  405    405    405    405    405    405
portal-checklist          GET    draft     login  405    405    405    405    405    405
portal-checklist          POST   draft     login  did:PA 404    404    404    404    404
portal-upload             GET    draft     login  405    405    405    405    405    405
portal-upload             POST   draft     login  did:PA 404    404    404    404    404
portal-submit             GET    draft     login  405    405    405    405    405    405
portal-submit             POST   draft     login  did:PA 404    404    404    404    404
portal-respond            GET    info      login  405    405    405    405    405    405
portal-respond            POST   info      login  did:PA 404    404    404    404    404
# staff console ---------------------------------------------------------------------------------
staff-queue               GET    -         login  403    403    200    200    403    403
staff-queue               POST   -         login  405    405    405    405    405    405
staff-application         GET    review    login  403    403    200    404    200    200
staff-application         POST   review    login  405    405    405    405    405    405
staff-request-information GET    review    login  405    405    405    405    405    405
staff-request-information POST   review    login  403    404    did:SA 404    403    403
staff-approve             GET    review    login  405    405    405    405    405    405
staff-approve             POST   review    login  403    404    did:SA 404    403    403
staff-disapprove          GET    review    login  405    405    405    405    405    405
staff-disapprove          POST   review    login  403    404    did:SA 404    403    403
staff-surety-receive      GET    await     login  405    405    405    405    405    405
staff-surety-receive      POST   await     login  403    404    did:SA 404    403    403
staff-permits             GET    -         login  403    403    200    200    200    200
staff-permits             POST   -         login  405    405    405    405    405    405
staff-payments            GET    -         login  403    403    200    200    403    403
staff-payments            POST   -         login  405    405    405    405    405    405
inspector-home            GET    -         login  403    403    403    403    200    403
inspector-home            POST   -         login  405    405    405    405    405    405
appeals-home              GET    -         login  403    403    403    403    403    200
appeals-home              POST   -         login  405    405    405    405    405    405
# permits ---------------------------------------------------------------------------------------
permit                    GET    permit    login  200    404    200    404    200    200
permit                    POST   permit    login  405    405    405    405    405    405
permit-extend             GET    permit    login  405    405    405    405    405    405
permit-extend             POST   permit    login  403    404    did:PM 404    403    403
permit-close              GET    permit    login  405    405    405    405    405    405
permit-close              POST   permit    login  403    404    did:PM 404    403    403
permit-surety             GET    permit    login  405    405    405    405    405    405
permit-surety             POST   permit    login  403    404    did:PM 404    403    403
permit-surety-move        GET    surety    login  405    405    405    405    405    405
permit-surety-move        POST   surety    login  403    404    did:PM 404    403    403
permit-amendment          GET    permit    login  405    405    405    405    405    405
permit-amendment          POST   permit    login  did:PM 404    did:PM 404    403    403
permit-amendment-decide   GET    amend     login  405    405    405    405    405    405
permit-amendment-decide   POST   amend     login  403    404    did:PM 404    403    403
# village settings ------------------------------------------------------------------------------
village-settings          GET    village   login  403    403    200    403    403    403
village-settings          POST   village   login  405    405    405    405    405    405
village-office            GET    village   login  405    405    405    405    405    405
village-office            POST   village   login  403    403    did:V  403    403    403
village-closure           GET    village   login  405    405    405    405    405    405
village-closure           POST   village   login  403    403    did:V  403    403    403
village-fee               GET    village   login  405    405    405    405    405    405
village-fee               POST   village   login  403    403    did:V  403    403    403
village-amendment         GET    village   login  403    403    200    403    403    403
village-amendment         POST   village   login  403    403    200    403    403    403
village-sign-in           GET    village   login  403    403    200    403    403    403
village-sign-in           POST   village   login  403    403    400    403    403    403
# documents -------------------------------------------------------------------------------------
document                  GET    doc       login  200    404    200    404    200    200
document                  POST   doc       login  405    405    405    405    405    405
# API (/api/): every operation is public today; a protected one answers 401 or 403 to anon ------
api:api-root              GET    -         404    404    404    404    404    404    404
api:api-root              POST   -         404    404    404    404    404    404    404
api:openapi-json          GET    -         200    200    200    200    200    200    200
api:openapi-json          POST   -         200    200    200    200    200    200    200
api:openapi-view          GET    -         200    200    200    200    200    200    200
api:openapi-view          POST   -         200    200    200    200    200    200    200
api:post_determination    GET    -         405    405    405    405    405    405    405
api:post_determination    POST   -         200    200    200    200    200    200    200
api:post_duties           GET    -         405    405    405    405    405    405    405
api:post_duties           POST   -         200    200    200    200    200    200    200
api:get_jurisdictions     GET    -         200    200    200    200    200    200    200
api:get_jurisdictions     POST   -         405    405    405    405    405    405    405
api:post_design_checks    GET    -         405    405    405    405    405    405    405
api:post_design_checks    POST   -         200    200    200    200    200    200    200
api:post_rain_storms      GET    -         405    405    405    405    405    405    405
api:post_rain_storms      POST   -         200    200    200    200    200    200    200
"""


@dataclass(frozen=True)
class Row:
    name: str
    method: str
    target: str
    expect: dict[str, str]


def _parse(table: str) -> list[Row]:
    rows = []
    for line in table.strip().splitlines()[1:]:
        if not line.strip() or line.startswith("#"):
            continue
        name, method, target, *cells = line.split()
        assert len(cells) == len(ROLES), f"MATRIX row {name} {method}: {len(cells)} cells"
        rows.append(Row(name, method, target, dict(zip(ROLES, cells, strict=True))))
    return rows


ROWS = _parse(MATRIX)
CASES = [
    pytest.param(row, role, id=f"{row.name}-{row.method}-{role}") for row in ROWS for role in ROLES
]


# --- the table covers the URLconf --------------------------------------------------------


def _api_pattern_names() -> set[str]:
    patterns, _app, _namespace = api.urls
    names = set()
    for pattern in patterns:
        assert isinstance(pattern, URLPattern), pattern
        names.add(f"api:{pattern.name}")
    return names


def test_every_web_url_has_a_get_and_a_post_row_in_the_matrix():
    names = {p.name for p in web_urls.urlpatterns}
    assert all(names), "every web URL pattern has a name"
    covered = {row.name for row in ROWS if not row.name.startswith("api:")}
    assert names - covered == set(), f"URLs with no expectations: {sorted(names - covered)}"
    assert covered - names == set(), f"rows for URLs that are gone: {sorted(covered - names)}"
    for name in names | _api_pattern_names():
        methods = sorted(row.method for row in ROWS if row.name == name)
        assert methods == ["GET", "POST"], f"{name}: rows for {methods}"


def test_every_api_url_and_operation_has_rows_in_the_matrix():
    covered = {row.name for row in ROWS if row.name.startswith("api:")}
    assert _api_pattern_names() == covered
    operations = api.get_openapi_schema()["paths"]
    assert operations, "the API has operations"
    for path, methods in operations.items():
        name = f"api:{resolve(path).url_name}"
        for method in methods:
            row = next((r for r in ROWS if r.name == name and r.method == method.upper()), None)
            assert row is not None, f"{method.upper()} {path}: no row in the matrix"
            assert row.expect["anon"] in ("200", "401", "403"), (
                f"{method.upper()} {path}: say whether it is public or protected"
            )


def test_the_project_urlconf_mounts_the_web_app_and_the_api():
    resolver = get_resolver()
    assert resolve("/").url_name == "permit-check"
    assert resolve("/api/v1/jurisdictions").url_name == "get_jurisdictions"
    assert any(str(p.pattern) == "api/" for p in resolver.url_patterns)


# --- the world each case runs in ---------------------------------------------------------


class World:
    def __init__(self, people: factories.People, spencer: factories.Spencer) -> None:
        self.people = people
        self.spencer = spencer

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
        s = self.spencer
        match target:
            case "-":
                return []
            case "draft" | "review" | "info" | "approved":
                state = {"review": "under_review", "info": "information_requested"}.get(
                    target, target
                )
                return [s.application(state).pk]
            case "await":
                return [s.application("awaiting_surety").pk]
            case "permit":
                return [s.permit.pk]
            case "surety":
                return [s.permit.pk, s.surety.pk]
            case "amend":
                return [s.permit.pk, s.amendment.pk]
            case "doc":
                return [s.document.pk]
            case "village" | "ordinance":
                return [factories.SPENCER]
            case "section":
                return [factories.SPENCER, load(factories.SPENCER).sections[0].number]
            case "diff":
                return [factories.SPENCER, factories.NEW_GLARUS]
            case "reset":
                return ["MQ", "not-a-valid-token"]
            case "regtok":
                return ["not-a-valid-token"]
        raise AssertionError(f"MATRIX: unknown target {target!r}")

    def url(self, row: Row) -> str:
        if row.name.startswith("api:"):
            return reverse(f"api-1:{row.name.removeprefix('api:')}")
        return reverse(f"web:{row.name}", args=self.args(row.target))

    def place(self, place: str, row: Row) -> str | None:
        pk = self.args(row.target)[0] if row.target not in ("-", "village") else None
        return {
            "P": lambda: reverse("web:portal"),
            "PA": lambda: reverse("web:portal-application", args=[pk]),
            "SA": lambda: reverse("web:staff-application", args=[pk]),
            "PM": lambda: reverse("web:permit", args=[pk]),
            "V": lambda: reverse("web:village-settings", args=[factories.SPENCER]),
            "Q": lambda: reverse("web:staff-queue"),
            "SP": lambda: reverse("web:staff-permits"),
            "IH": lambda: reverse("web:inspector-home"),
            "AH": lambda: reverse("web:appeals-home"),
            "PRD": lambda: reverse("web:password-reset-done"),
            "PC": lambda: reverse("web:permit-check"),
            "L": lambda: reverse("web:login"),
            "H": lambda: reverse("web:home"),
            "A": lambda: reverse("web:account"),
            "E": lambda: reverse("web:sign-in-enrol"),
        }[place]()


def _today() -> str:
    return timezone.localdate().isoformat()


DESIGN_PLAN = (
    REPO / "ordinances" / "spencer-wi" / "cases" / "design" / "stockpiles.json"
).read_text()
SPENCER_FACTS = json.dumps({"disturbed_area": 9000, "land_use": "residential"})


def request_for(row: Row, role: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(query or form data, extra client kwargs) for a row's request."""
    if row.method == "GET":
        if row.name == "apply":
            return {"jurisdiction": factories.SPENCER, "facts": SPENCER_FACTS}, {}
        return {}, {}
    json_bodies = {
        "api:post_determination": {"jurisdiction": "spencer-wi", "facts": {"disturbed_area": 9000}},
        "api:post_rain_storms": {
            "jurisdiction": "spencer-wi",
            "file": "year,month,day,date,day_of_year,PRCP,SNOW,SNWD,TMAX,TMIN\n"
            "2024,05,01,2024-05-01,122,0.6,0,0,60,40\n",
            "from": "2024-05-01",
            "to": "2024-05-31",
            "station": "USW00014839",
        },
        "api:post_duties": {
            "jurisdiction": "spencer-wi",
            "events": [{"type": "application_received", "at": "2026-06-01"}],
            "as_of": "2026-06-10",
        },
    }
    if row.name == "api:post_design_checks":
        return {"data": DESIGN_PLAN}, {"content_type": "application/json"}
    if row.name in json_bodies:
        return {"data": json.dumps(json_bodies[row.name])}, {"content_type": "application/json"}
    forms: dict[str, dict[str, Any]] = {
        "permit-check-answer": {"jurisdiction": "spencer-wi", "disturbed_area": "9000"},
        "login": {"username": f"matrix-{role}", "password": "wrong password"},
        "register": {"username": ""},
        "apply": {
            "jurisdiction": factories.SPENCER,
            "facts": SPENCER_FACTS,
            "on": _today(),
            "address": "1 New St, Spencer",
            "owner_name": "Alex Schmid",
        },
        "design-check-report": {"plan": DESIGN_PLAN},
        "design-check-pdf": {"plan": DESIGN_PLAN},
        "portal-checklist": {"items": ["0"]},
        "portal-upload": {
            "kind": "site_map",
            "file": SimpleUploadedFile(
                "map.pdf", factories.plan_pdf("site map"), content_type="application/pdf"
            ),
        },
        "portal-respond": {"response": "The stockpiles are on the west side."},
        "staff-request-information": {"message": "Show the basin outlet."},
        "staff-approve": {"reasons": "The plan meets the chapter.", "confirm": "yes"},
        "staff-disapprove": {"reasons": "No inlet protection.", "confirm": "yes"},
        "permit-extend": {"days": "30", "added_measures": "Second fence row."},
        "permit-close": {"cover_percent": "85", "confirm": "yes"},
        "password-reset": {"email": "nobody@example.org"},
        "password-reset-confirm": {"new_password1": "x", "new_password2": "y"},
        "permit-surety": {
            "kind": "surety_bond",
            "amount": "5000",
            "issuer": "Marathon County Bank",
            "reference": "SB-7",
            "received_on": _today(),
        },
        "staff-surety-receive": {
            "kind": "surety_bond",
            "amount": "5000",
            "issuer": "Marathon County Bank",
            "reference": "SB-8",
        },
        "permit-surety-move": {
            "move": "draw",
            "amount": "100",
            "on": _today(),
            "reason": "Fence repaired by the village",
        },
        "permit-amendment": {"trigger": "modification", "description": "Move the stockpile."},
        "permit-amendment-decide": {"decision": "approve", "reasons": "Fine."},
        "village-office": {"phone": "715-555-0142", "email": "", "hours": "Mon-Fri 8-4:30"},
        "village-closure": {"day": "2031-01-02", "reason": "boiler repair"},
        "village-fee": {"effective_from": "2031-01-01", "amount": "60", "authority": "Res. 2031-1"},
        "village-amendment": {"area_trigger": "1 acre", "source": "past"},
    }
    return forms.get(row.name, {}), {}


def snapshot() -> dict[str, Any]:
    """Everything a refused request must leave as it was."""
    counts = {
        model.__name__: model.objects.count()
        for model in (
            AuditEvent,
            Application,
            Permit,
            Document,
            PlanAmendment,
            Surety,
            PermitExtension,
            OfficeClosure,
            FeeSchedule,
            InformationRequest,
            TimelineEvent,
            Membership,
            get_user_model(),
        )
    }
    return {
        "counts": counts,
        "applications": sorted(Application.objects.values_list("pk", "status", "checklist")),
        "permits": sorted(Permit.objects.values_list("pk", "status", "expires_on")),
        "amendments": sorted(PlanAmendment.objects.values_list("pk", "status")),
        "villages": sorted(Village.objects.values_list("pk", "phone", "email", "hours")),
    }


def _send(client: Client, row: Row, url: str, data: dict[str, Any], extra: dict[str, Any]) -> Any:
    if row.method == "GET":
        return client.get(url, data)
    if "content_type" in extra:
        return client.post(url, data["data"], content_type=extra["content_type"])
    return client.post(url, data)


@pytest.mark.parametrize("row, role", CASES)
def test_each_role_gets_the_expected_answer_from_each_url(row, role, people, spencer):
    world = World(people, spencer)
    url = world.url(row)  # makes the target objects before the snapshot
    data, extra = request_for(row, role)
    client = Client()
    user = world.user(role)
    if user is not None:
        client.force_login(user, backend=factories.ModelBackend)
    before = snapshot()

    response = _send(client, row, url, data, extra)

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
            f"{where}: expected a redirect ({expected}), got {response.status_code}"
        )
        location = response["Location"]
        if kind == "login":
            assert location.startswith(reverse("web:login") + "?next="), f"{where}: {location}"
        elif place == "NEW":
            assert re.fullmatch(r"/portal/applications/\d+/", location), f"{where}: {location}"
        else:
            assert location == world.place(place, row), f"{where}: redirected to {location}"
    if kind == "did":
        assert after["counts"]["AuditEvent"] > before["counts"]["AuditEvent"], (
            f"{where}: the action should have been carried out and recorded"
        )
    else:
        assert after == before, f"{where} ({expected}) must not write anything"


# --- no existence leak, no listing leak --------------------------------------------------

OBJECT_ROWS = [
    row
    for row in ROWS
    if row.target in ("draft", "review", "info", "await", "permit", "surety", "amend", "doc")
]


@pytest.mark.parametrize(
    "row, role",
    [
        pytest.param(row, role, id=f"{row.name}-{row.method}-{role}")
        for row in OBJECT_ROWS
        for role in ("appl_b", "stf_ng")
    ],
)
def test_someone_else_s_object_answers_exactly_like_one_that_does_not_exist(
    row, role, people, spencer
):
    world = World(people, spencer)
    real = world.url(row)
    args = world.args(row.target)
    missing = reverse(f"web:{row.name}", args=[999_999 for _ in args])
    data, extra = request_for(row, role)
    client = Client()
    client.force_login(world.user(role), backend=factories.ModelBackend)
    before = snapshot()
    answers = []
    for url in (real, missing):
        data, extra = request_for(row, role)  # a fresh upload each time
        response = _send(client, row, url, data, extra)
        answers.append((response.status_code, response.get("Location", "").replace(url, "")))
    assert answers[0] == answers[1], f"{row.method} {real} as {role}: {answers[0]} vs {answers[1]}"
    assert snapshot() == before


LIST_PAGES = [
    "web:portal",
    "web:staff-queue",
    "web:staff-permits",
    "web:staff-payments",
    "web:inspector-home",
    "web:appeals-home",
    "web:home",
]


@pytest.mark.parametrize("role", ["appl_b", "stf_ng"])
def test_lists_do_not_show_applicant_a_s_spencer_records_to_outsiders(role, people, spencer):
    world = World(people, spencer)
    numbers = [
        spencer.application(state).number
        for state in ("under_review", "information_requested", "approved")
    ] + [spencer.permit.number]
    client = Client()
    client.force_login(world.user(role), backend=factories.ModelBackend)
    for name in LIST_PAGES:
        response = client.get(reverse(name), follow=True)
        assert response.status_code in (200, 403), f"{name} as {role}: {response.status_code}"
        page = response.content.decode()
        leaked = [n for n in numbers if n in page]
        assert not leaked, f"{name} shows {leaked} to {role}"


@pytest.mark.parametrize("role", ["owner", "staff", "insp", "board"])
def test_lists_show_the_records_to_those_who_may_see_them(role, people, spencer):
    world = World(people, spencer)
    permit = spencer.permit
    review = spencer.application("under_review")
    client = Client()
    client.force_login(world.user(role), backend=factories.ModelBackend)
    page = {
        "owner": reverse("web:portal"),
        "staff": reverse("web:staff-queue"),
        "insp": reverse("web:inspector-home"),
        "board": reverse("web:appeals-home"),
    }[role]
    content = client.get(page).content.decode()
    expected = permit.number if role in ("insp", "board") else review.number
    assert expected in content, f"{page} as {role} does not list {expected}"
