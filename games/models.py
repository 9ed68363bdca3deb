"""Games, seats, hands, programs, resolved turns and the per-game event stream."""

from django.conf import settings
from django.db import models

from games import kinds
from roboracer.accounts.models import PALETTE as SEAT_COLORS
from roboracer.courses.models import Course

__all__ = ["SEAT_COLORS", "AccountEvent", "ChatMessage", "DirectChallenge", "Draft", "Game", "GameEvent", "Hand", "Program", "Scan", "Seat", "Turn"]


class Game(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby"
        PROGRAMMING = "programming"
        RESOLVING = "resolving"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    class Visibility(models.TextChoices):
        PUBLIC = "public"  # listed in the lobby; any signed-in player may watch
        PRIVATE = "private"  # joined through the invite link; only its players watch

    class Preset(models.TextChoices):
        REALTIME = "realtime", "Real-time"  # the one name players read, on every page
        DAILY = "daily"
        TOURNAMENT = "tournament"
        CUSTOM = "custom"

    class TimeoutPolicy(models.TextChoices):
        WAIT = "wait", "wait for someone to !eject (003)"
        EJECT = "eject", "eject at once"
        RANDOM = "random", "play a random legal program"
        COMPUTER = "computer", "a Normal computer player plays until they return"

    # The kind of game (games.kinds: "roboracer", "rambots"); the site reaches a kind's rules only through
    # its registry entry (docs/game-kinds.md).
    kind = models.CharField(max_length=16, default="roboracer")
    # RoboRacer's course; null for kinds without courses (RAMbots plays on a chessboard).
    course = models.ForeignKey(Course, null=True, blank=True, on_delete=models.PROTECT, related_name="games")
    # The course as it was when the game was created, so editing a course never changes a running game.
    course_data = models.JSONField(default=dict, blank=True)
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="created_games")
    max_seats = models.PositiveSmallIntegerField()
    lives = models.PositiveSmallIntegerField(default=3)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.LOBBY)
    seed = models.BigIntegerField()
    turn = models.PositiveIntegerField(default=0)
    state = models.JSONField(null=True, blank=True)
    winner = models.ForeignKey("Seat", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    version = models.PositiveIntegerField(default=0)  # number of the last GameEvent
    resolving_since = models.DateTimeField(null=True, blank=True)
    # The turn's move clocks start no earlier than this: the last turn's animation at 1x after it resolved
    # (docs/site.md "When the move clock starts"); null before the first resolution.
    clocks_from = models.DateTimeField(null=True, blank=True)
    visibility = models.CharField(max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC)
    invite_code = models.CharField(max_length=32, blank=True, default="")
    timer_preset = models.CharField(max_length=12, choices=Preset.choices, default=Preset.REALTIME)
    move_time = models.PositiveIntegerField(default=120, help_text="seconds of move time per turn (the maximum)")
    game_time = models.PositiveIntegerField(default=600, help_text="seconds of game time per seat")
    timeout_policy = models.CharField(max_length=8, choices=TimeoutPolicy.choices, default=TimeoutPolicy.WAIT)
    # "Play again": the new lobby made from this finished game, on the same course and settings, to which its
    # players are invited. Set once (the game row locked, and a conditional update): a second press, or two
    # players at once, go to the same new game.
    rematch = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch_of"
    )
    # A course's test drive from the course builder (games.kinds.roboracer.services.start_test_drive): a private
    # game whose own copy of the course takes 1 player at least, so its creator may start it with any number
    # seated, solo included, whatever the course's minimum (docs/course-builder.md, "Test drive").
    test_drive = models.BooleanField(default=False)
    # Bot modules available in this game (003 "Bot Modules"), sorted names of engine.MODULE_NAMES; none by
    # default. Their starting prices are in the state (`prices`), taken from the course's price book.
    modules = models.JSONField(default=list, blank=True)
    # The creator's wish that the game be rated; whether it is rated also depends on the course's state and
    # the mode (games.selectors.rated.is_rated).
    rated = models.BooleanField(default=True)
    # Set when the game finished with fewer than two seats that ever moved (a program of their own): nobody's
    # rating changes (roboracer.ratings.services.rate_game; docs/ratings.md "Aborted games").
    aborted = models.BooleanField(default=False)
    # Team play (003 "Team Play"): the seats are on the Blue and Orange teams (Seat.team); docs/modes.md.
    teams = models.BooleanField(default=False)
    # The rules the game is played by (engine.rulesets; docs/rulesets.md) and that ruleset's game options
    # (only the ones that differ from its defaults, e.g. fused's {"electric_fence": false}).
    ruleset = models.CharField(max_length=16, default="roboracer")
    options = models.JSONField(default=dict, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "visibility"], name="game_status_visibility")]

    def __str__(self) -> str:
        return f"Game {self.pk} on {self.board_name} ({self.status})"

    @property
    def board_name(self) -> str:
        """What the game is played on, as pages name it: its course, or its kind's board (games.kinds)."""
        return kinds.of(self).board_name(self)

    @property
    def kind_title(self) -> str:
        """The game's name as pages title it: "RoboRacer", "RAMbots"."""
        return kinds.of(self).title


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    color = models.CharField(max_length=7)
    joined_at = models.DateTimeField(auto_now_add=True)
    # The clocks (003 "Time Limits"): seconds left as of `clock_started_at`, when the clock last started
    # running; None while it is stopped (ready, or between turns). Move time runs down first, then game time.
    move_left = models.FloatField(default=0)
    game_left = models.FloatField(default=0)
    clock_started_at = models.DateTimeField(null=True, blank=True)
    # When this seat's game time runs out if it stays silent; what the beat task looks for.
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    expired = models.BooleanField(default=False)  # game time ran out (others may !eject it)
    ejected_at = models.DateTimeField(null=True, blank=True)
    ejected_by = models.CharField(max_length=150, blank=True, default="")
    archived = models.BooleanField(default=False)  # hidden from this player's own list (!archive)
    team = models.CharField(max_length=6, blank=True, default="")  # "blue" / "orange" in team play, else ""
    # Computer players (docs/computer-players.md): the strength of the computer playing this seat ("" for a
    # person), and `autopilot`: a Normal computer plays a person's seat whose time ran out (timeout policy
    # "computer") until that person sends a program again.
    computer = models.CharField(max_length=6, blank=True, default="")
    autopilot = models.BooleanField(default=False)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_seat_per_number"),
            models.UniqueConstraint(fields=["game", "user"], name="one_seat_per_user"),
        ]

    def __str__(self) -> str:
        return f"Seat {self.number} of game {self.game_id} ({self.user})"

    @property
    def bot_id(self) -> str:
        return str(self.number)


