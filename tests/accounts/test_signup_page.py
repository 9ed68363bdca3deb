"""The sign-up page as a browser reads it: the password rules inside the element the field names
(aria-describedby), and, after a throttled attempt, the typed username kept (never the password)."""

import re
from html.parser import HTMLParser

import pytest
from django.core.cache import caches
from django.test import Client, override_settings

# Elements an HTML parser may not leave inside a <p> or a <span>: a <p> is closed before them (the help text's
# <ul> of password rules would land outside its <span>, which then reads as empty).
BLOCKS = {"ul", "ol", "div", "p", "table"}


class Described(HTMLParser):
    """The text of the element with a given id, and block elements found inside a <p> or a <span>."""

    def __init__(self, wanted: str):
        super().__init__()
        self.wanted, self.open, self.depth, self.text, self.misplaced = wanted, [], None, [], []

    def handle_starttag(self, tag, attrs):
        if tag in BLOCKS and any(t in ("p", "span") for t in self.open):
            self.misplaced.append(f"<{tag}> in {self.open}")
        if tag in ("input", "br", "meta", "link"):
            return
        self.open.append(tag)
        if dict(attrs).get("id") == self.wanted:
            self.depth = len(self.open)

    def handle_endtag(self, tag):
        if tag in self.open:
            while self.open.pop() != tag:
                pass
        if self.depth and len(self.open) < self.depth:
            self.depth = None

    def handle_data(self, data):
        if self.depth:
            self.text.append(data)


def test_the_password_rules_are_inside_the_element_the_field_points_at(db):
    html = Client().get("/accounts/signup/").content.decode()
    field = re.search(r'<input type="password" name="password1"[^>]*>', html).group(0)
    described = re.search(r'aria-describedby="([^"]*)"', field).group(1).split()
    assert "id_password1_helptext" in described
    parser = Described("id_password1_helptext")
    parser.feed(html[html.index("<main"):])
    assert not parser.misplaced, parser.misplaced
    assert "at least 8 characters" in "".join(parser.text)


@pytest.fixture
def throttled():
    cache = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "signup-page"}
    with override_settings(SIGNUP_RATE="1/h", CACHES={"default": cache, "throttle": cache}):
        caches["throttle"].clear()
        yield


def test_a_throttled_sign_up_keeps_the_typed_username_but_not_the_password(db, throttled):
    client = Client(REMOTE_ADDR="203.0.113.40")
    assert client.post("/accounts/signup/", {"username": "first", "password1": "x", "password2": "x"}).status_code == 200
    secret = "correct horse battery 9"
    refused = client.post("/accounts/signup/", {"username": "ada.lovelace", "password1": secret, "password2": secret})
    assert refused.status_code == 429
    html = refused.content.decode()
    assert "Too many sign-ups from this address" in html
    assert re.search(r'<input type="text" name="username" value="ada.lovelace"', html), html
    assert secret not in html
    assert 'id="signup-submit"' in html  # the form, to send again once the wait is over
