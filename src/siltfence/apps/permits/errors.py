"""Why a permit action was refused: one sentence each, citing the section where the law
sets the rule. Tests name these constants."""

from siltfence.core.errors import SiltfenceError


class ActionRefused(SiltfenceError):
    """A service's precondition failed; nothing was written."""


NOT_YOURS = "application: you may only act on your own applications"
NOT_STAFF = "village: only the {authority} of {village} may do this"
NOT_DRAFT = "status: only a draft application can be submitted; this one is {status}"
CHAPTER_DOES_NOT_APPLY = (
    "facts: {village} Ch. {chapter} does not apply to this project, so no permit is needed "
    "(see the determination's findings)"
)
CHECKLIST_CLOSED = (
    "status: the plan checklist can change only in a draft or when information was "
    "requested; this application is {status}"
)
INCOMPLETE = "application: the application cannot be filed yet; still missing: {missing}"
MISSING_PLAN_DOCUMENT = "the {plan} itself: upload the {plan} (PDF) before filing ({citation})"
MISSING_FEE = "the application fee of ${amount}, paid to the village and recorded by its staff"
MISSING_FEE_BALANCE = (
    "the rest of the application fee: ${amount} is due and ${paid} was recorded as paid, "
    "so ${rest} is still owed"
)
NOT_UNDER_REVIEW = "status: the application is {status}, not under review"
NOT_WAITING_FOR_INFORMATION = "status: no information was requested; the application is {status}"
REASONS_REQUIRED = "reasons: a disapproval must state its reasons in writing ({citation})"
MESSAGE_REQUIRED = "message: say what information is needed"
RESPONSE_REQUIRED = "response: describe the information provided, or upload it"
EXTENSION_DAYS = "days: an extension is for 1 to {max} days at a time ({citation}); got {days}"
PERMIT_NOT_ACTIVE = "permit: the permit is {status}, not active"
DATED_BEFORE_ISSUE = "on: the permit was issued on {issued}; nothing on it can be dated {on}"
COVER_OUT_OF_RANGE = "cover: give the perennial cover as a percentage from 0 to 100"
COVER_OR_MEASURES = (
    "cover: final stabilization needs uniform perennial cover of at least {minimum}%, or "
    "equivalent permanent stabilization measures described in writing ({citation}); "
    "{given}% was recorded and no measures were described"
)
STABILIZATION_NOT_RECORDED = (
    "cover: record the perennial cover, or describe how the site was permanently stabilized "
    "({citation})"
)
MEASURES_TOO_LONG = "measures: describe the measures in at most {limit} characters"
NUL_IN_TEXT = "{field}: the text holds a NUL character, which cannot be stored; type it again"
CONDITIONS_NOT_ALLOWED = (
    "conditions: the chapter gives the {authority} no power to add conditions to a permit; "
    "write them as notes to the decision instead"
)
CONDITIONS_INVALID = (
    "conditions: give at most {count} added conditions of at most {limit} characters each"
)
AMENDMENT_TRIGGER = "trigger: choose one of {choices}"
AMENDMENT_DECIDED = "amendment: this amendment was already decided ({status})"
DATE_BEFORE_RECEIPT = "at: a decision cannot come before the application was received ({received})"
ACTIVITIES_NOT_COMPLETED = (
    "completed: final stabilization needs that {says} ({citation}); tick it once they have been"
)
SURETY_AMOUNT = (
    "{field}: give the {what} in dollars and whole cents, more than $0 and at most ${limit:,}"
)
SURETY_NOT_ALLOWED = (
    "surety: the {authority} may require a surety only as a condition of approval and issuance "
    "of the permit ({citation}); this application is {status}"
)
SURETY_NOT_AWAITED = "application: no surety is awaited; the application is {status}"
SURETY_SHORT = (
    "amount: the approval required a surety of ${required:,.2f} ({citation}); ${given:,.2f} "
    "was given"
)
SURETY_EXPIRES_BEFORE = (
    "expires_on: a surety that expires on {expires} would not outlast the day it was received "
    "({received})"
)
SURETY_OVER_BALANCE = "amount: ${amount:,.2f} is more than the ${balance:,.2f} left on the surety"
SURETY_RELEASED = "surety: this surety was released in full on {on}"
SURETY_DATE = "on: a surety cannot be drawn on or released before it was received ({received})"
SURETY_KIND = (
    "kind: a surety bond (surety_bond) or an irrevocable letter of credit (letter_of_credit)"
)
SHORT_TEXT = "{field}: required, at most {limit} characters"
SURETY_FUTURE = "on: a surety is recorded on the day it happens, not on a day still to come"
SURETY_NOTHING_LEFT = "amount: nothing is left on this surety to draw on or release"
FEE_ALREADY_RECORDED = (
    "amount: the fee is already recorded as paid: ${amount} on {on}; to change it, record a "
    "correction with its reason"
)
TEXT_TOO_LONG = "{field}: at most {limit:,} characters"
BUILDING_PERMIT_EXPIRY = (
    "building_permit_expires: give the day the building permit ends, from the day the "
    "application is made ({on}) to {years} years later"
)
PARTY_ROLE = "{field}: choose one of {choices}"
PARTY_NAME = "{field}: give the name"
PARTY_TEXT_TOO_LONG = "{field}: at most {limit:,} characters"
PARTY_CONTROL_CHARACTERS = "{field}: remove the control characters"
PARTY_EMAIL = "{field}: {value} is not an email address"
PARTY_PHONE = "{field}: {value} is not a phone number; write it like 608-555-0100"
PARTY_PHONE_REQUIRED = (
    "{field}: an on-site contact needs a phone number someone answers on the site"
)
PARTY_ADDRESS_PART = (
    "{field}: a mailing address needs the street, the city, the state and the ZIP code; "
    "give all four, or leave all four empty"
)
PARTY_STATE = "{field}: {value} is not a state; give its two letters, e.g. WI"
PARTY_ZIP = "{field}: {value} is not a ZIP code; give 5 digits, or 9 (12345-6789)"
TOO_MANY_PARTIES = "parties: at most {limit} people on one application"
VILLAGE_HOLDS_LAND_TWICE = "parties: name the village as holder of the land once"
NOT_STAFF_OR_INSPECTOR = "village: only the {authority} or an inspector of {village} may do this"
PARTY_UNKNOWN_FIELD = "{field}: not a field of a party; expected {expected}"
