"""Two-step sign-in: the password, then a code from an authenticator app (decision 20).

Officials (staff, inspectors, appeals board) must use it and set it up at their first
sign-in; applicants may turn it on and off. A session that has not passed the code step
reaches no staff page, however it was made.
"""

from __future__ import annotations

import datetime
import re
from io import StringIO
from typing import Any

import factories
import pytest
from axes.models import AccessAttempt
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from signing_in import authenticator_for, code_for_key, code_now, pass_code_step
from siltfence.apps.accounts import second_factor as sf
from siltfence.apps.accounts.models import Role, SignInFailures
from siltfence.apps.audit.chain import chain_verify
from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.web import sign_in_views
from tools.demo.sign_in import demo_authenticators_load, demo_key
from tools.demo_code import main as demo_code

pytestmark = pytest.mark.django_db

PASSWORD = "not-used-in-tests-7x!"  # factories.make_user's
LOGIN = "/accounts/login/"
CODE = "/accounts/login/code/"
ENROL = "/accounts/login/authenticator/"
QUEUE = "/staff/"


@pytest.fixture(autouse=True)
def _force_login_passes_the_code_step() -> None:
    """Here ``force_login`` makes a password-only session: a session made some other way
    than the sign-in steps."""


def password(client: Client, username: str, **extra: str) -> Any:
    return client.post(LOGIN, {"username": username, "password": PASSWORD, **extra})


def signed_in_as(client: Client) -> Any:
    """Who the client's session is signed in as (an anonymous user if nobody)."""
    from django.contrib.auth import SESSION_KEY, get_user_model
    from django.contrib.auth.models import AnonymousUser

    pk = client.session.get(SESSION_KEY)
    return get_user_model().objects.get(pk=pk) if pk else AnonymousUser()


def errors(response: Any) -> list[str]:
    page = response.content.decode()
    return [
        re.sub(r"\s+", " ", e).strip()
        for e in re.findall(r'class="usa-error-message[^"]*"[^>]*>(.*?)</span>', page, re.S)
    ]


def unescape(text: str) -> str:
    return text.replace("&#x27;", "'").replace("&quot;", '"').replace("&amp;", "&")


# --- a session that has not passed the code step ----------------------------------------------


def test_a_password_only_staff_session_cannot_reach_the_review_queue(people: Any) -> None:
    staff = people.staff[factories.SPENCER]
    client = Client()
    client.force_login(staff)
    # No app yet: sent to set one up, the page it wanted kept for afterwards.
    response = client.get(QUEUE)
    assert response.status_code == 302
    assert response["Location"] == f"{ENROL}?next=%2Fstaff%2F"
    # With an app: sent to the code step.
    authenticator_for(staff)
    response = client.get(QUEUE)
    assert response["Location"] == f"{CODE}?next=%2Fstaff%2F"
    # Every official's page, a post included, and htmx is told to go there too.
    application = factories.make_application(
        applicant=people.applicant_a,
        village=factories.SPENCER,
        state="under_review",
        staff=staff,
    )
    for url in (f"/staff/applications/{application.pk}/", "/home/", "/appeals/", "/accounts/"):
        assert client.get(url)["Location"].startswith(CODE), url
    approve = client.post(f"/staff/applications/{application.pk}/approve", {"confirm": "on"})
    assert approve.status_code == 302 and approve["Location"] == CODE
    application.refresh_from_db()
    assert application.status == "under_review"
    fragment = client.get(QUEUE, headers={"HX-Request": "true"})
    assert fragment.status_code == 204 and fragment["HX-Redirect"].startswith(CODE)
    # Signing out still works.
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get(QUEUE)["Location"].startswith(LOGIN)


@pytest.mark.parametrize("who", ["inspector", "board"])
def test_inspectors_and_board_members_also_need_the_code_step(people: Any, who: str) -> None:
    user = getattr(people, who)[factories.SPENCER]
    client = Client()
    client.force_login(user)
    assert client.get("/home/")["Location"].startswith(ENROL)
    pass_code_step(client, user)
    assert client.get("/home/").status_code == 302  # to their own list now
    assert not client.get("/home/")["Location"].startswith(("/accounts/",))


