"""Playing simulated games from plain job descriptions: what the parallel Celery tasks run.

Nothing here touches the database: a job says who plays (skill profiles per seat), how (rounds,
discs, a playoff game's 5th round, who opens) and with which seed, and the result is the game
records, compressed for the trip back through the result backend. The orchestrating task then
writes them through the scorecard services in one place.

Seating: the match's entry A is side 0, entry B side 1. Singles sit at seats 0 (A) and 2 (B);
doubles partners sit opposite, A at seats 0 and 2, B at 1 and 3 (``simulation.rules.seats``).
"""

from __future__ import annotations

import gc
import hashlib
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from django.utils.translation import gettext as _

from scoring.engine import BEST_OF, decided_early, wins_needed
from simulation.services.records import encode_record

__all__ = [
    "cannot_preview",
    "card_rounds",
    "category_play",
    "derive_seed",
    "game_summary",
    "play_match_job",
    "play_summaries",
    "preview_parts",
    "seat_players",
    "share_out",
    "shootout_twenties",
    "time_limit",
    "warm_up",
]


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any labels: the same labels give the same seed on any machine."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


#: Scoring systems whose matches cannot be previewed: a preview sums its games up as the
#: chances of two sides (entry A wins, a tie, entry B wins), and the three players alone of the
#: family rulebook's Option Two are ranked, not paired. Auto-play and dry runs play them.
UNPREVIEWED_SYSTEMS = ("three-player",)


def cannot_preview(scoring_system: str, category: str, action: str) -> str:
    """Why a preview cannot ``action`` ("preview A v B v C") in the category named
    ``category``, scored by ``scoring_system``; "" when it can. Said before anything is queued."""
    if scoring_system not in UNPREVIEWED_SYSTEMS:
        return ""
    return _(
        "%(category)s plays three-player games (three players alone at a board); a preview gives "
        "the chances of two sides, so it cannot %(action)s. Auto-play or a dry run plays these "
        "games."
    ) % {"category": category, "action": action}


def warm_up() -> None:
    """Load (or compile) the physics in this process, e.g. when a worker starts, so the first
    real game does not pay for it; then freeze what is loaded out of Python's garbage collector.

    A process that plays games makes and drops many small objects, and every so often Python
    walks all of its objects to look for cycles: with Django and the compiled physics loaded, a
    walk took about 0.1 s, once every 50 to 60 preview games (3 to 4 % of their time). Frozen
    (``gc.freeze``), the objects alive at start-up are left out of every walk, and a process
    that forks afterwards shares them without copying the pages a walk would write to. The
    youngest generation is then walked every ``GC_YOUNG`` allocations instead of Python's 700:
    a game's objects are freed by their counts, not by the walks, which cost 3 % of preview
    games at 700 (the same games, measured in turns in one process)."""
    from simulation.game import play_game  # on first use: it loads the compiled physics

    play_game(["competitive", "competitive"], seed=1, rounds=1, discs_per_player=1)
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])


#: Allocations between two walks of the youngest generation in a process that plays games.
GC_YOUNG = 50_000


def seat_players(side_a: Sequence[Any], side_b: Sequence[Any], *more: Sequence[Any]) -> list[Any]:
    """Profiles in seat order for ``play_game``: singles (A, B) at seats 0 and 2, doubles
    (A1, B1, A2, B2) at seats 0-3, the three players alone of a three-player game (A, B, C) at
    seats 0-2."""
    sides = [side_a, side_b, *more]
    if len(sides) == 3 and all(len(side) == 1 for side in sides):
        return [side[0] for side in sides]
    if len(sides) != 2 or len(side_a) != len(side_b) or len(side_a) not in (1, 2):
        raise ValueError(
            _(
                "each side needs the same number of players, 1 or 2, or three sides of one "
                "(got %(sizes)s)"
            )
            % {"sizes": ", ".join(str(len(side)) for side in sides)}
        )
    if len(side_a) == 1:
        return [side_a[0], side_b[0]]
    return [side_a[0], side_b[0], side_a[1], side_b[1]]


def first_seat(first_side: str, seats: int) -> int:
    """The seat that opens the game, for ``seats`` players at the board: entry A's first seat
    (0), or entry B's (2 in singles, 1 in doubles and in the three-player game)."""
    if first_side == "a":
        return 0
    return 2 if seats == 2 else 1


def winner(points: Sequence[int]) -> int | None:
    """The side that won a game of these points, or None for a draw (every system's game ends
    with its one leader as the winner, or several level at the top)."""
    best = max(points)
    return points.index(best) if list(points).count(best) == 1 else None


def time_limit(game_minutes: int | None) -> int | None:
    """The ``time_limit`` of ``play_game`` for a tournament's game time: its minutes (WCC: "a
    buzzer will be used to begin and end play"); 0 or None for untimed games."""
    return game_minutes or None


