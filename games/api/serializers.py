from rest_framework import serializers

from engine import PROGRAM_LENGTH
from games.kinds.rambots.serializers import CreateRAMbotsGameSerializer
from games.kinds.roboracer.serializers import CreateGameSerializer
from games.models import Game

__all__ = ["CreateGameSerializer", "CreateRAMbotsGameSerializer"]  # the kinds' own, in the API's schema


class GameSummarySerializer(serializers.ModelSerializer):
    """Documentation only: the summary is built by games.selectors.lobby.game_summary (the lobby socket sends the
    same)."""

    course = serializers.CharField(source="course.slug")
    course_id = serializers.IntegerField(help_text="the course's id (the lobby's course-data-<id> previews)")
    course_name = serializers.CharField(source="course.name")
    creator = serializers.CharField(source="creator.username")
    creator_bot = serializers.BooleanField(help_text="the creator is a bot account (docs/bot-api.md)")
    seated = serializers.IntegerField()
    computers = serializers.IntegerField(help_text="seats played by computer players")
    version = serializers.IntegerField(help_text="the game's last event; a lobby keeps the newest summary")
    winner = serializers.CharField(allow_null=True, help_text="a finished game's winner (display name)")
    my_move = serializers.BooleanField(required=False, help_text='"mine" only: my clock is running')

    class Meta:
        model = Game
        fields = [
            "id", "course", "course_id", "course_name", "creator", "creator_bot", "status", "turn", "version", "max_seats",
            "seated", "computers", "lives", "visibility", "timer_preset", "move_time", "game_time", "timeout_policy", "winner",
            "my_move", "modules",
        ]


class LobbySerializer(serializers.Serializer):
    """Documentation only: games.selectors.lobby.lobby_state (also the lobby socket's `lobby` message)."""

    open = GameSummarySerializer(many=True, help_text="public games waiting for players")
    open_total = serializers.IntegerField(help_text="how many public games wait for players in all")
    open_next = serializers.IntegerField(allow_null=True, help_text="the next page of `open` (?page=), or null")
    mine = GameSummarySerializer(many=True, help_text="my games, with my_move")
    archived = GameSummarySerializer(many=True, help_text="my games I archived with !archive")


class MoveSerializer(serializers.Serializer):
    """A move of a kind without chips (RAMbots): {"turn": 0, "goals": [4 pieces, top first]} or
    {"turn": n, "program": [{"piece": "S-red", "dir": "N"}, ...], "compiled": true}."""

    turn = serializers.IntegerField(min_value=0)
    goals = serializers.ListField(child=serializers.CharField(), required=False)
    program = serializers.ListField(child=serializers.DictField(), required=False)
    compiled = serializers.BooleanField(required=False)


class TeamSerializer(serializers.Serializer):
    team = serializers.ChoiceField(choices=[("blue", "Blue"), ("orange", "Orange")])
    seat = serializers.IntegerField(required=False, min_value=1, max_value=8,
                                    help_text="the creator may place another seat; your own by default")


class JoinSerializer(serializers.Serializer):
    invite = serializers.CharField(required=False, allow_blank=True, default="", max_length=64,
                                   help_text="the invite code of a private game")


class ChatSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=2000, allow_blank=True, trim_whitespace=True,
                                 help_text="a message (at most 500 characters), or !eject, !archive; @all prefix")


class ChatQuerySerializer(serializers.Serializer):
    before = serializers.IntegerField(
        required=False, min_value=1, max_value=2**63 - 1, help_text="only messages older than this message id"
    )


class ChatAnswerSerializer(serializers.Serializer):
    """Documentation only: {"message": {...}} for a chat line, {"command": ..., ...} for a command."""

    message = serializers.JSONField(required=False)
    command = serializers.CharField(required=False)
    ejected = serializers.ListField(child=serializers.IntegerField(), required=False)
    archived = serializers.BooleanField(required=False)


