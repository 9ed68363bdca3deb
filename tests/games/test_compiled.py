"""roboracer.common.compiled: the hot path's statements with their SQL built once give what the ORM gives."""

from datetime import timedelta

import pytest
from django.db import DatabaseError, connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import ChatMessage, Game, GameEvent, Seat
from roboracer.common import compiled
from tests.games.factories import started_game

pytestmark = pytest.mark.django_db(transaction=True)


def fields_of(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields}


@pytest.fixture
def two_games(courses, make_user):
    first = started_game(users=[make_user(f"first{index}") for index in range(3)], course=courses["bolt-bay"])
    second = started_game(users=[make_user(f"second{index}") for index in range(2)], course=courses["bolt-bay"])
    return first, second


def test_a_compiled_query_gives_the_orms_instances_for_each_value(two_games):
    seats = compiled.Compiled(lambda _variant, *, game_id: Seat.objects.filter(game_id=game_id).select_related(
        "user", "user__profile").order_by("number"))
    for game in two_games:
        mine = seats.run(game_id=game.pk)
        theirs = list(Seat.objects.filter(game_id=game.pk).select_related("user", "user__profile").order_by("number"))
        assert [fields_of(seat) for seat in mine] == [fields_of(seat) for seat in theirs]
        assert len(mine) == game.seats.count()
        # select_related: the users came with the seats, no query each.
        with CaptureQueriesContext(connection) as captured:
            assert [seat.user.username for seat in mine] == [seat.user.username for seat in theirs]
        assert captured.captured_queries == []
    assert len(seats.compiled) == 1  # one shape, compiled once


def test_annotations_lists_and_values_lists(two_games):
    first, second = two_games
    counted = compiled.Compiled(lambda _variant, *, ids: Game.objects.filter(pk__in=ids).values_list("pk", flat=True))
    assert sorted(counted.run(ids=[first.pk, second.pk])) == sorted([first.pk, second.pk])
    assert counted.run(ids=[second.pk]) == [second.pk]
    assert counted.run(ids=[first.pk]) == [first.pk]
    assert len(counted.compiled) == 2  # one shape per length of the list
    pairs = compiled.Compiled(lambda _variant, *, game_id: Seat.objects.filter(game_id=game_id).order_by(
        "number").values_list("number", "color"))
    assert pairs.run(game_id=first.pk) == list(first.seats.order_by("number").values_list("number", "color"))


def test_a_placeholder_written_into_the_sql_is_refused(two_games):
    sliced = compiled.Compiled(lambda _variant, *, limit: Seat.objects.all()[:limit])
    with pytest.raises(ValueError, match="not a parameter"):
        sliced.run(limit=2)


def test_the_chat_of_a_snapshot_keeps_its_limit_and_order(two_games):
    first, second = two_games
    user = first.seats.first().user
    for index in range(4):
        ChatMessage.objects.create(game=first, user=user, text=f"line {index}")
    ChatMessage.objects.create(game=second, user=user, text="elsewhere")
    recent = compiled.Compiled(lambda limit, *, game_id: ChatMessage.objects.filter(game_id=game_id).order_by(
        "-id")[:limit])
    assert [message.text for message in recent.run(3, game_id=first.pk)] == ["line 3", "line 2", "line 1"]
    assert [message.text for message in recent.run(3, game_id=second.pk)] == ["elsewhere"]


def test_update_writes_the_fields_and_their_auto_now(two_games):
    game = Game.objects.get(pk=two_games[0].pk)
    before = game.updated_at
    game.version += 5
    game.state = {"quote": 'a "quoted" \\ back\\slash', "unicode": "Röbø 🤖"}
    compiled.update(game, ["version", "state", "updated_at"])
    stored = Game.objects.get(pk=game.pk)
    assert stored.version == game.version
    assert stored.state == game.state
    assert stored.updated_at > before
    other = Game.objects.get(pk=two_games[1].pk)
    assert other.version == two_games[1].version  # no other row
    game.pk = 10**9
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        compiled.update(game, ["version"])


def test_insert_many_stores_json_texts_exactly_and_sets_the_keys(two_games):
    game = two_games[0]
    tricky = [{"text": 'say "hi"\\n', "nested": {"list": [1, "two", None]}}, {"text": "Ünïcode ✓ \u2028"}, {}]
    events = [GameEvent(game=game, version=1000 + index, kind="test", data=data) for index, data in enumerate(tricky)]
    with CaptureQueriesContext(connection) as captured:
        compiled.insert_many(events)
    assert len([query for query in captured.captured_queries if query["sql"].startswith("INSERT")]) == 1
    assert all(event.pk is not None and not event._state.adding for event in events)
    stored = {event.pk: event for event in GameEvent.objects.filter(pk__in=[event.pk for event in events])}
    assert [stored[event.pk].data for event in events] == tricky
    assert all(stored[event.pk].created_at is not None for event in events)
    single = compiled.insert(GameEvent(game=game, version=2000, kind="test", data={"one": 1}))
    assert GameEvent.objects.get(pk=single.pk).data == {"one": 1}


def test_update_many_writes_only_the_rows_given(two_games):
    first, second = two_games
    seats = list(first.seats.order_by("number"))
    deadline = timezone.now() + timedelta(minutes=3)
    assert compiled.update_many(Seat, [seat.pk for seat in seats[:2]], deadline=deadline, expired=True) == 2
    assert list(first.seats.order_by("number").values_list("expired", flat=True)) == [True, True, False]
    assert all(seat.deadline == deadline for seat in first.seats.order_by("number")[:2])
    assert not second.seats.filter(expired=True).exists()
    assert compiled.update_many(Seat, [], expired=True) == 0
