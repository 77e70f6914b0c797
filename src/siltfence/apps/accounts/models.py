"""Who may act where.

An applicant is any registered person; they see only their own applications and
permits. Staff (the administering authority), inspectors and appeals board members act
for a village only through a ``Membership`` of that village.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Role(models.TextChoices):
    STAFF = "staff", "Staff (administering authority)"
    INSPECTOR = "inspector", "Inspector"
    APPEALS_BOARD = "appeals_board", "Appeals board member"


class Membership(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    village = models.ForeignKey("permits.Village", on_delete=models.PROTECT, related_name="+")
    role = models.CharField(max_length=20, choices=Role.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "village", "role"], name="one_role_per_village"
            ),
            models.CheckConstraint(
                condition=models.Q(role__in=[r.value for r in Role]), name="membership_role_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.role} of {self.village_id}"


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
