"""Candidate shots, generated from the position the way strong players read a board.

With an opposing disc in play a shot must hit one (NCA 3a(i)), so the candidates are take-outs of
each opposing disc (a full hit, which sticks, and cuts either side, which roll off: hit-and-roll,
behind a peg if the physics says so), firm and hard, from the clearest start positions, and double
take-outs (one opposing disc driven into another). With none in play the no-hiding rule (NCA
3a(ii)) asks that the shot end touching or inside the 15 line: the candidates are the open 20 from
clear start positions, bumps of one's own disc into the 20, and draws that stop touching the 15 line
beside a peg, where they are hardest to reach.

Every shot is described by a start position on the shooting line and a "ghost point", where the
shooting disc's centre should be when it meets its target, with the speed it should have there; the
release direction and speed follow in closed form (straight path, constant deceleration). All of
it is vectorised: candidates for a whole board cost a few numpy calls, not a Python loop per shot.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simulation.players.situation import FIGURES, BoardFigures, Situation
from simulation.rules.seats import seat_angle

OPEN_20_SPEED = 1.05
"""Release speed (m/s) of the standard open 20 from the shooting line: it would stop about 7 cm
past the centre on a bare board, inside the hole's capture window for any line that crosses the
hole (the rate-maximising speed of every calibrated level, found with the physics)."""

KINDS = ("open-20", "take-out", "double", "bump-20", "hide", "draw", "hit-and-roll")
"""Names of the kinds of candidate, indexed by the ``kind`` codes."""
OPEN_20, TAKE_OUT, DOUBLE, BUMP_20, HIDE, DRAW, HIT_AND_ROLL = range(len(KINDS))

START_GRID = np.linspace(-44.0, 44.0, 12)
"""Start positions (degrees from the seat's centre line) tried for aimed shots."""

OPEN_20_STARTS = np.array([0.0, -8.0, 8.0, -16.0, 16.0, -32.0, 32.0, -40.0, 40.0])
"""Start positions tried for the open 20, most central first."""

CUTS = np.radians([0.0, 15.0, -15.0, 30.0, -30.0, 45.0, -45.0])
"""Departure directions of a take-out's target relative to the line of aim: a full hit (the
shooter sticks) and cuts either side (the shooter rolls off, the further the finer the cut)."""

FIRM, HARD = 1.2, 1.7
"""Target speed over what just carries it into the ditch: firm take-outs (every cut) and hard
ones (the full hit only, for a target far from the edge or a partly blocked line)."""

MAX_SPEED = 6.0
"""Fastest release (m/s) a candidate asks for."""


@dataclass(frozen=True)
class Candidates:
    """Nominal shots: start ``position`` and release ``angle`` (degrees), ``speed`` (m/s), and
    what each is for (``kind`` code, ``target`` disc index or -1)."""

    position: np.ndarray
    angle: np.ndarray
    speed: np.ndarray
    kind: np.ndarray
    target: np.ndarray

    def __len__(self) -> int:
        return len(self.position)

    def take(self, index: np.ndarray) -> Candidates:
        return Candidates(
            self.position[index],
            self.angle[index],
            self.speed[index],
            self.kind[index],
            self.target[index],
        )

    @staticmethod
    def concat(parts: list[Candidates]) -> Candidates:
        parts = [p for p in parts if len(p)]
        if not parts:
            return Candidates(*(np.zeros(0), np.zeros(0), np.zeros(0)), *_empty_ints(2))
        return Candidates(
            *(np.concatenate([getattr(p, f) for p in parts]) for f in _FIELDS),
        )


_FIELDS = ("position", "angle", "speed", "kind", "target")


def _empty_ints(n: int) -> list[np.ndarray]:
    return [np.zeros(0, dtype=np.int64) for _ in range(n)]


def start_points(
    seat_angle: float, position: np.ndarray, fig: BoardFigures = FIGURES
) -> np.ndarray:
    """Centres (M, 2) of discs set on the shooting line at ``position`` degrees from the seat."""
    theta = np.radians(seat_angle + position)
    return fig.shooting_r * np.stack([np.cos(theta), np.sin(theta)], axis=-1)


def segment_margin(
    start: np.ndarray,
    end: np.ndarray,
    obstacles: np.ndarray,
    clearance: np.ndarray,
    ignore: np.ndarray | None = None,
) -> np.ndarray:
    """How far (m) each path ``start -> end`` (M, 2) passes clear of the obstacles (O, 2).

    The smallest distance from an obstacle to the segment, less the obstacle's ``clearance``;
    negative when the moving disc would touch it. ``ignore`` (M, O) masks obstacles out.
    """
    if obstacles.shape[0] == 0:
        return np.full(start.shape[0], np.inf)
    d = end - start
    length2 = np.maximum((d * d).sum(-1), 1e-12)
    rel = obstacles[None, :, :] - start[:, None, :]
    t = np.clip((rel * d[:, None, :]).sum(-1) / length2[:, None], 0.0, 1.0)
    closest = start[:, None, :] + t[..., None] * d[:, None, :]
    gap = np.hypot(*(obstacles[None] - closest).transpose(2, 0, 1)) - clearance[None, :]
    if ignore is not None:
        gap = np.where(ignore, np.inf, gap)
    return gap.min(axis=1)


def edge_distance(
    point: np.ndarray, direction: np.ndarray, fig: BoardFigures = FIGURES
) -> np.ndarray:
    """How far a disc at ``point`` travels along unit ``direction`` before it leaves the surface."""
    b = (point * direction).sum(-1)
    c = (point * point).sum(-1) - fig.surface_r**2
    return -b + np.sqrt(np.maximum(b * b - c, 0.0))


def aim(
    seat_angle: float,
    position: np.ndarray,
    ghost: np.ndarray,
    impact_speed: np.ndarray,
    fig: BoardFigures = FIGURES,
) -> tuple[np.ndarray, np.ndarray]:
    """Release ``angle`` (degrees from the seat's centre line) and ``speed`` that carry a disc from
    ``position`` to the ``ghost`` point arriving at ``impact_speed``."""
    start = start_points(seat_angle, position, fig)
    d = ghost - start
    heading = np.degrees(np.arctan2(d[:, 1], d[:, 0]))
    angle = (heading - seat_angle - 180.0 + 180.0) % 360.0 - 180.0
    length = np.hypot(d[:, 0], d[:, 1])
    speed = np.sqrt(impact_speed**2 + 2.0 * fig.decel * length)
    return angle, speed


class _Board:
    """The obstacles of one situation and the legal, unobstructed start positions."""

    def __init__(self, sit: Situation, fig: BoardFigures) -> None:
        self.sit = sit
        self.fig = fig
        self.obstacles = np.concatenate([sit.positions, fig.pegs])
        self.clearance = np.concatenate(
            [np.full(sit.n_discs, 2.0 * fig.disc_r), np.full(len(fig.pegs), fig.disc_r + fig.peg_r)]
        )
        starts = start_points(sit.seat_angle, START_GRID, fig)
        if sit.n_discs:
            gap = np.hypot(*(starts[:, None, :] - sit.positions[None]).transpose(2, 0, 1))
            free = (gap >= 2.0 * fig.disc_r + 1e-5).all(axis=1)
        else:
            free = np.ones(len(START_GRID), dtype=bool)
        self.grid = START_GRID[free]
        self.grid_starts = starts[free]

    def free(self, position: np.ndarray) -> np.ndarray:
        """Whether a disc may be set down at each start position (no disc in the way)."""
        if self.sit.n_discs == 0:
            return np.ones(len(position), dtype=bool)
        starts = start_points(self.sit.seat_angle, position, self.fig)
        gap = np.hypot(*(starts[:, None, :] - self.sit.positions[None]).transpose(2, 0, 1))
        return (gap >= 2.0 * self.fig.disc_r + 1e-5).all(axis=1)

    def margins(
        self, starts: np.ndarray, ghosts: np.ndarray, skip: list[int] | np.ndarray
    ) -> np.ndarray:
        """Clearance of the paths from ``starts`` to ``ghosts``, ignoring the discs ``skip``."""
        ignore = np.zeros((len(starts), len(self.obstacles)), dtype=bool)
        ignore[:, np.asarray(skip, dtype=np.int64)] = True
        return segment_margin(starts, ghosts, self.obstacles, self.clearance, ignore)


def _best_starts(margin: np.ndarray, positions: np.ndarray, count: int) -> np.ndarray:
    """Indices of up to ``count`` start positions: clear ones, widest margin first, spread out;
    the least obstructed one when none is clear."""
    order = np.argsort(-margin, kind="stable")
    chosen: list[int] = []
    for k in order:
        if margin[k] < 0 and chosen:
            break
        if all(abs(positions[k] - positions[c]) >= 15.0 for c in chosen):
            chosen.append(int(k))
        if len(chosen) == count or margin[k] < 0:
            break
    return np.array(chosen, dtype=np.int64)


def _values(sit: Situation, fig: BoardFigures) -> np.ndarray:
    d = np.hypot(sit.positions[:, 0], sit.positions[:, 1])
    tens = np.where(d < fig.ten_r, 10, 5)
    return np.where(sit.leaners | (d < fig.fifteen_r), 15, tens).astype(np.int64)


def take_outs(
    sit: Situation, board: _Board, max_targets: int, starts_per_target: int
) -> Candidates:
    """Full hits and cuts on each opposing disc, firm and hard, from the clearest starts."""
    fig = board.fig
    targets = np.flatnonzero(sit.opponent_mask)
    if len(targets) == 0 or len(board.grid) == 0:
        return Candidates.concat([])
    values = _values(sit, fig)[targets]
    dist = np.hypot(sit.positions[targets, 0], sit.positions[targets, 1])
    targets = targets[np.lexsort((dist, -values))][:max_targets]
    parts: list[Candidates] = []
    for t in targets:
        target = sit.positions[t]
        along = target - board.grid_starts
        along /= np.hypot(along[:, 0], along[:, 1])[:, None]
        ghosts = target - 2.0 * fig.disc_r * along
        margin = board.margins(board.grid_starts, ghosts, [t])
        picks = _best_starts(margin, board.grid, starts_per_target)
        for k in picks:
            start = board.grid_starts[k]
            base = along[k]
            rot = np.stack(
                [
                    np.cos(CUTS) * base[0] - np.sin(CUTS) * base[1],
                    np.sin(CUTS) * base[0] + np.cos(CUTS) * base[1],
                ],
                axis=-1,
            )
            ghost = target - 2.0 * fig.disc_r * rot
            approach = ghost - start
            approach /= np.hypot(approach[:, 0], approach[:, 1])[:, None]
            cos_cut = np.maximum((approach * rot).sum(-1), 0.2)
            need = np.sqrt(2.0 * fig.decel * edge_distance(target, rot, fig))
            force = np.full(len(CUTS) + 1, FIRM)
            force[-1] = HARD
            ghost = np.concatenate([ghost, ghost[:1]])
            impact = force * np.append(need, need[0]) / (np.append(cos_cut, 1.0) * fig.transfer)
            position = np.full(len(force), board.grid[k])
            angle, speed = aim(sit.seat_angle, position, ghost, impact, fig)
            parts.append(_make(position, angle, speed, TAKE_OUT, int(t)))
    return Candidates.concat(parts)


def hiding_spots(sit: Situation, board: _Board, count: int) -> np.ndarray:
    """Up to ``count`` points just behind a peg as the opponents see it, least exposed first."""
    fig = board.fig
    if not sit.opp_seats_next:
        return np.zeros((0, 2))
    gap = fig.disc_r + fig.peg_r + 0.002
    spots = []
    for seat in sit.opp_seats_next:
        source = start_points(seat_angle(seat), np.zeros(1), fig)[0]
        away = fig.pegs - source
        away /= np.hypot(away[:, 0], away[:, 1])[:, None]
        spots.append(fig.pegs + gap * away)
    points = np.concatenate(spots)
    if sit.n_discs:
        dist = np.hypot(*(points[:, None] - sit.positions[None]).transpose(2, 0, 1))
        points = points[(dist > 2.0 * fig.disc_r + 1e-4).all(axis=1)]
    if len(points) == 0:
        return points
    exposure = static_exposure(points, sit.opp_seats_next, board)
    return points[np.argsort(exposure, kind="stable")[:count]]


def hit_and_rolls(sit: Situation, board: _Board, max_targets: int, spots: int) -> Candidates:
    """Take-outs cut so that the shooter rolls on to stop behind a peg.

    After a cut the shooter leaves at right angles to the line of centres (nearly: restitution
    below 1 leaves it a little of its normal speed), so the contact point must see the target and
    the hiding spot at a right angle: it lies where the circle of contact meets the circle on the
    target-spot diameter (Thales). The approach speed is set for the roll to stop at the spot.
    """
    fig = board.fig
    targets = np.flatnonzero(sit.opponent_mask)
    points = hiding_spots(sit, board, spots)
    if len(targets) == 0 or len(points) == 0 or len(board.grid) == 0:
        return Candidates.concat([])
    dist = np.hypot(sit.positions[targets, 0], sit.positions[targets, 1])
    targets = targets[np.argsort(-_values(sit, fig)[targets] * 100 + dist, kind="stable")]
    parts: list[Candidates] = []
    contact = 2.0 * fig.disc_r
    for t in targets[:max_targets]:
        target = sit.positions[t]
        for spot in points:
            half = 0.5 * float(np.hypot(*(spot - target)))
            if half <= contact or half > 0.2:
                continue
            axis = (spot - target) / (2.0 * half)
            along = contact * contact / half
            across = math.sqrt(max(contact * contact - along * along, 0.0))
            normal = np.array([-axis[1], axis[0]])
            for sign in (1.0, -1.0):
                ghost = target + along * axis + sign * across * normal
                n_hat = (target - ghost) / contact
                roll = spot - ghost
                roll_len = float(np.hypot(*roll))
                t_hat = roll / roll_len
                approach = ghost[None] - board.grid_starts
                approach /= np.hypot(approach[:, 0], approach[:, 1])[:, None]
                cos_n = approach @ n_hat
                sin_t = approach @ t_hat
                ghosts = np.broadcast_to(ghost, (len(board.grid), 2))
                margin = board.margins(board.grid_starts, ghosts, [t])
                margin = np.where((cos_n >= 0.25) & (sin_t >= 0.2), margin, -np.inf)
                k = int(np.argmax(margin))
                if not margin[k] >= 0:
                    continue
                impact = np.array([math.sqrt(2.0 * fig.decel * roll_len) / sin_t[k]])
                position = np.array([board.grid[k]])
                angle, speed = aim(sit.seat_angle, position, ghost[None], impact, fig)
                parts.append(_make(position, angle, speed, HIT_AND_ROLL, int(t)))
    return Candidates.concat(parts)


def doubles(sit: Situation, board: _Board, max_pairs: int) -> Candidates:
    """Double take-outs: one opposing disc driven straight into another, both off the board."""
    fig = board.fig
    opp = np.flatnonzero(sit.opponent_mask)
    if len(opp) < 2 or len(board.grid) == 0:
        return Candidates.concat([])
    parts: list[Candidates] = []
    pairs = [(a, b) for a in opp for b in opp if a != b]
    gaps = [float(np.hypot(*(sit.positions[b] - sit.positions[a]))) for a, b in pairs]
    for (a, b), gap in sorted(zip(pairs, gaps, strict=True), key=lambda item: item[1]):
        if gap > 0.15 or len(parts) >= max_pairs:
            break
        first, second = sit.positions[a], sit.positions[b]
        unit = (second - first) / gap
        ghost = first - 2.0 * fig.disc_r * unit
        approach = ghost[None] - board.grid_starts
        approach /= np.hypot(approach[:, 0], approach[:, 1])[:, None]
        cos_cut = approach @ unit
        margin = board.margins(board.grid_starts, np.broadcast_to(ghost, (len(board.grid), 2)), [a])
        margin = np.where(cos_cut >= 0.6, margin, -np.inf)
        k = int(np.argmax(margin))
        if not margin[k] >= 0:
            continue
        need_second = 1.2 * math.sqrt(2.0 * fig.decel * float(edge_distance(second, unit, fig)))
        first_speed = math.sqrt(
            (need_second / fig.transfer) ** 2 + 2.0 * fig.decel * max(gap - 2.0 * fig.disc_r, 0.0)
        )
        impact = np.array([first_speed / (cos_cut[k] * fig.transfer)])
        position = np.array([board.grid[k]])
        angle, speed = aim(sit.seat_angle, position, ghost[None], impact, fig)
        parts.append(_make(position, angle, speed, DOUBLE, int(a)))
    return Candidates.concat(parts)


def open_twenties(sit: Situation, board: _Board, starts: int) -> Candidates:
    """The standard open 20 (the calibrated technique) from the clearest central starts."""
    fig = board.fig
    free = board.free(OPEN_20_STARTS)
    positions = OPEN_20_STARTS[free]
    if len(positions) == 0:
        return Candidates.concat([])
    start = start_points(sit.seat_angle, positions, fig)
    margin = board.margins(start, np.zeros_like(start), [])
    clear = positions[margin >= 0][:starts]
    if len(clear) == 0:
        clear = positions[[int(np.argmax(margin))]]
    speed = np.full(len(clear), OPEN_20_SPEED)
    return _make(clear, np.zeros(len(clear)), speed, OPEN_20, -1)


def bumps(sit: Situation, board: _Board, max_discs: int) -> Candidates:
    """One's own disc knocked straight into the 20 (only with no opposing disc in play)."""
    fig = board.fig
    if sit.opponents_in_play or len(board.grid) == 0:
        return Candidates.concat([])
    d = np.hypot(sit.positions[:, 0], sit.positions[:, 1])
    own = np.flatnonzero((sit.sides == sit.side) & ~sit.leaners & (d < fig.ten_r) & (d > 0.02))
    own = own[np.argsort(d[own])][:max_discs]
    parts: list[Candidates] = []
    for i in own:
        disc = sit.positions[i]
        inward = -disc / d[i]
        ghost = disc - 2.0 * fig.disc_r * inward
        approach = ghost[None] - board.grid_starts
        approach /= np.hypot(approach[:, 0], approach[:, 1])[:, None]
        cos_cut = approach @ inward
        margin = board.margins(board.grid_starts, np.broadcast_to(ghost, (len(board.grid), 2)), [i])
        margin = np.where(cos_cut >= 0.75, margin, -np.inf)
        k = int(np.argmax(margin))
        if not margin[k] >= 0:
            continue
        need = math.sqrt(2.0 * fig.decel * d[i])
        impact = need * np.array([1.03, 1.12]) / (cos_cut[k] * fig.transfer)
        position = np.full(2, board.grid[k])
        angle, speed = aim(sit.seat_angle, position, np.tile(ghost, (2, 1)), impact, fig)
        parts.append(_make(position, angle, speed, BUMP_20, int(i)))
    return Candidates.concat(parts)


def hides(sit: Situation, board: _Board, count: int) -> Candidates:
    """Draws that stop touching the 15 line just beside a peg, shielded from the opponents.

    The no-hiding rule still holds: the point is chosen so the disc touches the 15 line.
    """
    fig = board.fig
    if sit.opponents_in_play or len(board.grid) == 0 or not sit.opp_seats_next:
        return Candidates.concat([])
    peg_angles = np.arctan2(fig.pegs[:, 1], fig.pegs[:, 0])
    offsets = np.radians([10.0, -10.0])
    theta = (peg_angles[:, None] + offsets[None]).ravel()
    radius = fig.reach_15_r - 0.003
    points = radius * np.stack([np.cos(theta), np.sin(theta)], axis=-1)
    if sit.n_discs:
        gap = np.hypot(*(points[:, None] - sit.positions[None]).transpose(2, 0, 1))
        points = points[(gap > 2.0 * fig.disc_r + 1e-4).all(axis=1)]
    if len(points) == 0:
        return Candidates.concat([])
    exposure = static_exposure(points, sit.opp_seats_next, board)
    points = points[np.argsort(exposure, kind="stable")[:count]]
    parts: list[Candidates] = []
    for point in points:
        ghosts = np.broadcast_to(point, (len(board.grid), 2))
        margin = board.margins(board.grid_starts, ghosts, [])
        k = int(np.argmax(margin))
        if margin[k] < 0:
            continue
        position = np.array([board.grid[k]])
        angle, speed = aim(sit.seat_angle, position, point[None], np.zeros(1), fig)
        parts.append(_make(position, angle, speed, HIDE, -1))
    return Candidates.concat(parts)


def static_exposure(points: np.ndarray, seats: tuple[int, ...], board: _Board) -> np.ndarray:
    """Share of straight lines from the ``seats``' starts that reach each point unobstructed."""
    fig = board.fig
    starts = np.concatenate([start_points(seat_angle(s), START_GRID[1:-1:2], fig) for s in seats])
    m, s = len(points), len(starts)
    start = np.repeat(starts[None], m, axis=0).reshape(-1, 2)
    end = np.repeat(points[:, None], s, axis=1).reshape(-1, 2)
    margin = segment_margin(start, end, board.obstacles, board.clearance)
    return (margin >= 0).reshape(m, s).mean(axis=1)


def _make(position: np.ndarray, angle: np.ndarray, speed: np.ndarray, kind: int, target: int):
    n = len(position)
    return Candidates(
        position=np.asarray(position, dtype=np.float64),
        angle=np.asarray(angle, dtype=np.float64),
        speed=np.minimum(np.asarray(speed, dtype=np.float64), MAX_SPEED),
        kind=np.full(n, kind, dtype=np.int64),
        target=np.full(n, target, dtype=np.int64),
    )


@dataclass(frozen=True)
class Breadth:
    """How wide to look: targets, starts per target, double pairs, bumped discs, hides."""

    targets: int = 4
    starts_per_target: int = 2
    pairs: int = 4
    bumped: int = 3
    hides: int = 3
    open_starts: int = 2
    roll_targets: int = 2
    roll_spots: int = 3


def generate(
    sit: Situation, breadth: Breadth | None = None, fig: BoardFigures = FIGURES
) -> Candidates:
    """Every candidate shot for the situation (never empty: at worst a plain open 20)."""
    breadth = Breadth() if breadth is None else breadth
    board = _Board(sit, fig)
    if sit.opponents_in_play:
        parts = [
            take_outs(sit, board, breadth.targets, breadth.starts_per_target),
            doubles(sit, board, breadth.pairs),
            hit_and_rolls(sit, board, breadth.roll_targets, breadth.roll_spots),
        ]
    else:
        parts = [
            open_twenties(sit, board, breadth.open_starts),
            bumps(sit, board, breadth.bumped),
            hides(sit, board, breadth.hides),
        ]
    found = Candidates.concat(parts)
    legal = (np.abs(found.position) <= fig.position_limit) & (np.abs(found.angle) < 89.0)
    found = found.take(np.flatnonzero(legal))
    if len(found) == 0:
        position = OPEN_20_STARTS[board.free(OPEN_20_STARTS)][:1]
        if len(position) == 0:
            position = np.array([44.0])
        found = _make(position, np.zeros(1), np.full(1, OPEN_20_SPEED), DRAW, -1)
    return found
