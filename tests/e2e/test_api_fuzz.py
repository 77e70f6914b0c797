"""Generated requests against the OpenAPI document: bad bodies get a 4xx, never a 500."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from siltfence.config.wsgi import application

pytestmark = pytest.mark.django_db
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", application)


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_generated_request_makes_the_api_fail(case):
    case.call_and_validate(checks=[not_a_server_error])
