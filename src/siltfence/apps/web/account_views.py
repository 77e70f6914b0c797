"""Sign in, sign out, register, and the start page for each role."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordResetForm
from django.core import signing
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse, reverse_lazy
from django.views.decorators.http import require_http_methods, require_safe

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.accounts.selectors import account_with_email, username_taken
from siltfence.apps.web.forms import ChoosePasswordForm, RegisterForm
from siltfence.apps.web.sign_in_views import page_of_this_site

# Registering sends an email to an address the visitor types: at most this many an hour
# from one address, so the form cannot be used to flood someone's mailbox.
REGISTRATIONS_PER_HOUR = 5
REGISTRATION_SALT = "siltfence.register"
MAX_TOKEN = 2000
MAX_NEXT = 500


def _safe_next(request: HttpRequest) -> str:
    """The page to open once registered: one of this site's, carried inside the link."""
    after = str(request.GET.get("next") or "")
    return page_of_this_site(request, after, "") if len(after) <= MAX_NEXT else ""


def _registration_slot(request: HttpRequest) -> bool:
    from siltfence.apps.accounts.client_ip import client_ip
    from siltfence.apps.enforcement.models import ComplaintSlot

    client = "register:" + (client_ip(request) or "unknown")
    return ComplaintSlot.take(client, REGISTRATIONS_PER_HOUR) is not None


def _registration_email(request: HttpRequest, data: dict[str, str], after: str) -> None:
    """Record the one email registering sends: the link to choose a password, or, when the
    username or the address is taken, what to do instead. The page says the same in every
    case, so it tells nobody which usernames or addresses have accounts."""
    from siltfence.apps.outbox.services import message_record

    email = data["email"]
    holder = account_with_email(email=email)
    sign_in = request.build_absolute_uri(reverse("web:login"))
    if holder is not None:
        subject = "Your siltfence account"
        body = (
            f"Someone asked to register a new account with this address. An account with it "
            f'already exists: "{holder.get_username()}".\n\nSign in: {sign_in}\n'
            f"Forgot the password? {request.build_absolute_uri(reverse('web:password-reset'))}"
            "\n\nIf you did not ask for this, ignore this email."
        )
        secret = False
    elif username_taken(username=data["username"]):
        subject = "Choose another username to register"
        body = (
            f'Someone asked to register with this address and the username "{data["username"]}", '
            "which is already taken. Register again with another username: "
            f"{request.build_absolute_uri(reverse('web:register'))}"
            "\n\nIf you did not ask for this, ignore this email."
        )
        secret = False
    else:
        token = signing.dumps({**data, "next": after}, salt=REGISTRATION_SALT, compress=True)
        link = request.build_absolute_uri(reverse("web:register-confirm", args=[token]))
        subject = "Finish registering with siltfence"
        body = (
            f'To finish registering as "{data["username"]}", open this link and choose a '
            f"password (it works for one day):\n\n{link}\n\n"
            "If you did not ask for this, ignore this email: no account is made."
        )
        secret = True
    message_record(kind="registration", to=email, subject=subject, body=body, secret=secret)


@require_http_methods(["GET", "POST"])
def register(request: HttpRequest) -> HttpResponse:
    form = RegisterForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if not _registration_slot(request):
            form.add_error(
                None,
                f"At most {REGISTRATIONS_PER_HOUR} registrations an hour can be sent from one "
                "address. Try again in an hour, or ask the village office.",
            )
        else:
            with transaction.atomic():
                _registration_email(request, form.cleaned_data, _safe_next(request))
            return redirect("web:register-sent")
    return render(request, "web/register.html", {"form": form})


@require_safe
def register_sent(request: HttpRequest) -> HttpResponse:
    return render(request, "web/register_sent.html")


def _registration_of(token: str) -> dict[str, str] | None:
    if len(token) > MAX_TOKEN:
        return None
    try:
        data = signing.loads(token, salt=REGISTRATION_SALT, max_age=settings.PASSWORD_RESET_TIMEOUT)
    except signing.BadSignature:  # SignatureExpired is one
        return None
    fields = ("username", "first_name", "last_name", "email", "next")
    if not isinstance(data, dict) or not all(isinstance(data.get(k), str) for k in fields):
        return None
    return {k: data[k] for k in fields}


@require_http_methods(["GET", "POST"])
def register_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The link of the registration email: choose a password, and the account is made."""
    data = _registration_of(token)
    if data is None:
        return render(request, "web/register_link_spent.html", {"reason": "expired"}, status=400)
    if username_taken(username=data["username"]):
        return render(request, "web/register_link_spent.html", {"reason": "taken"}, status=400)
    person = get_user_model()(
        username=data["username"],
        first_name=data["first_name"],
        last_name=data["last_name"],
        email=data["email"],
    )
    form = ChoosePasswordForm(request.POST or None, user=person)
    if request.method == "POST" and form.is_valid():
        person.set_password(form.cleaned_data["password1"])
        try:
            with transaction.atomic():
                person.save()
        except IntegrityError:  # the same link opened twice at once
            return render(request, "web/register_link_spent.html", {"reason": "taken"}, status=400)
        login(request, person, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(data["next"] or "web:portal")
    return render(request, "web/register_confirm.html", {"form": form, "person": person})


class SignOut(auth_views.LogoutView):
    """Signing out is a POST (a link must not sign anyone out); a GET, from a bookmark or
    a typed address, shows the button that does it."""

    http_method_names = ["get", "post", "options"]

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return render(request, "web/sign_out.html")


@login_required
def home(request: HttpRequest) -> HttpResponse:
    if village_ids(request.user, Role.STAFF):
        return redirect("web:staff-queue")
    if village_ids(request.user, Role.INSPECTOR):
        return redirect("web:inspector-home")
    if village_ids(request.user, Role.APPEALS_BOARD):
        return redirect("web:appeals-home")
    return redirect("web:portal")


class OutboxPasswordResetForm(PasswordResetForm):
    """Django's reset form, its email recorded in the outbox (sent by the worker), so the
    answer takes as long whether or not the address has an account."""

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        from siltfence.apps.outbox.services import message_record

        subject = "".join(render_to_string(subject_template_name, context).splitlines())
        message_record(
            kind="password_reset",
            to=to_email,
            user=context.get("user"),
            subject=subject,
            body=render_to_string(email_template_name, context),
            secret=True,
        )


class PasswordReset(auth_views.PasswordResetView):
    """Django's reset by email: the same answer whether or not the address is known, so
    the page does not tell who has an account. The email holds a one-time link."""

    form_class = OutboxPasswordResetForm

    template_name = "web/password_reset_form.html"
    email_template_name = "web/password_reset_email.txt"
    subject_template_name = "web/password_reset_subject.txt"
    success_url = reverse_lazy("web:password-reset-done")


class PasswordResetConfirm(auth_views.PasswordResetConfirmView):
    template_name = "web/password_reset_confirm.html"
    success_url = reverse_lazy("web:password-reset-complete")
