"""Build people and applications for integration tests through the real services.

Nothing here writes a model directly: every application reaches its state the way a
person would bring it there (create, tick the checklist, upload a real PDF plan, file,
and the staff's decision), so each test also exercises the audit chain.
"""

from __future__ import annotations

import datetime
import html
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from siltfence.apps.accounts.models import Membership, Role
from siltfence.apps.documents.pdf import lines_to_pdf
from siltfence.apps.permits import services
from siltfence.apps.permits.models import (
    Application,
    Document,
    DocumentKind,
    Permit,
    PlanAmendment,
    Surety,
    Village,
)

SPENCER = "spencer-wi"
NEW_GLARUS = "new-glarus-wi"
VILLAGES = (SPENCER, NEW_GLARUS)

STATES = (
    "draft",
    "under_review",
    "information_requested",
    "awaiting_surety",
    "approved",
    "disapproved",
)

# Facts that need a permit in each village (a plan, not only a plan statement).
FACTS = {
    SPENCER: {"disturbed_area": 9000, "land_use": "residential"},
    NEW_GLARUS: {"disturbed_area": 7000},
}

AMENDMENT_TRIGGER = {SPENCER: "modification", NEW_GLARUS: "design_change"}

ModelBackend = "django.contrib.auth.backends.ModelBackend"


def text_of(response: Any) -> str:
    """The page's text with tags dropped and entities read, spaces squeezed."""
    body = re.sub(r"<script.*?</script>", " ", response.content.decode(), flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))


def villages() -> dict[str, Village]:
    return {v.id: v for v in services.village_sync()}


def make_user(username: str, *, village: str | None = None, role: Role | None = None) -> Any:
    user = get_user_model().objects.create_user(
        username=username,
        email=f"{username}@example.org",
        password="not-used-in-tests-7x!",
        first_name=username.split("-")[0].title(),
        last_name="Tester",
    )
    if village and role:
        Membership.objects.create(user=user, village_id=village, role=role)
    return user


def plan_pdf(address: str) -> bytes:
    """A small, real PDF control plan."""
    return lines_to_pdf(
        ["CONTROL PLAN", address, "", "Silt fence on the east line; tracking pad at the drive."],
        title=f"Plan for {address}",
    )


@dataclass
class People:
    """Every role in each village, and two applicants."""

    staff: dict[str, Any]
    inspector: dict[str, Any]
    board: dict[str, Any]
    applicant_a: Any
    applicant_b: Any

    @classmethod
    def create(cls) -> People:
        staff, inspector, board = {}, {}, {}
        for village in VILLAGES:
            short = village.split("-wi")[0]
            staff[village] = make_user(f"{short}-staff", village=village, role=Role.STAFF)
            inspector[village] = make_user(
                f"{short}-inspector", village=village, role=Role.INSPECTOR
            )
            board[village] = make_user(f"{short}-board", village=village, role=Role.APPEALS_BOARD)
        return cls(
            staff=staff,
            inspector=inspector,
            board=board,
            applicant_a=make_user("applicant-a"),
            applicant_b=make_user("applicant-b"),
        )


def make_application(
    *,
    applicant: Any,
    village: str,
    state: str,
    staff: Any = None,
    address: str = "220 S Pacific St",
    facts: dict[str, Any] | None = None,
    days_ago: int = 10,
) -> Application:
    """An application brought to ``state`` through the services.

    ``draft`` is complete and ready to file: checklist ticked, plan uploaded.
    ``approved`` has its permit (``application.permit``).
    """
    if state not in STATES:
        raise ValueError(f"state: one of {STATES}, got {state!r}")
    place = Village.objects.get(pk=village)
    now = timezone.now()
    filed = now - datetime.timedelta(days=days_ago)
    application = services.application_create(
        applicant=applicant,
        village=place,
        address=address,
        facts=facts or FACTS[village],
        on=timezone.localdate(filed),
        description="integration test project",
        parties=[{"role": "landowner", "name": "Alex Schmid"}],
    )
    contents = (application.determination.get("plan") or {}).get("contents", [])
    services.application_checklist_set(
        application=application, user=applicant, items=list(range(len(contents)))
    )
    services.document_upload(
        application=application,
        user=applicant,
        kind=DocumentKind.PLAN_STATEMENT
        if application.plan_kind == "control_plan_statement"
        else DocumentKind.PLAN,
        name="plan.pdf",
        content=plan_pdf(address),
        claimed_type="application/pdf",
    )
    if state == "draft":
        return application
    services.application_submit(application=application, user=applicant, at=filed)
    if state == "under_review":
        return application
    if staff is None:
        raise ValueError("staff: a decision needs the village's staff")
    step = filed + datetime.timedelta(days=2)
    if state == "information_requested":
        services.application_information_request(
            application=application,
            staff=staff,
            message="Show the stockpile locations.",
            at=step,
        )
    elif state == "approved":
        services.application_approve(application=application, staff=staff, at=step)
    elif state == "awaiting_surety":
        services.application_approve(
            application=application, staff=staff, at=step, surety=Decimal("5000")
        )
    elif state == "disapproved":
        services.application_disapprove(
            application=application,
            staff=staff,
            reasons="No inlet protection for the street inlets.",
            at=step,
        )
    application.refresh_from_db()
    return application


def plan_document(application: Application) -> Document:
    return application.documents.get(kind__in=[DocumentKind.PLAN, DocumentKind.PLAN_STATEMENT])


def request_amendment(permit: Permit, user: Any) -> PlanAmendment:
    return services.plan_amendment_request(
        permit=permit,
        user=user,
        trigger=AMENDMENT_TRIGGER[permit.village_id],
        description="Move the stockpile to the west side.",
        on=timezone.localdate(),
    )


@dataclass
class Spencer:
    """Applicant A's objects in Spencer, made on first use (one per state)."""

    people: People
    _made: dict[str, Any] = field(default_factory=dict)

    def application(self, state: str) -> Application:
        if state not in self._made:
            self._made[state] = make_application(
                applicant=self.people.applicant_a,
                village=SPENCER,
                state=state,
                staff=self.people.staff[SPENCER],
                address=f"{100 + len(self._made)} N Park St, Spencer",
            )
        return self._made[state]

    @property
    def permit(self) -> Permit:
        return Permit.objects.get(application=self.application("approved"))

    @property
    def amendment(self) -> PlanAmendment:
        if "amendment" not in self._made:
            self._made["amendment"] = request_amendment(self.permit, self.people.applicant_a)
        return self._made["amendment"]

    @property
    def surety(self) -> Surety:
        if "surety" not in self._made:
            self._made["surety"] = services.surety_record(
                permit=self.permit,
                staff=self.people.staff[SPENCER],
                kind="letter_of_credit",
                amount=Decimal("5000"),
                issuer="Marathon County Bank",
                reference="LC-7",
                received_on=self.permit.issued_on,
            )
        return self._made["surety"]

    @property
    def document(self) -> Document:
        return plan_document(self.application("approved"))


def open_purge_window() -> None:
    """What a database administrator does to reset the audit table (audit migration 0002).

    Outside a transaction this is its own committed statement."""
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO audit_purge_window (opened_at) VALUES (CURRENT_TIMESTAMP)")


def close_purge_window() -> None:
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM audit_purge_window")
