"""Computer players in the browser on the real stack (issue 20): uvicorn, the Celery worker that resolves turns and
the worker of the `computers` queue that plays the computers' moves, Redis and Chromium.

1. carol signs up and presses "Play against the computer" with two Normal opponents on Tiny Yard: the game starts
   at once, both computers are marked "Computer · Normal", and she plays the whole race to the results screen by
   clicking chips and submitting. The computers submit on their own every turn (their seats show "ready" before
   she submits), so each turn resolves as soon as her program is in, never by a timeout.
2. dana creates a three-seat game in the lobby form and, on its page, adds an Easy computer player, removes it,
   then adds a Hard and a Normal one: the game starts when it is full; her phone shows the same seats live.
3. erin's time runs out in a game against a Hard computer whose timeout policy is "computer": her seat goes on
   autopilot (the banner, the seat's note, the chat line), the computers play on, and when she sends a program
   again it is hers once more.

Screenshots (var/test-artifacts/computers-*.png): the lobby and the games on a desktop (1280x800) and a phone
(390x844)."""

import pytest

import engine
from games.models import Game, GameEvent, Hand, Program, Seat, Turn
from games.services import lobby
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_play_three_turns import PASSWORD, create_game, frozen_registers, registers, sign_up
from tests.e2e.test_program_socket import expect_program
from tests.helpers import wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
MAX_TURNS = 80  # a Tiny Yard race with three robots takes far fewer
QUICK = 20  # seconds: a turn that waited for a timeout would take the whole move time (2 minutes)


def log_in(page, base, username):
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("#login-submit")
    page.wait_for_url(f"{base}/")


def shoot(page, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"computers-{name}.png"))
    page.screenshot(path=str(ARTIFACTS / f"computers-{name}-full.png"), full_page=True)


def no_sideways_scroll(page):
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
        .map(e => `${e.tagName}#${e.id}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`).slice(0, 8)""")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= page.viewport_size["width"], wide


def inside(page, selector, box):
    """`selector`'s element lies within the element `box` (nothing sticks out of the panel's card)."""
    right, limit = page.evaluate(
        "([s, b]) => [document.querySelector(s).getBoundingClientRect().right,"
        " document.querySelector(b).getBoundingClientRect().right]", [selector, box])
    assert right <= limit + 0.5, f"{selector} ends at {right}, {box} at {limit}"


def game_of(page):
    return Game.objects.get(pk=int(page.url.split("?")[0].rstrip("/").rsplit("/", 1)[1]))


def seat_badges(page):
    """{seat number: badge text} of the robot list's computer seats."""
    return dict(page.eval_on_selector_all(
        "li.rr-seat.computer", "els => els.map(e => [+e.dataset.seat, e.querySelector('.seat-computer').textContent])"))


def chosen_program(game, seat, hand):
    """A good program for a person's seat, chosen as a Normal computer player would (engine.players), so that
    the race ends in reasonable time; the caller clicks it chip by chip."""
    state = engine.state_from_dict(game.state, engine.parse_course(game.course_data))
    decision = engine.players.choose(state, seat.bot_id, hand, strength="normal",
                                     seed=engine.derive_seed(game.seed, game.turn, "e2e-person"))
    return list(decision.program)


def click_program(page, hand, program):
    """Click the hand's chips for the program's free registers, in order (frozen registers keep their chip)."""
    frozen = frozen_registers(page)
    used = set()
    for register, chip in enumerate(program):
        if register in frozen:
            continue
        index = next(i for i, c in enumerate(hand) if c == chip and i not in used)
        used.add(index)
        page.click(f"button.chip[data-index='{index}']")
    assert registers(page) == program


def settle(stack, game, timeout=QUICK):
    """Wait until no computer has anything left to do in `game` (finished, or every computer-played seat has its
    program for the turn a person must play), then until the stack's workers have finished every task they had
    (the computers' moves, then what those queued): the test database is flushed after the test, and a
    computer's worker still writing then would deadlock with the flush."""

    def settled() -> bool:
        game.refresh_from_db()
        if game.status in (Game.Status.FINISHED, Game.Status.CANCELLED):
            return True
        pending = [seat for seat in Seat.objects.filter(game=game, ejected_at__isnull=True)
                   if (seat.computer or seat.autopilot) and Hand.objects.filter(seat=seat, turn=game.turn).exists()
                   and not Program.objects.filter(seat=seat, turn=game.turn).exists()]
        return game.status == Game.Status.PROGRAMMING and not pending

    wait_until(settled, "the computers to settle", timeout=timeout, interval=0.2)
    stack.caught_up("computers")
    stack.caught_up("celery")


def wait_for_turn(game, number, timeout=QUICK):
    wait_until(lambda: Turn.objects.filter(game=game, number=number).exists(),
               f"turn {number} to be resolved", timeout=timeout)
    return Turn.objects.get(game=game, number=number)


