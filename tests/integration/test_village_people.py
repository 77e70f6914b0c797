"""A village's people, managed by its staff (decision 36): adding staff, inspectors and
appeals board members (a new account chooses its password from an emailed link and sets up
its sign-in codes at the first sign-in), terms, and removal, which ends the access at once
and keeps the record."""

from __future__ import annotations

import datetime
import re
import unicodedata
from typing import Any

import factories
import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, reverse
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from siltfence.apps.accounts.models import Membership, Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.accounts.second_factor import backup_codes_issue, second_factor_required
from siltfence.apps.audit.chain import chain_verify
from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.outbox.models import Message
from siltfence.apps.people import services
from siltfence.apps.people import urls as people_urls
from siltfence.presentation.today import village_today

pytestmark = pytest.mark.django_db

S = factories.SPENCER
NG = factories.NEW_GLARUS
PEOPLE = f"/staff/villages/{S}/people/"
ADD = PEOPLE + "add"
INSPECTOR_HOME = "/inspections/"
NEW_PASSWORD = "a-long-pass-phrase-2026!"


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def add(client: Client, **fields: str) -> Any:
    return client.post(ADD, fields)


def membership(user: Any, role: Role, village: str = S) -> Membership:
    return Membership.all_objects.get(user=user, village_id=village, role=role)


def end_url(m: Membership) -> str:
    return f"/staff/villages/{m.village_id}/people/{m.pk}/end"


def fresh(user: Any) -> Any:
    return get_user_model().objects.get(pk=user.pk)


def field_errors(response: Any) -> str:
    return factories.text_of(response)


# --- adding people ------------------------------------------------------------------------


