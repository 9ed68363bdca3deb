"""A bot written with the Bot API's client (clients/python/roboracer_bot, issue 41) plays a whole game on Tiny Yard
against a person in Chromium, on the live stack (uvicorn, a Celery worker, Redis), to the results screen.

ann challenges the bot account robo from the lobby's Challenges card; the bot, running `roboracer_bot.run` with
the lookahead strategy in a thread, reads the challenge on its event stream and accepts; ann opens the game from
her notice. Each turn the bot sends its program through the API when its game stream gives it the turn's
snapshot, ann sends hers on the game screen, and the worker plays the turn. The client's turn limit (2, for the
CI budget) makes it resign at turn 3: ann wins, and both see it end: her results screen lists robo with its BOT
badge, and the client returns."""

import threading

import pytest
from roboracer_bot import Client, run
from roboracer_bot.strategies import strategy

from games.models import DirectChallenge, Game, Program
from tests.bots.helpers import make_bot
from tests.e2e.test_play_three_turns import DESKTOP, sign_up, wait_for_turn
from tests.e2e.test_site_features import submit_first_chips
from tests.helpers import wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
TURN_LIMIT = 2


def test_a_client_bot_plays_a_person_in_the_browser_to_the_results_screen(live_stack, courses, new_page, make_user):
    base = live_stack.base_url
    robo, token = make_bot(make_user, "robo")
    outcome = {}
    bot = threading.Thread(target=lambda: outcome.setdefault(
        "last", run(Client(base, token, timeout=30), strategy("lookahead"), games=1, max_turns=TURN_LIMIT)), daemon=True)
    bot.start()

    ann, console = new_page("ann", DESKTOP)
    sign_up(ann, base, "ann")
    ann.click("#challenge-new summary")
    ann.fill("#id_challenge-player", "robo")
    ann.select_option("#id_challenge-course", "tiny-yard")
    ann.click("#challenge-submit")
    ann.wait_for_selector("#challenges-outgoing li:has-text('You challenged robo')")
    challenge = DirectChallenge.objects.get(challenger__username="ann")
    wait_until(lambda: DirectChallenge.objects.get(pk=challenge.pk).game_id, "the bot accepts on its event stream",
               output=live_stack.logs)
    ann.goto(f"{base}/notices/")
    ann.click("#notice-list a:has-text('robo accepted your challenge')")
    game = DirectChallenge.objects.get(pk=challenge.pk).game
    ann.wait_for_url(f"{base}/games/{game.pk}/")
    ann.wait_for_selector("#game-status:has-text('Turn 1 — programming')")
    ann.wait_for_selector(".seat-name:has-text('robo') .bot-badge")

    for turn in range(1, TURN_LIMIT + 1):
        wait_until(lambda turn=turn: Program.objects.filter(seat__game=game, seat__user=robo, turn=turn).exists(),
                   f"the bot's program for turn {turn}", output=live_stack.logs)
        ann.wait_for_selector(f"#game-status:has-text('Turn {turn} — programming')")
        submit_first_chips(ann, game, "ann", turn, last=True)
        wait_for_turn(game, turn)

    ann.wait_for_selector("#results", state="visible", timeout=40_000)
    assert "You win" in ann.inner_text("#results .rr-results-summary")
    assert ann.locator("#results tbody tr:has-text('robo') .bot-badge").count() == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.turn == TURN_LIMIT + 1 and game.winner.user.username == "ann"
    bot.join(timeout=60)
    assert not bot.is_alive() and outcome["last"] >= 3  # challenge, game_start, challenge_accepted, game_finish
    assert console.errors == []
