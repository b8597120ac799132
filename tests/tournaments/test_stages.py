"""Running a category's stages: draws of every kind, advancing, shoot-outs, boards and times."""

from datetime import UTC, datetime, timedelta

import pytest
from django.core.exceptions import ValidationError

from scoring.engine import round_data
from scoring.progression.services import (
    CutLineTieError,
    advance,
    advance_knockout,
    draw_next_swiss_round,
    record_shootout,
    unfinished_matches,
)
from scoring.results.knockout import bracket_rounds
from scoring.results.pools import pool_tables
from scoring.results.services import record_game
from scoring.results.shootouts import ties_awaiting_shootout
from scoring.standings.selectors import stage_standings
from tests.factories import CategoryFactory, EntryFactory, PlayerFactory, TournamentFactory
from tournaments import formats
from tournaments.actions import Refused
from tournaments.models import Board, Entry, Game, Match, Stage, Team
from tournaments.services.draws import (
    SwissLine,
    assign_boards,
    draw_knockout,
    draw_stage,
    draw_swiss_round,
    entry_clubs,
    place_round,
)
from tournaments.services.schedule import schedule_stage

pytestmark = pytest.mark.django_db


# --- helpers ---------------------------------------------------------------------------------


def field(size, *, boards=8, clubs=None, out_of_service=()):
    """A tournament with ``boards`` boards and a singles category of ``size`` entries."""
    tournament = TournamentFactory()
    Board.objects.bulk_create(
        Board(tournament=tournament, number=n, in_service=n not in out_of_service)
        for n in range(1, boards + 1)
    )
    category = CategoryFactory(tournament=tournament)
    entries = [
        EntryFactory(
            category=category,
            player__club=clubs[i] if clubs else f"Club {i}",
            player__last_name=f"Player{i:02d}",
        )
        for i in range(size)
    ]
    return category, entries


def spread(total):
    """``total`` 20s over four rounds, at most 8 a round (singles)."""
    per_round = []
    for _ in range(4):
        per_round.append(min(8, total))
        total -= per_round[-1]
    return per_round


def record(game, winner, twenties=(0, 0), *, fifth=None):
    """A game won by ``winner`` ("a", "b") every round, or tied 1-1 every round (None); a
    ``fifth`` round winner for a tied playoff game."""
    points = {"a": (2, 0), "b": (0, 2), None: (1, 1)}[winner]
    ta, tb = spread(twenties[0]), spread(twenties[1])
    rounds = [round_data(points=points, twenties=(ta[i], tb[i])) for i in range(4)]
    if fifth:
        rounds.append(round_data(points={"a": (2, 0), "b": (0, 2)}[fifth]))
    record_game(game, rounds)


def play_stage(stage, strength):
    """Play every drawn game: the stronger entry wins every round; 20s by strength, so that no
    two entries end level on 20s."""
    for match in Match.objects.filter(stage=stage, entry_b__isnull=False):
        a, b = strength[match.entry_a_id], strength[match.entry_b_id]
        for game in match.games.filter(rounds__isnull=True):
            record(game, "a" if a > b else "b", (a, b))
            if match.best_of > 1 and game.number * 2 > match.best_of:
                break


def game(match, number):
    return Game.objects.get(match=match, number=number)


# --- the 16-player event ---------------------------------------------------------------------


