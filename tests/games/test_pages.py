"""Server-rendered pages: the lobby (my games, your-move badge, course data for previews), the course
gallery and the offline animation demo."""

import json
import re

import pytest
from django.test import Client

from games.services import lobby as lobby_services
from games.services import moves
from tests.games.factories import hand_of, started_game


def logged_in(user):
    client = Client()
    client.force_login(user)
    return client


def json_scripts(html: str) -> dict:
    return {m[0]: json.loads(m[1]) for m in re.findall(r'<script id="([^"]+)" type="application/json">(.*?)</script>', html)}


@pytest.fixture
def two_games(courses, make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    playing = started_game(users=[alice, bob], course=courses["tiny-yard"])
    waiting = lobby_services.create_game(user=carol, course=courses["tiny-yard"], max_seats=3)
    return (alice, bob, carol), playing, waiting


def test_my_games_show_the_full_seat_count_and_a_badge_only_where_it_is_my_move(two_games):
    (alice, bob, _), playing, waiting = two_games
    html = logged_in(alice).get("/").content.decode()
    mine = html.split('id="my-games"')[1].split("</ul>")[0]
    assert f'data-game-id="{playing.pk}" class="my-move"' in mine and "your move" in mine
    assert "2/2 seats" in mine  # every seat, not just mine
    assert f'data-game-id="{waiting.pk}"' in html.split('id="open-games"')[1]
    moves.submit_program(user=alice, game_id=playing.pk, turn=1, chips=hand_of(playing, alice)[:5])
    html = logged_in(alice).get("/").content.decode()
    assert "your move" not in html.split('id="my-games"')[1].split("</ul>")[0]
    assert "your move" in logged_in(bob).get("/").content.decode()


def test_the_lobby_carries_each_course_once_for_thumbnails_and_the_form_preview(two_games, courses):
    (alice, _, _), playing, _ = two_games
    html = logged_in(alice).get("/").content.decode()
    scripts = json_scripts(html)
    course = courses["tiny-yard"]
    assert scripts.pop("ruleset-fields")["roborace"] == ["lives", "all_modules", "modules", "teams"]  # the form's
    assert scripts == {f"course-data-{c.pk}": c.data for c in courses.values()}  # each course once
    # my game, the open game, and my game again as the featured one (the only public game being played)
    assert html.count(f'data-course-json="course-data-{course.pk}"') == 3
    assert 'data-course-select-preview data-select="id_course"' in html
    preset = logged_in(alice).get(f"/?course={course.pk}").content.decode()
    assert f'<option value="{course.pk}" selected>' in preset


def test_course_gallery_lists_courses_with_previews_and_details(courses, make_user):
    course = courses["tiny-yard"]
    listing = Client().get("/courses/")
    assert listing.status_code == 200
    html = listing.content.decode()
    assert 'data-course="tiny-yard"' in html and "6 walls · 4 pits · 4 starts · 2 check points" in html
    assert json_scripts(html)[f"course-data-{course.pk}"] == course.data
    detail = logged_in(make_user("alice")).get("/courses/tiny-yard/").content.decode()
    assert "<dd>8 × 8</dd>" in detail and "<li>2 check points</li>" in detail
    assert f'href="/?course={course.pk}#create-game"' in detail
    assert Client().get("/courses/atlantis/").status_code == 404


def test_animation_demo_pages(db):
    page = Client().get("/games/demo/?demo=eight-bots")
    assert page.status_code == 200 and 'data-demo-src="/static/demo/eight-bots.json"' in page.content.decode()
    assert Client().get("/games/demo/").status_code == 200
    assert Client().get("/games/demo/?demo=nope").status_code == 404


def test_element_summary_counts_in_a_fixed_order_with_player_names_and_plurals():
    from roboracer.courses.selectors import element_summary

    data = {"elements": [{"type": "laser"}, {"type": "belt"}, {"type": "belt"}, {"type": "start"}, {"type": "floor"},
                         {"type": "damaged_tile"}, {"type": "damaged_tile"}, {"type": "rail"}, {"type": "rail"},
                         {"type": "one_way_wall"}, {"type": "mirror"}, {"type": "mirror"}]}
    assert element_summary(data=data) == ["1 start", "2 conveyor belts", "1 wall laser", "2 damaged tiles",
                                          "2 rail pieces", "2 mirrors", "1 one-way wall"]


def test_the_gallery_names_every_element_type_in_plain_words(courses, client):
    import re

    page = client.get("/courses/").content.decode()
    lines = re.findall(r'<p class="course-elements">(.*?)</p>', page)
    assert len(lines) == len(courses)
    assert not any("_" in line or "floor" in line for line in lines), lines
    detail = client.get("/courses/element-expo/").content.decode()
    assert "<li>1 one-way wall</li>" in detail or "one-way walls</li>" in detail


def test_the_create_form_makes_private_and_custom_timer_games(courses, make_user, client):
    from games.models import Game

    client.force_login(make_user("olga"))
    course = courses["bolt-bay"]
    response = client.post("/", {"course": course.pk, "max_seats": 3, "lives": 3, "visibility": "private",
                                 "timer_preset": "custom", "move_minutes": 5, "game_minutes": 30,
                                 "timeout_policy": "random"})
    assert response.status_code == 302
    game = Game.objects.get()
    assert (game.visibility, game.move_time, game.game_time, game.timeout_policy) == ("private", 300, 1800, "random")
    assert game.invite_code and response["Location"] == f"/games/{game.pk}/"
    # A custom preset without its times is an error on the form, and creates nothing.
    page = client.post("/", {"course": course.pk, "max_seats": 3, "lives": 3, "visibility": "public",
                             "timer_preset": "custom", "timeout_policy": "wait"})
    assert page.status_code == 200 and b"Custom timers need a move time and a game time, in minutes." in page.content
    assert Game.objects.count() == 1
    lobby = client.get("/").content.decode()
    assert "Real-time: 2 min a move" in lobby and "private" in lobby


def test_courses_over_the_api(courses, client):
    listed = client.get("/api/courses/").json()
    assert {c["slug"] for c in listed} == set(courses)
    one = client.get("/api/courses/bolt-bay/").json()
    assert [one["data"]["width"], one["data"]["height"]] == one["size"] and one["min_players"] == courses["bolt-bay"].min_players
    missing = client.get("/api/courses/atlantis/")
    assert missing.status_code == 404 and missing.json() == {"detail": "there is no course named 'atlantis'"}
