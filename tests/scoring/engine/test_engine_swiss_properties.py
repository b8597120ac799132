"""Properties of the Swiss steps (Buchholz, game points), with byes, on generated stages."""

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import Credit, Game, Round, compute_standings
from scoring.engine.tallies import tally_games
from scoring.engine.tiebreaks import buchholz, game_points

NAMES = ["ANNA", "BEN", "CARL", "DAN", "EVE", "FAY", "GUS"]
OTHER_NAMES = ["zed", "yan", "xia", "wu", "vik", "ula", "tom"]  # sort the other way round
CHAINS = [
    {"method": "swiss"},
    {"chain": ["game-points", "buchholz", "twenties", "shoot-out"]},
    {"chain": ["buchholz", "head-to-head", "game-points"]},
]


@st.composite
def scored_round(draw):
    twenties = draw(st.tuples(st.integers(0, 2), st.integers(0, 2)))
    board = tuple(20 * t + 5 * draw(st.integers(0, 8)) for t in twenties)
    return Round.from_score(board, twenties)


points_round = st.builds(
    lambda points, twenties: Round(points=points, twenties=twenties),
    st.sampled_from([(2, 0), (1, 1), (0, 2)]),
    st.tuples(st.integers(0, 2), st.integers(0, 2)),
)
expired = st.just(Round.time_expired())


@st.composite
def stages(draw):
    """Entries, games among them, byes credited to some, and a chain. Most stages keep every
    board score (so game points compare); the others mix in rounds that kept only points."""
    names = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=7, unique=True))
    kept = draw(st.booleans()) or draw(st.booleans())
    round_ = st.one_of(scored_round(), expired) if kept else st.one_of(scored_round(), points_round)
    games = []
    for _ in range(draw(st.integers(0, 12))):
        a, b = draw(st.lists(st.sampled_from(names), min_size=2, max_size=2, unique=True))
        games.append(Game(a, b, draw(st.lists(round_, min_size=1, max_size=4))))
    bye_takers = draw(st.lists(st.sampled_from(names), max_size=3, unique=True))
    credits = {
        name: Credit(
            games=draw(st.integers(1, 2)),
            points=draw(st.integers(0, 8)),
            twenties=draw(st.integers(0, 2)),
        )
        for name in bye_takers
    }
    return names, games, credits, draw(st.sampled_from(CHAINS))


def flipped(game: Game) -> Game:
    """The same game written from the other side."""
    return Game(game.b, game.a, [r.mirrored() for r in game.rounds])


def final_points(names, games, credits) -> dict[str, int]:
    """Each entry's points, added up here from the games and credits, not by the engine."""
    points = dict.fromkeys(names, 0)
    for game in games:
        for r in game.rounds:
            points[game.a] += r.points[0]
            points[game.b] += r.points[1]
    for name, credit in credits.items():
        points[name] += credit.points
    return points


@settings(max_examples=150, deadline=None)
@given(stages())
def test_buchholz_counts_each_opponent_once_and_a_bye_as_the_entry_itself(stage):
    """The definition, computed independently: the points of each distinct opponent met, plus,
    per bye, the entry's own points (FIDE 2023's dummy opponent). A bye adds no opponent."""
    names, games, credits, _ = stage
    points = final_points(names, games, credits)
    met = {name: set() for name in names}
    for game in games:
        met[game.a].add(game.b)
        met[game.b].add(game.a)
    tallies = tally_games(games, names, credits)
    values = buchholz(names, tallies)
    for name in names:
        byes = credits[name].games if name in credits else 0
        assert values[name] == sum(points[o] for o in met[name]) + byes * points[name]


