"""Helpers for the scripted seasons of ``test_season.py``: the village's people, the rain
record of Milwaukee Mitchell cut to the month a clerk imports, the site log and the
village's inspections on fixed dates, the duties and steps as of a moment, the words of
the stored documents and the public register.

Every step goes through the services, as a village would take it; nothing here works out
an expected value (the test does that by hand, from the ordinance).
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import zlib
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from django.core.management import call_command
from factories import make_user, plan_pdf

from siltfence.apps.accounts.models import Role
from siltfence.apps.permits import services as permits
from siltfence.apps.permits.models import Application, DocumentKind, Permit, Village

CHICAGO = ZoneInfo("America/Chicago")
REPO = Path(__file__).resolve().parents[2]
# The real daily record of Milwaukee Mitchell (GHCN-Daily USW00014839), PRCP in inches.
MILWAUKEE = REPO / ".." / "shared" / "data" / "rain" / "GHCN_USW00014839.csv"
STATION = "USW00014839"
# "Now" for the site log and the village's inspections, which refuse a step dated in the
# future: the season is 2025, and every step of it is in the past of this moment.
LATER = datetime.datetime(2026, 1, 15, 12, tzinfo=CHICAGO)


def at(day: str, hour: int = 9, minute: int = 0) -> datetime.datetime:
    """A moment in the villages' zone (both are in Central time)."""
    return datetime.datetime.combine(
        datetime.date.fromisoformat(day), datetime.time(hour, minute), tzinfo=CHICAGO
    )


def day(text: str) -> datetime.date:
    return datetime.date.fromisoformat(text)


# -- the village's people ------------------------------------------------------------------


@dataclass
class VillagePeople:
    """One village's staff (the administering authority), its inspector, a member of its
    Zoning Board of Appeals, and the three applicants of the season."""

    village: Village
    staff: Any
    inspector: Any
    board: Any
    homeowner: Any
    developer: Any
    utility: Any


def village_people(village_id: str) -> VillagePeople:
    """The villages, with New Glarus's office calendar seeded with the legal holidays of
    2025 (the season's year) whatever year the test runs in, and the people of one."""
    villages = {v.id: v for v in permits.village_sync(years=range(2025, 2027))}
    short = village_id.removesuffix("-wi")
    return VillagePeople(
        village=villages[village_id],
        staff=make_user(f"{short}-staff", village=village_id, role=Role.STAFF),
        inspector=make_user(f"{short}-inspector", village=village_id, role=Role.INSPECTOR),
        board=make_user(f"{short}-board", village=village_id, role=Role.APPEALS_BOARD),
        homeowner=make_user(f"{short}-homeowner"),
        developer=make_user(f"{short}-developer"),
        utility=make_user(f"{short}-utility"),
    )


# -- applications --------------------------------------------------------------------------


def application_made(
    *,
    applicant: Any,
    village: Village,
    address: str,
    facts: dict[str, Any],
    on: str,
    landowner: str,
    description: str,
) -> Application:
    """The determination made from the facts (``application_create``), the plan's
    checklist ticked and the plan uploaded: a complete draft, ready to file."""
    application = permits.application_create(
        applicant=applicant,
        village=village,
        address=address,
        facts=facts,
        on=day(on),
        description=description,
        parties=[{"role": "landowner", "name": landowner}],
    )
    contents = (application.determination.get("plan") or {}).get("contents", [])
    permits.application_checklist_set(
        application=application, user=applicant, items=list(range(len(contents)))
    )
    permits.document_upload(
        application=application,
        user=applicant,
        kind=DocumentKind.PLAN_STATEMENT
        if application.plan_kind == "control_plan_statement"
        else DocumentKind.PLAN,
        name="plan.pdf",
        content=plan_pdf(address),
        claimed_type="application/pdf",
    )
    return application


@dataclass(frozen=True)
class Surety:
    kind: str  # "surety_bond" or "letter_of_credit"
    amount: str
    issuer: str
    reference: str


def approve_with_surety(
    *,
    application: Application,
    staff: Any,
    when: datetime.datetime,
    surety: Surety,
    conditions: list[str] | None = None,
) -> Permit:
    """Approval "as a condition of" which the authority requires a surety bond or an
    irrevocable letter of credit (§ 413-8E(2), § 135-7D), the surety received the same day.

    Today the permit is issued at approval and the surety recorded on it afterwards
    (``surety_record``); when approval can be given subject to the surety and the permit is
    issued on its receipt, this is the one place to change. The surety is received at the
    moment of approval, so the permit's day of issue, and every date counted from it, stays
    the same either way."""
    permit = permits.application_approve(
        application=application, staff=staff, at=when, conditions=conditions or []
    )
    permits.surety_record(
        permit=permit,
        staff=staff,
        kind=surety.kind,
        amount=Decimal(surety.amount),
        issuer=surety.issuer,
        reference=surety.reference,
        received_on=when.astimezone(CHICAGO).date(),
    )
    permit.refresh_from_db()
    return permit


# -- the site log and the village's inspections -----------------------------------------------


def log(permit: Permit, user: Any, kind: str, when: str, **data: str) -> Any:
    """One entry of the permittee's site log, at ``when`` (local ``YYYY-MM-DDTHH:MM``)."""
    from siltfence.apps.sitelog.services import site_log_record

    return site_log_record(
        permit=permit,
        user=user,
        kind=kind,
        at=when,
        data=data,
        photos=[],
        client_token="",
        now=LATER,
    )


