"""Appeals to the village's appeals board, and variances (§ 413-12, § 135-12).

An appeal names the decision appealed: an enforcement step of a case (a stop-work order,
a revocation...) or the decision on an application. Hearing, notice and the board's
decision are recorded on it; the decision document is kept with it.

The board decides as a board: each sitting of a hearing (``Hearing``) records the roll
(``Attendance``: present, absent, or recused with the reason; who sits), whether it had a
quorum, and each motion (``Motion``) with each seated member's ``Vote``. Only a motion that
carries decides the appeal.
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
    # No motion carried: the board had a quorum, and the motion to reverse, modify or grant
    # did not get the votes the village's rule needs, so the decision appealed stands.
    NOT_REVERSED = "not_reversed", "Not reversed: too few concurring votes"
    NOT_GRANTED = "not_granted", "Variance not granted: too few concurring votes"


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


class Presence(models.TextChoices):
    PRESENT = "present", "Present"
    ABSENT = "absent", "Absent"
    RECUSED = "recused", "Recused (refused to vote because of an interest)"


class VoteChoice(models.TextChoices):
    FOR = "for", "For"
    AGAINST = "against", "Against"
    ABSTAIN = "abstain", "Abstained"


class Hearing(models.Model):
    """One sitting of the board on one appeal: the roll as called, and the quorum as the
    village's data then counted it (kept, so a later change of the data does not rewrite
    the minutes). A sitting with no quorum decides nothing: the hearing is continued."""

    appeal = models.ForeignKey(Appeal, on_delete=models.PROTECT, related_name="hearings")
    village = models.ForeignKey("permits.Village", on_delete=models.PROTECT, related_name="+")
    held_at = models.DateTimeField()
    place = models.CharField(max_length=200, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField()
    seats = models.PositiveSmallIntegerField()
    quorum = models.PositiveSmallIntegerField()
    seated = models.PositiveSmallIntegerField()
    has_quorum = models.BooleanField()
    quorum_says = models.TextField()  # "Quorum: 5 of 5 seats filled; ..." with the sections
    # The board's rule as applied (the village's ``board`` data), with its citations.
    rule = models.JSONField(default=dict)

    class Meta:
        ordering = ["held_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["appeal", "held_at"], name="one_sitting_per_hearing"),
            models.CheckConstraint(
                condition=Q(has_quorum=True, seated__gte=models.F("quorum"))
                | Q(has_quorum=False, seated__lt=models.F("quorum")),
                name="hearing_quorum_counted",
            ),
            models.CheckConstraint(
                condition=Q(seated__lte=models.F("seats")), name="hearing_seated_within_seats"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.appeal.number} heard {self.held_at:%Y-%m-%d}"


class Attendance(models.Model):
    """One board member or alternate on the roll of a sitting."""

    hearing = models.ForeignKey(Hearing, on_delete=models.PROTECT, related_name="roll")
    membership = models.ForeignKey(
        "accounts.Membership", on_delete=models.PROTECT, related_name="+"
    )
    person = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    name = models.CharField(max_length=200)  # as the minutes name them
    seat = models.CharField(max_length=20)  # accounts BoardSeat, as held on the day
    status = models.CharField(max_length=10, choices=Presence.choices)
    reason = models.CharField(max_length=300, blank=True)  # why recused
    seated = models.BooleanField(default=False)
    why_seated = models.CharField(max_length=200, blank=True)  # an alternate's

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["hearing", "person"], name="one_roll_line_a_person"),
            models.CheckConstraint(
                condition=~Q(status="recused") | ~Q(reason=""), name="recusal_has_a_reason"
            ),
            models.CheckConstraint(
                condition=Q(seated=False) | Q(status="present"), name="only_the_present_sit"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name}: {self.status}"


class Motion(models.Model):
    """A motion put to the vote at a sitting, its votes counted under the village's rule.
    A carried motion decided the appeal; a failed one left the decision appealed as it was."""

    hearing = models.ForeignKey(Hearing, on_delete=models.PROTECT, related_name="motions")
    number = models.PositiveSmallIntegerField()  # its order in the sitting
    kind = models.CharField(max_length=20, choices=Decision.choices)
    voted_at = models.DateTimeField()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField()
    reasons = models.TextField()  # the grounds the motion states
    modification = models.TextField(blank=True)
    findings = models.JSONField(default=dict, blank=True)
    retracts = models.BooleanField(default=False)
    restored_until = models.DateField(null=True, blank=True)
    votes_for = models.PositiveSmallIntegerField()
    votes_against = models.PositiveSmallIntegerField()
    abstained = models.PositiveSmallIntegerField()
    needed = models.PositiveSmallIntegerField()
    needs = models.CharField(max_length=100)  # the rule in words: "4 concurring votes"
    carried = models.BooleanField()
    outcome = models.TextField()  # the sentence, with the sections

    class Meta:
        ordering = ["hearing__held_at", "number"]
        constraints = [
            models.UniqueConstraint(fields=["hearing", "number"], name="motion_numbered_once"),
            # A tie, or too few votes for it, never carries a motion.
            models.CheckConstraint(
                condition=Q(carried=False)
                | (
                    Q(votes_for__gte=models.F("needed"))
                    & Q(votes_for__gt=models.F("votes_against"))
                ),
                name="a_carried_motion_has_its_votes",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hearing} motion {self.number} to {self.kind}"


class Vote(models.Model):
    motion = models.ForeignKey(Motion, on_delete=models.PROTECT, related_name="votes")
    attendance = models.ForeignKey(Attendance, on_delete=models.PROTECT, related_name="votes")
    vote = models.CharField(max_length=10, choices=VoteChoice.choices)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["motion", "attendance"], name="one_vote_a_member"),
        ]

    def __str__(self) -> str:
        return f"{self.attendance.name}: {self.vote}"
