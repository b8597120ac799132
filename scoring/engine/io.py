"""The standings tool's JSON: read the input into engine objects, write the standings out.

Input (see the project design, "Standings tool"): ``method`` (or a ``chain`` of step names),
``games`` with ``a``, ``b`` and ``rounds`` (each round gives ``points`` or ``score``, and
``twenties``), optional ``shootouts`` in the order they were shot, and optional ``discs`` (per
side) to check 20s and board scores against. Unknown keys are refused, so that a misspelt key is
never silently ignored.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, NamedTuple

from tournaments.translation import _

from .errors import EngineInputError, show
from .games import Game
from .rounds import Round, check_round
from .shootouts import Shootout
from .standings import Standings
from .tiebreaks import resolve_chain

INPUT_KEYS = frozenset({"method", "chain", "games", "shootouts", "discs"})
GAME_KEYS = frozenset({"a", "b", "rounds"})
ROUND_KEYS = frozenset({"points", "score", "twenties"})
SHOOTOUT_KEYS = frozenset({"twenties"})


class StandingsInput(NamedTuple):
    """What the standings tool computes from: the games, the tiebreak chain, the shoot-outs."""

    games: list[Game]
    chain: tuple[str, ...]
    shootouts: list[Shootout]


def _object(value: Any, where: str, keys: frozenset[str], required: tuple[str, ...]) -> dict:
    if not isinstance(value, dict):
        raise EngineInputError(
            _("%(where)s must be a JSON object, not %(value)s")
            % {"where": where, "value": show(value)}
        )
    unknown = sorted(set(value) - keys)
    if unknown:
        raise EngineInputError(
            _("%(where)s: unknown key %(key)s; expected %(keys)s")
            % {"where": where, "key": show(unknown[0]), "keys": ", ".join(sorted(keys))}
        )
    for key in required:
        if key not in value:
            raise EngineInputError(
                _("%(where)s is missing %(key)s") % {"where": where, "key": show(key)}
            )
    return value


def _list(value: Any, where: str) -> list:
    if not isinstance(value, list):
        raise EngineInputError(
            _("%(where)s must be a JSON list, not %(value)s")
            % {"where": where, "value": show(value)}
        )
    return value


def _round(data: Any, where: str, discs: int | None, sides: tuple[str, str]) -> Round:
    data = _object(data, where, ROUND_KEYS, ("twenties",))
    try:
        if ("points" in data) == ("score" in data):
            raise EngineInputError(
                _("give either 'points' or 'score' (board totals), not both")
                if "points" in data
                else _("give either 'points' or 'score' (board totals), one of them")
            )
        if "score" in data:
            round_ = Round.from_score(data["score"], data["twenties"])
        else:
            round_ = Round(points=data["points"], twenties=data["twenties"])
        if discs is not None:
            check_round(round_, discs)
    except EngineInputError as error:
        raise error.named(sides).within(where) from None
    return round_


def _game(data: Any, number: int, discs: int | None) -> Game:
    data = _object(data, _("game %(number)s") % {"number": number}, GAME_KEYS, ("a", "b", "rounds"))
    a, b = data["a"], data["b"]
    for side in (a, b):
        if not isinstance(side, str) or not side.strip():
            raise EngineInputError(
                _("game %(number)s: entries must be non-empty names, not %(side)s")
                % {"number": number, "side": show(side)}
            )
    where = _("game %(number)s (%(a)s v %(b)s)") % {"number": number, "a": a, "b": b}
    if a == b:
        raise EngineInputError(_("%(where)s: an entry cannot play itself") % {"where": where})
    rounds = [
        _round(
            round_,
            _("%(where)s, round %(round)s") % {"where": where, "round": index},
            discs,
            (a, b),
        )
        for index, round_ in enumerate(
            _list(data["rounds"], _("%(where)s rounds") % {"where": where}), 1
        )
    ]
    return Game(a, b, rounds)


def _shootout(data: Any, number: int) -> Shootout:
    where = _("shoot-out %(number)s") % {"number": number}
    data = _object(data, where, SHOOTOUT_KEYS, ("twenties",))
    try:
        return Shootout(twenties=data["twenties"])
    except EngineInputError as error:
        raise error.within(where) from None


def parse_standings_input(data: Any) -> StandingsInput:
    """Turn the tool's JSON input (already decoded) into games, a chain and shoot-outs.

    Raises :class:`EngineInputError` naming the offending game (1-based) and round.
    """
    data = _object(data, _("the input"), INPUT_KEYS, ("games",))
    if "method" in data and "chain" in data:
        raise EngineInputError(_("give either 'method' or 'chain', not both"))
    if "method" not in data and "chain" not in data:
        raise EngineInputError(
            _(
                'the input is missing \'method\' ("preliminary", "round-robin" or "swiss") '
                "or a 'chain'"
            )
        )
    chain = (
        resolve_chain(chain=_list(data["chain"], "'chain'"))
        if "chain" in data
        else resolve_chain(data["method"])
    )
    discs = data.get("discs")
    if discs is not None and (isinstance(discs, bool) or not isinstance(discs, int) or discs < 1):
        raise EngineInputError(
            _("'discs' (per side) must be a whole number of at least 1, not %(discs)s")
            % {"discs": discs}
        )
    games = [
        _game(game, number, discs) for number, game in enumerate(_list(data["games"], "'games'"), 1)
    ]
    shootouts = [
        _shootout(shootout, number)
        for number, shootout in enumerate(_list(data.get("shootouts", []), "'shootouts'"), 1)
    ]
    return StandingsInput(games, chain, shootouts)


def standings_to_dict(standings: Standings) -> dict[str, Any]:
    """The standings as the tool prints them: rows in rank order, keys in a fixed order."""
    return {
        "standings": [
            {
                "rank": row.rank,
                "entry": row.entry,
                "games": row.games,
                "points": row.points,
                "twenties": row.twenties,
                "tiebreak": row.tiebreak,
            }
            for row in standings.rows
        ],
        "shootouts_required": [list(group) for group in standings.shootouts_required],
    }


def format_standings(standings: Standings | Mapping[str, Any]) -> str:
    """JSON text with one standings row per line, as in the project design."""
    data = standings_to_dict(standings) if isinstance(standings, Standings) else standings
    rows = ",\n".join(f"   {json.dumps(row)}" for row in data["standings"])
    body = f"[\n{rows}\n ]" if rows else "[]"
    required = json.dumps(data["shootouts_required"])
    return f'{{"standings": {body},\n "shootouts_required": {required}}}'
