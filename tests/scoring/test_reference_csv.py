"""The Crokinole Reference layout's pure reader and writer (``scoring.engine.reference_csv``):
every problem named by line and column in the engine's words, and a written file read back to
the same games."""

from __future__ import annotations

import dataclasses
from datetime import date
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.reference_csv import (
    COLUMNS,
    ReferenceGame,
    parse,
    split_name,
    write,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "competitive-singles-2009-2017.csv"
HEADER = ",".join(COLUMNS)
GOOD = (
    "2009-06-06,WCC,Final G1,1v2,1,Nathan Walsh,Brian Cook,Nathan Walsh,"
    "0 2 2 0 0,2 0 0 2 2,3 2 6 0 2,4 2 4 1 3"
)


def one(line: str):
    return parse(f"{HEADER}\n{line}\n")


def only_error(line: str) -> str:
    parsed = one(line)
    assert parsed.games == []
    assert len(parsed.errors) == 1, parsed.errors
    return str(parsed.errors[0])


def test_a_line_reads_into_its_game():
    game = one(GOOD).games[0]
    assert game.played_on == date(2009, 6, 6)
    assert (game.event, game.stage, game.pool, game.number) == ("WCC", "Final G1", "1v2", 1)
    assert game.side_a == ("Nathan Walsh",) and game.side_b == ("Brian Cook",)
    assert game.rounds[0] == (0, 2, 3, 4) and len(game.rounds) == 5
    assert game.points == (4, 6) and game.twenties == (13, 14)
    assert game.first == 0 and [game.first_of_round(n) for n in (1, 2, 3)] == [0, 1, 0]
    assert game.line == 2


def test_names_split_at_the_last_space():
    assert split_name("Jon Conrad Hamm") == ("Jon Conrad", "Hamm")
    assert split_name("  Álmos   Illyés-Rataj ") == ("Álmos", "Illyés-Rataj")


def test_impossible_points_name_the_line_the_column_and_the_round():
    words = only_error(GOOD.replace("0 2 2 0 0,2 0 0 2 2", "0 2 3 0 0,2 0 0 2 2"))
    assert words.startswith("line 2, points_a: round 3:")
    assert "3 for Nathan Walsh, 0 for Brian Cook" in words
    assert "a round scores 2-0, 1-1, 0-2" in words


def test_twenties_beyond_the_discs_are_refused_by_the_engine_rule():
    words = only_error(GOOD.replace("3 2 6 0 2", "3 2 9 0 2"))
    assert words.startswith("line 2, twenties_a: round 3:")
    assert "only 8 discs" in words
    # a doubles team shoots 12 discs: 9 is possible there
    doubles = GOOD.replace("Nathan Walsh,Brian Cook,Nathan Walsh", "A B & C D,E F & G H,C D")
    assert one(doubles.replace("3 2 6 0 2", "3 2 9 0 2")).games[0].doubles


def test_bad_values_say_what_and_where():
    assert "date: “2009-13-06” is not a date" in only_error(
        GOOD.replace("2009-06-06", "2009-13-06")
    )
    assert "game: “x” is not a game number" in only_error(GOOD.replace(",1v2,1,", ",1v2,x,"))
    assert "twenties_b: round 2: “two” is not a whole number" in only_error(
        GOOD.replace("4 2 4 1 3", "4 two 4 1 3")
    )
    words = only_error(GOOD.replace("3 2 6 0 2", "3 2 6 0"))
    assert "twenties_a: the four round lists" in words and "twenties_a 4" in words
    assert "player_a: “Nathan” is not a first and a last name" in only_error(
        GOOD.replace("Nathan Walsh,Brian Cook,Nathan Walsh", "Nathan,Brian Cook,")
    )
    assert "first_in_round_1: “Bob Smith” is neither side's player" in only_error(
        GOOD.replace("Brian Cook,Nathan Walsh", "Brian Cook,Bob Smith")
    )
    assert "plays on both sides" in only_error(GOOD.replace("Brian Cook,", "Nathan Walsh,", 1))


def test_a_missing_column_is_named_on_line_1():
    parsed = parse("date,event,stage\n2009-06-06,WCC,Final\n")
    assert [e.line for e in parsed.errors] == [1]
    assert "lacks the columns pool, game" in str(parsed.errors[0])


def test_a_line_without_rounds_is_skipped_and_a_repeated_game_is_reported():
    empty = "2017-12-02,Magyar Bajnokság,Prelim,All,1,Péter Nagy ,Zsolt Rimár ,,,,,"
    parsed = parse(f"{HEADER}\n{GOOD}\n{empty}\n{GOOD}\n")
    assert len(parsed.games) == 1
    assert [(s.line, s.message) for s in parsed.skipped] == [
        (3, "no round is recorded; the line is skipped")
    ]
    assert [e.line for e in parsed.errors] == [4]
    assert "the same game as line 2" in str(parsed.errors[0])


def test_the_published_record_reads_with_its_four_bad_lines():
    parsed = parse(DATA.read_text(encoding="utf-8"))
    assert parsed.lines == 836
    assert (len(parsed.games), len(parsed.errors), len(parsed.skipped)) == (642, 4, 190)
    assert [e.line for e in parsed.errors] == [41, 278, 380, 496]
    assert {len(g.rounds) for g in parsed.games} == {3, 4, 5}


def test_the_published_record_written_again_reads_the_same():
    games = parse(DATA.read_text(encoding="utf-8")).games
    again = parse(write(games))
    assert again.errors == []
    assert [dataclasses.replace(g, line=0) for g in again.games] == [
        dataclasses.replace(g, line=0) for g in games
    ]


# --- the round trip, for any games ------------------------------------------------------------

_names = st.text(alphabet="abcdefghijklmnopqrstuvwxyzÉéçØ'-", min_size=1, max_size=8)
_person = st.builds(lambda first, last: f"{first.title()} {last.title()}", _names, _names)
_text = st.text(
    alphabet=st.characters(
        codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp", "Zs"), include_characters=" "
    ),
    max_size=12,
).map(lambda text: " ".join(text.split()))
_POINTS = [(2, 0), (1, 1), (0, 2)]


@st.composite
def _rounds(draw, discs: int):
    count = draw(st.integers(1, 7))
    rounds = []
    for _ in range(count):
        if draw(st.integers(0, 20)) == 0:
            rounds.append((0, 0, 0, 0))  # time ran out before a disc was shot
            continue
        pa, pb = draw(st.sampled_from(_POINTS))
        rounds.append((pa, pb, draw(st.integers(0, discs)), draw(st.integers(0, discs))))
    return tuple(rounds)


@st.composite
def _games(draw):
    doubles = draw(st.booleans())
    size = 2 if doubles else 1
    people = draw(st.lists(_person, min_size=2 * size, max_size=2 * size, unique_by=str.casefold))
    return ReferenceGame(
        played_on=draw(st.dates(date(1950, 1, 1), date(2100, 12, 31))),
        event=draw(_text.filter(bool)),
        stage=draw(_text),
        pool=draw(_text),
        number=draw(st.integers(1, 500)),
        side_a=tuple(people[:size]),
        side_b=tuple(people[size:]),
        rounds=draw(_rounds(12 if doubles else 8)),
        first=draw(st.sampled_from([None, 0, 1])),
    )


@given(st.lists(_games(), max_size=6, unique_by=lambda g: g.identity()))
def test_a_written_file_reads_back_to_the_same_games(games):
    parsed = parse(write(games))
    assert parsed.errors == [] and parsed.skipped == []
    assert [dataclasses.replace(g, line=0) for g in parsed.games] == games
    assert [g.line for g in parsed.games] == list(range(2, len(games) + 2))
    assert [g.digest() for g in parsed.games] == [g.digest() for g in games]
