"""A whole game played by AI players: ``play_game``.

Seating, turn order and who starts come from the rules (:mod:`simulation.rules.seats`): singles
players sit at seats 0 and 2 and alternate starting each round (NCA 4b); doubles partners sit
opposite each other and the start moves one seat clockwise each round (NCA 5b). The hammer is the
seat that shoots last. Each shot is chosen by the seat's AI player, released with that player's
execution error, and simulated and ruled on by :func:`simulation.api.play_shot` (what
``simulate_shot`` does, from the board the game holds), so the record holds every outcome exactly
as ``simulate_shot`` returns it, events included, ready for replays (a caller that keeps only the
results may leave the events out). The board is counted at the end of each round with the
rules' tally (NCA 2a(iii)-(iv)).

The family rulebook's three-player games are played too: two versus one (the lone player takes
every other turn) and three players alone, scored 2-1-0 by rank by the scoring engine's
``three-player`` system. A player in the game alone plans as if the two others were one opposing
side, which is what "no opponent's disk is considered friendly" means for the shot they choose.

A game may be timed (a limit in minutes); each shot then takes its player some seconds, and the
buzzer cuts the game short as the WCC and NCA 8b say (see :mod:`simulation.rules.timing`).

One seed drives everything random (the players' searches and their hands), and the physics is
deterministic, so the same seed gives the same game. The shot times are drawn from a stream of
their own, derived from the same seed, so that a time limit changes nothing but where play stops.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any

import numpy as np

from scoring.engine import GAME_ROUNDS, EngineInputError, GameRules
from scoring.engine.rounds import DIFFERENCE, difference_points
from scoring.engine.systems import Nca
from simulation.rules.round import SIDE_LETTERS
from simulation.rules.seats import (
    DOUBLES,
    SINGLES,
    THREE_ALONE,
    THREE_ALONE_KIND,
    TWO_V_ONE,
    TWO_V_ONE_KIND,
    default_discs_per_player,
    hammer_seat,
    round_first_turn,
    seating_kind,
    turn_cycle,
    turn_order,
)
from simulation.rules.state import BoardState
from simulation.rules.tally import board_scores, round_points
from simulation.rules.timing import GameClock, check_shot_seconds, equalising_shot_due
from simulation.rules.variants import DEFAULT_RULES, get_rules
from tournaments.translation import _

__all__ = ["GAME_ROUNDS", "SHOT_SECONDS", "THREE_PLAYER_GAMES", "play_game"]

#: A game that is not over after this many rounds is stopped with an error: a first-to game
#: between players who never score would otherwise never end.
MOST_ROUNDS = 200


def _check_count(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(
            _("%(name)s must be a whole number from %(low)s to %(high)s, not %(value)r")
            % {"name": name, "low": low, "high": high, "value": value}
        )
    return value


THREE_PLAYER_GAMES = ("alone", "two-v-one")
"""The family rulebook's three-player games: Option Two, each player alone (the default), and
Option One, two versus one."""

SHOT_SECONDS: Mapping[str, float] = MappingProxyType(
    {"novice": 14.0, "recreational": 12.0, "competitive": 10.0, "top": 9.0, "best": 9.0}
)
"""Mean seconds a player of each level takes over a shot: setting the disc, reading the board,
aiming, waiting for the board to settle (NCA 7c). Chosen, not measured: stronger players read the
board faster. A profile without a level name takes :data:`DEFAULT_SHOT_SECONDS`."""

DEFAULT_SHOT_SECONDS = 11.0
"""Mean seconds over a shot of a player without a named level."""

SHOT_SECONDS_SPREAD = 0.3
"""Spread of one shot's time around the player's mean: the sd of its logarithm (about 30 %)."""

CLOCK_STREAM = 0x5EC
"""Mixed into the seed for the shot times, so that timing a game leaves its play unchanged."""

FORM_STREAM = 0xF0E
"""Mixed into the seed for the rounds' form, a stream of its own like the shot times."""

