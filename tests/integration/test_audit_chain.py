"""The audit record (DESIGN.md capability 12): every state change is one append-only,
hash-chained event with actor, time, reason and citation; the database refuses UPDATE and
DELETE; ``chain_verify`` finds an edited or a deleted row."""

from __future__ import annotations

import datetime
import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import factories
import pytest
from django.db import DatabaseError, connection, transaction
from django.utils import timezone
from factories import close_purge_window, open_purge_window

from siltfence.apps.audit.chain import (
    AuditEntry,
    Head,
    Verification,
    append_many,
    chain_head,
    chain_verify,
    event_record,
)
from siltfence.apps.audit.models import AuditAction, AuditEvent, ChainHead
from siltfence.apps.payments import services as payments
from siltfence.apps.permits import services
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import Village

pytestmark = pytest.mark.django_db

append_only = importlib.import_module("siltfence.apps.audit.migrations.0002_append_only")

SPENCER, NEW_GLARUS = factories.SPENCER, factories.NEW_GLARUS
CHAPTER = {SPENCER: "§ 413-", NEW_GLARUS: "§ 135-"}
# A village's own office calendar rests on the rule it counts time by: New Glarus's
# "business day" (§ 135-13); for Spencer, the state rule standing in for its Ch. 1.
CALENDAR = {SPENCER: "§ 990.001(4) Wis. Stats.", NEW_GLARUS: "§ 135-13"}


# --- every service call: one event -------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """A service call, who makes it, and the event it must append."""

    action: str
    actor: str  # "applicant_a" or "staff"
    call: Callable[[Any], Any]
    status: tuple[str, str] | None = None  # (before, after) for a status transition
    also: tuple[str, ...] = ()  # events of generated documents the call also appends


def _now() -> datetime.datetime:
    return timezone.now()


def _today() -> datetime.date:
    return timezone.localdate()