def test_a_staff_member_adds_a_new_inspector_who_chooses_a_password_and_enrols_at_first_sign_in(
    people: factories.People,
) -> None:
    staff = signed_in(people.staff[S])
    response = add(
        staff,
        username="new-inspector",
        first_name="Robin",
        last_name="Field",
        email="robin@example.org",
        role="inspector",
    )
    assert response.status_code == 302 and response.url == PEOPLE
    robin = get_user_model().objects.get(username="new-inspector")
    assert not robin.has_usable_password()
    added = membership(robin, Role.INSPECTOR)
    assert added.added_by == people.staff[S] and added.added_at is not None
    assert village_ids(fresh(robin), Role.INSPECTOR) == {S}

    # The link is recorded in the outbox, marked secret, with the change.
    (message,) = Message.objects.filter(to_address="robin@example.org")
    assert message.secret and message.kind == "account_new" and message.village_id == S
    assert message.user_id == robin.pk
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", message.body)
    assert link, message.body
    event = AuditEvent.objects.get(action="membership_add", entity_id=added.pk)
    assert event.actor_id == people.staff[S].pk and event.after["new_account"] is True

    # The page lists them, with no sign-in codes yet.
    page = factories.text_of(staff.get(PEOPLE))
    assert "robin@example.org" in page and "no password chosen yet" in page

    # The link lets them choose a password.
    visitor = Client()
    chosen = visitor.get(link.group(1))
    assert chosen.status_code == 302
    done = visitor.post(chosen.url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302, factories.text_of(done)
    assert fresh(robin).check_password(NEW_PASSWORD)
    # The link works once.
    assert Client().get(link.group(1)).status_code != 302 or "set-password" not in (
        Client().get(link.group(1)).url
    )

    # At the first sign-in the password leads to setting up an authenticator app.
    assert second_factor_required(fresh(robin))
    first = Client().post(
        "/accounts/login/", {"username": "new-inspector", "password": NEW_PASSWORD}
    )
    assert first.status_code == 302 and first.url.startswith("/accounts/login/authenticator/")


def test_an_official_added_is_asked_for_a_code_and_an_applicant_is_not(
    people: factories.People,
) -> None:
    person = people.applicant_b
    assert not second_factor_required(fresh(person))
    services.membership_add(
        actor=people.staff[S], village_id=S, role="staff", person="applicant-b", site="http://x"
    )
    assert second_factor_required(fresh(person))


def test_a_board_member_is_added_with_a_term_by_email(people: factories.People) -> None:
    staff = signed_in(people.staff[S])
    today = village_today(S)
    end = today + datetime.timedelta(days=3 * 365)
    response = add(
        staff,
        person="applicant-a@example.org",
        role="appeals_board",
        term_start=(today - datetime.timedelta(days=3)).isoformat(),
        term_end=end.isoformat(),
    )
    assert response.status_code == 302, factories.text_of(response)
    added = membership(people.applicant_a, Role.APPEALS_BOARD)
    assert added.term_end == end and added.term_start == today - datetime.timedelta(days=3)
    assert village_ids(fresh(people.applicant_a), Role.APPEALS_BOARD) == {S}
    assert not Message.objects.filter(kind="account_new").exists()  # no new account
    assert end.isoformat() in factories.text_of(staff.get(PEOPLE))


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        (
            {"person": "nobody-here", "role": "inspector"},
            "username or email: no account has the username or email 'nobody-here'",
        ),
        (
            {
                "username": "x1",
                "first_name": "A",
                "last_name": "B",
                "email": "not-an-email",
                "role": "inspector",
            },
            "New account: email: give an email address like name@example.org; got 'not-an-email'",
        ),
        (
            {
                "username": "has space",
                "first_name": "A",
                "last_name": "B",
                "email": "a@example.org",
                "role": "staff",
            },
            "New account: username: a username is 1 to 150 letters",
        ),
        (
            {
                "username": "applicant-a",
                "first_name": "A",
                "last_name": "B",
                "email": "z@example.org",
                "role": "staff",
            },
            "New account: username: the username 'applicant-a' is taken",
        ),
        (
            {
                "username": "x2",
                "first_name": "A",
                "last_name": "B",
                "email": "applicant-a@example.org",
                "role": "staff",
            },
            "email: an account with the email 'applicant-a@example.org' exists already",
        ),
        (
            {"person": "spencer-inspector", "role": "inspector"},
            "Role: spencer-inspector is already inspector of",
        ),
        ({"person": "applicant-a", "role": "mayor"}, "Role: Select a valid choice"),
        (
            {"person": "applicant-a", "role": "appeals_board"},
            "Term: last day: give the last day of the appeals board member's term",
        ),
        (
            {"person": "applicant-a", "role": "inspector", "term_end": "2030/01/01"},
            "Term: last day: expected a date written YYYY-MM-DD, got '2030/01/01'",
        ),
        (
            {"person": "applicant-a", "role": "inspector", "term_start": "20300101"},
            "Term: first day: expected a date written YYYY-MM-DD, got '20300101'",
        ),
        (
            {
                "person": "applicant-a",
                "role": "inspector",
                "term_start": "2031-01-02",
                "term_end": "2031-01-01",
            },
            "last day: the term's last day (2031-01-01) comes before its first day (2031-01-02)",
        ),
        (
            {"person": "applicant-a", "role": "inspector", "term_end": "2001-01-01"},
            "Term: last day: the term's last day (2001-01-01) has passed already",
        ),
        (
            {"person": "applicant-a", "username": "x3", "role": "inspector"},
            "give an existing account's username or email, or a new account's",
        ),
        ({"role": "inspector"}, "Existing account: username or email: give an existing account's"),
    ],
)
def test_bad_input_is_refused_naming_the_field_and_writes_nothing(
    people: factories.People, fields: dict[str, str], said: str
) -> None:
    staff = signed_in(people.staff[S])
    counts = (
        Membership.all_objects.count(),
        get_user_model().objects.count(),
        AuditEvent.objects.count(),
        Message.objects.count(),
    )
    response = add(staff, **fields)
    assert response.status_code == 400
    assert said in factories.text_of(response)
    after = (
        Membership.all_objects.count(),
        get_user_model().objects.count(),
        AuditEvent.objects.count(),
        Message.objects.count(),
    )
    assert after == counts


# --- removing people and terms ----------------------------------------------------------------


