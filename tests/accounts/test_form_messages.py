"""The sign-up and log-in forms' errors: what is wrong in a player's words, styled and announced as errors,
and a warning before too many failed log-ins lock the form (django-axes)."""

import re

import pytest
from django.conf import settings
from django.test import Client

LIMIT = settings.AXES_FAILURE_LIMIT


def signup(username, password="a much longer password 7"):
    return Client().post("/accounts/signup/", {"username": username, "password1": password, "password2": password})


def username_error(page) -> str:
    html = page.content.decode()
    found = re.search(r'<ul class="errorlist" id="id_username_error"><li>(.*?)</li>', html)
    assert found and 'aria-describedby="id_username_helptext id_username_error"' in html, html
    return found.group(1)


@pytest.mark.parametrize(("name", "says"), [
    ("Ben<x", "&#x27;&lt;&#x27; is not allowed; use letters a-z, digits, &#x27;_&#x27;, &#x27;-&#x27; and &#x27;.&#x27;."),
    ("ben smith", "A space is not allowed;"),
    ("b", "Too short: use at least 2 characters."),
    ("_ben", "Begin and end with a letter or a digit"),
])
def test_a_refused_username_says_what_is_wrong(db, name, says):
    assert username_error(signup(name)).startswith(says)


def test_a_lookalike_letter_is_named_so_the_player_sees_which_one_is_refused(db):
    # "аlice" with a Cyrillic а (U+0430): quoting the letter alone would read "'a' is not allowed"
    assert username_error(signup("\u0430lice")) == (
        "&#x27;\u0430&#x27; (CYRILLIC SMALL LETTER A, U+0430, which looks like &#x27;a&#x27;) is not allowed; use "
        "letters a-z, digits, &#x27;_&#x27;, &#x27;-&#x27; and &#x27;.&#x27;.")


@pytest.mark.parametrize(("name", "says"), [
    ("\u0430lice", "'\u0430' (CYRILLIC SMALL LETTER A, U+0430, which looks like 'a') is not allowed"),
    ("caf\u00e9", "'\u00e9' (LATIN SMALL LETTER E WITH ACUTE, U+00E9) is not allowed"),
    ("a\u200bb", "an invisible character (ZERO WIDTH SPACE, U+200B) is not allowed"),
    ("a\u0301b", "a combining mark (COMBINING ACUTE ACCENT, U+0301) is not allowed"),
    ("a\U000e0001b", "an invisible character (LANGUAGE TAG, U+E0001) is not allowed"),
    ("a\ue000b", "an invisible character (U+E000) is not allowed"),
    ("Ben<x", "'<' is not allowed"),
    ("\u0440\u043e\u0440", "'\u0440' (CYRILLIC SMALL LETTER ER, U+0440, which looks like 'p') and '\u043e' (CYRILLIC "
                        "SMALL LETTER O, U+043E, which looks like 'o') are not allowed"),
])
def test_a_refused_character_outside_ascii_is_named_with_its_code_point(name, says):
    from roboracer.accounts.names import username_problem

    assert username_problem(name).startswith(says)


def test_a_taken_username_says_that_case_does_not_matter(make_user):
    make_user("Ada")
    assert username_error(signup("ada")) == "That name is taken (names are the same ignoring upper and lower case)."


def login(username, password="wrong", address="10.0.9.1"):
    return Client(REMOTE_ADDR=address).post("/accounts/login/", {"username": username, "password": password})


def test_a_failed_log_in_says_usernames_ignore_case_and_warns_before_the_lock(make_user):
    make_user("carol")
    pages = [login("Carol").content.decode() for _ in range(LIMIT - 1)]
    for page in pages:
        assert '<ul class="errorlist nonfield" role="alert"><li>Wrong username or password. Check your password: ' \
               "usernames are not case-sensitive, passwords are." in page
        assert "may be case-sensitive" not in page
    warnings = [re.search(r"(\d) more failed (?:try locks|tries lock) log-ins for 15 minutes\.", p) for p in pages]
    assert [int(w.group(1)) if w else None for w in warnings] == [None] * (LIMIT - 3) + [2, 1]
    assert login("carol").status_code == 429
