"""Every write of the village's books: money received (with its receipt number), and the
corrections of a payment, an application's fee or a cost of village work.

Each runs in one transaction. It checks who acts (only the village's own staff), reads
what was typed strictly, locks the record the money is for, checks the figures against
what is owed inside that lock, writes, and appends the change to the audit chain. A
correction is a new entry naming the one it corrects, with the reason: nothing is ever
updated in place or deleted, and only the entries not corrected count in a total.

The functions live by subject, and every public name is importable from here:

- ``reading``: what was typed (an amount, a reason, the method and a check's number);
- ``entries``: a payment's row, its receipt number and its words, the sections cited;
- ``fees``: an application's fee received, a payment of it corrected, the fee corrected;
- ``invoices``: a bill's payment received and corrected, a cost of the work corrected;
- ``received``: the doors, ``payment_receive`` and ``payment_correct``, and the village
  office's address the receipts print.
"""

from __future__ import annotations

from siltfence.apps.payments.services.entries import cost_citation, fee_citation
from siltfence.apps.payments.services.fees import application_fee_correct
from siltfence.apps.payments.services.invoices import work_cost_correct
from siltfence.apps.payments.services.reading import method_read, money_read, reason_read
from siltfence.apps.payments.services.received import (
    payment_correct,
    payment_receive,
)

__all__ = [
    "application_fee_correct",
    "cost_citation",
    "fee_citation",
    "method_read",
    "money_read",
    "payment_correct",
    "payment_receive",
    "reason_read",
    "work_cost_correct",
]
