"""A knockout as played so far: the drawn bracket filled with the winners, and the bracket as
plain data for the SVG drawing."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from scoring.results.outcomes import MatchOutcome, stage_outcomes, walkover_mark
from tournaments import formats
from tournaments.models import Entry, Match, Stage
from tournaments.selectors import knockout_draw, with_winners
from tournaments.services.draws import KnockoutResults
from tournaments.svg.bracket import BracketMatch, BracketRound, BracketSide


@dataclass
class KnockoutState:
    """A knockout as drawn and as played so far: the bracket (entries by id), the stored matches
    by bracket slot, their outcomes, and the entries by id."""

    bracket: formats.Bracket
    entries: dict[str, Entry]
    matches: dict[str, Match]
    outcomes: dict[int, MatchOutcome]
    labels: dict[str, str]
    third_place: bool


def knockout_state(stage: Stage) -> KnockoutState | None:
    """The knockout rebuilt from its seeding (``tournaments.selectors.knockout_draw``) and filled
    with the winners so far, from the stored matches by ``bracket_slot``; None before the draw
    (six queries)."""
    draw = knockout_draw(stage)
    if draw is None:
        return None
    outcomes = stage_outcomes(stage, list(draw.matches.values()))
    draw = with_winners(draw, _winners(draw.matches, outcomes))
    return KnockoutState(
        draw.bracket, draw.entries, draw.matches, outcomes, draw.labels, draw.third_place
    )


def knockout_results(state: KnockoutState) -> KnockoutResults:
    """What the draw services need to open the next matches, as plain data."""
    return KnockoutResults(
        winners=_winners(state.matches, state.outcomes),
        started=frozenset(m.id for m in state.matches.values() if state.outcomes[m.id].started),
        finished=frozenset(m.id for m in state.matches.values() if state.outcomes[m.id].complete),
    )


def _winners(matches: dict[str, Match], outcomes: dict[int, MatchOutcome]) -> dict[str, str]:
    """The winning entry id of each decided match, by bracket slot."""
    winners = {}
    for slot, match in matches.items():
        outcome = outcomes[match.id]
        if outcome.winner is not None and not outcome.bye:
            winners[slot] = str(match.entry_a_id if outcome.winner == "a" else match.entry_b_id)
    return winners


def bracket_rounds(stage: Stage) -> list[BracketRound]:
    """The knockout as plain data for ``tournaments.svg.bracket_svg`` (five queries)."""
    state = knockout_state(stage)
    if state is None:
        return []
    rounds = []
    for name, rnd in zip(state.bracket.round_names, state.bracket.rounds, strict=True):
        drawn = []
        for planned in rnd:
            stored = state.matches.get(planned.id)
            outcome = state.outcomes.get(stored.id) if stored else None
            same_order = stored is None or str(stored.entry_a_id) == planned.a.entry
            sides = []
            for index, slot in enumerate((planned.a, planned.b)):
                column = index if same_order else 1 - index
                sides.append(_bracket_side(state, slot, planned, outcome, column))
            note = ""
            if stored is not None and stored.board_id:
                note = _("Board %(board)s") % {"board": stored.board.number}
            if outcome is not None and outcome.by_walkover:
                note = _("Walkover")
            drawn.append(
                BracketMatch(
                    id=planned.id,
                    position=planned.position,
                    a=sides[0],
                    b=sides[1],
                    best_of=planned.best_of,
                    note=note,
                    third_place=planned.id == formats.THIRD_PLACE,
                )
            )
        rounds.append(BracketRound(name=name, matches=tuple(drawn)))
    return rounds


def _bracket_side(
    state: KnockoutState,
    slot: formats.Slot,
    planned: formats.Match,
    outcome: MatchOutcome | None,
    column: int,
) -> BracketSide:
    if slot.entry is None:
        return BracketSide(name=slot.describe(), known=False)
    games: tuple[int | str | None, ...] = ()
    wins = None
    if outcome is not None and (outcome.started or outcome.walkovers):
        # A game won by forfeit (a walkover, the head referee's ruling) shows as W/O.
        mark = walkover_mark()
        games = tuple(
            mark if g.walkover else (g.points[column] if g.rounds else None) for g in outcome.games
        )
        wins = outcome.wins[column]
    return BracketSide(
        name=state.entries[slot.entry].name,
        seed=state.labels.get(slot.entry, ""),
        wins=wins,
        games=games,
        winner=planned.winner == slot.entry,
    )