@settings(max_examples=100, deadline=None)
@given(stages(), st.permutations(OTHER_NAMES))
def test_buchholz_and_game_points_do_not_depend_on_names(stage, new_names):
    names, games, credits, _ = stage
    rename = dict(zip(NAMES, new_names, strict=True)).__getitem__
    renamed_games = [Game(rename(g.a), rename(g.b), g.rounds) for g in games]
    renamed_credits = {rename(n): c for n, c in credits.items()}
    before = tally_games(games, names, credits)
    after = tally_games(renamed_games, [rename(n) for n in names], renamed_credits)
    new = [rename(n) for n in names]
    for step in (buchholz, game_points):
        old_values = step(names, before)
        new_values = step(new, after)
        assert {rename(n): v for n, v in old_values.items()} == new_values


@settings(max_examples=100, deadline=None)
@given(stages(), st.data())
@pytest.mark.slow
def test_swiss_standings_do_not_depend_on_the_order_or_side_of_games(stage, data):
    names, games, credits, chain = stage
    reordered = data.draw(st.permutations(games))
    sides = data.draw(st.lists(st.booleans(), min_size=len(games), max_size=len(games)))
    rewritten = [flipped(g) if flip else g for g, flip in zip(reordered, sides, strict=True)]
    assert compute_standings(
        rewritten, entries=names, credits=credits, **chain
    ) == compute_standings(games, entries=names, credits=credits, **chain)


@settings(max_examples=100, deadline=None)
@given(stages(), st.permutations(OTHER_NAMES))
def test_renaming_entries_renames_the_swiss_standings(stage, new_names):
    names, games, credits, chain = stage
    rename = dict(zip(NAMES, new_names, strict=True)).__getitem__
    before = compute_standings(games, entries=names, credits=credits, **chain)
    after = compute_standings(
        [Game(rename(g.a), rename(g.b), g.rounds) for g in games],
        entries=[rename(n) for n in names],
        credits={rename(n): c for n, c in credits.items()},
        **chain,
    )
    summary = {
        rename(r.entry): (r.rank, r.games, r.points, r.twenties, r.tiebreak) for r in before.rows
    }
    assert summary == {
        r.entry: (r.rank, r.games, r.points, r.twenties, r.tiebreak) for r in after.rows
    }
    assert {frozenset(map(rename, g)) for g in before.shootouts_required} == {
        frozenset(g) for g in after.shootouts_required
    }


@settings(max_examples=150, deadline=None)
@given(stages())
@pytest.mark.slow
def test_the_swiss_chain_never_ranks_a_lower_buchholz_above_a_higher_one(stage):
    """Among entries level on points, the Swiss method orders by Buchholz first."""
    names, games, credits, _ = stage
    result = compute_standings(games, entries=names, credits=credits, method="swiss")
    values = buchholz(names, tally_games(games, names, credits))
    for earlier, later in pairwise(result.rows):
        if earlier.points == later.points:
            assert values[earlier.entry] >= values[later.entry]
            if values[earlier.entry] > values[later.entry]:
                assert earlier.rank < later.rank


@settings(max_examples=150, deadline=None)
@given(stages(), st.data())
@pytest.mark.slow
def test_game_points_are_board_totals_of_comparable_entries_or_nothing(stage, data):
    """Every entry gets a value; a group splits on game points only when every entry of it
    kept every round's board and played as many games as the others."""
    names, games, credits, _ = stage
    group = data.draw(st.lists(st.sampled_from(names), min_size=1, unique=True))
    boards = dict.fromkeys(names, 0)
    played = dict.fromkeys(names, 0)
    points_only = set()
    for game in games:
        played[game.a] += 1
        played[game.b] += 1
        for r in game.rounds:
            if r.score is not None:
                boards[game.a] += r.score[0]
                boards[game.b] += r.score[1]
            elif not r.is_time_expired:
                points_only |= {game.a, game.b}
    values = game_points(group, tally_games(games, names, credits))
    assert set(values) == set(group)
    comparable = not points_only & set(group) and len({played[e] for e in group}) == 1
    assert values == ({e: boards[e] for e in group} if comparable else dict.fromkeys(group, 0))
