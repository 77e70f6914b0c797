"""Hostile input at every interface: the API, the home page form, the portal's apply link,
the design-check page and its PDF, and the command line. Whatever arrives, the answer is
a refusal naming the field (a 400, the form with its message, or exit 2 with one line),
never a 500, a traceback or a hang.
"""

from __future__ import annotations

import datetime
import functools
import html
import io
import json
import os
import re
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from datetime import timedelta
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hanging import returns_within
from siltfence.cli.main import run
from siltfence.core.facts import FACTS
from siltfence.core.quantities import MAX_MAGNITUDE
from typed_quantities import typed_value

pytestmark = pytest.mark.django_db

FAST = settings(
    deadline=timedelta(milliseconds=500),
    max_examples=60,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
QUANTITY_FACTS = [key for key, spec in FACTS.items() if spec.kind == "quantity"]
HOSTILE_QUANTITIES = [
    "1 mile^2 ** 100",
    "1 acre " * 6_000,
    "1 acre / 0",
    "(5 acre",
    "\x00",
    "__import__('os')",
    "10**400",
    "9" * 3_000,
    "0.5 acre * 2",
    "1e308",
]
HOSTILE_DATES = ["20260601", "2026-W22-1", "2026-06-01T00:00", "2026-02-30", "x" * 10_000]
DEEP = "[" * 100_000 + "]" * 100_000
DEEP_OBJECT = '{"a":' * 100_000 + "1" + "}" * 100_000

QUANTITY_TEXT = st.one_of(
    st.sampled_from(HOSTILE_QUANTITIES),
    st.text(max_size=60),
    st.builds(
        "{} {}".format,
        st.from_regex(r"[-+]?[0-9,.]{1,12}([eE][-+]?[0-9]{1,4})?", fullmatch=True),
        st.sampled_from(["acre", "sq ft", "m^2", "m²", "cu yd", "ft", "kg", "acre * 2", "**"]),
    ),
)
DATE_TEXT = st.one_of(st.sampled_from(HOSTILE_DATES), st.text(max_size=30))
# Spencer's chapter was adopted on 1993-10-04; a day before it is refused naming "on".
ADOPTED = "1993-10-04"
PINT_NAMES = {"ft**2": "foot ** 2", "yd**3": "yard ** 3", "ft": "foot"}
UNIT_LABELS = {"ft**2": "sq ft", "yd**3": "cu yd", "ft": "ft"}
# The facts a finding of Spencer's states, and the words after the quantity.
SHOWN_AS = {
    "disturbed_area": "disturbed",
    "excavation_fill_volume": "of excavation and fill",
    "underground_pipe_length": "of underground pipe",
}


def in_force_on(on: str, *, empty_is_today: bool = False) -> bool:
    """A real day written YYYY-MM-DD, from the chapter's adoption to 2100 (or, on the
    forms, an empty day: today)."""
    if on == "" and empty_is_today:
        return True
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", on):
        return False
    try:
        day = datetime.date.fromisoformat(on)
    except ValueError:
        return False
    return on >= ADOPTED and day.year <= 2100


# -- the API -----------------------------------------------------------------------------


def api(client, body: str, path: str = "/api/v1/determinations"):
    return client.post(path, data=body, content_type="application/json")


@pytest.mark.parametrize("typed", HOSTILE_QUANTITIES, ids=lambda t: repr(t)[:24])
def test_the_api_refuses_a_hostile_quantity_at_once_naming_the_fact(client, typed):
    body = {"jurisdiction": "spencer-wi", "on": "2026-06-01", "facts": {"disturbed_area": 1}}
    assert api(client, json.dumps(body)).status_code == 200  # the first request loads the app
    body = {"jurisdiction": "spencer-wi", "on": "2026-06-01", "facts": {"disturbed_area": typed}}
    response = returns_within(api, client, json.dumps(body))  # a hang fails; speed is bench's
    assert response.status_code == 400
    assert response.json()["field"] == "disturbed_area"
    assert response.json()["detail"].startswith("facts.disturbed_area: ")


@pytest.mark.parametrize("on", HOSTILE_DATES, ids=lambda t: repr(t)[:24])
def test_the_api_refuses_a_date_not_written_yyyy_mm_dd_naming_on(client, on):
    body = {"jurisdiction": "spencer-wi", "on": on, "facts": {"disturbed_area": 5000}}
    response = api(client, json.dumps(body))
    assert response.status_code == 400
    assert response.json()["field"] == "on"


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/v1/determinations", '{"jurisdiction": "spencer-wi", "facts": ' + DEEP + "}"),
        ("/api/v1/design-checks", DEEP),
        ("/api/v1/duties", '{"jurisdiction": "spencer-wi", "events": ' + DEEP_OBJECT + "}"),
    ],
    ids=["determinations", "design-checks", "duties"],
)
def test_the_api_refuses_json_nested_100000_levels_deep_with_a_sentence(client, path, body):
    response = api(client, body, path)
    assert response.status_code == 400
    assert response.json()["detail"] == "(body): the JSON is nested more than 64 levels deep"


