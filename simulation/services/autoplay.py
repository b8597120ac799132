"""Auto-play: simulated games entered through the same scorecard workflow people use.

A run (``AutoPlay``) covers a match, a round of play, a stage or the rest of a category. It goes
in batches: ``next_batch`` says which matches to play next (a round of play at a time; in a
knockout, every match whose two entries are known), drawing a category's first stage when it is
first reached and a Swiss stage's next round; the Celery tasks play the batch's games in parallel
(``simulation.services.playing``, no database); ``apply_results`` writes them in one place:

- the simulation's referee account fills each side's row (``fill_row(..., simulated=True)``),
- the row is validated with the opponent's ID and the initials SIM (``validate_row``),
- the scoring-table account verifies the cards (``verify_card``), which records the official
  result and, in a knockout, opens the next match,
- the game is marked ``simulated`` and its full record is stored for replays.

The common games of a batch (no row or official round yet, not forfeited, outside a knockout)
go through the same checks in bulk (``simulation.services.bulk_writes``): the same rows, history
and official rounds in a constant number of statements per batch, instead of some 150 a game.

In a real tournament a run stops at the end of a stage: advancing it and drawing the next stage
is the organizer's act, on the category page (``advances_stages``). Only a dry run's copy
tournament, a sandbox that plays the whole event on its own, has its run advance each finished
stage to the next. When that advancement stops on a tie across the cut line (``CutLineTieError``),
the shoot-out is simulated: each tied entry shoots 12 open 20s (6 each in doubles) with its
skill profile through the physics, the result is recorded with ``record_shootout``, and the
stage is advanced again (shot again while still tied). Standings, the bracket, the PDFs and
every other page read the results exactly as if people had entered them.

When a run starts, which batch goes out when and how the run ends are decided by the state
machine of ``simulation.services.runs``; this module only says what to play and writes it.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from django.db import transaction
from django.db.models import Count, F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.engine import seen_from
from scoring.models import ScoreCard
from scoring.progression.services import (
    CutLineTieError,
    advance,
    draw_next_swiss_round,
    record_shootout,
)
from scoring.results.outcomes import match_outcome, match_outcomes, match_rows, stage_outcomes
from scoring.results.shootouts import ties_awaiting_shootout
from scoring.scorecards.services import (
    card_for,
    fill_row,
    row_order,
    validate_row,
    verify_card,
)
from simulation.models import AutoPlay, DryRun, SimulatedGame
from simulation.services import bulk_writes, playing
from simulation.services.profiles import EntryPlayers, check_players, entry_players
from simulation.services.system_users import INITIALS, SystemUsers, system_users
from tournaments.actions import Refused
from tournaments.models import Category, Game, Match, Stage, Tournament, people_paths
from tournaments.selectors import BRACKET_POOL, next_stage, previous_stage, stage_matches
from tournaments.services.draws import draw_stage
from tournaments.services.registration import is_drawn

Scope = AutoPlay.Scope
#: A tie that is still there after this many shoot-outs is reported instead of shot again.
MAX_SHOOTOUTS = 20
#: Expected games of a best-of-N match (best of 3: two or three games).
GAMES_PER_MATCH = {1: 1.0, 3: 2.5, 5: 4.1, 7: 5.8}


class AutoPlayError(Refused):
    """Auto-play cannot go on; the message says why and what to do."""


@dataclass(frozen=True)
class Batch:
    """Matches to play now, as plain jobs for the parallel tasks."""

    label: str
    jobs: list[dict[str, Any]]

    @property
    def games(self) -> int:
        return sum(len(job["games"]) for job in self.jobs)

    @property
    def match_ids(self) -> list[int]:
        return [job["match_id"] for job in self.jobs]


# --- starting a run ----------------------------------------------------------------------------


def create_autoplay(
    *,
    tournament: Tournament,
    scope: str,
    category: Category | None = None,
    stage: Stage | None = None,
    round_of_play: int | None = None,
    match: Match | None = None,
    players: Mapping[str, Any] | None = None,
    seed: int | None = None,
    user: Any = None,
) -> AutoPlay:
    """A queued run of the given scope; raises ``AutoPlayError`` saying what does not fit
    (an object of another tournament, a finished match, a round that does not exist)."""
    if scope not in Scope.values:
        raise AutoPlayError(
            _("Unknown scope %(scope)r: use one of %(known)s.")
            % {"scope": scope, "known": ", ".join(Scope.values)}
        )
    if match is not None:
        stage = match.stage
    if stage is not None:
        category = stage.category
    if category is None or category.tournament_id != tournament.id:
        raise AutoPlayError(_("Choose a category, stage or match of this tournament to auto-play."))
    if scope in (Scope.STAGE, Scope.ROUND, Scope.MATCH) and stage is None:
        raise AutoPlayError(
            _("Auto-playing a %(scope)s needs its stage.") % {"scope": Scope(scope).label.lower()}
        )
    if scope == Scope.MATCH:
        if match is None:
            raise AutoPlayError(_("Choose the match to auto-play."))
        if match.entry_b_id is None:
            raise AutoPlayError(
                _("%(match)s is a bye: there is nothing to play.") % {"match": match}
            )
        if match_outcome(match).complete:
            raise AutoPlayError(_("%(match)s is already decided.") % {"match": match})
    if scope == Scope.ROUND and (
        round_of_play is None or not stage.matches.filter(round_of_play=round_of_play).exists()
    ):
        raise AutoPlayError(
            _("%(stage)s has no round of play %(round)s.")
            % {"stage": stage, "round": round_of_play}
        )
    if stage is not None and stage.kind == Stage.Kind.SHOOTOUT:
        raise AutoPlayError(
            _("%(stage)s is a shoot-out: it is shot when the stage before it is advanced.")
            % {"stage": stage}
        )
    checked = None
    if players:
        if scope != Scope.MATCH:
            raise AutoPlayError(_("Skill profiles can be chosen for one match at a time."))
        per_side = category.players_per_side
        try:
            checked = {
                side: check_players(
                    players[side], per_side, _("entry %(side)s") % {"side": side.upper()}
                )
                for side in ("a", "b")
                if players.get(side)
            }
        except ValueError as exc:
            raise AutoPlayError(str(exc)) from None
    run = AutoPlay(
        tournament=tournament,
        category=category,
        scope=scope,
        stage=stage if scope != Scope.CATEGORY else None,
        round_of_play=round_of_play if scope == Scope.ROUND else None,
        match=match if scope == Scope.MATCH else None,
        players=checked or None,
        seed=seed if seed is not None else playing.derive_seed(timezone.now().isoformat()) % 10**9,
        requested_by=user if user is not None and user.is_authenticated else None,
    )
    run.games_expected = expected_games(run)
    run.save()
    return run


def targets(
    tournament: Tournament,
    *,
    category: int | None = None,
    stage: int | None = None,
    match: int | None = None,
    round_of_play: int | None = None,
) -> dict[str, Any]:
    """The category, stage and match named by their ids (as a page's form posts them), each of
    ``tournament``, as :func:`create_autoplay` takes them; ``AutoPlayError`` names one that is
    not of this tournament."""
    found: dict[str, Any] = {}
    if match:
        found["match"] = Match.objects.filter(
            pk=match, stage__category__tournament=tournament
        ).first()
        if found["match"] is None:
            raise AutoPlayError(
                _("There is no match %(number)s at %(tournament)s.")
                % {"number": match, "tournament": tournament}
            )
    if stage:
        found["stage"] = Stage.objects.filter(pk=stage, category__tournament=tournament).first()
        if found["stage"] is None:
            raise AutoPlayError(
                _("There is no stage %(number)s at %(tournament)s.")
                % {"number": stage, "tournament": tournament}
            )
    if category:
        found["category"] = tournament.categories.filter(pk=category).first()
        if found["category"] is None:
            raise AutoPlayError(
                _("There is no category %(number)s at %(tournament)s.")
                % {"number": category, "tournament": tournament}
            )
    if round_of_play:
        found["round_of_play"] = round_of_play
    return found


# --- what to play next ---------------------------------------------------------------------------


def next_batch(run: AutoPlay, busy: Collection[int] = ()) -> Batch | None:
    """The matches to play next, or None when there is nothing to play now.

    With nothing ``busy`` (matches sent out and not written yet) it may change the draw: draw
    a category's first stage, draw the next Swiss round, and in a dry run's copy advance a
    finished stage (shoot-outs included) when the scope goes beyond it; None then means the
    scope is complete, or, in a real tournament, that play reached the end of a stage whose next
    stage the organizer advances to and draws (``advances_stages``). With
    matches busy it only looks ahead: the next round of play already drawn in the same stage,
    whose pairings do not depend on the busy results (preliminary and round-robin rounds)."""
    busy = set(busy)
    if run.scope == Scope.MATCH:
        if busy:
            return None
        match = Match.objects.get(pk=run.match_id)
        return _batch(run, match.stage, [m for m in _unfinished(match.stage) if m.id == match.id])
    if run.scope == Scope.ROUND:
        stage = Stage.objects.get(pk=run.stage_id)
        matches = [
            m
            for m in _unfinished(stage)
            if m.round_of_play == run.round_of_play and m.id not in busy
        ]
        return _batch(run, stage, matches)
    if run.scope == Scope.STAGE:
        stage_ids = [run.stage_id]
    else:
        stage_ids = list(
            Stage.objects.filter(category_id=run.category_id)
            .exclude(kind=Stage.Kind.SHOOTOUT)
            .order_by("order")
            .values_list("id", flat=True)
        )
    for stage_id in stage_ids:
        # Fetched afresh: advancing may have moved later stages down (a shoot-out stage).
        stage = Stage.objects.select_related("category__tournament").get(pk=stage_id)
        if busy:
            if not _drawn(stage):
                return None
            unfinished = _unfinished(stage)
            if not unfinished:
                continue
            if stage.kind == Stage.Kind.KNOCKOUT:
                return None
            ahead = [m for m in unfinished if m.id not in busy]
            if not ahead:
                return None
            first = min(m.round_of_play for m in ahead)
            try:
                return _batch(run, stage, [m for m in ahead if m.round_of_play == first])
            except AutoPlayError:
                return None  # left to the next full look, once the busy matches are written
        batch = _stage_batch(run, stage)
        if batch is not None:
            return batch
        target = next_stage(stage)
        if target is not None and not is_drawn(target):
            if not advances_stages(run):
                return None  # the end of the stage: the organizer advances and draws the next
            _set_phase(
                run,
                _("Advancing from %(stage)s to %(target)s")
                % {"stage": stage.name, "target": target.name},
            )
            advance_with_shootouts(run, stage, target)
        if run.scope == Scope.STAGE:
            return None
    return None


def _stage_batch(run: AutoPlay, stage: Stage) -> Batch | None:
    if not _drawn(stage):
        before = previous_stage(stage)
        if before is not None:
            raise AutoPlayError(
                _("%(stage)s has no entries yet: finish and advance %(before)s first.")
                % {"stage": stage, "before": before}
            )
        _set_phase(run, _("Drawing %(stage)s") % {"stage": stage.name})
        draw_stage(stage, third_place=stage.third_place)
    while True:
        unfinished = _unfinished(stage)
        if unfinished:
            if stage.kind != Stage.Kind.KNOCKOUT:
                first = min(m.round_of_play for m in unfinished)
                unfinished = [m for m in unfinished if m.round_of_play == first]
            return _batch(run, stage, unfinished)
        if stage.kind == Stage.Kind.SWISS:
            drawn = max((m.round_of_play for m in stage_matches(stage)), default=0)
            if drawn < (stage.games_per_entry or 0):
                _set_phase(
                    run,
                    _("Drawing %(stage)s, round %(round)s")
                    % {"stage": stage.name, "round": drawn + 1},
                )
                draw_next_swiss_round(stage)
                continue
        return None


def _unfinished(stage: Stage) -> list[Match]:
    """The stage's matches still to finish, with what a batch needs of them (in the order of
    :func:`stage_matches`). Asked before every batch, so the whole stage is judged on its
    matches alone (what the judge reads of them: their sides, best-of and category), and only
    the unfinished ones are read with their entries and players: in a preliminary stage of 440
    matches that is a round's 44, not every match of the stage each time. The judged matches are
    plain rows (``match_rows``) sharing ``stage``, not a model instance per match."""
    outcomes = stage_outcomes(stage, match_rows(stage))
    unfinished = [pk for pk, outcome in outcomes.items() if not outcome.complete]
    return stage_matches(stage, ids=unfinished) if unfinished else []


def _drawn(stage: Stage) -> bool:
    return stage.matches.exists() or stage.pools.filter(name=BRACKET_POOL).exists()


def advances_stages(run: AutoPlay) -> bool:
    """Whether the run advances a finished stage and draws the next one itself: only in a dry
    run's copy tournament, a sandbox made to play the whole event on its own. In a real
    tournament advancing and drawing the next stage is the organizer's act (the category page),
    so a run stops at the end of the stage, leaving it complete."""
    return DryRun.objects.filter(copy_id=run.tournament_id).exists()


def _set_phase(run: AutoPlay, phase: str) -> None:
    run.phase = phase[:200]
    AutoPlay.objects.filter(pk=run.pk).update(phase=run.phase)


def _batch(run: AutoPlay, stage: Stage, matches: Sequence[Match]) -> Batch | None:
    """Jobs for the games still to play in ``matches``. A match with a scorecard row that
    people entered and that has not become an official result yet is left to them."""
    matches = [m for m in matches if m.entry_b_id is not None]
    if not matches:
        return None
    category = stage.category
    outcomes = match_outcomes(matches, Game.objects.filter(match__in=matches))
    games = (
        Game.objects.filter(match__in=matches)
        .annotate(played=Count("rounds", distinct=True), rows=Count("card_rows", distinct=True))
        .order_by("match_id", "number")
    )
    by_match: dict[int, list[Game]] = {}
    for game in games:
        by_match.setdefault(game.match_id, []).append(game)
    entries = [e for m in matches for e in m.entries]
    profiles = entry_players(entries, category)
    jobs, waiting = [], []
    for match in matches:
        # A forfeited game (a walkover, the head referee's ruling) is decided: nothing to play.
        games_left = [g for g in by_match.get(match.id, []) if not g.played and not g.forfeited_by]
        if any(g.rows for g in games_left):
            waiting.append(match)
            continue
        if not games_left:
            continue
        sides = _sides(run, match, profiles)
        outcome = outcomes[match.id]
        jobs.append(
            {
                "match_id": match.id,
                "best_of": match.best_of,
                "match_format": stage.match_format,
                "wins": list(outcome.wins),
                "players": playing.seat_players(*sides),
                "rounds": category.rounds_per_game,
                "discs_per_player": category.discs_per_player,
                "scoring": category.scoring_system,
                "target": category.target_points,
                **playing.category_play(category),
                "games": [
                    {
                        "game_id": g.id,
                        "first_side": g.first_side,
                        "playoff": g.is_playoff,
                        "seed": playing.derive_seed(
                            run.seed,
                            stage.order,
                            match.round_of_play,
                            match.bracket_slot,
                            match.entry_a.number,
                            match.entry_b.number,
                            g.number,
                        ),
                    }
                    for g in games_left
                ],
            }
        )
    if not jobs:
        if waiting:
            raise AutoPlayError(
                ngettext(
                    "%(stage)s: %(count)s match left to play have scorecards entered by people "
                    "that are not verified yet (e.g. %(example)s); verify or void them at the "
                    "scoring table, then auto-play again.",
                    "%(stage)s: %(count)s matches left to play have scorecards entered by people "
                    "that are not verified yet (e.g. %(example)s); verify or void them at the "
                    "scoring table, then auto-play again.",
                    len(waiting),
                )
                % {"stage": stage, "count": len(waiting), "example": waiting[0]}
            )
        return None
    rounds = sorted({m.round_of_play for m in matches})
    if len(rounds) == 1:
        where = _("round %(round)s") % {"round": rounds[0]}
    else:
        where = _("rounds %(first)s-%(last)s") % {"first": rounds[0], "last": rounds[-1]}
    label = f"{category.name}: {stage.name}, {where}"
    _set_phase(run, _("Playing %(batch)s") % {"batch": label})
    return Batch(label=label, jobs=jobs)


def _sides(run: AutoPlay, match: Match, profiles: Mapping[int, EntryPlayers]) -> list[list[Any]]:
    """The profiles of each entry at the board, in the match's order; a run's chosen profiles
    (``{"a": [...], "b": [...]}``, for one match) stand in for the entries' own."""
    chosen = run.players or {}
    return [
        list(chosen.get(side) or profiles[entry.id].players)
        for side, entry in zip("abc", match.entries, strict=False)
    ]


