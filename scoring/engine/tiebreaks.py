"""Tiebreak steps by name, and the chains of steps that the standings methods use.

A step gives every entry of a group tied on points a number, higher ranks higher; the standings
split the group by it. Steps are registered under the names the standings output shows in
``tiebreak``. A chain is a list of step names, tried in order (see :mod:`.standings` for how a
partly broken tie restarts the chain).

The WCC steps come from its Tie-Breaking Procedure. The crokinole rulebooks say nothing of Swiss
systems, so the Swiss steps (:func:`buchholz`, :func:`game_points`) follow the practice of Swiss
events elsewhere, as each step's docstring says.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.translation import _, gettext_noop

from .errors import EngineInputError
from .tallies import POINTS, TWENTIES, WINS, Tally

StepValues = Callable[[Sequence[str], Mapping[str, Tally]], dict[str, int]]

TWENTIES_STEP = "twenties"
HEAD_TO_HEAD = "head-to-head"
TWENTIES_AMONG_TIED = "twenties-among-tied"
TWENTIES_ALL_GAMES = "twenties-all-games"
SHOOT_OUT = "shoot-out"
BUCHHOLZ = "buchholz"
GAME_POINTS = "game-points"


@dataclass(frozen=True, slots=True)
class TiebreakStep:
    """A named tiebreak step and the rule it comes from.

    ``values`` is None for the shoot-out, which is not computed from the games but played at the
    board (see :mod:`.shootouts`). ``rule`` is marked with ``gettext_noop``: translate it with
    ``gettext`` where it is shown.
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


def buchholz(group: Sequence[str], tallies: Mapping[str, Tally]) -> dict[str, int]:
    """Buchholz: the sum of the points of every opponent the entry played in the stage.

    Entries level on points in a Swiss met different opponents (unlike a round robin, where all
    meet all), so Swiss events rank first the one that met the stronger field. Each opponent
    counts once, with its points at the end of the stage (its own byes included, as it was
    credited them), however many games the two played: a best-of-N match is one pairing.

    A bye has no opponent. The crokinole rulebooks (NCA, WCC, family) say nothing of byes; their
    events credit a bye in points, as the event sets it (:class:`.tallies.Credit`), and so it
    counts here in the entry's own points. Within the Buchholz each bye counts as the FIDE
    Tie-Break Regulations (2023, unplayed rounds) count one: a game against a dummy opponent with
    the entry's own final points. That is the opponent a Swiss would have paired it with (one on
    its own score); counting nothing would punish an entry for the bye the pairing gave it, and
    counting the event's credit would measure a setting, not an opponent. The older FIDE
    "virtual opponent" needs each entry's score round by round, which a stage's totals do not
    keep. No opponent's points are ever counted for a bye.
    """
    values: dict[str, int] = {}
    for entry in group:
        tally = tallies[entry]
        opponents = sum(tallies[opponent].points for opponent in tally.against)
        values[entry] = opponents + tally.byes * tally.points
    return values


def game_points(group: Sequence[str], tallies: Mapping[str, Tally]) -> dict[str, int]:
    """Game points: the total of the entry's own board scores (20s included) in the stage.

    The ranking's points say only who won each round (2-1-0, or the difference of the boards
    under the family rulebook's game to 100); the board totals say how much each side made. They
    exist only where the scorecards keep them: a scoring system that counts by the board (the
    difference game needs both scores of every round) or a card that records board totals.

    The totals are compared like with like. A group in which an entry played a round whose board
    scores were not kept, or played a different number of games (a bye has no board), is not
    split by this step: every entry of it gets 0, as every entry does when no board score was
    kept at all, for a total over fewer rounds is not a worse total.
    """
    members = [tallies[entry] for entry in group]
    if any(t.unscored for t in members) or len({t.played for t in members}) > 1:
        return dict.fromkeys(group, 0)
    return {entry: tallies[entry].board for entry in group}


#: Every step by name (the names appear in the standings' ``tiebreak``).
STEPS: dict[str, TiebreakStep] = {
    step.name: step
    for step in (
        TiebreakStep(
            TWENTIES_STEP,
            gettext_noop("WCC Tie-Breaking Procedure, preliminary rounds"),
            twenties,
        ),
        TiebreakStep(
            HEAD_TO_HEAD, gettext_noop("WCC round-robin Step 1, Head-To-Head"), head_to_head
        ),
        TiebreakStep(
            TWENTIES_AMONG_TIED, gettext_noop("WCC round-robin Step 2"), twenties_among_tied
        ),
        TiebreakStep(
            TWENTIES_ALL_GAMES, gettext_noop("WCC round-robin Step 3"), twenties_all_games
        ),
        TiebreakStep(SHOOT_OUT, gettext_noop("WCC round-robin Step 4, Shoot-Out Procedure"), None),
        TiebreakStep(
            BUCHHOLZ,
            gettext_noop("Swiss practice: Buchholz, a bye as FIDE's dummy opponent"),
            buchholz,
        ),
        TiebreakStep(
            GAME_POINTS, gettext_noop("Board totals, where the scorecards keep them"), game_points
        ),
    )
}

#: The standings methods: the chain of steps that follows points.
METHODS: dict[str, tuple[str, ...]] = {
    # WCC: "In the preliminary rounds and Recreational Round of 32: The player with the higher
    # number of 20's in the match will place higher. If there still is a tie, a Shoot-Out".
    "preliminary": (TWENTIES_STEP, SHOOT_OUT),
    # WCC: "In a round-robin playoff", Steps 1 to 4.
    "round-robin": (HEAD_TO_HEAD, TWENTIES_AMONG_TIED, TWENTIES_ALL_GAMES, SHOOT_OUT),
    # A Swiss: the strength of the opponents met first, as Swiss events rank equal scores; then
    # the WCC preliminary chain, 20s and a shoot-out, which every crokinole scorecard supports.
    # Game points are left to the stages that name them: the WCC card need not keep board totals.
    "swiss": (BUCHHOLZ, TWENTIES_STEP, SHOOT_OUT),
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
            raise EngineInputError(
                _("unknown method %(method)s; known methods: %(known)s")
                % {"method": repr(method), "known": known}
            )
        return METHODS[method]
    if isinstance(chain, str) or not all(isinstance(step, str) for step in chain):
        raise EngineInputError(
            _("a tiebreak chain is a list of step names, not %(chain)s") % {"chain": repr(chain)}
        )
    steps = tuple(chain)
    for step in steps:
        if step not in STEPS:
            known = ", ".join(sorted(STEPS))
            raise EngineInputError(
                _("unknown tiebreak step %(step)s; known steps: %(known)s")
                % {"step": repr(step), "known": known}
            )
    if len(set(steps)) != len(steps):
        raise EngineInputError(
            _("tiebreak chain %(chain)s names a step twice") % {"chain": list(steps)}
        )
    if SHOOT_OUT in steps and steps[-1] != SHOOT_OUT:
        raise EngineInputError(
            _("tiebreak chain %(chain)s: the shoot-out can only come last") % {"chain": list(steps)}
        )
    return steps
