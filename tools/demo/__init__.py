"""The demo: both villages, a login for every role, and applications and permits in
every state, so a newcomer can click through the whole flow (``python -m tools.demo_load``,
which ``make run`` runs). Idempotent, and safe to stop at any moment (even killed): run
again, it completes the demo, with no record twice and no stored file that no record
names. Its parts, one module per app's records: ``enforcement``, ``rain``, ``sign_in``."""

from __future__ import annotations

import datetime
import os
import sys
from typing import Any, TextIO
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.color import color_style
from django.db import transaction
from django.utils import timezone

from siltfence.apps.accounts.models import BoardSeat, Membership, Role
from siltfence.apps.documents.pdf import lines_to_pdf
from siltfence.apps.permits import services
from siltfence.apps.permits.models import Application, Village
from siltfence.core.ordinance.loader import load

PASSWORD = "silt-fence-demo-2026"
USERS = [
    # username, first, last, village, role (None: an applicant)
    ("spencer-building-inspector", "Dana", "Kraus", "spencer-wi", Role.STAFF),
    ("spencer-field-inspector", "Lee", "Marsh", "spencer-wi", Role.INSPECTOR),
    # Each village's Zoning Board of Appeals, whole: five members, one the chair, and two
    # alternates (the seats, alternates and quorum of ``board`` in jurisdiction.yaml).
    ("spencer-zba-chair", "Ruth", "Nowak", "spencer-wi", Role.APPEALS_BOARD),
    ("spencer-zba", "Pat", "Olson", "spencer-wi", Role.APPEALS_BOARD),
    ("spencer-zba-2", "Gary", "Wirth", "spencer-wi", Role.APPEALS_BOARD),
    ("spencer-zba-3", "Linda", "Schultz", "spencer-wi", Role.APPEALS_BOARD),
    ("spencer-zba-4", "Tom", "Brandt", "spencer-wi", Role.APPEALS_BOARD),
    ("spencer-zba-alt1", "Joan", "Meyer", "spencer-wi", Role.APPEALS_BOARD),
    ("spencer-zba-alt2", "Dale", "Hintz", "spencer-wi", Role.APPEALS_BOARD),
    ("newglarus-administrator", "Robin", "Streiff", "new-glarus-wi", Role.STAFF),
    ("newglarus-field-inspector", "Sam", "Duerst", "new-glarus-wi", Role.INSPECTOR),
    ("newglarus-zba-chair", "Heidi", "Zimmerman", "new-glarus-wi", Role.APPEALS_BOARD),
    ("newglarus-zba", "Chris", "Legler", "new-glarus-wi", Role.APPEALS_BOARD),
    ("newglarus-zba-2", "Marty", "Blum", "new-glarus-wi", Role.APPEALS_BOARD),
    ("newglarus-zba-3", "Karen", "Disch", "new-glarus-wi", Role.APPEALS_BOARD),
    ("newglarus-zba-4", "Paul", "Voegeli", "new-glarus-wi", Role.APPEALS_BOARD),
    ("newglarus-zba-alt1", "Ann", "Kundert", "new-glarus-wi", Role.APPEALS_BOARD),
    ("newglarus-zba-alt2", "Greg", "Stauffacher", "new-glarus-wi", Role.APPEALS_BOARD),
    ("contractor-jo", "Jo", "Becker", None, None),
    ("landowner-alex", "Alex", "Schmid", None, None),
]
# The board seats other than a plain member's: the chair, who records the roll and the
# votes at a hearing (as staff may), and the first and second alternates.
SEATS = {
    "spencer-zba-chair": BoardSeat.CHAIR,
    "spencer-zba-alt1": BoardSeat.FIRST_ALTERNATE,
    "spencer-zba-alt2": BoardSeat.SECOND_ALTERNATE,
    "newglarus-zba-chair": BoardSeat.CHAIR,
    "newglarus-zba-alt1": BoardSeat.FIRST_ALTERNATE,
    "newglarus-zba-alt2": BoardSeat.SECOND_ALTERNATE,
}

