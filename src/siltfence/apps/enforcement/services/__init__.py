"""Every change to the enforcement record: ``<entity>_<verb>`` functions.

Each runs in one transaction, locks the case row (PostgreSQL: SELECT ... FOR UPDATE;
SQLite: the write lock), checks its preconditions inside the lock, asks the core timeline
whether the step is lawful on its date (``allowed_actions``), writes, records the
timeline event the law counts from and appends the change to the audit chain. The
waiting periods and who may act come from the ordinance data, never from here.

The functions live by subject, and every name is importable from here:

- ``violations``: violations found, complaints filed and reviewed, violations ended;
- ``orders``: the stop-work order and compliance, revocation, retraction, the notice to
  cease, and the referrals for a cease-and-desist order or an injunction;
- ``village_work``: the notice of intent, the village's work, its costs, the bill,
  payments, and the certification to the tax roll (and the interest rate on the bill);
- ``forfeitures``: the referral for prosecution and the forfeiture schedule;
- ``serving``: how each document was served, and the day it was received;
- ``steps``: ``lawful`` (the core's word on a step) and the table of lawful steps;
- ``common``: what they share (the ordinance, who may act, the case's lock, its audit).
"""

from __future__ import annotations

from siltfence.apps.enforcement.errors import ActionRefused
from siltfence.apps.enforcement.services.common import (
    FUTURE,
    MAX_AMOUNT,
    MAX_DESCRIPTION,
    MAX_TEXT,
    amount_read,
    event_add,
)
from siltfence.apps.enforcement.services.common import clean_text as clean_text
from siltfence.apps.enforcement.services.forfeitures import (
    forfeiture_schedule_set,
    prosecution_refer,
)
from siltfence.apps.enforcement.services.letters import (
    MAX_WORDING,
    PARTY_LETTERS,
    letter_wording_set,
    worded,
)
from siltfence.apps.enforcement.services.orders import (
    cease_and_desist_refer,
    compliance_record,
    injunction_refer,
    notice_to_cease_give,
    order_retract,
    permit_revoke,
    stop_work_order_post,
    warning_letter_send,
)
from siltfence.apps.enforcement.services.orders import order_retraction as order_retraction
from siltfence.apps.enforcement.services.serving import (
    ANCHORS,
    KIND_TITLES,
    document_serve,
    issued_at,
    service_receipt_record,
)
from siltfence.apps.enforcement.services.steps import ACTION_WORDS, FIELDS, STEPS, Step, lawful
from siltfence.apps.enforcement.services.village_work import (
    case_parcel_set,
    costs_unpaid_record,
    interest_due,
    interest_rate_set,
    invoice_issue,
    notice_of_intent_issue,
    tax_roll_certify,
    village_work_begin,
    work_cost_record,
)
from siltfence.apps.enforcement.services.violations import (
    MAX_PHOTOS,
    PHOTO_TYPES,
    Photo,
    complaint_file,
    provision_read,
    violation_end,
    violation_record,
    violation_review,
)

__all__ = [
    "ACTION_WORDS",
    "ANCHORS",
    "FIELDS",
    "FUTURE",
    "KIND_TITLES",
    "MAX_AMOUNT",
    "MAX_DESCRIPTION",
    "MAX_PHOTOS",
    "MAX_TEXT",
    "MAX_WORDING",
    "PARTY_LETTERS",
    "PHOTO_TYPES",
    "STEPS",
    "ActionRefused",
    "Photo",
    "Step",
    "amount_read",
    "case_parcel_set",
    "cease_and_desist_refer",
    "complaint_file",
    "compliance_record",
    "costs_unpaid_record",
    "document_serve",
    "event_add",
    "forfeiture_schedule_set",
    "injunction_refer",
    "interest_due",
    "interest_rate_set",
    "invoice_issue",
    "issued_at",
    "lawful",
    "letter_wording_set",
    "notice_of_intent_issue",
    "notice_to_cease_give",
    "order_retract",
    "permit_revoke",
    "prosecution_refer",
    "provision_read",
    "service_receipt_record",
    "stop_work_order_post",
    "tax_roll_certify",
    "village_work_begin",
    "violation_end",
    "violation_record",
    "violation_review",
    "warning_letter_send",
    "worded",
    "work_cost_record",
]