SERVICE_CALLS: dict[str, Call] = {
    "application_create": Call(
        "application_create",
        "applicant_a",
        lambda w: services.application_create(
            applicant=w.people.applicant_a,
            village=Village.objects.get(pk=SPENCER),
            address="9 Test St, Spencer",
            facts=factories.FACTS[SPENCER],
            on=_today(),
        ),
    ),
    "application_facts_update": Call(
        "application_facts_update",
        "applicant_a",
        lambda w: services.application_facts_update(
            application=w.app("draft"),
            user=w.people.applicant_a,
            # 50,000 sq ft measured on the plan: more than one acre, so § 413-8B applies.
            facts={**w.app("draft").facts, "disturbed_area": 50_000},
            on=_today(),
            reason="areas measured on control plan revision 1",
        ),
    ),
    "document_upload": Call(
        "document_upload",
        "applicant_a",
        lambda w: services.document_upload(
            application=w.app("draft"),
            user=w.people.applicant_a,
            kind="site_map",
            name="map.pdf",
            content=factories.plan_pdf("site map"),
            claimed_type="application/pdf",
        ),
    ),
    "application_checklist_set": Call(
        "application_checklist_set",
        "applicant_a",
        lambda w: services.application_checklist_set(
            application=w.app("draft"), user=w.people.applicant_a, items=[0]
        ),
    ),
    "application_submit": Call(
        "application_submit",
        "applicant_a",
        lambda w: services.application_submit(
            application=w.app("draft"), user=w.people.applicant_a, at=_now()
        ),
        status=("draft", "under_review"),
    ),
    "fee_payment_record": Call(
        "fee_payment_record",
        "staff",
        lambda w: payments.payment_receive(
            application=w.app("draft"),
            staff=w.staff,
            received_on=_today(),
            amount=Decimal("75.00"),
            method="cash",
        ),
    ),
    "application_information_request": Call(
        "application_information_request",
        "staff",
        lambda w: services.application_information_request(
            application=w.app("under_review"), staff=w.staff, message="Show the basin.", at=_now()
        ),
        status=("under_review", "information_requested"),
    ),
    "application_information_provide": Call(
        "application_information_provide",
        "applicant_a",
        lambda w: services.application_information_provide(
            application=w.app("information_requested"),
            user=w.people.applicant_a,
            response="Basin shown on sheet 2.",
            at=_now(),
        ),
        status=("information_requested", "under_review"),
    ),
    "application_approve": Call(
        "application_approve",
        "staff",
        lambda w: services.application_approve(
            application=w.app("under_review"), staff=w.staff, at=_now()
        ),
        status=("under_review", "approved"),
        also=("permit_generate",),
    ),
    "application_disapprove": Call(
        "application_disapprove",
        "staff",
        lambda w: services.application_disapprove(
            application=w.app("under_review"), staff=w.staff, reasons="No basin.", at=_now()
        ),
        status=("under_review", "disapproved"),
        also=("disapproval_letter_generate",),
    ),
    "permit_extend": Call(
        "permit_extend",
        "staff",
        lambda w: services.permit_extend(permit=w.permit, staff=w.staff, days=30, on=_today()),
        also=("extension_letter_generate", "permit_generate"),
    ),
    "permit_close": Call(
        "permit_close",
        "staff",
        lambda w: services.permit_close(
            permit=w.permit, staff=w.staff, on=_today(), cover_percent=85, activities_completed=True
        ),
        status=("active", "closed"),
        also=("closeout_letter_generate",),
    ),
    "surety_record": Call(
        "surety_record",
        "staff",
        lambda w: services.surety_record(
            permit=w.permit,
            staff=w.staff,
            kind="surety_bond",
            amount=Decimal("5000"),
            issuer="Marathon County Bank",
            reference="SB-1",
            received_on=_today(),
        ),
    ),
    "surety_receive": Call(
        "surety_receive",
        "staff",
        lambda w: services.surety_receive(
            application=w.app("awaiting_surety"),
            staff=w.staff,
            kind="letter_of_credit",
            amount=Decimal("5000"),
            issuer="Marathon County Bank",
            reference="LC-2",
            at=_now(),
        ),
        status=("awaiting_surety", "approved"),
        also=("permit_generate",),
    ),
    "surety_draw": Call(
        "surety_draw",
        "staff",
        lambda w: services.surety_draw(
            surety=w.spencer.surety,
            staff=w.staff,
            amount=Decimal("400"),
            on=_today(),
            reason="Village replaced the silt fence",
        ),
    ),
    "surety_release": Call(
        "surety_release",
        "staff",
        lambda w: services.surety_release(surety=w.spencer.surety, staff=w.staff, on=_today()),
        also=("surety_release_letter_generate",),
    ),
    "plan_amendment_request": Call(
        "plan_amendment_request",
        "applicant_a",
        lambda w: factories.request_amendment(w.permit, w.people.applicant_a),
    ),
    "plan_amendment_decide": Call(
        "plan_amendment_decide",
        "staff",
        lambda w: services.plan_amendment_decide(
            amendment=w.amendment, staff=w.staff, approve=True, reasons="", on=_today()
        ),
    ),
    "village_office_set": Call(
        "village_office_set",
        "staff",
        lambda w: services.village_office_set(
            village=Village.objects.get(pk=SPENCER), staff=w.staff, phone="715-555-0199"
        ),
    ),
    "office_closure_add": Call(
        "office_closure_add",
        "staff",
        lambda w: services.office_closure_add(
            village=Village.objects.get(pk=SPENCER),
            staff=w.staff,
            day=datetime.date(2030, 7, 5),
            reason="office move",
        ),
    ),
    "office_closure_remove": Call(
        "office_closure_remove",
        "staff",
        lambda w: services.office_closure_remove(
            village=Village.objects.get(pk=SPENCER), staff=w.staff, day=w.closure_day
        ),
    ),
    "fee_schedule_set": Call(
        "fee_schedule_set",
        "staff",
        lambda w: services.fee_schedule_set(
            village=Village.objects.get(pk=SPENCER),
            staff=w.staff,
            effective_from=datetime.date(2030, 1, 1),
            amount=Decimal("100.00"),
            authority="Village Board resolution 2030-01",
        ),
    ),
    "party_address_set": Call(
        "party_address_set",
        "staff",
        lambda w: services.party_address_set(
            party=w.permit.application.parties.first(),
            user=w.staff,
            address={"street": "PO Box 12", "city": "Wausau", "state": "WI", "zip_code": "54401"},
        ),
    ),
}