# --- writing the results -------------------------------------------------------------------------


#: Games of a batch go in bulk (``simulation.services.bulk_writes``) unless told otherwise; the
#: per-game workflow stays for what is not the common case, and as the reference the tests and
#: the benchmark compare the bulk writes with.
BULK_WRITES = True


@transaction.atomic
def apply_results(
    run: AutoPlay, results: Iterable[Mapping[str, Any]], *, bulk: bool | None = None
) -> int:
    """Write played games through the scorecard workflow (see the module docstring) and store
    their records; returns the number of games written. All or nothing.

    With ``bulk`` (by default ``BULK_WRITES``) the common games are written in a constant number
    of statements through the workflow's checks (``bulk_writes``); the others, or all of them
    without it, one at a time through ``fill_row``, ``validate_row`` and ``verify_card``."""
    results = list(results)
    played = [g for result in results for g in result["games"]]
    if not played:
        return 0
    users = system_users(run.tournament)
    games = Game.objects.select_related(
        "match__stage__category__tournament",
        *people_paths("match__entry_a", "match__entry_b"),
    ).in_bulk([g["game_id"] for g in played])
    single = played
    if BULK_WRITES if bulk is None else bulk:
        parts = bulk_writes.split(games, played)
        single = parts.single + bulk_writes.write(games, parts.bulk, users)
    cards: dict[tuple[int, int], ScoreCard] = {}
    for item in single:
        _write_game(games[item["game_id"]], item, users, cards)
    for card in cards.values():
        verify_card(card=card, user=users.table)
    ids = [g["game_id"] for g in played]
    Game.objects.filter(id__in=ids).update(simulated=True)
    SimulatedGame.objects.filter(game_id__in=ids).delete()
    SimulatedGame.objects.bulk_create(
        SimulatedGame(
            game_id=item["game_id"],
            record=base64.b64decode(item["record"]),
            raw_size=item["raw_size"],
            seed=item["seed"],
            **{k: v for k, v in item["summary"].items() if k in _SUMMARY_FIELDS},
        )
        for item in played
    )
    shots = sum(item["summary"]["shots"] + item["summary"]["search_shots"] for item in played)
    AutoPlay.objects.filter(pk=run.pk).update(
        games_played=F("games_played") + len(played),
        shots=F("shots") + shots,
        batches=F("batches") + 1,
    )
    run.refresh_from_db(fields=["games_played", "shots", "batches"])
    return len(played)