# (village, address, facts, state, days ago filed)
APPLICATIONS: list[tuple[str, str, dict[str, Any], str, int]] = [
    (
        "spencer-wi",
        "105 N Park St, Spencer",
        {"disturbed_area": 6500, "land_use": "residential"},
        "draft",
        0,
    ),
    (
        "spencer-wi",
        "300 E Clark St, Spencer",
        {"disturbed_area": "1.5 acre", "land_use": "commercial"},
        "draft",
        0,
    ),
    (
        "spencer-wi",
        "220 S Pacific St, Spencer",
        {"disturbed_area": 9000, "land_use": "residential"},
        "under_review",
        12,
    ),
    (
        "spencer-wi",
        "Spencer Industrial Park Lot 4",
        {"disturbed_area": "3 acre", "land_use": "industrial"},
        "overdue",
        60,
    ),
    (
        "spencer-wi",
        "412 W Clark St, Spencer",
        {"excavation_fill_volume": 450, "land_use": "commercial"},
        "information_requested",
        20,
    ),
    (
        "spencer-wi",
        "Hillview Subdivision, Spencer",
        {"subdivision_plat": True, "disturbed_area": "4 acre", "land_use": "residential"},
        "information_received",
        30,
    ),
    (
        "spencer-wi",
        "150 Legion St, Spencer",
        {"disturbed_area": 12000, "land_use": "institutional"},
        "approved",
        50,
    ),
    (
        "spencer-wi",
        "710 Washington St, Spencer",
        {"underground_pipe_length": 420, "land_use": "other"},
        "extended",
        200,
    ),
    (
        "spencer-wi",
        "88 Depot St, Spencer",
        {"disturbed_area": 5000, "land_use": "residential"},
        "disapproved",
        40,
    ),
    (
        "spencer-wi",
        "Marathon Ave Lot 9, Spencer",
        {"disturbed_area": 8000, "land_use": "residential"},
        "closed",
        260,
    ),
    ("new-glarus-wi", "600 2nd St, New Glarus", {"disturbed_area": 5200}, "draft", 0),
    (
        "new-glarus-wi",
        "Railroad St Lot 2, New Glarus",
        {"disturbed_area": "2 acre"},
        "under_review",
        10,
    ),
    (
        "new-glarus-wi",
        "North Edge Business Park, New Glarus",
        {"excavation_fill_volume": 800},
        "overdue",
        70,
    ),
    (
        "new-glarus-wi",
        "15 Sixth Ave, New Glarus",
        {"channel_length_disturbed": 140},
        "information_requested",
        15,
    ),
    (
        "new-glarus-wi",
        "Glarner Strasse Lot 7, New Glarus",
        {"disturbed_area": 7000},
        "information_received",
        25,
    ),
    (
        "new-glarus-wi",
        "Swiss Valley Subdivision, New Glarus",
        {"disturbed_area": "6 acre"},
        "approved",
        45,
    ),
    ("new-glarus-wi", "401 Railroad St, New Glarus", {"disturbed_area": 4400}, "extended", 210),
    ("new-glarus-wi", "Hefti Rd, New Glarus", {"disturbed_area": 4100}, "disapproved", 35),
    ("new-glarus-wi", "Second St Lot 3, New Glarus", {"disturbed_area": 9500}, "closed", 240),
]


def _plan_pdf(address: str) -> bytes:
    return lines_to_pdf(
        [
            "DEMO CONTROL PLAN",
            address,
            "",
            "Site map, soils, drainage, control measures and schedule (demo document).",
        ],
        title=f"Plan for {address}",
    )


def demo_load(out: TextIO | None = None) -> None:
    """Load the demo, or finish a load that was stopped; print the logins on ``out``
    (standard output by default)."""
    from siltfence.apps.documents.storage import staged_files_recover
    from siltfence.apps.duties.services import duties_recompute_all
    from tools.demo.enforcement import enforcement_demo_load, heard_appeal_demo_load
    from tools.demo.rain import rain_demo_load
    from tools.demo.sign_in import demo_authenticators_load

    out = out or sys.stdout
    # Files of a load that was stopped: moved into place if their records committed,
    # else deleted.
    staged_files_recover()
    villages = {v.id: v for v in services.village_sync()}
    users = _users(villages)
    if Application.objects.exists():
        out.write("Demo applications already loaded.\n")
    else:
        _applications(villages, users)
    enforcement_demo_load(villages, users)
    heard_appeal_demo_load(users)
    rain_demo_load()
    # A permit's stored duties follow its events once their transaction commits, so a
    # load stopped between the two left some out of date: they are computed now (none
    # after a whole run), as the daily sweep would.
    duties_recompute_all()
    demo_authenticators_load()
    out.write(logins_text() + "\n")


def _users(villages: dict[str, Village]) -> dict[str, Any]:
    user_model = get_user_model()
    hashed: list[str] = []

    def password() -> str:
        # Each login is made with its password in one insert, so a load stopped part
        # way leaves no login without it. Every demo login has the same password: it
        # is hashed once (hashing takes a second or two).
        if not hashed:
            hashed.append(make_password(PASSWORD))
        return hashed[0]

    users = {}
    for username, first, last, village, role in USERS:
        user, _ = user_model.objects.get_or_create(
            username=username,
            defaults={
                "first_name": first,
                "last_name": last,
                "email": f"{username}@example.org",
                "password": password,
            },
        )
        if village and role:
            Membership.objects.get_or_create(
                user=user,
                village=villages[village],
                role=role,
                defaults={"board_seat": SEATS.get(username, BoardSeat.MEMBER)},
            )
        users[username] = user
    user_model.objects.get_or_create(
        username="demo-admin",
        defaults={"is_staff": True, "is_superuser": True, "password": password},
    )
    return users


