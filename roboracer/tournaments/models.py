"""Tournaments (docs/tournaments.md): entries, rounds, tables of seated entries, and the action log."""

from django.conf import settings
from django.db import models

from games import kinds
from games.models import Game
from roboracer.courses.models import Course

DAY = 24 * 3600
DEFAULT_POINTS = [10, 7, 5, 4, 3, 2, 1, 0]  # league points for places 1 to 8 (editable per tournament)


class Tournament(models.Model):
    class Format(models.TextChoices):
        HEATS = "heats"
        LEAGUE = "league"

    class Seeding(models.TextChoices):
        RANDOM = "random"
        RATING = "rating", "by rating"
        HAND = "hand", "by hand (the organiser's order)"

    class Status(models.TextChoices):
        REGISTRATION = "registration"
        RUNNING = "running"
        PAUSED = "paused"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    class ComputerFill(models.TextChoices):
        """Who fills a table's empty seats (docs/tournaments.md "Computer players at the tables"): nobody, or
        computer players of one strength (games.services.COMPUTER_STRENGTHS); those games are unrated."""
        OFF = "", "off"
        EASY = "easy", "Easy computer players"
        NORMAL = "normal", "Normal computer players"
        HARD = "hard", "Hard computer players"

    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="organised_tournaments")
    name = models.CharField(max_length=100)
    description = models.TextField(blank=True, default="", max_length=5000)
    # The kind of game the tables play (games.kinds); RAMbots has no courses, so its pool stays empty.
    kind = models.CharField(max_length=16, default="roboracer")
    courses = models.ManyToManyField(Course, related_name="tournaments")  # the pool: stable courses
    table_size = models.PositiveSmallIntegerField(default=4)
    lives = models.PositiveSmallIntegerField(default=3)
    modules = models.JSONField(default=list, blank=True)
    move_time = models.PositiveIntegerField(default=3 * DAY)
    game_time = models.PositiveIntegerField(default=15 * DAY)
    timeout_policy = models.CharField(max_length=8, choices=Game.TimeoutPolicy.choices, default=Game.TimeoutPolicy.EJECT)
    registration_opens = models.DateTimeField()
    registration_closes = models.DateTimeField(db_index=True)
    min_players = models.PositiveSmallIntegerField(default=2)
    format = models.CharField(max_length=8, choices=Format.choices, default=Format.HEATS)
    advance = models.PositiveSmallIntegerField(default=1, help_text="heats: the top k of each table go through")
    seeding = models.CharField(max_length=8, choices=Seeding.choices, default=Seeding.RANDOM)
    league_rounds = models.PositiveSmallIntegerField(default=3)
    points = models.JSONField(default=list, blank=True, help_text="league: points for place 1, 2, 3...")
    computer_fill = models.CharField(max_length=6, choices=ComputerFill.choices, blank=True, default="",
                                     help_text="computer players of this strength fill each table up to the table "
                                               "size (those games are unrated); empty: off")
    # Bot accounts (docs/bot-api.md) may register, and be invited as substitutes, only where the organiser allows.
    allow_bots = models.BooleanField(default=False, help_text="bot accounts may register")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTRATION, db_index=True)
    seed = models.BigIntegerField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Set by the beat sweep when one of this tournament's steps failed (docs/tournaments.md "When a step
    # fails"): the sweep then passes over it until staff clear both fields (the admin); the organiser and
    # staff see the reason on the organiser's page. Other tournaments advance meanwhile.
    stalled_at = models.DateTimeField(null=True, blank=True)
    stalled_reason = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        ordering = ["-registration_closes", "-pk"]

    def __str__(self) -> str:
        return self.name

    @property
    def kind_title(self) -> str:
        """The game its tables play, as pages name it: "RoboRacer", "RAMbots"."""
        return kinds.get(self.kind).title


class Entry(models.Model):
    """A player's registration. A player who leaves keeps the row (standings), with why and when."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries")
    registered_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    disqualified_at = models.DateTimeField(null=True, blank=True)
    replaced_by = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    eliminated_in = models.PositiveSmallIntegerField(null=True, blank=True)  # heats: the round they went out in
    # Why the organiser disqualified them, as they wrote it (shown to the player; "" when none was given).
    out_reason = models.CharField(max_length=200, blank=True, default="")
    # Seeding by hand (issue 38 item 7): 1 is the top seed; set by the organiser before the start, None until then.
    seed = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["registered_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_player")]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament}"

    @property
    def active(self) -> bool:
        return self.withdrawn_at is None and self.disqualified_at is None and self.eliminated_in is None


class Round(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running"
        FINISHED = "finished"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.RUNNING)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        # The exactly-once guard of round creation: a round number exists once per tournament.
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number")]

    def __str__(self) -> str:
        return f"Round {self.number} of {self.tournament}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournament_table")
    bye = models.BooleanField(default=False)  # a lone player: no game (table size 2, an odd count, no fill)
    finished = models.BooleanField(default=False)  # places recorded

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="one_table_per_number")]

    def __str__(self) -> str:
        return f"Table {self.number} of {self.round}"


class TableSeat(models.Model):
    """A player (an entry) at a table. The people take game seats 1 to n in this order; computer players
    filling the table (Tournament.computer_fill) take the game seats after them and have no TableSeat."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="table_seats")
    seat = models.PositiveSmallIntegerField()  # the game's seat number
    place = models.PositiveSmallIntegerField(null=True, blank=True)  # the place at the table, 1 to n, unique
    game_place = models.PositiveSmallIntegerField(null=True, blank=True)  # the engine's (may be shared)
    points = models.FloatField(default=0)
    ejected = models.BooleanField(default=False)  # ejected for time, or resigned

    class Meta:
        ordering = ["seat"]
        constraints = [models.UniqueConstraint(fields=["table", "seat"], name="one_table_seat_per_number")]

    def __str__(self) -> str:
        return f"Seat {self.seat} of {self.table}"


class Action(models.Model):
    """The log: what the site and the organiser did, shown on the tournament page."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="actions")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    kind = models.CharField(max_length=24)
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.kind}: {self.text}"


class Substitution(models.Model):
    """The organiser's invitation to a player to take an entry's seat (docs/tournaments.md "Replace").
    The seat changes hands only when the invitee accepts; until then the old player keeps it."""

    class Status(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        CANCELLED = "cancelled"  # by the organiser, or found no longer possible when the invitee accepted

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="substitutions")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="substitutions")  # the seat's entry
    invitee = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="tournament_invitations")
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        # One open invitation per seat's entry.
        constraints = [models.UniqueConstraint(fields=["entry"], condition=models.Q(status="pending"),
                                               name="one_pending_substitution_per_entry")]

    def __str__(self) -> str:
        return f"{self.invitee} for {self.entry} ({self.status})"
