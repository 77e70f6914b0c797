from django.apps import AppConfig


class PaymentsConfig(AppConfig):
    name = "siltfence.apps.payments"
    label = "payments"
    verbose_name = "Fees, payments and receipts"

    def ready(self) -> None:
        from siltfence.apps.payments.forms import InvoicePaymentForm
        from siltfence.apps.payments.models import FeeCorrection
        from siltfence.apps.payments.selectors import fee_corrected, fee_paid_total
        from siltfence.apps.payments.services import payment_receive
        from siltfence.apps.permits.books import Books, books_set

        # permits and enforcement, below payments, do not import it: they read and write
        # the books through what is handed in here (decision 50).
        books_set(
            Books(
                fee_paid_total=fee_paid_total,
                fee_corrected=fee_corrected,
                fee_corrections=FeeCorrection.objects.all,
                payment_receive=payment_receive,
                invoice_payment_form=InvoicePaymentForm,
            )
        )