_SUMMARY_FIELDS = {
    f.name for f in SimulatedGame._meta.concrete_fields if f.name not in ("id", "game", "record")
}


def _write_game(
    game: Game,
    item: Mapping[str, Any],
    users: SystemUsers,
    cards: dict[tuple[int, int], ScoreCard],
) -> None:
    match = game.match
    entries = match.entries
    for index, entry in enumerate(entries):
        # Each card's row from its owner's side; signed by the next player at the board.
        rounds = seen_from(item["rounds"], row_order(game, entry))
        opponent = entries[(index + 1) % len(entries)]
        key = (match.stage_id, entry.id)
        if key not in cards:
            cards[key] = card_for(match.stage, entry)
        row = fill_row(
            card=cards[key], game=game, rounds=rounds, user=users.referee, simulated=True
        )
        validate_row(
            row=row,
            opponent_number=bulk_writes.id_number(opponent),
            initials=INITIALS,
            user=users.referee,
        )


# --- advancing, with simulated shoot-outs --------------------------------------------------------


def advance_with_shootouts(run: AutoPlay, stage: Stage, target: Stage) -> Stage:
    """``advance`` the finished stage; a tie on the cut line (or in the seeding of the next
    stage) is settled by a simulated shoot-out, recorded with ``record_shootout``, and the
    stage advanced again, as often as the tie persists."""
    options = {"third_place": target.third_place} if target.kind == Stage.Kind.KNOCKOUT else {}
    for attempt in range(MAX_SHOOTOUTS + 1):
        try:
            return advance(stage, **options)
        except CutLineTieError as exc:
            if attempt == MAX_SHOOTOUTS:
                raise AutoPlayError(
                    _(
                        "%(stage)s: still tied after %(count)s simulated shoot-outs; record one "
                        "by hand."
                    )
                    % {"stage": stage, "count": MAX_SHOOTOUTS}
                ) from exc
            simulate_shootouts(run, stage, exc.ties, attempt)
    raise AssertionError("unreachable")


