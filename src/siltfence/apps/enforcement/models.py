"""The enforcement record: cases, violations, orders, village work, its costs and bills.

A case is the enforcement file of one site: of a permit (its application's timeline holds
the events) or of a site with no permit (the case keeps its own events, in the same
contract shape). Models hold what happened; the core timeline says what is lawful when.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q


class EnforcementCase(models.Model):
    """The enforcement file of one site, with or without a permit."""

    village = models.ForeignKey(
        "permits.Village", on_delete=models.PROTECT, related_name="enforcement_cases"
    )
    number = models.CharField(max_length=30, unique=True)
    application = models.ForeignKey(
        "permits.Application",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="enforcement_cases",
    )
    address = models.CharField(max_length=300)
    parcel_number = models.CharField(max_length=60, blank=True)
    latitude = models.FloatField(null=True, blank=True)
    longitude = models.FloatField(null=True, blank=True)
    opened_at = models.DateTimeField()

    class Meta:
        ordering = ["-opened_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["application"],
                condition=Q(application__isnull=False),
                name="one_case_per_permit",
            ),
        ]

    def __str__(self) -> str:
        return self.number


class CaseEvent(models.Model):
    """An event of a case with no permit, in the contract's shape (a permit's case records
    its events on the application's timeline instead)."""

    case = models.ForeignKey(EnforcementCase, on_delete=models.PROTECT, related_name="events")
    type = models.CharField(max_length=60)
    at = models.DateTimeField()
    fields = models.JSONField(default=dict)
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.type} at {self.at.isoformat()}"

    def as_contract(self, zone: str) -> dict[str, object]:
        from zoneinfo import ZoneInfo

        local = self.at.astimezone(ZoneInfo(zone))
        return {"type": self.type, "at": local.isoformat(), **self.fields}


class ViolationSource(models.TextChoices):
    INSPECTION = "inspection", "Municipal inspection"
    OBSERVATION = "observation", "Staff observation"
    COMPLAINT = "complaint", "Public complaint"


class ViolationStatus(models.TextChoices):
    REPORTED = "reported", "Reported, waiting for staff review"
    FOUND = "found", "Found by staff"
    DISMISSED = "dismissed", "Dismissed after review"


class ViolatorRole(models.TextChoices):
    """What the person who violated the chapter is to the site: § 413-11 and § 135-11 bind
    anyone, with or without a permit. Not ``permits.PartyRole``, the people an application
    names so that its notices reach them (the landowner, the contractor, the engineer)."""

    PERMITTEE = "permittee", "Permittee"
    LANDOWNER = "landowner", "Landowner"
    LAND_USER = "land_user", "Land user"
    AGENT = "agent", "Agent"
    EMPLOYEE = "employee", "Employee"
    SUBCONTRACTOR = "subcontractor", "Subcontractor"
    HAULER = "hauler", "Hauler"
    OTHER = "other", "Other person"
    UNKNOWN = "unknown", "Not yet known"


class Violation(models.Model):
    village = models.ForeignKey("permits.Village", on_delete=models.PROTECT, related_name="+")
    case = models.ForeignKey(
        EnforcementCase, null=True, blank=True, on_delete=models.PROTECT, related_name="violations"
    )
    source = models.CharField(max_length=20, choices=ViolationSource.choices)
    status = models.CharField(max_length=20, choices=ViolationStatus.choices)
    party_name = models.CharField(max_length=200, blank=True)
    party_role = models.CharField(max_length=20, choices=ViolatorRole.choices, default="unknown")
    provision = models.CharField(
        max_length=60,
        blank=True,
        help_text="the section of the village's chapter that was broken, as the chapter cites it",
    )
    provision_heading = models.CharField(max_length=200, blank=True)
    description = models.TextField()
    days_from = models.DateField()
    days_to = models.DateField(null=True, blank=True)  # open while the violation continues
    address = models.CharField(max_length=300, blank=True)
    latitude = models.FloatField(null=True, blank=True)
    longitude = models.FloatField(null=True, blank=True)
    found_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reported_at = models.DateTimeField()
    # A complainant's contact details: private, shown to the village's staff only.
    complainant_name = models.CharField(max_length=200, blank=True)
    complainant_email = models.EmailField(blank=True)
    complainant_phone = models.CharField(max_length=40, blank=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    review_note = models.TextField(blank=True)

    class Meta:
        ordering = ["-reported_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(days_to__isnull=True) | Q(days_to__gte=models.F("days_from")),
                name="violation_ends_after_it_begins",
            ),
            models.CheckConstraint(
                condition=~Q(status="found") | Q(case__isnull=False),
                name="found_violation_has_a_case",
            ),
        ]
        indexes = [models.Index(fields=["village", "status"])]

    def __str__(self) -> str:
        return f"violation {self.pk} from {self.days_from}"

    @property
    def event_id(self) -> str:
        return f"violation-{self.pk}"


