"""The dead ends a first-time visitor met, walked through as they meet them: applying from
the permit check with no account, the checklist lost to an upload, signing out by a link,
a back link to a page the permittee may not see, and the public report form."""

from __future__ import annotations

import datetime
import html
import re
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from enforcement_helpers import at, permit_filed_on
from factories import make_application, plan_pdf, text_of

from signing_in import authenticator_for, code_now, pass_code_step
from siltfence.apps.enforcement import services as enforcement
from siltfence.apps.outbox.services import outbox_send
from siltfence.apps.permits import services
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import Permit
from siltfence.apps.sitelog.services import site_log_record

pytestmark = pytest.mark.django_db
PASSWORD = "gravel-bed-tracking-pad-77"


def _apply_link(client: Client) -> str:
    """The "Apply for this permit" link of the answer for 12,000 sq ft in New Glarus."""
    answer = client.post(
        reverse("web:permit-check-answer"),
        {"jurisdiction": "new-glarus-wi", "disturbed_area": "12000"},
    )
    assert answer.status_code == 200
    page = answer.content.decode()
    form = re.search(r'<form method="get" action="([^"]+)" class="apply">(.*?)</form>', page, re.S)
    assert form, "the answer offers no way to apply"
    fields = re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(2))
    query = urlencode([(name, html.unescape(value)) for name, value in fields])
    return f"{html.unescape(form.group(1))}?{query}"


def _href(page: str, text: str) -> str:
    links = re.findall(r'<a [^>]*href="([^"]+)"[^>]*>(?:<span>)?' + re.escape(text), page)
    assert links, f"no link {text!r}"
    return html.unescape(links[-1])


def test_a_new_visitor_applies_from_the_permit_check_through_registering(villages: Any) -> None:
    client = Client()
    apply_url = _apply_link(client)
    assert "jurisdiction=new-glarus-wi" in apply_url and "facts=" in apply_url
    to_sign_in = client.get(apply_url)
    assert to_sign_in.status_code == 302
    login = client.get(to_sign_in["Location"])
    assert login.status_code == 200
    page = login.content.decode()
    # Both the page's link and the header's carry where the visitor was going, whole.
    for text in ("Register as an applicant", "Create an account"):
        register = _href(page, text)
        assert urlsplit(register).path == reverse("web:register"), text
        assert parse_qs(urlsplit(register).query)["next"] == [apply_url], text
    form = client.get(register)
    assert form.status_code == 200
    sent = client.post(
        register,
        {
            "username": "first-visitor",
            "first_name": "Jo",
            "last_name": "Becker",
            "email": "jo@example.org",
        },
    )
    assert sent.status_code == 302 and sent["Location"] == reverse("web:register-sent")
    outbox_send()
    (message,) = [m for m in mail.outbox if m.to == ["jo@example.org"]]
    link = re.search(r"http://testserver(/accounts/register/finish/\S+/)", message.body).group(1)
    assert client.get(link).status_code == 200
    done = client.post(link, {"password1": PASSWORD, "password2": PASSWORD})
    assert done.status_code == 302 and done["Location"] == apply_url
    application = client.get(done["Location"])
    assert application.status_code == 200
    # The application page opens with the facts of the permit check, nothing retyped.
    assert "12000" in application.content.decode()
    assert "Village of New Glarus" in text_of(application)


def test_the_code_step_keeps_the_whole_return_address(people: Any) -> None:
    client = Client()
    apply_url = _apply_link(client)
    device = authenticator_for(people.applicant_a)
    login = client.get(client.get(apply_url)["Location"])
    assert login.status_code == 200
    password = client.post(
        login.wsgi_request.get_full_path(),
        {"username": "applicant-a", "password": "not-used-in-tests-7x!"},
    )
    assert password.status_code == 302 and password["Location"] == reverse("web:sign-in-code")
    code_page = client.get(password["Location"])
    assert code_page.status_code == 200
    signed_in = client.post(password["Location"], {"code": code_now(device)})
    assert signed_in.status_code == 302 and signed_in["Location"] == apply_url
    assert "12000" in client.get(apply_url).content.decode()


def _current(page: Any) -> list[str]:
    """The texts of the main menu's links marked as the page shown."""
    nav = re.search(r'<nav aria-label="Main".*?</nav>', page.content.decode(), re.S).group(0)
    return re.findall(r'class="usa-nav-link usa-current"[^>]*><span>([^<]+)</span>', nav)


def test_the_public_register_is_in_the_menu_and_is_not_the_account_sign_up(villages: Any) -> None:
    client = Client()
    public = client.get(reverse("register:register"))
    assert public.status_code == 200
    assert _current(public) == ["Public register"]
    sign_up = client.get(reverse("web:register"))
    assert _current(sign_up) == ["Create an account"]
    assert "Public register" in text_of(sign_up)
    assert _current(client.get(reverse("web:permit-check"))) == ["Do I need a permit?"]


