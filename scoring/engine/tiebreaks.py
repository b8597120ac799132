"""Tiebreak steps by name, and the chains of steps that the standings methods use.

A step gives every entry of a group tied on points a number, higher ranks higher; the standings
split the group by it. Steps are registered under the names the standings output shows in
``tiebreak``. A chain is a list of step names, tried in order (see :mod:`.standings` for how a
partly broken tie restarts the chain).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .errors import EngineInputError
from .tallies import POINTS, TWENTIES, WINS, Tally

StepValues = Callable[[Sequence[str], Mapping[str, Tally]], dict[str, int]]

TWENTIES_STEP = "twenties"
HEAD_TO_HEAD = "head-to-head"
TWENTIES_AMONG_TIED = "twenties-among-tied"
TWENTIES_ALL_GAMES = "twenties-all-games"
SHOOT_OUT = "shoot-out"


@dataclass(frozen=True, slots=True)
class TiebreakStep:
    """A named tiebreak step and the rule it comes from.

    ``values`` is None for the shoot-out, which is not computed from the games but played at the
    board (see :mod:`.shootouts`).
    """

    name: str
    rule: str
    values: StepValues | None


def _among(group: Sequence[str], tallies: Mapping[str, Tally], figure: int) -> dict[str, int]:
    """``figure`` summed over each entry's games against the others of ``group`` only."""
    members = set(group)
    values: dict[str, int] = {}
    for entry in group:
        against = tallies[entry].against
        if len(against) <= len(group):
            total = sum(f[figure] for opponent, f in against.items() if opponent in members)
        else:
            total = sum(against[o][figure] for o in members if o != entry and o in against)
        values[entry] = total
    return values


def twenties(group: Sequence[str], tallies: Mapping[str, Tally]) -> dict[str, int]:
    """WCC Tie-Breaking Procedure, preliminary rounds: "The player with the higher number of 20's
    in the match will place higher" — the 20s of all the entry's games."""
    return {entry: tallies[entry].twenties for entry in group}


def head_to_head(group: Sequence[str], tallies: Mapping[str, Tally]) -> dict[str, int]:
    """WCC Head-To-Head Tie Breaker (round-robin Step 1).

    Two tied: "The player who won the game between the tied players will receive the higher
    position" — games won against each other. More than two: "Players add their points just from
    the games when they played the other players with whom they are tied."
    """
    return _among(group, tallies, WINS if len(group) == 2 else POINTS)


def twenties_among_tied(group: Sequence[str], tallies: Mapping[str, Tally]) -> dict[str, int]:
    """WCC round-robin Step 2: "the player with the higher number of 20's scored in games
    amongst tied players will place higher"."""
    return _among(group, tallies, TWENTIES)


def twenties_all_games(group: Sequence[str], tallies: Mapping[str, Tally]) -> dict[str, int]:
    """WCC round-robin Step 3: "the player with the higher number of 20's scored in all games of
    that round-robin playoff will place higher" (the games given are those of the stage)."""
    return twenties(group, tallies)


#: Every step by name (the names appear in the standings' ``tiebreak``).
STEPS: dict[str, TiebreakStep] = {
    step.name: step
    for step in (
        TiebreakStep(TWENTIES_STEP, "WCC Tie-Breaking Procedure, preliminary rounds", twenties),
        TiebreakStep(HEAD_TO_HEAD, "WCC round-robin Step 1, Head-To-Head", head_to_head),
        TiebreakStep(TWENTIES_AMONG_TIED, "WCC round-robin Step 2", twenties_among_tied),
        TiebreakStep(TWENTIES_ALL_GAMES, "WCC round-robin Step 3", twenties_all_games),
        TiebreakStep(SHOOT_OUT, "WCC round-robin Step 4, Shoot-Out Procedure", None),
    )
}

#: The standings methods: the chain of steps that follows points.
METHODS: dict[str, tuple[str, ...]] = {
    # WCC: "In the preliminary rounds and Recreational Round of 32: The player with the higher
    # number of 20's in the match will place higher. If there still is a tie, a Shoot-Out".
    "preliminary": (TWENTIES_STEP, SHOOT_OUT),
    # WCC: "In a round-robin playoff", Steps 1 to 4.
    "round-robin": (HEAD_TO_HEAD, TWENTIES_AMONG_TIED, TWENTIES_ALL_GAMES, SHOOT_OUT),
}


def resolve_chain(method: str | None = None, chain: Sequence[str] | None = None) -> tuple[str, ...]:
    """The chain to use: ``chain`` when given, else the named ``method``'s.

    Step names must be known and not repeated; a shoot-out can only come last, because a group
    still tied after one shoots again rather than going back to the games (WCC: "If still tied,
    repeat Shoot-out from the beginning").
    """
    if chain is None:
        if method not in METHODS:
            known = ", ".join(sorted(METHODS))
            raise EngineInputError(f"unknown method {method!r}; known methods: {known}")
        return METHODS[method]
    if isinstance(chain, str) or not all(isinstance(step, str) for step in chain):
        raise EngineInputError(f"a tiebreak chain is a list of step names, not {chain!r}")
    steps = tuple(chain)
    for step in steps:
        if step not in STEPS:
            known = ", ".join(sorted(STEPS))
            raise EngineInputError(f"unknown tiebreak step {step!r}; known steps: {known}")
    if len(set(steps)) != len(steps):
        raise EngineInputError(f"tiebreak chain {list(steps)} names a step twice")
    if SHOOT_OUT in steps and steps[-1] != SHOOT_OUT:
        raise EngineInputError(f"tiebreak chain {list(steps)}: the shoot-out can only come last")
    return steps