def test_a_site_administrator_needs_the_code_step_for_the_admin(people: Any) -> None:
    admin = factories.make_user("site-admin")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    client = Client()
    client.force_login(admin)
    assert client.get("/admin/")["Location"].startswith(ENROL)
    pass_code_step(client, admin)
    assert client.get("/admin/").status_code == 200


def test_an_applicant_session_is_not_asked_for_a_code(people: Any) -> None:
    client = Client()
    client.force_login(people.applicant_a)
    assert client.get("/portal/").status_code == 200


# --- the sign-in steps ------------------------------------------------------------------------


def test_a_new_staff_member_sets_up_the_app_at_first_sign_in_and_only_then_is_signed_in(
    people: Any, settings: Any
) -> None:
    settings.OTP_TOTP_THROTTLE_FACTOR = 0  # no wait after the wrong code below
    staff = people.staff[factories.SPENCER]
    client = Client()
    response = password(client, staff.username, next=QUEUE)
    assert response["Location"] == reverse("web:sign-in-enrol")
    # The password alone signs nobody in: no staff page yet.
    assert not signed_in_as(client).is_authenticated
    assert client.get(QUEUE)["Location"].startswith(LOGIN)

    page = client.get(ENROL)
    assert page.status_code == 200
    assert page["Cache-Control"].startswith("max-age=0")
    html = page.content.decode()
    assert 'src="data:image/svg+xml' in html  # the QR code, drawn on the server
    key = re.search(r'data-testid="enrol-key">([A-Z2-7 ]+)<', html).group(1)
    assert re.fullmatch(r"([A-Z2-7]{4} ){7}[A-Z2-7]{4}", key)
    # Reloading shows the same key (the app may already hold it).
    assert key in client.get(ENROL).content.decode()

    assert not TOTPDevice.objects.filter(user=staff).exists()  # nothing stored until confirmed
    wrong = client.post(ENROL, {"code": "000000" if code_for_key(key) != "000000" else "111111"})
    assert errors(wrong) == [f"Code from the app: {sf.CODE_WRONG}"]
    assert not signed_in_as(client).is_authenticated

    first_code = code_for_key(key)
    done = client.post(ENROL, {"code": f"{first_code[:3]} {first_code[3:]}"})
    assert done.status_code == 200
    codes = re.findall(r"<li><code>([a-z2-7]{4}) ([a-z2-7]{4})</code></li>", done.content.decode())
    assert len(codes) == sf.BACKUP_CODE_COUNT
    assert f'href="{QUEUE}"' in done.content.decode()  # on to the page it asked for
    assert signed_in_as(client) == staff
    assert client.get(QUEUE).status_code == 200
    device = TOTPDevice.objects.get(user=staff)
    assert device.confirmed and sf.key_text(device) == key
    event = AuditEvent.objects.get(action="second_factor_enrol")
    assert (event.actor_id, event.entity, event.entity_id) == (staff.pk, "user", staff.pk)
    assert chain_verify().ok


def test_a_staff_member_with_an_app_gives_the_password_then_the_code(people: Any) -> None:
    staff = people.staff[factories.NEW_GLARUS]
    device = authenticator_for(staff)
    client = Client()
    assert password(client, staff.username)["Location"] == CODE
    assert not signed_in_as(client).is_authenticated
    response = client.post(CODE, {"code": code_now(device)})
    assert response.status_code == 302 and response["Location"] == "/home/"
    assert client.session[DEVICE_ID_SESSION_KEY] == device.persistent_id
    assert client.get(QUEUE).status_code == 200


def test_the_code_step_keeps_a_safe_next_page_and_refuses_another_site(people: Any) -> None:
    staff = people.staff[factories.SPENCER]
    device = authenticator_for(staff)
    client = Client()
    password(client, staff.username, next="/staff/permits/")
    assert client.post(CODE, {"code": code_now(device)})["Location"] == "/staff/permits/"
    other = Client()
    password(other, staff.username, next="https://evil.example/")
    assert other.post(CODE, {"code": code_now(device)})["Location"] == "/home/"


