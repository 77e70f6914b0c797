"""Design checks end to end: the CLI in a subprocess, the API and the web pages over HTTP."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from siltfence.apps.web import design_views

REPO = Path(__file__).resolve().parents[2]
CASES = REPO / "ordinances/spencer-wi/cases/design"
NEW_GLARUS = REPO / "ordinances/new-glarus-wi/cases/design/standards-not-entered.json"

# `siltfence check` as main.py registers it, with main's run(): one line and exit 2 on bad input.
CHECK = [
    sys.executable,
    "-c",
    "import sys, typer\n"
    "from siltfence.cli.check import check\n"
    "from siltfence.core.errors import SiltfenceError\n"
    "app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)\n"
    "app.command()(check)\n"
    "try:\n"
    "    app(standalone_mode=False)\n"
    "except SiltfenceError as exc:\n"
    "    sys.stderr.write(f'siltfence: {exc}\\n')\n"
    "    sys.exit(2)\n",
]


def siltfence_check(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CHECK, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "200"},
    )


def test_the_cli_reports_a_plan_file_as_json_failures_first():
    run = siltfence_check("--plan", str(CASES / "stockpiles.json"))
    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    assert answer["summary"]["fail"] == 3
    assert answer["checks"][0]["result"] == "fail"


def test_the_cli_reads_the_plan_from_stdin_and_prints_text_with_formulas_and_sections():
    plan = (CASES / "dewatering-note-10000-gal-min.json").read_text(encoding="utf-8")
    run = siltfence_check("--plan", "-", "--format", "text", stdin=plan)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    first_check = next(
        line for line in lines if line.startswith(("FAIL", "ACTION", "PASS", "INFO"))
    )
    assert first_check.startswith("FAIL") and "§ 413-7B(1)" in first_check
    assert "required surface area: A = Q / Vs = 1,059 sq ft" in run.stdout
    assert "CHECKLIST" in run.stdout and "[x] A simple map of the site (§ 413-8C)" in run.stdout


def test_the_cli_refuses_a_bad_plan_with_one_line_naming_the_field_and_exit_2():
    plan = json.loads((CASES / "stockpiles.json").read_text(encoding="utf-8"))
    plan["sheet_flow"] = [{"adjacent_area": 1, "flow_length": 1, "slope": "5 kg"}]
    run = siltfence_check("--plan", "-", stdin=json.dumps(plan))
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.count("\n") == 1 and "plan.sheet_flow[0].slope" in run.stderr


def test_the_cli_refuses_json_that_does_not_parse():
    run = siltfence_check("--plan", "-", stdin="{not json")
    assert run.returncode == 2 and run.stderr.startswith("siltfence: plan: not valid JSON")


# -- API ----------------------------------------------------------------------------------


@pytest.fixture
def api_client():
    from ninja import NinjaAPI
    from ninja.errors import ValidationError
    from ninja.testing import TestClient

    from siltfence.apps.api.api import bad_body, bad_input
    from siltfence.apps.api.design_checks import make_router
    from siltfence.core.errors import SiltfenceError

    api = NinjaAPI(urls_namespace="design-checks-test")
    api.add_exception_handler(SiltfenceError, bad_input)
    api.add_exception_handler(ValidationError, bad_body)
    api.add_router("", make_router())
    return TestClient(api)


def test_the_api_answers_a_plan_with_its_report(api_client):
    plan = json.loads((CASES / "basin-10-acre.json").read_text(encoding="utf-8"))
    response = api_client.post("/v1/design-checks", json=plan)
    assert response.status_code == 200
    answer = response.json()
    assert answer["jurisdiction"] == "spencer-wi"
    assert answer["checklist"]["kind"] == "control_plan"
    basin = next(c for c in answer["checks"] if c["id"] == "sediment-basin")
    assert basin["result"] == "needs-action" and basin["citation"] == "§ 413-7B(5)(c)[2]"


def test_the_api_gives_new_glarus_needs_action_without_a_number(api_client):
    plan = json.loads(NEW_GLARUS.read_text(encoding="utf-8"))
    response = api_client.post("/v1/design-checks", json=plan)
    assert response.status_code == 200
    assert {c["result"] for c in response.json()["checks"]} == {"needs-action"}


@pytest.mark.parametrize(
    "change, field",
    [
        (lambda p: p.update(extra=1), "plan.extra"),
        (lambda p: p.update(jurisdiction="nowhere-wi"), "jurisdiction"),
        (
            lambda p: p["site"]["features"][0]["properties"].update(kind="pond"),
            "plan.site.features[0].properties.kind",
        ),
        (lambda p: p.update(on="tomorrow"), "plan.on"),
    ],
)
def test_bad_plans_are_a_400_naming_the_field(api_client, change, field):
    plan = json.loads((CASES / "stockpiles.json").read_text(encoding="utf-8"))
    change(plan)
    response = api_client.post("/v1/design-checks", json=plan)
    assert response.status_code == 400
    assert response.json()["field"] == field


def test_a_body_that_is_not_an_object_is_a_400(api_client):
    response = api_client.post("/v1/design-checks", json=[1, 2])
    assert response.status_code == 400


# -- web ----------------------------------------------------------------------------------


@pytest.fixture
def web(client):
    """The site as it is served: every page's header and footer link the other apps."""
    return client


