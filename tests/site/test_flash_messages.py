"""Flash messages (django.contrib.messages) look like what they are: a success or a note is a green or blue
box announced politely (role="status"), an error a red box announced at once (role="alert")."""

import re
from pathlib import Path

from django.test import Client

CSS = (Path(__file__).resolve().parents[2] / "static" / "site.css").read_text()
FORM = {"display_name": "", "color": "", "email": "", "vacation_from": "", "vacation_until": ""}


def test_a_success_message_is_a_box_announced_as_a_status(make_user):
    client = Client()
    client.force_login(make_user("ada"))
    html = client.post("/profile/", FORM, follow=True).content.decode()
    assert re.search(r'<li class="message success"><div role="status">Profile saved\.</div></li>', html), html
    for level in ("success", "info", "warning", "error"):
        rule = re.search(r"\.messages \." + level + r" \{([^}]*)\}", CSS)
        assert rule and "background" in rule.group(1), level
    assert re.search(r"\.messages li \{[^}]*padding[^}]*border-radius", CSS)  # every level is a box


def test_an_error_message_is_announced_as_an_alert(make_user):
    from django.contrib.messages import constants
    from django.contrib.messages.storage.base import Message
    from django.template.loader import render_to_string
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    request.user = make_user("bob")
    html = render_to_string("base.html", {"messages": [Message(constants.ERROR, "That went wrong."),
                                                       Message(constants.INFO, "A note.")]}, request=request)
    assert '<li class="message error"><div role="alert">That went wrong.</div></li>' in html
    assert '<li class="message info"><div role="status">A note.</div></li>' in html
