"""The audit chain's events for the generated records: what the services would have
appended for each change (actor, action, section, before and after), appended in order of
time by the chain's own bulk writer (``append_many``), which links each one as
``event_record`` does."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from tools.scale.plans import Event, Plan


@dataclass(frozen=True)
class Item:
    at: datetime.datetime
    actor: int | None
    entity: str
    entity_id: int
    action: str
    citation: str = ""
    reason: str = ""
    before: dict[str, Any] = field(default_factory=dict)
    after: dict[str, Any] = field(default_factory=dict)


def _noon_utc(day: datetime.date, hour: int = 17) -> datetime.datetime:
    return datetime.datetime.combine(day, datetime.time(hour), tzinfo=datetime.UTC)


class AuditTrail:
    """Payloads hold plain JSON values only (text, numbers), as the chain reads them back."""

    def __init__(self, village_id: str, ordinance: Any, usernames: dict[int, str]) -> None:
        self.village_id = village_id
        self.ordinance = ordinance
        self.usernames = usernames
        self.items: list[Item] = []
        self.clocks = {c["kind"]: str(c["citation"]) for c in ordinance.rules["clocks"]}

    def application(self, pk: int, plan: Plan, applicant: int, staff: int, number: str) -> None:
        add = self.items.append
        review = self.clocks.get("review_decision", "")
        re_review = self.clocks.get("re_review_decision", "")
        add(
            Item(
                plan.created_at,
                applicant,
                "application",
                pk,
                "application_create",
                after={"status": "draft", "number": number},
            )
        )
        if plan.received_at is None:
            return
        add(
            Item(
                plan.received_at,
                applicant,
                "application",
                pk,
                "application_submit",
                citation=review,
                before={"status": "draft"},
                after={"status": "under_review"},
            )
        )
        for asked, answered, message, _ in plan.information:
            add(
                Item(
                    asked,
                    staff,
                    "application",
                    pk,
                    "application_information_request",
                    citation=re_review,
                    reason=message,
                    before={"status": "under_review"},
                    after={"status": "information_requested"},
                )
            )
            if answered is not None:
                add(
                    Item(
                        answered,
                        applicant,
                        "application",
                        pk,
                        "application_information_provide",
                        citation=re_review,
                        before={"status": "information_requested"},
                        after={"status": "under_review"},
                    )
                )
        permit = self.ordinance.rules["permit"]
        if plan.state == "disapproved" and plan.decided_at is not None:
            add(
                Item(
                    plan.decided_at,
                    staff,
                    "application",
                    pk,
                    "application_disapprove",
                    citation=permit["disapproval_citation"],
                    reason=plan.decision_reasons,
                    before={"status": "under_review"},
                    after={"status": "disapproved"},
                )
            )
        elif plan.issued_at is not None:
            add(
                Item(
                    plan.issued_at,
                    staff,
                    "application",
                    pk,
                    "application_approve",
                    citation=permit["approval_citation"],
                    before={"status": "under_review"},
                    after={"status": "approved", "expires_on": str(plan.expires_on)},
                )
            )

    def permit(self, pk: int, plan: Plan, staff: int) -> None:
        rules = self.ordinance.rules["permit"]
        for extension in plan.extensions:
            self.items.append(
                Item(
                    _noon_utc(extension.granted_on),
                    staff,
                    "permit",
                    pk,
                    "permit_extend",
                    citation=rules["citation"],
                    reason=extension.added_measures,
                    before={"expires_on": str(extension.expires_before)},
                    after={"expires_on": str(extension.expires_after), "days": extension.days},
                )
            )
        if plan.closed_on is not None:
            self.items.append(
                Item(
                    _noon_utc(plan.closed_on, 18),
                    staff,
                    "permit",
                    pk,
                    "permit_close",
                    citation=rules["final_stabilization"]["citation"],
                    reason=f"final stabilization, {plan.cover}% perennial cover",
                    before={"status": "active"},
                    after={
                        "status": "closed",
                        "closed_on": str(plan.closed_on),
                        "cover_percent": plan.cover,
                    },
                )
            )

    def site_log(self, permit: int, event: Event, applicant: int) -> None:
        shown = {"type": event.type, "at": event.at.isoformat(), **event.fields}
        self.items.append(
            Item(
                event.at,
                applicant,
                "permit",
                permit,
                f"site_log_{event.log}",
                after={"event": shown},
            )
        )

    def inspection(self, permit: int, event: Event, inspector: int) -> None:
        rule = self.ordinance.rules.get("municipal_inspections", {})
        self.items.append(
            Item(
                event.at,
                inspector,
                "permit",
                permit,
                "municipal_inspection_record",
                citation=str(rule.get("citation", "")),
                after={"result": event.inspection},
            )
        )

    def enforcement(
        self, case: int, plan: Plan, staff: int, inspector: int, refs: dict[str, int]
    ) -> None:
        found = plan.enforcement
        assert found is not None
        order = self.ordinance.rules["enforcement"]["stop_work_order"]["citation"]
        add = self.items.append
        add(
            Item(
                found.opened_at,
                inspector,
                "enforcement_case",
                case,
                "violation_record",
                citation=found.provision,
                reason=found.description,
                after={"violation": refs["violation"], "source": "inspection"},
            )
        )
        add(
            Item(
                found.order_at,
                staff,
                "enforcement_case",
                case,
                "stop_work_order_post",
                citation=order,
                reason=found.ground["says"],
                after={"grounds": [found.ground["id"]]},
            )
        )
        if found.compliance_at is not None:
            add(
                Item(
                    found.compliance_at,
                    staff,
                    "enforcement_case",
                    case,
                    "compliance_record",
                    citation=order,
                )
            )
        if found.revoked_at is not None:
            add(
                Item(
                    found.revoked_at,
                    staff,
                    "enforcement_case",
                    case,
                    "permit_revoke",
                    citation=found.revocation_citation,
                    before={"permit_status": "active"},
                    after={"permit_status": "revoked"},
                )
            )

    def write(self) -> int:
        """Append every item to the chain, in order of time, through the chain's own
        writer. Call last in the transaction: the chain's head stays locked until it
        commits."""
        from siltfence.apps.audit.chain import SYSTEM, AuditEntry, append_many

        self.items.sort(key=lambda item: item.at)
        return append_many(
            AuditEntry(
                at=item.at,
                entity=item.entity,
                entity_id=item.entity_id,
                action=item.action,
                village=self.village_id,
                actor_id=item.actor,
                actor_label=self.usernames[item.actor] if item.actor is not None else SYSTEM,
                reason=item.reason,
                citation=item.citation,
                before=item.before,
                after=item.after,
            )
            for item in self.items
        )