def test_play_against_the_computer_to_the_results(live_stack, courses, new_page):
    base = live_stack.base_url
    carol, carol_console = new_page("carol", DESKTOP)
    phone, phone_console = new_page("carol's phone", PHONE)

    # Signed out, the shortcut asks to sign in.
    carol.goto(f"{base}/")
    assert "Sign up" in carol.inner_text("#practice") and carol.locator("#practice-submit").count() == 0

    sign_up(carol, base, "carol")
    log_in(phone, base, "carol")
    # The shortcut sits at the top of the lobby, with defaults that need no touching: Tiny Yard, 1 Normal opponent.
    carol.wait_for_selector("#practice-submit")
    assert carol.eval_on_selector("#practice-submit", "b => b.getBoundingClientRect().bottom") < DESKTOP["height"]
    assert carol.eval_on_selector("#practice_course", "s => s.selectedOptions[0].textContent") == "Tiny Yard"
    assert carol.input_value("#practice_opponents") == "1" and carol.input_value("#practice_strength") == "normal"
    # Tiny Yard takes four players: three opponents at most.
    assert carol.eval_on_selector_all("#practice_opponents option:not([disabled])", "os => os.map(o => o.value)") == ["1", "2", "3"]
    shoot(carol, "lobby-desktop")
    phone.wait_for_selector("#practice-submit")
    assert phone.eval_on_selector("#practice-submit", "b => b.getBoundingClientRect().bottom") < PHONE["height"]
    no_sideways_scroll(phone)
    shoot(phone, "lobby-phone")

    carol.select_option("#practice_opponents", "2")
    carol.click("#practice-submit")  # one click: the game is made and started
    carol.wait_for_url(f"{base}/games/*/")
    game = game_of(carol)
    assert game.status == Game.Status.PROGRAMMING and game.turn == 1 and game.max_seats == 3 and not game.rated
    assert game.course.slug == "tiny-yard"
    seats = {seat.number: seat for seat in game.seats.select_related("user")}
    assert seats[1].user.username == "carol" and not seats[1].computer
    assert {seats[2].computer, seats[3].computer} == {"normal"}
    carol.goto(f"{carol.url}?speed=0")
    phone.goto(f"{carol.url.split('?')[0]}?speed=0")
    for page in (carol, phone):
        page.wait_for_selector("#game-status:has-text('Turn 1 — programming')")
        assert seat_badges(page) == {2: "Computer · Normal", 3: "Computer · Normal"}
        assert page.locator("li.rr-seat[data-seat='1'] .seat-computer").count() == 0
        # A computer has no player page: its name is not a link.
        assert page.locator("li.rr-seat.computer a").count() == 0
        assert page.is_hidden("#autopilot-banner")

    turn = 1
    while True:
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        assert turn <= MAX_TURNS, "the race went on too long"
        carol.wait_for_selector(f"#game-status:has-text('Turn {turn} — programming')")
        carol.wait_for_selector("#game-root[data-animating='0']")
        hands = {h.seat.number: h.chips for h in Hand.objects.filter(seat__game=game, turn=turn).select_related("seat")}
        # The computers send their programs on their own (the `computers` worker): their seats show "ready"
        # on carol's screen while she is still thinking.
        for number in (2, 3):
            if number in hands:
                carol.wait_for_selector(f"li.rr-seat[data-seat='{number}'] .seat-ready.is-ready", timeout=QUICK * 1000)
        if 1 in hands:
            hand = hands[1]
            carol.wait_for_function("n => document.querySelectorAll('button.chip').length === n", arg=len(hand))
            click_program(carol, hand, chosen_program(game, seats[1], hand))
            if turn == 1:
                shoot(carol, "game-desktop")
                phone.wait_for_selector("#game-status:has-text('Turn 1 — programming')")
                no_sideways_scroll(phone)
                shoot(phone, "game-phone")
            with expect_program(carol) as answer:
                carol.click("#submit-program")
            assert answer.value.status == 200, answer.value.text()
        # Every program is in: the turn runs at once (the move time is 2 minutes, the limit here 20 s).
        wait_for_turn(game, turn)
        turn += 1

    assert not GameEvent.objects.filter(game=game, kind__in=["timer_expired", "seat_autopilot"]).exists()
    for page in (carol, phone):
        page.wait_for_selector("#results:not([hidden])", timeout=30_000)
        places = page.eval_on_selector_all("#results tr[data-place]", "rows => rows.map(r => +r.dataset.place)")
        assert len(places) == 3 and sorted(places)[0] == 1 and all(p >= 1 for p in places)
        computers = page.eval_on_selector_all(
            "#results tr.computer", "rows => rows.map(r => r.querySelector('.seat-computer').textContent)")
        assert computers == ["Computer · Normal", "Computer · Normal"]
        assert "after" in page.inner_text(".rr-results-summary")
        inside(page, "#results table", "#results")
    game.refresh_from_db()
    assert game.state["winner"] is not None
    carol.evaluate("() => window.scrollTo(0, 0)")
    shoot(carol, "results-desktop")
    phone.evaluate("() => document.getElementById('results').scrollIntoView()")
    shoot(phone, "results-phone")
    no_sideways_scroll(phone)
    assert not carol_console.errors and not phone_console.errors, carol_console.errors + phone_console.errors


