"""Stored simulation work: the record of every simulated game (for replays and statistics), the
skill profile an entry plays with, match previews, auto-play runs and dry runs.

A game record holds every shot with every physics event, about 145 kB of JSON for a 4-round
singles game (64 shots); it is kept zlib-compressed (about 37 kB) in a binary column, and the
few figures the statistics need are copied into plain columns when the game is written, so the
pages never decompress hundreds of records.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from simulation.services.records import decompress_record


class Status(models.TextChoices):
    """Where a background job stands."""

    QUEUED = "queued", gettext_lazy("Queued")
    RUNNING = "running", gettext_lazy("Running")
    DONE = "done", gettext_lazy("Done")
    FAILED = "failed", gettext_lazy("Failed")


class SimulationUser(User):
    """The system accounts that enter simulated games through the scorecard workflow.

    They hold the referee (filling) and scoring-table (verifying) roles at the tournament like
    people do; a simulated opponent has no login, so a referee signs simulated rows with the
    opponent's ID and the initials SIM (``scoring.permissions.is_simulated_row``).
    """

    class Meta:
        proxy = True


class EntryProfile(models.Model):
    """The skill profile(s) an entry plays with in simulations: one per player (two for a
    doubles team), each a level name or ``{"name", "angle_sd", "speed_sd"}``. Without one, a
    profile is estimated from the entry's recorded 20s per game or taken from its category."""

    entry = models.OneToOneField(
        "tournaments.Entry", on_delete=models.CASCADE, related_name="sim_profile"
    )
    players = models.JSONField()
    label = models.CharField(max_length=100, blank=True)

    def __str__(self) -> str:
        return f"{self.entry}: {self.label or self.players}"


class SimulatedGame(models.Model):
    """A game played by the simulation: its full record (every shot and physics event, enough
    to replay it exactly) and the figures the statistics read. Side 0 of the record is the
    match's entry A."""

    game = models.OneToOneField(
        "tournaments.Game", on_delete=models.CASCADE, related_name="simulation"
    )
    record = models.BinaryField(help_text=gettext_lazy("zlib-compressed JSON game record"))
    raw_size = models.PositiveIntegerField(
        help_text=gettext_lazy("Size of the JSON record in bytes.")
    )
    seed = models.BigIntegerField()
    shots = models.PositiveIntegerField()
    rounds = models.PositiveSmallIntegerField()
    tied_rounds = models.PositiveSmallIntegerField()
    #: Rounds the buzzer ended early: the round in play when time ran out, if it left discs
    #: unshot, and the rounds not begun.
    rounds_cut_short = models.PositiveSmallIntegerField(default=0)
    #: Sides at the board: two, or three in a three-player game (whose side C has the ``_c``
    #: figures; they are 0 otherwise).
    sides = models.PositiveSmallIntegerField(default=2)
    twenties_a = models.PositiveSmallIntegerField()
    twenties_b = models.PositiveSmallIntegerField()
    twenties_c = models.PositiveSmallIntegerField(default=0)
    players_per_side = models.PositiveSmallIntegerField(default=1)
    #: Open-20 attempts (shots taken with no opponent disc in play) and those that ended as a
    #: 20, by side.
    open20_attempts_a = models.PositiveIntegerField()
    open20_attempts_b = models.PositiveIntegerField()
    open20_attempts_c = models.PositiveIntegerField(default=0)
    open20_made_a = models.PositiveIntegerField()
    open20_made_b = models.PositiveIntegerField()
    open20_made_c = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return _("Simulated %(game)s") % {"game": self.game}

    def record_json(self) -> dict[str, Any]:
        return decompress_record(self.record)


class MatchPreview(models.Model):
    """Many simulated games of a scheduled match, summed up as probabilities."""

    match = models.ForeignKey("tournaments.Match", on_delete=models.CASCADE, related_name="+")
    games = models.PositiveIntegerField(default=200)
    players = models.JSONField(
        help_text=gettext_lazy("Profiles per side: {'a': [...], 'b': [...]}")
    )
    seed = models.BigIntegerField(default=1)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    result = models.JSONField(null=True, blank=True)
    #: While the games come back, part by part: per part (its index), the games it played and
    #: entry A's wins, ties and losses among them, ``{"3": [25, 12, 2, 11]}``. Keyed by part, so
    #: a part delivered twice (a worker that died after playing it) counts once.
    parts = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return _("Preview of %(match)s (%(games)s games)") % {
            "match": self.match,
            "games": self.games,
        }

    @property
    def so_far(self) -> tuple[int, int, int, int]:
        """Games played so far, and entry A's wins, ties and losses among them."""
        games = win = tie = loss = 0
        for n, w, t, lost in self.parts.values():
            games, win, tie, loss = games + n, win + w, tie + t, loss + lost
        return games, win, tie, loss


