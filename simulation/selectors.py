"""Reads behind the simulation pages: the hub, stage and match pages, previews, runs, dry runs
and replays. Each function runs a fixed number of queries whatever the size of the stage."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring.progression.services import check_stage_finished
from scoring.results.knockout import bracket_rounds
from scoring.results.outcomes import MatchOutcome, match_outcome, stage_outcomes
from scoring.standings.selectors import standings_blocks
from simulation.models import AutoPlay, DryRun, MatchPreview, SimulatedGame, Status
from simulation.render import (
    DITCH_WIDTH,
    RAIL_WIDTH,
    SIDE_COLOURS,
    SIDE_STROKES,
    SIDE_TEXT,
    TRAY_GAP,
    render_board,
)
from simulation.rules.geometry import DEFAULT_GEOMETRY
from simulation.services import autoplay
from simulation.services.profiles import EntryPlayers, entry_players
from tournaments.models import Game, Match, Stage, Tournament, people_paths
from tournaments.selectors import next_stage, stage_matches, tournament_categories
from tournaments.services.registration import is_drawn
from tournaments.svg import bracket_svg

_MATCH_RELATED = (
    "stage__category__tournament",
    "board",
    "pool",
    *people_paths("entry_a"),
    *people_paths("entry_b"),
)


# --- the hub -------------------------------------------------------------------------------------


def dry_runs_of(tournament: Tournament) -> QuerySet[DryRun]:
    """Dry runs started from the tournament, or whose copy it is (newest first)."""
    return (
        DryRun.objects.filter(Q(source=tournament) | Q(copy=tournament))
        .select_related("copy", "run", "source")
        .order_by("-created_at", "-id")
    )


def dry_run_for(slug: str, dry_run_id: int) -> DryRun | None:
    return (
        DryRun.objects.filter(Q(source__slug=slug) | Q(copy__slug=slug), pk=dry_run_id)
        .select_related("copy", "run", "source", "source_category")
        .first()
    )


def autoplays_of(tournament: Tournament, limit: int = 10) -> list[AutoPlay]:
    return list(
        AutoPlay.objects.filter(tournament=tournament)
        .select_related(
            "stage",
            "category",
            *people_paths("match__entry_a", "match__entry_b"),
        )
        .order_by("-created_at", "-id")[:limit]
    )


def autoplay_for(slug: str, run_id: int) -> AutoPlay | None:
    return (
        AutoPlay.objects.filter(tournament__slug=slug, pk=run_id)
        .select_related("tournament", "category", "stage", "match", "dry_run")
        .first()
    )


@dataclass(frozen=True)
class StageToAdvance:
    """A finished stage a run stopped at the end of, and the next stage waiting to be drawn."""

    stage: Stage
    following: Stage


def stage_to_advance(run: AutoPlay) -> StageToAdvance | None:
    """Where a finished run of a real tournament left the category: at the end of a finished
    stage (``check_stage_finished``) whose next stage is not drawn yet, which the organizer
    advances to and draws on the category page. None when no stage waits for that, in a dry
    run's copy (its run advances by itself, ``autoplay.advances_stages``) and for a run not done.
    A run of the rest of the category is read stage by stage, as far as its play went."""
    if run.status != Status.DONE or autoplay.advances_stages(run):
        return None
    if run.scope == AutoPlay.Scope.CATEGORY:
        stages = list(
            Stage.objects.filter(category_id=run.category_id)
            .exclude(kind=Stage.Kind.SHOOTOUT)
            .select_related("category__tournament")
            .order_by("order")
        )
    else:
        stages = [run.stage]
    for stage in stages:
        try:
            check_stage_finished(stage)
        except ValidationError:
            return None
        following = next_stage(stage)
        if following is None or stage.kind == Stage.Kind.KNOCKOUT:
            return None  # the last stage, or a knockout: its winners go on inside its bracket
        if not is_drawn(following):
            return StageToAdvance(stage, following)
    return None


def hub_categories(tournament: Tournament) -> list[Any]:
    return list(tournament_categories(tournament))


# --- stage and match pages -----------------------------------------------------------------------


def stage_for(slug: str, stage_id: int) -> Stage | None:
    return (
        Stage.objects.select_related("category__tournament")
        .filter(pk=stage_id, category__tournament__slug=slug)
        .first()
    )


@dataclass(frozen=True)
class MatchLine:
    match: Match
    outcome: MatchOutcome

    @property
    def score(self) -> str:
        if self.match.entry_b_id is None:
            return pgettext("match score", "bye")
        if not self.outcome.started:
            return ""
        # A figure per side: two, or three in a three-player game; a fixed match is decided by
        # its points, a best of N by the games won.
        if self.match.best_of > 1 and not self.match.stage.fixed_match:
            return _("%(wins)s in games") % {
                "wins": "\u2013".join(str(w) for w in self.outcome.wins)
            }
        return "\u2013".join(str(p) for p in self.outcome.points)


@dataclass(frozen=True)
class RoundBlock:
    number: int
    lines: list[MatchLine]

    @property
    def unfinished(self) -> int:
        return sum(not line.outcome.complete for line in self.lines)


def stage_rounds(stage: Stage) -> list[RoundBlock]:
    """The stage's matches by round of play, with their results so far (two queries)."""
    matches = stage_matches(stage)
    outcomes = stage_outcomes(stage, matches)
    rounds: dict[int, list[MatchLine]] = {}
    for m in matches:
        rounds.setdefault(m.round_of_play, []).append(MatchLine(m, outcomes[m.id]))
    return [RoundBlock(number, lines) for number, lines in sorted(rounds.items())]


