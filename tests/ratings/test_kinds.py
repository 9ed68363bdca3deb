"""One rating per game kind (issue 38 item 15): a RAMbots game moves only RAMbots ratings and a RoboRacer game
only RoboRacer ones; the leaderboard has a board per kind; the player page and its API show each kind's rating
and history; the readers that meant the RoboRacer rating still get it (docs/ratings.md "One rating per kind")."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from rest_framework.test import APIClient

from games import kinds
from games.models import Game
from games.selectors import lobby as lobby_selectors
from games.selectors import rated
from games.services import computer_seats, turns
from games.services import lobby as lobby_services
from roboracer.ratings import selectors
from roboracer.ratings.models import DEFAULT_MU, DEFAULT_SIGMA, KINDS, Rating, RatingChange
from tests.ratings.helpers import played

PLAYERS = ("ann", "ben", "cat")  # the `players` fixture (tests/conftest.py)


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _rambots(users, **fields) -> Game:
    """A RAMbots game of `users` through the API (the first creates it, the others join: it starts when full)."""
    answer = _api(users[0]).post("/api/games/", {"kind": "rambots", "max_seats": len(users), **fields}, format="json")
    assert answer.status_code == 201, answer.content
    for user in users[1:]:
        assert _api(user).post(f"/api/games/{answer.data['id']}/join/", {}, format="json").status_code == 200
    return Game.objects.get(pk=answer.data["id"])


def _stack_for(game, user) -> list[str]:
    seat = game.seats.get(user=user)
    pool = next(p for p in game.state["players"] if p["id"] == seat.bot_id)["pool"]
    return [next(piece for piece in pool if piece.endswith(colour)) for colour in ("blue", "green", "red", "yellow")]


def rambots_played(users, *, loser, **fields) -> Game:
    """A finished RAMbots game: every player builds a goal stack (so every seat moved), then `loser` resigns;
    with two players the other wins."""
    game = _rambots(users, **fields)
    for user in users:
        answer = _api(user).post(f"/api/games/{game.pk}/move/", {"turn": 0, "goals": _stack_for(game, user)},
                                 format="json")
        assert answer.status_code == 200, answer.content
    turns.resolve_turn(game_id=game.pk, turn=0)
    lobby_services.leave_game(user=loser, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def _row(user, kind) -> tuple:
    rating = Rating.objects.get(user=user, kind=kind)
    return rating.mu, rating.sigma, rating.games


def test_a_rambots_game_moves_the_rambots_ratings_only(players):
    ann, ben, _ = players
    # ann's RAMbots row first, her RoboRacer row after it (a lock that forgot the kind would pick the later one).
    Rating.objects.create(user=ann, kind="rambots", mu=26.0, sigma=6.0, games=2)
    Rating.objects.create(user=ann, mu=30.0, sigma=4.0, games=7)  # RoboRacer (the default kind)
    Rating.objects.create(user=ben, mu=20.0, sigma=5.0, games=3)
    game = rambots_played([ann, ben], loser=ann)
    assert rated.is_rated(game=game) and not game.aborted
    assert game.state["winner"] == game.seats.get(user=ben).bot_id
    # RoboRacer's rows exactly as they were.
    assert _row(ann, "roboracer") == (30.0, 4.0, 7) and _row(ben, "roboracer") == (20.0, 5.0, 3)
    # RAMbots' rows moved (ben's made, from the defaults): ben won.
    ann_mu, _, ann_games = _row(ann, "rambots")
    ben_mu, ben_sigma, ben_games = _row(ben, "rambots")
    assert ben_mu > DEFAULT_MU and ann_mu < 26.0 and ben_sigma < DEFAULT_SIGMA and (ann_games, ben_games) == (3, 1)
    changes = RatingChange.objects.filter(game=game)
    assert sorted(changes.values_list("kind", "place")) == [("rambots", 1), ("rambots", 2)]
    assert changes.get(user=ben).mu_before == DEFAULT_MU  # from RAMbots' defaults, not ben's RoboRacer 20
    assert (changes.get(user=ann).mu_before, changes.get(user=ann).sigma_before) == (26.0, 6.0)
    # The readers: each kind's own figures.
    assert selectors.shown_ratings_of(users=[ann, ben], kind="roboracer") == {
        ann.pk: selectors.shown(30.0, 4.0), ben.pk: selectors.shown(20.0, 5.0)}
    rambots = selectors.shown_ratings_of(users=[ann, ben], kind="rambots")
    assert rambots[ben.pk] > 1000 and rambots[ann.pk] == selectors.shown(*_row(ann, "rambots")[:2])
    assert selectors.ratings_of(users=[ann], kind="roboracer")[ann.pk] == pytest.approx(30.0 - 12.0)


def test_a_roboracer_game_moves_the_roboracer_ratings_only(courses, players):
    ann, ben, _ = players
    Rating.objects.create(user=ann, kind="rambots", mu=31.0, sigma=3.0, games=4)
    game = played(users=[ann, ben], course=courses["tiny-yard"])  # ann backs off the edge: ben wins
    assert _row(ann, "rambots") == (31.0, 3.0, 4) and not Rating.objects.filter(user=ben, kind="rambots").exists()
    assert _row(ben, "roboracer")[0] > DEFAULT_MU > _row(ann, "roboracer")[0]
    assert set(RatingChange.objects.filter(game=game).values_list("kind", flat=True)) == {"roboracer"}


def test_a_second_rambots_game_starts_from_the_first_ones_result(players):
    ann, ben, _ = players
    rambots_played([ann, ben], loser=ann)
    after_first = _row(ben, "rambots")
    second = rambots_played([ann, ben], loser=ann)
    change = RatingChange.objects.get(game=second, user=ben)
    assert (change.mu_before, change.sigma_before) == after_first[:2] and _row(ben, "rambots")[2] == 2


def test_unrated_and_aborted_rambots_games_move_nothing(players):
    ann, ben, cat = players
    unrated = rambots_played([ann, ben], loser=ann, rated=False)
    assert not unrated.rated and not rated.is_rated(game=unrated)
    # Nobody moved: ann resigns before building her goal stack, and ben never built his.
    aborted = _rambots([ann, ben])
    lobby_services.leave_game(user=ann, game_id=aborted.pk)
    aborted.refresh_from_db()
    assert aborted.status == Game.Status.FINISHED and aborted.aborted
    # A computer player makes the game unrated (games.services.computer_seats), as for RoboRacer.
    answer = _api(cat).post("/api/games/", {"kind": "rambots", "max_seats": 2}, format="json")
    with_computer = Game.objects.get(pk=answer.data["id"])
    assert with_computer.rated
    computer_seats.add_computer(user=cat, game_id=with_computer.pk, strength="easy")
    with_computer.refresh_from_db()
    assert not with_computer.rated and not rated.is_rated(game=with_computer)
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_the_api_and_the_lobby_form_keep_the_creators_choice(players):
    ann, ben, _ = players
    game = _rambots([ann, ben], rated=False)
    assert _api(ann).get(f"/api/games/{game.pk}/").data["rated"] is False
    game = _rambots([ann, ben])
    snapshot = _api(ann).get(f"/api/games/{game.pk}/").data
    assert snapshot["rated"] is True and snapshot["kind"] == "rambots"
    assert kinds.get("rambots").again(game)["rated"] is True  # play again keeps it
    form = kinds.get("rambots").lobby_form(prefix="rambots")
    assert form.fields["rated"].initial is True


def test_a_rambots_games_screen_shows_rambots_ratings(courses, players):
    """The snapshot's seats, the results' changes and the lobby's creator rating are the game's kind's."""
    ann, ben, _ = players
    Rating.objects.create(user=ann, mu=40.0, sigma=2.0, games=30)  # a strong RoboRacer player
    game = rambots_played([ann, ben], loser=ann)
    seats = {seat["user"]: seat for seat in _api(ann).get(f"/api/games/{game.pk}/").data["seats"]}
    rambots = selectors.shown_ratings_of(users=[ann, ben], kind="rambots")
    assert seats["ann"]["rating"] == rambots[ann.pk] < 1000 and seats["ben"]["rating"] == rambots[ben.pk] > 1000
    assert seats["ann"]["rating_change"] == rambots[ann.pk] - 1000
    rambots_lobby = _api(ann).post("/api/games/", {"kind": "rambots", "max_seats": 2}, format="json")
    robo = _api(ann).post("/api/games/", {"course": "tiny-yard", "max_seats": 2}, format="json")
    assert rambots_lobby.status_code == robo.status_code == 201
    listed = {row["id"]: row for row in lobby_selectors.lobby_state(user=ben)["open"]}
    assert listed[rambots_lobby.data["id"]]["creator_rating"] == rambots[ann.pk]
    assert listed[robo.data["id"]]["creator_rating"] == selectors.shown(40.0, 2.0)


