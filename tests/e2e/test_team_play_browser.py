"""Team play in the browser (issue 37, item 13), on a phone and a desktop: the creator's "Balance the teams by
rating" is one line, the chat input keeps its width beside the "To everyone" box, that box is unticked after a
line is sent, and a finished team game's status line names the winning team, as its results do.
Screenshots: var/test-artifacts/team-*.png."""

import pytest

from games.models import Game
from games.selectors import snapshots
from games.services import lobby, team_play
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_computer_players_browser import log_in
from tests.e2e.test_play_three_turns import sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}


def test_team_play_controls_on_a_phone_and_a_desktop(live_stack, courses, new_page, make_user):
    base = live_stack.base_url
    desk, desk_console = new_page("alice", DESKTOP)
    phone, phone_console = new_page("alice's phone", PHONE)
    sign_up(desk, base, "alice")
    log_in(phone, base, "alice")
    from django.contrib.auth import get_user_model

    alice = get_user_model().objects.get(username="alice")
    others = [make_user(name) for name in ("bob", "carol", "dave")]
    game = lobby.create_game(user=alice, course=courses["twin-lanes"], max_seats=4, teams=True)
    for user in others:
        lobby.join_game(user=user, game_id=game.pk)
    for user, team in zip([alice, *others], ["blue", "blue", "orange", "orange"], strict=True):
        team_play.choose_team(user=user, game_id=game.pk, team=team)
    url = f"{base}/games/{game.pk}/"
    for page, name in ((desk, "desktop"), (phone, "phone")):
        page.goto(url)
        page.wait_for_selector("#balance-teams")
        # One line: as tall as a one-line button, its words not wrapped.
        height, line = page.eval_on_selector(
            "#balance-teams", "b => [b.getBoundingClientRect().height, parseFloat(getComputedStyle(b).lineHeight) || 20]")
        assert height < 2 * line + 16, (name, height, line)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"team-lobby-{name}.png"))
    lobby.start_game(user=alice, game_id=game.pk)
    for page, name in ((desk, "desktop"), (phone, "phone")):
        page.goto(url)
        page.wait_for_selector("#chat-to-all")
        # The input keeps most of its row (it was squeezed to "Say someth" beside the box).
        width, row = page.eval_on_selector("#chat-input", "i => [i.getBoundingClientRect().width,"
                                           " i.closest('.chat-row').getBoundingClientRect().width]")
        assert width >= 0.6 * row, (name, width, row)
        page.check("#chat-to-all")
        page.fill("#chat-input", f"good luck from the {name}")
        page.click("#chat-send")
        page.wait_for_selector(f".chat-msg:has-text('good luck from the {name}')")
        # unticked once the send is answered (the line itself may come over the socket first)
        page.wait_for_function("() => !document.querySelector('#chat-to-all').checked")
        assert page.get_attribute("#chat-input", "placeholder") == "Say something to your team…", name
        page.screenshot(path=str(ARTIFACTS / f"team-chat-{name}.png"))
    # Both lines went to everyone: dave, on the other team, reads them.
    game.refresh_from_db()
    lines = [line["text"] for line in snapshots.game_snapshot(game=game, user=others[2])["chat"]]
    assert {"good luck from the desktop", "good luck from the phone"} <= set(lines), lines
    # A finished team game: the status line names the team, as the results do.
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    state = dict(game.state)
    state["winning_team"] = "blue"
    Game.objects.filter(pk=game.pk).update(state=state, winner=game.seats.get(user=alice))
    for page in (desk, phone):
        page.goto(url)
        page.wait_for_selector("#game-status:has-text('Finished')")
        assert page.inner_text("#game-status") == "Finished — the Blue team wins"
    assert not desk_console.errors and not phone_console.errors, desk_console.errors + phone_console.errors