def test_sixteen_players_preliminary_then_best_of_three_knockout_with_third_place():
    """WCC: preliminary rounds, then the top 4 in semifinals and a final played best 2 of 3,
    with a match for 3rd and 4th."""
    category, entries = field(16)
    strength = {e.id: 1 + i for i, e in enumerate(entries)}
    prelim = Stage.objects.create(
        category=category,
        name="Preliminary",
        kind="preliminary",
        order=1,
        games_per_entry=4,
        advance_count=4,
        seed=7,
    )
    playoff = Stage.objects.create(
        category=category, name="Playoff", kind="knockout", order=2, best_of=3
    )
    matches = draw_stage(prelim)
    assert len(matches) == 16 * 4 // 2
    with pytest.raises(Refused, match="Already drawn"):
        draw_stage(prelim)
    with pytest.raises(Refused, match="Not finished: 32 matches"):
        advance(prelim, third_place=True)

    play_stage(prelim, strength)
    assert unfinished_matches(prelim) == []
    top = [line.entry for line in stage_standings(prelim).lines[:4]]
    assert advance(prelim, third_place=True) == playoff
    playoff.refresh_from_db()  # advance saved the third-place choice on its own copy

    semis = {m.bracket_slot: m for m in Match.objects.filter(stage=playoff)}
    assert set(semis) == {"SF1", "SF2"}
    assert {semis["SF1"].entry_a, semis["SF1"].entry_b} == {top[0], top[3]}
    assert {semis["SF2"].entry_a, semis["SF2"].entry_b} == {top[1], top[2]}
    for match in semis.values():
        assert match.best_of == 3 and match.round_of_play == 1
        games = list(match.games.order_by("number"))
        assert [g.number for g in games] == [1, 2, 3]
        assert all(g.is_playoff for g in games)
    with pytest.raises(Refused, match="already has its entries"):
        advance(prelim)

    sf1, sf2 = semis["SF1"], semis["SF2"]
    record(game(sf1, 1), "a")
    record(game(sf1, 2), "a")  # 2-0: game 3 is not needed
    assert advance_knockout(playoff) == []  # the other semifinal is still going on
    record(game(sf2, 1), "b")
    record(game(sf2, 2), "a")
    record(game(sf2, 3), None)  # tied after 4 rounds: a playoff game is not over
    assert advance_knockout(playoff) == []
    record(game(sf2, 3), None, fifth="b")  # WCC: the 5th round decides it
    opened = {m.bracket_slot: m for m in advance_knockout(playoff)}
    assert set(opened) == {"F", "3P"}
    final, third = opened["F"], opened["3P"]
    assert {final.entry_a, final.entry_b} == {sf1.entry_a, sf2.entry_b}
    assert {third.entry_a, third.entry_b} == {sf1.entry_b, sf2.entry_a}
    assert final.round_of_play == third.round_of_play == 2
    assert final.board_id != third.board_id
    assert advance_knockout(playoff) == []  # nothing new: no duplicates

    record(game(final, 1), "b")
    record(game(final, 2), "a")
    record(game(final, 3), "a")
    record(game(third, 1), "a")
    record(game(third, 2), "a")
    assert unfinished_matches(playoff) == []
    champion = [
        side.name
        for rnd in bracket_rounds(playoff)
        for m in rnd.matches
        if m.id == "F"
        for side in (m.a, m.b)
        if side.winner
    ]
    assert champion == [final.entry_a.name]
    with pytest.raises(Refused, match="knockout"):
        advance(playoff)


def test_wcc_sixteen_into_two_pools_of_eight_then_crossover_semifinals():
    """WCC: the top 16 play two round-robin pools of 8 (snake seeding, club mates apart), then
    the semifinals cross over: 1A v 2B and 1B v 2A."""
    clubs = [f"Club {i // 2}" for i in range(20)]  # club mates next to each other in strength
    category, entries = field(20, clubs=clubs)
    strength = {e.id: 1 + i for i, e in enumerate(entries)}
    prelim = Stage.objects.create(
        category=category,
        name="Preliminary",
        kind="preliminary",
        order=1,
        games_per_entry=4,
        advance_count=16,
        seed=3,
    )
    pools_stage = Stage.objects.create(
        category=category,
        name="Championship pools",
        kind="round-robin",
        order=2,
        advance_count=4,
    )
    playoff = Stage.objects.create(
        category=category, name="Semifinals", kind="knockout", order=3, best_of=3
    )
    draw_stage(prelim)
    play_stage(prelim, strength)
    advance(prelim, pool_count=2)

    tables = pool_tables(pools_stage)
    assert [t.pool.name for t in tables] == ["A", "B"]
    assert [len(t.entries) for t in tables] == [8, 8]
    club_of = {str(e.id): e.player.club for t in tables for e in t.entries}
    assert formats.club_conflicts([[str(e.id) for e in t.entries] for t in tables], club_of) == 0
    matches = list(Match.objects.filter(stage=pools_stage))
    assert len(matches) == 2 * 28
    assert {m.round_of_play for m in matches} == set(range(1, 8))
    for table in tables:
        ids = {e.id for e in table.entries}
        pool_matches = [m for m in matches if m.pool_id == table.pool.id]
        assert len(pool_matches) == 28
        assert all({m.entry_a_id, m.entry_b_id} <= ids for m in pool_matches)
        pairs = {frozenset((m.entry_a_id, m.entry_b_id)) for m in pool_matches}
        assert len(pairs) == 28  # everyone meets everyone once

    play_stage(pools_stage, strength)
    tables = pool_tables(pools_stage)
    first_a, second_a = (line.entry for line in tables[0].lines[:2])
    first_b, second_b = (line.entry for line in tables[1].lines[:2])
    advance(pools_stage, third_place=True)
    semis = {m.bracket_slot: {m.entry_a, m.entry_b} for m in Match.objects.filter(stage=playoff)}
    assert semis == {"SF1": {first_a, second_b}, "SF2": {first_b, second_a}}
    labels = {
        side.name: side.seed
        for rnd in bracket_rounds(playoff)
        for m in rnd.matches
        for side in (m.a, m.b)
        if side.known
    }
    assert labels == {
        first_a.name: "1A",
        first_b.name: "1B",
        second_a.name: "2A",
        second_b.name: "2B",
    }


