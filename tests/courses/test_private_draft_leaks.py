"""Issue 33, item 12: a test drive's guest cannot re-create the author's private draft (play again on a test
drive is the author's, and staff's, alone), and a new course's slug reveals nothing about hidden courses."""

import copy
import re

import pytest
from rest_framework.test import APIClient

import engine
from games.kinds.roboracer import services as roboracer_services
from games.models import Game
from games.selectors import snapshots
from games.services import lobby, rematch
from roboracer.common.errors import NotAllowed
from roboracer.courses import services


def course_json(name):
    data = copy.deepcopy(engine.bundled_course_data("tiny-yard"))
    data.update(name=name, players=[2, 4])
    return data


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def people(make_user):
    return {"author": make_user("ada"), "guest": make_user("gil"), "staff": make_user("stu", is_staff=True)}


def finished_test_drive(people):
    draft = services.create_course(user=people["author"], data=course_json("Secret Draft"))
    game = roboracer_services.start_test_drive(user=people["author"], slug=draft.slug, seats=2)
    lobby.join_game(user=people["guest"], game_id=game.pk, invite=game.invite_code)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    return draft, game


def test_a_test_drives_guest_cannot_play_it_again(people):
    draft, game = finished_test_drive(people)
    game.refresh_from_db()
    assert snapshots.game_snapshot(game=game, user=people["guest"])["can_play_again"] is False
    assert snapshots.game_snapshot(game=game, user=people["author"])["can_play_again"] is True
    with pytest.raises(NotAllowed):
        rematch.play_again(user=people["guest"], game_id=game.pk)
    assert Game.objects.filter(course=draft).count() == 1
    answer = api(people["guest"]).post(f"/api/games/{game.pk}/play-again/")
    assert answer.status_code == 403 and Game.objects.filter(course=draft).count() == 1


def test_the_author_plays_their_test_drive_again(people):
    draft, game = finished_test_drive(people)
    new, made = rematch.play_again(user=people["author"], game_id=game.pk)
    assert made and new.test_drive and new.creator_id == people["author"].pk


SLUG = re.compile(r"^secret-plan-[a-z2-9]{6}$")


def new_slug(user) -> str:
    answer = api(user).post("/api/courses/", {"data": course_json("Secret Plan")}, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()["slug"]


def test_a_new_courses_slug_is_the_same_kind_whether_or_not_a_hidden_course_took_the_name(people):
    alone = new_slug(people["guest"])  # nobody else has a course of this name
    assert SLUG.match(alone)
    services.create_course(user=people["author"], data=course_json("Secret Plan"))  # ada's private draft
    beside = new_slug(people["guest"])
    assert SLUG.match(beside), beside  # not "secret-plan-2": nothing says a hidden course has the name