def match_for(slug: str, match_id: int) -> Match | None:
    return (
        Match.objects.select_related(*_MATCH_RELATED)
        .filter(pk=match_id, stage__category__tournament__slug=slug)
        .first()
    )


@dataclass(frozen=True)
class GameLine:
    game: Game
    rounds: list[Any]
    simulated: bool

    @property
    def points(self) -> tuple[int, int]:
        return (sum(r.points_a for r in self.rounds), sum(r.points_b for r in self.rounds))

    @property
    def twenties(self) -> tuple[int, int]:
        return (sum(r.twenties_a for r in self.rounds), sum(r.twenties_b for r in self.rounds))


@dataclass
class MatchPage:
    match: Match
    outcome: MatchOutcome
    games: list[GameLine]
    profiles: dict[int, EntryPlayers]
    preview: MatchPreview | None
    chart: PreviewChart | None = None
    replay_game: GameLine | None = None

    @property
    def profile_a(self) -> EntryPlayers:
        return self.profiles[self.match.entry_a_id]

    @property
    def profile_b(self) -> EntryPlayers | None:
        return self.profiles.get(self.match.entry_b_id)

    @property
    def match_win(self) -> tuple[str, str] | None:
        """Each side's chance of winning a best-of-N match, from the preview."""
        result = self.preview.result if self.preview is not None else None
        if not result or "match_win" not in result:
            return None
        return _percent(result["match_win"]), _percent(1 - result["match_win"])


def match_page(match: Match, replay_game_id: int | None = None) -> MatchPage:
    """Everything the match page shows (a fixed number of queries)."""
    outcome = match_outcome(match)
    games = list(Game.objects.filter(match=match).prefetch_related("rounds").order_by("number"))
    with_record = set(
        SimulatedGame.objects.filter(game__match=match).values_list("game_id", flat=True)
    )
    lines = [GameLine(g, list(g.rounds.all()), g.id in with_record) for g in games]
    entries = [e for e in (match.entry_a, match.entry_b) if e is not None]
    profiles = entry_players(entries, match.stage.category) if match.entry_b_id else {}
    if not profiles:
        profiles = entry_players([match.entry_a], match.stage.category)
    preview = MatchPreview.objects.filter(match=match).order_by("-created_at", "-id").first()
    replayable = [line for line in lines if line.simulated]
    chosen = next((x for x in replayable if x.game.id == replay_game_id), None)
    page = MatchPage(
        match=match,
        outcome=outcome,
        games=lines,
        profiles=profiles,
        preview=preview,
        replay_game=chosen or (replayable[0] if replayable else None),
    )
    if preview is not None and preview.result:
        page.chart = preview_chart(preview.result)
    return page


# --- preview chart -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str
    percent: str
    kind: str


@dataclass
class PreviewChart:
    """Bars of the probability of each points split, drawn server-side as SVG."""

    width: int
    height: int
    base: float
    bars: list[Bar] = field(default_factory=list)
    outcome: list[Bar] = field(default_factory=list)


CHART_H = 150
BAR_W = 34
GAP = 6
LEFT = 8


def preview_chart(result: dict[str, Any]) -> PreviewChart:
    """The points distribution (8-0 ... 0-8) as bars, and win / tie / loss as one stacked bar."""
    points = result["points"]
    top = max((p["p"] for p in points), default=0) or 1
    width = LEFT * 2 + len(points) * (BAR_W + GAP)
    base = CHART_H - 24
    bars = []
    for index, item in enumerate(points):
        height = (base - 18) * item["p"] / top
        kind = "win" if item["a"] > item["b"] else "tie" if item["a"] == item["b"] else "loss"
        bars.append(
            Bar(
                x=LEFT + index * (BAR_W + GAP),
                y=base - height,
                width=BAR_W,
                height=height,
                label=f"{item['a']}\u2013{item['b']}",
                percent=_percent(item["p"]),
                kind=kind,
            )
        )
    outcome = []
    x = float(LEFT)
    span = width - 2 * LEFT
    for kind, label in (
        ("win", pgettext("game result", "win")),
        ("tie", pgettext("game result", "tie")),
        ("loss", pgettext("game result", "loss")),
    ):
        w = span * result[kind]
        outcome.append(
            Bar(
                x=x, y=0, width=w, height=22, label=label, percent=_percent(result[kind]), kind=kind
            )
        )
        x += w
    return PreviewChart(width=width, height=CHART_H, base=base, bars=bars, outcome=outcome)


def _percent(p: float) -> str:
    if 0 < p < 0.005:
        return "<1%"
    return f"{100 * p:.0f}%"