def simulate_shootouts(run: AutoPlay, stage: Stage, ties: Sequence[Any], attempt: int) -> None:
    """Shoot and record one shoot-out for each group of entries still tied."""
    category = stage.category
    waiting = ties_awaiting_shootout(stage)
    done: list[set[int]] = []
    for tie in ties:
        named = {e.id for e in tie.entries}
        group = next((g for g in waiting if named <= {e.id for e in g}), list(tie.entries))
        ids = {e.id for e in group}
        if ids in done:
            continue
        done.append(ids)
        _set_phase(
            run,
            _("Shoot-out in %(stage)s: %(entries)s")
            % {"stage": stage.name, "entries": ", ".join(e.name for e in group)},
        )
        profiles = entry_players(group, category)
        # Seeded by the entries' ID numbers, not their row ids: the same seeded dry run shoots
        # the same shoot-outs whichever rows its copy got.
        numbers = sorted(entry.number for entry in group)
        rng = np.random.default_rng(
            playing.derive_seed(run.seed, "shoot-out", stage.order, attempt, numbers)
        )
        twenties = {
            entry: playing.shootout_twenties(
                profiles[entry.id].players, category.shootout_shots_per_player, rng
            )
            for entry in group
        }
        record_shootout(stage, twenties)


# --- progress ------------------------------------------------------------------------------------


