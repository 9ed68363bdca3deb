"""The BOT badge wherever a bot account's name appears (issue 41, docs/bot-api.md "Bot accounts"): one template
tag for the pages (bot_badges.bot_badge), the `bot_account` flags the game screen's TypeScript draws it from."""

import pytest
from django.template import Context, Template
from django.test import Client
from rest_framework.test import APIClient

from games.models import GameEvent
from games.selectors import snapshots
from roboracer.accounts.templatetags.bot_badges import TITLE
from roboracer.pyramid import selectors as pyramid_selectors
from roboracer.pyramid import services as pyramid_services
from roboracer.tournaments.services import rounds
from tests.bots.helpers import bearer, make_bot
from tests.games.factories import started_game
from tests.pyramid.factories import place, pyramid
from tests.tournaments.factories import (
    current_tables,
    finish_table,
    open_tournament,
    organiser,
    started,
    users_at,
)

pytestmark = pytest.mark.django_db(transaction=True)

BADGE = f' <span class="badge bot-badge" title="{TITLE}">BOT</span>'


def badge_after(html: str, name: str) -> bool:
    """The page shows `name` followed at once by the badge."""
    return f"{name}{BADGE}" in html or f"{name}</a>{BADGE}" in html


def test_the_template_tag_is_the_badge_for_a_true_flag_only():
    template = Template("{% load bot_badges %}robo{% bot_badge flag %}|")
    assert template.render(Context({"flag": True})) == f"robo{BADGE}|"
    for flag in (False, None, "", 0):
        assert template.render(Context({"flag": flag})) == "robo|"
    assert template.render(Context({})) == "robo|"


def test_chat_lines_say_which_are_a_bot_accounts(make_user, courses):
    """The API's and the snapshot's chat lines, and the `chat` event the sockets and streams carry, say
    `bot_account` (the game screen's chat draws the badge from it: frontend/tests/botaccounts.test.ts)."""
    robo, token = make_bot(make_user, "robo")
    ann = make_user("ann")
    game = started_game(users=[robo, ann], course=courses["tiny-yard"])
    said = bearer(token).post(f"/api/games/{game.pk}/chat/", {"text": "good luck"}, format="json")
    assert said.status_code == 201 and said.json()["message"]["bot_account"] is True
    ann_api = APIClient()
    ann_api.force_login(ann)
    assert ann_api.post(f"/api/games/{game.pk}/chat/", {"text": "thanks"}, format="json").status_code == 201
    lines = ann_api.get(f"/api/games/{game.pk}/chat/").json()["messages"]
    assert [(line["user"], line["bot_account"]) for line in lines] == [("robo", True), ("ann", False)]
    snapshot = snapshots.game_snapshot(game=game, user=ann)
    assert [(line["user"], line["bot_account"]) for line in snapshot["chat"]] == [("robo", True), ("ann", False)]
    events = GameEvent.objects.filter(game=game, kind="chat").order_by("version")
    assert [event.data["bot_account"] for event in events] == [True, False]


def section(page: str, start: str, end: str) -> str:
    assert start in page, start
    return page.split(start, 1)[1].split(end, 1)[0]


def test_a_tournaments_tables_standings_bracket_podium_and_winner_badge_a_bot(make_user, courses):
    olga = organiser(make_user)
    robo, _ = make_bot(make_user, "robo")
    ann, ben, cat = (make_user(name) for name in ("ann", "ben", "cat"))
    tournament = started(open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=2,
                                         allow_bots=True), [robo, ann, ben, cat])
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    tables = section(page, 'id="rounds-heading"', "</section>")
    assert tables.count(f"robo{BADGE}") == 1 and f"ann{BADGE}" not in tables
    assert f"<td>robo{BADGE}</td>" in section(page, 'id="standings"', "</table>")
    reader = APIClient()
    reader.force_login(ann)
    standings = reader.get(f"/api/tournaments/{tournament.pk}/standings/?format=json").json()["standings"]
    assert {row["player"]: row["bot"] for row in standings} == {"robo": True, "ann": False, "ben": False, "cat": False}
    while tournament.status != "finished":  # robo wins every table it sits at
        for table in current_tables(tournament):
            if not table.finished:
                seated = users_at(table)
                finish_table(table, sorted(seated, key=lambda user: user != robo))
        rounds.advance(tournament_id=tournament.pk)
        tournament.refresh_from_db()
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f"<strong>robo</strong>{BADGE}" in section(page, 'id="tournament-podium"', "</ol>")
    assert f"Winner: <strong>robo</strong>{BADGE}" in section(page, 'id="tournament-winner"', "</p>")
    bracket = section(page, 'id="bracket"', "</section>")
    assert bracket.count(f"robo{BADGE}") == 2 and f"ann{BADGE}" not in bracket  # round 1 and the final
    assert f"ann{BADGE}" not in page and f"ben{BADGE}" not in page


def test_the_pyramids_cards_challenges_and_confirm_page_badge_a_bot(make_user, courses):
    pyr = pyramid(courses=courses)
    robo, _ = make_bot(make_user, "robo")
    ann, ben, cat = (make_user(name) for name in ("ann", "ben", "cat"))
    place(pyr, robo, 1, 1), place(pyr, ann, 2, 1), place(pyr, ben, 2, 2), place(pyr, cat, 3, 1)
    page = Client()
    page.force_login(ben)
    confirm = page.get(f"/pyramid/{pyr.slug}/challenge/confirm/?player=robo")
    assert confirm.status_code == 200 and f"<h1>Challenge robo{BADGE}?</h1>" in confirm.content.decode()
    pyramid_services.create_challenge(user=ann, slug=pyr.slug, player="robo")  # ann challenges the bot
    state = pyramid_selectors.pyramid_state(pyramid=pyr, user=ben)
    assert [(c["challenger_bot"], c["defender_bot"]) for c in state["challenges"]] == [(False, True)]
    assert [(p["name"], p["bot"]) for p in state["rows"][0]] == [("robo", True)]
    page.force_login(ann)
    html = page.get(f"/pyramid/{pyr.slug}/").content.decode()
    assert f'<span class="pyramid-name">robo{BADGE}</span>' in html
    assert f"Your challenge of <strong>robo</strong>{BADGE}" in section(html, 'id="my-challenge"', "</div>")
    assert f"ann vs robo{BADGE}</a>" in section(html, 'id="open-challenges"', "</ul>")
    assert "defending vs ann</a>" in html and f"ann{BADGE}" not in html and f"ann (you){BADGE}" not in html
    assert f">challenging robo{BADGE}</a>" in html  # the tag on ann's card
