"""A Swiss stage ranks as Swiss events do: points, Buchholz (a bye as the entry itself), 20s."""

import pytest

from scoring.engine import round_data
from scoring.results.services import record_game
from scoring.standings.selectors import stage_standings
from tests.factories import EntryFactory, StageFactory
from tournaments.models import Game, Match, Stage

pytestmark = pytest.mark.django_db


def play(stage, round_of_play, a, b, pa, ta=0):
    """A 4-round game ending ``pa`` to ``8 - pa``, with ``ta`` 20s to ``a`` in round 1."""
    match = Match.objects.create(stage=stage, entry_a=a, entry_b=b, round_of_play=round_of_play)
    game = Game.objects.create(match=match, number=1)
    pb = 8 - pa
    points = [(2, 0)] * (pa // 2) + [(1, 1)] * (pa % 2) + [(0, 2)] * ((pb - pa % 2) // 2)
    record_game(
        game,
        [
            round_data(points=p, twenties=(ta, 0) if i == 0 else (0, 0))
            for i, p in enumerate(points)
        ],
    )


def swiss_with_byes(**stage_fields):
    """Five entries, two rounds; E sits out round 1 and D round 2 (a bye is worth 8 points).

    A, C, D and E end on 10 points. Buchholz: A met B (8) and C (10): 18; C met D (10) and
    A (10): 20; D met C (10) and, for its bye, itself (10): 20; E met B (8) and itself: 18.
    """
    stage = StageFactory(kind=Stage.Kind.SWISS, name="Swiss", games_per_entry=2, **stage_fields)
    a, b, c, d, e = (EntryFactory(category=stage.category) for _ in range(5))
    play(stage, 1, a, b, 6, ta=1)
    play(stage, 1, c, d, 6, ta=2)
    Match.objects.create(stage=stage, entry_a=e, entry_b=None, round_of_play=1)
    play(stage, 2, a, c, 4)
    play(stage, 2, e, b, 2, ta=3)
    Match.objects.create(stage=stage, entry_a=d, entry_b=None, round_of_play=2)
    return stage, {"A": a, "B": b, "C": c, "D": d, "E": e}


def order(stage, entries):
    names = {entry.id: name for name, entry in entries.items()}
    return [
        (names[line.entry.id], line.points, line.tiebreak) for line in stage_standings(stage).lines
    ]


def test_a_swiss_stage_with_byes_ranks_by_buchholz_then_twenties():
    stage, entries = swiss_with_byes()
    assert stage.chain == ["buchholz", "twenties", "shoot-out"]
    # Buchholz splits {C, D} (20) from {A, E} (18); the 20s settle each pair. Counting a bye
    # as nothing would have put A (18) above D (10) and E (8).
    assert order(stage, entries) == [
        ("C", 10, "twenties"),
        ("D", 10, "twenties"),
        ("E", 10, "twenties"),
        ("A", 10, "twenties"),
        ("B", 8, None),
    ]
    lines = stage_standings(stage).lines
    assert [line.games for line in lines] == [2, 2, 2, 2, 2]


def test_a_swiss_stage_can_name_its_own_chain():
    stage, entries = swiss_with_byes(tiebreak_chain=["twenties", "shoot-out"])
    assert [name for name, _, _ in order(stage, entries)] == ["E", "C", "A", "D", "B"]