def test_a_wrong_code_is_refused_in_plain_words_naming_the_field(people: Any) -> None:
    staff = people.staff[factories.SPENCER]
    device = authenticator_for(staff)
    client = Client()
    password(client, staff.username)
    right = code_now(device)
    wrong = f"{(int(right) + 1) % 1_000_000:06d}"
    response = client.post(CODE, {"code": wrong})
    assert response.status_code == 200
    assert errors(response) == [
        "Code: That code did not match. Codes change every 30 seconds; "
        "type the one your app shows now."
    ]
    assert not signed_in_as(client).is_authenticated
    for text, message in [
        ("", sf.CODE_MISSING),
        ("12345", sf.CODE_MALFORMED),
        ("１２３４５６", sf.CODE_MALFORMED),  # full-width digits are not the app's
        ("12\x003456", sf.CODE_MALFORMED),
        ("9" * 100_000, sf.CODE_MALFORMED),
    ]:
        assert [unescape(e) for e in errors(client.post(CODE, {"code": text}))] == [
            f"Code: {message}"
        ], repr(text[:20])


def test_a_code_used_once_is_refused_the_second_time(people: Any) -> None:
    staff = people.staff[factories.SPENCER]
    device = authenticator_for(staff)
    code = code_now(device)
    first = Client()
    password(first, staff.username)
    assert first.post(CODE, {"code": code}).status_code == 302
    # Someone who saw the code over the shoulder, with the password, a second later:
    second = Client()
    password(second, staff.username)
    replay = second.post(CODE, {"code": code})
    assert errors(replay) == [f"Code: {sf.CODE_USED}"]
    assert not signed_in_as(second).is_authenticated


def test_a_backup_code_signs_in_once(people: Any) -> None:
    staff = people.staff[factories.SPENCER]
    authenticator_for(staff)
    (backup, *_rest) = sf.backup_codes_issue(user=staff)
    client = Client()
    password(client, staff.username)
    signed = client.post(CODE, {"code": f"{backup[:4].upper()}-{backup[4:]}"}, follow=True)
    assert signed.redirect_chain[0][0] == "/home/"
    assert "You signed in with a backup code; 9 of them are left." in signed.content.decode()
    assert client.get(QUEUE).status_code == 200
    assert StaticToken.objects.filter(device__user=staff).count() == 9
    again = Client()
    password(again, staff.username)
    assert errors(again.post(CODE, {"code": backup})) == [f"Code: {sf.BACKUP_WRONG}"]
    assert not signed_in_as(again).is_authenticated


def test_the_code_step_lapses_after_ten_minutes(people: Any, monkeypatch: Any) -> None:
    staff = people.staff[factories.SPENCER]
    device = authenticator_for(staff)
    client = Client()
    password(client, staff.username)
    session = client.session
    session[sign_in_views.PENDING]["at"] -= sign_in_views.PENDING_SECONDS + 1
    session.save()
    response = client.post(CODE, {"code": code_now(device)}, follow=True)
    assert response.redirect_chain[-1][0] == LOGIN
    assert sign_in_views.TOO_SLOW in unescape(response.content.decode())
    assert not signed_in_as(client).is_authenticated


def test_the_code_step_ends_when_the_password_changes_meanwhile(people: Any) -> None:
    staff = people.staff[factories.SPENCER]
    device = authenticator_for(staff)
    client = Client()
    password(client, staff.username)
    staff.set_password("a-new-password-after-a-reset-2026")
    staff.save()
    assert client.post(CODE, {"code": code_now(device)})["Location"] == LOGIN
    assert not signed_in_as(client).is_authenticated


def test_an_applicant_whose_codes_were_reset_during_the_code_step_starts_again(
    people: Any,
) -> None:
    applicant = people.applicant_a
    authenticator_for(applicant)
    client = Client()
    assert password(client, applicant.username)["Location"] == CODE
    sf.second_factor_reset_by_operator(user=applicant, reason="Lost phone.")
    assert client.get(CODE)["Location"] == LOGIN
    assert not signed_in_as(client).is_authenticated
    assert sign_in_views.PENDING not in client.session


