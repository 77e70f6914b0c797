"""The web benchmark's baseline page exists only when the server is started for a
benchmark (SILTFENCE_BENCH=1), never in a normal deployment."""

from __future__ import annotations

import importlib

import pytest
from django.urls import clear_url_caches


@pytest.mark.django_db
def test_the_trivial_page_is_not_routed_without_the_benchmark_setting(client):
    assert client.get("/bench/trivial").status_code == 404


@pytest.mark.django_db
def test_with_the_benchmark_setting_the_trivial_page_answers_small_json(client, settings):
    from siltfence.config import urls

    settings.SILTFENCE_BENCH = True
    try:
        importlib.reload(urls)
        clear_url_caches()
        response = client.get("/bench/trivial")
        assert response.status_code == 200
        assert response.json() == {"ok": True, "page": "trivial"}
        assert len(response.content) < 100
    finally:
        settings.SILTFENCE_BENCH = False
        importlib.reload(urls)
        clear_url_caches()
    assert client.get("/bench/trivial").status_code == 404
