"""The results-per-round table of one stage, turned into the input of the standings tool
(``python -m scoring standings FILE.json``, read by ``scoring.engine.parse_standings_input``).

An organizer (or a federation checking an event) can recompute a stage's standings from the
exported results alone, outside the application. The rows may come from the table itself or from
its CSV read back (every value a string), so each figure is read as a whole number here.

The tool ranks the games it is given; what it has no key for is left out: a bye or a walkover
credits no game in its input, and an entry that has played no game does not appear. For a stage
where every entry played its games at the board, it gives the standings page's standings. Its
rounds are 2-1-0 rounds of two sides: a game to 100 (points the difference of the board scores)
or a three-player game is refused by the tool, and a three-player row here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tournaments.translation import _

#: The rounds table's columns this reads (``scoring.exports.tables.rounds_table``): the
#: table's column names are a data format, the same in every language.
GAME_COLUMNS = ("Round of play", "Board", "Game", "Side A ID", "Side B ID")  # untranslated: columns


def _number(row: Mapping[str, Any], column: str) -> int:
    value = row[column]
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return int(str(value).strip())


def standings_input(
    rounds: Iterable[Mapping[str, Any]],
    *,
    chain: Sequence[str],
    shootouts: Sequence[Mapping[str, int]] = (),
) -> dict[str, Any]:
    """The tool's JSON input (as a dict, ready for ``json.dumps``) from the rows of one stage's
    results per round, keyed by column name; ``chain`` is the stage's tiebreak chain and
    ``shootouts`` the 20s of each shoot-out by entry ID number, in the order they were shot.

    Entries are named by their ID numbers, as in the table. Raises ``ValueError`` for a row of a
    three-player game, which the tool cannot take.
    """
    games: dict[tuple[str, ...], dict[str, Any]] = {}
    numbered: dict[tuple[str, ...], list[tuple[int, dict[str, list[int]]]]] = {}
    for row in rounds:
        if str(row.get("Side C ID") or "").strip():  # untranslated: a column name
            raise ValueError(
                _(
                    "the standings tool takes games of two sides; this stage has a three-player "
                    "game (round of play %(round)s, game %(game)s)"
                )
                % {"round": row["Round of play"], "game": row["Game"]}  # untranslated: columns
            )
        key = tuple(str(row[column]) for column in GAME_COLUMNS)
        if key not in games:
            a, b = str(row["Side A ID"]), str(row["Side B ID"])  # untranslated: column names
            games[key] = {"a": a, "b": b, "rounds": []}
            numbered[key] = []
        numbered[key].append(
            (
                _number(row, "Round"),
                {
                    "points": [_number(row, "Points A"), _number(row, "Points B")],
                    "twenties": [_number(row, "20s A"), _number(row, "20s B")],
                },
            )
        )
    for key, game in games.items():
        game["rounds"] = [data for _, data in sorted(numbered[key], key=lambda r: r[0])]
    return {
        "chain": list(chain),
        "games": list(games.values()),
        "shootouts": [{"twenties": dict(s)} for s in shootouts],
    }
