"""Playwright driving Debian's Chromium against Django's live server.

Chromium comes from the system (/usr/bin/chromium); nothing is downloaded. Without it,
the browser tests fail under CI=true and skip elsewhere with the reason.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


AXE = Path(__file__).parent / "vendor" / "axe-core-4.14.1" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 900}


def axe_violations(page) -> list[str]:
    """Every axe-core rule the page breaks, one line each (rule, impact, first elements).

    axe is given to the page through the DevTools protocol, not as a <script>: the page's
    Content-Security-Policy (scripts from 'self' only) stays exactly as in production.
    """
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    found = page.evaluate(
        """async () => {
            const result = await axe.run(document, {resultTypes: ["violations"]});
            return result.violations.map(v =>
                `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3)
                    .map(n => n.target.join(" ")).join(", ")}`);
        }"""
    )
    return [f"{page.url}: {line}" for line in found]


def assert_accessible(page) -> None:
    """axe-core finds nothing on the page as it is now."""
    problems = axe_violations(page)
    assert problems == [], "\n".join(problems)


def sign_in(page, base, username, password):
    """Sign in through the form, as a person would: the password, then, for a village
    official or an applicant who turned it on, the code step. An official gets an
    authenticator first if they have none (the enrolment screen has its own test); the code
    is worked out from its key, as the person's phone would (tests/signing_in.py)."""
    from django.contrib.auth import get_user_model

    from signing_in import authenticator_for, code_now
    from siltfence.apps.accounts.second_factor import authenticator_of, second_factor_required

    user = get_user_model().objects.get(username=username)
    device = authenticator_for(user) if second_factor_required(user) else authenticator_of(user)
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_load_state()
    if device is not None:
        page.locator("#id_code").fill(code_now(device))
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_load_state()


def pytest_collection_modifyitems(items):
    for item in items:
        if "e2e/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    if not shutil.which(CHROMIUM):
        if os.environ.get("CI") == "true":
            pytest.fail(f"Chromium is required in CI and was not found at {CHROMIUM}")
        pytest.skip(f"Chromium not installed at {CHROMIUM} (make test-browser installs it in CI)")
    # Playwright's sync API runs an event loop in this thread; the test thread itself
    # does no database work while it drives the browser.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=PHONE)  # a phone
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def purgeable_audit(transactional_db):
    """Let pytest-django empty the append-only audit table after a test that commits.

    This fixture depends on ``transactional_db``, so it is torn down first: it opens the
    purge window (see the audit migration) just before the database is flushed.
    """
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM audit_purge_window")
    yield
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO audit_purge_window (opened_at) VALUES (CURRENT_TIMESTAMP)")
