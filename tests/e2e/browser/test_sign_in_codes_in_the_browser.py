"""A new member of staff signs in for the first time: the password, then the screen that
sets up an authenticator app (a QR code drawn on the server, the key written out for
typing), a first code, the backup codes, and only then the review queue. On a desk and on
a phone, with axe finding nothing and nothing wider than the screen."""

from __future__ import annotations

import base64

import pytest
from django.contrib.auth import get_user_model
from django_otp.oath import totp
from playwright.sync_api import expect

from conftest import assert_accessible
from siltfence.apps.accounts.models import Membership, Role
from siltfence.apps.permits import services

PASSWORD = "first-sign-in-password-2026"
SIZES = [pytest.param((1280, 900), id="desktop"), pytest.param((390, 844), id="phone")]


@pytest.fixture
def clerk(purgeable_audit):
    villages = {v.id: v for v in services.village_sync()}
    user = get_user_model().objects.create_user("new-clerk", password=PASSWORD)
    Membership.objects.create(user=user, village=villages["spencer-wi"], role=Role.STAFF)
    return user


def no_wider_than_the_screen(page, width: int) -> None:
    scroll = page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll <= width, f"{page.url} is {scroll}px wide on a {width}px screen"


@pytest.mark.parametrize("size", SIZES)
def test_a_new_clerk_sets_up_the_authenticator_app_at_the_first_sign_in(
    live_server, browser, clerk, size
):
    width, height = size
    base = live_server.url
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)

    page.goto(f"{base}/staff/")
    page.get_by_label("Username").fill("new-clerk")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Set up your authenticator app")).to_be_visible()

    qr = page.get_by_test_id("enrol-qr")
    expect(qr).to_be_visible()
    assert qr.evaluate("img => img.complete && img.naturalWidth > 0"), "the QR code drew"
    key = page.get_by_test_id("enrol-key").inner_text()
    assert len(key.split()) == 8 and all(len(group) == 4 for group in key.split())
    assert_accessible(page)
    no_wider_than_the_screen(page, width)

    # Until the app is confirmed, the staff pages stay closed.
    other = page.context.new_page()
    other.goto(f"{base}/staff/")
    expect(other.get_by_role("heading", name="Sign in")).to_be_visible()
    other.close()

    # A mistyped code is refused, in words that name the field.
    secret = base64.b32decode(key.replace(" ", ""))
    right = f"{totp(secret):06d}"
    wrong = f"{(int(right) + 1) % 1_000_000:06d}"
    page.get_by_label("Code from the app").fill(wrong)
    page.get_by_role("button", name="Confirm and sign in").click()
    expect(page.locator(".usa-error-message")).to_have_text(
        "Code from the app: That code did not match. Codes change every 30 seconds; "
        "type the one your app shows now."
    )
    assert_accessible(page)
    page.wait_for_timeout(1100)  # the throttle after a wrong code: one second

    page.get_by_label("Code from the app").fill(f"{totp(secret):06d}")
    page.get_by_role("button", name="Confirm and sign in").click()
    expect(page.get_by_role("heading", name="Your backup codes")).to_be_visible()
    expect(page.get_by_test_id("backup-codes").locator("li")).to_have_count(10)
    assert_accessible(page)
    no_wider_than_the_screen(page, width)

    page.get_by_role("link", name="I have kept them: continue").click()
    expect(page.get_by_role("heading", name="Review queue")).to_be_visible()
    assert problems == []
