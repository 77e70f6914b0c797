"""Appeals to the village's appeals board, and variances (§ 413-12, § 135-12).

An appeal names the decision appealed: an enforcement step of a case (a stop-work order,
a revocation...) or the decision on an application. Hearing, notice and the board's
decision are recorded on it; the decision document is kept with it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class AppealKind(models.TextChoices):
    APPEAL = "appeal", "Appeal of an order, decision or determination"
    VARIANCE = "variance", "Variance"


class AppealStatus(models.TextChoices):
    FILED = "filed", "Filed, hearing not yet set"
    SCHEDULED = "scheduled", "Hearing scheduled"
    DECIDED = "decided", "Decided"


class Decision(models.TextChoices):
    AFFIRM = "affirm", "Affirmed"
    REVERSE = "reverse", "Reversed"
    MODIFY = "modify", "Modified"
    GRANT = "grant", "Variance granted"
    DENY = "deny", "Variance denied"


class Appeal(models.Model):
    village = models.ForeignKey("permits.Village", on_delete=models.PROTECT, related_name="+")
    number = models.CharField(max_length=30, unique=True)
    kind = models.CharField(max_length=20, choices=AppealKind.choices, default="appeal")
    case = models.ForeignKey(
        "enforcement.EnforcementCase",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="appeals",
    )
    action = models.ForeignKey(
        "enforcement.EnforcementAction",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="appeals",
    )
    application = models.ForeignKey(
        "permits.Application",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="appeals",
    )
    decision_appealed = models.CharField(max_length=300)
    appellant_name = models.CharField(max_length=200)
    appellant_standing = models.CharField(max_length=40)
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    filed_on = models.DateField()
    grounds = models.TextField()
    status = models.CharField(max_length=20, choices=AppealStatus.choices, default="filed")
    hearing_at = models.DateTimeField(null=True, blank=True)
    hearing_place = models.CharField(max_length=200, blank=True)
    notice_given_on = models.DateField(null=True, blank=True)
    notice_to = models.CharField(max_length=300, blank=True)
    decision = models.CharField(max_length=20, choices=Decision.choices, blank=True)
    decision_reasons = models.TextField(blank=True)
    modification = models.TextField(blank=True)
    findings = models.JSONField(default=dict, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decision_document = models.FileField(upload_to="appeals/%Y/%m/", blank=True)
    decision_sha256 = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["-filed_on", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(status="decided") | (~Q(decision="") & ~Q(decision_reasons="")),
                name="decision_has_written_reasons",
            ),
            models.CheckConstraint(
                condition=Q(action__isnull=False)
                | Q(application__isnull=False)
                | Q(kind="variance"),
                name="appeal_names_a_decision",
            ),
        ]
        indexes = [models.Index(fields=["village", "status"])]

    def __str__(self) -> str:
        return self.number
