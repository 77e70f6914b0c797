"""The permit record: villages, sites, parties, applications, permits and their history.

Models hold what happened; the core computes what it means (determinations, clocks).
Every change goes through ``services`` and is recorded in the audit chain. Invariants
that the law fixes are also constraints in the database.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class Village(models.Model):
    """A jurisdiction whose ordinance is encoded; the id is the ordinance folder's name."""

    id = models.CharField(primary_key=True, max_length=40)
    name = models.CharField(max_length=200)
    # The ordinance data and code the stored decision clocks of its applications were
    # computed from (``inputs.ordinance_digest``); another value means they are out of date.
    clocks_inputs = models.CharField(max_length=64, blank=True, default="", db_default="")
    # The office's phone, email and hours as its staff enter them on the settings page:
    # printed on the notices, letters and receipts in place of the village's data (which may
    # give none, or be out of date); empty, the data's value is printed.
    phone = models.CharField(max_length=40, blank=True, default="", db_default="")
    email = models.CharField(max_length=254, blank=True, default="", db_default="")
    hours = models.CharField(max_length=200, blank=True, default="", db_default="")

    def __str__(self) -> str:
        return self.name


class OfficeClosure(models.Model):
    """A day the administering authority's office is closed (New Glarus business days)."""

    village = models.ForeignKey(Village, on_delete=models.PROTECT, related_name="closures")
    day = models.DateField()
    reason = models.CharField(max_length=200)

    class Meta:
        ordering = ["day"]
        constraints = [models.UniqueConstraint(fields=["village", "day"], name="one_closure_a_day")]

    def __str__(self) -> str:
        return str(f"{self.village_id} closed {self.day}: {self.reason}")


class FeeAreaUnit(models.TextChoices):
    """The measure of disturbed area a fee schedule charges by."""

    ACRE = "acre", "acre"
    THOUSAND_SQ_FT = "1000_sq_ft", "1,000 sq ft"


class FeeSchedule(models.Model):
    """The application fee a village set, in force from a date (no amount is invented):
    a base amount, and where the schedule says so an amount per acre (or per 1,000 sq ft)
    of disturbed area beyond what the base covers, and a re-inspection fee."""

    village = models.ForeignKey(Village, on_delete=models.PROTECT, related_name="fees")
    effective_from = models.DateField()
    amount = models.DecimalField(max_digits=10, decimal_places=2, help_text="the base amount")
    authority = models.CharField(max_length=200, help_text="e.g. Village Board resolution 2026-04")
    per_area_amount = models.DecimalField(
        max_digits=10, decimal_places=2, null=True, blank=True, help_text="per unit of area"
    )
    area_unit = models.CharField(
        max_length=20, choices=FeeAreaUnit.choices, blank=True, default="", db_default=""
    )
    area_included = models.DecimalField(
        max_digits=12,
        decimal_places=4,
        default=0,
        db_default=0,
        help_text="the units of area the base amount covers; the per-area amount is for the rest",
    )
    reinspection_fee = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)

    class Meta:
        ordering = ["-effective_from"]
        constraints = [
            models.UniqueConstraint(fields=["village", "effective_from"], name="one_fee_a_date"),
            models.CheckConstraint(condition=Q(amount__gte=0), name="fee_not_negative"),
            models.CheckConstraint(
                condition=Q(per_area_amount__isnull=True, area_unit="")
                | Q(per_area_amount__gte=0, area_unit__in=["acre", "1000_sq_ft"]),
                name="fee_per_area_has_its_unit",
            ),
            models.CheckConstraint(
                condition=Q(area_included__gte=0), name="fee_area_included_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(reinspection_fee__isnull=True) | Q(reinspection_fee__gte=0),
                name="reinspection_fee_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return str(f"{self.village_id} fee ${self.amount} from {self.effective_from}")


class Site(models.Model):
    village = models.ForeignKey(Village, on_delete=models.PROTECT, related_name="sites")
    address = models.CharField(max_length=300)
    parcel_number = models.CharField(max_length=60, blank=True)
    legal_description = models.TextField(blank=True)
    geometry = models.JSONField(null=True, blank=True)

    def __str__(self) -> str:
        return self.address


class PartyRole(models.TextChoices):
    LANDOWNER = "landowner", "Landowner"
    LAND_USER = "land_user", "Land user"
    RESPONSIBLE_PARTY = "responsible_party", "Responsible party (fee title holder)"
    CONTRACTOR = "contractor", "Contractor"
    ENGINEER = "engineer", "Engineer / plan preparer"
    ON_SITE_CONTACT = "on_site_contact", "On-site contact"
    # The village itself holds the land (work in its right-of-way): it is never sent the
    # notices or the bill (the ``village-holds-land`` gap note).
    VILLAGE = "village", "The village (holds the land: right-of-way)"


# Whom the notices of a case are addressed to: the permittee and the owner, never the
# engineer, the contractor or the on-site contact (documents/addressees.py).
OWNER_ROLES = ("landowner", "responsible_party", "land_user")


class Party(models.Model):
    """Someone named on an application, with the mailing address notices are sent to.

    ``address`` is the one-line address of applications made before mailing addresses
    were asked for; a mailing address is ``street``, ``city``, ``state`` and ``zip_code``,
    all four or none."""

    application = models.ForeignKey("Application", on_delete=models.PROTECT, related_name="parties")
    role = models.CharField(max_length=30, choices=PartyRole.choices)
    name = models.CharField(max_length=200)
    email = models.EmailField(blank=True)
    phone = models.CharField(max_length=40, blank=True)
    address = models.CharField(max_length=300, blank=True)
    street = models.CharField(max_length=200, blank=True, default="", db_default="")
    city = models.CharField(max_length=100, blank=True, default="", db_default="")
    state = models.CharField(max_length=2, blank=True, default="", db_default="")
    zip_code = models.CharField(max_length=10, blank=True, default="", db_default="")

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(street="", city="", state="", zip_code="")
                | (~Q(street="") & ~Q(city="") & ~Q(state="") & ~Q(zip_code="")),
                name="party_mailing_address_whole_or_none",
            ),
            models.CheckConstraint(
                condition=~Q(role="on_site_contact") | ~Q(phone=""),
                name="on_site_contact_has_a_phone",
            ),
        ]

    def __str__(self) -> str:
        return str(f"{self.get_role_display()}: {self.name}")

    @property
    def has_mailing_address(self) -> bool:
        return bool(self.street)

    def mailing_lines(self) -> list[str]:
        """The mailing address as it goes on an envelope; empty when there is none."""
        if not self.has_mailing_address:
            return []
        return [self.street, f"{self.city}, {self.state} {self.zip_code}"]


class ApplicationStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    UNDER_REVIEW = "under_review", "Under review"
    INFORMATION_REQUESTED = "information_requested", "Information requested"
    AWAITING_SURETY = "awaiting_surety", "Approved; permit issued when the surety is received"
    APPROVED = "approved", "Approved"
    DISAPPROVED = "disapproved", "Disapproved"


class Application(models.Model):
    village = models.ForeignKey(Village, on_delete=models.PROTECT, related_name="applications")
    number = models.CharField(max_length=30, unique=True)
    applicant = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="applications"
    )
    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="applications")
    status = models.CharField(
        max_length=30, choices=ApplicationStatus.choices, default=ApplicationStatus.DRAFT
    )
    description = models.TextField(blank=True)
    facts = models.JSONField(default=dict)
    determination = models.JSONField(default=dict)
    ordinance_version = models.CharField(max_length=20)
    plan_kind = models.CharField(max_length=60, blank=True)
    checklist = models.JSONField(default=list, help_text="indices of plan contents the plan holds")
    building_permit_expires = models.DateField(null=True, blank=True)
    fee_amount = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    fee_paid_on = models.DateField(null=True, blank=True)
    # What is paid toward the fee (every payment not corrected) and whether staff corrected
    # the fee: kept here by the payments app, which writes both in the transaction that
    # records the payment or the correction, so that filing reads them from the application.
    fee_paid = models.DecimalField(max_digits=10, decimal_places=2, default=0, db_default=0)
    fee_corrected = models.BooleanField(default=False, db_default=False)
    # How the fee was worked out from the schedule, in words ("$150.00 + $50.00 per acre ×
    # 2.3 acres = $265.00"), as the amount was last fixed (at the start, at filing).
    fee_basis = models.CharField(max_length=300, blank=True, default="", db_default="")
    received_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reasons = models.TextField(blank=True)
    # "As a condition of approval and issuance of the permit, the [authority] may require
    # the applicant to deposit a surety bond or irrevocable letter of credit" (§ 413-8E(2),
    # § 135-7D): the amount required at approval; the permit waits for it.
    surety_required = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    # Conditions added at approval (§ 135-7F), carried to the permit when it is issued.
    pending_conditions = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The decision clock as the core computes it from the events, kept here for the lists
    # (``stored_clocks``): recomputed in the transaction that writes an event moving it.
    decision_due = models.DateField(
        null=True,
        blank=True,
        db_index=True,
        help_text="the day the running review or re-review clock runs out; empty when none runs",
    )
    decision_clock = models.JSONField(
        default=dict,
        blank=True,
        help_text="the decision clock the application is on: kind, due, citation, what met it",
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=[s.value for s in ApplicationStatus]),
                name="application_status_known",
            ),
            models.CheckConstraint(
                condition=~Q(status="disapproved") | ~Q(decision_reasons=""),
                name="disapproval_has_written_reasons",
            ),
            models.CheckConstraint(
                condition=Q(status="draft") | Q(received_at__isnull=False),
                name="submitted_application_has_receipt_time",
            ),
        ]
        indexes = [
            models.Index(fields=["village", "status"]),
            # The review queue of a village, by the day a decision is due.
            models.Index(fields=["village", "decision_due"], name="application_queue_idx"),
            # The register's search by address: from the sites found to their applications'
            # ids, read off the index alone.
            models.Index(fields=["site", "id"], name="application_site_idx"),
        ]

    def __str__(self) -> str:
        return self.number


