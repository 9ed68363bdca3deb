"""The tests' fast password hasher (ROBORACER_TEST_PASSWORD_HASHER, set by tests/testenv.py) is theirs alone:
without it the site hashes with PBKDF2, and a site served over HTTPS refuses to start with it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
PRINT_HASHERS = ("import django; django.setup(); from django.conf import settings; "
                 "print(settings.PASSWORD_HASHERS[0])")


def _settings_in_a_new_process(**env: str) -> subprocess.CompletedProcess:
    environment = {key: value for key, value in os.environ.items() if key != "ROBORACER_TEST_PASSWORD_HASHER"}
    environment.update(DJANGO_SETTINGS_MODULE="roboracer.settings", SECRET_KEY="x" * 50, **env)
    return subprocess.run([sys.executable, "-c", PRINT_HASHERS], cwd=ROOT, env=environment, capture_output=True,
                          text=True, timeout=60)


def test_the_suite_runs_with_the_fast_hasher():
    assert settings.PASSWORD_HASHERS == ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_the_site_hashes_with_pbkdf2_by_default():
    result = _settings_in_a_new_process()
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "django.contrib.auth.hashers.PBKDF2PasswordHasher"


def test_a_secure_site_refuses_the_test_hasher():
    result = _settings_in_a_new_process(ROBORACER_TEST_PASSWORD_HASHER="1", SECURE="true")
    assert result.returncode != 0
    assert "ROBORACER_TEST_PASSWORD_HASHER is for the test suite" in result.stderr
