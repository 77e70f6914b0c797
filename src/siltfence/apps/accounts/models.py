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