def test_removal_ends_access_at_once_and_keeps_what_they_did_on_the_record(
    people: factories.People,
) -> None:
    inspector = people.inspector[S]
    their_client = signed_in(inspector)
    assert their_client.get(INSPECTOR_HOME).status_code == 200
    backup_codes_issue(user=inspector)  # something they did, on the audit record
    theirs = AuditEvent.objects.filter(actor=inspector).count()
    assert theirs >= 1

    staff = signed_in(people.staff[S])
    held = membership(inspector, Role.INSPECTOR)
    confirm = staff.get(f"{PEOPLE}{held.pk}/")
    assert (
        confirm.status_code == 200
        and "Remove spencer-inspector as inspector" in factories.text_of(confirm)
    )
    response = staff.post(end_url(held), {"reason": "left the village's service"})
    assert response.status_code == 302 and response.url == PEOPLE

    # Their very session loses the access on its next request.
    assert their_client.get(INSPECTOR_HOME).status_code == 403
    assert their_client.get("/rounds/").status_code == 403
    held.refresh_from_db()
    assert held.ended_at is not None and held.ended_by == people.staff[S]
    assert get_user_model().objects.filter(pk=inspector.pk).exists()
    assert AuditEvent.objects.filter(actor=inspector).count() == theirs
    ended = AuditEvent.objects.get(action="membership_end", entity_id=held.pk)
    assert ended.reason == "left the village's service" and ended.actor_id == people.staff[S].pk
    assert chain_verify().ok
    past = factories.text_of(staff.get(PEOPLE)).split("Past members")[1]
    assert "spencer-inspector" in past and "spencer-staff" in past
    # Removed twice: refused, nothing written.
    again = staff.post(end_url(held))
    assert again.status_code == 400 and "ended already" in factories.text_of(again)
    # Added again later: a new membership, the old one kept.
    assert add(staff, person="spencer-inspector", role="inspector").status_code == 302
    assert Membership.all_objects.filter(user=inspector, village_id=S).count() == 2
    assert their_client.get(INSPECTOR_HOME).status_code == 200


@pytest.mark.parametrize(
    ("start", "end", "allowed"),
    [
        (None, -1, False),  # the last day was yesterday
        (None, 0, True),  # the last day is today
        (1, None, False),  # the first day is tomorrow
        (0, None, True),  # the first day is today
    ],
)
def test_a_term_gives_access_from_its_first_day_through_its_last_in_the_village(
    people: factories.People, start: int | None, end: int | None, allowed: bool
) -> None:
    inspector = people.inspector[S]
    today = village_today(S)

    def day(n: int | None) -> datetime.date | None:
        return None if n is None else today + datetime.timedelta(days=n)

    Membership.all_objects.filter(user=inspector, role=Role.INSPECTOR).update(
        term_start=day(start), term_end=day(end)
    )
    assert (village_ids(fresh(inspector), Role.INSPECTOR) == {S}) is allowed
    client = Client()
    client.force_login(inspector)
    assert client.get(INSPECTOR_HOME).status_code == (200 if allowed else 403)
    listed = factories.text_of(signed_in(people.staff[S]).get(PEOPLE))
    if not allowed:
        assert "Term over: no access" in listed or "Not yet: no access" in listed


def test_a_term_can_be_changed_and_the_change_is_recorded(people: factories.People) -> None:
    board = people.board[S]
    held = membership(board, Role.APPEALS_BOARD)
    staff = signed_in(people.staff[S])
    end = village_today(S) + datetime.timedelta(days=30)
    url = f"{PEOPLE}{held.pk}/term"
    refused = staff.post(url, {"term_start": "2026-02-30"})
    assert refused.status_code == 400 and "Term: first day:" in factories.text_of(refused)
    response = staff.post(url, {"term_end": end.isoformat(), "reason": "reappointed"})
    assert response.status_code == 302
    held.refresh_from_db()
    assert held.term_end == end
    event = AuditEvent.objects.get(action="membership_term_change", entity_id=held.pk)
    assert event.before["term_end"] is None and event.after["term_end"] == end.isoformat()