# --- throttling -------------------------------------------------------------------------------


def test_a_wrong_code_makes_the_next_try_wait(people: Any) -> None:
    staff = people.staff[factories.SPENCER]
    device = authenticator_for(staff)
    client = Client()
    password(client, staff.username)
    right = code_now(device)
    client.post(CODE, {"code": f"{(int(right) + 7) % 1_000_000:06d}"})
    # At once, even the right code waits: django-otp's throttle (1, 2, 4 ... seconds).
    throttled = client.post(CODE, {"code": right})
    (message,) = errors(throttled)
    assert re.fullmatch(
        r"Code: Too many wrong codes in a row\. Wait \d+ seconds, then type the code your app "
        r"shows now\.",
        message,
    )
    assert not signed_in_as(client).is_authenticated
    device.refresh_from_db()
    assert device.throttling_failure_count == 1  # the throttled try checked nothing


def test_five_wrong_codes_lock_the_account_as_five_wrong_passwords_do(
    people: Any, settings: Any
) -> None:
    settings.OTP_TOTP_THROTTLE_FACTOR = 0  # the lockout, not the throttle, is under test
    staff = people.staff[factories.SPENCER]
    device = authenticator_for(staff)
    client = Client()
    password(client, staff.username)
    right = code_now(device)
    wrong = [f"{(int(right) + n) % 1_000_000:06d}" for n in range(11, 16)]
    statuses = [client.post(CODE, {"code": code}).status_code for code in wrong]
    assert statuses == [200, 200, 200, 200, 429]
    attempt = AccessAttempt.objects.get(username=staff.username)
    assert attempt.failures_since_start == 5
    assert "code=****" in attempt.post_data and right not in attempt.post_data
    # Locked: neither the right password nor (on a fresh try) the right code gets through.
    assert password(Client(), staff.username).status_code == 429
    assert not signed_in_as(client).is_authenticated


def test_wrong_passwords_and_wrong_codes_count_together(people: Any, settings: Any) -> None:
    settings.OTP_TOTP_THROTTLE_FACTOR = 0
    staff = people.staff[factories.SPENCER]
    device = authenticator_for(staff)
    for _ in range(3):
        assert Client().post(LOGIN, {"username": staff.username, "password": "x"}).status_code
    client = Client()
    password(client, staff.username)
    right = code_now(device)
    wrong = f"{(int(right) + 3) % 1_000_000:06d}"
    assert client.post(CODE, {"code": wrong}).status_code == 200
    assert client.post(CODE, {"code": wrong}).status_code == 429


# --- applicants: optional -----------------------------------------------------------------------


def test_an_applicant_turns_codes_on_and_off_from_the_account_page(people: Any) -> None:
    applicant = people.applicant_a
    client = Client()
    assert password(client, applicant.username)["Location"] == "/home/"  # no code step
    page = client.get("/accounts/").content.decode()
    assert "You sign in with your password only." in page
    assert f'href="{ENROL}"' in page

    page = client.get(ENROL)
    assert page.status_code == 200
    key = re.search(r'data-testid="enrol-key">([A-Z2-7 ]+)<', page.content.decode()).group(1)
    done = client.post(ENROL, {"code": code_for_key(key)})
    assert "Your authenticator app is set up." in done.content.decode()
    device = TOTPDevice.objects.get(user=applicant, confirmed=True)
    assert 'href="/accounts/"' in done.content.decode()

    # From now on the password alone does not sign in.
    later = Client()
    assert password(later, applicant.username)["Location"] == CODE
    assert not signed_in_as(later).is_authenticated
    assert later.post(CODE, {"code": code_now(device)})["Location"] == "/home/"

    # Turning it off takes a code; a wrong one changes nothing.
    refused = later.post("/accounts/turn-off-codes", {"code": "12 ab"})
    assert refused.status_code == 400
    assert [unescape(e) for e in errors(refused)] == [f"Code: {sf.CODE_MALFORMED}"]
    assert sf.authenticator_of(applicant) is not None
    off = later.post("/accounts/turn-off-codes", {"code": code_now(device)}, follow=True)
    assert "Signing in now takes your password only." in off.content.decode()
    assert sf.authenticator_of(applicant) is None
    assert not StaticDevice.objects.filter(user=applicant).exists()
    assert password(Client(), applicant.username)["Location"] == "/home/"
    actions = list(AuditEvent.objects.filter(entity_id=applicant.pk).values_list("action"))
    assert actions == [("second_factor_enrol",), ("second_factor_turn_off",)]


