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
        "src/siltfence/apps/enforcement/document_views.py",
        "if stored.kind in ATTORNEY_LETTERS and not sees_internal_record(",
        "if False and not sees_internal_record(",
        (LAW,),
    ),
    Mutation(
        "a station with no record for the permit is chosen (gap 26)",
        "src/siltfence/apps/duties/stations.py",
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
        "self.decision == Decision.MODIFY and self.retracts",
        "False and self.retracts",
        ("tests/integration/test_appeals.py",),
    ),
    Mutation(
        "an expired permit takes the permit grounds of a stop-work order (§ 413-10A(1))",
        "src/siltfence/apps/enforcement/services/common.py",
        "    if _local_day(village_ordinance(case.village_id), at) > permit.expires_on:\n"
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
        "        if surety is not None:\n            application_transition(",
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
        "src/siltfence/apps/permits/services/letters.py",
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
        "src/siltfence/apps/duties/rain_events.py",
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
        "src/siltfence/apps/duties/rain_events.py",
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
        '    if username_taken(username=data["username"]):\n        return render(',
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
        '"format": given.get("--format", "json"),',
        '"format": given.get("--format", "text"),',
        ("tests/e2e/test_cli_fast_path.py",),
    ),
    Mutation(
        "Thanksgiving is the 3rd Thursday in November in the state's data (§ 995.20)",
        "ordinances/_states/wi/holidays.yaml",
        "    weekday: thursday\n    nth: 4\n",
        "    weekday: thursday\n    nth: 3\n",
        ("tests/unit/timeline/test_holidays.py",),
    ),
    Mutation(
        "the state's rule for hours no longer leaves out Sundays (§ 990.001(4)(a))",
        "ordinances/_states/wi/counting.yaml",
        "hours_skip: [sunday, legal_holiday]",
        "hours_skip: [legal_holiday]",
        ("tests/unit/timeline/test_counting.py",),
    ),
    Mutation(
        "a state's holiday is not one on the day its rule took effect ('from')",
        "src/siltfence/core/ordinance/state_law.py",
        "if self.starts is not None and day < self.starts:",
        "if self.starts is not None and day <= self.starts:",
        ("tests/unit/test_state_folder.py",),
    ),
    Mutation(
        "the stations a clerk leaves unticked are imported anyway",
        "src/siltfence/apps/rain/jobs.py",
        "only=job.chosen or None,",
        "only=None,",
        ("tests/integration/test_rain_import_stations.py",),
    ),
    Mutation(
        "another village's staff may add a gauge and enter its days",
        "src/siltfence/apps/rain/gauges.py",
        "if village_id not in village_ids(actor, Role.STAFF):",
        "if not village_ids(actor, Role.STAFF):",
        ("tests/integration/test_rain_import_stations.py",),
    ),
    Mutation(
        "the audit chain's bulk writer links every event to the head, not to the one before",
        "src/siltfence/apps/audit/chain.py",
        "        events.append(event)\n        previous = event.hash\n",
        "        events.append(event)\n",
        (
            "tests/integration/test_audit_chain.py"
            "::test_append_many_links_each_event_as_the_chain_always_did",
        ),
    ),
    Mutation(
        "the audit chain takes an action that is not in AuditAction",
        "src/siltfence/apps/audit/chain.py",
        "        return str(AuditAction(action).value)\n",
        "        return str(action)\n",
        (
            "tests/integration/test_audit_chain.py"
            "::test_an_action_outside_the_enumeration_is_refused_and_nothing_is_written",
        ),
    ),
    Mutation(
        "an application fee is rounded to the cent the banker's way, not half up",
        "src/siltfence/core/fees.py",
        "total = (base + per_area * beyond).quantize(CENT, rounding=ROUND_HALF_UP)",
        "total = (base + per_area * beyond).quantize(CENT)",
        ("tests/integration/test_payments.py::test_the_fee_is_rounded_to_the_cent_half_up",),
    ),
    Mutation(
        "a payment corrected still counts in the total beside its correction",
        "src/siltfence/apps/payments/selectors.py",
        "payments.filter(correction__isnull=True).aggregate(",
        "payments.aggregate(",
        (
            "tests/integration/test_payments.py"
            "::test_an_invoice_payment_corrected_moves_the_balance",
        ),
    ),
    Mutation(
        "a staff list's download gives another village's rows to whoever asks for them",
        "src/siltfence/presentation/tables.py",
        "    if asked in yours:\n        return {asked}",
        "    if asked:\n        return {asked}",
        ("tests/integration/test_staff_csv.py",),
    ),
    Mutation(
        "a download writes a text starting with = as it is, a formula to a spreadsheet",
        "src/siltfence/presentation/tables.py",
        """return "'" + text if text[:1] in FORMULA_STARTS else text""",
        "return text",
        ("tests/integration/test_staff_csv.py",),
    ),
    Mutation(
        "the payments received in a year take in an invoice paid in a later year",
        "src/siltfence/apps/payments/selectors.py",
        "village_id__in=villages, received_on__year=year, correction__isnull=True",
        "village_id__in=villages, received_on__year__gte=year, correction__isnull=True",
        ("tests/integration/test_staff_csv.py",),
    ),
    Mutation(
        "a motion to reverse carries one concurring vote short of the village's rule (gap 27)",
        "src/siltfence/core/board/sitting.py",
        "carried=sitting.has_quorum and yes >= needed and yes > no,",
        "carried=sitting.has_quorum and yes >= needed - 1 and yes > no,",
        (
            "tests/unit/test_board_sitting.py",
            "tests/integration/test_board_votes.py::"
            "test_B_2_and_B_3_the_same_3_to_2_vote_differs_only_by_the_village_s_rule",
        ),
    ),
    Mutation(
        "the board records a vote at a hearing without a quorum (§ 413-12A, § 135-12A(3))",
        "src/siltfence/apps/appeals/hearings.py",
        "    if not hearing.has_quorum:\n",
        "    if False:\n",
        (
            "tests/integration/test_board_votes.py::"
            "test_B_6_without_a_quorum_no_decision_can_be_recorded",
        ),
    ),
    Mutation(
        "an alternate sits though every member is present (gap 27)",
        "src/siltfence/core/board/sitting.py",
        "        if open_places == 0:\n            break\n",
        "",
        (
            "tests/unit/test_board_sitting.py",
            "tests/integration/test_board_votes.py::"
            "test_B_8_an_alternate_present_with_every_member_sitting_does_not_vote",
        ),
    ),
    Mutation(
        "an emailed notice of intent counts as issued (§ 413-10E 'issuing', gap 31)",
        "src/siltfence/core/timeline/enforcement.py",
        '"notice_of_intent_issued": ("handed_over", "posted_on_site", "mailed"),',
        '"notice_of_intent_issued": ("handed_over", "posted_on_site", "mailed", "emailed"),',
        (
            "tests/integration/test_service_cases.py::"
            "test_S_7_the_notice_of_intent_is_issued_when_it_is_mailed_not_when_dated_or_emailed",
        ),
    ),
    Mutation(
        "a mailed notice to cease notifies when sent, not when received (§ 135-11C, gap 33)",
        "src/siltfence/core/timeline/enforcement.py",
        '"notified_to_cease": ("handed_over",),',
        '"notified_to_cease": ("handed_over", "mailed", "emailed"),',
        (
            "tests/integration/test_service_cases.py::"
            "test_S_15_mailed_the_party_is_notified_on_the_day_it_was_received",
        ),
    ),
    Mutation(
        "the engineer or the contractor is taken for the owner a notice is addressed to",
        "src/siltfence/apps/documents/addressees.py",
        'owner_roles = ("landowner", "responsible_party")',
        'owner_roles = ("landowner", "responsible_party", "engineer", "contractor")',
        (
            "tests/integration/test_notices_served.py::"
            "test_the_placard_goes_to_the_permittee_and_the_landowner_never_the_engineer",
        ),
    ),
    Mutation(
        "a site-log entry after the permit's last day is not flagged (§ 413-8A, § 135-7A)",
        "src/siltfence/apps/sitelog/selectors.py",
        "    return at >= no_permit_from(permit)\n",
        "    return False\n",
        ("tests/integration/test_work_after_the_last_day.py",),
    ),
    Mutation(
        "the permit page leaves out the work recorded after its last day",
        "src/siltfence/apps/web/staff_permit_views.py",
        "entries_without_permit(permit) if timezone.localdate() > permit.expires_on else []",
        "[]",
        ("tests/integration/test_work_after_the_last_day.py",),
    ),
    Mutation(
        "the staff are not told of work recorded without a permit",
        "src/siltfence/apps/notices/services.py",
        "        if isinstance(words, dict):\n",
        "        if False:\n",
        ("tests/integration/test_work_after_the_last_day.py",),
    ),
    Mutation(
        "an answer names none of the readings its rule rests on",
        "src/siltfence/core/timeline/context.py",
        '            for gap_id in rule.get("readings", ()):\n',
        "            for gap_id in ():\n",
        ("tests/unit/timeline/test_readings_on_answers.py",),
    ),
    Mutation(
        "Spencer's revocation leaves out from what its 10 days run (gap 21)",
        "ordinances/spencer-wi/rules.yaml",
        '      # From what the "10 days" run, named on the step.\n'
        "      readings: [ten-days-from]\n",
        "",
        ("tests/unit/timeline/test_readings_on_answers.py",),
    ),
    Mutation(
        "New Glarus's review clock leaves out the reading of a request for information (gap 22)",
        "ordinances/new-glarus-wi/rules.yaml",
        "    # The text names no request for information: that one answers the clock is a "
        "reading.\n    readings: [information-request-clock]\n",
        "",
        (
            "tests/unit/timeline/test_readings_on_answers.py",
            "tests/integration/test_readings_on_the_screens.py",
        ),
    ),
    Mutation(
        "New Glarus's weekly duties leave out the reading of 'week' (gap 13)",
        "ordinances/new-glarus-wi/rules.yaml",
        '    # How "week" is read, named on each week\'s duty.\n'
        "    readings: [weekly-inspection]\n",
        "",
        ("tests/unit/timeline/test_readings_on_answers.py",),
    ),
    Mutation(
        "Spencer's rain duties leave out the reading of 'a rain' (gaps 4 and 20)",
        "ordinances/spencer-wi/rules.yaml",
        '    # What "a rain" is, named on each duty it sets.\n'
        "    readings: [rain-event, each-rain]\n",
        "",
        ("tests/unit/timeline/test_readings_on_answers.py",),
    ),
    Mutation(
        "New Glarus numbers its extension reading 24, the list's number for interest",
        "ordinances/new-glarus-wi/rules.yaml",
        "  - id: extension-total\n    number: 28\n",
        "  - id: extension-total\n    number: 24\n",
        ("tests/unit/test_gap_numbers.py",),
    ),
    Mutation(
        "Spencer has no gap 25 (a pending appeal), which the case page cites",
        "ordinances/spencer-wi/rules.yaml",
        "  - id: pending-appeal\n    number: 25\n",
        "  - id: pending-appeal\n    number: 29\n",
        ("tests/unit/test_gap_numbers.py",),
    ),
    Mutation(
        "signing out leaves the session in the cache the workers share",
        "src/siltfence/apps/accounts/sessions.py",
        "        self._cache.set(self.cache_key_prefix + session_key, ENDED, "
        "settings.SESSION_COOKIE_AGE)\n",
        "        pass\n",
        (
            "tests/integration/test_signed_in_cost.py"
            "::test_signing_out_on_one_worker_ends_the_session_on_another_at_once",
        ),
    ),
    Mutation(
        "a device turned off or replaced keeps the sessions it verified on every worker",
        "src/siltfence/apps/accounts/signed_in.py",
        "    _cache().delete(key)\n    transaction.on_commit(lambda: _cache().delete(key))\n",
        "    pass\n",
        (
            "tests/integration/test_signed_in_cost.py"
            "::test_turning_codes_off_ends_the_verified_state_of_the_same_session_elsewhere_at_once",
        ),
    ),
    Mutation(
        "the appellant reads a step's internal note and the letters to the attorney",
        "src/siltfence/apps/enforcement/selectors.py",
        "return village_id in village_ids(user, Role.STAFF, Role.INSPECTOR)",
        "return True",
        (
            "tests/integration/test_appeal_page_privacy.py"
            "::test_the_permittee_reaches_neither_the_internal_note_nor_the_attorney_letter",
        ),
    ),
    Mutation(
        "the appeals board reads the internal note the appellant cannot (decision 47)",
        "src/siltfence/apps/enforcement/selectors.py",
        "return village_id in village_ids(user, Role.STAFF, Role.INSPECTOR)",
        "return village_id in village_ids(user, Role.STAFF, Role.INSPECTOR, Role.APPEALS_BOARD)",
        (
            "tests/integration/test_appeal_page_privacy.py"
            "::test_the_villages_staff_read_the_note_and_the_letter_and_the_board_does_not",
        ),
    ),
    Mutation(
        "anyone who sees a case records a payment of its invoice (only the village's staff may)",
        "src/siltfence/apps/payments/views.py",
        "    _staff_only(request, invoice.case)\n",
        "",
        ("tests/integration/test_access_matrix_payments.py",),
    ),
    Mutation(
        "a rain corrected in the record keeps its old amount on the permits (still owes)",
        "src/siltfence/apps/duties/rain_events.py",
        "            if inches == before:\n",
        "            if inches is not None:\n",
        ("tests/integration/test_rain_correction_reaches_the_permits.py",),
    ),
    Mutation(
        "a day the record no longer holds rain for stays on the permits",
        "src/siltfence/apps/duties/rain_events.py",
        "                event.delete()\n",
        "                pass\n",
        ("tests/integration/test_rain_correction_reaches_the_permits.py",),
    ),
    Mutation(
        "a bill corrected to more keeps its first due day (an amount never billed goes unpaid)",
        "src/siltfence/apps/payments/services/invoices.py",
        "    if total > invoice.principal:\n",
        "    if False:\n",
        ("tests/integration/test_payments.py",),
    ),
    Mutation(
        "the warning letter no longer says the chapter does not require it",
        "src/siltfence/apps/enforcement/documents.py",
        '        f"THIS LETTER IS NOT REQUIRED BY {chapter.upper()}.",\n',
        "",
        ("tests/integration/test_warning_letter.py",),
    ),
    Mutation(
        "a warning letter is written after the stop-work order is posted",
        "src/siltfence/apps/enforcement/services/orders.py",
        "        if open_stop_work_order(locked) is not None:\n",
        "        if False:\n",
        ("tests/integration/test_warning_letter.py",),
    ),
    Mutation(
        "the letters made leave out the village's own words",
        "src/siltfence/apps/enforcement/documents.py",
        "    lines = worded(lines_for(case=case, action=action, kind=kind), "
        "case.village_id, kind)\n",
        "    lines = lines_for(case=case, action=action, kind=kind)\n",
        ("tests/integration/test_letter_wording.py",),
    ),
    Mutation(
        "the village's words replace a line the chapter requires",
        "src/siltfence/apps/enforcement/services/letters.py",
        "    head, body, signature = lines[:6], lines[6:-1], lines[-1:]\n",
        "    head, body, signature = lines[:6], lines[7:-1], lines[-1:]\n",
        ("tests/integration/test_letter_wording.py",),
    ),
    Mutation(
        "the office's data wins over what its staff entered",
        "src/siltfence/apps/documents/addressees.py",
        '        key: (getattr(village, key, "") or data[key] or "") for key in ("phone", "email", '
        '"hours")\n',
        '        key: (data[key] or getattr(village, key, "") or "") for key in ("phone", "email", '
        '"hours")\n',
        ("tests/integration/test_office_contact.py",),
    ),
    Mutation(
        "an office contact is written before all three are checked",
        "src/siltfence/apps/permits/services/village.py",
        "        after[field] = text\n",
        "        after[field] = text\n"
        "        Village.objects.filter(pk=village.pk).update(**{field: text})\n",
        ("tests/integration/test_office_contact.py",),
    ),
    Mutation(
        "an inspection withdrawn by a corrected rain record is not told",
        "src/siltfence/apps/duties/rain_applied.py",
        '        if not any(_overlap(duty["rain"], now["rain"]) for now in '
        "after.get(permit_id, []))\n",
        "        if False\n",
        ("tests/integration/test_rain_correction_reaches_the_permits.py",),
    ),
    Mutation(
        "an inspection still owed after a correction is told as withdrawn",
        "src/siltfence/apps/duties/rain_applied.py",
        '    return bool(one["from"] <= other["to"] and other["from"] <= one["to"])\n',
        "    return False\n",
        ("tests/integration/test_rain_correction_reaches_the_permits.py",),
    ),
    Mutation(
        "the enforcement pages for officials open to anyone signed in",
        "src/siltfence/apps/enforcement/views.py",
        '        raise PermissionDenied("This page is for village staff.")\n',
        "        return set()\n",
        ("tests/integration/test_access_matrix_enforcement.py",),
    ),
    Mutation(
        "a village's staff pages open to anyone signed in",
        "src/siltfence/apps/web/staff_views.py",
        "        raise PermissionDenied(\"Only the village's administering authority "
        'may do this.")\n',
        "        return None\n",
        ("tests/integration/test_access_matrix.py",),
    ),
    Mutation(
        "an amendment's analysis names no rule behind the changes",
        "src/siltfence/core/analysis/amendment.py",
        "            if theirs is ours:\n",
        "            if True:\n",
        ("tests/unit/analysis",),
    ),
    Mutation(
        "the YAML reader's code is left out of the chapter cache's key",
        "src/siltfence/core/ordinance/cache.py",
        '    "siltfence.core.ordinance.yamlfile",\n)',
        ")",
        ("tests/unit/test_loader_cache.py",),
    ),
    Mutation(
        "an inspection's withdrawal is recorded outside a transaction",
        "src/siltfence/apps/duties/rain_applied.py",
        "    with transaction.atomic():\n        for permit_id, duty in withdrawn:\n",
        "    if True:\n        for permit_id, duty in withdrawn:\n",
        ("tests/integration/test_rain_correction_reaches_the_permits.py",),
    ),
    Mutation(
        "an enforcement letter says the law of the latest date in the data, not of its step's day",
        "src/siltfence/apps/enforcement/documents.py",
        "ordinance = ordinance_on(case.village_id, action.at)",
        "ordinance = load(case.village_id)",
        ("tests/integration/test_letters_say_the_law_of_their_day.py",),
    ),
    Mutation(
        "a letter's day is read in UTC, not in the village's time zone",
        "src/siltfence/presentation/today.py",
        "day = when.astimezone(ZoneInfo(ordinance.time_zone)).date()",
        "day = when.astimezone(datetime.UTC).date()",
        ("tests/integration/test_letters_say_the_law_of_their_day.py",),
    ),
    Mutation(
        "the register shows the sites without a permit from the first page's start on every page",
        "src/siltfence/apps/enforcement/register.py",
        "return sites[max(bottom - many_permits, 0) : top - many_permits]",
        "return sites[0 : top - bottom]",
        ("tests/integration/test_register_sites_without_permit.py",),
    ),
    Mutation(
        "the recompute shares an event between permits whatever its place in each record",
        "src/siltfence/apps/duties/services.py",
        "key = (village_id, len(record), kind, at, text)",
        "key = (village_id, 0, kind, at, text)",
        ("tests/integration/test_duties_recompute.py",),
    ),
    Mutation(
        "the engine takes checked events in the order given, not in time order",
        "src/siltfence/core/timeline/engine.py",
        "    checked = sorted(checked, key=lambda e: e.at)\n",
        "",
        ("tests/unit/timeline/test_events.py",),
    ),
    Mutation(
        "the chapter cache serves its entry whatever files it was read from",
        "src/siltfence/core/ordinance/cache.py",
        'if not isinstance(data, dict) or data.get("key") != key:',
        "if not isinstance(data, dict):",
        ("tests/unit/test_loader_cache.py",),
    ),
    Mutation(
        "the analysis reads a run of choices from the first choice as reaching the last",
        "src/siltfence/core/analysis/vector.py",
        "found = np.less_equal(value.view(np.uint8), high)",
        "found = np.greater_equal(value, low)",
        ("tests/unit/analysis/test_vector_conditions.py",),
    ),
    Mutation(
        "the analysis counts 'not given' among the choices of a run that ends at the last",
        "src/siltfence/core/analysis/vector.py",
        "found = np.greater_equal(value, low)  # the run ends at the last choice",
        "found = np.greater_equal(value, -1)",
        ("tests/unit/analysis/test_vector_conditions.py",),
    ),
    Mutation(
        "the amendment report shifts every plan by one where the versions list the same kinds",
        "src/siltfence/core/analysis/amendment.py",
        "return judged.plan + np.int8(1)",
        "return judged.plan + np.int8(2)",
        ("tests/unit/analysis/test_amendment.py",),
    ),
    Mutation(
        "a deadline in hours is kept by the wall time it was counted from, not the instant",
        "src/siltfence/core/timeline/counting.py",
        'key = ("hours", start.astimezone(UTC), start.tzinfo, n)',
        'key = ("hours", start, n)',
        ("tests/unit/timeline/test_duties.py",),
    ),
    Mutation(
        "a list's cells lose the heading a phone's width shows beside each",
        "src/siltfence/presentation/tables.py",
        """parts.append(f'<td data-label="{heading}">{column.page(row)}</td>\\n')""",
        """parts.append(f"<td>{column.page(row)}</td>\\n")""",
        ("tests/unit/test_table_markup.py",),
    ),
    Mutation(
        "a chapter's counting rule is made again for every computation, its deadlines lost",
        "src/siltfence/core/timeline/counting.py",
        "    rule = _RULES.get(ordinance)\n",
        "    rule = None\n",
        ("tests/unit/timeline/test_counting.py",),
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