def preview_for(slug: str, preview_id: int) -> MatchPreview | None:
    return (
        MatchPreview.objects.select_related(*(f"match__{r}" for r in _MATCH_RELATED))
        .filter(pk=preview_id, match__stage__category__tournament__slug=slug)
        .first()
    )


# --- dry-run results -----------------------------------------------------------------------------


@dataclass
class DryRunResult:
    dry_run: DryRun
    standings: list[Any]
    brackets: list[tuple[Stage, SafeString]]
    summary: dict[str, Any]

    @property
    def hours(self) -> float:
        return self.summary.get("time", {}).get("minutes", 0) / 60


def dry_run_result(dry_run: DryRun) -> DryRunResult:
    """Standings of every stage of the copy, its brackets as SVG, and the summary."""
    copy = dry_run.copy
    standings, brackets = [], []
    if copy is not None:
        for category in tournament_categories(copy):
            for stage in category.stages.all():
                standings += standings_blocks(stage)
                if stage.kind == Stage.Kind.KNOCKOUT:
                    svg = bracket_svg(bracket_rounds(stage), title=f"{category.name}: {stage.name}")
                    # Built with ElementTree, which escapes every name.
                    brackets.append((stage, mark_safe(svg)))
    return DryRunResult(dry_run, standings, brackets, dry_run.summary or {})


# --- replays -------------------------------------------------------------------------------------


def game_for(slug: str, game_id: int) -> Game | None:
    return (
        Game.objects.select_related(*(f"match__{r}" for r in _MATCH_RELATED), "simulation")
        .filter(pk=game_id, match__stage__category__tournament__slug=slug)
        .first()
    )


def side_names(match: Match) -> tuple[str, str]:
    """The names of side 0 (entry A) and side 1 (entry B) of a match, as the replay shows them."""
    return (match.entry_a.name, match.entry_b.name if match.entry_b_id else "")


def replay_record(game: Game) -> dict[str, Any] | None:
    """The game's full record with who played it, for the replay player; None when the game
    was not simulated."""
    try:
        stored = game.simulation
    except SimulatedGame.DoesNotExist:
        return None
    match = game.match
    return {
        "game": game.id,
        "number": game.number,
        "match": str(match),
        "sides": [match.entry_a.name, match.entry_b.name if match.entry_b_id else ""],
        "seed": stored.seed,
        "record": stored.record_json(),
    }


@dataclass(frozen=True)
class BoardPicture:
    """The empty board as SVG, and the figures the replay player needs to draw discs on it
    the way ``simulation.render`` does (metres; the SVG is in millimetres, y flipped)."""

    svg: SafeString
    disc_radius: float
    tray_x: float
    tray_top: float
    tray_step: float
    fills: str = ",".join(SIDE_COLOURS)
    strokes: str = ",".join(SIDE_STROKES)
    texts: str = ",".join(SIDE_TEXT)


@dataclass(frozen=True)
class ReplayRound:
    """One round of a replayed game as the score table shows it: the round's board scores,
    points and 20s, and the points and 20s of each side so far."""

    number: int
    score: tuple[int, int]
    points: tuple[int, int]
    twenties: tuple[int, int]
    total_points: tuple[int, int]
    total_twenties: tuple[int, int]


def replay_rounds(game: Game) -> list[ReplayRound]:
    """The running score of a simulated game, round by round, from its record (the official
    rounds were written from it); empty for a game that was not simulated."""
    try:
        record = game.simulation.record_json()
    except SimulatedGame.DoesNotExist:
        return []
    rows, points, twenties = [], [0, 0], [0, 0]
    for number, rnd in enumerate(record.get("rounds", ()), start=1):
        pts = [int(v) for v in rnd.get("points", (0, 0))[:2]]
        made = [int(v) for v in rnd.get("twenties", (0, 0))[:2]]
        score = [int(v) for v in rnd.get("score", (0, 0))[:2]]
        points = [points[0] + pts[0], points[1] + pts[1]]
        twenties = [twenties[0] + made[0], twenties[1] + made[1]]
        rows.append(
            ReplayRound(
                number=number,
                score=(score[0], score[1]),
                points=(pts[0], pts[1]),
                twenties=(made[0], made[1]),
                total_points=(points[0], points[1]),
                total_twenties=(twenties[0], twenties[1]),
            )
        )
    return rows


def board_picture(width_px: int = 640, side_names: tuple[str, str] | None = None) -> BoardPicture:
    """The empty board, its columns of 20s labelled with the players when ``side_names`` are
    given (a replay is watched by people who know the players, not the sides' numbers)."""
    g = DEFAULT_GEOMETRY
    rail_outer = g.surface_radius + DITCH_WIDTH + RAIL_WIDTH
    svg = render_board(
        {"discs": []}, title=_("Replay board"), width_px=width_px, side_names=side_names
    )
    return BoardPicture(
        svg=mark_safe(svg),  # built from numbers and fixed text only
        disc_radius=g.disc_radius,
        tray_x=rail_outer + TRAY_GAP + g.disc_radius,
        tray_top=rail_outer - 0.03,
        tray_step=2.2 * g.disc_radius,
    )
