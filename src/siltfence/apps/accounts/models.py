"""Who may act where.

An applicant is any registered person; they see only their own applications and
permits. Staff (the administering authority), inspectors and appeals board members act
for a village only through a current ``Membership`` of that village: one not ended, and
within its term where one is set (decision 36).
"""

from __future__ import annotations

import datetime
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import models
from django.utils import timezone

from siltfence.presentation.today import village_zones


class Role(models.TextChoices):
    STAFF = "staff", "Staff (administering authority)"
    INSPECTOR = "inspector", "Inspector"
    APPEALS_BOARD = "appeals_board", "Appeals board member"


class BoardSeat(models.TextChoices):
    """An appeals board member's seat: a member (the chair among them), or an alternate, who
    sits only in place of a member absent or recused (``siltfence.core.board.sitting``). The
    number of seats and alternates is the village's data (``board`` in jurisdiction.yaml)."""

    MEMBER = "member", "Member"
    CHAIR = "chair", "Chair"
    FIRST_ALTERNATE = "first_alternate", "First alternate"
    SECOND_ALTERNATE = "second_alternate", "Second alternate"


def _in_term_on(day: datetime.date) -> models.Q:
    return (models.Q(term_start__isnull=True) | models.Q(term_start__lte=day)) & (
        models.Q(term_end__isnull=True) | models.Q(term_end__gte=day)
    )


def current_condition() -> models.Q:
    """The memberships that give access now: not ended, and today (in each village's own
    zone) within the term where one is set. Asked afresh each time, so a term whose last
    day has passed stops giving access at the village's midnight, with nothing to run."""
    default = str(settings.TIME_ZONE)
    zones = village_zones()
    elsewhere = [v for zone, villages in zones if zone != default for v in villages]
    today = timezone.now()
    condition = _in_term_on(today.astimezone(ZoneInfo(default)).date())
    if elsewhere:
        condition = ~models.Q(village_id__in=elsewhere) & condition
    for zone, villages in zones:
        if zone != default:
            day = today.astimezone(ZoneInfo(zone)).date()
            condition |= models.Q(village_id__in=sorted(villages)) & _in_term_on(day)
    return models.Q(ended_at__isnull=True) & condition


class CurrentMemberships(models.Manager["Membership"]):
    """Only the memberships that give access now. It is the default manager, so every
    reading of roles (``Membership.objects``, ``user.memberships``, their prefetches) leaves
    ended memberships and terms out of force without saying so (decision 36)."""

    def get_queryset(self) -> models.QuerySet[Membership]:
        return super().get_queryset().filter(current_condition())


class Membership(models.Model):
    """One person's role in one village. Ending it keeps the row, with when and by whom
    (``ended_at``, ``ended_by``): what the person did stays on the record, pointing at them.
    A term (``term_start`` to ``term_end``, both days included) limits the access too."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="memberships"
    )
    village = models.ForeignKey("permits.Village", on_delete=models.PROTECT, related_name="+")
    role = models.CharField(max_length=20, choices=Role.choices)
    # Only an appeals board member's seat is other than "member" (a chair or an alternate).
    board_seat = models.CharField(max_length=20, choices=BoardSeat.choices, default="member")
    term_start = models.DateField(null=True, blank=True)
    term_end = models.DateField(null=True, blank=True)
    # Empty for the memberships made before they were recorded.
    added_at = models.DateTimeField(null=True, blank=True)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )

    # Every row, ended or not: the people page's history and the admin site.
    all_objects = models.Manager()
    objects = CurrentMemberships()

    class Meta:
        default_manager_name = "objects"
        base_manager_name = "all_objects"
        constraints = [
            models.UniqueConstraint(
                fields=["user", "village", "role"],
                condition=models.Q(ended_at__isnull=True),
                name="one_open_role_per_village",
            ),
            models.CheckConstraint(
                condition=models.Q(role__in=[r.value for r in Role]), name="membership_role_known"
            ),
            models.CheckConstraint(
                condition=models.Q(term_start__isnull=True)
                | models.Q(term_end__isnull=True)
                | models.Q(term_end__gte=models.F("term_start")),
                name="membership_term_in_order",
            ),
            models.CheckConstraint(
                condition=models.Q(ended_by__isnull=True) | models.Q(ended_at__isnull=False),
                name="membership_ended_by_has_a_time",
            ),
            models.CheckConstraint(
                condition=models.Q(board_seat="member")
                | models.Q(
                    role=Role.APPEALS_BOARD.value,
                    board_seat__in=[s.value for s in BoardSeat],
                ),
                name="membership_board_seat_on_the_board",
            ),
        ]
        indexes = [models.Index(fields=["village", "role"], name="membership_village_role")]

    def __str__(self) -> str:
        ended = " (ended)" if self.ended_at else ""
        return f"{self.user} {self.role} of {self.village_id}{ended}"


class SignInFailures(models.Model):
    """Failed sign-ins (wrong passwords and wrong codes) for one username, from every
    address together: the per-account slowing of ``accounts.guessing``. Kept in the
    database, which every worker and every app server sees. The username is what was typed,
    whether or not such an account exists, so the answer never says which ones do."""

    username = models.CharField(max_length=150, unique=True)
    failures = models.PositiveIntegerField(default=0)
    last_failure_at = models.DateTimeField()

    class Meta:
        verbose_name_plural = "sign-in failures"
        indexes = [models.Index(fields=["last_failure_at"], name="sign_in_failures_last")]

    def __str__(self) -> str:
        return f"{self.username}: {self.failures} failed sign-ins"