# Services that read, and village_sync (tested on its own below).
NOT_WRITERS = {
    "mailing_address_read",
    "parties_read",
    "party_read",
    "fee_in_force",
    "application_fee_due",
    "application_missing",
    "village_sync",
    "amendment_triggers",
}


class World:
    """Applicant A's Spencer objects, made before the counted call."""

    def __init__(self, people: factories.People, spencer: factories.Spencer) -> None:
        self.people = people
        self.spencer = spencer
        self.staff = people.staff[SPENCER]
        self.closure_day = datetime.date(2030, 7, 6)

    def app(self, state: str) -> Any:
        return self.spencer.application(state)

    @property
    def permit(self) -> Any:
        return self.spencer.permit

    @property
    def amendment(self) -> Any:
        return self.spencer.amendment

    def fee_set(self) -> None:
        services.fee_schedule_set(
            village=Village.objects.get(pk=SPENCER),
            staff=self.staff,
            effective_from=datetime.date(2026, 1, 1),
            amount=Decimal("75.00"),
            authority="Village Board resolution 2026-4",
        )

    def prepare(self, name: str) -> None:
        """Make what the call needs, so that only the call itself is counted."""
        needs = {
            "document_upload": lambda: self.app("draft"),
            "application_facts_update": lambda: self.app("draft"),
            "application_checklist_set": lambda: self.app("draft"),
            "application_submit": lambda: self.app("draft"),
            "fee_payment_record": lambda: (self.fee_set(), self.app("draft")),
            "application_information_request": lambda: self.app("under_review"),
            "application_information_provide": lambda: self.app("information_requested"),
            "application_approve": lambda: self.app("under_review"),
            "application_disapprove": lambda: self.app("under_review"),
            "permit_extend": lambda: self.permit,
            "permit_close": lambda: self.permit,
            "party_address_set": lambda: self.permit,
            "surety_record": lambda: self.permit,
            "surety_receive": lambda: self.app("awaiting_surety"),
            "surety_draw": lambda: self.spencer.surety,
            "surety_release": lambda: self.spencer.surety,
            "plan_amendment_request": lambda: self.permit,
            "plan_amendment_decide": lambda: self.amendment,
            "office_closure_remove": lambda: services.office_closure_add(
                village=Village.objects.get(pk=SPENCER),
                staff=self.staff,
                day=self.closure_day,
                reason="to be removed",
            ),
        }
        needs.get(name, lambda: None)()


def test_every_writing_service_has_an_expectation_here():
    # The services are a package, one module by subject; the package names every service.
    public = {
        name
        for name, function in inspect.getmembers(services, inspect.isfunction)
        if (function.__module__ + ".").startswith(services.__name__ + ".")
        and not name.startswith("_")
    }
    missing = public - NOT_WRITERS - set(SERVICE_CALLS)
    assert not missing, f"add these services to SERVICE_CALLS: {sorted(missing)}"


