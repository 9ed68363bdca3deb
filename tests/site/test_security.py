"""Security headers on every page, and the production switch (SECURE=true) passing `check --deploy`."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]


def deploy_check(tmp_path, **env):
    environment = {**os.environ, "ROBORACER_VAR_DIR": str(tmp_path), "DEBUG": "false", **env}
    environment.pop("SECURE", None) if "SECURE" not in env else None
    environment.pop("ROBORACER_TEST_PASSWORD_HASHER", None)  # the suite's own hasher is no production setting
    return subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                          cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120)


def test_check_deploy_passes_with_secure_on(tmp_path):
    result = deploy_check(tmp_path, SECURE="true", SECRET_KEY=secrets.token_urlsafe(50))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_fails_without_it(tmp_path):
    """The switch is what makes the difference: without it, the HTTPS settings are missing."""
    result = deploy_check(tmp_path, SECRET_KEY=secrets.token_urlsafe(50))
    assert result.returncode != 0
    for check in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert check in result.stderr + result.stdout


@pytest.mark.parametrize("path", ["/", "/courses/", "/games/demo/", "/api/docs/", "/admin/login/",
                                  "/accounts/login/", "/no/such/page/", "/api/games/"])
def test_every_page_has_a_content_security_policy(db, path):
    response = Client().get(path)
    assert response.status_code in (200, 403, 404)
    policy = dict(part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";"))
    assert policy["script-src"] == "'self'" and policy["default-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'" and policy["object-src"] == "'none'"
    assert response["X-Content-Type-Options"] == "nosniff" and response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"


def test_plain_http_keeps_working_by_default(db, settings):
    assert not settings.SECURE and not settings.SECURE_SSL_REDIRECT and not settings.SESSION_COOKIE_SECURE
    assert Client().get("/").status_code == 200
