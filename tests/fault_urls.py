"""The site's URLs and error handlers, plus three views that fail on purpose, so tests can
see what a visitor gets when a page fails. Only tests point ROOT_URLCONF here."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.urls import path

from siltfence.config import urls as site

SECRET_DETAIL = "internal-detail-7f3a9c"


def fault(request: HttpRequest) -> HttpResponse:
    raise RuntimeError(f"a fault no visitor may see: {SECRET_DETAIL}")


def forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied(SECRET_DETAIL)


def suspicious(request: HttpRequest) -> HttpResponse:
    raise SuspiciousOperation(SECRET_DETAIL)


urlpatterns = [
    path("fault/", fault),
    path("api/fault/", fault),
    path("forbidden/", forbidden),
    path("suspicious/", suspicious),
    *site.urlpatterns,
]
handler400 = site.handler400
handler403 = site.handler403
handler404 = site.handler404
handler500 = site.handler500