def test_the_creator_adds_and_removes_computer_players(live_stack, courses, new_page):
    base = live_stack.base_url
    dana, dana_console = new_page("dana", DESKTOP)
    phone, phone_console = new_page("dana's phone", PHONE)
    sign_up(dana, base, "dana")
    log_in(phone, base, "dana")

    dana.select_option("#id_course", label="Tiny Yard")
    dana.fill("#id_max_seats", "3")
    game_url, game = create_game(dana, base)
    phone.goto(game_url)
    for page in (dana, phone):
        page.wait_for_selector("#game-status:has-text('Lobby')")
        # Seats 2 and 3 are open, each with a strength choice (Normal first chosen) and "Add computer player".
        page.wait_for_selector("li.rr-open-seat[data-open-seat='3'] .rr-add-computer")
        assert page.eval_on_selector_all("li.rr-open-seat", "els => els.map(e => +e.dataset.openSeat)") == [2, 3]
        assert page.eval_on_selector_all("#computer-strength-2 option", "os => os.map(o => o.textContent)") == ["Easy", "Normal", "Hard"]
        assert page.input_value("#computer-strength-2") == "normal"
    shoot(dana, "game-lobby-desktop")
    no_sideways_scroll(phone)
    shoot(phone, "game-lobby-phone")

    def add(strength, seat):
        dana.select_option(f"#computer-strength-{seat}", strength)
        with dana.expect_response(lambda r: r.url.endswith("/computers/") and r.request.method == "POST") as answer:
            dana.click(f".rr-add-computer[data-seat='{seat}']")
        assert answer.value.status == 201, answer.value.text()
        assert answer.value.json()["seat"] == seat and answer.value.json()["computer"] == strength

    add("easy", 2)
    for page in (dana, phone):  # the phone follows live
        page.wait_for_selector("li.rr-seat.computer[data-seat='2'][data-computer='easy']")
        assert seat_badges(page) == {2: "Computer · Easy"}
        assert page.inner_text("#game-status").startswith("Lobby")
    assert Seat.objects.get(game=game, number=2).computer == "easy"
    shoot(phone, "game-lobby-computer-phone")

    with dana.expect_response(lambda r: r.url.endswith("/remove/") and r.request.method == "POST") as answer:
        dana.click(".rr-remove-computer[data-seat='2']")
    assert answer.value.status == 200, answer.value.text()
    for page in (dana, phone):
        page.wait_for_selector("li.rr-open-seat[data-open-seat='2'] .rr-add-computer")
        assert seat_badges(page) == {}
    assert not Seat.objects.filter(game=game, number=2).exists()

    add("hard", 2)
    dana.wait_for_selector("li.rr-seat.computer[data-seat='2']")
    add("normal", 3)  # the last seat: the game starts
    for page in (dana, phone):
        page.wait_for_selector("#game-status:has-text('Turn 1 — programming')")
        assert seat_badges(page) == {2: "Computer · Hard", 3: "Computer · Normal"}
        assert page.locator(".rr-add-computer, .rr-remove-computer, li.rr-open-seat").count() == 0
        assert page.is_hidden("#start-game")
    game.refresh_from_db()
    assert game.status == Game.Status.PROGRAMMING and not game.rated
    assert dict(game.seats.values_list("number", "computer")) == {1: "", 2: "hard", 3: "normal"}

    # One turn: the computers are ready on their own, dana's program runs the turn at once.
    for number in (2, 3):
        dana.wait_for_selector(f"li.rr-seat[data-seat='{number}'] .seat-ready.is-ready", timeout=QUICK * 1000)
    hand = Hand.objects.get(seat__game=game, seat__number=1, turn=1).chips
    dana.wait_for_function("n => document.querySelectorAll('button.chip').length === n", arg=len(hand))
    for index in range(5):
        dana.click(f"button.chip[data-index='{index}']")
    phone.wait_for_selector("li.rr-seat[data-seat='3'] .seat-ready.is-ready")
    no_sideways_scroll(phone)
    shoot(phone, "game-started-phone")
    dana.click("#submit-program")
    wait_for_turn(game, 1)
    for page in (dana, phone):
        page.wait_for_selector("#game-status:has-text('Turn 2')", timeout=30_000)
    shoot(dana, "game-started-desktop")
    assert not dana_console.errors and not phone_console.errors, dana_console.errors + phone_console.errors
    settle(live_stack, game)


