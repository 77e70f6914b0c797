"""The shapes of a village's ordinance files.

A village's folder holds ``jurisdiction.yaml``, ``sections.yaml``, ``parameters.yaml`` and
``rules.yaml``. Each is checked against its spec here (``siltfence.core.ordinance.schema``
reads a spec), with the lists of names the files may use: the kinds of duty, the
enforcement actions, the kinds of plan and the design checks.
"""

from __future__ import annotations

import datetime

from siltfence.core.board import rule as _board
from siltfence.core.facts import FACTS
from siltfence.core.ordinance import states as _states
from siltfence.core.ordinance.schema import (
    Citation,
    Condition,
    DatedValues,
    MapOf,
    Nullable,
    OneOf,
)
from siltfence.core.quantities import UNITS

FILES = ("jurisdiction.yaml", "sections.yaml", "parameters.yaml", "rules.yaml")
DUTY_KINDS = (
    "review_decision",
    "re_review_decision",
    "start_notice",
    "measure_completion_notice",
    "rain_inspection",
    "weekly_inspection",
    "municipal_inspection",
    "stabilization",
)
ACTIONS = (
    "revoke_permit",
    "request_cease_and_desist",
    "issue_notice_of_intent",
    "begin_village_work",
    "certify_special_assessment",
)
PLAN_KINDS = ("control_plan", "control_plan_statement", "erosion_and_sediment_control_plan")
# The design checks of a control plan (docs/plan-format.md), by the id each result carries.
DESIGN_CHECKS = (
    "dewatering",
    "sediment-measure",
    "sediment-basin",
    "fence-coverage",
    "sheet-flow",
    "stockpile",
    "stabilization",
    "tracking",
    "inlet-protection",
)
# Design rules a chapter may state in words (a yes or no) rather than as a number.
STATED_RULES = ("perimeter_fences", "inlet_protection_required", "tracking_pad_required")
# The parts of a control plan, besides its map, that can show a plan-content item.
PLAN_FIELDS = ("schedule", "maintenance", "description")

JURISDICTION_SPEC = {
    "id": str,
    "name": str,
    # The id of the state's folder, ordinances/_states/<state>/ (its name, holidays and
    # counting rules).
    "state": str,
    "county": str,
    "time_zone": str,
    "chapter": str,
    "title": str,
    "source": str,
    "history": str,
    "adopted": datetime.date,
    "versions": [{"effective": datetime.date, "title": str, "note": str}],
    "authority": {"title": str, "citation": Citation},
    # Who applies for the permit, the sections that say so, and the party they are on the
    # record (the owner named on an application).
    "applicant_citations": [Citation],
    "applicant_role": OneOf("landowner", "land_user", "responsible_party"),
    "appeals_body": {"title": str, "citation": Citation},
    # How the appeals board sits and how many votes decide: the statute's, which the
    # chapter incorporates, as the village reads it (siltfence.core.board.rule).
    "board": _board.BOARD_SPEC,
    # Where a site map opens before anything is drawn: the village centre, WGS84 degrees.
    "map_centre": {"latitude": float, "longitude": float},
    "words": MapOf(str),
    # The village's own counting rules, in the shape of the state's (counting.yaml there).
    "counting_rules?": [_states.COUNTING_RULE_SPEC],
    "time_counting": {
        # The id of a rule of counting_rules above or of the state's counting.yaml.
        "rule": str,
        "citation": Citation,
        "stands_in": bool,
        # The village's own provision the rule stands in for, when it is not in hand.
        "stands_in_for?": str,
        "says": str,
        # The id of the state's list of legal holidays (its holidays.yaml).
        "holidays": str,
    },
    # The administering authority's office, as the notices print it: where to write, call
    # or pay (decision 46). A value the village has not given is null, and ``not_given``
    # says so; ``source`` says where the values come from.
    "office": {
        "name": str,
        "mailing_address": {"street": str, "city": str, "state": str, "zip": str},
        "phone": Nullable(str),
        "email": Nullable(str),
        "hours": Nullable(str),
        "source": str,
        "not_given?": str,
    },
    "office_calendar": {
        "citation": Citation,
        "business_days": bool,
        # The list of legal holidays the office's closure days are seeded from (its id).
        "closures_seeded_from": str,
        # Whether the office's established hours close it to the public on Saturdays, for
        # a counting rule that moves a filing off such a Saturday (saturday_filing). Null
        # when the village has not said; a reason is then due.
        "closed_on_saturdays?": Nullable(bool),
        "closed_on_saturdays_note?": str,
    },
}

