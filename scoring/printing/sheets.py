"""What goes on the printed standings and bracket sheets pinned up in the hall.

The standings sheet reuses :func:`scoring.standings.selectors.stage_standings` and its bar chart,
cut into page-sized windows of the same SVG (an SVG picture cannot break across pages). The
bracket sheet draws the bracket with ``tournaments.svg.bracket_svg`` from
``scoring.results.knockout.bracket_rounds`` and lists under it the knockout matches round by
round with the games won and every game's score (the table alone when the stage has no drawn
bracket, its matches having been entered by hand).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.utils.translation import gettext as _

from scoring.printing.cards import Person, people_of
from scoring.printing.errors import PrintError
from scoring.results.knockout import bracket_rounds
from scoring.results.outcomes import MatchOutcome, stage_outcomes
from scoring.standings.charts import ROW_HEIGHT, BarChart
from scoring.standings.selectors import StageStandings, stage_standings
from tournaments.formats.knockout import THIRD_PLACE, Bracket, round_name
from tournaments.models import Match, Stage, people_paths
from tournaments.selectors import knockout_draw
from tournaments.svg import bracket_svg

#: Bars per chart window: about what fits on a portrait page under the sheet's title.
BARS_PER_WINDOW = 45


@dataclass(frozen=True)
class ChartWindow:
    """A horizontal slice of the standings chart, drawn as its own SVG with a shifted viewBox."""

    y: int
    height: int


@dataclass(frozen=True)
class StandingsSheet:
    standings: StageStandings
    chart: BarChart
    windows: list[ChartWindow]


@dataclass(frozen=True)
class SheetMatch:
    """A knockout match as the sheet prints it; ``games`` are ``"6-2"`` scores, A first."""

    slot: str
    board: int | None
    a: tuple[Person, ...]
    b: tuple[Person, ...]
    wins_a: int
    wins_b: int
    games: list[str]
    winner: str | None

    @property
    def a_name(self) -> str:
        return " / ".join(p.name for p in self.a)

    @property
    def b_name(self) -> str:
        return " / ".join(p.name for p in self.b) or _("bye")


@dataclass(frozen=True)
class SheetRound:
    round_of_play: int
    name: str
    matches: list[SheetMatch]


@dataclass(frozen=True)
class BracketSheet:
    stage: Stage
    rounds: list[SheetRound]
    svg: str | None


def standings_sheet(stage: Stage) -> StandingsSheet:
    """The stage's standings in rank order with the chart split into page-sized windows."""
    standings = stage_standings(stage)
    chart = standings.chart
    count = len(chart.bars)
    windows = [
        ChartWindow(y=start * ROW_HEIGHT, height=min(BARS_PER_WINDOW, count - start) * ROW_HEIGHT)
        for start in range(0, count, BARS_PER_WINDOW)
    ]
    return StandingsSheet(standings=standings, chart=chart, windows=windows)


def bracket_sheet(stage: Stage) -> BracketSheet:
    """The knockout stage's matches by round, with games won; refused for other stage kinds."""
    if stage.kind != Stage.Kind.KNOCKOUT:
        raise PrintError(
            _(
                "%(category)s, %(stage)s is a %(kind)s stage; bracket sheets are printed for "
                "knockout stages only."
            )
            % {
                "category": stage.category.name,
                "stage": stage.name,
                "kind": stage.get_kind_display().lower(),
            }
        )
    matches = list(
        Match.objects.filter(stage=stage)
        .select_related(
            "board",
            "stage__category",
            *people_paths("entry_a", "entry_b"),
        )
        .order_by("round_of_play", "bracket_slot", "id")
    )
    results = stage_outcomes(stage, matches)
    by_round: dict[int, list[SheetMatch]] = defaultdict(list)
    for match in matches:
        by_round[match.round_of_play].append(_bracket_match(match, results.get(match.id)))
    draw = knockout_draw(stage)
    bracket = draw.bracket if draw is not None else None
    rounds = [
        SheetRound(round_of_play=number, name=_round_label(items, bracket), matches=items)
        for number, items in sorted(by_round.items())
    ]
    return BracketSheet(stage=stage, rounds=rounds, svg=_bracket_svg(stage))


def _round_label(matches: list[SheetMatch], bracket: Bracket | None) -> str:
    """The round's name as the drawn bracket names its matches (``Bracket.round_name_of``); for
    matches entered by hand without a drawn bracket, as a bracket names a round of that many
    matches (``round_name``), the match for third place apart."""
    names = []
    for match in matches:
        if bracket is not None and match.slot:
            try:
                name = bracket.round_name_of(match.slot)
            except KeyError:  # a slot the drawn bracket does not have
                continue
        elif match.slot == THIRD_PLACE:
            name = _("Third place")
        else:
            name = round_name(sum(1 for m in matches if m.slot != THIRD_PLACE))
        if name not in names:
            names.append(name)
    label = names[0] if names else ""
    for name in names[1:]:
        label = _("%(names)s and %(name)s") % {"names": label, "name": name}
    return label


def _bracket_match(match: Match, outcome: MatchOutcome | None) -> SheetMatch:
    """A bracket line as the one judge scores it (see :mod:`scoring.results.outcomes`)."""
    games = outcome.games if outcome is not None else ()
    wins = outcome.wins if outcome is not None else (0, 0)
    winner = outcome.winner if outcome is not None and not outcome.bye else None
    return SheetMatch(
        slot=match.bracket_slot,
        board=match.board.number if match.board_id else None,
        a=people_of(match.entry_a),
        b=people_of(match.entry_b),
        wins_a=wins[0],
        wins_b=wins[1],
        games=[f"{g.points[0]}-{g.points[1]}" for g in games if g.rounds],
        winner=winner,
    )


def _bracket_svg(stage: Stage) -> str | None:
    """The bracket picture (``tournaments.svg.bracket_svg`` from the knockout's seeding), or
    None when the stage was not drawn as a bracket (its matches were entered by hand)."""
    rounds = bracket_rounds(stage)
    if not rounds:
        return None
    return bracket_svg(rounds, title=f"{stage.category.name}: {stage.name}")