class EjectedSerializer(serializers.Serializer):
    ejected = serializers.ListField(child=serializers.IntegerField())


class ProgramSerializer(serializers.Serializer):
    turn = serializers.IntegerField(min_value=1)
    chips = serializers.ListField(
        child=serializers.CharField(max_length=12), min_length=PROGRAM_LENGTH, max_length=PROGRAM_LENGTH,
        help_text='"S" plays the stored chip (Storage); in rulesets with numbered cards a card is "<chip>@<number>", '
                  'e.g. "R@5"',
    )
    reboot = serializers.BooleanField(default=False)
    action = serializers.JSONField(
        required=False, allow_null=True, default=None,
        help_text='the turn\'s module action, or null: {"install": name}, {"charge": 1..5} or {"activate": {...}}',
    )
    version = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=0, max_value=2**31 - 1,
        help_text="optional: the game version your view of the game was at; a program that would replace one "
                  "stored after that version (sent from another connection) is refused with 409",
    )


class ProgramAcceptedSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    chips = serializers.ListField(child=serializers.CharField())
    reboot = serializers.BooleanField()
    action = serializers.JSONField(allow_null=True, help_text="the module action stored with the program")


class ScanRequestSerializer(serializers.Serializer):
    turn = serializers.IntegerField(min_value=1, max_value=2**31 - 1)


class ScanSerializer(serializers.Serializer):
    """The owner's scan: each opponent's submitted chips, sorted (their order stays hidden)."""

    turn = serializers.IntegerField()
    programs = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))


class SnapshotSerializer(serializers.Serializer):
    """Documentation only: the snapshot is built by games.selectors.snapshots.game_snapshot."""

    id = serializers.IntegerField()
    status = serializers.CharField()
    turn = serializers.IntegerField()
    version = serializers.IntegerField()
    course = serializers.JSONField()
    seats = serializers.JSONField()
    bots = serializers.JSONField()
    board = serializers.JSONField(help_text="what the elements remember; only the revealed part of the teleporter loop")
    priority = serializers.ListField(child=serializers.CharField())
    radiation = serializers.JSONField(help_text="squares with radiation this turn")
    winner = serializers.CharField(allow_null=True)
    places = serializers.DictField(
        child=serializers.IntegerField(min_value=1),
        allow_null=True,
        help_text="once the game is over: bot id -> final place (1 is the winner; ties share a place); else null",
    )
    me = serializers.JSONField(allow_null=True)
    last_turn = serializers.JSONField(allow_null=True)
    max_seats = serializers.IntegerField()
    visibility = serializers.CharField()
    invite_url = serializers.CharField(allow_null=True, help_text="private games, for their players only")
    timers = serializers.JSONField(help_text='{"preset", "move", "game" (seconds), "policy"}')
    server_time = serializers.DateTimeField()
    chat = serializers.JSONField(help_text="the last 100 chat messages, oldest first")
    can_join = serializers.BooleanField()
    can_start = serializers.BooleanField()
    can_leave = serializers.BooleanField()
    can_cancel = serializers.BooleanField()
    can_chat = serializers.BooleanField()
    can_play_again = serializers.BooleanField(help_text="a player of this finished game")
    rematch = serializers.JSONField(allow_null=True, help_text='the "play again" game: {"id", "url"}, or null')
    modules = serializers.ListField(child=serializers.CharField(), help_text="the available bot modules, sorted")
    prices = serializers.DictField(child=serializers.IntegerField(), help_text="their current prices ({} for none)")
    mode = serializers.CharField(help_text='"race", "arena" or "puzzle" (the course\'s)')
    mode_text = serializers.CharField()
    teams = serializers.BooleanField(help_text="team play: seats and bots carry their team")
    remains = serializers.JSONField(help_text="arena remains: [[x, y], ...]")
    winning_team = serializers.CharField(allow_null=True)
    outcome = serializers.CharField(allow_null=True, help_text='puzzles: "solved", "failed" or null')
    can_reboot = serializers.BooleanField(help_text="false in arenas")
    can_balance = serializers.BooleanField(help_text="the creator of a team game in its lobby")
    puzzle = serializers.JSONField(allow_null=True, help_text="goal, goal_text, turn_limit, players, description")
    standings = serializers.JSONField(allow_null=True, help_text="finished games: the mode's standings")
    standings_summary = serializers.CharField(allow_null=True)