class InformationRequest(models.Model):
    application = models.ForeignKey(
        Application, on_delete=models.PROTECT, related_name="information_requests"
    )
    requested_at = models.DateTimeField()
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    message = models.TextField()
    received_at = models.DateTimeField(null=True, blank=True)
    response = models.TextField(blank=True)

    class Meta:
        ordering = ["requested_at"]

    def __str__(self) -> str:
        return str(f"information requested {self.requested_at:%Y-%m-%d}")


class DocumentKind(models.TextChoices):
    PLAN = "plan", "Control plan"
    PLAN_STATEMENT = "plan_statement", "Control plan statement"
    SITE_MAP = "site_map", "Site map"
    GEOJSON = "geojson", "Site geometry (GeoJSON)"
    INFORMATION = "information", "Information requested"
    PERMIT = "permit", "Permit"
    DISAPPROVAL_LETTER = "disapproval_letter", "Disapproval letter"
    SURETY_REQUIRED_LETTER = "surety_required_letter", "Approval subject to a surety"
    EXTENSION_LETTER = "extension_letter", "Extension letter"
    CLOSEOUT_LETTER = "closeout_letter", "Closeout letter"
    SURETY_RELEASE_LETTER = "surety_release_letter", "Surety release letter"
    OTHER = "other", "Other"


class Document(models.Model):
    application = models.ForeignKey(Application, on_delete=models.PROTECT, related_name="documents")
    kind = models.CharField(max_length=30, choices=DocumentKind.choices)
    file = models.FileField(upload_to="documents/%Y/%m/")
    original_name = models.CharField(max_length=255)
    content_type = models.CharField(max_length=100)
    size = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    uploaded_at = models.DateTimeField(auto_now_add=True)
    # A permit document replaced by a later one (after an extension) is kept, marked.
    superseded_by = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["uploaded_at"]

    def __str__(self) -> str:
        return str(self.original_name)


class PermitStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    CLOSED = "closed", "Closed at final stabilization"
    REVOKED = "revoked", "Revoked"


class Permit(models.Model):
    application = models.OneToOneField(Application, on_delete=models.PROTECT, related_name="permit")
    village = models.ForeignKey(Village, on_delete=models.PROTECT, related_name="permits")
    number = models.CharField(max_length=30, unique=True)
    issued_on = models.DateField()
    expires_on = models.DateField()
    status = models.CharField(max_length=20, choices=PermitStatus.choices, default="active")
    closed_on = models.DateField(null=True, blank=True)
    final_cover_percent = models.PositiveSmallIntegerField(null=True, blank=True)
    # New Glarus § 135-13: final stabilization is 70% perennial cover "or employment of
    # equivalent permanent stabilization measures"; what those measures were.
    final_stabilization_measures = models.TextField(blank=True, default="")
    # Conditions the authority adds to the permit where the chapter allows it
    # (New Glarus § 135-7F), one text per condition.
    added_conditions = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["-issued_on"]
        constraints = [
            models.CheckConstraint(
                condition=Q(expires_on__gt=models.F("issued_on")), name="expiry_after_issue"
            ),
            models.CheckConstraint(
                condition=Q(final_cover_percent__isnull=True) | Q(final_cover_percent__lte=100),
                name="cover_is_a_percentage",
            ),
        ]
        indexes = [
            # The permits in force of a village, by expiry (the staff's permits list).
            models.Index(fields=["village", "status", "expires_on"], name="permit_expiry_idx"),
            # The public register's order, newest first: a page is read off the index.
            models.Index(fields=["-issued_on", "-id"], name="permit_register_idx"),
        ]

    def __str__(self) -> str:
        return self.number

    def expired_on(self, day: datetime.date) -> bool:
        """Active in the register but past its last day on ``day`` (§ 413-8E(1),
        § 135-7G: valid "for a period of 180 days ..."): no permit any more."""
        return self.status == PermitStatus.ACTIVE and day > self.expires_on

    @property
    def standing(self) -> str:
        """What the permit is today, in words: an active permit past its last day is
        expired, not active."""
        if self.expired_on(timezone.localdate()):
            return "Expired"
        return str(self.get_status_display())


