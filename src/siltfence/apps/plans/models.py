"""A control plan as the applicant or staff saved it: one row per revision, never edited.

The plan itself is the JSON of ``docs/plan-format.md`` (its ``site`` a GeoJSON
FeatureCollection in WGS84). The areas beside it are what ``review_plan`` measured in
Wisconsin Transverse Mercator when the revision was saved: they are computed, never typed.
Rows are append-only in the database too (migration 0002): a save adds a revision.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from siltfence.apps.permits.models import Application


class ControlPlan(models.Model):
    application = models.ForeignKey(
        Application, on_delete=models.PROTECT, related_name="control_plans"
    )
    revision = models.PositiveIntegerField()
    plan = models.JSONField(help_text="the control plan, docs/plan-format.md")
    plan_sha256 = models.CharField(max_length=64)
    disturbed_area_ft2 = models.FloatField()
    area_disturbed_at_one_time_ft2 = models.FloatField()
    at_one_time_on = models.DateField(null=True, blank=True)
    evaluated_on = models.DateField(help_text="the date the plan was judged on when saved")
    summary = models.JSONField(default=dict, help_text="the report's counts when saved")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["application", "-revision"]
        constraints = [
            models.UniqueConstraint(
                fields=["application", "revision"], name="one_control_plan_per_revision"
            ),
            models.CheckConstraint(condition=Q(revision__gte=1), name="revision_from_one"),
            models.CheckConstraint(
                condition=Q(disturbed_area_ft2__gte=0, area_disturbed_at_one_time_ft2__gte=0),
                name="measured_areas_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"control plan of application {self.application_id}, revision {self.revision}"