def test_the_leaderboard_has_a_board_per_kind(courses, players):
    ann, ben, cat = players
    played(users=[ann, ben], course=courses["tiny-yard"])  # RoboRacer: ben above ann
    rambots_played([ben, cat], loser=ben)  # RAMbots: cat above ben
    client = _client(ann)

    def board(query: str) -> str:
        page = client.get(f"/players/{query}")
        assert page.status_code == 200
        html = page.content.decode()
        return html, html[html.index('id="leaderboard"'):html.index("</table>")]

    html, table = board("")
    assert 'data-kind="roboracer"' in table and table.index("/players/ben/") < table.index("/players/ann/")
    assert "/players/cat/" not in table
    assert '<a href="/players/" data-kind="roboracer" aria-current="page">RoboRacer</a>' in html
    assert '<a href="/players/?kind=rambots" data-kind="rambots">RAMbots</a>' in html
    html, table = board("?kind=rambots")
    assert 'data-kind="rambots"' in table and table.index("/players/cat/") < table.index("/players/ben/")
    assert "/players/ann/" not in table and "RAMbots rating" in table
    assert 'data-kind="rambots" aria-current="page"' in html
    assert board("?kind=roboracer")[1] == board("")[1]
    assert [r["username"] for r in selectors.leaderboard(kind="rambots")] == ["cat", "ben"]


