from django.urls import path

from siltfence.apps.enforcement import views

app_name = "enforcement"
urlpatterns = [
    path("enforcement/", views.cases, name="cases"),
    path("enforcement/cases/<int:pk>/", views.case_detail, name="case"),
    path("enforcement/cases/<int:pk>/<slug:step>", views.case_step, name="case-step"),
    path("enforcement/invoices/<int:pk>/<slug:step>", views.invoice_step, name="invoice-step"),
    path("enforcement/violations/new/", views.violation_new, name="violation-new"),
    path("enforcement/reports/<int:pk>/review", views.complaint_review, name="complaint-review"),
    path("enforcement/photos/<int:pk>/", views.photo, name="photo"),
    path("enforcement/documents/<int:pk>/", views.document, name="document"),
    path("enforcement/documents/<int:pk>/service", views.document_service, name="service"),
    path(
        "enforcement/documents/<int:pk>/proof-of-service.pdf",
        views.proof_of_service,
        name="proof-of-service",
    ),
    path("enforcement/services/<int:pk>/received", views.service_received, name="service-received"),
    path("enforcement/villages/<slug:village>/", views.village_settings, name="village"),
    path("report-a-site/", views.complaint, name="complaint"),
    path("report-a-site/<int:pk>/", views.complaint_received, name="complaint-received"),
    path("report-a-site/<int:pk>/receipt.pdf", views.complaint_receipt, name="complaint-receipt"),
]
