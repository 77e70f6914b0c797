from django.urls import path

from siltfence.apps.enforcement import complaint_views, document_views, step_views, views

app_name = "enforcement"
urlpatterns = [
    path("enforcement/", views.cases, name="cases"),
    path("enforcement/cases/<int:pk>/", views.case_detail, name="case"),
    path("enforcement/cases/<int:pk>/<slug:step>", step_views.case_step, name="case-step"),
    path("enforcement/invoices/<int:pk>/<slug:step>", step_views.invoice_step, name="invoice-step"),
    path("enforcement/violations/new/", complaint_views.violation_new, name="violation-new"),
    path(
        "enforcement/reports/<int:pk>/review",
        complaint_views.complaint_review,
        name="complaint-review",
    ),
    path("enforcement/photos/<int:pk>/", complaint_views.photo, name="photo"),
    path("enforcement/documents/<int:pk>/", document_views.document, name="document"),
    path("enforcement/documents/<int:pk>/service", document_views.document_service, name="service"),
    path(
        "enforcement/documents/<int:pk>/proof-of-service.pdf",
        document_views.proof_of_service,
        name="proof-of-service",
    ),
    path(
        "enforcement/services/<int:pk>/received",
        document_views.service_received,
        name="service-received",
    ),
    path("enforcement/villages/<slug:village>/", views.village_settings, name="village"),
    path("report-a-site/", complaint_views.complaint, name="complaint"),
    path("report-a-site/<int:pk>/", complaint_views.complaint_received, name="complaint-received"),
    path(
        "report-a-site/<int:pk>/receipt.pdf",
        complaint_views.complaint_receipt,
        name="complaint-receipt",
    ),
]
