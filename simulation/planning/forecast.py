"""The planning forecast: how long an event's day takes, played many times over (pure core).

An organizer choosing between formats (8 or 10 preliminary games, 16 or 24 to the playoffs,
best of 3 or 5) wants to know when each stage would end on their boards, how often the clock
would cut rounds short, and how likely the day is to run past its end. This module answers from
plain numbers, without Django, so that it can be tested on its own and run in a worker:

- A game lasts as long as its shots: each takes its player's mean seconds (timed play's
  :data:`simulation.game.SHOT_SECONDS` per level) spread by the same lognormal
  (:data:`simulation.game.SHOT_SECONDS_SPREAD`). With a time limit the buzzer stops the first
  shot that would run past it; a side with one shot fewer takes its equalising shot after it
  (:mod:`simulation.rules.timing`, NCA 8b, WCC); the regular round in play, when discs are
  left unshot, and the regular rounds not begun (recorded 0-0) are the rounds the clock cut, as
  :func:`simulation.game.play_game` counts them. A tied playoff game goes on with extra rounds.
- Who wins, and so how many games a best-of-3 or best-of-5 takes and who meets whom later, is
  drawn by a :data:`Sampler`: the outcome model's simulated games
  (:func:`simulation.outcomes.table.sample_games`, see :func:`table_sampler`), or a plain
  logistic stand-in (:func:`logistic_sampler`) where no table was tabulated.
- A round of play with more matches than boards takes ``ceil(matches / boards)`` slots, one
  after the other, as the tournament's schedule does (``tournaments.services.schedule``), each
  slot lasting until its slowest match ends. The slowest matches of a round are counted in the
  same slot: the shortest a round with that many slots can take, and a figure that never grows
  with more boards, so that formats and board counts compare on the same footing. A break
  follows each round of play.
- The day is played ``repetitions`` times with each entry's level drawn from its spread; each
  stage's finish time is then a distribution, read as a histogram, median and 90th percentile,
  and the share of days that end after the latest acceptable end is the chance of an overrun.

The same seed gives the same forecast; the shot times come from a stream of their own, so a
longer time limit changes nothing but where the buzzer falls (it never cuts more rounds), and
more boards change nothing but how the matches share them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simulation.game import SHOT_SECONDS_SPREAD
from tournaments.translation import _

#: Regular rounds of an NCA/WCC game; a playoff game adds rounds while tied, up to EXTRA_ROUNDS.
REGULAR_ROUNDS = 4
EXTRA_ROUNDS = 4
#: Discs shot in a round: singles 2 x 8, doubles 4 x 6.
SHOTS_PER_ROUND = {"singles": 16, "doubles": 24}
#: Bins of each stage's finish-time histogram.
BINS = 16

#: ``sampler(level_a, level_b, playoff, rng) -> (score_a, rounds)``: per game, A's share of the
#: game (1 won, 0.5 tied, 0 lost; a playoff game is never tied) and the rounds it took (4, or
#: more for a playoff game tied after 4).
Sampler = Callable[
    [np.ndarray, np.ndarray, bool, np.random.Generator], tuple[np.ndarray, np.ndarray]
]

CLOCK_STREAM = 0x5EC
LEVEL_STREAM = 0x1E7
PLAY_STREAM = 0x9A3


@dataclass(frozen=True)
class Format:
    """One format the organizer weighs: preliminary games per entry (0: none), entries to the
    playoffs (0: no playoffs; a knockout bracket, byes for the top seeds when not a power of
    two) and the playoff matches' best of."""

    prelim_games: int
    playoff: int
    best_of: int

    @property
    def key(self) -> str:
        return f"p{self.prelim_games}-k{self.playoff}-b{self.best_of}"


@dataclass(frozen=True)
class Day:
    """The day's frame: boards, start and latest acceptable end (minutes after midnight), the
    game's time limit in minutes (None: untimed), and the break after each round of play."""

    boards: int
    start: float
    end: float
    game_minutes: float | None
    break_minutes: float = 5.0