def test_round_robin_double_and_odd_pools():
    """A double round robin meets every pair twice, with the first shot swapped."""
    category, _ = field(5)
    stage = Stage.objects.create(category=category, name="RR", kind="round-robin", order=1)
    matches = draw_stage(stage, double=True)
    games = [m for m in matches if m.entry_b_id]
    byes = [m for m in matches if not m.entry_b_id]
    assert len(games) == 2 * 10 and len(byes) == 10  # 5 entries: one sits out each round
    ordered = {(m.entry_a_id, m.entry_b_id) for m in games}
    assert all((b, a) in ordered for a, b in ordered)


# --- Swiss -----------------------------------------------------------------------------------


def test_swiss_never_pairs_a_rematch_and_draws_round_by_round():
    category, entries = field(9, boards=4)
    strength = {e.id: 1 + (i * 7) % 9 for i, e in enumerate(entries)}
    stage = Stage.objects.create(
        category=category, name="Swiss", kind="swiss", order=1, games_per_entry=5
    )
    draw_stage(stage)
    with pytest.raises(Refused, match="Round 1 is not finished"):
        draw_next_swiss_round(stage)
    for number in range(2, 6):
        play_stage(stage, strength)
        created = draw_next_swiss_round(stage)
        assert {m.round_of_play for m in created} == {number}
    play_stage(stage, strength)
    with pytest.raises(Refused, match="All 5 rounds are drawn"):
        draw_next_swiss_round(stage)

    matches = list(Match.objects.filter(stage=stage))
    pairs = [frozenset((m.entry_a_id, m.entry_b_id)) for m in matches if m.entry_b_id]
    assert len(pairs) == len(set(pairs)) == 5 * 4
    byes = [m.entry_a_id for m in matches if not m.entry_b_id]
    assert len(byes) == len(set(byes)) == 5  # one bye a round, never twice for anyone
    lines = stage_standings(stage).lines
    assert all(line.games == 5 for line in lines)  # the bye counts as a game
    # Swiss pairs by score: after round 1, each winner meets a winner where one is free.
    assert unfinished_matches(stage) == []


def test_a_swiss_round_is_paired_from_the_standings_given_as_plain_data():
    """The draw takes standings as data (no results are read by it): entries level on points
    meet, here the two leaders of the standings handed in."""
    category, _ = field(4)
    stage = Stage.objects.create(
        category=category, name="Swiss", kind="swiss", order=1, games_per_entry=2
    )
    first = draw_swiss_round(stage)
    assert {m.round_of_play for m in first} == {1}
    with pytest.raises(Refused, match="Round 2 is paired from the standings so far"):
        draw_swiss_round(stage)
    played = {frozenset((m.entry_a_id, m.entry_b_id)) for m in first}
    # A standings order in which the first-round opponents do not sit next to each other.
    order = [first[0].entry_a, first[1].entry_a, first[0].entry_b, first[1].entry_b]
    standings = [
        SwissLine(str(e.id), rank, points)
        for rank, (e, points) in enumerate(zip(order, (2, 2, 0, 0), strict=True), start=1)
    ]
    second = draw_swiss_round(stage, standings)
    pairs = {frozenset((m.entry_a_id, m.entry_b_id)) for m in second}
    assert frozenset((order[0].id, order[1].id)) in pairs and not pairs & played