@pytest.mark.parametrize(
    ("number", "words"),
    [("1e400", "too large to be a measurement"), ("9" * 3_000, "too long to be a measurement")],
    ids=["1e400", "3000 digits"],
)
def test_the_api_refuses_a_json_number_no_measurement_has(client, number, words):
    body = '{"jurisdiction": "spencer-wi", "facts": {"disturbed_area": ' + number + "}}"
    response = api(client, body)
    assert response.status_code == 400
    assert words in response.json()["detail"]


def test_the_api_refuses_hostile_rain_naming_the_event_field(client):
    body = {
        "jurisdiction": "spencer-wi",
        "as_of": "2026-06-10",
        "events": [{"type": "rain", "at": "2026-06-01", "inches": "1 in ** 100"}],
    }
    response = api(client, json.dumps(body), "/api/v1/duties")
    assert response.status_code == 400
    assert response.json()["field"] == "events[0].inches"


@FAST
@given(key=st.sampled_from(QUANTITY_FACTS), typed=QUANTITY_TEXT, on=DATE_TEXT)
def test_any_quantity_and_date_sent_to_the_api_is_answered_or_refused_naming_it(
    client, key, typed, on
):
    body = {"jurisdiction": "spencer-wi", "on": on, "facts": {key: typed}}
    response = api(client, json.dumps(body))
    assert response.status_code in (200, 400), response.content[:200]
    answer = response.json()
    if response.status_code == 400:
        assert answer["field"] in (key, "on")
        # The day is read first: a good day means the quantity was what was refused.
        assert answer["field"] == ("on" if not in_force_on(on) else key), answer
        assert answer["detail"].startswith("on: " if answer["field"] == "on" else f"facts.{key}: ")
        return
    assert in_force_on(on) and answer["evaluated_on"] == on
    read = answer["facts"][key]
    assert 0 <= read <= MAX_MAGNITUDE
    expected = typed_value(typed, PINT_NAMES[FACTS[key].unit], fold=True)
    if expected is not None:  # text of another shape: the bounds only
        assert read == pytest.approx(expected, rel=1e-9, abs=1e-12), (typed, read)


# -- the home page form ------------------------------------------------------------------

ANSWER = "/permit-check/answer"


@pytest.mark.parametrize("typed", HOSTILE_QUANTITIES, ids=lambda t: repr(t)[:24])
def test_the_home_page_form_shows_a_hostile_quantity_as_a_message(client, typed):
    response = client.post(
        ANSWER, {"jurisdiction": "spencer-wi", "on": "2026-06-01", "disturbed_area": typed}
    )
    assert response.status_code == 400
    assert b'role="alert"' in response.content
    assert b'data-field="disturbed_area"' in response.content


@pytest.mark.parametrize("on", HOSTILE_DATES, ids=lambda t: repr(t)[:24])
def test_the_home_page_form_refuses_a_date_not_written_yyyy_mm_dd(client, on):
    response = client.post(ANSWER, {"jurisdiction": "spencer-wi", "on": on, "disturbed_area": "1"})
    assert response.status_code == 400
    assert b'data-field="on"' in response.content


@FAST
@given(key=st.sampled_from(QUANTITY_FACTS), typed=QUANTITY_TEXT, on=DATE_TEXT)
def test_any_quantity_and_date_typed_on_the_home_page_is_answered_or_named(client, key, typed, on):
    response = client.post(ANSWER, {"jurisdiction": "spencer-wi", "on": on, key: typed})
    assert response.status_code in (200, 400)
    page = response.content.decode()
    if response.status_code == 400:
        assert f'data-field="{key}"'.encode() in response.content or (
            b'data-field="on"' in response.content
        )
        assert 'role="alert"' in page
        if not in_force_on(on, empty_is_today=True):
            assert 'data-field="on"' in page
        else:
            assert f'data-field="{key}"' in page
        return
    assert in_force_on(on, empty_is_today=True)
    assert re.search(
        rf"judged on {re.escape(on) if on else '[0-9]{4}-[0-9]{2}-[0-9]{2}'}</p>", page
    )
    if key not in SHOWN_AS:
        return  # a fact no finding of Spencer's states
    label = UNIT_LABELS[FACTS[key].unit]
    shown = re.search(rf"(-?[0-9,]+(?:\.[0-9]*)?) {label}( \(none given\))? {SHOWN_AS[key]}", page)
    assert shown is not None, page
    if typed.strip() == "":  # an empty box is a fact not given
        assert shown[2] is not None and shown[1] == "0"
        return
    expected = typed_value(typed.strip(), PINT_NAMES[FACTS[key].unit], fold=True)
    if expected is not None:  # shown to two decimals
        assert abs(float(shown[1].replace(",", "")) - expected) <= 0.005 + 1e-9 * expected