def test_an_empty_kinds_board_says_so(courses, players):
    played(users=players[:2], course=courses["tiny-yard"])
    html = _client(players[0]).get("/players/?kind=rambots").content.decode()
    assert 'id="leaderboard"' not in html and "Nobody has finished a rated RAMbots game yet." in html


@pytest.mark.parametrize("query", ["?kind=chess", "?kind=", "?kind=RAMBOTS", "?kind=rambots%00", "?kind=%F0%9F%99%82",
                                   "?kind=" + "x" * 5000, "?kind=tally"])
def test_an_unknown_kind_is_a_plain_404(players, query):
    page = _client(players[0]).get(f"/players/{query}")
    assert page.status_code == 404


def test_the_player_page_shows_each_kinds_rating_and_chart(courses, players):
    ann, ben, cat = players
    played(users=[ann, ben], course=courses["tiny-yard"])
    rambots_played([ann, cat], loser=cat)
    rambots_played([ann, cat], loser=cat)
    html = _client(cat).get("/players/ann/").content.decode()
    robo = selectors.shown_ratings_of(users=[ann], kind="roboracer")[ann.pk]
    ram = selectors.shown_ratings_of(users=[ann], kind="rambots")[ann.pk]
    assert robo < 1000 < ram
    assert f'<strong id="player-rating">{robo}</strong>' in html
    assert f'<strong id="player-rating-rambots">{ram}</strong>' in html
    robo_card = html[html.index('id="rating-roboracer"'):html.index('id="rating-rambots"')]
    ram_card = html[html.index('id="rating-rambots"'):html.index('id="games-heading"')]
    assert robo_card.count('class="dot"') == 1 and "1 rated game" in robo_card
    assert ram_card.count('class="dot"') == 2 and "2 rated games" in ram_card and 'id="rating-chart-rambots"' in ram_card
    assert 'href="/players/?kind=rambots"' in ram_card
    # ben never played RAMbots: his card says so, with no chart and no made-up figure.
    html = _client(cat).get("/players/ben/").content.decode()
    ram_card = html[html.index('id="rating-rambots"'):html.index('id="games-heading"')]
    assert '<strong id="player-rating-rambots" class="unrated">unrated</strong>' in ram_card
    assert "<svg" not in ram_card and "No rated RAMbots games yet" in ram_card