def self_inspections(permit: Permit, user: Any, moments: list[str], phase: str) -> None:
    """The permittee's inspections of the control measures, one site log entry each."""
    for moment in moments:
        log(
            permit,
            user,
            "self_inspection",
            moment,
            inspector="Site foreman",
            phase=phase,
            findings="Measures in place",
        )


def village_inspection(
    permit: Permit,
    inspector: Any,
    when: str,
    *,
    result: str = "compliant",
    answers: dict[str, str] | None = None,
    findings: str = "",
) -> Any:
    from siltfence.apps.inspections.services import inspection_record

    return inspection_record(
        permit=permit,
        user=inspector,
        at=when,
        result=result,
        answers=answers or {},
        findings=findings,
        photos=[],
        client_token="",
        now=LATER,
    )


# -- rain: the month a clerk imports --------------------------------------------------------


def month_of_rain(folder: Path, first: str, last: str) -> Path:
    """The rows of the Milwaukee record from ``first`` to ``last`` (inclusive), with its
    header, in the file's own layout (the daily CSV in inches the importer reads)."""
    lines = MILWAUKEE.read_text().splitlines()
    header, rows = lines[0], lines[1:]
    kept = [row for row in rows if first <= row.split(",")[3] <= last]
    path = folder / f"USW00014839-{first}-{last}.csv"
    path.write_text("\n".join([header, *kept]) + "\n")
    return path


def rain_import(path: Path) -> str:
    """``manage.py rain_import FILE --station USW00014839``, as the clerk runs it: the file
    names no station. Returns what the command said."""
    out = io.StringIO()
    call_command("rain_import", str(path), "--station", STATION, stdout=out)
    return " ".join(out.getvalue().split())


def station_pinned(site: Any, staff: Any) -> Any:
    """Staff choose Milwaukee Mitchell for the site, and say why (it is farther than the
    50 km a station is chosen on its own)."""
    from siltfence.apps.duties.stations import site_station_pin, stations_sync

    stations_sync()
    return site_station_pin(
        site=site,
        staff=staff,
        station_id=STATION,
        reason="The village keeps the whole 2025 daily record of Milwaukee Mitchell",
    )


# -- what the record says as of a moment ------------------------------------------------------


def timeline(permit_or_application: Any, when: datetime.datetime) -> dict[str, Any]:
    """The core's timeline of the application (duties, permit, notes) as of ``when``."""
    from siltfence.apps.permits.clocks import application_timeline

    application = getattr(permit_or_application, "application", permit_or_application)
    application.refresh_from_db()
    return application_timeline(application, when).to_json()  # type: ignore[no-any-return]


def duties(permit_or_application: Any, kind: str, when: datetime.datetime) -> list[dict]:
    return [d for d in timeline(permit_or_application, when)["duties"] if d["kind"] == kind]


def dues(permit_or_application: Any, kind: str, when: datetime.datetime) -> list[tuple]:
    """(due, status) of each duty of ``kind``, in the order of their due dates."""
    return [(d["due"], d["status"]) for d in duties(permit_or_application, kind, when)]


def steps_open(case: Any, when: datetime.datetime) -> dict[str, tuple[str, str]]:
    """The enforcement steps the record allows: action -> (from, citation)."""
    from siltfence.apps.enforcement.selectors import case_timeline

    return {
        a["action"]: (a["from"], a["citation"])
        for a in case_timeline(case, when).to_json()["allowed_actions"]
    }


def note_ids(permit_or_application: Any, when: datetime.datetime) -> set[str]:
    return {n["id"] for n in timeline(permit_or_application, when)["notes"]}


# -- documents ------------------------------------------------------------------------------


def pdf_text(stored: Any) -> str:
    """The words of a PDF this program made (fpdf2: one ``(...) Tj`` per laid-out line),
    the lines joined by single spaces."""
    stored.open("rb")
    try:
        content = stored.read()
    finally:
        stored.close()
    assert content.startswith(b"%PDF"), "not a PDF"
    words = []
    for stream in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", content, re.S):
        try:
            stream = zlib.decompress(stream)
        except zlib.error:
            continue
        for raw in re.findall(rb"\(((?:\\.|[^\\)])*)\) Tj", stream):
            text = re.sub(rb"\\(.)", rb"\1", raw).decode("latin-1")
            words.append(text)
    return " ".join(" ".join(words).split())


def permit_text(permit: Permit) -> str:
    document = permit.application.documents.filter(kind=DocumentKind.PERMIT).order_by("-id").first()
    assert document is not None, f"no permit document for {permit.number}"
    return pdf_text(document.file)


def case_document_text(case: Any, kind: str) -> str:
    from siltfence.apps.enforcement.models import EnforcementDocument

    document = EnforcementDocument.objects.filter(case=case, kind=kind).order_by("-id").first()
    assert document is not None, f"no {kind} document in case {case.number}"
    return pdf_text(document.file)


# -- the public register -------------------------------------------------------------------


def register_rows(client: Any, **query: str) -> dict[str, dict[str, str]]:
    """The public register as the CSV download gives it, keyed by permit number."""
    response = client.get("/register/permits.csv", query)
    assert response.status_code == 200
    text = b"".join(response.streaming_content).decode()
    assert text.startswith("\ufeff"), "the CSV opens in a spreadsheet as UTF-8"
    return {row["Permit"]: row for row in csv.DictReader(io.StringIO(text.removeprefix("\ufeff")))}
