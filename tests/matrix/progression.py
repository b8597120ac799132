"""The steps from one stage to the next (``scoring.progression.actions``): advancing, undoing an
advance and pairing a Swiss round are the organizers' (whether they play or not); a shoot-out is
recorded by a referee, the head referee or the scoring table, those who play included while
nobody they play for shoots in it (that refusal, once the entries are named, is the service's:
``tests/scoring/test_shootouts.py``)."""

from __future__ import annotations

from tests.factories import StageFactory

from . import Row

ORGANIZERS = frozenset({"organizer", "co-organizer", "organizer-who-plays"})
RECORDERS = frozenset(
    {
        "head-referee",
        "referee",
        "scoring-table",
        "head-referee-who-plays",
        "referee-who-plays",
        "scoring-table-who-plays",
        "head-referee-opponent",
        "owner-link-referee",
    }
)


def _final_after(stage, **fields):
    from tournaments.models import Stage

    return StageFactory(
        category=stage.category,
        name="Final",
        kind=Stage.Kind.KNOCKOUT,
        order=stage.order + 1,
        **fields,
    )


def advancing(world):
    """The event's preliminary, drawn, with a final after it that two entries go on to."""
    world.stage.advance_count = 2
    world.stage.save()
    _final_after(world.stage)
    return world.stage


def advanced(world):
    """The preliminary closed: its final holds the entries it sent on."""
    from tests.test_role_matrix import _close_stage

    _close_stage(world)
    return world.stage


def swiss_after_round_one(world):
    """A Swiss of three rounds of its own category, its first round drawn."""
    from tests.test_role_matrix import _event_day_category
    from tournaments.models import Stage
    from tournaments.services.draws import draw_stage

    category, _ = _event_day_category(world, "Swiss singles", 4)
    stage = StageFactory(
        category=category, name="Swiss", kind=Stage.Kind.SWISS, games_per_entry=3, order=1
    )
    draw_stage(stage)
    return stage


def tied(world):
    """A one-game preliminary of four entries, every game level: all four share first place
    and two go on to the final, a tie across the cut that a shoot-out settles."""
    from scoring.engine import round_data
    from scoring.results.services import record_game
    from tests.test_role_matrix import _event_day_category
    from tournaments.models import Match
    from tournaments.services.draws import draw_stage

    category, _ = _event_day_category(world, "Tied singles", 4)
    stage = StageFactory(
        category=category, name="Prelim", games_per_entry=1, order=1, advance_count=2
    )
    _final_after(stage)
    draw_stage(stage, method="rotation")
    for match in Match.objects.filter(stage=stage, entry_b__isnull=False):
        record_game(match.games.get(), [round_data(points=(1, 1), twenties=(1, 1))] * 4)
    return stage


ROWS = {
    "scoring.advance": Row(ORGANIZERS, advancing),
    "scoring.undo_advance": Row(ORGANIZERS, advanced),
    "scoring.draw_next_round": Row(ORGANIZERS, swiss_after_round_one),
    "scoring.record_shootout": Row(RECORDERS, tied),
}
