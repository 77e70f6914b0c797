"""Reminders by email before a duty falls due and when it is overdue, and calendar feeds.

The duties come from each permit's stored duties (``apps.duties``), which the core
computed. A reminder is recorded before it is sent, under a unique constraint on (permit,
person, duty, kind), so running the reminders twice sends nothing the second time.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
from collections import defaultdict
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from siltfence.apps.accounts.models import Membership, Role
from siltfence.apps.duties.models import PermitDuties
from siltfence.apps.duties.services import EXPIRY_NOTICE_DAYS, due_moment
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import Permit
from siltfence.apps.reminders.models import (
    CalendarFeed,
    ReminderKind,
    ReminderPreference,
    ReminderSent,
)
from siltfence.core.ordinance.loader import load

MAX_DAYS_AHEAD = 14
DAYS_AHEAD_RANGE = "days_ahead: a whole number of days from 1 to 14"

DUTY_NAMES = {
    "start_notice": "notice of the start of work",
    "measure_completion_notice": "notice that a control measure is in place",
    "rain_inspection": "inspection after rain",
    "weekly_inspection": "weekly inspection",
    "municipal_inspection": "the village's inspection",
    "stabilization": "stabilizing ground left inactive",
}


def duty_key(duty: dict[str, Any]) -> str:
    """The identity of a duty across recomputations: what it is, why, and when it is due."""
    text = "|".join(str(duty.get(k, "")) for k in ("kind", "citation", "because", "due"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def preference_set(*, user: Any, due_soon: bool, overdue: bool, days_ahead: Any) -> None:
    try:
        days = int(str(days_ahead).strip())
    except ValueError:
        raise ActionRefused(DAYS_AHEAD_RANGE, field="days_ahead") from None
    if not 1 <= days <= MAX_DAYS_AHEAD:
        raise ActionRefused(DAYS_AHEAD_RANGE, field="days_ahead")
    ReminderPreference.objects.update_or_create(
        user=user,
        defaults={"due_soon": bool(due_soon), "overdue": bool(overdue), "days_ahead": days},
    )


def _recipients(permits: dict[int, Permit]) -> dict[int, list[tuple[Any, bool]]]:
    """For each permit, (person, is_permittee): the applicant, and the village's staff."""
    staff: dict[str, list[Any]] = defaultdict(list)
    villages = {p.village_id for p in permits.values()}
    for membership in Membership.objects.filter(
        village_id__in=villages, role=Role.STAFF
    ).select_related("user"):
        staff[membership.village_id].append(membership.user)
    return {
        pk: [(permit.application.applicant, True)]
        + [(u, False) for u in staff[permit.village_id] if u.pk != permit.application.applicant_id]
        for pk, permit in permits.items()
    }


# The reminders of one run for one person, by (person, village): one email each, listing
# the permits and their duties.
Outbox = dict[tuple[int, str], list[tuple[Permit, str]]]


def reminders_send(*, as_of: datetime.datetime) -> int:
    """Record the reminders due at ``as_of`` and the emails that carry them, in one
    transaction (the worker sends the emails after it commits: ``apps.outbox``); returns
    how many reminders were recorded."""
    horizon = as_of + datetime.timedelta(days=MAX_DAYS_AHEAD)
    outbox: Outbox = defaultdict(list)
    people: dict[int, Any] = {}
    with transaction.atomic():
        _duty_reminders(as_of, horizon, outbox, people)
        _expiry_reminders(as_of, outbox, people)
        for (pk, village_id), lines in outbox.items():
            _send(people[pk], village_id, lines)
    return sum(len(lines) for lines in outbox.values())


def _duty_reminders(
    as_of: datetime.datetime,
    horizon: datetime.datetime,
    outbox: Outbox,
    people: dict[int, Any],
) -> None:
    states = list(
        PermitDuties.objects.filter(permit__status="active").filter(
            Q(next_due__lte=horizon) | Q(overdue_count__gt=0)
        )
    )
    if not states:
        return
    permits = {
        p.pk: p
        for p in Permit.objects.filter(pk__in=[s.permit_id for s in states]).select_related(
            "application__applicant", "application__site"
        )
    }
    recipients = _recipients(permits)
    stations = _stations([p.application.site_id for p in permits.values()])
    users = {u.pk for people in recipients.values() for u, _ in people}
    prefs = {p.user_id: p for p in ReminderPreference.objects.filter(user_id__in=users)}
    for state in states:
        permit = permits[state.permit_id]
        zone = ZoneInfo(load(permit.village_id).time_zone)
        for duty in state.duties:
            if duty["status"] == "met":
                continue
            due = due_moment(str(duty["due"]), zone)
            for user, is_permittee in recipients[permit.pk]:
                if is_permittee and duty["party"] != "permittee":
                    continue
                pref = prefs.get(user.pk) or ReminderPreference(user=user)
                kind = _kind(duty, due, as_of, pref)
                if kind is None or not user.email:
                    continue
                if _record(permit, user, duty, kind):
                    people[user.pk] = user
                    line = _line(permit, duty, kind, zone)
                    if duty["kind"] == "rain_inspection":
                        line += stations.get(permit.application.site_id, "")
                    outbox[user.pk, permit.village_id].append((permit, line))