def test_officials_cannot_turn_codes_off(people: Any) -> None:
    staff = people.staff[factories.SPENCER]
    client = Client()
    client.force_login(staff)
    device = pass_code_step(client, staff)
    page = client.get("/accounts/").content.decode()
    assert "Turn off the code step" not in page
    response = client.post("/accounts/turn-off-codes", {"code": code_now(device)})
    assert response.status_code == 403
    assert sf.authenticator_of(staff) is not None


def test_new_backup_codes_replace_the_old_ones(people: Any) -> None:
    staff = people.staff[factories.SPENCER]
    client = Client()
    client.force_login(staff)
    device = pass_code_step(client, staff)
    old = sf.backup_codes_issue(user=staff)
    response = client.post("/accounts/backup-codes", {"code": code_now(device)})
    assert response.status_code == 200
    new = [
        a + b
        for a, b in re.findall(r"<code>([a-z2-7]{4}) ([a-z2-7]{4})</code>", str(response.content))
    ]
    assert len(new) == sf.BACKUP_CODE_COUNT and not set(new) & set(old)
    assert set(
        StaticToken.objects.filter(device__user=staff).values_list("token", flat=True)
    ) == set(new)


def test_an_official_moves_to_a_new_phone_with_a_backup_code(people: Any) -> None:
    staff = people.staff[factories.SPENCER]
    old_phone = authenticator_for(staff)
    (backup, *_rest) = sf.backup_codes_issue(user=staff)
    client = Client()
    password(client, staff.username)
    assert client.post(CODE, {"code": backup}).status_code == 302
    # Without a code first, the enrolment page does not replace the phone.
    assert client.get(ENROL)["Location"] == "/accounts/"
    moving = client.post("/accounts/new-phone", {"code": sf.backup_codes_issue(user=staff)[0]})
    assert moving["Location"] == f"{ENROL}?next=%2Faccounts%2F"
    page = client.get(ENROL).content.decode()
    assert "Set up the app on your new phone." in page
    key = re.search(r'data-testid="enrol-key">([A-Z2-7 ]+)<', page).group(1)
    # Until the new phone is confirmed the old one still signs in.
    assert sf.authenticator_of(staff) == old_phone
    done = client.post(ENROL, {"code": code_for_key(key)})
    assert "Your backup codes" in done.content.decode()
    (new_phone,) = TOTPDevice.objects.filter(user=staff)
    assert new_phone != old_phone and sf.key_text(new_phone) == key
    assert client.get(QUEUE).status_code == 200
    event = AuditEvent.objects.filter(action="second_factor_enrol").get()
    assert event.reason.startswith("authenticator app moved to a new phone")


# --- the administrator resets a lost phone ------------------------------------------------------