@pytest.mark.parametrize("name", list(SERVICE_CALLS))
def test_a_service_call_appends_exactly_one_event_with_actor_time_action_and_citation(
    name, people, spencer
):
    spec = SERVICE_CALLS[name]
    world = World(people, spencer)
    world.prepare(name)
    last = AuditEvent.objects.order_by("-seq").values_list("seq", flat=True).first() or 0
    started = timezone.now().replace(microsecond=0)

    spec.call(world)

    new = list(AuditEvent.objects.filter(seq__gt=last).order_by("seq"))
    actions = [e.action for e in new]
    assert actions == [spec.action, *spec.also], f"{name} appended {actions}"
    event = new[0]
    actor = people.applicant_a if spec.actor == "applicant_a" else people.staff[SPENCER]
    assert event.actor_id == actor.pk and event.actor_label == actor.username
    assert event.at.utcoffset() == datetime.timedelta(0), "audit times are stored in UTC"
    assert started <= event.at <= timezone.now() + datetime.timedelta(seconds=1)
    assert event.village == SPENCER
    assert event.citation.startswith(CHAPTER[SPENCER]) or event.citation == CALENDAR[SPENCER], (
        f"{name}: the audit event must cite the section of Spencer's Ch. 413 that allows it "
        f"(or, for its office calendar, its counting rule); got {event.citation!r}"
    )
    assert isinstance(event.before, dict) and isinstance(event.after, dict)
    assert event.after, f"{name}: the event must record what the change produced"
    if spec.status:
        assert (event.before["status"], event.after["status"]) == spec.status
    for generated in new[1:]:
        assert generated.actor_id is None and generated.actor_label == "system"
        assert generated.citation.startswith(CHAPTER[SPENCER])
    assert chain_verify().ok


def test_a_refused_service_call_appends_nothing(people, spencer):
    application = spencer.application("under_review")
    count = AuditEvent.objects.count()
    for who in (people.staff[NEW_GLARUS], people.inspector[SPENCER], people.applicant_a):
        with pytest.raises(ActionRefused):
            services.application_approve(application=application, staff=who, at=_now())
    with pytest.raises(ActionRefused):
        services.application_disapprove(
            application=application, staff=people.staff[SPENCER], reasons="  ", at=_now()
        )
    with pytest.raises(ActionRefused):
        services.application_submit(application=application, user=people.applicant_a, at=_now())
    assert AuditEvent.objects.count() == count
    application.refresh_from_db()
    assert application.status == "under_review"


def test_village_sync_records_the_seeded_office_calendar_once(db):
    assert not AuditEvent.objects.exists()
    services.village_sync()
    synced = {e.village: e for e in AuditEvent.objects.filter(action="village_sync")}
    # Each village's creation is recorded once; only New Glarus counts business days, so
    # only its office calendar is seeded with the legal holidays.
    assert set(synced) == {SPENCER, NEW_GLARUS}
    assert synced[NEW_GLARUS].actor_id is None and synced[NEW_GLARUS].citation == "§ 135-13"
    assert synced[NEW_GLARUS].after["closures_seeded_for_years"]
    assert synced[SPENCER].after["closures_seeded_for_years"] == []
    services.village_sync()
    assert AuditEvent.objects.filter(action="village_sync").count() == 2


# --- a realistic sequence, and the citations it records ---------------------------------


def realistic_sequence(people: factories.People) -> None:
    """Both villages: every state, a permit extended, amended, bonded and closed."""
    for village in factories.VILLAGES:
        staff = people.staff[village]
        made = {
            state: factories.make_application(
                applicant=people.applicant_a if i % 2 else people.applicant_b,
                village=village,
                state=state,
                staff=staff,
                address=f"{i} Main St",
            )
            for i, state in enumerate(factories.STATES)
        }
        services.application_information_provide(
            application=made["information_requested"],
            user=made["information_requested"].applicant,
            response="Here it is.",
            at=_now(),
        )
        permit = made["approved"].permit
        services.surety_record(
            permit=permit,
            staff=staff,
            kind="letter_of_credit",
            amount=Decimal("2500"),
            issuer="Bank",
            reference="LC-9",
            received_on=_today(),
        )
        amendment = factories.request_amendment(permit, made["approved"].applicant)
        services.plan_amendment_decide(
            amendment=amendment, staff=staff, approve=False, reasons="Keep the fence.", on=_today()
        )
        services.permit_extend(permit=permit, staff=staff, days=60, on=_today(), added_measures="x")
        services.permit_close(
            permit=permit, staff=staff, on=_today(), cover_percent=90, activities_completed=True
        )
        place = Village.objects.get(pk=village)
        services.office_closure_add(
            village=place, staff=staff, day=datetime.date(2030, 3, 4), reason="flood"
        )
        services.office_closure_remove(village=place, staff=staff, day=datetime.date(2030, 3, 4))
        services.fee_schedule_set(
            village=place,
            staff=staff,
            effective_from=datetime.date(2030, 1, 1),
            amount=Decimal("50"),
            authority="resolution",
        )