# -- the portal's apply link -------------------------------------------------------------


@pytest.fixture
def applicant(client, django_user_model):
    user = django_user_model.objects.create_user("hostile-applicant", password="x-long-pass-1")
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def apply_link(client, facts: str, on: str = "2026-06-01"):
    return client.get("/portal/apply/", {"jurisdiction": "spencer-wi", "facts": facts, "on": on})


@pytest.mark.parametrize("typed", HOSTILE_QUANTITIES, ids=lambda t: repr(t)[:24])
def test_the_apply_link_sends_a_hostile_quantity_back_to_the_permit_check(applicant, typed):
    response = apply_link(applicant, json.dumps({"disturbed_area": typed}))
    assert response.status_code == 302 and response["Location"] == "/"
    (message,) = [str(m) for m in response.wsgi_request._messages]
    assert message.startswith("Start from the permit check: facts.disturbed_area: ")


@pytest.mark.parametrize(
    ("facts", "on", "words"),
    [
        (
            "[" * 20_000 + "]" * 20_000,
            "2026-06-01",
            "facts: the JSON is nested more than 64 levels deep",
        ),
        (DEEP, "2026-06-01", "facts: the document is larger than 65,536 bytes"),
        ("{}", "2026-W22-1", "on: expected a date written YYYY-MM-DD, got '2026-W22-1'"),
    ],
    ids=["deep facts", "large facts", "week date"],
)
def test_the_apply_link_refuses_deep_facts_and_a_week_date(applicant, facts, on, words):
    response = apply_link(applicant, facts, on)
    assert response.status_code == 302 and response["Location"] == "/"
    (message,) = [str(m) for m in response.wsgi_request._messages]
    assert message == f"Start from the permit check: {words}"


@FAST
@given(key=st.sampled_from(QUANTITY_FACTS), typed=QUANTITY_TEXT, on=DATE_TEXT)
def test_any_quantity_and_date_in_the_apply_link_is_shown_or_sent_back(applicant, key, typed, on):
    response = apply_link(applicant, json.dumps({key: typed}), on)
    assert response.status_code in (200, 302)
    if response.status_code == 302:
        assert response["Location"] == "/"
        *_, message = [str(m) for m in response.wsgi_request._messages]
        field = "on" if not in_force_on(on, empty_is_today=True) else f"facts.{key}"
        assert message.startswith(f"Start from the permit check: {field}: "), message
        return
    assert in_force_on(on, empty_is_today=True)
    # The application form carries the facts and the day on, exactly as they came.
    page = response.content.decode()
    facts = re.search(r'<input type="hidden" name="facts" value="([^"]*)"', page)
    day = re.search(r'<input type="hidden" name="on" value="([^"]*)"', page)
    assert facts is not None and day is not None, page
    assert json.loads(html.unescape(facts[1])) == {key: typed}
    assert html.unescape(day[1]) == on


# -- the design-check page and its PDF ---------------------------------------------------


@pytest.mark.parametrize("path", ["/design-checks/", "/design-checks/report.pdf"])
@pytest.mark.parametrize("plan", [DEEP, DEEP_OBJECT], ids=["arrays", "objects"])
def test_the_design_check_page_and_pdf_refuse_a_plan_nested_100000_levels_deep(client, path, plan):
    response = client.post(path, {"plan": plan})
    assert response.status_code == 400
    assert b"nested more than 64 levels deep" in response.content


def test_an_uploaded_plan_nested_100000_levels_deep_is_refused_on_the_form(client):
    upload = io.BytesIO(DEEP.encode())
    upload.name = "deep.geojson"
    response = client.post("/design-checks/", {"plan_file": upload})
    assert response.status_code == 400
    assert b"nested more than 64 levels deep" in response.content


# -- the command line --------------------------------------------------------------------


def cli(*args: str, stdin: str = "") -> tuple[int, str, str]:
    """The command line run in this process, as its entry point runs it."""
    out, err = io.StringIO(), io.StringIO()
    fake_stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8", "surrogatepass")))
    with (
        mock.patch.object(sys, "argv", ["siltfence", *args]),
        mock.patch.object(sys, "stdin", fake_stdin),
        redirect_stdout(out),
        redirect_stderr(err),
    ):
        try:
            run()
            code = 0
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


@FAST
@given(key=st.sampled_from(QUANTITY_FACTS), typed=QUANTITY_TEXT, on=DATE_TEXT)
def test_any_quantity_and_date_given_to_the_cli_is_answered_or_one_line_exit_2(key, typed, on):
    code, out, err = cli(
        "determine",
        "--jurisdiction",
        "spencer-wi",
        f"--on={on}",
        "--facts",
        "-",
        stdin=json.dumps({key: typed}),
    )
    assert code in (0, 2), err
    if code == 2:
        assert out == "" and err.count("\n") == 1
        assert err.startswith((f"siltfence: facts.{key}: ", "siltfence: on: "))
    else:
        assert json.loads(out)["evaluated_on"] == on.strip()