@pytest.mark.django_db
def test_the_form_is_shown_on_get(web):
    response = web.get("/design-checks/")
    assert response.status_code == 200
    assert b'name="plan_file"' in response.content and b"csrf" in response.content


@pytest.mark.django_db
def test_a_pasted_plan_renders_its_report_with_failures_first(web):
    plan = (CASES / "stockpiles.json").read_text(encoding="utf-8")
    response = web.post("/design-checks/", {"plan": plan})
    assert response.status_code == 200
    html = response.content.decode()
    first = html.index('data-result="fail"')
    assert first < html.index('data-result="pass"') < html.index('data-result="info"')
    assert "Download the report as PDF" in html
    assert "/ordinances/spencer-wi/sections/413-7/" in html  # citations link to the words


@pytest.mark.django_db
def test_an_uploaded_geojson_file_is_read(web):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile(
        "plan.geojson",
        (CASES / "sheet-flow.json").read_bytes(),
        content_type="application/geo+json",
    )
    response = web.post("/design-checks/", {"plan_file": upload})
    assert response.status_code == 200
    assert "Sheet flow from adjacent areas" in response.content.decode()


@pytest.mark.django_db
def test_an_upload_that_is_not_json_is_refused_on_the_form(web):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("plan.html", b"<html></html>", content_type="text/html")
    response = web.post("/design-checks/", {"plan_file": upload})
    assert response.status_code == 400
    assert design_views.NOT_JSON_FILE in response.content.decode()


@pytest.mark.django_db
def test_a_bad_plan_comes_back_on_the_form_with_the_field_named(web):
    plan = json.loads((CASES / "stockpiles.json").read_text(encoding="utf-8"))
    plan["land_use"] = "farm"
    response = web.post("/design-checks/", {"plan": json.dumps(plan)})
    assert response.status_code == 400
    assert 'data-field="plan.land_use"' in response.content.decode()


@pytest.mark.django_db
def test_the_pdf_is_an_attachment_holding_the_report(web):
    plan = (CASES / "stockpiles.json").read_text(encoding="utf-8")
    response = web.post("/design-checks/report.pdf", {"plan": plan})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith("attachment;")
    assert response.content.startswith(b"%PDF-")


def test_the_pdf_text_lists_the_failures_first_with_their_sections():
    from siltfence.core.engineering.report import review_plan
    from siltfence.presentation.design_pdf import report_pdf

    plan = json.loads((CASES / "stockpiles.json").read_text(encoding="utf-8"))
    raw = report_pdf(review_plan(plan).to_dict(), compress=False).decode("latin-1")
    first_fail = raw.index("FAIL: ")
    assert first_fail < raw.index("PASS: ") < raw.index("INFO: ")
    # PDF strings escape parentheses: "(§ 413-7B(5)(d))" is written "\\(§ 413-7B\\(5\\)\\(d\\)\\)".
    assert "FAIL: Soil storage pile \\(§ 413-7B\\(5\\)\\(d\\)\\)" in raw