def test_the_last_staff_member_cannot_be_removed_nor_remove_themselves_by_accident(
    people: factories.People,
) -> None:
    me = people.staff[S]
    staff = signed_in(me)
    mine = membership(me, Role.STAFF)
    unconfirmed = staff.post(end_url(mine))
    assert unconfirmed.status_code == 400
    assert "tick the box to confirm that you remove yourself" in factories.text_of(unconfirmed)
    last = staff.post(end_url(mine), {"confirm_self": "on"})
    assert last.status_code == 400
    assert "spencer-staff is the last staff member of" in factories.text_of(last)
    mine.refresh_from_db()
    assert mine.ended_at is None
    # Nor can the last one's term be ended by changing it.
    over = staff.post(
        f"{PEOPLE}{mine.pk}/term",
        {"term_start": (village_today(S) + datetime.timedelta(days=2)).isoformat()},
    )
    assert over.status_code == 400 and "last staff member" in factories.text_of(over)

    # With a second staff member, removing oneself (confirmed) works and ends the access.
    assert add(staff, person="applicant-b", role="staff").status_code == 302
    gone = staff.post(end_url(mine), {"confirm_self": "on"})
    assert gone.status_code == 302 and gone.url == reverse("web:home")
    assert staff.get(PEOPLE).status_code == 403
    other = signed_in(people.applicant_b)
    assert other.get(PEOPLE).status_code == 200
    only = membership(people.applicant_b, Role.STAFF)
    assert other.post(end_url(only), {"confirm_self": "on"}).status_code == 400


# --- who may -----------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["stf_ng", "insp", "board", "appl"])
def test_others_cannot_see_or_change_the_village_s_people(
    people: factories.People, who: str
) -> None:
    user = {
        "stf_ng": people.staff[NG],
        "insp": people.inspector[S],
        "board": people.board[S],
        "appl": people.applicant_a,
    }[who]
    client = signed_in(user)
    target = membership(people.inspector[S], Role.INSPECTOR)
    before = (Membership.all_objects.count(), AuditEvent.objects.count())
    assert client.get(PEOPLE).status_code == 403
    assert add(client, person="applicant-b", role="staff").status_code == 403
    assert client.post(end_url(target), {"confirm_self": "on"}).status_code == 403
    assert client.post(f"{PEOPLE}{target.pk}/term", {}).status_code == 403
    assert (Membership.all_objects.count(), AuditEvent.objects.count()) == before
    # The services refuse on their own, whatever a view checks.
    with pytest.raises(services.MembershipRefused) as refused:
        services.membership_end(actor=user, village_id=S, membership_id=target.pk)
    assert refused.value.field == "village"
    with pytest.raises(services.MembershipRefused):
        services.membership_add(
            actor=user, village_id=S, role="staff", person="applicant-b", site="http://x"
        )


def test_a_village_s_staff_cannot_reach_another_village_s_membership_through_their_own(
    people: factories.People,
) -> None:
    ng = signed_in(people.staff[NG])
    spencer_inspector = membership(people.inspector[S], Role.INSPECTOR)
    url = f"/staff/villages/{NG}/people/{spencer_inspector.pk}/"
    assert ng.get(url).status_code == 404
    assert ng.post(url + "end").status_code == 404
    assert ng.get(f"/staff/villages/{NG}/people/").status_code == 200
    with pytest.raises(services.MembershipRefused):
        services.membership_end(
            actor=people.staff[NG], village_id=NG, membership_id=spencer_inspector.pk
        )
    assert membership(people.inspector[S], Role.INSPECTOR).ended_at is None


MATRIX = """
name          method  anon   staff  stf_ng insp   board  appl
people        GET     login  200    403    403    403    403
people        POST    login  405    405    405    405    405
person-add    GET     login  405    405    405    405    405
person-add    POST    login  400    403    403    403    403
person        GET     login  200    403    403    403    403
person        POST    login  405    405    405    405    405
term          GET     login  405    405    405    405    405
term          POST    login  400    403    403    403    403
end           GET     login  405    405    405    405    405
end           POST    login  302    403    403    403    403
link          GET     login  405    405    405    405    405
link          POST    login  302    403    403    403    403
"""


def _matrix() -> list[tuple[str, str, str, str]]:
    lines = [line.split() for line in MATRIX.strip().splitlines()]
    roles = lines[0][2:]
    return [(n, m, r, out) for n, m, *outs in lines[1:] for r, out in zip(roles, outs, strict=True)]


def test_every_people_url_has_a_get_and_a_post_row() -> None:
    names = {p.name for p in people_urls.urlpatterns if isinstance(p, URLPattern)}
    rows = {(n, m) for n, m, _, _ in _matrix()}
    assert rows == {(n, m) for n in names for m in ("GET", "POST")}


