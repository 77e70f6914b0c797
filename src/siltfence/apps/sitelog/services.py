"""Writes of the site log. Each entry is one transaction: the timeline event the law counts
from, the log entry with its findings and photos, and the audit record; then the permit's
stored duties are recomputed (only this permit's)."""

from __future__ import annotations

import datetime
import hashlib
import uuid
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone

from siltfence.apps.accounts.rules import is_applicant_of
from siltfence.apps.audit.chain import event_record
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import Permit, PermitStatus, TimelineEvent
from siltfence.apps.permits.uploads import checked_upload
from siltfence.apps.sitelog.models import EntryKind, SiteLogEntry, SiteLogPhoto
from siltfence.apps.sitelog.selectors import after_last_day
from siltfence.core.errors import SiltfenceError
from siltfence.core.ordinance.loader import load
from siltfence.core.timeline.events import parse_events, parse_moment

NOT_PERMITTEE = "permit: only the permittee keeps this permit's site log"
NOT_ACTIVE = "permit: the permit is {status}; its site log is closed"
FUTURE = "at: {at} is in the future; record what happened, when it happened"
BEFORE_PERMIT = "at: {at} is before the application was filed ({made})"
TOO_LONG = "{field}: at most {limit} characters"
REQUIRED = "{field}: {what} is required for this entry"
NOT_A_PHOTO = "photos: {name} is not a photo (a JPEG or PNG is expected)"
MAX_PHOTOS = 6

LIMITS = {
    "inspector": 200,
    "phase": 200,
    "measure": 60,
    "area": 60,
    "findings": 5000,
    "repairs": 5000,
    "evidence": 5000,
}

# What each kind of entry needs, in words a contractor knows.
NEEDS = {
    EntryKind.SELF_INSPECTION: {
        "inspector": "the name of the person inspecting",
        "phase": "the phase of construction",
    },
    EntryKind.MEASURE_INSTALLED: {"measure": "which control measure (its name on the plan)"},
    EntryKind.COMPLETION_NOTICE: {"measure": "which control measure (its name on the plan)"},
    EntryKind.AREA_INACTIVE: {"area": "which area (its name on the plan)"},
    EntryKind.AREA_STABILIZED: {"area": "which area (its name on the plan)"},
    EntryKind.NO_RUNOFF: {"evidence": "what shows that no runoff left the site"},
}


@dataclass(frozen=True)
class Photo:
    name: str
    content: bytes
    content_type: str


# The gap whose reading lets the permittee's record of no runoff lift the inspection after
# rain (decision 14). A chapter without it asks for the inspection after every such rain.
RUNOFF_READING = "rain-runoff"
NOT_OFFERED = "kind: {kind} changes nothing under this chapter; choose another entry"


def entry_kinds(ordinance: Any) -> list[tuple[str, str]]:
    """The entries the village's site log offers: "A rain caused no runoff" only where the
    chapter's inspection after rain depends on runoff (New Glarus § 135-7E(7)); Spencer's
    § 413-8E(3)(g) has no runoff condition, so the record would have no effect there."""
    runoff_counts = any(g.get("id") == RUNOFF_READING for g in ordinance.rules.get("gaps", []))
    return [
        (value, label)
        for value, label in EntryKind.choices
        if value != EntryKind.NO_RUNOFF or runoff_counts
    ]


def _clean(data: dict[str, Any]) -> dict[str, str]:
    """Names and ids on one line; findings, repairs and evidence as written."""
    cleaned = {}
    for field, limit in LIMITS.items():
        # Control characters (a NUL byte, which PostgreSQL refuses to store) are dropped.
        raw = "".join(ch for ch in str(data.get(field) or "") if ch in "\n\t" or ch >= " ")
        value = " ".join(raw.split()) if limit <= 200 else raw.strip()
        if len(value) > limit:
            raise ActionRefused(TOO_LONG.format(field=field, limit=limit), field=field)
        cleaned[field] = value
    return cleaned


def _event(kind: str, at: str, values: dict[str, str], ident: str) -> dict[str, Any]:
    event: dict[str, Any] = {"at": at, "id": ident}
    if kind == EntryKind.NO_RUNOFF:
        # The permittee's word that the storm of that day caused no runoff (New Glarus
        # § 135-7E(7) asks for an inspection only after rain "which results in runoff"):
        # a rain record of no amount, saying runoff: false, with the evidence in the log.
        event.update(type="rain", inches=0, runoff=False)
    else:
        event["type"] = kind
    if kind == EntryKind.SELF_INSPECTION:
        event.update(inspector=values["inspector"], phase=values["phase"])
    if kind in (EntryKind.MEASURE_INSTALLED, EntryKind.COMPLETION_NOTICE):
        event["measure"] = values["measure"]
    if kind in (EntryKind.AREA_INACTIVE, EntryKind.AREA_STABILIZED):
        event["area"] = values["area"]
    return event


