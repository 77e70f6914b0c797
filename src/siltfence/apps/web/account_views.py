"""Sign in, sign out, register, and the start page for each role."""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
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
        return redirect(request.GET.get("next") or "web:portal")
    return render(request, "web/register.html", {"form": form})


@login_required
def home(request: HttpRequest) -> HttpResponse:
    if village_ids(request.user, Role.STAFF):
        return redirect("web:staff-queue")
    if village_ids(request.user, Role.INSPECTOR, Role.APPEALS_BOARD):
        return redirect("web:staff-permits")
    return redirect("web:portal")
