"""schemathesis against our OpenAPI schema: generated requests, valid and not, never get a 5xx.

Requests go through the WSGI app in-process as a signed-in player with a valid CSRF pair, with the game id
pinned to a real, started game so that the views' own checks run, not only the 404 path.
"""

from collections import Counter

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings

from tests.games.factories import started_game

CSRF = "Q" * 32


@pytest.fixture
def player(courses, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game(users=[alice, bob], course=courses["bolt-bay"])

    def session() -> str:
        # A fresh session for every request: generated calls to log out, log in or sign up end the old one.
        client = Client()
        client.force_login(alice)
        return client.cookies["sessionid"].value

    return {"game": game, "session": session}


@pytest.fixture
def api_schema(db):
    document = SchemaGenerator().get_schema(request=None, public=True)
    schema = schemathesis.openapi.from_dict(document)
    schema.app = get_wsgi_application()
    # As Django's test client does: the test's transaction holds the connection, so the WSGI handler must
    # not close it at the end of each request.
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield schema
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


def test_no_server_errors(player, api_schema):
    failures, statuses = [], Counter()
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 15  # every endpoint of the schema is exercised

    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def call(case):
            if "game_id" in (case.path_parameters or {}):
                case.path_parameters["game_id"] = player["game"].pk
            response = case.call(
                headers={"X-CSRFToken": CSRF},
                cookies={"sessionid": player["session"](), "csrftoken": CSRF},
            )
            statuses[response.status_code] += 1
            if response.status_code >= 500:
                failures.append(f"{case.method} {case.formatted_path}: {response.status_code} {response.text[:300]}")

        call()
    assert not failures, "\n".join(failures[:10])
    # The requests got past authentication and CSRF: some succeeded, some were refused by the views' checks.
    assert statuses[200] + statuses[201] > 0 and statuses[400] + statuses[409] > 0, statuses
    assert statuses[403] < sum(statuses.values()) / 2, statuses