# A permit's last day is told EXPIRY_NOTICE_DAYS ahead (kept in ``duties.services``, since
# the staff's dashboard lists the permits ending within it too). A permit whose last day
# has passed is told once, in the days after: work needs a new permit from then. A permit
# past its end for longer than this is not told any more (a sweep that did not run for
# weeks does not send stale news).
EXPIRED_NOTICE_DAYS = 7


def _local_day(as_of: datetime.datetime, village_id: str) -> datetime.date:
    return as_of.astimezone(ZoneInfo(load(village_id).time_zone)).date()


def _expiry_reminders(
    as_of: datetime.datetime,
    outbox: Outbox,
    people: dict[int, Any],
) -> None:
    """Remind the permittee and the village's staff of each permit in force whose last day
    is within ``EXPIRY_NOTICE_DAYS``, once for each last day (an extension gives a new one),
    and tell them once when it has passed (within ``EXPIRED_NOTICE_DAYS``): the permit has
    expired (§ 413-8E(1), § 135-7G), and work on the site needs a new permit."""
    # A day either side of as_of's date in UTC; each permit's day is then its village's.
    near = as_of.astimezone(datetime.UTC).date()
    found = Permit.objects.filter(
        status="active",
        expires_on__gte=near - datetime.timedelta(days=EXPIRED_NOTICE_DAYS + 1),
        expires_on__lte=near + datetime.timedelta(days=EXPIRY_NOTICE_DAYS + 1),
    ).select_related("application__applicant", "application__site")
    permits = {
        p.pk: p
        for p in found
        if -EXPIRED_NOTICE_DAYS
        <= (p.expires_on - _local_day(as_of, p.village_id)).days
        <= EXPIRY_NOTICE_DAYS
    }
    if not permits:
        return
    recipients = _recipients(permits)
    users = {u.pk for group in recipients.values() for u, _ in group}
    prefs = {p.user_id: p for p in ReminderPreference.objects.filter(user_id__in=users)}
    for permit in permits.values():
        ordinance = load(permit.village_id)
        citation = ordinance.rules["permit"]["citation"]
        days = (permit.expires_on - _local_day(as_of, permit.village_id)).days
        notice = {
            "kind": "permit_expiry",
            "citation": citation,
            "because": f"permit {permit.number} is valid through {permit.expires_on.isoformat()}",
            "due": permit.expires_on.isoformat(),
        }
        ended = days < 0
        kind = ReminderKind.OVERDUE if ended else ReminderKind.DUE_SOON
        where = f"Permit {permit.number}, {permit.application.site.address}"
        if ended:
            line = (
                f"{where}: the permit expired. Its last day was "
                f"{permit.expires_on:%A %B %-d, %Y}; it cannot be extended now, and land "
                f"disturbing work on the site needs a new permit ({citation}). If the site is "
                f"stabilized, the {ordinance.authority_title} can close the permit."
            )
        else:
            line = (
                f"{where}: the permit is valid through {permit.expires_on:%A %B %-d, %Y} "
                f"({'today' if days == 0 else f'{days} day' + ('' if days == 1 else 's')}). "
                f"The {ordinance.authority_title} may extend it while it runs; once it has "
                "ended it cannot be extended, and land disturbing work needs a new permit "
                f"({citation})."
            )
        for user, _ in recipients[permit.pk]:
            pref = prefs.get(user.pk) or ReminderPreference(user=user)
            wanted = pref.overdue if ended else pref.due_soon
            if not wanted or not user.email or not _record(permit, user, notice, kind):
                continue
            people[user.pk] = user
            outbox[user.pk, permit.village_id].append((permit, line))


def _stations(site_ids: list[int]) -> dict[int, str]:
    """Where each site's rain is read, and how far away: said wherever rain is used."""
    from siltfence.apps.duties.models import SiteStation

    return {
        link.site_id: (
            f" Rain read at {link.station.name or link.station_id} ({link.station_id}), "
            f"{link.distance_km:.1f} km from the site."
        )
        for link in SiteStation.objects.filter(site_id__in=site_ids).select_related("station")
    }


def _kind(
    duty: dict[str, Any],
    due: datetime.datetime,
    as_of: datetime.datetime,
    pref: ReminderPreference,
) -> str | None:
    if duty["status"] == "overdue" or due <= as_of:
        return ReminderKind.OVERDUE if pref.overdue else None
    if pref.due_soon and due - as_of <= datetime.timedelta(days=pref.days_ahead):
        return ReminderKind.DUE_SOON
    return None


