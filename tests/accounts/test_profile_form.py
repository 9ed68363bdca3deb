"""The profile page: colours by name with a swatch, and "your move" e-mails that need an address."""

from django.test import Client

from roboracer.accounts.models import NAMED_PALETTE, PALETTE
from roboracer.accounts.services import profile_of, update_profile


def page_of(user):
    client = Client()
    client.force_login(user)
    return client


def test_colours_are_offered_by_name_with_a_swatch(make_user):
    html = page_of(make_user("ada")).get("/profile/").content.decode()
    assert len({name for _, name in NAMED_PALETTE}) == len(PALETTE) == 8
    for colour, name in NAMED_PALETTE:
        assert f'<span class="swatch" style="background: {colour}" aria-hidden="true"></span> {name}' in html
        assert f'value="{colour}"' in html
    assert f">{PALETTE[0]}<" not in html and f"> {PALETTE[0]}" not in html  # no hex code as a label


def test_the_move_e_mail_box_is_unticked_without_an_address_and_refused_ticked_without_one(make_user):
    ada = make_user("ada")
    client = page_of(ada)
    html = client.get("/profile/").content.decode()
    box = html.split('name="e_mail_turns"')[1].split(">")[0]
    assert "checked" not in box and "needs the e-mail address above" in html
    form = {"display_name": "", "color": "#15803d", "email": "", "vacation_from": "", "vacation_until": ""}
    refused = client.post("/profile/", {**form, "e_mail_turns": "on"}).content.decode()
    assert "Give an e-mail address above for these e-mails, or untick the box." in refused
    assert profile_of(user=ada).color == ""
    assert client.post("/profile/", {**form, "email": "ada@example.com", "e_mail_turns": "on"}).status_code == 302
    assert profile_of(user=ada).e_mail_turns and profile_of(user=ada).color == "#15803d"
    assert 'checked' in client.get("/profile/").content.decode().split('name="e_mail_turns"')[1].split(">")[0]
    update_profile(user=ada, e_mail_turns=False)
    assert 'checked' not in client.get("/profile/").content.decode().split('name="e_mail_turns"')[1].split(">")[0]