class ChatMessage(models.Model):
    """A line of a game's chat, stored as typed (plain text, escaped wherever it is shown)."""

    MAX_LENGTH = 500

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    seat_number = models.PositiveSmallIntegerField(null=True, blank=True)
    text = models.CharField(max_length=MAX_LENGTH)
    system = models.BooleanField(default=False)  # written by the site (an ejection, a timer), not a person
    to_all = models.BooleanField(default=True)  # "@all"; team chat comes with team play
    # Team chat (003 "Chat Commands"): the team it went to, "" for everyone. Only that team ever sees it.
    team = models.CharField(max_length=6, blank=True, default="")
    # A team line's readers: the team's players when it was said. A player moved to the other team, or who joins
    # the team later, never reads what was said in it without them (issue 33 item 13; docs/modes.md).
    readers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="team_chat_read")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"Chat {self.pk} in game {self.game_id}"


class Hand(models.Model):
    """The chips dealt to a seat for a turn. Only ever shown to that seat's user."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="hands")
    turn = models.PositiveIntegerField()
    chips = models.JSONField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["seat", "turn"], name="one_hand_per_seat_turn")]

    def __str__(self) -> str:
        return f"Hand of seat {self.seat_id} for turn {self.turn}"


class Program(models.Model):
    """A seat's program for a turn; hidden from everyone else until the turn resolves."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="programs")
    turn = models.PositiveIntegerField()
    chips = models.JSONField()
    reboot = models.BooleanField(default=False)
    # The turn's bot module action (docs/formats.md "Bot modules"), sent with the program; null for none.
    action = models.JSONField(null=True, blank=True)
    submitted_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["seat", "turn"], name="one_program_per_seat_turn")]

    def __str__(self) -> str:
        return f"Program of seat {self.seat_id} for turn {self.turn}"


