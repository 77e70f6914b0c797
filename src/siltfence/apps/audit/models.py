"""The audit record: every state change as an append-only, hash-chained event.

Each row records the actor, the time (UTC), what changed (before and after), why, and
the section of the ordinance that allowed it. ``hash`` covers the row's content and the
previous row's hash, so editing or deleting any row breaks every link after it, and
``siltfence audit verify`` finds the first broken one. UPDATE and DELETE are refused by
triggers in the database itself (see the migration), on SQLite and PostgreSQL alike.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class AuditAction(models.TextChoices):
    """What an audit event records was done, and how the pages say it. The values are what
    the chain has always stored (and hashed): a value is never renamed, or a chain written
    before would no longer verify. ``event_record`` and ``append_many`` take members only."""

    APPLICATION_CREATE = "application_create", "Application started"
    APPLICATION_FACTS_UPDATE = "application_facts_update", "Facts of the work changed"
    APPLICATION_CHECKLIST_SET = "application_checklist_set", "Plan checklist ticked"
    DOCUMENT_UPLOAD = "document_upload", "Document uploaded"
    CONTROL_PLAN_SAVE = "control_plan_save", "Control plan saved"
    APPLICATION_SUBMIT = "application_submit", "Application filed"
    FEE_PAYMENT_RECORD = "fee_payment_record", "Fee payment recorded"
    FEE_PAYMENT_CORRECT = "fee_payment_correct", "Fee payment corrected"
    FEE_CORRECT = "fee_correct", "Application fee corrected"
    APPLICATION_INFORMATION_REQUEST = (
        "application_information_request",
        "Information requested in writing",
    )
    APPLICATION_INFORMATION_PROVIDE = "application_information_provide", "Information provided"
    APPLICATION_APPROVE = "application_approve", "Approved"
    APPLICATION_DISAPPROVE = "application_disapprove", "Disapproved"
    SURETY_RECEIVE = "surety_receive", "Surety received; permit issued"
    SURETY_RECORD = "surety_record", "Surety recorded"
    SURETY_DRAW = "surety_draw", "Surety drawn on"
    SURETY_RELEASE = "surety_release", "Surety released"
    PERMIT_EXTEND = "permit_extend", "Permit extended"
    PERMIT_CLOSE = "permit_close", "Permit closed at final stabilization"
    PLAN_AMENDMENT_REQUEST = "plan_amendment_request", "Plan change asked for"
    PLAN_AMENDMENT_DECIDE = "plan_amendment_decide", "Plan change decided"
    RAIN_STATION_NEAREST = "rain_station_nearest", "Rain station chosen (the nearest with a record)"
    RAIN_STATION_PINNED = "rain_station_pinned", "Rain station chosen by staff"
    RAIN_DAYS_RECORD = "rain_days_record", "Daily rain recorded"
    RAIN_IMPORT = "rain_import", "Rain records imported"
    RAIN_IMPORT_BEGIN = "rain_import_begin", "Rain records import started"
    RAIN_SWEPT = "rain_swept", "Rain checked against the inspection duties"
    RAIN_CORRECTED = "rain_corrected", "Rain on the permit corrected with the rain record"
    RAIN_INSPECTION_WITHDRAWN = (
        "rain_inspection_withdrawn",
        "Inspection after rain withdrawn with the rain record",
    )
    # the site log
    SITE_LOG_SELF_INSPECTION = "site_log_self_inspection", "Site log: control measures inspected"
    SITE_LOG_START_NOTICE_GIVEN = (
        "site_log_start_notice_given",
        "Site log: notice of the start of work given",
    )
    SITE_LOG_WORK_STARTED = "site_log_work_started", "Site log: work started"
    SITE_LOG_MEASURE_INSTALLED = "site_log_measure_installed", "Site log: control measure installed"
    SITE_LOG_MEASURE_COMPLETION_NOTICE_GIVEN = (
        "site_log_measure_completion_notice_given",
        "Site log: notice that a control measure is in place given",
    )
    SITE_LOG_AREA_INACTIVE = "site_log_area_inactive", "Site log: ground left inactive"
    SITE_LOG_AREA_STABILIZED = "site_log_area_stabilized", "Site log: ground stabilized"
    SITE_LOG_NO_RUNOFF = "site_log_no_runoff", "Site log: a rain caused no runoff from the site"
    MUNICIPAL_INSPECTION_RECORD = "municipal_inspection_record", "Village inspection recorded"
    # the village's settings
    VILLAGE_SYNC = "village_sync", "Village's ordinance loaded"
    FEE_SCHEDULE_SET = "fee_schedule_set", "Application fee set"
    VILLAGE_ADDRESS_SET = "village_address_set", "Village office's address set"
    VILLAGE_OFFICE_SET = "village_office_set", "Village office's phone, email and hours set"
    OFFICE_CLOSURE_ADD = "office_closure_add", "Day the office is closed added"
    OFFICE_CLOSURE_REMOVE = "office_closure_remove", "Day the office is closed removed"
    FORFEITURE_SCHEDULE_SET = "forfeiture_schedule_set", "Forfeiture amounts set"
    INTEREST_RATE_SET = "interest_rate_set", "Interest rate on unpaid costs set"
    # people and sign-in
    MEMBERSHIP_ADD = "membership_add", "Role given"
    MEMBERSHIP_END = "membership_end", "Role ended"
    MEMBERSHIP_TERM_CHANGE = "membership_term_change", "Term of a role changed"
    SECOND_FACTOR_ENROL = "second_factor_enrol", "Authenticator app set up"
    SECOND_FACTOR_RESET = "second_factor_reset", "Sign-in codes reset"
    SECOND_FACTOR_TURN_OFF = "second_factor_turn_off", "Sign-in codes turned off"
    BACKUP_CODES_ISSUE = "backup_codes_issue", "Backup codes made"
    # enforcement
    COMPLAINT_FILE = "complaint_file", "Report from the public received"
    COMPLAINT_DISMISS = "complaint_dismiss", "Report dismissed"
    VIOLATION_RECORD = "violation_record", "Violation recorded"
    VIOLATION_FIND = "violation_find", "Violation found"
    VIOLATION_END = "violation_end", "Violation ended"
    CASE_PARCEL_SET = "case_parcel_set", "Parcel number recorded"
    COMPLIANCE_RECORD = "compliance_record", "Compliance recorded"
    NOTICE_TO_CEASE_GIVE = "notice_to_cease_give", "Notice to cease given"
    WARNING_LETTER_SEND = "warning_letter_send", "Warning letter written (not required)"
    LETTER_WORDING_SET = "letter_wording_set", "Village's own words on a letter set"
    STOP_WORK_ORDER_POST = "stop_work_order_post", "Stop-work order posted"
    PERMIT_REVOKE = "permit_revoke", "Permit revoked"
    ORDER_RETRACT = "order_retract", "Order withdrawn"
    NOTICE_OF_INTENT_ISSUE = (
        "notice_of_intent_issue",
        "Notice of the village's intent to do the work given",
    )
    VILLAGE_WORK_BEGIN = "village_work_begin", "Village began the work"
    WORK_COST_RECORD = "work_cost_record", "Cost of the village's work recorded"
    WORK_COST_CORRECT = "work_cost_correct", "Cost of the village's work corrected"
    INVOICE_ISSUE = "invoice_issue", "Bill for the village's costs sent"
    PAYMENT_RECORD = "payment_record", "Payment recorded"
    PAYMENT_CORRECT = "payment_correct", "Payment corrected"
    COSTS_UNPAID_RECORD = "costs_unpaid_record", "Costs recorded as unpaid"
    TAX_ROLL_CERTIFY = "tax_roll_certify", "Unpaid costs certified to the tax roll"
    CEASE_AND_DESIST_REFER = "cease_and_desist_refer", "Referred for a cease and desist order"
    INJUNCTION_REFER = "injunction_refer", "Referred for an injunction"
    PROSECUTION_REFER = "prosecution_refer", "Referred for prosecution"
    DOCUMENT_SERVE = "document_serve", "How a document was served recorded"
    SERVICE_RECEIPT_RECORD = "service_receipt_record", "Day a document was received recorded"
    PARTY_ADDRESS_SET = "party_address_set", "Mailing address of a party recorded"
    # appeals
    APPEAL_FILE = "appeal_file", "Appeal filed"
    APPEAL_HEARING_SCHEDULE = "appeal_hearing_schedule", "Appeal hearing scheduled"
    APPEAL_HEARING_RECORD = (
        "appeal_hearing_record",
        "Appeal hearing held: the board's roll recorded",
    )
    APPEAL_MOTION_VOTE = "appeal_motion_vote", "Board's vote on a motion recorded"
    APPEAL_DECIDE = "appeal_decide", "Appeal decided"
    # documents written
    PERMIT_GENERATE = "permit_generate", "Permit document written"
    DISAPPROVAL_LETTER_GENERATE = "disapproval_letter_generate", "Disapproval letter written"
    SURETY_REQUIRED_LETTER_GENERATE = (
        "surety_required_letter_generate",
        "Letter of approval subject to a surety written",
    )
    EXTENSION_LETTER_GENERATE = "extension_letter_generate", "Extension letter written"
    CLOSEOUT_LETTER_GENERATE = "closeout_letter_generate", "Closeout letter written"
    SURETY_RELEASE_LETTER_GENERATE = (
        "surety_release_letter_generate",
        "Surety release letter written",
    )
    STOP_WORK_PLACARD_GENERATE = "stop_work_placard_generate", "Stop-work placard written"
    REVOCATION_GENERATE = "revocation_generate", "Notice of revocation written"
    RETRACTION_GENERATE = "retraction_generate", "Notice of withdrawal written"
    NOTICE_OF_INTENT_GENERATE = "notice_of_intent_generate", "Notice of intent written"
    INVOICE_GENERATE = "invoice_generate", "Bill written"
    NOTICE_TO_CEASE_GENERATE = "notice_to_cease_generate", "Notice to cease written"
    WARNING_LETTER_GENERATE = "warning_letter_generate", "Warning letter document written"
    TAX_ROLL_CERTIFICATION_GENERATE = (
        "tax_roll_certification_generate",
        "Certification to the tax roll written",
    )
    CEASE_AND_DESIST_REFERRAL_GENERATE = (
        "cease_and_desist_referral_generate",
        "Referral for a cease and desist order written",
    )
    INJUNCTION_REFERRAL_GENERATE = (
        "injunction_referral_generate",
        "Referral for an injunction written",
    )
    PROSECUTION_REFERRAL_GENERATE = (
        "prosecution_referral_generate",
        "Referral for prosecution written",
    )
    APPEAL_DECISION_GENERATE = "appeal_decision_generate", "Appeal decision written"


def action_words(name: str) -> str:
    """An entry of the audit record in plain words, its action's label:
    ``application_approve`` -> "Approved"."""
    if name in AuditAction.values:
        return str(AuditAction(name).label)
    document = name.removesuffix("_generate")
    if document != name:
        return f"{document.replace('_', ' ').capitalize()} written"
    return name.replace("_", " ").capitalize()


class AuditEvent(models.Model):
    seq = models.BigIntegerField(unique=True)
    at = models.DateTimeField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    actor_label = models.CharField(max_length=200)
    village = models.CharField(max_length=40, blank=True)
    entity = models.CharField(max_length=40)  # "application", "permit", ...
    entity_id = models.BigIntegerField()
    action = models.CharField(max_length=60, choices=AuditAction.choices)
    reason = models.TextField(blank=True)
    citation = models.CharField(max_length=200, blank=True)
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64, unique=True)

    class Meta:
        ordering = ["seq"]
        indexes = [models.Index(fields=["entity", "entity_id", "seq"])]

    def __str__(self) -> str:
        return f"#{self.seq} {self.action} {self.entity} {self.entity_id}"


class ChainHead(models.Model):
    """One row, locked while an event is appended, so the chain never forks."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    seq = models.BigIntegerField(default=0)
    hash = models.CharField(max_length=64, default="0" * 64)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=models.Q(id=1), name="chain_head_single_row")
        ]

    def __str__(self) -> str:
        return f"chain head #{self.seq}"
