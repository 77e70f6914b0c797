from django.urls import path

from siltfence.apps.payments import views

app_name = "payments"

urlpatterns = [
    path("payments/<int:pk>/receipt.pdf", views.receipt, name="receipt"),
    path("payments/<int:pk>/correct", views.payment_correct, name="payment-correct"),
    path("staff/applications/<int:pk>/fee", views.fee_payment, name="fee-payment"),
    path("staff/invoices/<int:pk>/payment", views.invoice_payment, name="invoice-payment"),
    path("staff/applications/<int:pk>/fee/correct", views.fee_correct, name="fee-correct"),
    path("enforcement/costs/<int:pk>/correct", views.cost_correct, name="cost-correct"),
]