class Draft(models.Model):
    """A seat's program as it lies, not compiled (RAMbots: docs/game-kinds.md "Drafts"): kept as the player
    arranges it, shown to them alone, and run as it lies when Speedbots ends the round without them."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="drafts")
    turn = models.PositiveIntegerField()
    program = models.JSONField(default=list)
    saved_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["seat", "turn"], name="one_draft_per_seat_turn")]

    def __str__(self) -> str:
        return f"Draft of seat {self.seat_id} for turn {self.turn}"


class Scan(models.Model):
    """A Scanner's look at the opponents' programs (003 "Scanner"), for its owner alone: never in an event, the
    game group, a turn record or a replay. One row per seat and turn, replaced by each rescan."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="scans")
    turn = models.PositiveIntegerField()
    programs = models.JSONField()  # {bot id: sorted chips} of the opponents' programs submitted by then
    scanned_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["seat", "turn"], name="one_scan_per_seat_turn")]

    def __str__(self) -> str:
        return f"Scan of seat {self.seat_id} for turn {self.turn}"


class Turn(models.Model):
    """A resolved turn: its inputs (state before, programs, seed) and its outputs (events, state after)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="turns")
    number = models.PositiveIntegerField()
    seed = models.BigIntegerField()
    state_before = models.JSONField()
    programs = models.JSONField()
    reboots = models.JSONField(default=list)  # bot ids whose players asked to reboot with this program
    actions = models.JSONField(default=dict)  # {bot id: module action} given with the programs
    hands = models.JSONField(default=dict)  # {bot id: dealt chips}, an input of resolve_turn with modules
    events = models.JSONField()
    state_after = models.JSONField()
    resolved_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="one_resolution_per_turn")]

    def __str__(self) -> str:
        return f"Turn {self.number} of game {self.game_id}"


class GameEvent(models.Model):
    """The game's public event stream; `version` numbers it 1, 2, 3... per game, with no gaps."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    version = models.PositiveIntegerField()
    kind = models.CharField(max_length=32)
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["version"]
        constraints = [models.UniqueConstraint(fields=["game", "version"], name="one_event_per_version")]

    def __str__(self) -> str:
        return f"Event {self.version} ({self.kind}) of game {self.game_id}"


class Notice(models.Model):
    """A notice kept for a player's bell (games/services/notices.py, docs/site.md "Notices"): what happened, in
    words, where to go, and its source ({"game": id}, {"tournament": id, "round": n, "table": n}, {"challenge": id}).
    Only ever shown to its user."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=40)
    text = models.CharField(max_length=300)
    link = models.CharField(max_length=300, blank=True, default="")
    source = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["user", "read_at"], name="notice_user_unread")]

    def __str__(self) -> str:
        return f"Notice {self.kind} to {self.user_id}"


class AccountEvent(models.Model):
    """One line of an account's Bot API event stream (docs/bot-api.md "GET /api/bot/events/"): a challenge sent
    or answered, an invitation, a game that started or finished. `number` counts them 1, 2, 3... per account,
    with no gaps (assigned with the account's row locked), so that a client resumes from the last it read.
    Only ever shown to its account."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="account_events")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=32)
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["user", "number"]
        constraints = [models.UniqueConstraint(fields=["user", "number"], name="one_account_event_per_number")]

    def __str__(self) -> str:
        return f"Account event {self.number} ({self.kind}) of {self.user_id}"


class DirectChallenge(models.Model):
    """A direct challenge from one account to another to play a game with given settings (issue 41,
    docs/bot-api.md "Challenges"): the challenged accepts (the game is made and started, both seated) or
    declines; the challenger may cancel it before. Never a Pyramid challenge (roboracer.pyramid), whose name
    it does not share."""

    class Status(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        CANCELLED = "cancelled"

    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent")
    challenged = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                   related_name="challenges_received")
    # The game's settings as POST /api/games/ takes them, checked when the challenge was sent: kind, course,
    # lives, timers, timeout policy, modules, ruleset, options, rated, visibility. Two seats, no teams.
    settings = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    reason = models.CharField(max_length=200, blank=True, default="")  # the challenged's words when declining
    game = models.OneToOneField(Game, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="direct_challenge")
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["challenged", "status"], name="challenge_to_status"),
                   models.Index(fields=["challenger", "status"], name="challenge_from_status")]

    def __str__(self) -> str:
        return f"Challenge {self.pk} from {self.challenger_id} to {self.challenged_id} ({self.status})"
