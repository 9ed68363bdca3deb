"""schemathesis against our OpenAPI schema: generated requests, valid and not (both generation modes), with
any Unicode text (NUL included) in bodies, query strings and path parameters, never get a 5xx; every refusal
is our documented error, JSON {"detail": "..."}; every success conforms to the schema.

Requests go through the WSGI app in-process as a signed-in player with a valid CSRF pair, with the game id
pinned to a real, started game (and the course slug to the player's own draft) so that the views' own checks run, not only the 404 path.
"""

from collections import Counter
from importlib import import_module

import pytest
import schemathesis
from django.conf import settings as django_settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.utils.module_loading import import_string
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from roboracer.courses.services import create_course
from tests.games.factories import started_game
from tests.profiles import examples as profile_examples

CSRF = "Q" * 32


@pytest.fixture
def player(courses, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game(users=[alice, bob], course=courses["bolt-bay"])
    # A course of alice's own (private), so the course builder's writes run their checks, not only the 404 path.
    draft = create_course(user=alice, data={**courses["tiny-yard"].data, "name": "Alice's Draft"})

    store_class = import_module(django_settings.SESSION_ENGINE).SessionStore
    backend = next(path for path in django_settings.AUTHENTICATION_BACKENDS if hasattr(import_string(path), "get_user"))

    def session() -> str:
        # A fresh session for every request: generated calls to log out, log in or sign up end the old one.
        # Written as django.contrib.auth.login writes it, without the login signals (axes's bookkeeping took
        # a quarter of this test's time); the session is alice's, as the site checks it on every request.
        store = store_class()
        store[SESSION_KEY] = alice._meta.pk.value_to_string(alice)
        store[BACKEND_SESSION_KEY] = backend
        store[HASH_SESSION_KEY] = alice.get_session_auth_hash()
        store.create()
        return store.session_key

    return {"game": game, "course": draft, "session": session}


@pytest.fixture
def api_schema(db):
    document = SchemaGenerator().get_schema(request=None, public=True)
    schema = schemathesis.openapi.from_dict(document)
    # Strings from the whole of Unicode (the "utf-8" codec: any code point but surrogates), "\x00" included;
    # these are schemathesis's defaults, spelled out because they are what this test is about.
    schema.config.generation.update(allow_x00=True, codec="utf-8")
    schema.app = get_wsgi_application()
    # As Django's test client does: the test's transaction holds the connection, so the WSGI handler must
    # not close it at the end of each request.
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield schema
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


def _non_ascii(value) -> bool:
    if isinstance(value, str):
        return not value.isascii()
    if isinstance(value, dict):
        return any(_non_ascii(k) or _non_ascii(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_non_ascii(v) for v in value)
    return False


def test_no_server_errors(player, api_schema, caplog):
    failures, statuses, modes, unicode_sent = [], Counter(), Counter(), Counter()
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 15  # every endpoint of the schema is exercised

    def run(operation, mode: GenerationMode, examples: int) -> None:
        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def call(case):
            if "game_id" in (case.path_parameters or {}):
                case.path_parameters["game_id"] = player["game"].pk
            if "slug" in (case.path_parameters or {}):
                case.path_parameters["slug"] = player["course"].slug
            sent = [case.body, case.query, case.path_parameters]
            if any(_non_ascii(part) for part in sent):
                unicode_sent[mode] += 1
            response = case.call(
                headers={"X-CSRFToken": CSRF},
                cookies={"sessionid": player["session"](), "csrftoken": CSRF},
            )
            statuses[response.status_code] += 1
            modes[mode] += 1
            where = f"{case.method} {case.formatted_path} {case.query or ''} {str(case.body)[:100]!r}"
            if response.status_code >= 500:
                failures.append(f"{where}: {response.status_code} {response.text[:300]}")
            elif response.status_code >= 400 and response.status_code != 404:
                # Our error format (docs/api.md). A 404 may be Django's page for a path that names no route.
                try:
                    body = response.json()
                except ValueError:
                    body = None
                if not (isinstance(body, dict) and isinstance(body.get("detail"), str) and body["detail"]):
                    failures.append(f"{where}: {response.status_code} without a detail: {response.text[:200]}")
            elif response.status_code < 300:
                try:
                    case.validate_response(
                        response,
                        checks=[status_code_conformance, content_type_conformance, response_schema_conformance],
                    )
                except* AssertionError as group:  # schemathesis's FailureGroup: one Failure per check
                    for error in group.exceptions:
                        failures.append(f"{where}: {response.status_code} does not conform: {str(error)[:300]}")

        try:
            call()
        except Unsatisfiable:
            # Nothing to make invalid (no parameters and no body), or only what security parameters carry.
            assert mode == GenerationMode.NEGATIVE, operation.label

    for operation in operations:
        # Per operation: 16 valid and 10 invalid requests under the `ci` profile, 10 and 10 under `dev`.
        for mode, examples in ((GenerationMode.POSITIVE, profile_examples(16)), (GenerationMode.NEGATIVE, profile_examples(10))):
            run(operation, mode, examples)
    assert not failures, "\n".join(failures[:10])
    # The requests got past authentication and CSRF: some succeeded, some were refused by the views' checks.
    assert statuses[200] + statuses[201] > 0 and statuses[400] + statuses[409] > 0, statuses
    assert statuses[403] < sum(statuses.values()) / 2, statuses
    # Both modes ran, and non-ASCII text went out in each.
    assert modes[GenerationMode.POSITIVE] > 0 and modes[GenerationMode.NEGATIVE] > 0, modes
    assert unicode_sent[GenerationMode.POSITIVE] > 10 and unicode_sent[GenerationMode.NEGATIVE] > 10, unicode_sent
    # And no traceback reached the log.
    errors = [r for r in caplog.records if r.levelno >= 40 or r.exc_info]
    assert not errors, [f"{r.name}: {r.getMessage()[:200]}" for r in errors[:5]]