# --- byes and the cut line -------------------------------------------------------------------


def test_byes_are_credited_in_the_standings():
    """An odd field: whoever sits out is credited with the stage's bye points and 20s."""
    category, entries = field(5)
    stage = Stage.objects.create(
        category=category,
        name="Preliminary",
        kind="preliminary",
        order=1,
        games_per_entry=2,
        bye_points=8,
        bye_twenties=3,
    )
    draw_stage(stage, method="rotation")
    for match in Match.objects.filter(stage=stage, entry_b__isnull=False):
        record(match.games.get(), None)  # every round tied: 4 points each, no 20s
    byes = set(
        Match.objects.filter(stage=stage, entry_b__isnull=True).values_list("entry_a_id", flat=True)
    )
    assert len(byes) == 2  # one bye a round, nobody twice
    lines = stage_standings(stage).lines
    assert all(line.games == 2 for line in lines)
    by_entry = {line.entry.id: line for line in lines}
    for entry in entries:
        line = by_entry[entry.id]
        sat_out = Match.objects.filter(stage=stage, entry_a=entry, entry_b__isnull=True).count()
        assert line.points == 4 * (2 - sat_out) + 8 * sat_out
        assert line.twenties == 3 * sat_out
    assert [line.rank for line in lines] == sorted(line.rank for line in lines)
    assert lines[0].rank == 1


def test_a_tie_on_the_cut_line_creates_a_shootout_stage_and_blocks_advancing():
    """WCC: "If there still is a tie, a Shoot-Out will be conducted"; "Top scorer(s) after all
    shots are taken will advance. If still tied, repeat Shoot-out from the beginning"."""
    category, entries = field(6)
    prelim = Stage.objects.create(
        category=category,
        name="Preliminary",
        kind="preliminary",
        order=1,
        games_per_entry=1,
        advance_count=2,
    )
    final = Stage.objects.create(category=category, name="Final", kind="knockout", order=2)
    draw_stage(prelim, method="rotation")
    for match in Match.objects.filter(stage=prelim):
        record(match.games.get(), None, (2, 2))  # everybody level on points and 20s

    with pytest.raises(CutLineTieError, match="tie sits on the cut line") as exc:
        advance(prelim)
    shootout = exc.value.shootout_stage
    assert shootout.kind == Stage.Kind.SHOOTOUT and shootout.order == 2
    final.refresh_from_db()
    assert final.order == 3
    assert set(shootout.pools.get().entries.all()) == set(entries)
    assert exc.value.ties[0].places == 2
    with pytest.raises(CutLineTieError):
        advance(prelim)
    assert Stage.objects.filter(category=category, kind="shoot-out").count() == 1
    assert not Match.objects.filter(stage=final).exists()

    with pytest.raises(ValidationError, match="not one group still tied"):
        record_shootout(shootout, {entries[0]: 5, entries[1]: 4})
    with pytest.raises(ValidationError, match="0 to 12"):
        record_shootout(shootout, {e: 13 for e in entries})
    made = dict(zip(entries, [10, 10, 10, 5, 4, 3], strict=True))
    record_shootout(shootout, made)  # three still tied for two places
    with pytest.raises(CutLineTieError, match="tied on places 1 to 3, of whom 2 go on"):
        advance(shootout)
    assert [set(g) for g in ties_awaiting_shootout(prelim)] == [set(entries[:3])]
    record_shootout(shootout, {entries[0]: 9, entries[1]: 8, entries[2]: 2})

    assert advance(shootout) == final
    match = Match.objects.get(stage=final)
    assert (match.entry_a, match.entry_b) == (entries[0], entries[1])
    assert match.bracket_slot == "F"


