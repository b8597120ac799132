"""A whole game played by AI players: ``play_game``.

Seating, turn order and who starts come from the rules (:mod:`simulation.rules.seats`): singles
players sit at seats 0 and 2 and alternate starting each round (NCA 4b); doubles partners sit
opposite each other and the start moves one seat clockwise each round (NCA 5b). The hammer is the
seat that shoots last. Each shot is chosen by the seat's AI player, released with that player's
execution error, and simulated and ruled on by :func:`simulation.api.simulate_shot`, so the record
holds every outcome exactly as that function returns it, events included, ready for replays. The
board is counted at the end of each round with the rules' tally (NCA 2a(iii)-(iv)).

One seed drives everything random (the players' searches and their hands), and the physics is
deterministic, so the same seed gives the same game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from scoring.engine import GAME_ROUNDS, EngineInputError, GameRules
from scoring.engine.rounds import DIFFERENCE, difference_points
from simulation.rules.round import SIDE_LETTERS
from simulation.rules.seats import (
    DOUBLES,
    SINGLES,
    default_discs_per_player,
    hammer_seat,
    round_first_seat,
    turn_order,
)
from simulation.rules.state import Disc
from simulation.rules.tally import board_scores, round_points
from simulation.rules.variants import DEFAULT_RULES, get_rules

__all__ = ["GAME_ROUNDS", "play_game"]

#: A game that is not over after this many rounds is stopped with an error: a first-to game
#: between players who never score would otherwise never end.
MOST_ROUNDS = 200


def _check_count(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _players(players: object) -> list[Any]:
    from simulation.players.player import AIPlayer  # on first use: it loads the compiled physics

    if isinstance(players, str | bytes | Mapping) or not isinstance(players, Sequence):
        raise ValueError(
            "players must be a list of skill profiles, one per seat: two for singles, four for "
            f"doubles, not {players!r}"
        )
    if len(players) not in (2, 4):
        raise ValueError(
            f"{len(players)} players: singles takes two (seats 0 and 2), doubles four (seats 0-3)"
        )
    out = []
    for index, spec in enumerate(players):
        try:
            out.append(AIPlayer.of(spec))
        except ValueError as error:
            raise ValueError(f"player {index + 1}: {error}") from None
    return out


def play_game(
    players: Sequence[Any],
    rules: str = DEFAULT_RULES,
    seed: int | None = None,
    rounds: int = GAME_ROUNDS,
    playoff: bool = False,
    discs_per_player: int | None = None,
    first_seat: int = 0,
    scoring: str = "nca",
    target: int | None = None,
) -> dict[str, Any]:
    """Play a game between AI players and return its record.

    ``players``: one skill profile per seat in play (a level name — ``"novice"``,
    ``"recreational"``, ``"competitive"``, ``"top"``, ``"best"`` —, a dict with ``angle_sd`` and
    ``speed_sd``, or a player described by their record, ``{"twenties_per_game": x}``, who makes
    about x 20s per 4-round game against a like opponent): two for singles (seats 0 and 2, sides 0
    and 1), four for doubles (seats 0-3; seats 0 and 2 play side 0). ``playoff`` adds a 5th round
    when the points are tied after ``rounds``, and another while that is tied, so a playoff game
    always has a winner.
    ``discs_per_player`` defaults to 8 in singles, 6 in doubles (cue categories play
    fewer). ``first_seat`` opens the game. ``scoring`` names the scoring system of the game
    (``"nca"``; the family rulebook's ``"difference-to-100"`` and ``"match-play-to-8"``;
    ``"first-to-N"`` with ``target``): rounds are played until that system's game is over, and a
    round's points are what the system gives for it (the difference of the board scores in a game
    to 100). ``rounds`` counts only for ``"nca"``.

    The record: ``{"seats", "rules", "discs_per_player", "points", "twenties", "rounds": [{"first",
    "hammer", "score", "points", "twenties", "shots": [{"seat", "shot", "outcome", "aim"}]}]}``,
    where ``shot`` is the shot as released and ``outcome`` what :func:`simulate_shot` returned for
    it; ``aim`` is what the player meant to play. Raises ``ValueError`` for bad arguments.
    """
    # On first use: these load the compiled physics.
    from simulation.api import simulate_shot
    from simulation.players.estimate import open_20_rate_of
    from simulation.players.player import aim_record
    from simulation.players.situation import situation_from_state

    rule_set = get_rules(rules)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise ValueError(f"seed must be a whole number of at least 0 or null, not {seed!r}")
    rounds = _check_count("rounds", rounds, 1, 20)
    if not isinstance(playoff, bool):
        raise ValueError(f"playoff must be true or false, not {playoff!r}")
    seated = _players(players)
    seats = dict(SINGLES) if len(seated) == 2 else dict(DOUBLES)
    by_seat = dict(zip(sorted(seats), seated, strict=True))
    if discs_per_player is None:
        discs_per_player = default_discs_per_player(seats)
    discs_per_player = _check_count("discs_per_player", discs_per_player, 1, 12)
    if isinstance(first_seat, bool) or first_seat not in seats:
        raise ValueError(f"first_seat must be an occupied seat {sorted(seats)}, not {first_seat!r}")
    rates = {seat: open_20_rate_of(player.profile) for seat, player in by_seat.items()}
    rng = np.random.default_rng(seed)
    seats_json = {str(seat): side for seat, side in sorted(seats.items())}

    records: list[dict[str, Any]] = []
    points = [0, 0]
    twenties = [0, 0]
    index = 0
    # The judge of results decides when the game is over: after ``rounds`` rounds, and in a
    # playoff not while level (WCC: "a winner has to be determined"), however long that takes.
    try:
        system = GameRules(
            system=scoring, rounds=rounds, playoff=playoff, target=target
        ).scoring_system()
    except EngineInputError as error:
        raise ValueError(str(error)) from None
    if system.sides != 2:
        raise ValueError(f"{scoring} is played by {system.sides} sides; play_game plays two")
    difference = system.round_scoring == DIFFERENCE
    played_points: list[tuple[int, int]] = []
    while not system.tally(played_points).over:
        if len(played_points) >= MOST_ROUNDS:
            raise ValueError(
                f"the game was not over after {MOST_ROUNDS} rounds; the players score too little "
                f"for {system.name}"
            )
        first = round_first_seat(seats, first_seat, index)
        order = turn_order(seats, first, discs_per_player)
        state: dict[str, Any] = {"discs": [], "seats": seats_json}
        made = [0, 0]
        numbered = [0, 0]
        shots: list[dict[str, Any]] = []
        for number, seat in enumerate(order):
            sit = situation_from_state(state, seat, order[number + 1 :], made, rule_set, rates)
            player = by_seat[seat]
            choice = player.decide(sit, rng)
            side = seats[seat]
            numbered[side] += 1
            shot = player.release(choice, seat, f"{SIDE_LETTERS[side]}{numbered[side]}", rng)
            outcome = simulate_shot(state, shot, rules=rule_set.name)
            for twenty in outcome["twenties"]:
                made[twenty["side"]] += 1
            state = {"discs": outcome["discs"], "seats": seats_json}
            shots.append(
                {"seat": seat, "shot": shot, "outcome": outcome, "aim": aim_record(choice)}
            )
        board = [
            Disc(d["id"], d["side"], d["x"], d["y"], bool(d.get("leaner", False)))
            for d in state["discs"]
        ]
        score = board_scores(board, (made[0], made[1]))
        round_pts = round_points(score, len(order))
        if difference and order:
            round_pts = difference_points(score)
        played_points.append((round_pts[0], round_pts[1]))
        for side in (0, 1):
            points[side] += round_pts[side]
            twenties[side] += made[side]
        records.append(
            {
                "first": first,
                "hammer": hammer_seat(seats, first),
                "score": list(score),
                "points": list(round_pts),
                "twenties": list(made),
                "shots": shots,
            }
        )
        index += 1
    return {
        "seats": seats_json,
        "rules": rule_set.name,
        "discs_per_player": discs_per_player,
        "players": [by_seat[seat].profile.to_json() for seat in sorted(seats)],
        "points": points,
        "twenties": twenties,
        "rounds": records,
    }
