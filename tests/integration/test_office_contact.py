"""The office a notice comes from: its name and mailing address from the village's data
(``jurisdiction.yaml``), and its phone, email and hours as the village's staff enter them
on the settings page, in place of the data's where they entered one. Spencer's data gives
the clerk's telephone, 715-659-5423, and no email or hours; New Glarus's gives none of the
three."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse
from enforcement_helpers import at, spencer_case_with_a_violation
from factories import NEW_GLARUS, SPENCER, People
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from season_helpers import pdf_text

from siltfence.apps.audit.models import AuditEvent
from siltfence.apps.documents.addressees import office_lines
from siltfence.apps.enforcement import services as enforcement
from siltfence.apps.permits import services
from siltfence.apps.permits.errors import ActionRefused
from siltfence.apps.permits.models import Village
from siltfence.core.ordinance.loader import load

pytestmark = pytest.mark.django_db
HOURS = "Monday to Friday, 8 am to 4:30 pm"


def _office(village: str) -> list[str]:
    return office_lines(load(village), Village.objects.get(pk=village))


def test_the_office_prints_the_data_until_staff_enter_their_own(people: People) -> None:
    assert _office(SPENCER) == [
        "FROM:",
        "Building Inspector, Village of Spencer, Municipal Building",
        "105 Park Street",
        "Spencer, WI 54479",
        "Phone: 715-659-5423",
        "The village has not given an email address or office hours for these notices: "
        "write to the address above.",
    ]
    spencer = Village.objects.get(pk=SPENCER)
    services.village_office_set(
        village=spencer, staff=people.staff[SPENCER], phone="715-555-0199", hours=HOURS
    )
    assert _office(SPENCER)[4:] == [
        "Phone: 715-555-0199",
        f"Office hours: {HOURS}",
        "The village has not given an email address for these notices: write to the address above.",
    ]
    # Emptied again, the data's phone is printed again; Spencer's entry is not New Glarus's.
    services.village_office_set(village=spencer, staff=people.staff[SPENCER])
    assert _office(SPENCER)[4] == "Phone: 715-659-5423"
    assert _office(NEW_GLARUS)[-1] == (
        "The village has not given a phone number, an email address or office hours for these "
        "notices: write to the address above."
    )


def test_new_glarus_gives_all_three_and_the_line_that_none_was_given_goes(people: People) -> None:
    services.village_office_set(
        village=Village.objects.get(pk=NEW_GLARUS),
        staff=people.staff[NEW_GLARUS],
        phone=" (608) 555-0140 ",
        email="clerk@newglarus.example",
        hours=HOURS,
    )
    assert _office(NEW_GLARUS) == [
        "FROM:",
        "Village Administrator, Village of New Glarus, Village Hall",
        "319 2nd Street",
        "New Glarus, WI 53574",
        "Phone: (608) 555-0140",
        "Email: clerk@newglarus.example",
        f"Office hours: {HOURS}",
    ]
    event = AuditEvent.objects.get(action="village_office_set")
    assert event.village == NEW_GLARUS
    assert event.before == {"phone": "", "email": "", "hours": ""}
    assert event.after == {
        "phone": "(608) 555-0140",
        "email": "clerk@newglarus.example",
        "hours": HOURS,
    }


def test_a_stop_work_order_posted_after_the_entry_carries_it_one_before_does_not(
    people: People,
) -> None:
    case = spencer_case_with_a_violation(people)
    staff = people.staff[SPENCER]
    before = enforcement.stop_work_order_post(
        case=case, staff=staff, at=at("2026-07-01", 10), grounds=["conditions-not-met"]
    )
    services.village_office_set(
        village=Village.objects.get(pk=SPENCER), staff=staff, phone="715-555-0199"
    )
    retraction = enforcement.order_retract(
        case=case, staff=staff, at=at("2026-07-02"), order="stop_work_order", reason="Fixed"
    )
    placard = " ".join(pdf_text(before.documents.get().file).split())
    retracted = " ".join(pdf_text(retraction.documents.get().file).split())
    assert "Phone: 715-659-5423" in placard and "715-555-0199" not in placard
    assert "Phone: 715-555-0199" in retracted and "715-659-5423" not in retracted


@pytest.mark.parametrize(
    "terms, field",
    [
        ({"phone": "12345"}, "phone"),
        ({"phone": "715-555-0199 ext. 1234567"}, "phone"),
        ({"phone": "7" * 41}, "phone"),
        ({"email": "clerk@"}, "email"),
        ({"email": "clerk village@example.gov"}, "email"),
        ({"email": "a" * 64 + "@" + "b" * 186 + ".gov"}, "email"),  # 255 characters
        ({"hours": "x" * 201}, "hours"),
        ({"hours": "Mon-Fri\n8-4"}, "hours"),
        ({"hours": "Mon\x07"}, "hours"),
        ({"hours": "x" * 1_000_000}, "hours"),  # a megabyte, refused before anything is read
        ({"phone": "{{ 7*7 }}"}, "phone"),  # text, never evaluated
        ({"email": "${jndi:ldap://example.org/a}"}, "email"),  # no address at all
    ],
)
def test_a_contact_that_is_not_one_is_refused_naming_the_field(
    people: People, terms: dict[str, str], field: str
) -> None:
    spencer = Village.objects.get(pk=SPENCER)
    events = AuditEvent.objects.count()
    with pytest.raises(ActionRefused) as refused:
        services.village_office_set(
            village=spencer, staff=people.staff[SPENCER], **{"hours": HOURS, **terms}
        )
    assert refused.value.field == field
    # Nothing written: not even the hours given with it.
    assert Village.objects.filter(pk=SPENCER, phone="", email="", hours="").exists()
    assert AuditEvent.objects.count() == events


def test_the_longest_accepted_are_taken(people: People) -> None:
    email = "a" * 64 + "@" + "b" * 185 + ".gov"  # 254 characters
    services.village_office_set(
        village=Village.objects.get(pk=SPENCER),
        staff=people.staff[SPENCER],
        phone="+1 (715) 555-0199 ext. 123456",
        email=email,
        hours="h" * 200,
    )
    assert Village.objects.get(pk=SPENCER).email == email


def test_only_the_villages_own_staff_set_it(people: People) -> None:
    spencer = Village.objects.get(pk=SPENCER)
    for who in (people.inspector[SPENCER], people.staff[NEW_GLARUS], people.applicant_a):
        with pytest.raises(ActionRefused) as refused:
            services.village_office_set(village=spencer, staff=who, phone="715-555-0199")
        assert refused.value.field == "village"
    assert Village.objects.get(pk=SPENCER).phone == ""


def test_the_settings_page_shows_what_is_printed_and_says_a_refusal_by_its_label(
    people: People,
) -> None:
    client = Client()
    client.force_login(people.staff[NEW_GLARUS])
    page = client.get(reverse("web:village-settings", args=[NEW_GLARUS])).content.decode()
    assert "319 2nd Street" in page
    assert "none given: the notices say to write" in page
    refused = client.post(
        reverse("web:village-office", args=[NEW_GLARUS]),
        {"phone": "call the hall", "email": "", "hours": ""},
        follow=True,
    )
    assert refused.status_code == 200
    assert "The phone number 'call the hall' is not written like 715-555-0100" in html.unescape(
        refused.content.decode()
    )
    saved = client.post(
        reverse("web:village-office", args=[NEW_GLARUS]),
        {"phone": "608-555-0140", "email": "", "hours": HOURS},
        follow=True,
    ).content.decode()
    assert "notices, letters and receipts print it from now on" in saved
    assert "608-555-0140" in saved and HOURS in saved


def _hours_kept(typed: str) -> str | None:
    """What is kept of the hours typed (the rules the page states): trimmed, at most 200
    characters, one line with no control character; None where it is refused."""
    value = typed.strip()
    if len(value) > 200 or any(ord(c) < 32 or ord(c) == 127 for c in value):
        return None
    return value


# A North American number as people write one: area code, exchange, line, in the common
# styles, with an extension or not. Built from its parts, not from the service's pattern.
WRITTEN_NUMBERS = st.builds(
    lambda area, exchange, line, style, extension: (
        style.format(a=area, e=exchange, n=line) + extension
    ),
    st.from_regex(r"[2-9]\d\d", fullmatch=True),
    st.from_regex(r"[2-9]\d\d", fullmatch=True),
    st.from_regex(r"\d{4}", fullmatch=True),
    st.sampled_from(
        [
            "{a}-{e}-{n}",
            "({a}) {e}-{n}",
            "{a}.{e}.{n}",
            "{a} {e} {n}",
            "1-{a}-{e}-{n}",
            "+1 {a} {e} {n}",
        ]
    ),
    st.sampled_from(["", " x12", " ext. 104", "x123456"]),
)


def _looks_like_a_phone_number(value: str) -> bool:
    """Only digits and the marks people write a number with, and 10 digits (11 with the
    country's 1), plus at most 6 of an extension."""
    digits = sum(c.isdigit() for c in value)
    return set(value) <= set("0123456789()+-. extx") and 10 <= digits <= 17


FUZZ = settings(
    max_examples=40,
    deadline=2000,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _post(people: People, phone: str, hours: str) -> Village:
    client = Client()
    client.force_login(people.staff[SPENCER])
    answer = client.post(
        reverse("web:village-office", args=[SPENCER]),
        {"phone": phone, "email": "", "hours": hours},
        follow=True,
    )
    assert answer.status_code == 200
    stored = Village.objects.get(pk=SPENCER)
    Village.objects.filter(pk=SPENCER).update(phone="", email="", hours="")
    return stored


@FUZZ
@given(phone=WRITTEN_NUMBERS, hours=st.sampled_from(["", HOURS, "h" * 200]))
def test_a_number_written_in_a_common_style_is_always_taken_as_typed(
    people: People, phone: str, hours: str
) -> None:
    stored = _post(people, f" {phone} ", hours)
    assert (stored.phone, stored.hours) == (phone, hours)


@FUZZ
@given(phone=st.text(max_size=50), hours=st.text(max_size=220))
def test_any_contact_posted_is_kept_as_typed_or_refused_whole(
    people: People, phone: str, hours: str
) -> None:
    stored = _post(people, phone, hours)
    written, kept_hours = phone.strip(), _hours_kept(hours)
    if kept_hours is None or (written and not _looks_like_a_phone_number(written)):
        # Refused whole: not even the field that was right is written.
        assert (stored.phone, stored.hours) == ("", "")
    elif not written:
        assert (stored.phone, stored.hours) == ("", kept_hours)
    else:  # digits and marks that may or may not make a number: taken as typed, or refused
        assert (stored.phone, stored.hours) in {(written, kept_hours), ("", "")}