def test_the_chain_verifies_after_a_realistic_sequence_in_both_villages(people):
    realistic_sequence(people)
    result = chain_verify()
    assert result.ok, result.reason
    assert result.checked == AuditEvent.objects.count() > 60


def test_every_audit_citation_is_a_section_of_the_village_s_own_chapter(people):
    realistic_sequence(people)
    wrong = [
        f"#{e.seq} {e.action} in {e.village} cites {e.citation!r}"
        for e in AuditEvent.objects.exclude(village="")
        if not (e.citation.startswith(CHAPTER[e.village]) or e.citation == CALENDAR[e.village])
    ]
    assert not wrong, "audit events citing no section, or another village's chapter: " + "; ".join(
        wrong
    )


# --- append-only in the database --------------------------------------------------------


def _raw(sql: str, params: list[Any] | None = None) -> None:
    with connection.cursor() as cursor:
        if params is None:
            cursor.execute(sql)  # no placeholders: the trigger SQL holds a literal "%"
        else:
            cursor.execute(sql, params)


def _settle_deferred_constraints() -> None:
    """PostgreSQL: check the deferred foreign keys of this test's transaction now, so
    that DDL and TRUNCATE on the audit table are not blocked by pending trigger events."""
    if connection.vendor == "postgresql":
        _raw("SET CONSTRAINTS ALL IMMEDIATE")


def _refused(sql: str, params: list[Any] | None = None) -> None:
    """The statement fails at the database; the savepoint keeps the test's transaction."""
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        _raw(sql, params)


@pytest.fixture
def chain(armed_triggers: None, people: factories.People) -> list[AuditEvent]:
    factories.make_application(
        applicant=people.applicant_a,
        village=SPENCER,
        state="approved",
        staff=people.staff[SPENCER],
    )
    events = list(AuditEvent.objects.order_by("seq"))
    assert len(events) >= 5 and chain_verify().ok
    return events


def test_update_of_an_audit_event_is_refused_by_the_database_even_in_raw_sql(chain):
    event = chain[2]
    _refused("UPDATE audit_auditevent SET reason = %s WHERE seq = %s", ["edited", event.seq])
    with pytest.raises(DatabaseError), transaction.atomic():
        AuditEvent.objects.filter(pk=event.pk).update(reason="edited")
    with pytest.raises(DatabaseError), transaction.atomic():
        event.reason = "edited"
        event.save()
    event.refresh_from_db()
    assert event.reason != "edited"
    assert chain_verify().ok


def test_delete_of_an_audit_event_is_refused_by_the_database_even_in_raw_sql(chain):
    _refused("DELETE FROM audit_auditevent WHERE seq = %s", [chain[1].seq])
    _refused("DELETE FROM audit_auditevent")
    with pytest.raises(DatabaseError), transaction.atomic():
        AuditEvent.objects.filter(pk=chain[1].pk).delete()
    if connection.vendor == "postgresql":
        _settle_deferred_constraints()
        _refused("TRUNCATE audit_auditevent")
    assert AuditEvent.objects.count() == len(chain)
    assert chain_verify().ok


def _drop_the_update_trigger() -> None:
    """What a database administrator could do behind the application's back."""
    _settle_deferred_constraints()
    if connection.vendor == "postgresql":
        _raw("ALTER TABLE audit_auditevent DISABLE TRIGGER audit_event_no_update_delete")
    else:
        _raw("DROP TRIGGER audit_event_no_update")


def _restore_the_triggers() -> None:
    """Re-run the SQL of migration audit 0002."""
    if connection.vendor == "postgresql":
        _raw("DROP TRIGGER IF EXISTS audit_event_no_update_delete ON audit_auditevent")
        _raw("DROP TRIGGER IF EXISTS audit_event_no_truncate ON audit_auditevent")
        statements = append_only.POSTGRES
    else:
        statements = append_only.SQLITE
    for statement in statements:
        _raw(statement)