LEVEL_STREAM = 0x1E7
"""The stream (derived from the game's seed) that draws the day's level of each player described
by their record with a spread: its own, so that the rest of the game draws as it would."""


def _on_the_day(spec: Any, rng: np.random.Generator) -> Any:
    """A player described by their record with a ``spread``, at a level drawn from it (a normal
    belief over their 20s per game: :mod:`simulation.players.belief`), so that over many games a
    preview averages over what the record does not know of them; any other player as given."""
    from simulation.players.profiles import get_profile, record_spread  # loads the physics

    if not (isinstance(spec, Mapping) and "spread" in spec and "twenties_per_game" in spec):
        return spec
    get_profile(spec)  # refuses a malformed record or spread, saying which
    level = spec["twenties_per_game"] + record_spread(spec) * rng.standard_normal()
    return {"twenties_per_game": max(float(level), 0.0)}


def _players(players: object, seed: int | None) -> list[Any]:
    """One AI player per seat; a player with a spread plays at a level drawn for this game, from
    a stream of the seed's own (``LEVEL_STREAM``)."""
    from simulation.players.player import AIPlayer  # on first use: it loads the compiled physics

    if isinstance(players, str | bytes | Mapping) or not isinstance(players, Sequence):
        raise ValueError(
            _(
                "players must be a list of skill profiles, one per seat: two for singles, three "
                "for a three-player game, four for doubles, not %(players)r"
            )
            % {"players": players}
        )
    if len(players) not in (2, 3, 4):
        raise ValueError(
            _(
                "%(count)s players: singles takes two (seats 0 and 2), a three-player game three "
                "(seats 0-2), doubles four (seats 0-3)"
            )
            % {"count": len(players)}
        )
    rng = np.random.default_rng(None if seed is None else [seed, LEVEL_STREAM])
    out = []
    for index, spec in enumerate(players):
        try:
            out.append(AIPlayer.of(_on_the_day(spec, rng)))
        except ValueError as error:
            raise ValueError(
                _("player %(number)s: %(error)s") % {"number": index + 1, "error": error}
            ) from None
    return out


def _seating(count: int, three_player: str) -> dict[int, int]:
    if count == 2:
        return dict(SINGLES)
    if count == 4:
        return dict(DOUBLES)
    if three_player not in THREE_PLAYER_GAMES:
        raise ValueError(
            _("three_player must be one of %(games)s, not %(game)r")
            % {"games": ", ".join(THREE_PLAYER_GAMES), "game": three_player}
        )
    return dict(THREE_ALONE) if three_player == "alone" else dict(TWO_V_ONE)


def _shot_means(shot_seconds: object, profiles: Sequence[Any]) -> list[float]:
    """Each seat's mean seconds over a shot, in seat order (see :func:`play_game`)."""
    if shot_seconds is None:
        return [SHOT_SECONDS.get(p.name, DEFAULT_SHOT_SECONDS) for p in profiles]
    if isinstance(shot_seconds, int | float) and not isinstance(shot_seconds, bool):
        return [check_shot_seconds(shot_seconds)] * len(profiles)
    if isinstance(shot_seconds, Sequence) and not isinstance(shot_seconds, str | bytes):
        if len(shot_seconds) != len(profiles):
            raise ValueError(
                _("shot_seconds lists %(times)s times for %(players)s players")
                % {"times": len(shot_seconds), "players": len(profiles)}
            )
        return [check_shot_seconds(v, f"shot_seconds[{i}]") for i, v in enumerate(shot_seconds)]
    raise ValueError(
        _("shot_seconds must be a number of seconds or one per player, not %(seconds)r")
        % {"seconds": shot_seconds}
    )


def _view(board: BoardState, side: int) -> BoardState:
    """The board as the player of ``side`` sees it in the three-player game alone: their own
    discs side 0, every other disc side 1 ("no opponent's disk is considered friendly")."""
    return BoardState(
        discs=tuple(replace(d, side=0 if d.side == side else 1) for d in board.discs),
        seats={s: 0 if v == side else 1 for s, v in sorted(board.seats.items())},
    )