@pytest.mark.parametrize(("name", "method", "role", "expected"), _matrix())
def test_each_role_gets_the_expected_answer_from_each_people_url(
    people: factories.People, name: str, method: str, role: str, expected: str
) -> None:
    user = {
        "anon": None,
        "staff": people.staff[S],
        "stf_ng": people.staff[NG],
        "insp": people.inspector[S],
        "board": people.board[S],
        "appl": people.applicant_a,
    }[role]
    client = signed_in(user) if user else Client()
    target = membership(people.board[S], Role.APPEALS_BOARD)
    args = [S] if name in ("people", "person-add") else [S, target.pk]
    url = reverse(f"people:{name}", args=args)
    response = client.get(url) if method == "GET" else client.post(url, {})
    if expected == "login":
        assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    else:
        assert response.status_code == int(expected)


# --- the way in, the admin site ------------------------------------------------------------------


def test_the_review_queue_links_each_village_s_people(people: factories.People) -> None:
    page = signed_in(people.staff[S]).get("/staff/").content.decode()
    assert f'href="{PEOPLE}"' in page


def test_the_admin_site_lists_every_membership_read_only(people: factories.People) -> None:
    admin = get_user_model().objects.create_superuser("site-admin", "a@example.org", "x-7-y-8-z")
    held = membership(people.inspector[S], Role.INSPECTOR)
    services.membership_end(actor=people.staff[S], village_id=S, membership_id=held.pk)
    client = signed_in(admin)
    page = client.get("/admin/accounts/membership/")
    assert page.status_code == 200
    text = factories.text_of(page)
    # Ended memberships too: the inspector's was ended above.
    assert "spencer-inspector" in text and "new-glarus-board" in text
    assert client.get("/admin/accounts/membership/add/").status_code == 403


# --- any text at all ---------------------------------------------------------------------------

ANY = st.text(max_size=30)


def mostly(valid: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Mostly what a person could mean; at times any text at all."""
    return st.one_of(valid, valid, valid, ANY)


ROLE = mostly(st.sampled_from(["staff", "inspector", "appeals_board"]))
START = mostly(st.sampled_from(["", "2020-01-01"]))
END = mostly(st.sampled_from(["", "2099-12-31"]))
EXISTING = st.fixed_dictionaries(
    {
        "person": mostly(
            st.sampled_from(["applicant-a", "applicant-b@example.org", "new-glarus-staff"])
        ),
        "role": ROLE,
        "term_start": START,
        "term_end": END,
    }
)
NEW = st.fixed_dictionaries(
    {
        "username": mostly(st.from_regex(r"[a-z][a-z0-9-]{2,12}", fullmatch=True)),
        "first_name": mostly(st.just("Pat")),
        "last_name": mostly(st.just("Lee")),
        "email": mostly(st.from_regex(r"[a-z]{1,8}@example\.org", fullmatch=True)),
        "role": ROLE,
        "term_start": START,
        "term_end": END,
    }
)


@settings(
    max_examples=40,
    deadline=2000,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.one_of(EXISTING, NEW))
def test_any_text_in_the_add_form_is_refused_or_adds_exactly_what_was_asked(
    people: factories.People, form: dict[str, str]
) -> None:
    staff = Client()
    staff.force_login(people.staff[S])
    before = set(Membership.all_objects.values_list("pk", flat=True))
    users = get_user_model().objects.count()
    response = staff.post(ADD, form)
    assert response.status_code in (302, 400)
    event("accepted" if response.status_code == 302 else "refused")
    made = Membership.all_objects.exclude(pk__in=before)
    if response.status_code == 400:
        assert not made.exists()
        assert get_user_model().objects.count() == users
        return
    (added,) = made
    assert added.village_id == S and added.role == form["role"]
    assert added.term_start == _day(form["term_start"])
    assert added.term_end == _day(form["term_end"])
    person = form.get("person", "").strip()
    if person:
        assert person.lower() in (added.user.username.lower(), added.user.email.lower())
        assert get_user_model().objects.count() == users
    else:
        # Django keeps user names in Unicode's compatibility form (NFKC), so that
        # "ﬁ" and "fi" cannot be two people: a superscript one is stored as "1".
        assert added.user.username == unicodedata.normalize("NFKC", form["username"].strip())
        assert added.user.email == form["email"].strip()
        assert not added.user.has_usable_password()
        assert get_user_model().objects.count() == users + 1


def _day(text: str) -> datetime.date | None:
    return datetime.date.fromisoformat(text.strip()) if text.strip() else None