@dataclass(frozen=True)
class Field:
    """The entries: their 20s per game and its spread, and the mean seconds a shot takes them
    (one figure per entry: a doubles team's is its partners' mean)."""

    levels: np.ndarray
    spreads: np.ndarray
    seconds: np.ndarray
    kind: str = "singles"

    def __post_init__(self) -> None:
        n = len(self.levels)
        if len(self.spreads) != n or len(self.seconds) != n:
            raise ValueError(_("levels, spreads and seconds must have one figure per entry"))
        if n < 2:
            raise ValueError(_("a field needs at least two entries"))
        if self.kind not in SHOTS_PER_ROUND:
            raise ValueError(
                _("kind must be one of %(kinds)s") % {"kinds": ", ".join(SHOTS_PER_ROUND)}
            )

    @property
    def size(self) -> int:
        return len(self.levels)


@dataclass
class StageTimes:
    """One stage over the repetitions: its finish time, games, rounds cut and games cut."""

    name: str
    rounds: int
    finish: np.ndarray
    games: np.ndarray
    rounds_cut: np.ndarray
    games_cut: np.ndarray


@dataclass
class Forecast:
    """A format's day over the repetitions."""

    format: Format
    stages: list[StageTimes] = field(default_factory=list)

    @property
    def finish(self) -> np.ndarray:
        return self.stages[-1].finish


# --- who wins ------------------------------------------------------------------------------------


def logistic_sampler(scale: float = 2.0, tie: float = 0.1, tie_on: float = 0.3) -> Sampler:
    """A stand-in for the outcome model: A wins a game with the logistic chance of the levels'
    difference over ``scale``; a regular game is tied with chance ``tie``; a playoff game tied
    after its 4 rounds (chance ``tie``) plays another round, tied again with chance ``tie_on``."""

    def sample(
        level_a: np.ndarray, level_b: np.ndarray, playoff: bool, rng: np.random.Generator
    ) -> tuple[np.ndarray, np.ndarray]:
        n = len(level_a)
        p = 1.0 / (1.0 + np.exp(-(np.asarray(level_a) - np.asarray(level_b)) / scale))
        won = (rng.random(n) < p).astype(float)
        tied = rng.random(n) < tie
        rounds = np.full(n, REGULAR_ROUNDS)
        if playoff:
            extra = np.where(tied, rng.geometric(1.0 - tie_on, n), 0)
            rounds = rounds + np.minimum(extra, EXTRA_ROUNDS)
        else:
            won = np.where(tied, 0.5, won)
        return won, rounds

    return sample


def table_sampler(table: Any) -> Sampler:
    """The outcome model's sampler: each game one of its simulated games at the levels
    (:func:`simulation.outcomes.table.sample_games`): the points of its regular rounds, and in a
    playoff the extra rounds it played while tied (a game still tied at the end of its extra
    rounds is decided by a coin)."""
    from simulation.outcomes.table import sample_games

    def sample(
        level_a: np.ndarray, level_b: np.ndarray, playoff: bool, rng: np.random.Generator
    ) -> tuple[np.ndarray, np.ndarray]:
        games = np.asarray(sample_games(table, level_a, level_b, rng), dtype=int)
        played = games[:, :, 0] >= 0
        points = np.where(played[..., None], games[:, :, :2], 0)
        if not playoff:
            a = points[:, :REGULAR_ROUNDS, 0].sum(axis=1)
            b = points[:, :REGULAR_ROUNDS, 1].sum(axis=1)
            return np.where(a > b, 1.0, np.where(a < b, 0.0, 0.5)), np.full(len(a), REGULAR_ROUNDS)
        a = points[:, :, 0].sum(axis=1)
        b = points[:, :, 1].sum(axis=1)
        coin = (rng.random(len(a)) < 0.5).astype(float)
        won = np.where(a > b, 1.0, np.where(a < b, 0.0, coin))
        rounds = np.maximum(played.sum(axis=1), REGULAR_ROUNDS)
        return won, rounds

    return sample


# --- how long a game takes -----------------------------------------------------------------------


