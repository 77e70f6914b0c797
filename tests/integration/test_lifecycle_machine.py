"""The whole permit lifecycle as a Hypothesis state machine, driven through the real
services on a database that commits (pytest-django's ``transactional_db``), in both
villages.

Each example is one site. The initializer chooses the village and opens a draft
application; then any sequence of the steps people take: tick the plan checklist, upload
the plan, file, ask for and give information, approve or disapprove, extend, close,
record a violation (with a photo), post a stop-work order, record compliance, revoke,
retract, appeal, set the hearing and decide, with time passing in between. A rule runs
only when the law allows its step, by the machine's own small model of the case (its
preconditions); companion rules take the steps the law forbids (in the wrong state, too
early, by the wrong person) and check each is refused with a ``SiltfenceError`` naming
what is wrong, with nothing written: no row, no audit event, no stored file.

After every step the invariants hold: each record has exactly one status, the one the
model expects; the audit chain verifies (``verify_anchored``, as ``siltfence audit
verify``); no deadline falls before the event it runs from; every stored file matches
its row (size, sha256) and every file in MEDIA_ROOT is some row's; record counts never go
down, and each step adds exactly the rows it should.

Hypothesis leaves the time spent in rules out of its ``deadline``, so each step is also
timed here (``STEP_SECONDS``, in processor time, so a busy machine does not fail it).
"""

from __future__ import annotations

import datetime
import hashlib
import itertools
import struct
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import factories
import pytest
from board_helpers import board_decides
from django.apps import apps
from django.conf import settings as django_settings
from django.core.files.storage import default_storage
from django.db import connection
from django.db.models import FileField, Model
from django.utils import timezone
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from siltfence.apps.accounts.models import Membership, Role
from siltfence.apps.appeals import services as appeals
from siltfence.apps.appeals.models import Appeal
from siltfence.apps.audit.anchor import verify_anchored
from siltfence.apps.audit.models import AuditEvent, ChainHead
from siltfence.apps.documents.storage import staging_root
from siltfence.apps.enforcement import services as enforcement
from siltfence.apps.enforcement.models import (
    CaseEvent,
    EnforcementAction,
    EnforcementCase,
    EnforcementDocument,
    Violation,
    ViolationPhoto,
)
from siltfence.apps.enforcement.selectors import case_timeline, open_stop_work_order
from siltfence.apps.permits import services
from siltfence.apps.permits.clocks import application_timeline
from siltfence.apps.permits.models import (
    Application,
    Document,
    InformationRequest,
    Permit,
    PermitExtension,
    Site,
    TimelineEvent,
    Village,
)
from siltfence.core.errors import SiltfenceError

SPENCER, NEW_GLARUS = factories.SPENCER, factories.NEW_GLARUS
CHICAGO = ZoneInfo("America/Chicago")  # both villages keep Central time
STEP_SECONDS = 5.0

# The law as the machine knows it, from the chapters' text.
# A permit is valid 180 days from issuance (§ 413-8E(1); § 135-7G) ...
PERMIT_DAYS = 180
# ... and may be extended "for up to an additional 180 days" at a time (same sections).
EXTENSION_MAX = 180
# Final stabilization: "a density of at least 70%" of perennial cover, or equivalent
# measures (§ 135-13); Spencer's chapter sets no density (§ 413-6).
COVER_MIN = {SPENCER: 0, NEW_GLARUS: 70}
# Spencer § 413-10B: the permit may be revoked if the permittee does not comply "within
# 10 days" of the stop-work order; the power arises after those days, and their last day
# moves off a Sunday or legal holiday (§ 990.001(4)(b), Wis. Stats.), by three days at most.
SPENCER_COMPLY_DAYS = 10
LONGEST_MOVE = 3
# Who may retract a stop-work order or a revocation: Spencer's Building Inspector or the
# Zoning Board of Appeals (§ 413-10D); in New Glarus only the Board (§ 135-11D).
AUTHORITY_MAY_RETRACT = {SPENCER: True, NEW_GLARUS: False}
RETRACTION_CITATION = {SPENCER: "§ 413-10D", NEW_GLARUS: "§ 135-11D"}
# Who may appeal (§ 413-12B; § 135-12B).
STANDING = {SPENCER: "permittee", NEW_GLARUS: "aggrieved_person"}
# The grounds of a stop-work order on a permitted site (§ 413-10A(2), (3); § 135-11A(2), (3)).
GROUNDS = ("no-permit", "plan-not-followed", "conditions-not-met")
PROVISION = {SPENCER: "§ 413-7B(5)(c)", NEW_GLARUS: "§ 135-11"}

