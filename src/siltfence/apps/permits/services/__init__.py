"""Every change to applications and permits: ``<entity>_<verb>`` functions.

Each runs in one transaction, locks the row it changes (PostgreSQL: SELECT ... FOR
UPDATE; SQLite: the IMMEDIATE transaction takes the write lock at its start), checks its
preconditions inside that lock, writes, records a timeline event where the law counts
time from it, and appends the change to the audit chain. Two conflicting transitions
(approve and disapprove of one application) cannot both succeed: the second finds the
status already changed and is refused.

The functions live by subject, and every name is importable from here:

- ``applications``: the draft, its facts, documents and checklist, the fee, the filing;
- ``review``: information asked for and given, approval and disapproval;
- ``permits``: the permit's issue, its extensions, and its sureties;
- ``closeout``: closing the permit at final stabilization;
- ``amendments``: amendments of the approved plan;
- ``parties``: the people named on an application and their mailing addresses;
- ``village``: the village's rows, office calendar and fee schedule;
- ``common``: what they share (the ordinance, who may act, an application's change).
"""

from __future__ import annotations

from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.services.amendments import (
    amendment_triggers,
    plan_amendment_decide,
    plan_amendment_request,
)
from siltfence.apps.permits.services.applications import (
    BUILDING_PERMIT_MAX_DAYS,
    BUILDING_PERMIT_YEARS,
    MAX_DESCRIPTION,
    application_checklist_set,
    application_create,
    application_facts_update,
    application_fee_due,
    application_missing,
    application_submit,
    document_upload,
)
from siltfence.apps.permits.services.closeout import permit_close
from siltfence.apps.permits.services.common import MAX_CONDITION_LENGTH, MAX_MEASURES_LENGTH
from siltfence.apps.permits.services.parties import (
    MAX_PARTIES,
    mailing_address_read,
    parties_read,
    party_address_set,
    party_read,
)
from siltfence.apps.permits.services.permits import (
    MAX_SURETY,
    permit_extend,
    surety_draw,
    surety_receive,
    surety_record,
    surety_release,
)
from siltfence.apps.permits.services.review import (
    MAX_CONDITIONS,
    application_approve,
    application_disapprove,
    application_information_provide,
    application_information_request,
)
from siltfence.apps.permits.services.village import (
    fee_in_force,
    fee_schedule_set,
    office_closure_add,
    office_closure_remove,
    village_office_set,
    village_sync,
)

__all__ = [
    "BUILDING_PERMIT_MAX_DAYS",
    "BUILDING_PERMIT_YEARS",
    "MAX_CONDITIONS",
    "MAX_CONDITION_LENGTH",
    "MAX_DESCRIPTION",
    "MAX_MEASURES_LENGTH",
    "MAX_PARTIES",
    "MAX_SURETY",
    "ActionRefused",
    "amendment_triggers",
    "application_approve",
    "application_checklist_set",
    "application_create",
    "application_disapprove",
    "application_facts_update",
    "application_fee_due",
    "application_information_provide",
    "application_information_request",
    "application_missing",
    "application_submit",
    "document_upload",
    "fee_in_force",
    "fee_schedule_set",
    "mailing_address_read",
    "office_closure_add",
    "office_closure_remove",
    "parties_read",
    "party_address_set",
    "party_read",
    "permit_close",
    "permit_extend",
    "plan_amendment_decide",
    "plan_amendment_request",
    "surety_draw",
    "surety_receive",
    "surety_record",
    "surety_release",
    "village_office_set",
    "village_sync",
]