def test_an_edited_row_is_found_by_chain_verify_at_its_seq(chain):
    target = chain[3]
    _drop_the_update_trigger()
    try:
        _raw(
            "UPDATE audit_auditevent SET reason = %s WHERE seq = %s",
            ["approved by phone", target.seq],
        )
        result = chain_verify()
    finally:
        _restore_the_triggers()
    assert not result.ok
    assert result.broken_at == target.seq
    assert "changed after it was written" in result.reason
    # The trigger is back: the next edit is refused again.
    _refused("UPDATE audit_auditevent SET reason = %s WHERE seq = %s", ["again", chain[0].seq])


def test_a_row_deleted_through_a_purge_window_is_found_missing(chain):
    target = chain[2]
    open_purge_window()
    try:
        _raw("DELETE FROM audit_auditevent WHERE seq = %s", [target.seq])
    finally:
        close_purge_window()
    result = chain_verify()
    assert not result.ok
    assert result.broken_at == target.seq
    assert "missing" in result.reason


def test_a_deleted_last_row_is_found_missing_against_the_chain_head(chain):
    target = chain[-1]
    open_purge_window()
    try:
        _raw("DELETE FROM audit_auditevent WHERE seq = %s", [target.seq])
    finally:
        close_purge_window()
    result = chain_verify()
    assert not result.ok
    assert result.broken_at == target.seq


# --- a chain written before, the bulk writer, the head, the actions ----------------------

# Three events as the chain stored them before its actions were an enumeration: their
# hashes were computed then, and are kept here as written. Values of ``AuditAction`` are
# never renamed, so such a chain still verifies, and the same events appended today get the
# same hashes.
WRITTEN_BEFORE = [
    (
        {
            "at": datetime.datetime(2026, 3, 2, 15, 4, 5, tzinfo=datetime.UTC),
            "actor_label": "system",
            "village": SPENCER,
            "entity": "village",
            "entity_id": 0,
            "action": "village_sync",
            "citation": "§ 990.001(4) Wis. Stats.",
            "after": {"name": "Village of Spencer", "closures_seeded_for_years": [2026, 2027]},
        },
        "ad1e387bd23104effdf129fa5d2f7f0d8baf6df231191b1f56d15adc50be6624",
    ),
    (
        {
            "at": datetime.datetime(2026, 3, 3, 14, 0, 0, tzinfo=datetime.UTC),
            "actor_label": "contractor-jo",
            "village": SPENCER,
            "entity": "application",
            "entity_id": 7,
            "action": "application_submit",
            "citation": "§ 413-8C(1)",
            "before": {"status": "draft"},
            "after": {"status": "under_review", "number": "SP-2026-0007"},
        },
        "e28fdad168493018b9ce438c44b5394e752a80bf6a21961249bdcc9075470697",
    ),
    (
        {
            "at": datetime.datetime(2026, 3, 20, 16, 30, 0, tzinfo=datetime.UTC),
            "actor_label": "spencer-building-inspector",
            "village": SPENCER,
            "entity": "application",
            "entity_id": 7,
            "action": "application_approve",
            "reason": "Plan meets § 413-7 — fences, pads",
            "citation": "§ 413-8C(2)",
            "before": {"status": "under_review"},
            "after": {"status": "approved", "expires_on": "2027-03-20"},
        },
        "14953529927546023f1f8b4181af76e747a9cb52c1a4662908feaaf2ee5601ca",
    ),
]


def _written_before() -> None:
    """The rows as an earlier version stored them, inserted as they are (not by the
    writer of today), with the chain's head where that version left it."""
    previous = "0" * 64
    for seq, (fields, digest) in enumerate(WRITTEN_BEFORE, start=1):
        AuditEvent(seq=seq, prev_hash=previous, hash=digest, **fields).save(force_insert=True)
        previous = digest
    ChainHead.objects.update_or_create(id=1, defaults={"seq": seq, "hash": previous})


