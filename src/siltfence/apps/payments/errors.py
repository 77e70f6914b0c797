"""Why a payment, a correction or a fee schedule was refused: one sentence each, starting
with the field it is about. Tests name these constants."""

from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.fee_terms import (
    AMOUNT,
    AMOUNT_OR_NOTHING,
    AREA_INCLUDED,
    AREA_INCLUDED_WITHOUT_AMOUNT,
    AREA_UNIT,
    AREA_UNIT_WITHOUT_AMOUNT,
)

# The sentences refusing an amount or a fee schedule's terms are permits' (its fee schedule
# reads money as payments does); they are named here too, beside the others.
__all__ = [
    "AMOUNT",
    "AMOUNT_OR_NOTHING",
    "AREA_INCLUDED",
    "AREA_INCLUDED_WITHOUT_AMOUNT",
    "AREA_UNIT",
    "AREA_UNIT_WITHOUT_AMOUNT",
    "ActionRefused",
    "RecordKept",
]


class RecordKept(ActionRefused):
    """A payment or a correction was about to be deleted; the books keep every entry."""


RECORD_KEPT = (
    "record: payments and corrections are never deleted; correct an entry with a new one, "
    "giving the reason"
)
METHOD = "method: choose cash, check, card or bank transfer"
CHECK_NUMBER_REQUIRED = "check_number: a payment by check needs the check's number"
CHECK_NUMBER_FORM = (
    "check_number: a check number is 1 to 20 letters A-Z, digits 0-9 or dashes, like 1042"
)
CHECK_NUMBER_NOT_A_CHECK = (
    "check_number: only a check has a number; choose check as the method, or leave it empty"
)
REASON_REQUIRED = "reason: say why the entry is corrected"
REASON_TOO_LONG = "reason: at most 500 characters (this one has {length:,})"
CONTROL_CHARACTERS = "{field}: remove the control characters"
PAYER_TOO_LONG = "payer: at most 200 characters"
DAY_TO_COME = "received_on: {day} has not come yet; money is recorded on the day it is received"
PURPOSE = "purpose: choose the application fee or a re-inspection fee"
NO_FEE_DUE = (
    "amount: no application fee is due on application {number}; if the village charges one, "
    "correct the fee first"
)
FEE_OVERPAID = (
    "amount: ${amount} is more than the ${owed} still owed on the application fee of ${due}"
)
FEE_PAID = "amount: the application fee of ${due} is paid in full (${paid} recorded)"
NO_REINSPECTION_FEE = (
    "purpose: the village's fee schedule in force on {day} sets no re-inspection fee"
)
REINSPECTION_AMOUNT = (
    "amount: the re-inspection fee in force on {day} is ${fee} (set by {authority}); "
    "record one re-inspection a receipt"
)
INVOICE_OVERPAID = "amount: ${amount} is more than the ${owed} still owed on invoice {number}"
INVOICE_PAID = "amount: invoice {number} is paid in full"
ALREADY_CORRECTED = "{what}: this entry was already corrected by {by}; correct that entry instead"
NOTHING_CHANGES = "amount: the correction changes nothing; give what the entry should have been"
CORRECTED_PAYMENTS_EXCEED = (
    "amount: after this correction ${paid} would be recorded as paid against ${owed} owed; "
    "correct the other payments first"
)
FEE_BELOW_PAID = (
    "amount: ${paid} is already recorded as paid toward the fee; a fee below that needs the "
    "payments corrected first"
)
COST_CERTIFIED = (
    "cost: invoice {number} was certified to the tax roll on {day}; its costs are the "
    "billing officer's now, and are not corrected here"
)
COST_RAISED_AFTER_UNPAID = (
    "amount: the costs of invoice {number} are recorded as unpaid, so it can no longer bill "
    "more: record what was left out as a new cost and issue a bill for it, which gives the "
    "owner a term of its own to pay"
)
COST_BELOW_PAID = (
    "amount: invoice {number} would then bill ${total}, less than the ${paid} already paid; "
    "correct the payments first"
)
COST_INVOICE_EMPTY = (
    "amount: invoice {number} would then bill $0.00; a bill cannot be for nothing, so at least "
    "one of its costs stays above $0.00"
)
