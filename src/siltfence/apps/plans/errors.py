"""Why a control plan was refused: one sentence each, naming the field. Tests name these."""

NOT_ALLOWED = (
    "application: only the applicant (while the application is a draft or information is "
    "requested) or the village's {authority} may change its control plan"
)
DECIDED = (
    "status: the application is {status}; a change to an approved plan is a plan amendment, "
    "made on the permit with written permission ({citation})"
)
WRONG_JURISDICTION = "plan.jurisdiction: this application is in {village}; the plan names {given!r}"
NOT_AN_OBJECT = "plan: expected a JSON object (docs/plan-format.md)"
NO_LONGER_READS = (
    "The stored plan no longer reads under the ordinance data in force ({exc}); save a "
    "corrected revision on the map."
)