SILTFENCE = [sys.executable, "-c", "from siltfence.cli.main import run; run()"]


def siltfence(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*SILTFENCE, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "200"},
    )


def test_the_shapes_that_once_hung_the_cli_exit_2_at_once_with_one_line():
    # A whole new interpreter that imports siltfence: about 0.3 s, 1.2 s with nothing compiled
    # yet (no bytecode, no ordinance cache), so 15 s, over ten times the coldest run, not the
    # 5 s of one request. Only a hang fails it; how fast is bench's.
    determine = functools.partial(
        siltfence,
        "determine",
        "--jurisdiction",
        "spencer-wi",
        "--on",
        "2026-06-01",
        "--facts",
        "-",
        stdin=json.dumps({"disturbed_area": "1 mile^2 ** 100"}),
    )
    run_ = returns_within(determine, seconds=15)
    assert run_.returncode == 2 and run_.stdout == ""
    assert run_.stderr.startswith("siltfence: facts.disturbed_area: could not read ")
    assert run_.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "stdin", "line"),
    [
        (
            ["determine", "--jurisdiction", "spencer-wi", "--facts", "-"],
            DEEP,
            "siltfence: facts: the JSON is nested more than 64 levels deep\n",
        ),
        (
            ["duties", "--jurisdiction", "spencer-wi", "--events", "-"],
            DEEP_OBJECT,
            "siltfence: events: the JSON is nested more than 64 levels deep\n",
        ),
        (
            ["check", "--plan", "-"],
            DEEP,
            "siltfence: plan: the JSON is nested more than 64 levels deep\n",
        ),
        (
            ["determine", "--jurisdiction", "spencer-wi", "--on", "2026-W22-1", "--facts", "-"],
            "{}",
            "siltfence: on: expected a date written YYYY-MM-DD, got '2026-W22-1'\n",
        ),
        (
            ["duties", "--jurisdiction", "spencer-wi", "--events", "-", "--as-of", "20261201"],
            "[]",
            "siltfence: as_of: expected an ISO 8601 date or datetime, got '20261201' "
            "(write YYYY-MM-DD, or YYYY-MM-DDTHH:MM with a time)\n",
        ),
    ],
    ids=["determine deep", "duties deep", "check deep", "--on week date", "--as-of basic"],
)
def test_the_cli_refuses_deep_json_and_other_date_spellings_with_one_line(args, stdin, line):
    run_ = siltfence(*args, stdin=stdin)
    assert (run_.returncode, run_.stdout, run_.stderr) == (2, "", line)


def test_a_deep_facts_file_is_named_in_the_line(tmp_path):
    facts = tmp_path / "deep.json"
    facts.write_text(DEEP)
    run_ = siltfence("determine", "--jurisdiction", "spencer-wi", "--facts", str(facts), stdin="")
    assert run_.returncode == 2
    assert (
        run_.stderr
        == f"siltfence: facts: the JSON is nested more than 64 levels deep (file {facts})\n"
    )


# -- the dates of the web forms ----------------------------------------------------------

FORM_DATES = [
    ("ApplyForm", "building_permit_expires"),
    ("ApplyForm", "on"),
    ("FeeForm", "paid_on"),
    ("SuretyForm", "received_on"),
    ("ClosureForm", "day"),
    ("FeeScheduleForm", "effective_from"),
]


@pytest.mark.parametrize(("form", "field"), FORM_DATES)
@pytest.mark.parametrize("typed", ["20260601", "2026-W22-1", "06/01/26", "2026-02-30"])
def test_every_date_of_the_web_forms_refuses_other_spellings_naming_itself(form, field, typed):
    from siltfence.apps.payments import forms as payments_forms
    from siltfence.apps.web import forms

    bound = getattr(forms, form, None) or getattr(payments_forms, form)
    bound = bound(data={field: typed})
    assert not bound.is_valid()
    assert bound.errors[field] == [
        f"expected a date written YYYY-MM-DD, got {typed!r}"
        + (": no such day" if typed == "2026-02-30" else "")
    ]


@FAST
@given(typed=DATE_TEXT)
def test_any_text_in_a_web_form_date_is_the_day_written_or_an_error_on_that_field(typed):
    from siltfence.apps.web.forms import ClosureForm

    bound = ClosureForm(data={"day": typed, "reason": "Thanksgiving"})
    if bound.is_valid():
        assert bound.cleaned_data["day"].isoformat() == typed.strip()
    else:
        assert list(bound.errors) == ["day"]
