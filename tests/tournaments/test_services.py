"""Recording results and drawing a stage go through services that check everything first."""

import pytest
from django.core.exceptions import ValidationError

from scoring.engine import round_data
from scoring.results.services import record_game
from tests.factories import CategoryFactory, EntryFactory, GameFactory, StageFactory
from tournaments.actions import Refused
from tournaments.models import Board, Round
from tournaments.services.draws import draw_preliminary

pytestmark = pytest.mark.django_db


def test_points_follow_from_board_scores():
    """NCA 2a iv: the higher board score takes 2 points, a tie 1 each."""
    game = GameFactory()
    rounds = record_game(
        game,
        [
            round_data(score=(65, 40), twenties=(2, 1)),
            round_data(score=(30, 30)),
            round_data(score=(0, 45), twenties=(0, 1)),
            round_data(time_expired=True),
        ],
    )
    assert [(r.points_a, r.points_b) for r in rounds] == [(2, 0), (1, 1), (0, 2), (0, 0)]


def test_a_bad_round_names_game_and_round_and_keeps_what_was_saved():
    game = GameFactory()
    good = [round_data(points=(2, 0), twenties=(1, 0))] * 4
    record_game(game, good)
    bad = [*good[:2], round_data(points=(2, 0), twenties=(9, 0)), *good[3:]]
    with pytest.raises(ValidationError) as exc:
        record_game(game, bad)
    message = " ".join(exc.value.messages)
    assert "game 1" in message and "round 3" in message
    first, second = (entry.name for entry in game.match.entries)
    # Each figure beside its side, never a list whose order the reader must guess.
    assert f"20s (9 for {first}, 0 for {second})" in message
    assert "[" not in message
    assert exc.value.round == 3
    assert list(game.rounds.values_list("twenties_a", flat=True)) == [1, 1, 1, 1]


def test_too_many_rounds_refused_but_playoff_gets_a_fifth():
    """WCC: a championship game tied after 4 rounds plays a 5th round."""
    game = GameFactory()
    five = [round_data(points=(1, 1))] * 5
    with pytest.raises(ValidationError, match="round 5 is one too many"):
        record_game(game, five)
    game.is_playoff = True
    game.save()
    assert len(record_game(game, five)) == 5


def test_a_tied_fifth_round_in_a_playoff_gets_a_sixth_and_no_more():
    """WCC: "a winner has to be determined" — a tied 5th round is followed by a 6th."""
    game = GameFactory(is_playoff=True)
    six = [round_data(points=(1, 1))] * 5 + [round_data(points=(2, 0))]
    assert len(record_game(game, six)) == 6
    with pytest.raises(ValidationError, match="round 7 is one too many"):
        record_game(game, [*six, round_data(points=(2, 0))])
    assert game.rounds.count() == 6


def test_correction_updates_in_place_and_keeps_history():
    game = GameFactory()
    record_game(game, [round_data(points=(2, 0))] * 4)
    record_game(game, [round_data(points=(0, 2))] + [round_data(points=(2, 0))] * 3)
    first = Round.objects.get(game=game, number=1)
    versions = list(first.history.order_by("history_date").values_list("points_a", flat=True))
    assert versions == [2, 0]


def test_doubles_allow_twelve_twenties_singles_eight():
    """WCC: doubles shoot 6 discs each, so a side has 12 discs; singles 8."""
    doubles = CategoryFactory(kind="doubles", discs_per_player=6)
    game = GameFactory(match__stage__category=doubles)
    record_game(game, [round_data(points=(2, 0), twenties=(12, 0))])
    singles = GameFactory()
    with pytest.raises(ValidationError, match="only 8 discs"):
        record_game(singles, [round_data(points=(2, 0), twenties=(12, 0))])


def test_draw_preliminary_no_rematches_and_boards():
    """WCC preliminary: each game against a different opponent."""
    stage = StageFactory(games_per_entry=4)
    entries = [EntryFactory(category=stage.category) for _ in range(10)]
    Board.objects.bulk_create(
        Board(tournament=stage.category.tournament, number=n, in_service=n != 2)
        for n in range(1, 7)
    )
    matches = draw_preliminary(stage)
    pairs = [frozenset((m.entry_a_id, m.entry_b_id)) for m in matches]
    assert len(pairs) == len(set(pairs)) == 10 * 4 // 2
    for e in entries:
        assert sum(e.id in p for p in pairs) == 4
    assert all(m.board is not None and m.board.number != 2 for m in matches)
    with pytest.raises(Refused, match="Already drawn"):
        draw_preliminary(stage)


def test_draw_refuses_more_games_than_opponents():
    stage = StageFactory(games_per_entry=5)
    for _ in range(4):
        EntryFactory(category=stage.category)
    with pytest.raises(Refused, match="opponents"):
        draw_preliminary(stage)
    assert not stage.matches.exists()


def test_recording_the_same_result_again_writes_no_new_version():
    """Both players' cards confirm one result: the second recording changes nothing."""
    game = GameFactory()
    rounds = [round_data(points=(2, 0), twenties=(1, 0))] * 4
    record_game(game, rounds)
    record_game(game, rounds)
    first = Round.objects.get(game=game, number=1)
    assert first.history.count() == 1
