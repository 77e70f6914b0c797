"""Fill the stored decision clock of the applications filed before it was kept.

Each application's clock is computed by the core from its own events and its village's
office calendar, as ``stored_clocks`` does when an event lands."""

from collections import defaultdict

from django.db import migrations

CHUNK = 500


def fill(apps, schema_editor):
    from siltfence.apps.permits.stored_clocks import (
        clock_event_types,
        contract_event,
        decision_clock_of,
        decision_due_of,
    )
    from siltfence.core.ordinance.loader import load

    Application = apps.get_model("permits", "Application")
    TimelineEvent = apps.get_model("permits", "TimelineEvent")
    OfficeClosure = apps.get_model("permits", "OfficeClosure")

    closures = defaultdict(set)
    for village_id, day in OfficeClosure.objects.values_list("village_id", "day"):
        closures[village_id].add(day)
    ids = list(
        Application.objects.filter(received_at__isnull=False)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    for start in range(0, len(ids), CHUNK):
        rows = list(Application.objects.filter(pk__in=ids[start : start + CHUNK]))
        ordinances = {a.village_id: load(a.village_id) for a in rows}
        wanted = set().union(*(clock_event_types(o) for o in ordinances.values()))
        zone_of = {a.pk: ordinances[a.village_id].time_zone for a in rows}
        events = defaultdict(list)
        for application_id, kind, at, fields in (
            TimelineEvent.objects.filter(application_id__in=list(zone_of), type__in=wanted)
            .order_by("application_id", "at", "id")
            .values_list("application_id", "type", "at", "fields")
        ):
            events[application_id].append(contract_event(kind, at, fields, zone_of[application_id]))
        for application in rows:
            clock = decision_clock_of(
                application.village_id,
                events[application.pk],
                frozenset(closures[application.village_id]),
            )
            application.decision_clock = clock
            application.decision_due = decision_due_of(clock)
        Application.objects.bulk_update(rows, ["decision_clock", "decision_due"])


class Migration(migrations.Migration):
    dependencies = [("permits", "0003_application_decision_due")]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop, elidable=True)]