def category_play(category: Any) -> dict[str, Any]:
    """How a category's games are played, as ``play_game`` takes it: its clock (the category's
    one decision, :meth:`Category.time_limit_minutes`: a family-rulebook category is untimed
    unless the organizer set a clock) and its rules of play (the family rulebook's for its
    systems, the NCA's otherwise)."""
    return {
        "time_limit": time_limit(category.time_limit_minutes()),
        "rules": category.rules_of_play,
    }


def card_rounds(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A played game's rounds as a scorecard row holds them, side A first: points, 20s, board
    scores, and whether time ran out before the round began (WCC: "For any round where no discs
    are shot before time expires, both teams will record a zero"). A round the buzzer cut in
    play is scored by the discs on the board, like any other."""
    return [
        {
            "points": r["points"],
            "twenties": r["twenties"],
            "score": r["score"],
            "time_expired": bool(r.get("cut_short")) and not r["shots"],
        }
        for r in record["rounds"]
    ]


def _play(
    spec: Mapping[str, Any], playoff: bool, opener: int, seed: int, events: bool = True
) -> dict[str, Any]:
    """One game of the spec; ``events`` keeps the physics events for replays."""
    from simulation.game import play_game  # on first use: it loads the compiled physics

    return play_game(
        list(spec["players"]),
        rules=spec.get("rules", "nca"),
        seed=seed,
        rounds=spec["rounds"],
        playoff=playoff,
        discs_per_player=spec["discs_per_player"],
        first_seat=opener,
        scoring=spec.get("scoring", "nca"),
        target=spec.get("target"),
        time_limit=spec.get("time_limit"),
        events=events,
    )


def play_match_job(job: Mapping[str, Any]) -> dict[str, Any]:
    """Play a match's remaining games in order until it is decided.

    ``job``: ``{"match_id", "best_of", "match_format", "wins": [a, b], "players": [...per
    seat...], "rounds", "discs_per_player", "rules", "scoring", "target", "games": [{"game_id",
    "first_side", "playoff", "seed"}]}``.
    A best-of-N match stops once a side has won a majority (WCC: best two out of three); the
    games it did not need are not played. A fixed match (``match_format`` "fixed") plays them
    all: the judge never decides it early (``scoring.engine.decided_early``). Returns
    ``{"match_id", "games": [{"game_id", "seed", "rounds", "summary", "raw_size", "record"}]}``:
    per game the rounds as the scorecard rows need them (points, 20s, board scores by side), the
    figures of ``game_summary``, and the full record zlib-compressed and base64-encoded.
    """
    seats = len(job["players"])
    wins = list(job.get("wins", (0, 0)))
    match_format = job.get("match_format", BEST_OF)
    played = []
    for game in job["games"]:
        if decided_early(wins, job["best_of"], match_format):
            break
        record = _play(job, game["playoff"], first_seat(game["first_side"], seats), game["seed"])
        won = winner(record["points"])
        if won is not None and won < len(wins):
            wins[won] += 1
        text, size = encode_record(record)
        played.append(
            {
                "game_id": game["game_id"],
                "seed": game["seed"],
                "rounds": card_rounds(record),
                "summary": game_summary(record),
                "raw_size": size,
                "record": text,
            }
        )
    return {"match_id": job["match_id"], "games": played}


def share_out(jobs: Sequence[Mapping[str, Any]], parts: int) -> list[list[Mapping[str, Any]]]:
    """A batch's match jobs cut into at most ``parts`` tasks of about the same work, the
    heaviest first.

    Each worker process takes one task at a time (prefetch 1), so the more tasks, the more
    processes share a batch, however many workers there are: up to ``parts``, one match a task
    (a match's games are played in order, each decided before the next is needed: it cannot be
    split). Above that, matches are dealt out by their games still to play, the longest first,
    to the lightest task so far: a best-of-3 weighs three games of a preliminary, and the batch
    ends when its heaviest task does. Sent heaviest first, a short task fills the gap at the
    end of a round instead of a long one starting last."""
    parts = max(1, min(parts, len(jobs)))
    chunks: list[list[Mapping[str, Any]]] = [[] for _ in range(parts)]
    loads = [0] * parts
    for job in sorted(jobs, key=lambda j: -len(j["games"])):
        lightest = loads.index(min(loads))
        chunks[lightest].append(job)
        loads[lightest] += len(job["games"])
    order = sorted(range(parts), key=lambda k: -loads[k])
    return [chunks[k] for k in order if chunks[k]]


#: A preview's games go out in parts: at least this many, so that every worker gets some...
PREVIEW_MIN_PARTS = 8
#: ... and of at most this many games each: each part's figures reach the preview's page as it
#: comes back, so that a 1,000-game preview shows its chances firming up about every 50 games.
PREVIEW_PART_GAMES = 50
#: Towards the end the parts shrink to a quarter of the games still to hand out, down to this
#: many: the workers then run out of games at about the same time, where with parts of one size
#: one of them could sit idle for most of a part while the other played the last one.
PREVIEW_TAIL_GAMES = 10


def preview_parts(seeds: Sequence[int]) -> list[tuple[int, list[int]]]:
    """A preview's seeds cut into its parts, in order, each with the place of its first seed in
    the preview (for ``play_summaries``): parts of about the same size, then smaller and smaller
    ones at the end (see ``PREVIEW_TAIL_GAMES``)."""
    count = max(PREVIEW_MIN_PARTS, -(-len(seeds) // PREVIEW_PART_GAMES))
    size = max(1, -(-len(seeds) // count))
    parts = []
    first = 0
    while first < len(seeds):
        take = min(size, max(PREVIEW_TAIL_GAMES, -(-(len(seeds) - first) // 4)))
        parts.append((first, list(seeds[first : first + take])))
        first += take
    return parts


def play_summaries(
    spec: Mapping[str, Any], seeds: Iterable[int], first: int = 0
) -> list[list[int]]:
    """Games for a preview: per seed, ``[points a, points b, 20s a, 20s b, shots]`` only.
    ``first`` is the place of the first seed among the preview's: a part of a preview plays
    each game as the whole preview in one part would, however it is cut."""
    seats = len(spec["players"])
    out = []
    for index, seed in enumerate(seeds, start=first):
        # Alternate who opens, as a best-of-N does game by game (NCA 4b, 5b).
        opener = first_seat("a" if (seed + index) % 2 == 0 else "b", seats)
        # A preview keeps five numbers of each game: no event record is made.
        record = _play(spec, spec.get("playoff", False), opener, seed, events=False)
        shots = sum(len(r["shots"]) for r in record["rounds"])
        out.append([*record["points"], *record["twenties"], shots])
    return out


def game_summary(record: Mapping[str, Any]) -> dict[str, int]:
    """What the statistics need from one game record: shots, rounds, tied rounds, 20s per
    side, and per side the open-20 attempts (shots taken with no opponent disc in play) and how
    many of them ended as a 20. ``search_shots`` counts the physics shots the players' search
    spent on their decisions, where the record says (``aim.shots_simulated``). Side C's figures
    are 0 but in a three-player game; a round is tied when two sides share its points."""
    seats = {int(seat): side for seat, side in record["seats"].items()}
    sides = len(record["points"])
    shots = tied = search = 0
    attempts = [0, 0, 0]
    made = [0, 0, 0]
    for rnd in record["rounds"]:
        if len(set(rnd["points"])) < sides:
            tied += 1
        before: Sequence[Mapping[str, Any]] = []
        for item in rnd["shots"]:
            shots += 1
            search += int((item.get("aim") or {}).get("shots_simulated", 0))
            side = seats[int(item["seat"])]
            outcome = item["outcome"]
            if not any(d["side"] != side for d in before):
                attempts[side] += 1
                shot_id = item["shot"].get("id")
                if any(t["id"] == shot_id for t in outcome.get("twenties", ())):
                    made[side] += 1
            before = outcome["discs"]
    return {
        "shots": shots,
        "rounds": len(record["rounds"]),
        "tied_rounds": tied,
        "rounds_cut_short": int(record.get("rounds_cut_short", 0)),
        "sides": sides,
        "twenties_a": int(record["twenties"][0]),
        "twenties_b": int(record["twenties"][1]),
        "twenties_c": int(record["twenties"][2]) if sides == 3 else 0,
        "players_per_side": len(seats) // sides,
        "open20_attempts_a": attempts[0],
        "open20_attempts_b": attempts[1],
        "open20_attempts_c": attempts[2],
        "open20_made_a": made[0],
        "open20_made_b": made[1],
        "open20_made_c": made[2],
        "search_shots": search,
    }


def shootout_twenties(players: Sequence[Any], shots_each: int, rng: np.random.Generator) -> int:
    """The 20s an entry makes in a shoot-out: each of its players shoots ``shots_each`` open 20s
    (WCC: 12 shots, 6 each in doubles) from the south seat with their own execution error,
    through the physics and the rules."""
    # On first use: these load the compiled physics.
    from simulation.api import simulate_shot
    from simulation.players.candidates import OPEN_20_SPEED
    from simulation.players.noise import execute
    from simulation.players.profiles import get_profile

    made = 0
    for spec in players:
        profile = get_profile(spec)
        for k in range(shots_each):
            nominal = {"seat": 0, "position": 0.0, "angle": 0.0, "speed": OPEN_20_SPEED}
            shot = execute({**nominal, "id": f"s{k + 1}"}, profile, rng)
            outcome = simulate_shot({"discs": []}, shot)
            made += bool(outcome["twenties"])
    return made


def match_win_probability(p_win: float, p_loss: float, best_of: int) -> float:
    """Chance that entry A wins a best-of-N match of independent games, ties replayed (a
    playoff game always has a winner)."""
    decided = p_win + p_loss
    if decided <= 0:
        return 0.0
    p = p_win / decided
    need = wins_needed(best_of)
    # A wins the match when A's `need`-th win comes before B's: negative binomial.
    return float(sum(math.comb(need - 1 + k, k) * p**need * (1 - p) ** k for k in range(need)))