def test_signing_out_by_its_address_shows_a_sign_out_button(people: Any) -> None:
    client = Client()
    client.force_login(people.applicant_a)
    page = client.get(reverse("web:logout"))
    assert page.status_code == 200
    body = page.content.decode()
    # A button that posts, not a link: a GET signs nobody out.
    assert re.search(r'<form method="post" action="/accounts/logout/">.*?Sign out</button>', body)
    assert client.get(reverse("web:portal")).status_code == 200
    done = client.post(reverse("web:logout"))
    assert done.status_code == 302 and done["Location"] == reverse("web:permit-check")
    assert client.get(reverse("web:portal")).status_code == 302
    assert "You are signed out" in text_of(client.get(reverse("web:logout")))


def test_the_permittee_goes_back_from_a_case_to_their_permit(people: Any) -> None:
    staff = people.staff["new-glarus-wi"]
    permit = permit_filed_on(
        applicant=people.applicant_a,
        village="new-glarus-wi",
        staff=staff,
        filed="2026-06-01",
        address="300 2nd St",
    )
    case = enforcement.violation_record(
        village=permit.village,
        recorded_by=staff,
        source="observation",
        description="Fence down.",
        provision="§ 135-11",
        days_from=datetime.date(2026, 7, 1),
        at=at("2026-07-01"),
        permit=permit,
    ).case
    owner = Client()
    owner.force_login(people.applicant_a)
    page = owner.get(reverse("enforcement:case", args=[case.pk]))
    assert page.status_code == 200
    back = re.search(r'<a href="([^"]+)" data-testid="back">← ([^<]+)</a>', page.content.decode())
    assert back.group(1) == reverse("web:permit", args=[permit.pk])
    assert back.group(2) == f"Permit {permit.number}"
    assert owner.get(back.group(1)).status_code == 200
    # Staff still go back to the list of cases.
    official = Client()
    official.force_login(staff)
    pass_code_step(official, staff)
    page = official.get(reverse("enforcement:case", args=[case.pk]))
    back = re.search(r'<a href="([^"]+)" data-testid="back">← ([^<]+)</a>', page.content.decode())
    assert back.groups() == (reverse("enforcement:cases"), "Enforcement")
    assert official.get(back.group(1)).status_code == 200


def test_the_report_form_says_what_its_fields_show_and_hints_come_first(villages: Any) -> None:
    page = Client().get(reverse("enforcement:complaint")).content.decode()
    date = re.search(r'<label [^>]*for="id_seen_on">([^<]+)</label>', page).group(1)
    assert "YYYY" not in date and 'type="date"' in page
    assert re.search(r'<input type="email" name="email" autocomplete="email"', page)
    assert re.search(r'<input type="tel" name="phone" autocomplete="tel"', page)
    # The address's hint speaks of the latitude and longitude "below": they are below it,
    # and each says, before its field and tied to it, how it is filled in.
    assert page.index('id="id_address_helptext"') < page.index('name="latitude"')
    for field in ("latitude", "longitude"):
        hint = page.index(f'id="id_{field}_helptext"')
        assert hint < page.index(f'name="{field}"')
        assert re.search(
            rf'<input [^>]*name="{field}"[^>]*aria-describedby="id_{field}_helptext"', page
        )


def _draft_with_nothing_ticked(people: Any) -> Any:
    application = make_application(
        applicant=people.applicant_a, village="new-glarus-wi", state="draft"
    )
    services.application_checklist_set(application=application, user=people.applicant_a, items=[])
    application.refresh_from_db()
    assert len(application.determination["plan"]["contents"]) >= 3
    return application


def test_ticks_are_kept_across_an_upload(people: Any) -> None:
    application = _draft_with_nothing_ticked(people)
    client = Client()
    client.force_login(people.applicant_a)
    page = client.get(reverse("web:portal-application", args=[application.pk])).content.decode()
    # The Upload button and the file's fields send the form the ticks are in.
    checklist = reverse("web:portal-checklist", args=[application.pk])
    checklist_form = re.search(rf'<form method="post" id="([^"]+)" action="{checklist}"', page)[1]
    upload = reverse("web:portal-upload", args=[application.pk])
    assert re.search(
        rf'<button type="submit"[^>]*form="{checklist_form}" formaction="{upload}"'
        r' formenctype="multipart/form-data">Upload</button>',
        page,
    )
    for name in ("file", "kind"):
        field = re.search(rf'<(?:input|select) [^>]*name="{name}"[^>]*>', page)[0]
        assert f'form="{checklist_form}"' in field, field
    # What the browser sends when Upload is pressed with two items ticked.
    sent = client.post(
        upload,
        {
            "checklist": "shown",
            "items": ["0", "2"],
            "kind": "site_map",
            "file": SimpleUploadedFile("map.pdf", plan_pdf("site map"), "application/pdf"),
        },
    )
    assert sent.status_code == 302
    application.refresh_from_db()
    assert application.checklist == [0, 2]
    assert application.documents.filter(original_name="map.pdf").exists()
    # An upload with no file keeps the ticks all the same.
    client.post(upload, {"checklist": "shown", "items": ["1"], "kind": "site_map"})
    application.refresh_from_db()
    assert application.checklist == [1]