def test_the_api_adds_each_kinds_rating_and_keeps_the_old_fields(courses, players):
    ann, ben, cat = players
    played(users=[ann, ben], course=courses["tiny-yard"])
    rambots_played([ann, cat], loser=cat)
    data = _api(ben).get("/api/players/ann/").json()
    robo = Rating.objects.get(user=ann, kind="roboracer")
    # The old fields: RoboRacer's, as before.
    assert data["rating"] == selectors.shown(robo.mu, robo.sigma) and data["rated_games"] == 1
    assert (data["mu"], data["sigma"]) == (round(robo.mu, 3), round(robo.sigma, 3)) and len(data["history"]) == 1
    assert list(data["ratings"]) == list(KINDS) == ["roboracer", "rambots"]
    assert data["ratings"]["roboracer"]["rating"] == data["rating"]
    assert data["ratings"]["roboracer"]["history"] == data["history"]
    ram = data["ratings"]["rambots"]
    assert ram["rated"] is True and ram["rated_games"] == 1 and ram["rating"] > 1000 and len(ram["history"]) == 1
    assert ram["history"][0]["rating"] == ram["rating"] and set(ram["history"][0]) == {"at", "rating"}
    kinds_listed = {row["course_name"]: row["kind"] for row in data["games"]["results"]}
    assert kinds_listed == {"Tiny Yard": "roboracer", "RAMbots": "rambots"}
    assert all(row["rated"] and row["rating_change"] for row in data["games"]["results"])


def test_every_rated_kind_has_a_rating_pool():
    for name in kinds.names():
        kind = kinds.get(name)
        if kind.rated:
            assert KINDS.get(name) == kind.title


def test_rate_game_refuses_a_kind_with_no_pool(courses, players):
    from roboracer.ratings import services  # noqa: PLC0415 (only this test calls it directly)

    game = played(users=players[:2], course=courses["tiny-yard"], rated=False)
    assert services.rate_game(game_id=game.pk, kind="tally", players=[(players[0].pk, 1), (players[1].pk, 2)]) == []
    assert not Rating.objects.exists()


BEFORE = [("ratings", "0001_initial")]
AFTER = [("ratings", "0002_rating_per_kind")]


def test_the_migration_keeps_every_row_as_roboracer(transactional_db, django_user_model):
    user = django_user_model.objects.create_user(username="old", password="correct horse battery")
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps
        old.get_model("ratings", "Rating").objects.create(user_id=user.pk, mu=31.5, sigma=2.5, games=12)
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        new = executor.loader.project_state(AFTER).apps
        ratings = new.get_model("ratings", "Rating")
        assert list(ratings.objects.values_list("user_id", "kind", "mu", "sigma", "games")) == [
            (user.pk, "roboracer", 31.5, 2.5, 12)]
        ratings.objects.create(user_id=user.pk, kind="rambots")  # a second kind for the same player
        assert ratings.objects.filter(user_id=user.pk).count() == 2
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