@transaction.atomic
def _applications(villages: dict[str, Village], users: dict[str, Any]) -> None:
    now = timezone.now()
    staff = {
        "spencer-wi": users["spencer-building-inspector"],
        "new-glarus-wi": users["newglarus-administrator"],
    }
    applicants = [users["contractor-jo"], users["landowner-alex"]]
    for index, (village_id, address, facts, state, days_ago) in enumerate(APPLICATIONS):
        applicant = applicants[index % 2]
        filed = now - datetime.timedelta(days=days_ago)
        application = services.application_create(
            applicant=applicant,
            village=villages[village_id],
            address=address,
            facts=facts,
            on=_local_day(filed, village_id),
            parcel_number=f"0{index + 1:02d}-{1000 + index * 7}",
            description="Demo project",
            parties=[{"role": "landowner", "name": applicant.get_full_name()}],
        )
        contents = (application.determination.get("plan") or {}).get("contents", [])
        services.application_checklist_set(
            application=application, user=applicant, items=list(range(len(contents)))
        )
        services.document_upload(
            application=application,
            user=applicant,
            kind="plan_statement" if application.plan_kind == "control_plan_statement" else "plan",
            name=f"plan-{index + 1}.pdf",
            content=_plan_pdf(address),
            claimed_type="application/pdf",
        )
        if index == 1:
            _plan(application, applicant)
        if state == "draft":
            continue
        services.application_submit(application=application, user=applicant, at=filed)
        officer = staff[village_id]
        step = filed + datetime.timedelta(days=min(days_ago // 3, 8) or 1)
        if state in ("information_requested", "information_received"):
            services.application_information_request(
                application=application,
                staff=officer,
                message="Show the stockpile locations and the silt fence along the east line.",
                at=step,
            )
            if state == "information_received":
                services.application_information_provide(
                    application=application,
                    user=applicant,
                    response=(
                        "Revised site map uploaded: stockpiles on the west side, "
                        "fence on the east line."
                    ),
                    at=step + datetime.timedelta(days=3),
                )
        elif state in ("approved", "extended", "closed"):
            permit = services.application_approve(application=application, staff=officer, at=step)
            if state == "extended":
                services.permit_extend(
                    permit=permit,
                    staff=officer,
                    days=90,
                    on=permit.expires_on - datetime.timedelta(days=5),
                    added_measures="Second row of silt fence along the creek.",
                )
            if state == "closed":
                services.permit_close(
                    permit=permit,
                    staff=officer,
                    on=_local_day(now - datetime.timedelta(days=5), village_id),
                    cover_percent=82,
                    activities_completed=True,
                )
        elif state == "disapproved":
            services.application_disapprove(
                application=application,
                staff=officer,
                reasons=(
                    "The plan shows no inlet protection for the two street inlets on the frontage."
                ),
                at=step,
            )


def _plan(application: Application, applicant: Any) -> None:
    """Store the worked example of a phased site as this draft's control plan."""
    import json

    from siltfence.apps.plans.services import control_plan_save
    from siltfence.core.ordinance.loader import ordinances_root

    example = ordinances_root() / "spencer-wi" / "cases" / "design" / "phased-site.json"
    control_plan_save(
        application=application, user=applicant, plan_json=json.loads(example.read_text())
    )


def logins_text() -> str:
    """What the demo prints at its end: the address, and every login."""
    lines = [
        "",
        f"siltfence demo is ready: {os.environ.get('SILTFENCE_URL', 'http://127.0.0.1:8000/')}",
        f"Every demo login uses the password: {PASSWORD}",
        "",
        f"  {'username':<28} role",
    ]
    for username, _first, _last, village, role in USERS:
        what = f"{role.label} of {village}" if role else "applicant (landowner / contractor)"
        if username in SEATS:
            what += f" ({SEATS[username].label.lower()})"
        lines.append(f"  {username:<28} {what}")
    lines.append(f"  {'demo-admin':<28} site administrator (/admin/)")
    lines += [
        "",
        "Staff, inspectors, appeals board members and demo-admin then type a 6-digit code.",
        "The demo's authenticator keys are published; print an account's current code with",
        "  make demo-code WHO=spencer-building-inspector",
        "(or add its key to an authenticator app: make demo-code WHO=... KEY=1).",
        "Each village's appeals board has five members and two alternates; its chair (or the",
        "village's staff) records a hearing's roll and the votes, on the appeal's page.",
    ]
    return color_style().SUCCESS("\n".join(lines))


def _local_day(moment: datetime.datetime, village_id: str) -> datetime.date:
    """The village's own calendar day at ``moment`` (in the evening, Central time, the day
    in UTC is already tomorrow's)."""
    return moment.astimezone(ZoneInfo(load(village_id).time_zone)).date()
