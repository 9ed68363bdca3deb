"""On PostgreSQL the settings turn on server-side binding and prepared statements, and DATABASE_PREPARED=0 turns
them off (a pooler in transaction mode); SQLite gets neither option."""

import json
import os
import subprocess
import sys

import pytest

CODE = ("import json, django; django.setup(); from django.conf import settings as s; "
        "options = s.DATABASES['default'].get('OPTIONS', {}); "
        "print(json.dumps([options.get('server_side_binding'), options.get('prepare_threshold'), "
        "'pool' in options]))")


def options_with(**env) -> list:
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "roboracer.settings", **env}
    out = subprocess.run([sys.executable, "-c", CODE], env=environment, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(("env", "expected"), [
    ({"DATABASE_URL": "postgres://nobody@127.0.0.1:1/none"}, [True, 1, True]),
    ({"DATABASE_URL": "postgres://nobody@127.0.0.1:1/none", "DATABASE_PREPARED": "0"}, [None, None, True]),
    ({"DATABASE_URL": "sqlite:////tmp/roboracer-settings-test.sqlite3"}, [None, None, False]),
])
def test_prepared_statements_on_postgresql_unless_turned_off(env, expected):
    assert options_with(**env) == expected