def game_durations(
    seconds_a: np.ndarray,
    seconds_b: np.ndarray,
    rounds: np.ndarray,
    *,
    shots_per_round: int,
    limit_minutes: float | None,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """Seconds each game takes and the rounds its clock cut, for games of ``rounds`` rounds
    (regular ones first) between sides whose shots take ``seconds_a`` and ``seconds_b`` on
    average. Sides alternate shots; A shoots first in the first round, B in the second, and so
    on. The shot times are drawn for every slot up to the longest game's rounds whatever the
    clock stops, so that the same ``rng`` gives the same shots under any time limit."""
    seconds_a = np.asarray(seconds_a, dtype=float)
    seconds_b = np.asarray(seconds_b, dtype=float)
    rounds = np.asarray(rounds, dtype=int)
    n = len(rounds)
    # Shots are drawn for the longest game's rounds: the rounds come from who wins, never from
    # the clock or the boards, so the draws stay the same under any limit or number of boards.
    most = max(int(rounds.max(initial=REGULAR_ROUNDS)), REGULAR_ROUNDS)
    total_shots = most * shots_per_round
    slot = np.arange(total_shots)
    side_b = ((slot % shots_per_round) + slot // shots_per_round) % 2 == 1
    means = np.where(side_b[None, :], seconds_b[:, None], seconds_a[:, None])
    times = means * rng.lognormal(0.0, SHOT_SECONDS_SPREAD, size=(n, total_shots))
    times[slot[None, :] >= (rounds * shots_per_round)[:, None]] = 0.0
    elapsed = np.cumsum(times, axis=1)
    total = elapsed[:, -1]
    if limit_minutes is None:
        return total, np.zeros(n, dtype=int)
    limit = 60.0 * limit_minutes
    over = elapsed > limit
    expired = over[:, -1]
    k = np.where(expired, over.argmax(axis=1), total_shots - 1)
    cut_round = k // shots_per_round
    done = k % shots_per_round
    # The side with one shot fewer (an odd count shot in the round) takes its equalising shot.
    equalise = expired & (done % 2 == 1)
    last = times[np.arange(n), k]
    duration = np.where(expired, limit + np.where(equalise, last, 0.0), total)
    unshot = shots_per_round - done - equalise
    in_play = (unshot > 0).astype(int)
    not_begun = np.maximum(REGULAR_ROUNDS - cut_round - 1, 0)
    # Only the regular rounds count as cut (the rounds owed, recorded 0-0 when not begun): an
    # extra round of a tied playoff game cut by the buzzer ends the game instead, and counting
    # it would make a longer clock, which lets that round begin, cut more.
    cut = np.where(expired & (cut_round < REGULAR_ROUNDS), in_play + not_begun, 0)
    return duration, cut


# --- the stages ----------------------------------------------------------------------------------


def round_length(durations: np.ndarray, boards: int) -> np.ndarray:
    """Seconds a round of play takes on ``boards`` boards, per repetition (``durations``:
    ``[repetitions, matches]``): ``ceil(matches / boards)`` slots one after the other, each as
    long as its slowest match, the slowest matches sharing the first slot."""
    if durations.shape[1] == 0:
        return np.zeros(durations.shape[0])
    ordered = -np.sort(-durations, axis=1)
    return ordered[:, :: max(boards, 1)].sum(axis=1)


@dataclass
class _Play:
    """What a stage needs of the field in each repetition."""

    levels: np.ndarray  # [reps, n] level on the day
    seconds: np.ndarray  # [n]
    shots_per_round: int
    day: Day
    sampler: Sampler
    rng: np.random.Generator
    clock: np.random.Generator


def _games(
    play: _Play, a: np.ndarray, b: np.ndarray, playoff: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One game for each pair of entry indices ``a``, ``b`` (``[reps, m]``): A's score, seconds,
    rounds cut."""
    reps = a.shape[0]
    rows = np.repeat(np.arange(reps), a.shape[1])
    la = play.levels[rows, a.ravel()]
    lb = play.levels[rows, b.ravel()]
    score, rounds = play.sampler(la, lb, playoff, play.rng)
    seconds, cut = game_durations(
        play.seconds[a.ravel()],
        play.seconds[b.ravel()],
        rounds,
        shots_per_round=play.shots_per_round,
        limit_minutes=play.day.game_minutes,
        rng=play.clock,
    )
    shape = a.shape
    return score.reshape(shape), seconds.reshape(shape), cut.reshape(shape), rounds.reshape(shape)


def preliminary(play: _Play, games: int) -> tuple[StageTimes, np.ndarray]:
    """``games`` rounds of play in which every entry meets a random opponent (one sits out when
    the field is odd); returns the stage and each repetition's standings points ``[reps, n]``."""
    reps, n = play.levels.shape
    points = np.zeros((reps, n))
    length = np.zeros(reps)
    cut_rounds = np.zeros(reps)
    cut_games = np.zeros(reps)
    played = np.zeros(reps)
    m = n // 2
    for _round in range(games):
        order = np.argsort(play.rng.random((reps, n)), axis=1)
        a, b = order[:, :m], order[:, m : 2 * m]
        score, seconds, cut, _r = _games(play, a, b, playoff=False)
        rows = np.arange(reps)[:, None]
        np.add.at(points, (rows, a), 2 * score)
        np.add.at(points, (rows, b), 2 * (1 - score))
        length += round_length(seconds, play.day.boards) + 60.0 * play.day.break_minutes
        cut_rounds += cut.sum(axis=1)
        cut_games += (cut > 0).sum(axis=1)
        played += m
    stage = StageTimes("preliminary", games, length, played, cut_rounds, cut_games)
    return stage, points


def knockout(play: _Play, seeds: np.ndarray, best_of: int) -> StageTimes:
    """A knockout bracket of the entries ``seeds`` (``[reps, k]``, best first): the top seeds
    have byes to a power of two, then each round the best remaining seed meets the worst; each
    match is a best-of-``best_of`` series of playoff games on one board."""
    reps, k = seeds.shape
    size = 1 << max(k - 1, 1).bit_length()
    byes = size - k
    alive = seeds.copy()
    # First round: seeds byes+1..k pair highest against lowest; the top ``byes`` wait.
    length = np.zeros(reps)
    cut_rounds = np.zeros(reps)
    cut_games = np.zeros(reps)
    played = np.zeros(reps)
    rounds = 0
    need = best_of // 2 + 1
    while alive.shape[1] > 1:
        waiting = alive[:, :byes] if rounds == 0 else alive[:, :0]
        playing = alive[:, byes:] if rounds == 0 else alive
        half = playing.shape[1] // 2
        a = playing[:, :half]
        b = playing[:, half:][:, ::-1]
        wins_a = np.zeros(a.shape)
        wins_b = np.zeros(a.shape)
        seconds = np.zeros(a.shape)
        for _game in range(best_of):
            open_ = (wins_a < need) & (wins_b < need)
            if not open_.any():
                break
            score, secs, cut, _r = _games(play, a, b, playoff=True)
            wins_a += open_ * score
            wins_b += open_ * (1 - score)
            seconds += open_ * secs
            cut_rounds += (open_ * cut).sum(axis=1)
            cut_games += (open_ & (cut > 0)).sum(axis=1)
            played += open_.sum(axis=1)
        winners = np.where(wins_a >= wins_b, a, b)
        length += round_length(seconds, play.day.boards) + 60.0 * play.day.break_minutes
        # The winners keep their seed order (a is the better seed of each match).
        alive = np.concatenate([waiting, winners], axis=1)
        rounds += 1
    return StageTimes("playoffs", rounds, length, played, cut_rounds, cut_games)


def forecast(
    entries: Field,
    fmt: Format,
    day: Day,
    *,
    sampler: Sampler,
    repetitions: int = 200,
    seed: int = 0,
) -> Forecast:
    """The format's day played ``repetitions`` times: each stage's finish time (minutes after
    midnight), games, rounds and games the clock cut, per repetition."""
    check_format(fmt, entries.size)
    if day.boards < 1:
        raise ValueError(_("boards must be at least 1"))
    rng = np.random.default_rng([seed, PLAY_STREAM])
    level_rng = np.random.default_rng([seed, LEVEL_STREAM])
    clock = np.random.default_rng([seed, CLOCK_STREAM])
    noise = level_rng.standard_normal((repetitions, entries.size))
    levels = np.maximum(entries.levels[None, :] + entries.spreads[None, :] * noise, 0.0)
    play = _Play(
        levels=levels,
        seconds=np.asarray(entries.seconds, dtype=float),
        shots_per_round=SHOTS_PER_ROUND[entries.kind],
        day=day,
        sampler=sampler,
        rng=rng,
        clock=clock,
    )
    out = Forecast(fmt)
    start = np.full(repetitions, float(day.start))
    if fmt.prelim_games:
        stage, points = preliminary(play, fmt.prelim_games)
        stage.finish = start + stage.finish / 60.0
        out.stages.append(stage)
        start = stage.finish
        # Standings: points, then the level on the day (a stand-in for the 20s tie-break).
        order = np.lexsort((-levels, -points), axis=1)
    else:
        order = np.argsort(-levels, axis=1)
    if fmt.playoff:
        stage = knockout(play, order[:, : fmt.playoff], fmt.best_of)
        stage.finish = start + stage.finish / 60.0
        out.stages.append(stage)
    return out


def check_format(fmt: Format, entries: int) -> None:
    """Raises ``ValueError`` for a format the field cannot play."""
    if fmt.prelim_games < 0 or fmt.prelim_games > entries - 1:
        raise ValueError(_("prelim_games must be from 0 to %(most)s") % {"most": entries - 1})
    if fmt.playoff and not 2 <= fmt.playoff <= entries:
        raise ValueError(_("playoff must be 0 or from 2 to %(most)s") % {"most": entries})
    if fmt.best_of < 1 or fmt.best_of % 2 == 0:
        raise ValueError(_("best_of must be odd"))
    if not fmt.prelim_games and not fmt.playoff:
        raise ValueError(_("a format needs preliminary games or playoffs"))


# --- reading it ----------------------------------------------------------------------------------


def histogram(values: np.ndarray, bins: int = BINS) -> dict[str, list[float]]:
    """A histogram of ``values``: ``bins`` equal bins between the lowest and highest (one
    minute wide at least), their edges and counts."""
    low, high = float(values.min()), float(values.max())
    if high - low < 1.0:
        low, high = low - 0.5, high + 0.5
    counts, edges = np.histogram(values, bins=bins, range=(low, high))
    return {"edges": [round(float(e), 2) for e in edges], "counts": counts.tolist()}


def summarise(result: Forecast, day: Day) -> dict[str, Any]:
    """The forecast as stored: per stage the finish's histogram, median and 90th percentile,
    rounds cut (mean count, share of games cut); for the day the same and P(overrun)."""
    stages = []
    for stage in result.stages:
        games = float(stage.games.mean())
        stages.append(
            {
                "name": stage.name,
                "rounds": stage.rounds,
                "median": round(float(np.median(stage.finish)), 2),
                "p90": round(float(np.percentile(stage.finish, 90)), 2),
                "histogram": histogram(stage.finish),
                "games": round(games, 1),
                "rounds_cut": round(float(stage.rounds_cut.mean()), 2),
                "games_cut_share": round(float(stage.games_cut.mean()) / games, 4)
                if games
                else 0.0,
            }
        )
    finish = result.finish
    fmt = result.format
    return {
        "key": fmt.key,
        "prelim_games": fmt.prelim_games,
        "playoff": fmt.playoff,
        "best_of": fmt.best_of,
        "stages": stages,
        "median": round(float(np.median(finish)), 2),
        "p90": round(float(np.percentile(finish, 90)), 2),
        "p_overrun": round(float((finish > day.end).mean()), 4),
        "games": round(sum(s["games"] for s in stages), 1),
        "rounds_cut": round(sum(s["rounds_cut"] for s in stages), 2),
    }


def formats_of(
    prelim_games: Sequence[int], playoffs: Sequence[int], best_of: Sequence[int]
) -> list[Format]:
    """Every combination of the choices, each once, in the order given."""
    seen: dict[str, Format] = {}
    for p in prelim_games:
        for k in playoffs:
            for b in best_of if k else (1,):
                fmt = Format(int(p), int(k), int(b))
                seen.setdefault(fmt.key, fmt)
    return list(seen.values())


def clock_time(minutes: float) -> str:
    """Minutes after midnight as a clock time, ``+1`` after midnight of the next day."""
    whole = math.floor(minutes + 0.5)
    days, rest = divmod(whole, 24 * 60)
    text = f"{rest // 60:02d}:{rest % 60:02d}"
    return text + (f" (+{days})" if days else "")
