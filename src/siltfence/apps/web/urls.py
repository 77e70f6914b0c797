from django.contrib.auth import views as auth_views
from django.urls import path

from siltfence.apps.web import (
    account_views,
    analysis_views,
    design_views,
    document_views,
    official_home_views,
    payments_views,
    portal_views,
    sign_in_views,
    staff_permit_views,
    staff_views,
    views,
    village_settings_views,
)

app_name = "web"
urlpatterns = [
    path("", views.permit_check, name="permit-check"),
    path("permit-check/answer", views.permit_check_answer, name="permit-check-answer"),
    path("ordinances/", views.ordinance_list, name="ordinance-list"),
    path("ordinances/<slug:jurisdiction>/", views.ordinance_detail, name="ordinance-detail"),
    path(
        "ordinances/<slug:jurisdiction>/sections/<str:number>/",
        views.section_detail,
        name="section-detail",
    ),
    path("ordinances/<slug:left>/diff/<slug:right>/", views.ordinance_diff, name="ordinance-diff"),
    # control plan review
    path("design-checks/", design_views.design_check_report, name="design-check-report"),
    path("design-checks/report.pdf", design_views.design_check_pdf, name="design-check-pdf"),
    path("design-checks/plan-format/", views.plan_format, name="plan-format"),
    path("developers/api/", views.api_reference, name="api-reference"),
    # people
    path("accounts/login/", sign_in_views.SignIn.as_view(), name="login"),
    path("accounts/login/code/", sign_in_views.sign_in_code, name="sign-in-code"),
    path("accounts/login/authenticator/", sign_in_views.sign_in_enrol, name="sign-in-enrol"),
    path("accounts/", sign_in_views.account, name="account"),
    path(
        "accounts/backup-codes",
        sign_in_views.account_backup_codes,
        name="account-backup-codes",
    ),
    path("accounts/turn-off-codes", sign_in_views.account_turn_off, name="account-turn-off"),
    path("accounts/new-phone", sign_in_views.account_new_phone, name="account-new-phone"),
    path("accounts/logout/", account_views.SignOut.as_view(), name="logout"),
    path("accounts/register/", account_views.register, name="register"),
    path("accounts/register/sent/", account_views.register_sent, name="register-sent"),
    path(
        "accounts/register/finish/<str:token>/",
        account_views.register_confirm,
        name="register-confirm",
    ),
    path(
        "accounts/password-reset/",
        account_views.PasswordReset.as_view(),
        name="password-reset",
    ),
    path(
        "accounts/password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(template_name="web/password_reset_done.html"),
        name="password-reset-done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        account_views.PasswordResetConfirm.as_view(),
        name="password-reset-confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="web/password_reset_complete.html"
        ),
        name="password-reset-complete",
    ),
    path("home/", account_views.home, name="home"),
    # applicant portal
    path("portal/", portal_views.portal, name="portal"),
    path("portal/apply/", portal_views.apply, name="apply"),
    path(
        "portal/applications/<int:pk>/", portal_views.application_detail, name="portal-application"
    ),
    path(
        "portal/applications/<int:pk>/checklist",
        portal_views.application_checklist,
        name="portal-checklist",
    ),
    path(
        "portal/applications/<int:pk>/upload", portal_views.application_upload, name="portal-upload"
    ),
    path(
        "portal/applications/<int:pk>/submit", portal_views.application_submit, name="portal-submit"
    ),
    path(
        "portal/applications/<int:pk>/respond",
        portal_views.application_respond,
        name="portal-respond",
    ),
    # staff console
    path("staff/", staff_views.queue, name="staff-queue"),
    path("staff/applications/<int:pk>/", staff_views.application_detail, name="staff-application"),
    path(
        "staff/applications/<int:pk>/request-information",
        staff_views.request_information,
        name="staff-request-information",
    ),
    path("staff/applications/<int:pk>/approve", staff_views.approve, name="staff-approve"),
    path("staff/applications/<int:pk>/disapprove", staff_views.disapprove, name="staff-disapprove"),
    path(
        "staff/applications/<int:pk>/surety",
        staff_views.surety_receive,
        name="staff-surety-receive",
    ),
    path("staff/permits/", staff_permit_views.permits, name="staff-permits"),
    path("staff/payments/", payments_views.payments, name="staff-payments"),
    path("inspections/", official_home_views.inspector_home, name="inspector-home"),
    path("appeals/", official_home_views.appeals_home, name="appeals-home"),
    path("permits/<int:pk>/", staff_permit_views.permit_detail, name="permit"),
    path("permits/<int:pk>/extend", staff_permit_views.permit_extend, name="permit-extend"),
    path("permits/<int:pk>/close", staff_permit_views.permit_close, name="permit-close"),
    path("permits/<int:pk>/surety", staff_permit_views.permit_surety, name="permit-surety"),
    path(
        "permits/<int:pk>/sureties/<int:surety_pk>",
        staff_permit_views.surety_move,
        name="permit-surety-move",
    ),
    path(
        "permits/<int:pk>/amendments", staff_permit_views.amendment_request, name="permit-amendment"
    ),
    path(
        "permits/<int:pk>/amendments/<int:amendment_pk>/decide",
        staff_permit_views.amendment_decide,
        name="permit-amendment-decide",
    ),
    path(
        "staff/villages/<slug:village>/",
        village_settings_views.village_settings,
        name="village-settings",
    ),
    path(
        "staff/villages/<slug:village>/amendment",
        analysis_views.amendment,
        name="village-amendment",
    ),
    path(
        "staff/villages/<slug:village>/office",
        village_settings_views.village_office,
        name="village-office",
    ),
    path(
        "staff/villages/<slug:village>/closures",
        village_settings_views.village_closure,
        name="village-closure",
    ),
    path(
        "staff/villages/<slug:village>/fees", village_settings_views.village_fee, name="village-fee"
    ),
    path(
        "staff/villages/<slug:village>/sign-in-codes",
        sign_in_views.village_sign_in,
        name="village-sign-in",
    ),
    # documents
    path("documents/<int:pk>/", document_views.download, name="document"),
]
