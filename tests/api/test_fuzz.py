"""Schemathesis against our own OpenAPI spec, in-process: no input gives a 500 or a bad shape.

Valid and invalid data for every service endpoint (score, tenpai, recognize, photo/score,
info, healthz); ``SANMA_FUZZ_EXAMPLES`` (default 40 per operation) for a longer hunt.
Errors must be documented 4xx answers in the one error shape; 503 (no model) is a
documented answer of the photo endpoints.
"""

from __future__ import annotations

import os

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from sanma_lens.api.app import create_app
from sanma_lens.api.settings import Settings

pytestmark = pytest.mark.slow

# the rate limit off: thousands of generated calls from one address would meet it
APP = create_app(Settings(rate_limit_per_minute=0))
schema = schemathesis.openapi.from_asgi("/openapi.json", APP).include(
    path_regex=r"^/(healthz|v1/(score|tenpai|recognize|photo/score|info))$"
)

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@schema.parametrize()
@settings(
    max_examples=int(os.environ.get("SANMA_FUZZ_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_no_input_breaks_the_service(case):
    response = case.call()
    case.validate_response(response, checks=CHECKS)
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"error"}, body
        assert set(body["error"]) == {"code", "message"}, body
