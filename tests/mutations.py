"""Break what the law after the permit rests on, one thing at a time, and see a test fail.

Each mutation below changes one comparison, filter, permission check or number, in the
code or in an ordinance's data, runs the tests that guard it, and puts the file back. A
mutation the tests do not catch ("survived") is a hole in the suite. Run it before saying
a change to these parts is done:

    .venv/bin/python tests/mutations.py            # all of them
    .venv/bin/python tests/mutations.py 3 7        # some, by number

It prints one line a mutation and a JSON summary, and exits 1 if any survived. It never
leaves a file changed: each is restored even when a run is interrupted.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = ROOT / ".venv" / "bin" / "python"


@dataclass(frozen=True)
class Mutation:
    what: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...]


CASES = "tests/unit/test_timeline_cases.py"
LAW = "tests/integration/test_after_permit_law.py"

MUTATIONS = (
    Mutation(
        "an inspection while the rain still fell meets the duty (§ 413-8E(3)(g) 'after')",
        "src/siltfence/core/timeline/duties.py",
        "if inspection.at >= rain.end:",
        "if inspection.at >= rain.start:",
        (CASES,),
    ),
    Mutation(
        "a storm is one rain however many heavy days it has (gap 20)",
        "src/siltfence/core/timeline/rain.py",
        "if total >= threshold_mm(piece[0].day):",
        "if False:",
        (CASES,),
    ),
    Mutation(
        "the permit's conditions bind a site with no permit (§ 413-8E(3), § 135-7E)",
        "src/siltfence/core/timeline/context.py",
        'if not rule.get("condition_of_permit"):',
        "if True:",
        (CASES,),
    ),
    Mutation(
        "a week without an inspection is not a missed duty of its own",
        "src/siltfence/core/timeline/duties.py",
        "            shown.append(current)  # a week with no inspection: missed\n",
        "            pass\n",
        ("tests/unit/timeline/test_duties.py", CASES),
    ),
    Mutation(
        "compliance does not end a violation's days (§ 413-10E, § 135-11F)",
        "src/siltfence/core/timeline/enforcement.py",
        "if ended is not None and ended < last:",
        "if False:",
        ("tests/unit/timeline/test_enforcement.py",),
    ),
    Mutation(
        "two violations on the same day are one offense",
        "src/siltfence/core/timeline/model.py",
        "return sum(v.count() for v in self.violations)",
        "return len(self.violation_days)",
        ("tests/unit/timeline/test_enforcement.py", CASES),
    ),
    Mutation(
        "posting a New Glarus order alone opens the referral (§ 135-11C)",
        "src/siltfence/core/timeline/enforcement.py",
        'if violation.fields["from"] > given.day:',
        'if violation.fields["from"] >= given.day:',
        ("tests/unit/timeline/test_enforcement_readings.py", CASES),
    ),
    Mutation(
        "a step taken is offered again",
        "src/siltfence/core/timeline/enforcement.py",
        "    return bool(taken)\n",
        "    return False\n",
        ("tests/unit/timeline/test_enforcement.py",),
    ),
    Mutation(
        "an expired permit is extended (§ 413-8E(1) 'may extend the period')",
        "src/siltfence/core/timeline/clocks.py",
        "    if on > expires:\n",
        "    if False:\n",
        (CASES, LAW),
    ),
    Mutation(
        "data: New Glarus's referral no longer needs the order disobeyed",
        "ordinances/new-glarus-wi/rules.yaml",
        "      after_event: stop_work_order_posted\n      requires_disobedience: true\n"
        "      citation: § 135-11C",
        "      after_event: stop_work_order_posted\n      citation: § 135-11C",
        (CASES,),
    ),
    Mutation(
        "the register's 'active' finds expired permits",
        "src/siltfence/apps/enforcement/register.py",
        "permits = permits.filter(status=PermitStatus.ACTIVE, expires_on__gte=today)",
        "permits = permits.filter(status=PermitStatus.ACTIVE)",
        (LAW,),
    ),
    Mutation(
        "the party a case is against reads the letters to the attorney",
        "src/siltfence/apps/enforcement/views.py",
        "if stored.kind in ATTORNEY_LETTERS and not village_ids(",
        "if False and not village_ids(",
        (LAW,),
    ),
    Mutation(
        "a station with no record for the permit is chosen (gap 26)",
        "src/siltfence/apps/duties/services.py",
        "rows = list(located.filter(pk__in=recording))",
        "rows = list(located)",
        ("tests/integration/test_rain_unknown_days.py",),
    ),
    Mutation(
        "an inspected site stays on the round",
        "src/siltfence/apps/inspections/services.py",
        'owed = [d for d in running if d["status"] != "met"]',
        "owed = running",
        ("tests/integration/test_inspections.py",),
    ),
    Mutation(
        "a modified decision that lifts a revocation changes nothing",
        "src/siltfence/apps/appeals/services.py",
        "lifts = decision == Decision.REVERSE or (decision == Decision.MODIFY and retracts)",
        "lifts = decision == Decision.REVERSE",
        ("tests/integration/test_appeals.py",),
    ),
    Mutation(
        "an expired permit takes the permit grounds of a stop-work order (§ 413-10A(1))",
        "src/siltfence/apps/enforcement/services/common.py",
        "    if _local_day(_ordinance(case.village_id), at) > permit.expires_on:\n"
        "        return None",
        "    if False:\n        return None",
        (LAW,),
    ),
    Mutation(
        "a surety short of the amount the approval required issues the permit (§ 413-8E(2))",
        "src/siltfence/apps/permits/services/permits.py",
        "if amount < locked.surety_required:",
        "if False:",
        ("tests/integration/test_surety.py",),
    ),
    Mutation(
        "an approval subject to a surety issues the permit at once (§ 135-7D)",
        "src/siltfence/apps/permits/services/review.py",
        "        if surety is not None:\n            _transition(",
        "        if False:\n            _transition(",
        ("tests/integration/test_surety.py",),
    ),
    Mutation(
        "a draw on a surety may exceed what is left on it",
        "src/siltfence/apps/permits/services/permits.py",
        "if taken > balance:",
        "if taken > balance * 2:",
        ("tests/integration/test_surety.py",),
    ),
    Mutation(
        "an extension leaves the earlier permit document unmarked",
        "src/siltfence/apps/documents/services.py",
        ".update(superseded_by=document)",
        ".count()",
        ("tests/integration/test_documents_follow_the_record.py",),
    ),
    Mutation(
        "the permit's last day is told 31 days ahead, not 30",
        "src/siltfence/apps/duties/services.py",
        "EXPIRY_NOTICE_DAYS = 30",
        "EXPIRY_NOTICE_DAYS = 31",
        ("tests/integration/test_reminders.py",),
    ),
    Mutation(
        "rain recorded after a permit closed never reaches the days it was in force",
        "src/siltfence/apps/duties/services.py",
        "WHERE (p.closed_on IS NULL OR p.closed_on >= %s)",
        "WHERE (p.closed_on IS NULL OR p.closed_on < %s)",
        ("tests/integration/test_season.py",),
    ),
    Mutation(
        "extensions past 180 days in all go unflagged (gap extension-total)",
        "src/siltfence/core/timeline/clocks.py",
        "sum(e.days for e in extensions) > cap",
        "sum(e.days for e in extensions) > cap + 1",
        ("tests/unit/timeline/test_clocks_and_permit.py",),
    ),
    Mutation(
        "an act in the last second of the day falls outside it",
        "src/siltfence/core/timeline/events.py",
        "    return moment.astimezone(zone).replace(microsecond=0), True",
        "    return moment.astimezone(zone), True",
        ("tests/unit/timeline/test_events.py",),
    ),
    Mutation(
        "an import reports each wet day as a rain of its own (gap each-rain)",
        "src/siltfence/apps/duties/services.py",
        "rains.add((station_id, rain[0].day))",
        "rains.add((station_id, rain_day.day))",
        ("tests/integration/test_season.py",),
    ),
    Mutation(
        "the notice of intent is written without the day the work may begin",
        "src/siltfence/apps/enforcement/services/steps.py",
        'action.details["work_from"] = _work_from(locked, at)',
        'action.details["work_from"] = None',
        ("tests/integration/test_season.py",),
    ),
    Mutation(
        "an email is marked sent though the mail server refused it",
        "src/siltfence/apps/outbox/services.py",
        "            _failed(message, exc)\n            run.failed += 1\n            continue",
        "            pass",
        ("tests/integration/test_outbox.py",),
    ),
    Mutation(
        "staff of every village see every village's emails",
        "src/siltfence/apps/outbox/selectors.py",
        "Message.objects.filter(village_id__in=village_ids(user, Role.STAFF))",
        "Message.objects.all()",
        ("tests/integration/test_outbox.py",),
    ),
    Mutation(
        "the reminders and their emails are not one transaction",
        "src/siltfence/apps/reminders/services.py",
        "    with transaction.atomic():\n        _duty_reminders(",
        "    if True:\n        _duty_reminders(",
        ("tests/integration/test_outbox.py",),
    ),
    Mutation(
        "a registration link makes a second account for a username taken since it was sent",
        "src/siltfence/apps/web/account_views.py",
        '    if users.filter(username__iexact=data["username"]).exists():\n        return render(',
        "    if False:\n        return render(",
        ("tests/integration/test_registration.py",),
    ),
    Mutation(
        "the per-account wait starts one failure later",
        "src/siltfence/apps/accounts/guessing.py",
        "if limit <= 0 or failures < limit:",
        "if limit <= 0 or failures <= limit:",
        ("tests/integration/test_account_guessing.py",),
    ),
    Mutation(
        "/health stays 200 when no page can be rendered",
        "src/siltfence/apps/ops/health.py",
        'for name in ("database", "pages", "static", "disk")',
        'for name in ("database", "disk")',
        ("tests/integration/test_health_page.py",),
    ),
    Mutation(
        "a day of rain may be ten times the bound (10,000 mm)",
        "src/siltfence/core/rain/readings.py",
        "MOST_IN_A_DAY = 10_000",
        "MOST_IN_A_DAY = 100_000",
        ("tests/unit/rain/test_rain_bounds.py",),
    ),
    Mutation(
        "an audit event's 'after' may be edited without breaking the chain",
        "src/siltfence/apps/audit/chain.py",
        '        "before": event.before,\n        "after": event.after,\n',
        '        "before": event.before,\n',
        ("tests/integration/test_catch_audit_chain_columns.py",),
    ),
    Mutation(
        "the public register publishes referrals, notices and invoices (decision 30)",
        "src/siltfence/apps/enforcement/register.py",
        'EnforcementAction.objects.filter(public=True, kind__in=PUBLIC_KINDS).order_by("at", "id")',
        'EnforcementAction.objects.filter(public=True).order_by("at", "id")',
        ("tests/integration/test_catch_register_kinds.py",),
    ),
    Mutation(
        "a referral to the attorney lists reports that were dismissed or never reviewed",
        "src/siltfence/apps/enforcement/documents.py",
        'for violation in case.violations.filter(status="found"):',
        "for violation in case.violations.all():",
        ("tests/integration/test_catch_document_addressees.py",),
    ),
    Mutation(
        "the permit and the disapproval are addressed to the plan's engineer",
        "src/siltfence/apps/documents/text.py",
        "    party = application.parties.filter(\n"
        '        role__in=["landowner", "responsible_party", "land_user"]\n'
        "    ).first()\n",
        "    party = application.parties.first()\n",
        ("tests/integration/test_catch_document_addressees.py",),
    ),
    Mutation(
        "anyone signed in may add a document to another person's application",
        "src/siltfence/apps/permits/services/applications.py",
        "    if not (is_applicant_of(user, application) or is_staff_of(user, application)):\n"
        '        raise ActionRefused(errors.NOT_YOURS, field="application")\n'
        "    checked = checked_upload(",
        "    checked = checked_upload(",
        ("tests/integration/test_catch_service_permissions.py",),
    ),
    Mutation(
        "anyone signed in may ask to amend another person's plan (§ 413-8E(3)(c), § 135-8B)",
        "src/siltfence/apps/permits/services/amendments.py",
        "    if not (is_applicant_of(user, permit.application) or is_staff_of(user, permit)):\n"
        '        raise ActionRefused(errors.NOT_YOURS, field="application")\n'
        "    triggers = amendment_triggers(",
        "    triggers = amendment_triggers(",
        ("tests/integration/test_catch_service_permissions.py",),
    ),
    Mutation(
        "data: Spencer's basin must be 2% of its drainage area, not 1% (§ 413-7B(5)(c)[2])",
        "ordinances/spencer-wi/parameters.yaml",
        "      value: 1\n      citation: § 413-7B(5)(c)[2]\n",
        "      value: 2\n      citation: § 413-7B(5)(c)[2]\n",
        ("tests/unit/test_catch_spencer_basin_from_ordinance.py",),
    ),
    Mutation(
        "a rain file's 0.75 in (19.05 mm) is read as 19.0 mm, half to even, not NOAA's 19.1",
        "src/siltfence/core/rain/readings.py",
        "return int((amount * factor).quantize(Decimal(1), rounding=ROUND_HALF_UP))",
        'return int((amount * factor).quantize(Decimal(1), rounding="ROUND_HALF_EVEN"))',
        ("tests/unit/test_catch_rain_ties.py",),
    ),
    Mutation(
        "a rain of 0.75 in on a permit's record is taken as 19.0 mm, half to even",
        "src/siltfence/core/timeline/rain.py",
        "return (Decimal(repr(inches)) * MM_PER_INCH).quantize(TENTH, rounding=ROUND_HALF_UP)",
        'return (Decimal(repr(inches)) * MM_PER_INCH).quantize(TENTH, rounding="ROUND_HALF_EVEN")',
        ("tests/unit/test_catch_rain_ties.py",),
    ),
    Mutation(
        "a rain of exactly 0.5 inch (12.7 mm) is not 'a rain of 0.5 inch or more'",
        "src/siltfence/core/timeline/rain.py",
        "return self.mm >= to_tenths_mm(threshold_inches)",
        "return self.mm > to_tenths_mm(threshold_inches)",
        ("tests/unit/test_catch_rain_ties.py",),
    ),
    Mutation(
        "the authority extends a period that ended, as the board may on restoring (decision 38)",
        "src/siltfence/core/timeline/clocks.py",
        'None if by == "appeals_board" else extension_refused(expires',
        "None if True else extension_refused(expires",
        ("tests/integration/test_restored_permit_period.py",),
    ),
    Mutation(
        "the board sets a restored permit's last day more than 180 days on (§ 413-8E(1))",
        "src/siltfence/apps/appeals/services.py",
        "if maximum is not None and days > maximum:",
        "if maximum is not None and days > maximum + 1:",
        ("tests/integration/test_restored_permit_period.py",),
    ),
    Mutation(
        "a restored permit's last day may come before the decision",
        "src/siltfence/apps/appeals/services.py",
        "if until < decided:",
        "if until < decided - datetime.timedelta(days=1):",
        ("tests/integration/test_restored_permit_period.py",),
    ),
    Mutation(
        "the light path of `siltfence determine` answers in text by default",
        "src/siltfence/cli/determine.py",
        'parser.add_argument("--format", default="json", choices=FORMATS)',
        'parser.add_argument("--format", default="text", choices=FORMATS)',
        ("tests/e2e/test_cli_fast_path.py",),
    ),
)


def run(number: int, mutation: Mutation) -> dict[str, object]:
    path = ROOT / mutation.path
    original = path.read_text(encoding="utf-8")
    if original.count(mutation.old) != 1:
        return {"number": number, "what": mutation.what, "result": "stale (text not found once)"}
    started = time.monotonic()
    try:
        path.write_text(original.replace(mutation.old, mutation.new), encoding="utf-8")
        done = subprocess.run(
            [str(PYTHON), "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *mutation.tests],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=900,
        )
    finally:
        path.write_text(original, encoding="utf-8")
    result = "caught" if done.returncode == 1 else "survived" if done.returncode == 0 else "error"
    return {
        "number": number,
        "what": mutation.what,
        "result": result,
        "seconds": round(time.monotonic() - started, 1),
    }


def main(argv: list[str]) -> int:
    chosen = [int(a) for a in argv] or list(range(1, len(MUTATIONS) + 1))
    results = []
    for number in chosen:
        outcome = run(number, MUTATIONS[number - 1])
        print(f"{number:2} {outcome['result']:9} {outcome['what']}", flush=True)
        results.append(outcome)
    survived = [r for r in results if r["result"] != "caught"]
    print(json.dumps({"mutations": len(results), "not_caught": survived}, indent=1))
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