class AutoPlay(models.Model):
    """Simulated play of a match, a round of play, a stage or the rest of a category, written
    through the scorecard services. Progress fields are read by the status pages; ``status``
    and ``in_flight`` change only through ``simulation.services.runs``."""

    class Scope(models.TextChoices):
        MATCH = "match", gettext_lazy("Match")
        ROUND = "round", gettext_lazy("Round of play")
        STAGE = "stage", gettext_lazy("Stage")
        CATEGORY = "category", gettext_lazy("Rest of the category")

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="+"
    )
    category = models.ForeignKey("tournaments.Category", on_delete=models.CASCADE, related_name="+")
    scope = models.CharField(max_length=10, choices=Scope.choices)
    stage = models.ForeignKey(
        "tournaments.Stage", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    round_of_play = models.PositiveSmallIntegerField(null=True, blank=True)
    match = models.ForeignKey(
        "tournaments.Match", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    players = models.JSONField(
        null=True,
        blank=True,
        help_text=gettext_lazy("Match scope: profiles per side overriding the entries'."),
    )
    seed = models.BigIntegerField(default=1)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    games_played = models.PositiveIntegerField(default=0)
    games_expected = models.PositiveIntegerField(default=0)
    shots = models.PositiveBigIntegerField(
        default=0,
        help_text=gettext_lazy(
            "Physics shots simulated: the games' shots, and the players' search where the records "
            "count it."
        ),
    )
    batches = models.PositiveIntegerField(default=0)
    #: The batches sent out to the workers and not written yet: ``{"id", "label", "matches"}``
    #: each (``simulation.services.runs``).
    in_flight = models.JSONField(default=list, blank=True)
    phase = models.CharField(max_length=200, blank=True)
    error = models.TextField(blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return _("Auto-play of %(scope)s (%(status)s)") % {
            "scope": self.get_scope_display().lower(),
            "status": self.get_status_display(),
        }

    @property
    def percent(self) -> int:
        if self.status == Status.DONE:
            return 100
        if not self.games_expected:
            return 0
        return min(99, round(100 * self.games_played / self.games_expected))


class DryRun(models.Model):
    """A whole event played by the simulation on a copy tournament, with what it tells the
    organizer: standings, bracket, how long it would take on the boards, statistics of play."""

    source = models.ForeignKey(
        "tournaments.Tournament",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="dry_runs",
        help_text=gettext_lazy("The tournament whose players and format are rehearsed, if any."),
    )
    source_category = models.ForeignKey(
        "tournaments.Category", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    copy = models.OneToOneField(
        "tournaments.Tournament",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="dry_run_copy",
    )
    run = models.OneToOneField(
        AutoPlay, null=True, blank=True, on_delete=models.SET_NULL, related_name="dry_run"
    )
    preset = models.CharField(max_length=40, blank=True)
    entries = models.PositiveIntegerField(default=0)
    boards = models.PositiveIntegerField(default=0)
    seed = models.BigIntegerField(default=1)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    phase = models.CharField(max_length=200, blank=True)
    error = models.TextField(blank=True)
    summary = models.JSONField(null=True, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return _("Dry run %(number)s (%(format)s)") % {
            "number": self.pk,
            "format": self.preset or _("own format"),
        }

    @property
    def wall_seconds(self) -> float | None:
        if self.started_at and self.finished_at:
            return (self.finished_at - self.started_at).total_seconds()
        return None


class CutOdds(models.Model):
    """The live odds of a stage that cuts to a later one (a preliminary): each entry's chance of
    making the cut and of each place the event awards, the points it still needs, and the chance
    of a shoot-out, read from many finishes of the games still to play drawn from the outcome
    model (``simulation.outcomes``), not from the physics. Recomputed after each verified result;
    ``results_seen`` says how many official game results the figures stand on, so a page can say
    how fresh they are."""

    stage = models.OneToOneField("tournaments.Stage", on_delete=models.CASCADE, related_name="+")
    #: ``{"cut": 16, "places": [1, 2, 3], "entries": [{"entry": id, "cut": 0.64, "places": [...],
    #: "shootout": 0.05, "needs": {...}}, ...]}``; the shape is the odds service's.
    figures = models.JSONField(default=dict, blank=True)
    results_seen = models.PositiveIntegerField(default=0)
    finishes = models.PositiveIntegerField(default=0)
    seconds = models.FloatField(default=0.0)
    error = models.TextField(blank=True)
    computed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return _("Cut odds of %(stage)s") % {"stage": self.stage}


class FeaturedMatch(models.Model):
    """A match the organizer features on the stream: the overlay follows the queue, in
    ``position`` order, the first one not finished being on air."""

    class State(models.TextChoices):
        QUEUED = "queued", gettext_lazy("Queued")
        LIVE = "live", gettext_lazy("On air")
        FINISHED = "finished", gettext_lazy("Finished")

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="+"
    )
    match = models.OneToOneField("tournaments.Match", on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField(default=0)
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    added_at = models.DateTimeField(auto_now_add=True)
    #: Bumped on every change of this match's live score or state: the overlay's feed and stream
    #: send again when it moves.
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["tournament", "position", "id"]

    def __str__(self) -> str:
        return _("Featured: %(match)s") % {"match": self.match}


class LiveRound(models.Model):
    """One round of a featured match as the staff scorer entered it at the board, for the
    stream and the win chance. Not the official result: that stays the verified scorecard."""

    featured = models.ForeignKey(FeaturedMatch, on_delete=models.CASCADE, related_name="rounds")
    game_number = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    points_a = models.PositiveSmallIntegerField()
    points_b = models.PositiveSmallIntegerField()
    twenties_a = models.PositiveSmallIntegerField(default=0)
    twenties_b = models.PositiveSmallIntegerField(default=0)
    #: The side that shot last in this round ("a" or "b").
    hammer = models.CharField(max_length=1, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["featured", "game_number", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["featured", "game_number", "number"], name="live_round_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.featured} {self.game_number}.{self.number}"


class PlanningRun(models.Model):
    """A planning dry run: the real entry list, boards and time limits played many times over by
    the timing and outcome models, with each stage's finish-time distribution, the rounds the
    clock would cut and a side-by-side of the formats the organizer weighs."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="+"
    )
    #: What was asked: the formats to compare, boards, start and end of the day, repetitions.
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    phase = models.CharField(max_length=200, blank=True)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return _("Planning of %(tournament)s") % {"tournament": self.tournament}

    @property
    def percent(self) -> int:
        if self.status == Status.DONE:
            return 100
        if not self.total:
            return 0
        return min(99, round(100 * self.done / self.total))
