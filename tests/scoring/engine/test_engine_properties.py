"""Properties of the standings that hold for any games: checked on generated stages."""

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import Game, Round, Shootout, compute_standings
from scoring.engine.io import parse_standings_input, standings_to_dict

NAMES = ["ANNA", "BEN", "CARL", "DAN", "EVE", "FAY"]
OTHER_NAMES = ["zed", "yan", "xia", "wu", "vik", "ula"]  # sort the other way round
CHAINS = [
    {"method": "preliminary"},
    {"method": "round-robin"},
    {"chain": ["twenties", "head-to-head", "shoot-out"]},
    {"chain": ["head-to-head"]},
]

played_round = st.builds(
    lambda points, twenties: Round(points=points, twenties=twenties),
    st.sampled_from([(2, 0), (1, 1), (0, 2)]),
    st.tuples(st.integers(0, 2), st.integers(0, 2)),
)
rounds = st.lists(st.one_of(played_round, st.just(Round.time_expired())), min_size=1, max_size=5)


@st.composite
def stages(draw):
    """A few entries, games among them (few values, so ties are common), and a chain."""
    names = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=6, unique=True))
    games = []
    for _ in range(draw(st.integers(0, 12))):
        a, b = draw(st.lists(st.sampled_from(names), min_size=2, max_size=2, unique=True))
        games.append(Game(a, b, draw(rounds)))
    return names, games, draw(st.sampled_from(CHAINS))


def flipped(game: Game) -> Game:
    """The same game written from the other side."""
    return Game(
        game.b,
        game.a,
        [Round(points=r.points[::-1], twenties=r.twenties[::-1]) for r in game.rounds],
    )


def summary(standings, rename=lambda name: name):
    """Everything about each entry except its place within a shared rank, by (renamed) entry."""
    rows = {
        rename(row.entry): (row.rank, row.games, row.points, row.twenties, row.tiebreak)
        for row in standings.rows
    }
    groups = {frozenset(rename(e) for e in group) for group in standings.shootouts_required}
    return rows, groups


@settings(max_examples=300, deadline=None)
@given(stages(), st.data())
@pytest.mark.slow
def test_ranking_does_not_depend_on_the_order_or_side_of_games(stage, data):
    names, games, chain = stage
    reordered = data.draw(st.permutations(games))
    sides = data.draw(st.lists(st.booleans(), min_size=len(games), max_size=len(games)))
    rewritten = [flipped(g) if flip else g for g, flip in zip(reordered, sides, strict=True)]
    assert compute_standings(rewritten, entries=names, **chain) == compute_standings(
        games, entries=names, **chain
    )


@settings(max_examples=300, deadline=None)
@given(stages(), st.permutations(OTHER_NAMES))
@pytest.mark.slow
def test_renaming_entries_renames_the_result(stage, new_names):
    names, games, chain = stage
    rename = dict(zip(NAMES, new_names, strict=True)).__getitem__
    renamed = [Game(rename(g.a), rename(g.b), g.rounds) for g in games]
    before = compute_standings(games, entries=names, **chain)
    after = compute_standings(renamed, entries=[rename(n) for n in names], **chain)
    assert summary(after) == summary(before, rename)


@settings(max_examples=300, deadline=None)
@given(stages())
@pytest.mark.slow
def test_ranks_are_consistent(stage):
    names, games, chain = stage
    result = compute_standings(games, entries=names, **chain)
    rows = result.rows
    assert sorted(row.entry for row in rows) == sorted(names)
    tied_groups = [set(group) for group in result.shootouts_required]
    for place, row in enumerate(rows):
        if place == 0 or rows[place - 1].rank != row.rank:
            assert row.rank == place + 1  # standard competition ranking
        else:
            assert any({row.entry, rows[place - 1].entry} <= g for g in tied_groups)
    for earlier, later in pairwise(rows):
        assert earlier.rank <= later.rank
        assert earlier.points >= later.points  # a higher rank never has fewer points
        if earlier.rank == later.rank:
            assert earlier.entry < later.entry
            assert earlier.points == later.points and earlier.tiebreak is later.tiebreak is None
    points_count = {}
    for row in rows:
        points_count[row.points] = points_count.get(row.points, 0) + 1
    for row in rows:
        if points_count[row.points] == 1:
            assert row.tiebreak is None  # not tied on points: nothing to break


@settings(max_examples=200, deadline=None)
@given(stages())
@pytest.mark.slow
def test_same_input_same_output_also_through_json(stage):
    names, games, chain = stage
    first = compute_standings(games, entries=names, **chain)
    assert compute_standings(games, entries=names, **chain) == first
    if not games:
        return
    document = {
        **chain,
        "games": [
            {
                "a": g.a,
                "b": g.b,
                "rounds": [
                    {"points": list(r.points), "twenties": list(r.twenties)} for r in g.rounds
                ],
            }
            for g in games
        ],
    }
    parsed = parse_standings_input(document)
    again = compute_standings(parsed.games, chain=parsed.chain, entries=names)
    assert standings_to_dict(again) == standings_to_dict(first)


@settings(max_examples=200, deadline=None)
@given(stages(), st.randoms(use_true_random=False))
@pytest.mark.slow
def test_shootouts_with_distinct_scores_settle_every_tie(stage, rng):
    """WCC Shoot-Out Procedure: top scorers advance; with no equal scores nobody stays tied."""
    names, games, chain = stage
    chain = {"method": chain.get("method", "preliminary")}
    result = compute_standings(games, entries=names, **chain)
    shootouts = []
    for group in result.shootouts_required:
        made = rng.sample(range(13), len(group))
        shootouts.append(Shootout(dict(zip(group, made, strict=True))))
    settled = compute_standings(games, entries=names, shootouts=shootouts, **chain)
    assert settled.shootouts_required == []
    assert [row.rank for row in settled.rows] == list(range(1, len(names) + 1))
    place = {row.entry: row.rank for row in settled.rows}
    before = {row.entry: row.rank for row in result.rows}
    for shootout in shootouts:
        ordered = sorted(shootout.twenties, key=shootout.twenties.__getitem__, reverse=True)
        assert [place[e] for e in ordered] == sorted(place[e] for e in ordered)
        assert all(by_rank == before[ordered[0]] for by_rank in (before[e] for e in ordered))
        assert all(
            row.tiebreak == "shoot-out" for row in settled.rows if row.entry in shootout.twenties
        )