def expected_games(run: AutoPlay, *, advancing: bool | None = None) -> int:
    """A fair guess of the games the run will play, for its progress bar. ``advancing``: whether
    the run goes on through the stages it advances (``advances_stages`` by default; a dry run's
    copy is built before its dry run names it, so ``dryrun.build_copy`` says so)."""
    if run.scope == Scope.MATCH:
        return math.ceil(GAMES_PER_MATCH.get(run.match.best_of, run.match.best_of))
    if run.scope == Scope.ROUND:
        matches = run.stage.matches.filter(round_of_play=run.round_of_play, entry_b__isnull=False)
        return max(1, round(sum(GAMES_PER_MATCH.get(m.best_of, 1) for m in matches)))
    if run.scope == Scope.STAGE:
        stages = [run.stage]
    else:
        stages = list(run.category.stages.exclude(kind=Stage.Kind.SHOOTOUT).order_by("order"))
        if not (advances_stages(run) if advancing is None else advancing):
            # It stops at the end of the first stage whose next one the organizer has not drawn.
            reached = next((i for i, s in enumerate(stages) if i and not is_drawn(s)), None)
            stages = stages[:reached]
    field = run.category.entries.filter(withdrawn=False).count()
    total = 0.0
    for stage in stages:
        drawn = stage.matches.filter(entry_b__isnull=False)
        if drawn.exists() and stage.kind != Stage.Kind.KNOCKOUT:
            size = drawn.count()
            total += size * GAMES_PER_MATCH.get(stage.best_of, stage.best_of)
        else:
            total += _stage_games(stage, field)
        field = stage.advance_count or field
    played = Game.objects.filter(match__stage__in=stages, rounds__isnull=False).distinct().count()
    return max(1, round(total) - played)


def _stage_games(stage: Stage, field: int) -> float:
    per_match = GAMES_PER_MATCH.get(stage.best_of, stage.best_of)
    kind = Stage.Kind(stage.kind)
    if kind in (Stage.Kind.PRELIMINARY, Stage.Kind.SWISS):
        return field * (stage.games_per_entry or 1) // 2 * per_match
    if kind == Stage.Kind.ROUND_ROBIN:
        pools = max(1, len([p for p in stage.pools.all() if p.name != BRACKET_POOL]))
        size = field / pools
        return pools * size * (size - 1) / 2 * per_match
    if kind == Stage.Kind.KNOCKOUT:
        return (max(field - 1, 0) + (1 if stage.third_place else 0)) * per_match
    return 0.0
