"""A preliminary in progress for the odds' tests: drawn, cut to a knockout, some games played."""

from __future__ import annotations

from tests.tournaments.test_stages import field, record
from tournaments.models import Game, Match, Stage
from tournaments.services.draws import draw_stage


def preliminary(size: int = 8, *, advance: int | None = 4, cut_to: str | None = "knockout"):
    """A drawn preliminary of ``size`` entries, 3 games each, cutting to ``advance`` entries of
    a later stage (none when ``cut_to`` is None); no game played yet."""
    category, entries = field(size, boards=size // 2 + 1)
    stage = Stage.objects.create(
        category=category,
        name="Preliminary",
        kind="preliminary",
        order=1,
        games_per_entry=3,
        advance_count=advance,
        seed=5,
    )
    if cut_to:
        Stage.objects.create(category=category, name="Final four", kind=cut_to, order=2)
    draw_stage(stage)
    return stage, entries


def games_to_play(stage: Stage) -> list[Game]:
    """The stage's games between two entries without a result, in the order of play."""
    return list(
        Game.objects.filter(
            match__stage=stage, match__entry_b__isnull=False, rounds__isnull=True
        ).order_by("match__round_of_play", "match_id")
    )


def play_round(stage: Stage, round_of_play: int) -> None:
    """Every game of one round of play: entry A wins every round, with two 20s to one."""
    for match in Match.objects.filter(
        stage=stage, round_of_play=round_of_play, entry_b__isnull=False
    ):
        record(match.games.get(), "a", (2, 1))
