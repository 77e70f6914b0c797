"""Sign in, sign out, register, and the start page for each role."""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.web.forms import RegisterForm


@require_http_methods(["GET", "POST"])
def register(request: HttpRequest) -> HttpResponse:
    form = RegisterForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        after = request.GET.get("next")
        # Only a page of this site: a link to the form must not send a new user elsewhere.
        if after and url_has_allowed_host_and_scheme(
            after, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        ):
            return redirect(after)
        return redirect("web:portal")
    return render(request, "web/register.html", {"form": form})


@login_required
def home(request: HttpRequest) -> HttpResponse:
    if village_ids(request.user, Role.STAFF):
        return redirect("web:staff-queue")
    if village_ids(request.user, Role.INSPECTOR):
        return redirect("web:inspector-home")
    if village_ids(request.user, Role.APPEALS_BOARD):
        return redirect("web:appeals-home")
    return redirect("web:portal")


class PasswordReset(auth_views.PasswordResetView):
    """Django's reset by email: the same answer whether or not the address is known, so
    the page does not tell who has an account. The email holds a one-time link."""

    template_name = "web/password_reset_form.html"
    email_template_name = "web/password_reset_email.txt"
    subject_template_name = "web/password_reset_subject.txt"
    success_url = reverse_lazy("web:password-reset-done")


class PasswordResetConfirm(auth_views.PasswordResetConfirmView):
    template_name = "web/password_reset_confirm.html"
    success_url = reverse_lazy("web:password-reset-complete")