def _record(permit: Permit, user: Any, duty: dict[str, Any], kind: str) -> bool:
    """Record the reminder; False if it was already sent (so it is not sent again)."""
    try:
        with transaction.atomic():
            ReminderSent.objects.create(
                permit=permit,
                user=user,
                duty_key=duty_key(duty),
                kind=kind,
                duty_kind=duty["kind"],
                due=str(duty["due"]),
            )
    except IntegrityError:
        return False
    return True


def _when(due: str, zone: ZoneInfo) -> str:
    if "T" not in due:
        return datetime.date.fromisoformat(due).strftime("%A %B %-d, %Y")
    moment = datetime.datetime.fromisoformat(due).astimezone(zone)
    return moment.strftime("%A %B %-d, %Y at %-I:%M %p")


def _line(permit: Permit, duty: dict[str, Any], kind: str, zone: ZoneInfo) -> str:
    name = DUTY_NAMES.get(duty["kind"], duty["kind"].replace("_", " "))
    when = _when(str(duty["due"]), zone)
    state = "is overdue (it was due" if kind == ReminderKind.OVERDUE else "is due by"
    close = ")" if kind == ReminderKind.OVERDUE else ""
    return (
        f"Permit {permit.number}, {permit.application.site.address}: {name} {state} {when}"
        f"{close}. Why: {duty['because']} ({duty['citation']})."
    )


def _send(user: Any, village_id: str, lines: list[tuple[Permit, str]]) -> None:
    """Record the email of one person's reminders of one village's permits."""
    from siltfence.apps.outbox.services import message_record

    base = getattr(settings, "SILTFENCE_URL", "").rstrip("/")
    body = "\n\n".join(line for _, line in lines)
    if base:
        body += (
            f"\n\nSee your permits: {base}/home/\nChange which reminders you get: {base}/reminders/"
        )
    permits = {permit.pk: permit for permit, _ in lines}
    message_record(
        kind="reminders",
        to=user.email,
        user=user,
        village_id=village_id,
        permit=next(iter(permits.values())) if len(permits) == 1 else None,
        subject=f"Erosion control: {len(lines)} duty reminder{'s' if len(lines) != 1 else ''}",
        body=body,
    )


# -- calendar feeds --------------------------------------------------------------------


def calendar_feed_create(*, user: Any, permit: Permit | None = None) -> CalendarFeed:
    return CalendarFeed.objects.create(user=user, permit=permit, token=secrets.token_urlsafe(32))


def calendar_feed_revoke(*, user: Any, feed_id: int) -> None:
    updated = CalendarFeed.objects.filter(pk=feed_id, user=user, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    if not updated:
        raise ActionRefused("feed: no such calendar address of yours is in use", field="feed")


def calendar_ics(feed: CalendarFeed) -> bytes:
    """The feed as iCalendar: one all-day or timed event per open duty, with its reason."""
    import icalendar

    from siltfence.apps.reminders.selectors import permits_in_force_visible_to

    permits = permits_in_force_visible_to(feed.user)
    if feed.permit_id is not None:
        permits = permits.filter(pk=feed.permit_id)
    states = {
        s.permit_id: s
        for s in PermitDuties.objects.filter(permit_id__in=permits.values_list("pk", flat=True))
    }
    stations = _stations(list(permits.values_list("application__site_id", flat=True)))
    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//siltfence//erosion control duties//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", "Erosion control duties")
    stamp = timezone.now()
    for permit in permits:
        state = states.get(permit.pk)
        if state is None:
            continue
        zone = ZoneInfo(load(permit.village_id).time_zone)
        for duty in state.duties:
            if duty["status"] == "met":
                continue
            event = icalendar.Event()
            event.add("uid", f"{duty_key(duty)}-{permit.pk}@siltfence")
            event.add("dtstamp", stamp)
            name = DUTY_NAMES.get(duty["kind"], duty["kind"].replace("_", " "))
            overdue = " (overdue)" if duty["status"] == "overdue" else ""
            event.add("summary", f"{name.capitalize()}{overdue}: permit {permit.number}")
            due = str(duty["due"])
            if "T" in due:
                moment = datetime.datetime.fromisoformat(due).astimezone(zone)
                event.add("dtstart", moment)
                event.add("dtend", moment)
            else:
                day = datetime.date.fromisoformat(due)
                event.add("dtstart", day)
                event.add("dtend", day + datetime.timedelta(days=1))
            event.add("location", permit.application.site.address)
            where = stations.get(permit.application.site_id, "")
            if duty["kind"] != "rain_inspection":
                where = ""
            event.add("description", f"{duty['because']} ({duty['citation']}).{where}")
            calendar.add_component(event)
    return bytes(calendar.to_ical())