SECTIONS_SPEC = [
    {
        "section": str,
        "heading": str,
        "reconstructed": bool,
        "received?": bool,
        "text": Nullable(str),
        "note?": str,
    }
]

PARAMETER_SPEC = MapOf(
    {
        "description": str,
        "unit": OneOf(*UNITS, "month-day"),
        "values": DatedValues(
            {
                "value": Nullable(lambda v, p, c: None),  # typed against the unit below
                "citation": Citation,
                "text": str,
                "not_in_text?": str,
            }
        ),
    }
)

_FINDING_RULE = {
    "id": str,
    "citation": Citation,
    "when": Condition,
    "holds?": str,
    "fails?": str,
    "notwithstanding?": [str],
    "overridden_by?": [str],
    # A gap note (by id) to show whenever this exemption decides the answer: it holds
    # while a trigger also holds.
    "reading?": str,
}
# What a notice tells its addressee to do, and the section that says so.
_REMEDY = {"citation": Citation, "says": str}
_NOTE = {
    "id": str,
    "citations": [Citation],
    "when?": Condition,
    "when_applies?": bool,
    "says": str,
}
RULES_SPEC = {
    "territory": [
        {
            "location": OneOf(*FACTS["location"].choices),
            "covered": bool,
            "citation": Citation,
            "says": str,
            "gap?": str,
        }
    ],
    "triggers": [_FINDING_RULE],
    "exemptions": [_FINDING_RULE],
    "plans": [
        {
            "kind": OneOf(*PLAN_KINDS),
            "citation": Citation,
            "when?": Condition,
            "says": str,
            # Each item may say how a control plan shows it, for the plan-content checklist:
            # an id the plan preparer can declare, the kinds of site feature that show it
            # ("control_measure": any kind of control measure), and a part of the plan.
            "contents": [
                {
                    "item": str,
                    "citation": Citation,
                    "id?": str,
                    "features?": [str],
                    "plan_field?": OneOf(*PLAN_FIELDS),
                }
            ],
        }
    ],
    "requirements": [{"id": str, "citation": Citation, "when?": Condition, "says": str}],
    # Duties that bind every construction site in the territory, permit or not.
    "site_duties?": [{"id": str, "citation": Citation, "says": str, "responsible?": str}],
    "notes": [_NOTE],
    "gaps": [
        {
            **_NOTE,
            "number": int,
            "topic?": OneOf("duties", "inspections", "enforcement", "permits"),
        }
    ],
    "design_storms?": {
        "citation": Citation,
        "text": str,
        "storms": [
            {"duration_hours": float, "intensity_in_per_hour": float, "total_inches": float}
        ],
    },
    # The design checks of a control plan: where the chapter states the rule each check
    # applies, and what else the checks cite. A chapter that states no design rule of its
    # own (its numbers come from standards it incorporates) leaves out ``checks``.
    "design?": {
        "checks?": {f"{name}?": Citation for name in DESIGN_CHECKS},
        # The provision whose rules hold only where runoff leaves the site.
        "runoff_leaving_site?": Citation,
        # Where the authority identifies or approves the design criteria the text leaves open.
        "design_criteria?": Citation,
        # The provision that incorporates the technical standards of standards.yaml.
        "standards?": Citation,
        # Rules the chapter states in words rather than as a number in parameters.yaml.
        "stated?": {
            f"{name}?": {"value": bool, "citation": Citation, "text": str} for name in STATED_RULES
        },
    },
    "clocks": [
        {
            "kind": OneOf(*DUTY_KINDS),
            "from_event": str,
            "period": str,
            "days": OneOf("calendar", "business"),
            "citation": Citation,
            "says": str,
            # The gaps (by id) whose readings the clock's answer rests on, named on it.
            "readings?": [str],
        }
    ],
    "permit": {
        "duration": str,
        "extension_max": str,
        "citation": Citation,
        "approval_citation": Citation,
        "disapproval_citation": Citation,
        "surety_citation": Citation,
        "surety": str,
        "amendment_citation": Citation,
        "amendment": str,
        # The events on which the plan must be amended, or written permission asked.
        "amendment_triggers": [{"id": str, "citation": Citation, "says": str}],
        # Where the authority may add conditions to a permit (New Glarus § 135-7F).
        "added_conditions?": {"citation": Citation, "says": str},
        # What final stabilization is, and where the chapter says so.
        "final_stabilization": {
            "citation": Citation,
            "says": str,
            # Where the definition also needs the work finished, in its words.
            "activities_completed?": str,
        },
        # The rule that no one may commence the regulated activity without a permit.
        "required": {"citation": Citation, "says": str},
        # Filing an application authorises the authority to enter the site for the review.
        "entry_by_application": {"citation": Citation, "says": str},
    },
    "permit_conditions": [{"id": str, "citation": Citation, "says": str, "note?": str}],
    "duties": [
        {
            "kind": OneOf(*DUTY_KINDS),
            "party": OneOf("permittee", "authority"),
            "event": str,
            "relation": OneOf("after", "before", "every"),
            "period?": str,
            "threshold?": str,
            # Rain duties: which rains count (while the permit's duties run, or only
            # during active construction).
            "window?": OneOf("permit", "active_construction"),
            # The duty is a notice filed with the village office (a counting rule's
            # saturday_filing).
            "filed_with_office?": bool,
            # false: the last day is the plain count and never moves (gap 13).
            "moves?": bool,
            # true: a condition the permit imposes on the permittee ("All permits shall
            # require the permittee to ..."): owed only for what happens while a permit
            # is in force.
            "condition_of_permit?": bool,
            "citation": Citation,
            # The gaps (by id) whose readings each duty of the rule rests on, named on it.
            "readings?": [str],
        }
    ],
    "municipal_inspections?": {
        "citation": Citation,
        "seasons": [{"from": str, "to": str, "at_least": int, "per": OneOf("month", "season")}],
    },
    "enforcement": {
        "stop_work_order": {
            "citation": Citation,
            # What the order requires, in the chapter's words.
            "requires": {"citation": Citation, "says": str},
            "grounds": [
                # What the person must do about the ground, for the order's "What you must
                # do" paragraph.
                {"id": str, "citation": Citation, "says": str, "remedy?": _REMEDY}
            ],
            # How the order is lifted, in the chapter's terms.
            "lift?": _REMEDY,
        },
        "actions": [
            {
                "action": OneOf(*ACTIONS),
                "after_event": str,
                "wait?": str,
                "requires_permit?": bool,
                # true: the order or notice must have been disobeyed (a violation whose days
                # begin after it), not only given (New Glarus § 135-11B, C).
                "requires_disobedience?": bool,
                "citation": Citation,
                "says": str,
                # What the person the step's notice goes to must do (its "What you must do").
                "remedy?": _REMEDY,
                # The gaps (by id) whose readings the step's answer rests on, named on it.
                "readings?": [str],
            }
        ],
        "retraction": {
            "citation": Citation,
            "by": [OneOf("authority", "appeals_board")],
            "says": str,
        },
        "forfeiture": {
            "min": str,
            "max": str,
            "per_day": bool,
            "plus_costs": Nullable(bool),
            "plus_costs_unknown?": str,
            "citation": Citation,
            "says": str,
        },
        "injunction": {"citation": Citation, "says": str},
        # To whom the authority refers a case for a court order, and the statute under
        # which unpaid costs of village work are assessed (documents name them).
        "attorney?": {"title": str, "citation": Citation},
        "special_assessment?": {"law": str, "citation": Citation},
        # The authority's entry on land where work runs without a permit.
        "entry_without_permit": {"citation": Citation, "says": str, "gap?": str},
    },
    "appeals": {
        "body": str,
        "citation": Citation,
        "says": str,
        "who_may_appeal": [str],
        "who_citation": Citation,
        "not_appealable": [{"what": str, "citation": Citation}],
    },
}
