"""Why an enforcement step was refused: one sentence each, starting with the field it is
about (as the form labels it). Tests name these constants."""

from siltfence.apps.permits.errors import ActionRefused

__all__ = ["ActionRefused"]

NOT_STAFF_OR_INSPECTOR = "village: only the {authority} or an inspector of {village} may do this"
SOURCE = "source: choose one of {choices}"
PARTY_ROLE = "party role: choose one of {choices}"
DESCRIPTION_REQUIRED = "description: say what was seen on the site"
DESCRIPTION_TOO_LONG = "description: at most {limit:,} characters"
TEXT_TOO_LONG = "{field}: at most {limit:,} characters"
PROVISION_REQUIRED = "provision: name the section broken, for example {example}"
PROVISION_UNKNOWN = "provision: {provision} is not a section of {village} Ch. {chapter}"
DAYS_ORDER = "days to: the violation cannot end ({to}) before it begins ({frm})"
DAYS_FUTURE = "days from: a violation cannot begin after the day it is recorded ({today})"
PERMIT_OTHER_VILLAGE = "permit: permit {number} is not a permit of {village}"
ADDRESS_REQUIRED = "address: give the site's address, or pick it on the map"
LOCATION_INVALID = (
    "location: give the latitude and longitude in decimal degrees "
    "(latitude -90 to 90, longitude -180 to 180)"
)
PHOTO_TYPE = "photos: {name} is not a photo; upload a JPEG or PNG picture"
TOO_MANY_PHOTOS = "photos: at most {limit} photos"
CONTACT_REQUIRED = "contact: give an email address or a phone number so staff can reach you"
EMAIL_INVALID = "email: {value} is not an email address"
NOT_REPORTED = "violation: this report was already reviewed ({status})"
PERMIT_FOR_FINDING = "permit: choose the permit of the site, or leave it empty for a site with none"
GROUNDS_REQUIRED = "grounds: tick at least one ground for the order ({citations})"
GROUNDS_UNKNOWN = "grounds: {ground} is not a ground the chapter gives ({citations})"
GROUND_NO_PERMIT = (
    "grounds: '{says}' ({citation}) is work without a permit in force; permit {number} is in "
    "force on {day} (issued {issued}, last day {expires})"
)
GROUND_NEEDS_PERMIT = (
    "grounds: '{says}' ({citation}) needs a permit in force; this site has none on {day}{why}"
)
NOT_LAWFUL_YET = "{field}: not lawful until {start} ({citation}: {because}); lawful from {start}"
NOT_LAWFUL = "{field}: {what} is not open in this case: {why}"
ORDER_OPEN = "order: a stop-work order posted {day} is still in force"
NO_OPEN_ORDER = "order: there is no stop-work order in force in this case"
NOT_REVOKED = "order: the permit is not revoked, so there is no revocation to retract"
RETRACT_BY = "by: under {citation} only {who} may retract a stop-work order or a revocation"
REVOKE_NO_PERMIT = "permit: this site has no permit to revoke"
COST_CATEGORY = "category: choose one of {choices}"
COST_AMOUNT = "amount: give an amount in dollars greater than 0, at most {limit}"
COST_BEFORE_WORK = "date: costs are for village work, which began {start}; this date is {day}"
NO_WORK = "village work: the village has not begun work on this land"
NO_COSTS = "costs: there are no costs of village work not yet billed"
DUE_DAYS = "due in days: give a whole number of days from 1 to 365"
INVOICE_PAID = "invoice: {number} is paid in full"
PAYMENT_AMOUNT = "amount: give a payment greater than 0 and at most the ${owed} still owed"
NOT_DUE_YET = "date: invoice {number} is due {due}; costs are unpaid only after that day"
NOTHING_UNPAID = "invoice: {number} has nothing unpaid"
ALREADY_CERTIFIED = "invoice: {number} was certified to the tax roll on {day}"
NO_PARCEL = "parcel number: a special assessment is levied against a parcel; enter it first"
RATE_INVALID = "rate: give an annual percentage from 0 to 100"
AUTHORITY_REQUIRED = "authority: name the decision that set it, e.g. a Village Board resolution"
FORFEITURE_INVALID = (
    "per day: give the smallest and largest forfeiture a day, in dollars, smallest first"
)
FORFEITURE_IN_CHAPTER = (
    "per day: {citation} sets the forfeiture itself (${low}-${high} a day); nothing to enter"
)
NO_VIOLATION = "violation: no violation found by staff is on this case's record"
PROSECUTION_NOT_IN_CHAPTER = (
    "referral: the chapter gives no separate forfeiture prosecution referral"
)
CONTROL_CHARACTERS = "{field}: remove the control characters"
DAY_TO_COME = "{field}: {day} has not come yet"
REVOCATION_REASONS = "reasons: say why the permit is revoked"
PERMIT_NOT_ACTIVE = "permit: the permit is {status}, not active"
ORDER_CHOICE = "order: choose the stop-work order or the revocation"
WORK_REQUIRED = "work: describe the work the village intends to do"
WORK_BEGUN = "village work: the village work has already begun"
ALREADY_UNPAID = "invoice: {number} is already recorded as unpaid"
LETTER_KIND = "kind: choose one of the letters to the parties: {kinds}"
WORDING_LINES = "{field}: at most {limit} lines"
WARNING_AFTER_ORDER = (
    "letter: a stop-work order is posted in this case; a warning letter comes before one"
)
WARNING_NOTHING_OPEN = "letter: no violation of this case is open; there is nothing to warn of"
NO_NOTICE_TO_CEASE = (
    "notice: Ch. {chapter} gives no separate notice to cease; post a stop-work order instead"
)
NOTICE_NEEDS_NO_PERMIT = (
    "notice: a notice to cease is for work without a permit ({citation}); permit {number} is "
    "in force on {day}"
)
COST_DESCRIPTION = "description: say what the cost was for"
PARCEL_REQUIRED = "parcel number: give the tax parcel number"
SERVICE_METHOD = "method: choose one of {choices}"
SERVED_FUTURE = "served at: {at} has not come yet; record service when it has happened"
SERVED_BEFORE_ISSUE = (
    "served at: the document was issued {issued}; it cannot be served before ({at})"
)
SERVED_TO = "to: name the person it was served on, or choose a party named on the application"
SERVED_PARTY = "to: that party is not named on this case's application"
SERVED_BY = "served by: name who served it"
SERVED_ATTORNEY = "document: a letter to the village's attorney is not served on a party"
MAIL_ADDRESS_NEEDED = (
    "street: {name} has no mailing address on the village's record; give the address it "
    "was mailed to"
)
EMAIL_NEEDED = "email: give the email address it was sent to"
EMAIL_INVALID_SERVED = "email: {value} is not an email address"
CERTIFIED_NUMBER = (
    "certified number: a certified mail number is 20 to 22 digits (spaces allowed); got {value}"
)
CERTIFIED_ONLY = "certified number: only certified mail has one; choose certified mail"
RECEIVED_METHOD = "received on: a received day is for a document mailed or emailed"
RECEIVED_BEFORE = "received on: {day} is before it was sent ({sent})"
RECEIVED_FUTURE = "received on: {day} has not come yet"
RECEIVED_ALREADY = "received on: this record already says it was received on {day}"
SERVICE_DOCUMENT = "document: no such document in this case"
GIVEN = (
    "given: choose how it was given: handed to the person, posted on the site, or to be "
    "mailed or emailed (record that when it is sent)"
)