def test_the_village_administrator_resets_an_inspectors_lost_phone(people: Any) -> None:
    staff = people.staff[factories.SPENCER]
    inspector = people.inspector[factories.SPENCER]
    phone = Client()
    phone.force_login(inspector)
    pass_code_step(phone, inspector)
    sf.backup_codes_issue(user=inspector)
    assert phone.get("/inspections/").status_code == 200

    office = Client()
    office.force_login(staff)
    pass_code_step(office, staff)
    page = office.get("/staff/villages/spencer-wi/sign-in-codes")
    assert page.status_code == 200
    assert inspector.username in page.content.decode()
    missing_reason = office.post(
        "/staff/villages/spencer-wi/sign-in-codes", {"user": inspector.pk, "reason": ""}
    )
    assert missing_reason.status_code == 400
    assert errors(missing_reason) == [
        f"Why (for the record): {sf.REASON_REQUIRED.format(limit=sf.REASON_MAX_LENGTH)}"
    ]
    done = office.post(
        "/staff/villages/spencer-wi/sign-in-codes",
        {"user": inspector.pk, "reason": "Lost phone, reported by telephone."},
        follow=True,
    )
    assert f"The sign-in codes of {inspector.username} were reset." in done.content.decode()
    assert sf.authenticator_of(inspector) is None and sf.backup_codes_left(inspector) == 0
    # The inspector's own session no longer counts as having passed the code step.
    assert phone.get("/inspections/")["Location"].startswith(ENROL)
    event = AuditEvent.objects.get(action="second_factor_reset")
    assert (event.actor_id, event.village, event.entity_id) == (
        staff.pk,
        "spencer-wi",
        inspector.pk,
    )
    assert event.reason == "Lost phone, reported by telephone."
    assert event.before == {"authenticator": True, "backup_codes": 10}
    assert chain_verify().ok


def test_a_reset_is_for_the_villages_own_people_and_never_ones_own(people: Any) -> None:
    spencer_staff = people.staff[factories.SPENCER]
    glarus_inspector = people.inspector[factories.NEW_GLARUS]
    authenticator_for(glarus_inspector)
    with pytest.raises(sf.SecondFactorRefused, match="neither works for spencer-wi"):
        sf.second_factor_reset(
            staff=spencer_staff, user=glarus_inspector, village_id="spencer-wi", reason="x"
        )
    with pytest.raises(sf.SecondFactorRefused, match="administering authority"):
        sf.second_factor_reset(
            staff=spencer_staff, user=glarus_inspector, village_id="new-glarus-wi", reason="x"
        )
    with pytest.raises(sf.SecondFactorRefused, match="your own"):
        sf.second_factor_reset(
            staff=spencer_staff, user=spencer_staff, village_id="spencer-wi", reason="x"
        )
    assert sf.authenticator_of(glarus_inspector) is not None
    # On the web: the other village's page is refused, and so is an inspector on their own.
    office = Client()
    office.force_login(spencer_staff)
    pass_code_step(office, spencer_staff)
    assert office.get("/staff/villages/new-glarus-wi/sign-in-codes").status_code == 403
    forged = office.post(
        "/staff/villages/spencer-wi/sign-in-codes",
        {"user": glarus_inspector.pk, "reason": "x"},
    )
    assert forged.status_code == 400 and sf.authenticator_of(glarus_inspector) is not None
    inspector = Client()
    inspector.force_login(people.inspector[factories.SPENCER])
    pass_code_step(inspector, people.inspector[factories.SPENCER])
    assert inspector.get("/staff/villages/spencer-wi/sign-in-codes").status_code == 403


def test_an_applicant_with_an_application_in_the_village_can_be_reset(people: Any) -> None:
    factories.make_application(
        applicant=people.applicant_a, village=factories.SPENCER, state="draft"
    )
    authenticator_for(people.applicant_a)
    sf.second_factor_reset(
        staff=people.staff[factories.SPENCER],
        user=people.applicant_a,
        village_id="spencer-wi",
        reason="Lost phone; identity checked at the counter.",
    )
    assert sf.authenticator_of(people.applicant_a) is None
    assert password(Client(), people.applicant_a.username)["Location"] == "/home/"


def test_whoever_runs_the_server_resets_the_only_administrator(people: Any) -> None:
    staff = people.staff[factories.SPENCER]
    authenticator_for(staff)
    out = StringIO()
    call_command("second_factor_reset", staff.username, "--reason", "Lost phone.", stdout=out)
    assert "sets up an authenticator app again at the next sign-in" in out.getvalue()
    assert sf.authenticator_of(staff) is None
    event = AuditEvent.objects.get(action="second_factor_reset")
    assert event.actor_id is None and event.actor_label == "system"
    with pytest.raises(CommandError, match="no account"):
        call_command("second_factor_reset", "nobody", "--reason", "x")
    with pytest.raises(CommandError, match="reason"):
        call_command("second_factor_reset", staff.username, "--reason", " ")


