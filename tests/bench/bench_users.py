"""Bench set-up: N signed-in users at once, without N password hashes.

Signing 1,600 users up over the API costs 1,600 PBKDF2 hashes (about 0.25 s of CPU each here), minutes before
the first turn of a 400-game run, and none of it is what the benchmark measures. This script makes the users
with the site's own models in one transaction: one password hash shared by all (each has its own row,
name and session), and for each a session as Django's `login()` would store it (user id, backend, session
auth hash). It prints a JSON list of [username, session key] pairs; the driver sends the key as its
`sessionid` cookie and then only talks to the site over HTTP and WebSockets.

Run by tests/bench/site.py with the stack's environment:
    python tests/bench/bench_users.py PREFIX COUNT [ROOT]
ROOT (default: this checkout) is the source tree whose models and settings are used: the benchmark can run an
older commit's stack (--against).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path


def main() -> None:
    prefix, count = sys.argv[1], int(sys.argv[2])
    root = Path(sys.argv[3]) if len(sys.argv) > 3 else Path(__file__).resolve().parents[2]
    sys.path.insert(0, str(root))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "roboracer.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.auth.hashers import make_password
    from django.db import transaction
    from django.utils.module_loading import import_string

    user_model = get_user_model()
    store = import_string(settings.SESSION_ENGINE + ".SessionStore")
    backend = next(path for path in settings.AUTHENTICATION_BACKENDS if not path.startswith("axes."))
    password = make_password("bench passphrase 1")
    names = [f"{prefix}-{index:04d}" for index in range(count)]
    pairs = []
    with transaction.atomic():
        user_model.objects.bulk_create([user_model(username=name, password=password) for name in names])
        for user in user_model.objects.filter(username__in=names).order_by("username"):
            session = store()
            session[SESSION_KEY] = user._meta.pk.value_to_string(user)
            session[BACKEND_SESSION_KEY] = backend
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()  # stores the data set above under a new key
            pairs.append([user.username, session.session_key])
    print(json.dumps(pairs))


if __name__ == "__main__":
    main()