class PermitExtension(models.Model):
    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="extensions")
    days = models.PositiveSmallIntegerField()
    added_measures = models.TextField(blank=True)
    granted_on = models.DateField()
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    expires_before = models.DateField()
    expires_after = models.DateField()
    # The appeal whose decision restored the revoked permit and set its period (decision
    # 38); empty for an extension by the authority.
    on_appeal = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["granted_on", "id"]
        constraints = [
            # "for up to an additional 180 days" (§ 413-8E(1), § 135-7G)
            models.CheckConstraint(
                condition=Q(days__gte=1, days__lte=180), name="extension_at_most_180_days"
            ),
        ]

    def __str__(self) -> str:
        return str(f"{self.days} days granted {self.granted_on}")


class SuretyKind(models.TextChoices):
    BOND = "surety_bond", "Surety bond"
    LETTER_OF_CREDIT = "letter_of_credit", "Irrevocable letter of credit"


class Surety(models.Model):
    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="sureties")
    kind = models.CharField(max_length=30, choices=SuretyKind.choices)
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    issuer = models.CharField(max_length=200)
    reference = models.CharField(max_length=100)
    received_on = models.DateField()
    released_on = models.DateField(null=True, blank=True)
    # A letter of credit runs to a day; a bond may too.
    expires_on = models.DateField(null=True, blank=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="surety_positive")]

    def __str__(self) -> str:
        return str(f"{self.get_kind_display()} {self.reference}")

    @property
    def balance(self) -> Decimal:
        """What is left to draw on or release: the amount less what was drawn and released."""
        taken = sum((m.amount for m in self.movements.all()), Decimal(0))
        return self.amount - taken


class SuretyMovementKind(models.TextChoices):
    DRAW = "draw", "Drawn for the village's costs"
    RELEASE = "release", "Released"


class SuretyMovement(models.Model):
    """Money drawn on a surety, or released from it (in whole or in part)."""

    surety = models.ForeignKey(Surety, on_delete=models.PROTECT, related_name="movements")
    kind = models.CharField(max_length=10, choices=SuretyMovementKind.choices)
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    on = models.DateField()
    reason = models.TextField(blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["on", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="surety_movement_positive")
        ]

    def __str__(self) -> str:
        return str(f"{self.get_kind_display()} ${self.amount} on {self.on}")


class AmendmentStatus(models.TextChoices):
    REQUESTED = "requested", "Requested"
    APPROVED = "approved", "Approved in writing"
    DENIED = "denied", "Denied"


class PlanAmendment(models.Model):
    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="amendments")
    trigger = models.CharField(max_length=40)
    description = models.TextField()
    requested_on = models.DateField()
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    status = models.CharField(max_length=20, choices=AmendmentStatus.choices, default="requested")
    decided_on = models.DateField(null=True, blank=True)
    decision_reasons = models.TextField(blank=True)

    class Meta:
        ordering = ["requested_on", "id"]

    def __str__(self) -> str:
        return str(f"{self.trigger} amendment requested {self.requested_on}")


class TimelineEvent(models.Model):
    """What happened on a site, in the public contract's event shape; the core reads these."""

    # No index of its own: the index on (application, at) below serves every lookup by
    # application, and one index fewer is less to write for each of the rain sweep's rows.
    application = models.ForeignKey(
        Application, on_delete=models.PROTECT, related_name="timeline", db_index=False
    )
    type = models.CharField(max_length=60)
    at = models.DateTimeField()
    fields = models.JSONField(default=dict)
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["application", "at"])]

    def __str__(self) -> str:
        return f"{self.type} at {self.at.isoformat()}"

    def as_contract(self, zone: str) -> dict[str, object]:
        from zoneinfo import ZoneInfo

        local = self.at.astimezone(ZoneInfo(zone))
        return {"type": self.type, "at": local.isoformat(), **self.fields}