def test_a_chain_written_before_still_verifies_and_grows(db):
    _written_before()
    assert chain_verify() == Verification(True, 3)
    with transaction.atomic():
        event = event_record(
            actor=None,
            entity="application",
            entity_id=7,
            action=AuditAction.APPLICATION_APPROVE,
            village=SPENCER,
            citation="§ 413-8C(2)",
        )
    assert (event.seq, event.prev_hash) == (4, WRITTEN_BEFORE[-1][1])
    assert AuditEvent.objects.get(seq=4).action == "application_approve"
    assert chain_verify() == Verification(True, 4)


def test_append_many_links_each_event_as_the_chain_always_did(db):
    with transaction.atomic():
        written = append_many(AuditEntry(**fields) for fields, _ in WRITTEN_BEFORE)
    assert written == 3
    events = list(AuditEvent.objects.order_by("seq"))
    assert [e.hash for e in events] == [digest for _, digest in WRITTEN_BEFORE]
    assert [e.seq for e in events] == [1, 2, 3]
    assert events[2].reason == "Plan meets § 413-7 — fences, pads"
    assert events[1].after == {"status": "under_review", "number": "SP-2026-0007"}
    assert chain_head() == Head(3, WRITTEN_BEFORE[-1][1])
    assert chain_verify() == Verification(True, 3)


def test_append_many_goes_on_from_the_head_and_event_record_after_it(people):
    before = chain_head()  # the villages' own events, and their people's roles
    assert before.seq > 0
    at = timezone.now() - datetime.timedelta(days=400)
    with transaction.atomic():
        appended = append_many(
            [
                AuditEntry(
                    at=at + datetime.timedelta(hours=hour, microseconds=917),
                    entity="permit",
                    entity_id=hour,
                    action=AuditAction.PERMIT_CLOSE,
                    village=NEW_GLARUS,
                    actor_id=people.staff[NEW_GLARUS].pk,
                    actor_label=people.staff[NEW_GLARUS].username,
                    # A date is stored as its text, and the hash reads it back so.
                    after={"closed_on": (at + datetime.timedelta(hours=hour)).date()},
                )
                for hour in range(5)
            ]
        )
    assert appended == 5
    new = list(AuditEvent.objects.filter(seq__gt=before.seq).order_by("seq"))
    assert [e.seq for e in new] == list(range(before.seq + 1, before.seq + 6))
    assert new[0].prev_hash == before.hash
    assert all(e.at.microsecond == 0 and e.at.utcoffset() == datetime.timedelta(0) for e in new)
    assert isinstance(new[0].after["closed_on"], str)
    assert chain_head() == Head(new[-1].seq, new[-1].hash)
    with transaction.atomic():
        last = event_record(
            actor=None, entity="permit", entity_id=1, action="permit_close", village=SPENCER
        )
    assert last.prev_hash == new[-1].hash
    assert chain_verify().ok


def test_an_action_outside_the_enumeration_is_refused_and_nothing_is_written(villages):
    head = chain_head()
    count = AuditEvent.objects.count()
    good = AuditEntry(at=timezone.now(), entity="permit", entity_id=1, action="permit_close")
    bad = AuditEntry(at=timezone.now(), entity="permit", entity_id=1, action="permit_closed")
    refused = "'permit_closed' is not an audit action"
    with pytest.raises(ValueError, match=refused), transaction.atomic():
        append_many([good, bad])
    with pytest.raises(ValueError, match="not an audit action"), transaction.atomic():
        event_record(actor=None, entity="permit", entity_id=1, action="application_withdraw")
    naive = AuditEntry(
        at=datetime.datetime(2026, 1, 1, 12), entity="permit", entity_id=1, action="permit_close"
    )
    with pytest.raises(ValueError, match="no time zone"), transaction.atomic():
        append_many([naive])
    assert AuditEvent.objects.count() == count and chain_head() == head
    assert chain_verify().ok


def test_the_head_of_an_empty_chain_is_the_genesis(db):
    assert chain_head() == Head(0, "0" * 64)
    with transaction.atomic():
        assert append_many([]) == 0
    assert chain_head() == Head(0, "0" * 64)