def test_a_tie_among_qualifiers_is_settled_before_seeding_a_knockout():
    """Seeds decide who meets whom (1 v 4, 2 v 3), so entries still tied for places inside the
    cut shoot out too, as well as those tied across it."""
    category, entries = field(6)
    prelim = Stage.objects.create(
        category=category,
        name="Preliminary",
        kind="preliminary",
        order=1,
        games_per_entry=1,
        advance_count=4,
    )
    playoff = Stage.objects.create(category=category, name="KO", kind="knockout", order=2)
    draw_stage(prelim, method="rotation")
    winners = set()
    for match in Match.objects.filter(stage=prelim):
        record(match.games.get(), "a", (2, 0))
        winners.add(match.entry_a_id)
    with pytest.raises(CutLineTieError) as exc:
        advance(prelim)
    message = str(exc.value)
    assert "cut line" in message and "seeding of KO" in message and "places 1 to 3" in message
    assert sorted((t.seeding, len(t.entries)) for t in exc.value.ties) == [(False, 3), (True, 3)]
    losers = [e for e in entries if e.id not in winners]
    winners = [e for e in entries if e.id in winners]
    record_shootout(prelim, dict(zip(winners, [9, 7, 5], strict=True)))
    record_shootout(prelim, dict(zip(losers, [6, 4, 2], strict=True)))
    advance(prelim)
    semis = {m.bracket_slot: {m.entry_a, m.entry_b} for m in Match.objects.filter(stage=playoff)}
    assert semis == {"SF1": {winners[0], losers[0]}, "SF2": {winners[1], winners[2]}}


def test_advance_refuses_clear_cases():
    category, entries = field(4)
    only = Stage.objects.create(
        category=category, name="Only", kind="preliminary", order=1, games_per_entry=1
    )
    with pytest.raises(Refused, match="last stage"):
        advance(only)
    Stage.objects.create(category=category, name="Final", kind="knockout", order=2)
    with pytest.raises(Refused, match="Set how many entries advance"):
        advance(only)
    only.advance_count = 2
    only.save()
    with pytest.raises(Refused, match="Not drawn yet"):
        advance(only)
    shootout = Stage(category=category, name="S", kind="shoot-out", order=9)
    with pytest.raises(Refused, match="not drawn"):
        draw_stage(shootout)
    knockout = Stage.objects.get(kind="knockout", category=category)
    with pytest.raises(Refused, match="third-place match needs at least four"):
        draw_knockout(knockout, entries[:3], third_place=True)
    assert not knockout.pools.exists()


def test_knockout_byes_for_the_top_seeds():
    """Six entries: seeds 1 and 2 go straight to the semifinals."""
    category, entries = field(6)
    stage = Stage.objects.create(category=category, name="KO", kind="knockout", order=1)
    opened = draw_knockout(stage, entries)
    assert {m.bracket_slot for m in opened} == {"QF2", "QF4"}
    assert {frozenset((m.entry_a, m.entry_b)) for m in opened} == {
        frozenset((entries[3], entries[4])),
        frozenset((entries[2], entries[5])),
    }
    for match in opened:
        record(match.games.get(), "b")
    semis = {m.bracket_slot: m for m in advance_knockout(stage)}
    assert {semis["SF1"].entry_a, semis["SF1"].entry_b} == {entries[0], entries[4]}
    assert {semis["SF2"].entry_a, semis["SF2"].entry_b} == {entries[1], entries[5]}


# --- boards and times ------------------------------------------------------------------------


def board_repeats(stage):
    rounds = {}
    for m in Match.objects.filter(stage=stage).select_related("board"):
        rounds.setdefault(m.round_of_play, []).append(
            formats.Pairing(
                str(m.entry_a_id),
                str(m.entry_b_id) if m.entry_b_id else None,
                m.board.number if m.board_id else None,
            )
        )
    return formats.board_repeats([rounds[r] for r in sorted(rounds)])