class ViolationPhoto(models.Model):
    violation = models.ForeignKey(Violation, on_delete=models.PROTECT, related_name="photos")
    file = models.FileField(upload_to="evidence/%Y/%m/")
    original_name = models.CharField(max_length=255)
    content_type = models.CharField(max_length=100)
    size = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)
    uploaded_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return str(self.original_name)


class ActionKind(models.TextChoices):
    STOP_WORK_ORDER = "stop_work_order", "Stop-work order"
    REVOCATION = "revocation", "Permit revoked"
    NOTICE_TO_CEASE = "notice_to_cease", "Notice to cease"
    # A courtesy the chapters do not require: no step counts from it (decision 54).
    WARNING_LETTER = "warning_letter", "Warning letter (not required by the chapter)"
    CEASE_AND_DESIST_REFERRAL = "cease_and_desist_referral", "Cease-and-desist referral"
    COMPLIANCE = "compliance", "Compliance achieved"
    RETRACTION = "retraction", "Order retracted"
    NOTICE_OF_INTENT = "notice_of_intent", "Notice of intent"
    VILLAGE_WORK = "village_work", "Village work begun"
    INVOICE = "invoice", "Invoice for village work"
    COSTS_UNPAID = "costs_unpaid", "Costs unpaid"
    CERTIFICATION = "certification", "Certified to the tax roll"
    INJUNCTION_REFERRAL = "injunction_referral", "Injunction referral"
    PROSECUTION_REFERRAL = "prosecution_referral", "Forfeiture prosecution referral"


class EnforcementAction(models.Model):
    """One enforcement step taken, with its section, its grounds and its document."""

    case = models.ForeignKey(EnforcementCase, on_delete=models.PROTECT, related_name="actions")
    kind = models.CharField(max_length=40, choices=ActionKind.choices)
    at = models.DateTimeField()
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    citation = models.CharField(max_length=60)
    grounds = models.JSONField(default=list, blank=True)  # [{id, citation, says}]
    details = models.JSONField(default=dict, blank=True)
    note = models.TextField(blank=True)  # internal; never public
    public = models.BooleanField(default=True)  # shown on the public register

    class Meta:
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["case", "kind"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.at:%Y-%m-%d}"


class EnforcementDocument(models.Model):
    """A document the village issued in a case (placard, notice, bill, certification...)."""

    case = models.ForeignKey(EnforcementCase, on_delete=models.PROTECT, related_name="documents")
    action = models.ForeignKey(
        EnforcementAction, null=True, on_delete=models.PROTECT, related_name="documents"
    )
    kind = models.CharField(max_length=40)
    file = models.FileField(upload_to="enforcement/%Y/%m/")
    name = models.CharField(max_length=255)
    size = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return self.name


class ServiceMethod(models.TextChoices):
    """How a document reached the person it is for. Neither chapter names a way but
    posting (§ 413-10A, § 135-11A): each way is recorded as it happened, and the readings
    of decision 46 say which counts for what."""

    POSTED_ON_SITE = "posted_on_site", "Posted on the site"
    HANDED_OVER = "handed_over", "Handed to the person"
    MAILED_FIRST_CLASS = "mailed_first_class", "Mailed, first class"
    MAILED_CERTIFIED = "mailed_certified", "Mailed, certified"
    EMAILED = "emailed", "Emailed"


MAILED = ("mailed_first_class", "mailed_certified")


