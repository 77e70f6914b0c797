"""``/health`` for a load balancer: 200 when the database answers and the uploads' disk has
room, 503 otherwise; no login; the three checks and nothing more; at most two queries."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import OperationalError, connection

pytestmark = pytest.mark.django_db


def test_a_healthy_server_answers_200_with_its_three_checks_and_nothing_else(client):
    response = client.get("/health")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "worker": "unknown",
        "disk": "ok",
    }
    assert "no-store" in response["Cache-Control"]


def test_the_health_check_needs_no_login_and_costs_at_most_two_queries(
    client, django_assert_max_num_queries
):
    with django_assert_max_num_queries(2):
        response = client.get("/health")
    assert response.status_code == 200
    assert "sessionid" not in response.cookies


def test_a_database_that_does_not_answer_makes_it_503(client):
    with mock.patch.object(connection, "cursor", side_effect=OperationalError("gone")):
        response = client.get("/health")
    assert response.status_code == 503
    assert response.json()["status"] == "unhealthy"
    assert response.json()["database"] == "unreachable"
    assert "gone" not in response.content.decode()


def test_too_little_free_space_for_uploads_makes_it_503(client, settings):
    settings.SILTFENCE_HEALTH_MIN_FREE_MB = 10**12  # more than any disk holds
    response = client.get("/health")
    assert response.status_code == 503
    assert response.json() == {
        "status": "unhealthy",
        "database": "ok",
        "worker": "unknown",
        "disk": "low",
    }


def test_a_load_balancer_asking_over_plain_http_is_not_redirected_to_https(client, settings):
    settings.SECURE_SSL_REDIRECT = True  # as in production
    assert client.get("/health").status_code == 200
    assert client.get("/").status_code == 301  # every other page still goes to https


def test_only_reading_methods_are_allowed(client):
    assert client.post("/health").status_code == 405
    assert client.head("/health").status_code == 200