def site_log_record(
    *,
    permit: Permit,
    user: Any,
    kind: str,
    at: str,
    data: dict[str, Any],
    photos: list[Photo],
    client_token: str,
    now: datetime.datetime | None = None,
) -> SiteLogEntry:
    """Record one log entry. A draft sent twice (the same ``client_token``) is recorded
    once: the second call returns the first entry."""
    if not is_applicant_of(user, permit):
        raise ActionRefused(NOT_PERMITTEE, field="permit")
    if permit.status != PermitStatus.ACTIVE:
        raise ActionRefused(
            NOT_ACTIVE.format(status=permit.get_status_display().lower()), field="permit"
        )
    token = "".join(
        c for c in str(client_token or "") if c.isascii() and (c.isalnum() or c in "-_")
    )
    token = token[:64] or uuid.uuid4().hex
    existing = SiteLogEntry.objects.filter(permit=permit, client_token=token).first()
    if existing is not None:
        return existing
    if kind not in EntryKind.values:
        raise ActionRefused("kind: choose what you are recording from the list", field="kind")
    if kind not in dict(entry_kinds(load(permit.village_id))):
        raise ActionRefused(NOT_OFFERED.format(kind=EntryKind(kind).label), field="kind")
    values = _clean(data)
    for field, what in NEEDS.get(EntryKind(kind), {}).items():
        if not values[field]:
            raise ActionRefused(REQUIRED.format(field=field, what=what), field=field)
    ordinance = load(permit.village_id)
    zone = ZoneInfo(ordinance.time_zone)
    try:
        moment, _ = parse_moment(str(at or "").strip(), "at", zone)
    except SiltfenceError as exc:
        raise ActionRefused(str(exc), field="at") from None
    current = (now or timezone.now()).astimezone(zone)
    if moment > current + datetime.timedelta(minutes=5):
        raise ActionRefused(FUTURE.format(at=moment.strftime("%Y-%m-%d %H:%M")), field="at")
    made = (permit.application.received_at or permit.application.created_at).astimezone(zone)
    if moment < made - datetime.timedelta(days=1):
        raise ActionRefused(
            BEFORE_PERMIT.format(at=moment.date().isoformat(), made=made.date().isoformat()),
            field="at",
        )
    if len(photos) > MAX_PHOTOS:
        raise ActionRefused(f"photos: at most {MAX_PHOTOS} photos an entry", field="photos")
    checked = []
    for photo in photos:
        found = checked_upload(
            name=photo.name, content=photo.content, claimed_type=photo.content_type, kind="photo"
        )
        if not found.content_type.startswith("image/"):
            raise ActionRefused(NOT_A_PHOTO.format(name=found.display_name), field="photos")
        checked.append((photo, found))
    ident = f"log-{token[:24]}"
    event = _event(kind, moment.isoformat(), values, ident)
    try:
        parsed = parse_events([event], zone)[0]  # the core's own check of the event
    except SiltfenceError as exc:
        message = str(exc).replace("events[0].", "")
        raise ActionRefused(message, field=(exc.field or "").replace("events[0].", "")) from None
    with transaction.atomic():
        locked = Permit.objects.select_for_update().get(pk=permit.pk)
        if SiteLogEntry.objects.filter(permit=locked, client_token=token).exists():
            return SiteLogEntry.objects.get(permit=locked, client_token=token)
        fields = {k: v for k, v in event.items() if k not in ("type", "at")}
        timeline_event = TimelineEvent.objects.create(
            application_id=locked.application_id,
            type=parsed.type,
            at=parsed.at,
            fields=fields,
        )
        entry = SiteLogEntry.objects.create(
            permit=locked,
            kind=kind,
            at=parsed.at,
            timeline_event=timeline_event,
            recorded_by=user,
            client_token=token,
            **values,
        )
        for photo, found in checked:
            stored = SiteLogPhoto(
                entry=entry,
                original_name=found.display_name,
                content_type=found.content_type,
                size=len(photo.content),
                sha256=hashlib.sha256(photo.content).hexdigest(),
            )
            stored.file.save(
                f"{uuid.uuid4().hex}{found.extension}", ContentFile(photo.content), save=False
            )
            stored.save()
        after: dict[str, Any] = {
            "entry": entry.pk,
            "event": {"type": parsed.type, "at": parsed.at.isoformat(), **fields},
            "photos": [p.sha256 for p in entry.photos.all()],
            **{k: v for k, v in values.items() if v},
        }
        if after_last_day(locked, parsed.at):
            # Kept, never refused (the record of what happened), and flagged: an expired
            # permit is no permit, so this is work without a permit (§ 413-8A, § 135-7A).
            # The village's staff are told (the outbox's ``FLAGGED`` notices).
            after["without_permit"] = {
                "day": parsed.at.astimezone(zone).date().isoformat(),
                "last_day": locked.expires_on.isoformat(),
                "citation": ordinance.rules["permit"]["required"]["citation"],
            }
        event_record(
            actor=user,
            entity="permit",
            entity_id=locked.pk,
            action=f"site_log_{kind}",
            village=locked.village_id,
            citation=_citation(ordinance, kind),
            after=after,
        )
    return entry


def _citation(ordinance: Any, kind: str) -> str:
    duty = {
        "self_inspection": "rain_inspection",
        "start_notice_given": "start_notice",
        "work_started": "start_notice",
        "measure_installed": "measure_completion_notice",
        "measure_completion_notice_given": "measure_completion_notice",
        "area_inactive": "stabilization",
        "area_stabilized": "stabilization",
        "no_runoff": "rain_inspection",
    }[kind]
    for rule in ordinance.rules["duties"]:
        if rule["kind"] == duty:
            return str(rule["citation"])
    return ""
