"""The steps already taken go on the timeline, so the chapter's steps are not offered again.

A referral to the attorney, village work begun and a certification to the tax roll were
recorded as actions only; the duties engine now reads ``cease_and_desist_requested``,
``village_work_begun`` and ``special_assessment_certified`` events to leave a step taken out
of what the chapter allows. This adds the event for each such action recorded before, once
(an event with the action's id is not added again). The stored duties notice the new events
(their event count changes) and are recomputed by the next sweep.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

EVENTS = {
    "cease_and_desist_referral": ("cease_and_desist_requested", "referral-{pk}"),
    "village_work": ("village_work_begun", "work-{pk}"),
    "certification": ("special_assessment_certified", None),  # the invoice's number
}


def forwards(apps: Any, schema_editor: Any) -> None:
    action_model = apps.get_model("enforcement", "EnforcementAction")
    case_event = apps.get_model("enforcement", "CaseEvent")
    timeline_event = apps.get_model("permits", "TimelineEvent")
    for action in action_model.objects.filter(kind__in=list(EVENTS)).select_related("case"):
        kind, pattern = EVENTS[action.kind]
        ident = pattern.format(pk=action.pk) if pattern else str(action.details.get("invoice", ""))
        fields = {"id": ident} if ident else {}
        case = action.case
        if case.application_id is not None:
            rows = timeline_event.objects.filter(application_id=case.application_id, type=kind)
            if not any(r.fields.get("id") == ident for r in rows):
                timeline_event.objects.create(
                    application_id=case.application_id, type=kind, at=action.at, fields=fields
                )
        else:
            rows = case_event.objects.filter(case=case, type=kind)
            if not any(r.fields.get("id") == ident for r in rows):
                case_event.objects.create(case=case, type=kind, at=action.at, fields=fields)


class Migration(migrations.Migration):
    dependencies = [
        ("enforcement", "0001_initial"),
        ("permits", "0006_village_clocks_inputs"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