@pytest.mark.parametrize(("size", "boards"), [(8, 6), (4, 6), (12, 9)])
def test_no_player_on_the_same_board_in_consecutive_rounds(size, boards):
    category, entries = field(size, boards=boards, out_of_service=(2,))
    strength = {e.id: i for i, e in enumerate(entries)}
    stage = Stage.objects.create(
        category=category, name="Swiss", kind="swiss", order=1, games_per_entry=3
    )
    draw_stage(stage)
    for _ in range(2):
        play_stage(stage, strength)
        draw_next_swiss_round(stage)
    assert board_repeats(stage) == []
    used = set(Match.objects.filter(stage=stage).values_list("board__number", flat=True))
    assert 2 not in used and None not in used

    Board.objects.filter(tournament=category.tournament, number=3).update(in_service=False)
    assign_boards(stage, 3)
    assert board_repeats(stage) == []
    assert not Match.objects.filter(stage=stage, round_of_play=3, board__number=3).exists()
    before = list(Match.objects.filter(stage=stage, round_of_play=3).values_list("id", "board"))
    assign_boards(stage, 3)
    assert list(Match.objects.filter(stage=stage, round_of_play=3).values_list("id", "board")) == (
        before
    )


def test_schedule_uses_the_game_time_limit_and_time_slots():
    """Three games on two boards: a round takes two time slots of the game time limit."""
    category, entries = field(6, boards=2)
    category.tournament.game_minutes = 30
    category.tournament.save()
    stage = Stage.objects.create(category=category, name="RR", kind="round-robin", order=1)
    draw_stage(stage)
    start = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    schedule_stage(stage, start, break_minutes=5)
    matches = list(Match.objects.filter(stage=stage).select_related("board"))
    round_one = sorted(m.starts_at for m in matches if m.round_of_play == 1)
    assert round_one == [start, start, start + timedelta(minutes=35)]
    assert min(m.starts_at for m in matches if m.round_of_play == 2) == start + timedelta(
        minutes=70
    )
    for board in (1, 2):
        times = [m.starts_at for m in matches if m.board.number == board]
        assert len(times) == len(set(times))  # a board holds one game at a time

    knockout = Stage.objects.create(
        category=category, name="KO", kind="knockout", order=2, best_of=3
    )
    draw_knockout(knockout, entries[:4])
    schedule_stage(knockout, start, 20)
    assert {m.starts_at for m in Match.objects.filter(stage=knockout)} == {start}
    schedule_stage(knockout, start, 20, first_round=1)
    with pytest.raises(Refused, match="No matches from round 2"):
        schedule_stage(knockout, start, first_round=2)


def test_place_round_in_a_small_room_and_around_busy_boards():
    """Two games on four boards after a round on boards 1 and 2: both must move; a busy board
    (an unfinished match on it) is never given out."""
    boards = [Board(number=n) for n in (1, 2, 3, 4)]
    last = {"a": 1, "b": 1, "c": 2, "d": 2}
    games = [formats.Pairing("a", "c"), formats.Pairing("b", "d")]
    assert {p.board for p in place_round(games, last, boards)} == {3, 4}
    placed = place_round(games, last, boards, busy={3})
    assert all(p.board in (1, 2, 4) for p in placed)
    assert not any(p.board == 3 for p in placed)
    assert [p.board for p in place_round(games, {}, [])] == [None, None]


def test_a_doubles_team_counts_for_its_club_only_when_both_partners_share_it():
    tournament = TournamentFactory()
    category = CategoryFactory(tournament=tournament, kind="doubles", discs_per_player=6)
    same = [PlayerFactory(tournament=tournament, club="Tavistock") for _ in range(2)]
    mixed = [PlayerFactory(tournament=tournament, club=c) for c in ("Tavistock", "Kitchener")]
    entries = [
        Entry.objects.create(
            category=category,
            team=Team.objects.create(tournament=tournament, player_one=one, player_two=two),
        )
        for one, two in (same, mixed)
    ]
    entries = list(Entry.objects.filter(pk__in=[e.pk for e in entries]).order_by("pk"))
    assert entry_clubs(entries) == {str(entries[0].id): "Tavistock", str(entries[1].id): None}