class ServiceRecord(models.Model):
    """How, when, by whom and to whom one document was served, as the village's staff or
    inspector recorded it. Never changed: a received day learned later is added once."""

    document = models.ForeignKey(
        EnforcementDocument, on_delete=models.PROTECT, related_name="services"
    )
    method = models.CharField(max_length=20, choices=ServiceMethod.choices)
    # Posted, handed over, or sent (mailed or emailed).
    served_at = models.DateTimeField()
    served_by = models.CharField(max_length=200)
    # To whom: a party named on the application, or a name typed for a site with none.
    party = models.ForeignKey(
        "permits.Party", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    to_name = models.CharField(max_length=200)
    # The mailing address it was mailed to, as it was then (mail only).
    street = models.CharField(max_length=200, blank=True)
    city = models.CharField(max_length=100, blank=True)
    state = models.CharField(max_length=2, blank=True)
    zip_code = models.CharField(max_length=10, blank=True)
    email = models.CharField(max_length=254, blank=True)
    certified_number = models.CharField(max_length=22, blank=True)
    # The day a mailed or emailed document is shown to have reached the person.
    received_on = models.DateField(null=True, blank=True)
    received_how = models.CharField(max_length=300, blank=True)
    note = models.CharField(max_length=1000, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["served_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(method__in=[m.value for m in ServiceMethod]),
                name="service_method_known",
            ),
            models.CheckConstraint(
                condition=~Q(method__in=MAILED) | (~Q(street="") & ~Q(zip_code="")),
                name="mail_has_an_address",
            ),
            models.CheckConstraint(
                condition=~Q(method="mailed_certified") | ~Q(certified_number=""),
                name="certified_mail_has_its_number",
            ),
            models.CheckConstraint(
                condition=~Q(method="emailed") | ~Q(email=""),
                name="email_has_an_address",
            ),
            models.CheckConstraint(
                condition=Q(received_on__isnull=True) | Q(method__in=[*MAILED, "emailed"]),
                name="received_only_for_mail_or_email",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_method_display()} {self.served_at:%Y-%m-%d}"

    @property
    def event_id(self) -> str:
        return f"service-{self.pk}"

    def mailing_lines(self) -> list[str]:
        if not self.street:
            return []
        return [self.street, f"{self.city}, {self.state} {self.zip_code}"]


class CostCategory(models.TextChoices):
    LABOUR = "labour", "Labour"
    EQUIPMENT = "equipment", "Equipment"
    MATERIALS = "materials", "Materials"
    CONTRACTS = "contracts", "Contracts"


class WorkCost(models.Model):
    """A cost of the work the village did on the land (§ 413-10E, § 135-11E)."""

    case = models.ForeignKey(EnforcementCase, on_delete=models.PROTECT, related_name="costs")
    category = models.CharField(max_length=20, choices=CostCategory.choices)
    description = models.CharField(max_length=300)
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    incurred_on = models.DateField()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    invoice = models.ForeignKey(
        "Invoice", null=True, blank=True, on_delete=models.PROTECT, related_name="costs"
    )
    recorded_at = models.DateTimeField(null=True, blank=True)
    # A cost entered wrong is never changed or deleted: a new entry corrects it, with its
    # reason, and the one it corrects stays on the record, marked corrected. Only the
    # entries not corrected count (the case's costs, the invoice's total).
    corrects = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="correction"
    )
    reason = models.CharField(max_length=500, blank=True, default="", db_default="")

    class Meta:
        ordering = ["incurred_on", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(amount__gt=0) | Q(corrects__isnull=False, amount__gte=0),
                name="cost_positive_unless_corrected_to_nothing",
            ),
            models.CheckConstraint(
                condition=Q(corrects__isnull=True) | ~Q(reason=""),
                name="cost_correction_has_its_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.category} ${self.amount}"


class Invoice(models.Model):
    case = models.ForeignKey(EnforcementCase, on_delete=models.PROTECT, related_name="invoices")
    number = models.CharField(max_length=30, unique=True)
    issued_on = models.DateField()
    due_on = models.DateField()
    principal = models.DecimalField(max_digits=12, decimal_places=2)
    # The rate the authority set, in force on the issue date; null: no rate was set, and
    # the bill says that no interest is charged (docs/decisions).
    interest_rate_percent = models.DecimalField(
        max_digits=6, decimal_places=3, null=True, blank=True
    )
    interest_authority = models.CharField(max_length=200, blank=True)
    paid_amount = models.DecimalField(max_digits=12, decimal_places=2, default=0)
    paid_on = models.DateField(null=True, blank=True)
    certified_on = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["-issued_on", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(principal__gt=0), name="invoice_positive"),
            models.CheckConstraint(condition=Q(due_on__gte=models.F("issued_on")), name="due"),
        ]

    def __str__(self) -> str:
        return self.number


class LetterWording(models.Model):
    """The village's own words on one kind of letter to the parties: an opening after its
    heading and a closing before its signature. What the chapter requires (the section, the
    waiting periods, the remedy, the appeal) is written by the letter itself and cannot be
    edited out: the wording is only added (decision 55)."""

    village = models.ForeignKey("permits.Village", on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=40)
    opening = models.TextField(blank=True, default="")
    closing = models.TextField(blank=True, default="")
    updated_at = models.DateTimeField()

    class Meta:
        ordering = ["village", "kind"]
        constraints = [
            models.UniqueConstraint(fields=["village", "kind"], name="one_wording_a_letter")
        ]

    def __str__(self) -> str:
        return f"{self.village_id} {self.kind}"


class InterestRate(models.Model):
    """The annual interest rate the authority set on unpaid village-work costs, from a date."""

    village = models.ForeignKey("permits.Village", on_delete=models.PROTECT, related_name="+")
    effective_from = models.DateField()
    annual_percent = models.DecimalField(max_digits=6, decimal_places=3)
    authority = models.CharField(max_length=200)

    class Meta:
        ordering = ["-effective_from"]
        constraints = [
            models.UniqueConstraint(fields=["village", "effective_from"], name="one_rate_a_date"),
            models.CheckConstraint(
                condition=Q(annual_percent__gte=0, annual_percent__lte=100), name="rate_percent"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.annual_percent}% from {self.effective_from}"


class ForfeitureSchedule(models.Model):
    """Forfeiture amounts a village set outside the chapter (Spencer: Code § 1-3), from a date."""

    village = models.ForeignKey("permits.Village", on_delete=models.PROTECT, related_name="+")
    effective_from = models.DateField()
    per_day_min = models.DecimalField(max_digits=10, decimal_places=2)
    per_day_max = models.DecimalField(max_digits=10, decimal_places=2)
    authority = models.CharField(max_length=200)

    class Meta:
        ordering = ["-effective_from"]
        constraints = [
            models.UniqueConstraint(
                fields=["village", "effective_from"], name="one_forfeiture_a_date"
            ),
            models.CheckConstraint(
                condition=Q(per_day_min__gte=0, per_day_max__gte=models.F("per_day_min")),
                name="forfeiture_range",
            ),
        ]

    def __str__(self) -> str:
        return f"${self.per_day_min}-${self.per_day_max} from {self.effective_from}"


class ComplaintSlot(models.Model):
    """One of the few sends of a public form (a complaint, a registration) one address may
    make in a clock hour; ``client`` names the form and the address. The unique constraint
    makes taking a slot atomic, in every worker process at once: the limit holds however
    many requests arrive together."""

    client = models.CharField(max_length=64)
    hour = models.DateTimeField()
    slot = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["client", "hour", "slot"], name="one_complaint_a_slot")
        ]

    def __str__(self) -> str:
        return f"{self.client} {self.hour:%Y-%m-%d %H}:00 #{self.slot}"

    @classmethod
    def take(cls, client: str, per_hour: int) -> ComplaintSlot | None:
        """Take one of ``client``'s ``per_hour`` slots of the current clock hour; None when
        all are taken. The slots of hours gone by are cleared as it goes."""
        from django.db import IntegrityError, transaction
        from django.utils import timezone

        client = client[:64]
        hour = timezone.now().replace(minute=0, second=0, microsecond=0)
        cls.objects.filter(hour__lt=hour - datetime.timedelta(hours=1)).delete()
        for number in range(1, per_hour + 1):
            try:
                with transaction.atomic():
                    return cls.objects.create(client=client, hour=hour, slot=number)
            except IntegrityError:
                continue
        return None