def play_game(
    players: Sequence[Any],
    rules: str = DEFAULT_RULES,
    seed: int | None = None,
    rounds: int = GAME_ROUNDS,
    playoff: bool = False,
    discs_per_player: int | None = None,
    first_seat: int = 0,
    scoring: str | None = None,
    target: int | None = None,
    three_player: str = "alone",
    time_limit: float | None = None,
    shot_seconds: float | Sequence[float] | None = None,
    *,
    events: bool = True,
) -> dict[str, Any]:
    """Play a game between AI players and return its record.

    ``players``: one skill profile per seat in play (a level name — ``"novice"``,
    ``"recreational"``, ``"competitive"``, ``"top"``, ``"best"`` —, a dict with ``angle_sd`` and
    ``speed_sd``, or a player described by their record, ``{"twenties_per_game": x}``, who makes
    about x 20s per 4-round game against a like opponent; with ``"spread": s`` their level on
    the day is uncertain, and each game is played at a level drawn from a normal of mean x and
    standard deviation s, from a stream of its own derived from the seed): two for singles
    (seats 0 and 2, sides 0 and 1), four for doubles (seats 0-3; seats 0 and 2 play side 0),
    three for the family rulebook's three-player game (seats 0-2).
    ``three_player`` says which: ``"alone"`` (Option Two: sides 0, 1, 2, no friendly discs,
    scored 2-1-0 by rank by the ``"three-player"`` system, 12 discs each) or ``"two-v-one"``
    (Option One: seats 0 and 2 are partners on side 0 with 6 discs each, seat 1 plays side 1
    alone with 12, "shooting one disk every other turn, always shooting from a single quadrant";
    scored as a two-sided game). ``playoff`` adds a 5th round when the points are tied after
    ``rounds``, and another while that is tied, so a playoff game always has a winner.
    ``discs_per_player`` defaults to the rules' figure: NCA and WCC 8 in singles, the family
    rulebook's two-player game 12; 6 in doubles and for each partner in two versus one (cue
    categories play fewer). ``first_seat`` opens the game. ``scoring`` names the scoring system
    of the game (default ``"nca"``, for three players alone ``"three-player"``; the family
    rulebook's ``"difference-to-100"`` and ``"match-play-to-8"``; ``"first-to-N"`` with
    ``target``): rounds are played until that system's game is over, and a round's points are
    what the system gives for it (the difference of the board scores in a game to 100).
    ``rounds`` counts only for ``"nca"``.

    Timed play: ``time_limit`` is the game's time in minutes (None: untimed). Each shot takes
    its player some seconds (``shot_seconds``: a mean for everyone or one per player; by default
    each level's :data:`SHOT_SECONDS`), spread around the mean by a seeded draw of its own, so a
    timed game is played exactly like the untimed game of the same seed until the buzzer. When
    the buzzer sounds the round in play ends once a side that has had one shot fewer has taken
    its equalising shot (NCA 8b; WCC: "they will be allowed to take one last shot immediately
    after the buzzer ... The round will be scored by the discs on the board at that time"); the
    rounds of an NCA game not begun record 0-0 (WCC: "For any round where no discs are shot
    before time expires, both teams will record a zero"), and a game of another system ends.

    The record: ``{"seats", "rules", "discs_per_player", "players", "points", "twenties",
    "rounds": [{"first", "hammer", "score", "points", "twenties", "shots": [{"seat", "shot",
    "outcome", "aim"}]}]}``, where ``shot`` is the shot as released and ``outcome`` what
    :func:`simulate_shot` returned for it; ``aim`` is what the player meant to play. Points,
    twenties and scores have one figure per side (three for three players alone). A timed game
    adds ``"time"`` (``limit_minutes``, ``elapsed_seconds``, ``expired``), ``"rounds_cut_short"``
    (how many rounds the buzzer cut short: the round in play when it sounded, if discs were left
    unshot, and the rounds not begun), per round ``"cut_short"`` and ``"unshot"`` (discs left
    unshot), and per shot ``"seconds"`` (its time) and ``"equalising"`` (shot after the buzzer).
    A timed ``playoff`` game level when its regular rounds are over (the rounds the buzzer kept
    from being begun record 0-0) plays its deciding rounds in full with the clock stopped, until
    the scoring engine's tally says it is over; each such round is marked ``"after_buzzer"`` and
    its shots carry no time (WCC: "a winner has to be determined in these games").
    ``events=False`` leaves the physics events out of every outcome (``simulate_shot``'s
    ``events``): the same game, shot for shot, at less cost, when only its results are kept.
    Raises ``ValueError`` for bad arguments.
    """
    # On first use: these load the compiled physics.
    from simulation.api import play_shot
    from simulation.players.estimate import open_20_rate_of
    from simulation.players.noise import round_forms
    from simulation.players.player import aim_record
    from simulation.players.situation import situation_from_state

    rule_set = get_rules(rules)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise ValueError(
            _("seed must be a whole number of at least 0 or null, not %(seed)r") % {"seed": seed}
        )
    rounds = _check_count("rounds", rounds, 1, 20)
    if not isinstance(playoff, bool):
        raise ValueError(_("playoff must be true or false, not %(playoff)r") % {"playoff": playoff})
    seated = _players(players, seed)
    seats = _seating(len(seated), three_player)
    kind = seating_kind(seats)
    sides = len(set(seats.values()))
    by_seat = dict(zip(sorted(seats), seated, strict=True))
    if discs_per_player is None:
        discs_per_player = default_discs_per_player(seats, rule_set)
    discs_per_player = _check_count("discs_per_player", discs_per_player, 1, 12)
    if isinstance(first_seat, bool) or first_seat not in seats:
        raise ValueError(
            _("first_seat must be an occupied seat %(seats)s, not %(seat)r")
            % {"seats": sorted(seats), "seat": first_seat}
        )
    clock = GameClock.of_minutes(time_limit)
    means = dict(
        zip(sorted(seats), _shot_means(shot_seconds, [p.profile for p in seated]), strict=True)
    )
    rates = {seat: open_20_rate_of(player.profile) for seat, player in by_seat.items()}
    rng = np.random.default_rng(seed)
    clock_rng = np.random.default_rng(None if seed is None else [seed, CLOCK_STREAM])
    form_rng = np.random.default_rng(None if seed is None else [seed, FORM_STREAM])
    seats_json = {str(seat): side for seat, side in sorted(seats.items())}
    alone = kind == THREE_ALONE_KIND

    records: list[dict[str, Any]] = []
    points = [0] * sides
    twenties = [0] * sides
    index = 0
    cut_short = 0
    if scoring is None:
        scoring = "three-player" if alone else "nca"
    # The judge of results decides when the game is over: after ``rounds`` rounds, and in a
    # playoff not while level (WCC: "a winner has to be determined"), however long that takes.
    try:
        system = GameRules(
            system=scoring, rounds=rounds, playoff=playoff, target=target
        ).scoring_system()
    except EngineInputError as error:
        raise ValueError(str(error)) from None
    if system.sides != sides:
        raise ValueError(
            _("%(scoring)s is played by %(needed)s sides; this game has %(sides)s (%(kind)s)")
            % {
                "scoring": scoring,
                "needed": system.sides,
                "sides": sides,
                "kind": _("three players alone") if alone else kind,
            }
        )
    difference = system.round_scoring == DIFFERENCE
    played_points: list[tuple[int, ...]] = []
    while not system.tally(played_points).over:
        if len(played_points) >= MOST_ROUNDS:
            raise ValueError(
                _(
                    "the game was not over after %(rounds)s rounds; the players score too little "
                    "for %(system)s"
                )
                % {"rounds": MOST_ROUNDS, "system": system.name}
            )
        # WCC: a round in which no disc was shot before time expired records a zero; only the
        # regular rounds of an NCA game are owed, no first-to round. A championship game still
        # level after its regular rounds gets its deciding rounds in full, the clock stopped
        # (WCC: "a winner has to be determined in these games").
        deciding = clock.expired and len(played_points) >= getattr(system, "rounds", 0)
        owed = deciding and playoff and isinstance(system, Nca)
        if clock.expired and (not isinstance(system, Nca) or deciding) and not owed:
            break
        timed = clock.limit is not None and not deciding
        turn = round_first_turn(seats, first_seat, index)
        first = turn_cycle(seats)[turn]
        order = turn_order(seats, first, discs_per_player, turn)
        board = BoardState(seats={seat: side for seat, side in sorted(seats.items())})
        # Each player's own form times the round's shared one: one may have a good round
        # while the other has a bad one (``simulation.players.noise.ROUND_OWN_FORM_SD``).
        for player, form in zip(seated, round_forms(form_rng, len(seated)), strict=True):
            player.in_form(form)
        made = [0] * sides
        numbered = [0] * sides
        shots: list[dict[str, Any]] = []
        for number, seat in enumerate(order):
            side = seats[seat]
            equalising = False
            if timed:
                seconds = float(means[seat] * clock_rng.lognormal(0.0, SHOT_SECONDS_SPREAD))
                if not clock.release(seconds):
                    if not equalising_shot_due(numbered, side):
                        break
                    clock.equalise(seconds)
                    equalising = True
            if alone:
                seen_made = [made[side], sum(made) - made[side]]
                sit = situation_from_state(
                    _view(board, side), seat, order[number + 1 :], seen_made, rule_set, rates
                )
            else:
                sit = situation_from_state(board, seat, order[number + 1 :], made, rule_set, rates)
            player = by_seat[seat]
            choice = player.decide(sit, rng)
            numbered[side] += 1
            shot = player.release(choice, seat, f"{SIDE_LETTERS[side]}{numbered[side]}", rng)
            outcome, board = play_shot(board, shot, rule_set, events=events)
            for twenty in outcome["twenties"]:
                made[twenty["side"]] += 1
            entry = {"seat": seat, "shot": shot, "outcome": outcome, "aim": aim_record(choice)}
            if timed:
                entry["seconds"] = round(seconds, 3)
                entry["equalising"] = equalising
            shots.append(entry)
        score = board_scores(list(board.discs), made)
        round_pts = round_points(score, len(shots))
        if difference and shots:
            round_pts = difference_points((score[0], score[1]))
        played_points.append(tuple(round_pts))
        for side in range(sides):
            points[side] += round_pts[side]
            twenties[side] += made[side]
        record: dict[str, Any] = {
            "first": first,
            "hammer": hammer_seat(seats, first, turn),
            "score": list(score),
            "points": list(round_pts),
            "twenties": list(made),
            "shots": shots,
        }
        if clock.limit is not None:
            unshot = len(order) - len(shots)
            record["cut_short"] = unshot > 0
            record["unshot"] = unshot
            cut_short += unshot > 0
            if deciding:
                record["after_buzzer"] = True
        records.append(record)
        index += 1
    result: dict[str, Any] = {
        "seats": seats_json,
        "rules": rule_set.name,
        "discs_per_player": discs_per_player,
        "players": [by_seat[seat].profile.to_json() for seat in sorted(seats)],
        "points": points,
        "twenties": twenties,
        "rounds": records,
    }
    if kind in (TWO_V_ONE_KIND, THREE_ALONE_KIND):
        result["three_player"] = "alone" if alone else "two-v-one"
        result["scoring"] = system.name
    if clock.limit is not None:
        result["time"] = clock.to_json()
        result["rounds_cut_short"] = cut_short
    return result