class PlayAgainSerializer(serializers.Serializer):
    """Documentation only: the answer to "play again"."""

    game = serializers.IntegerField(help_text="the new game (the same one for every press)")
    url = serializers.CharField(help_text="its page, or for a private game its invite link")
    created = serializers.BooleanField(help_text="false: someone had already pressed play again")


class TurnRecordSerializer(serializers.Serializer):
    """Documentation only: built by games.selectors.turns.resolved_turn."""

    turn = serializers.IntegerField()
    events = serializers.JSONField()
    programs = serializers.JSONField(help_text="bot id -> the five chips it played (public once the turn ran)")
    reboots = serializers.ListField(child=serializers.CharField(), help_text="bots whose players asked to reboot")
    actions = serializers.JSONField(help_text="bot id -> the module action it took (public once the turn ran)")
    before = serializers.JSONField(help_text='{"bots", "board", "priority", "radiation"} at the start')
    after = serializers.JSONField(
        help_text='{"bots", "board", "priority", "radiation", "places"} at the end (places: null unless it ended the game)'
    )
    report = serializers.JSONField(
        allow_null=True, help_text="the rule document's own report of the turn (fused: 001's per-stage table; classic: "
        "000's register report), null for the other rulesets (docs/formats.md \"Rulesets\")",
    )


class PuzzleSerializer(serializers.Serializer):
    """Documentation only: a row of games.selectors.puzzles.puzzle_list."""

    slug = serializers.CharField()
    name = serializers.CharField()
    course_id = serializers.IntegerField()
    description = serializers.CharField()
    goal = serializers.CharField(help_text="the goal in words")
    players = serializers.IntegerField()
    turn_limit = serializers.IntegerField()
    tried = serializers.IntegerField(help_text="players who started a game on it")
    solved = serializers.IntegerField(help_text="players who solved it")
    best_turns = serializers.IntegerField(allow_null=True, help_text="the fewest turns of a solution")
    mine = serializers.JSONField(help_text='your solutions: [{"game", "turns", "url"}]')
    difficulty = serializers.CharField(help_text='"Easy", "Medium" or "Hard" (docs/modes.md "Puzzle difficulty")')
    difficulty_score = serializers.FloatField(help_text="the score the label comes from; the list is sorted by it")
    solution_url = serializers.CharField(allow_null=True, help_text="the solver's solution, once you solved the "
                                         "puzzle or gave up (issue 40); else null")


class RecompileSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    hand = serializers.ListField(child=serializers.CharField(), help_text="the new instructions, yours alone")


class AddComputerSerializer(serializers.Serializer):
    strength = serializers.ChoiceField(choices=["easy", "normal", "hard"], default="normal")
    seat = serializers.IntegerField(min_value=1, max_value=8, required=False, allow_null=True, default=None,
                                    help_text="the free seat to fill (default: the lowest free one)")


class ComputerSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    computer = serializers.CharField(help_text="the computer player's strength: easy, normal or hard")
    display_name = serializers.CharField()


class PracticeSerializer(serializers.Serializer):
    course = serializers.SlugField(max_length=100, help_text="a race or arena course's slug")
    opponents = serializers.IntegerField(min_value=1, max_value=7, default=1)
    strength = serializers.ChoiceField(choices=["easy", "normal", "hard"], default="normal")
    ruleset = serializers.CharField(max_length=16, required=False, allow_null=True, default=None,
                                    help_text="the rules (default: the course's first)")


class PracticeAnswerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField()