def test_still_missing_follows_the_ticks(people: Any) -> None:
    application = _draft_with_nothing_ticked(people)
    contents = application.determination["plan"]["contents"]
    client = Client()
    client.force_login(people.applicant_a)
    page = client.get(reverse("web:portal-application", args=[application.pk])).content.decode()
    checklist = reverse("web:portal-checklist", args=[application.pk])
    # Ticking a box sends the ticks; the answer replaces the "Still missing" list.
    assert re.search(
        rf'<fieldset [^>]*hx-post="{checklist}" hx-trigger="change" '
        r'hx-target="#still-missing"',
        page,
    )
    assert '<div id="still-missing" aria-live="polite">' in page
    answer = client.post(checklist, {"checklist": "shown", "items": ["0"]}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    shown = text_of(answer)
    assert "Still missing" in shown
    assert contents[0]["item"] not in shown and contents[1]["item"] in shown
    application.refresh_from_db()
    assert application.checklist == [0]
    # Everything ticked: the checklist is no longer missing.
    every = [str(i) for i in range(len(contents))]
    answer = client.post(checklist, {"checklist": "shown", "items": every}, HTTP_HX_REQUEST="true")
    assert not any(item["item"] in text_of(answer) for item in contents)
    # Without JavaScript, "Save checklist" reloads the page.
    plain_post = client.post(checklist, {"checklist": "shown", "items": ["1"]})
    assert plain_post.status_code == 302


def test_new_glarus_answer_says_an_erosion_and_sediment_control_plan(villages: Any) -> None:
    answer = Client().post(
        reverse("web:permit-check-answer"),
        {"jurisdiction": "new-glarus-wi", "disturbed_area": "12000"},
    )
    shown = text_of(answer)
    assert "file an erosion and sediment control plan" in shown
    assert "a erosion" not in shown
    spencer = Client().post(
        reverse("web:permit-check-answer"), {"jurisdiction": "spencer-wi", "disturbed_area": "9000"}
    )
    assert "file a control plan" in text_of(spencer)


def test_the_enforcement_settings_link_names_the_village(people: Any) -> None:
    staff = people.staff["spencer-wi"]
    client = Client()
    client.force_login(staff)
    pass_code_step(client, staff)
    shown = text_of(client.get(reverse("enforcement:cases")))
    assert "Enforcement settings: Village of Spencer" in shown
    assert "spencer-wi" not in shown


def _site_log_page(people: Any, village: str) -> str:
    permit = permit_filed_on(
        applicant=people.applicant_a,
        village=village,
        staff=people.staff[village],
        filed=(datetime.date.today() - datetime.timedelta(days=20)).isoformat(),
        address="12 Oak St",
    )
    client = Client()
    client.force_login(people.applicant_a)
    page = client.get(reverse("sitelog:log", args=[permit.pk]))
    assert page.status_code == 200
    return page.content.decode()


def test_only_a_chapter_whose_rain_inspection_depends_on_runoff_offers_the_no_runoff_entry(
    people: Any,
) -> None:
    spencer = _site_log_page(people, "spencer-wi")
    assert 'value="no_runoff"' not in spencer and "caused no runoff" not in spencer
    assert 'value="self_inspection"' in spencer
    new_glarus = _site_log_page(people, "new-glarus-wi")
    assert 'value="no_runoff"' in new_glarus
    # Nor does Spencer's log take one sent by hand.
    permit = Permit.objects.get(village_id="spencer-wi")
    with pytest.raises(ActionRefused, match="changes nothing under this chapter"):
        site_log_record(
            permit=permit,
            user=people.applicant_a,
            kind="no_runoff",
            at=_a_moment_ago(),
            data={"evidence": "dry"},
            photos=[],
            client_token="",
        )


def test_a_log_entry_says_the_phase_of_construction_in_words(people: Any) -> None:
    _site_log_page(people, "new-glarus-wi")
    permit = Permit.objects.get()
    site_log_record(
        permit=permit,
        user=people.applicant_a,
        kind="self_inspection",
        at=_a_moment_ago(),
        data={"inspector": "Pat Lee", "phase": "grading", "findings": "Fence up."},
        photos=[],
        client_token="",
    )
    client = Client()
    client.force_login(people.applicant_a)
    shown = text_of(client.get(reverse("sitelog:log", args=[permit.pk])))
    assert "Inspected by Pat Lee Phase of construction: grading" in shown
    assert "phase:" not in shown


def _a_moment_ago() -> str:
    """Five minutes ago on the villages' clock: a moment always in the past, whatever the
    hour the tests run (08:00 today is still to come before 08:00)."""
    from zoneinfo import ZoneInfo

    now = datetime.datetime.now(ZoneInfo("America/Chicago")) - datetime.timedelta(minutes=5)
    return now.strftime("%Y-%m-%dT%H:%M")