# --- the demo ---------------------------------------------------------------------------------


def test_the_demo_prints_codes_for_its_own_officials_only(
    villages: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    inspector = factories.make_user(
        "spencer-building-inspector", village=factories.SPENCER, role=Role.STAFF
    )
    factories.make_user("contractor-jo")
    stranger = factories.make_user("clerk", village=factories.SPENCER, role=Role.STAFF)
    authenticator_for(stranger)
    assert demo_authenticators_load() == 1
    assert sf.authenticator_of(inspector).bin_key.hex() == demo_key(inspector.username)

    assert demo_code([inspector.username]) == 0
    printed = capsys.readouterr()
    code = printed.out.strip()
    assert re.fullmatch(r"\d{6}", code)
    assert "each code signs in once" in printed.err
    client = Client()
    client.post(LOGIN, {"username": inspector.username, "password": PASSWORD})
    assert client.post(CODE, {"code": code})["Location"] == "/home/"

    assert demo_code([inspector.username, "--key"]) == 0
    assert capsys.readouterr().out.strip() == sf.key_text(sf.authenticator_of(inspector))

    def refused(username: str) -> str:
        assert demo_code([username]) == 2
        printed = capsys.readouterr()
        assert not printed.out and printed.err.count("\n") == 1
        return printed.err

    assert "not one of the demo's accounts" in refused("clerk")
    # An applicant: no demo authenticator.
    assert "has no authenticator app" in refused("contractor-jo")
    # Reset and set up again on a phone: its key is no longer the published one.
    sf.second_factor_reset_by_operator(user=inspector, reason="Set up on a real phone.")
    TOTPDevice.objects.create(user=inspector, name=sf.AUTHENTICATOR_NAME, confirmed=True)
    assert "not the demo's published one" in refused(inspector.username)
    assert demo_authenticators_load() == 0  # and the demo loader leaves it alone


# --- hostile input ------------------------------------------------------------------------------

FUZZ = settings(
    max_examples=60,
    deadline=datetime.timedelta(seconds=3),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
code_texts = st.one_of(
    st.text(max_size=60),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=200),
    st.from_regex(r"\A[0-9 \-]{4,12}\Z"),
    st.from_regex(r"\A[a-zA-Z2-7\- ]{6,12}\Z"),
    st.sampled_from(["\x00", "\x00" * 6, "9" * 100_000, "١٢٣٤٥٦", "12345６", "<b>1</b>", "-1"]),
)


@FUZZ
@given(text=code_texts)
def test_any_text_in_the_code_field_gets_a_sentence_naming_the_field_never_a_500(
    people: Any, text: str
) -> None:
    staff = people.staff[factories.SPENCER]
    AccessAttempt.objects.all().delete()
    SignInFailures.objects.all().delete()
    device = authenticator_for(staff)
    TOTPDevice.objects.filter(pk=device.pk).update(
        throttling_failure_count=0, throttling_failure_timestamp=None
    )
    client = Client(raise_request_exception=False)
    password(client, staff.username)
    response = client.post(CODE, {"code": text})
    assert response.status_code < 500
    if response.status_code == 302:  # a right code, by chance
        return
    (message,) = errors(response)
    assert message.startswith("Code: ")
    assert "Traceback" not in response.content.decode()


@FUZZ
@given(text=code_texts)
def test_any_text_in_the_enrolment_field_gets_a_sentence_naming_the_field(
    people: Any, text: str
) -> None:
    staff = people.staff[factories.SPENCER]
    AccessAttempt.objects.all().delete()
    SignInFailures.objects.all().delete()
    TOTPDevice.objects.filter(user=staff).update(
        throttling_failure_count=0, throttling_failure_timestamp=None
    )
    client = Client(raise_request_exception=False)
    password(client, staff.username)
    response = client.post(ENROL, {"code": text})
    assert response.status_code < 500
    if response.status_code == 200 and "Your backup codes" in response.content.decode():
        TOTPDevice.objects.filter(user=staff).delete()  # a right code, by chance
        return
    (message,) = errors(response)
    assert message.startswith("Code from the app: ")