# Rows each step may add; every other model's count must stay put.
TRACKED: tuple[type[Model], ...] = (
    Site,
    Application,
    Document,
    InformationRequest,
    Permit,
    PermitExtension,
    TimelineEvent,
    EnforcementCase,
    CaseEvent,
    Violation,
    ViolationPhoto,
    EnforcementAction,
    EnforcementDocument,
    Appeal,
    AuditEvent,
)

_examples = itertools.count(1)
STARTS = ("draft", "permit", "order")


def png() -> bytes:
    """A real 1x1 PNG (a site photo, as far as the type check can tell)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\x80\x60\x40")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def local_day(at: datetime.datetime) -> datetime.date:
    return timezone.localtime(at, CHICAGO).date()


def _counts() -> dict[str, int]:
    """Rows of each tracked model, in one query."""
    tables = ", ".join(
        f"(SELECT COUNT(*) FROM {connection.ops.quote_name(m._meta.db_table)})" for m in TRACKED
    )
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {tables}")
        row = cursor.fetchone()
    return {model.__name__: count for model, count in zip(TRACKED, row, strict=True)}


def _file_fields() -> list[tuple[type[Model], str]]:
    return [
        (model, f.name)
        for model in apps.get_models()
        for f in model._meta.concrete_fields
        if isinstance(f, FileField)
    ]


def _files_in(folder: Path, *, skip: str = "") -> set[str]:
    if not folder.is_dir():
        return set()
    return {
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and p.name != skip
    }


def _staged_files() -> set[str]:
    return _files_in(staging_root(), skip=".lock")


@dataclass
class Case:
    """The site as the machine sees it: what the law lets happen next."""

    village: str
    status: str = "draft"
    checklist: bool = False
    plan: bool = False
    permit: str | None = None  # active, closed or revoked
    issued_on: datetime.date | None = None
    expires_on: datetime.date | None = None
    case_id: int | None = None
    open_order: int | None = None  # the stop-work order in force (its action's id)
    order_day: datetime.date | None = None
    orders: list[int] = field(default_factory=list)
    revocation: int | None = None  # the revocation in effect
    revocations: list[int] = field(default_factory=list)
    violation_while_in_force: bool = False
    appeals: dict[int, str] = field(default_factory=dict)  # appeal id -> status
    appealed: dict[int, int] = field(default_factory=dict)  # appeal id -> action id


@dataclass(frozen=True)
class Forbidden:
    """A step the law does not allow now, and how its refusal must read."""

    step: Callable[[], Any]
    field: str
    says: str = ""


class PermitLifecycle(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.model: Case | None = None
        self.last_counts = _counts()
        self.checked_files: set[str] = set()

    @property
    def m(self) -> Case:
        assert self.model is not None
        return self.model

    # -- the site -----------------------------------------------------------------------

    @initialize(village=st.sampled_from([SPENCER, NEW_GLARUS]), start=st.sampled_from(STARTS))
    def open_a_site(self, village: str, start: str) -> None:
        """A draft application in ``village``; for some examples taken on, by the rules
        themselves, as far as its permit, or a stop-work order on the permitted site, so
        more of the steps go to the permit's life and its enforcement."""
        number = next(_examples)
        other = NEW_GLARUS if village == SPENCER else SPENCER
        make = factories.make_user
        self.applicant = make(f"applicant-{number}")
        self.staff = make(f"staff-{number}", village=village, role=Role.STAFF)
        self.inspector = make(f"inspector-{number}", village=village, role=Role.INSPECTOR)
        # One board a village: the board of an earlier example has left it (decision 47).
        Membership.all_objects.filter(
            village_id=village, role=Role.APPEALS_BOARD, ended_at__isnull=True
        ).update(ended_at=timezone.now() - datetime.timedelta(days=400))
        self.board = make(f"board-{number}", village=village, role=Role.APPEALS_BOARD)
        self.outsider = make(f"outsider-{number}", village=other, role=Role.STAFF)
        began = timezone.localtime(timezone.now(), CHICAGO) - datetime.timedelta(days=300)
        self.now = began.replace(hour=9, minute=0, second=0, microsecond=0)
        self.application = services.application_create(
            applicant=self.applicant,
            village=Village.objects.get(pk=village),
            address=f"{number} Lifecycle Rd",
            facts=factories.FACTS[village],
            on=local_day(self.now),
            parties=[{"role": "landowner", "name": "Alex Schmid"}],
        )
        self.model = Case(village=village)
        self.last_counts = _counts()
        if start in ("permit", "order"):
            self.tick_the_checklist()
            self.upload_the_plan()
            self.file_the_application()
            self.approve()
        if start == "order":
            self.record_a_violation(photo=False)
            self.post_a_stop_work_order(GROUNDS[0])

    def at(self) -> datetime.datetime:
        """The moment of the next step: an hour after the last, never in the future."""
        self.now = min(
            self.now + datetime.timedelta(hours=1),
            timezone.localtime(timezone.now(), CHICAGO) - datetime.timedelta(minutes=10),
        )
        return self.now

    def today(self) -> datetime.date:
        return local_day(self.now)

    def permit(self) -> Permit:
        return Permit.objects.get(application=self.application)

    def case(self) -> EnforcementCase:
        return EnforcementCase.objects.get(pk=self.m.case_id)

    # -- taking steps -------------------------------------------------------------------

    def allowed(self, step: Callable[[], Any], **added: int) -> Any:
        """Take a step the law allows: it succeeds, within its time, and adds exactly
        ``added`` rows (by model name; audit events included)."""
        before = _counts()
        started = time.process_time()
        result = step()
        spent = time.process_time() - started
        assert spent < STEP_SECONDS, f"the step took {spent:.1f} s of processor time"
        after = _counts()
        grown = {name: after[name] - before[name] for name in after if after[name] != before[name]}
        expected = {name: count for name, count in added.items() if count}
        assert grown == expected, f"rows added {grown}, expected {expected}"
        return result

    def refused(self, forbidden: Forbidden) -> None:
        """Take a step the law forbids: refused, naming the field, and nothing written."""
        before = self.fingerprint()
        with pytest.raises(SiltfenceError) as refusal:
            forbidden.step()
        assert refusal.value.field == forbidden.field, str(refusal.value)
        assert forbidden.says in str(refusal.value), str(refusal.value)
        assert self.fingerprint() == before, f"a refused step wrote: {refusal.value}"

    def either(self, step: Callable[[], Any], *, field_is: str, says: str, **added: int) -> Any:
        """A step the machine does not judge: taken (adding ``added``), or refused with
        nothing written. Returns what the step returned, or None when it was refused."""
        before = self.fingerprint()
        try:
            return self.allowed(step, **added)
        except SiltfenceError as refusal:
            assert refusal.field == field_is and says in str(refusal), str(refusal)
            assert self.fingerprint() == before, f"a refused step wrote: {refusal}"
            return None

    def fingerprint(self) -> dict[str, Any]:
        application = Application.objects.get(pk=self.application.pk)
        permit = Permit.objects.filter(application=application).first()
        return {
            "counts": _counts(),
            "head": ChainHead.objects.filter(id=1).values_list("seq", "hash").first(),
            "application": (application.status, application.checklist, application.decided_at),
            "permit": permit and (permit.status, permit.expires_on, permit.closed_on),
            "appeals": sorted(
                Appeal.objects.filter(pk__in=self.m.appeals).values_list("pk", "status")
            ),
            "media": _files_in(Path(django_settings.MEDIA_ROOT)),
            "staged": _staged_files(),
        }

    # -- time ---------------------------------------------------------------------------

    @rule(days=st.integers(1, 30))
    def time_passes(self, days: int) -> None:
        self.now = min(
            self.now + datetime.timedelta(days=days),
            timezone.localtime(timezone.now(), CHICAGO) - datetime.timedelta(hours=1),
        )

    # -- the application ----------------------------------------------------------------

    @precondition(lambda self: self.m.status in ("draft", "information_requested"))
    @rule()
    def tick_the_checklist(self) -> None:
        contents = (self.application.determination.get("plan") or {}).get("contents", [])
        self.allowed(
            lambda: services.application_checklist_set(
                application=self.application,
                user=self.applicant,
                items=list(range(len(contents))),
            ),
            AuditEvent=1,
        )
        self.m.checklist = True

    @precondition(lambda self: self.m.status in ("draft", "information_requested"))
    @rule()
    def upload_the_plan(self) -> None:
        self.allowed(
            lambda: services.document_upload(
                application=self.application,
                user=self.applicant,
                kind="plan",
                name="plan.pdf",
                content=factories.plan_pdf(self.application.site.address),
                claimed_type="application/pdf",
            ),
            Document=1,
            AuditEvent=1,
        )
        self.m.plan = True

    @precondition(lambda self: self.m.status == "draft" and self.m.checklist and self.m.plan)
    @rule()
    def file_the_application(self) -> None:
        self.allowed(
            lambda: services.application_submit(
                application=self.application, user=self.applicant, at=self.at()
            ),
            TimelineEvent=1,  # application_received: the review clock starts
            AuditEvent=1,
        )
        self.m.status = "under_review"

    @precondition(lambda self: self.m.status == "under_review")
    @rule()
    def ask_for_information(self) -> None:
        self.allowed(
            lambda: services.application_information_request(
                application=self.application,
                staff=self.staff,
                message="Show the stockpile locations.",
                at=self.at(),
            ),
            InformationRequest=1,
            TimelineEvent=1,
            AuditEvent=1,
        )
        self.m.status = "information_requested"

    @precondition(lambda self: self.m.status == "information_requested")
    @rule()
    def give_the_information(self) -> None:
        self.allowed(
            lambda: services.application_information_provide(
                application=self.application,
                user=self.applicant,
                response="Stockpiles on the west side.",
                at=self.at(),
            ),
            TimelineEvent=1,
            AuditEvent=1,
        )
        self.m.status = "under_review"

    @precondition(lambda self: self.m.status == "under_review")
    @rule()
    def approve(self) -> None:
        at = self.at()
        self.allowed(
            lambda: services.application_approve(
                application=self.application, staff=self.staff, at=at
            ),
            Permit=1,
            Document=1,  # the permit
            TimelineEvent=2,  # application_approved, permit_issued
            AuditEvent=2,
        )
        permit = self.permit()
        self.m.status = "approved"
        self.m.permit = "active"
        self.m.issued_on = local_day(at)
        self.m.expires_on = self.m.issued_on + datetime.timedelta(days=PERMIT_DAYS)
        assert (permit.issued_on, permit.expires_on) == (self.m.issued_on, self.m.expires_on)

    @precondition(lambda self: self.m.status == "under_review")
    @rule()
    def disapprove(self) -> None:
        self.allowed(
            lambda: services.application_disapprove(
                application=self.application,
                staff=self.staff,
                reasons="No inlet protection on the frontage.",
                at=self.at(),
            ),
            Document=1,  # the letter
            TimelineEvent=1,
            AuditEvent=2,
        )
        self.m.status = "disapproved"

    # -- the permit ---------------------------------------------------------------------

    def in_force(self) -> bool:
        m = self.m
        return m.permit == "active" and m.expires_on is not None and self.today() <= m.expires_on

    @precondition(lambda self: self.in_force())
    @rule(days=st.integers(1, EXTENSION_MAX))
    def extend(self, days: int) -> None:
        self.allowed(
            lambda: services.permit_extend(
                permit=self.permit(), staff=self.staff, days=days, on=self.today()
            ),
            PermitExtension=1,
            Document=2,  # the extension letter, and the permit with its new last day
            TimelineEvent=1,
            AuditEvent=3,
        )
        assert self.m.expires_on is not None
        self.m.expires_on += datetime.timedelta(days=days)

    @precondition(lambda self: self.m.permit == "active")
    @rule(data=st.data())
    def close_at_final_stabilization(self, data: st.DataObject) -> None:
        cover = data.draw(st.integers(COVER_MIN[self.m.village], 100), label="cover")
        self.allowed(
            lambda: services.permit_close(
                permit=self.permit(),
                staff=self.staff,
                on=self.today(),
                cover_percent=cover,
                activities_completed=True,
            ),
            Document=1,  # the closeout letter
            TimelineEvent=1,
            AuditEvent=2,
        )
        self.m.permit = "closed"

    # -- enforcement --------------------------------------------------------------------

    @precondition(lambda self: self.m.permit is not None)
    @rule(photo=st.booleans())
    def record_a_violation(self, photo: bool) -> None:
        at = self.at()
        photos = [enforcement.Photo("fence.png", png(), "image/png")] if photo else []
        violation = self.allowed(
            lambda: enforcement.violation_record(
                village=Village.objects.get(pk=self.m.village),
                recorded_by=self.inspector,
                source="inspection",
                description="Silt fence down along the east lot line.",
                provision=PROVISION[self.m.village],
                days_from=local_day(at),
                at=at,
                permit=self.permit(),
                photos=photos,
            ),
            EnforcementCase=int(self.m.case_id is None),  # the site's case, opened once
            Violation=1,
            ViolationPhoto=len(photos),
            TimelineEvent=1,
            AuditEvent=1,
        )
        if self.m.case_id is not None:
            assert violation.case_id == self.m.case_id
        self.m.case_id = violation.case_id
        if self.in_force():
            self.m.violation_while_in_force = True

    @precondition(lambda self: self.m.case_id is not None and self.m.open_order is None)
    @rule(ground=st.sampled_from(GROUNDS))
    def post_a_stop_work_order(self, ground: str) -> None:
        at = self.at()

        def post() -> Any:
            return enforcement.stop_work_order_post(
                case=self.case(), staff=self.staff, at=at, grounds=[ground]
            )

        # § 413-10A, § 135-11A: "(1) ... being undertaken without a permit" holds where no
        # permit is in force (none, expired, revoked or closed); the other grounds are
        # about a permit's plan and conditions, and need one in force.
        if (ground == "no-permit") == self.in_force():
            says = "is work without a permit in force" if self.in_force() else "needs a permit"
            self.refused(Forbidden(post, "grounds", says))
            return
        order = self.allowed(
            post,
            EnforcementAction=1,
            EnforcementDocument=1,  # the placard
            # The order posted, and its posting as its service (decision 46).
            TimelineEvent=2,
            AuditEvent=2,
        )
        self.m.open_order = order.pk
        self.m.order_day = local_day(at)
        self.m.orders.append(order.pk)

    @precondition(lambda self: self.m.open_order is not None)
    @rule()
    def record_compliance(self) -> None:
        self.allowed(
            lambda: enforcement.compliance_record(case=self.case(), staff=self.staff, at=self.at()),
            EnforcementAction=1,
            TimelineEvent=1,
            AuditEvent=1,
        )
        self.m.open_order = None

    def revocation_lawful(self) -> bool | None:
        """Whether the chapter lets the permit be revoked today: True, False, or None on
        the days a Spencer deadline may move by, where the machine does not judge."""
        m = self.m
        if m.permit != "active" or m.case_id is None:
            return False
        if m.village == SPENCER:
            if m.open_order is None or m.order_day is None:
                return False
            waited = (self.today() - m.order_day).days
            if waited <= SPENCER_COMPLY_DAYS:
                return False
            return True if waited > SPENCER_COMPLY_DAYS + LONGEST_MOVE else None
        # New Glarus § 135-11B: a stop-work order not obeyed, or a violation of the plan or
        # the permit's conditions; no wait.
        return m.open_order is not None or m.violation_while_in_force

    def revoke_step(self) -> Callable[[], Any]:
        return lambda: enforcement.permit_revoke(
            case=self.case(), staff=self.staff, at=self.at(), reasons="The order was not obeyed."
        )

    @precondition(lambda self: self.revocation_lawful() is not False)
    @rule()
    def revoke(self) -> None:
        added = {"EnforcementAction": 1, "EnforcementDocument": 1, "TimelineEvent": 1}
        if self.revocation_lawful():
            action = self.allowed(self.revoke_step(), AuditEvent=2, **added)
        else:
            action = self.either(
                self.revoke_step(), field_is="revocation", says="§ 413-10B", AuditEvent=2, **added
            )
            if action is None:
                return
        self.m.permit = "revoked"
        self.m.revocation = action.pk
        self.m.revocations.append(action.pk)

    def in_effect(self, order: str) -> int | None:
        return self.m.open_order if order == "stop_work_order" else self.m.revocation

    @precondition(
        lambda self: (
            AUTHORITY_MAY_RETRACT[self.m.village]
            and (self.m.open_order is not None or self.m.revocation is not None)
        )
    )
    @rule(data=st.data())
    def the_authority_retracts(self, data: st.DataObject) -> None:
        choices = [o for o in ("stop_work_order", "revocation") if self.in_effect(o) is not None]
        order = data.draw(st.sampled_from(choices), label="order")
        self.allowed(
            lambda: enforcement.order_retract(
                case=self.case(), staff=self.staff, at=self.at(), order=order, reason="Resolved."
            ),
            EnforcementAction=1,
            EnforcementDocument=1,  # the retraction letter
            TimelineEvent=1,
            AuditEvent=2,
        )
        self.retracted(order)

    def retracted(self, order: str) -> None:
        if order == "stop_work_order":
            self.m.open_order = None
        else:
            self.m.revocation = None
            self.m.permit = "active"

    # -- appeals ------------------------------------------------------------------------

    def not_appealed(self) -> list[int]:
        appealed = set(self.m.appealed.values())
        return [pk for pk in self.m.orders + self.m.revocations if pk not in appealed]

    @precondition(lambda self: bool(self.not_appealed()))
    @rule(data=st.data())
    def appeal(self, data: st.DataObject) -> None:
        target = data.draw(st.sampled_from(self.not_appealed()), label="action")
        appeal = self.allowed(
            lambda: appeals.appeal_file(
                village=Village.objects.get(pk=self.m.village),
                filed_by=self.applicant,
                on=self.today(),
                appellant_name="Alex Schmid",
                standing=STANDING[self.m.village],
                grounds="The fence was up; the inspector came after the storm.",
                action=EnforcementAction.objects.get(pk=target),
            ),
            Appeal=1,
            AuditEvent=1,
        )
        self.m.appeals[appeal.pk] = "filed"
        self.m.appealed[appeal.pk] = target

    @precondition(lambda self: "filed" in self.m.appeals.values())
    @rule(data=st.data())
    def set_the_hearing(self, data: st.DataObject) -> None:
        waiting = [pk for pk, status in self.m.appeals.items() if status == "filed"]
        pk = data.draw(st.sampled_from(waiting), label="appeal")
        at = self.at()
        self.allowed(
            lambda: appeals.appeal_hearing_schedule(
                appeal=Appeal.objects.get(pk=pk),
                user=self.board,
                hearing_at=at,
                notice_given_on=local_day(at),
                notice_to="the permittee",
            ),
            AuditEvent=1,
        )
        self.m.appeals[pk] = "scheduled"

    @precondition(lambda self: "scheduled" in self.m.appeals.values())
    @rule(data=st.data(), decision=st.sampled_from(["affirm", "reverse", "modify"]))
    def decide_the_appeal(self, data: st.DataObject, decision: str) -> None:
        heard = [pk for pk, status in self.m.appeals.items() if status == "scheduled"]
        pk = data.draw(st.sampled_from(heard), label="appeal")
        target = self.m.appealed[pk]
        order = "stop_work_order" if target in self.m.orders else "revocation"
        # A reversed order is retracted, and a reversed revocation gives the permit back,
        # when that very order or revocation is still in effect (§ 413-10D; § 135-11D).
        undo = decision == "reverse" and self.in_effect(order) == target
        added = (
            {"EnforcementAction": 1, "EnforcementDocument": 1, "TimelineEvent": 1} if undo else {}
        )
        self.allowed(
            lambda: board_decides(
                Appeal.objects.get(pk=pk),
                at=self.at(),
                decision=decision,
                reasons="Heard the permittee and the inspector.",
                modification="Ten more days to comply." if decision == "modify" else "",
            ),
            # the board's roll and vote, the decision, its document, and any retraction with
            # its letter
            AuditEvent=4 + 2 * int(undo),
            **added,
        )
        self.m.appeals[pk] = "decided"
        if undo:
            self.retracted(order)

    # -- what the law forbids -----------------------------------------------------------

    def forbidden(self) -> dict[str, Forbidden]:
        """The steps the law does not allow now, each with how its refusal must read."""
        m, app, staff = self.m, self.application, self.staff
        steps: dict[str, Forbidden] = {}

        def approve_by(user: Any) -> Callable[[], Any]:
            return lambda: services.application_approve(application=app, staff=user, at=self.at())

        # Only the village's own administering authority decides (§ 413-8D; § 135-7C).
        for who in ("applicant", "inspector", "board", "outsider"):
            steps[f"approve as the {who}"] = Forbidden(approve_by(getattr(self, who)), "village")
        if m.status == "draft" and not (m.checklist and m.plan):
            # The review clock starts with a complete application (§ 413-8D; § 135-7C(1)).
            steps["file it incomplete"] = Forbidden(
                lambda: services.application_submit(
                    application=app, user=self.applicant, at=self.at()
                ),
                "application",
                says="still missing",
            )
        if m.status != "draft":
            steps["file it again"] = Forbidden(
                lambda: services.application_submit(
                    application=app, user=self.applicant, at=self.at()
                ),
                "status",
            )
        if m.status not in ("draft", "information_requested"):
            steps["change the filed checklist"] = Forbidden(
                lambda: services.application_checklist_set(
                    application=app, user=self.applicant, items=[0]
                ),
                "status",
            )
        if m.status != "information_requested":
            steps["answer a request never made"] = Forbidden(
                lambda: services.application_information_provide(
                    application=app, user=self.applicant, response="Here.", at=self.at()
                ),
                "status",
            )
        if m.status != "under_review":
            steps["approve when not under review"] = Forbidden(approve_by(staff), "status")
            steps["ask for information when not under review"] = Forbidden(
                lambda: services.application_information_request(
                    application=app, staff=staff, message="More.", at=self.at()
                ),
                "status",
            )
        else:
            # Reasons are given in writing (§ 413-8D; § 135-7C(3)).
            steps["disapprove without reasons"] = Forbidden(
                lambda: services.application_disapprove(
                    application=app, staff=staff, reasons="  ", at=self.at()
                ),
                "reasons",
            )
        if m.permit is not None:

            def extend(days: int) -> Callable[[], Any]:
                return lambda: services.permit_extend(
                    permit=self.permit(), staff=staff, days=days, on=self.today()
                )

            # "for up to an additional 180 days" (§ 413-8E(1); § 135-7G)
            steps["extend by 181 days"] = Forbidden(
                extend(EXTENSION_MAX + 1), "days", says=f"1 to {EXTENSION_MAX} days"
            )
            steps["extend by 0 days"] = Forbidden(extend(0), "days")
            assert m.issued_on is not None
            before_issue = m.issued_on - datetime.timedelta(days=1)
            if m.permit == "active" and self.in_force():
                steps["extend, dated before the issue"] = Forbidden(
                    lambda: services.permit_extend(
                        permit=self.permit(), staff=staff, days=30, on=before_issue
                    ),
                    "on",
                )
            if m.permit == "active":
                steps["close, dated before the issue"] = Forbidden(
                    lambda: services.permit_close(
                        permit=self.permit(),
                        staff=staff,
                        on=before_issue,
                        cover_percent=90,
                        activities_completed=True,
                    ),
                    "on",
                )
            if not self.in_force():
                steps["extend a permit not in force"] = Forbidden(extend(30), "permit")
            if m.permit == "active" and COVER_MIN[m.village]:
                # "at least 70%" perennial cover, or equivalent measures (§ 135-13)
                steps["close with too little cover"] = Forbidden(
                    lambda: services.permit_close(
                        permit=self.permit(),
                        staff=staff,
                        on=self.today(),
                        cover_percent=COVER_MIN[m.village] - 1,
                        activities_completed=True,
                    ),
                    "cover",
                    says="§ 135-13",
                )
            if m.permit != "active":
                steps["close a permit not active"] = Forbidden(
                    lambda: services.permit_close(
                        permit=self.permit(),
                        staff=staff,
                        on=self.today(),
                        cover_percent=90,
                        activities_completed=True,
                    ),
                    "permit",
                )
        if m.case_id is not None:

            def post(grounds: list[str], user: Any = staff) -> Callable[[], Any]:
                return lambda: enforcement.stop_work_order_post(
                    case=self.case(), staff=user, at=self.at(), grounds=grounds
                )

            # Orders and revocations are the administering authority's (§ 413-10; § 135-11).
            steps["post an order as the inspector"] = Forbidden(
                post([GROUNDS[0]], self.inspector), "village"
            )
            if m.open_order is not None:
                steps["post a second order"] = Forbidden(post([GROUNDS[0]]), "order")
            else:
                steps["record compliance with no order"] = Forbidden(
                    lambda: enforcement.compliance_record(
                        case=self.case(), staff=staff, at=self.at()
                    ),
                    "order",
                )
            if m.permit == "active" and m.open_order is None:
                # The site has a permit: "without a permit" does not fit (§ 413-10A(1);
                # § 135-11A(1)). With an order in force, that refusal comes first.
                steps["post an order for working without a permit"] = Forbidden(
                    post(["no-permit"]), "grounds"
                )
            if self.revocation_lawful() is False:
                steps["revoke"] = Forbidden(
                    self.revoke_step(), "permit" if m.permit != "active" else "revocation"
                )
            for order in ("stop_work_order", "revocation"):
                retract = lambda order=order: enforcement.order_retract(  # noqa: E731
                    case=self.case(), staff=staff, at=self.at(), order=order, reason="Resolved."
                )
                if not AUTHORITY_MAY_RETRACT[m.village]:
                    steps[f"retract the {order} as the authority"] = Forbidden(
                        retract, "by", says=RETRACTION_CITATION[m.village]
                    )
                elif self.in_effect(order) is None:
                    steps[f"retract a {order} not in effect"] = Forbidden(retract, "order")
        for pk, status in m.appeals.items():
            decide = lambda pk=pk: board_decides(  # noqa: E731
                Appeal.objects.get(pk=pk), at=self.at(), decision="affirm", reasons="Heard."
            )
            # The board decides once, after a hearing (§ 413-12; § 135-12).
            if status == "filed":
                steps[f"decide appeal {pk} before its hearing"] = Forbidden(decide, "hearing")
            elif status == "decided":
                steps[f"decide appeal {pk} again"] = Forbidden(decide, "appeal")
        return steps

    @rule(data=st.data())
    def try_a_step_the_law_forbids(self, data: st.DataObject) -> None:
        steps = self.forbidden()
        name = data.draw(st.sampled_from(sorted(steps)), label="forbidden step")
        self.refused(steps[name])

    # -- invariants ---------------------------------------------------------------------

    @invariant()
    def one_status_each_the_one_expected(self) -> None:
        if self.model is None:
            return
        m = self.m
        application = Application.objects.get(pk=self.application.pk)
        assert application.status == m.status
        permits = list(Permit.objects.filter(application=application))
        assert len(permits) == (1 if m.status == "approved" else 0)
        if permits:
            assert (permits[0].status, permits[0].expires_on) == (m.permit, m.expires_on)
        if m.case_id is not None:
            order = open_stop_work_order(self.case())
            assert (order.pk if order else None) == m.open_order
        for pk, status in m.appeals.items():
            assert Appeal.objects.get(pk=pk).status == status
        kinds = list(
            application.documents.filter(superseded_by=None).values_list("kind", flat=True)
        )
        # One permit document in force: an extension's replaces the earlier one, kept.
        assert kinds.count("permit") == (1 if m.status == "approved" else 0)
        assert kinds.count("disapproval_letter") == (1 if m.status == "disapproved" else 0)

    @invariant()
    def the_audit_chain_verifies(self) -> None:
        result, _ = verify_anchored(Path(django_settings.MEDIA_ROOT).parent / "no-checkpoints")
        assert result.ok, result.reason

    @invariant()
    def no_deadline_before_its_event(self) -> None:
        if self.model is None:
            return
        application = Application.objects.get(pk=self.application.pk)
        if application.received_at is None:
            return
        received = local_day(application.received_at)
        for duty in application_timeline(application, self.now).to_json()["duties"]:
            if duty.get("due"):
                assert datetime.date.fromisoformat(duty["due"]) >= received, duty
            if duty["kind"] == "review_decision":
                assert datetime.date.fromisoformat(duty["due"]) > received, duty
        permit = Permit.objects.filter(application=application).first()
        if permit is not None:
            assert permit.expires_on > permit.issued_on >= received
            for extension in permit.extensions.all():
                assert extension.expires_after > extension.expires_before > permit.issued_on
        if self.m.case_id is not None:
            # Every step of the case runs from a violation or an order, none before the first.
            first = min(self.case().violations.values_list("days_from", flat=True))
            allowed = case_timeline(self.case(), self.now).to_json().get("allowed_actions", [])
            for action in allowed:
                assert datetime.date.fromisoformat(action["from"]) >= first, action

    @invariant()
    def every_stored_file_matches_its_row(self) -> None:
        media = Path(django_settings.MEDIA_ROOT)
        named: set[str] = set()
        for model, name in _file_fields():
            for row in model.objects.exclude(**{name: ""}):
                stored = getattr(row, name)
                named.add(stored.name)
                # Committed, so moved into MEDIA_ROOT, not left in staging.
                path = media / stored.name
                assert path.is_file(), f"{model.__name__} {row.pk}: {stored.name} is not stored"
                if stored.name in self.checked_files:
                    continue
                content = path.read_bytes()
                digest = getattr(row, "sha256", None) or getattr(row, "decision_sha256", None)
                assert digest == hashlib.sha256(content).hexdigest(), stored.name
                if hasattr(row, "size"):
                    assert row.size == len(content), stored.name
                assert default_storage.exists(stored.name)
                self.checked_files.add(stored.name)
        assert _files_in(media) == named, "a file in MEDIA_ROOT that no row names"
        assert _staged_files() == set(), "a file left in staging"

    @invariant()
    def counts_only_go_up(self) -> None:
        counts = _counts()
        fallen = {k: (self.last_counts[k], v) for k, v in counts.items() if v < self.last_counts[k]}
        assert not fallen, fallen
        self.last_counts = counts


@pytest.fixture
def both_villages(transactional_db: None) -> None:
    factories.villages()


def test_the_permit_lifecycle_keeps_its_invariants_in_both_villages(both_villages: None) -> None:
    run_state_machine_as_test(
        PermitLifecycle,
        settings=settings(
            max_examples=8,
            stateful_step_count=30,
            deadline=datetime.timedelta(seconds=STEP_SECONDS),
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