def test_a_computer_plays_for_a_person_whose_time_ran_out(live_stack, courses, new_page, django_user_model):
    from games.tasks import enforce_deadlines

    base = live_stack.base_url
    erin, erin_console = new_page("erin", PHONE)
    sign_up(erin, base, "erin")
    # The shortest move time (15 s), no game time, and a computer for whoever runs out.
    game = lobby.create_game(
        user=django_user_model.objects.get(username="erin"), course=courses["crossfire-foundry"], max_seats=2,
        timer_preset=Game.Preset.CUSTOM, move_time=15, game_time=0, timeout_policy=Game.TimeoutPolicy.COMPUTER,
    )
    erin.goto(f"{base}/games/{game.pk}/?speed=0")
    erin.wait_for_selector("#game-timers:has-text('a computer player plays the robot until its player sends a program again')")
    # A Hard opponent on a 12x12 course: it thinks a little longer than Normal, and the race lasts long enough
    # for erin to come back.
    erin.select_option("#computer-strength-2", "hard")
    erin.click(".rr-add-computer[data-seat='2']")
    erin.wait_for_selector("#game-status:has-text('Turn 1 — programming')")
    erin.wait_for_selector("button.chip")
    assert erin.is_hidden("#autopilot-banner")

    # erin does not move: past her deadline the beat's task hands her seat to a computer.
    def handed_to_a_computer() -> bool:
        enforce_deadlines()
        return Seat.objects.get(game=game, number=1).autopilot

    wait_until(handed_to_a_computer, "erin's seat to be handed to a computer", timeout=45, interval=0.5)
    erin.wait_for_selector("#autopilot-banner:not([hidden])")
    assert erin.inner_text("#autopilot-banner").startswith(
        "Your time ran out: a computer player is playing your robot. Send a program, or take it back now.")
    erin.wait_for_selector("#chat-log li.system:has-text('A Normal computer player plays for them')")
    # The computers play on: turn 1 runs without erin.
    wait_for_turn(game, 1)
    erin.wait_for_selector("li.rr-seat[data-seat='1'] .seat-autopilot:has-text('computer playing (time ran out)')")
    no_sideways_scroll(erin)
    shoot(erin, "autopilot-phone")

    # erin takes her robot back with the banner's button: from then on no computer plays for her, her clock runs
    # again, and the turn waits for her program.
    game.refresh_from_db()
    assert game.status == Game.Status.PROGRAMMING, "the race ended before erin came back"
    erin.click("#take-back")
    erin.wait_for_selector("#autopilot-banner", state="hidden")
    assert not Seat.objects.get(game=game, number=1).autopilot
    # The turn she took back may already hold the computer's program (it decides within a second or two of a
    # deal): then the next turn is the first that waits for her. Find that turn, then play it with the keys.
    def waits_for_erin() -> bool:
        game.refresh_from_db()
        assert game.status != Game.Status.FINISHED, "the race ended before erin played again"
        return game.status == Game.Status.PROGRAMMING and not Program.objects.filter(
            seat__game=game, seat__number=1, turn=game.turn).exists()

    wait_until(waits_for_erin, "a turn that waits for erin", timeout=60, interval=0.3)
    turn = game.turn
    erin.wait_for_function(
        "t => document.getElementById('game-status').textContent.startsWith(`Turn ${t} — programming`)"
        " && document.querySelectorAll('button.chip:not(:disabled)').length >= 5",
        arg=turn, timeout=20000)
    erin.locator("#rr-program-title").click(timeout=2000)  # the focus off any button: Enter submits
    for key in "12345"[: 5 - len(frozen_registers(erin))]:
        erin.keyboard.press(key)
    with expect_program(erin, timeout=5000) as answer:
        erin.keyboard.press("Enter")
    taken_back = answer.value.status == 200
    assert taken_back, "erin never got a program in"
    erin.wait_for_selector("#autopilot-banner", state="hidden")
    assert not Seat.objects.get(game=game, number=1).autopilot
    erin.wait_for_selector("#chat-log li.system:has-text('is back and plays their own robot again')")
    assert erin.locator("li.rr-seat[data-seat='1'] .seat-autopilot").count() == 0
    assert list(GameEvent.objects.filter(game=game, kind="seat_autopilot").values_list("data__on", flat=True)) == [True, False]
    # A program sent just as the turn ran is refused (409): the retry above; nothing else may go wrong.
    assert not [e for e in erin_console.errors if "409 (Conflict)" not in e], erin_console.errors
    settle(live_stack, game)
