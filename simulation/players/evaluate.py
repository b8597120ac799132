"""Scoring the outcomes of simulated shots: what the round looks like after each one.

The batch physics returns, per simulated shot, where every disc ended and what touched what. This
module rules on those arrays the way :mod:`simulation.rules` rules on one shot (a fast equivalent,
compiled): the discs out of play (ditch, on or over the shooting line, NCA 8e), the validity of the
shot (NCA 3a: an opposing disc hit when one was in play, otherwise something of the shot touching
or inside the 15 line) and what an invalid shot takes off (NCA 3b, or the rule set's scope), the
20s made. Then it values the board for the shooter:

- the margin: 20s set aside this round and the discs in play by region, own minus the opponents';
- safety: a disc the other side can still reach is worth less, the more so the more shots they
  have left per disc to hit (straight lines from their starts, blocked by pegs and discs);
- tempo: leaving the opponents nothing to hit hands them a free shot at the 20, worth more the
  better they shoot it than the shooter does;
- the hammer: the margin is turned into round points through a smooth step whose width shrinks
  with the shots left, so the last shots play to win the round, not to pad it.

Simplification, on purpose: the family rule that puts back discs moved by a disc returning from
the ditch is not modelled here (the real ruling, applied to the chosen shot, is exact).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from simulation.physics import codes
from simulation.physics.nbtypes import njit, njit_inner
from simulation.players.situation import FIGURES, BoardFigures, Situation, seat_angles
from simulation.rules.variants import RemovalScope, RuleSet

SCOPES = {RemovalScope.ALL_STRUCK: 0, RemovalScope.OWN_STRUCK: 1, RemovalScope.OWN_TOUCHED: 2}

EXPOSURE_STARTS = np.array([-36.0, -24.0, -12.0, 0.0, 12.0, 24.0, 36.0])
"""Start positions (degrees) from which a threat to a disc is looked for."""


@dataclass(frozen=True)
class Weights:
    """The value function's constants (board points)."""

    take_prob: float = 0.75
    """Chance that a reachable disc is taken out by a shot aimed at it."""
    open_board: float = 9.0
    """What a free shot at an empty board is worth to the opponent, between equal players."""
    open_skill: float = 20.0
    """How that shifts with the open-20 rates: by this times (theirs - ours). A strong player
    is glad to clear the board against a weak one (open play multiplies their 20s); a weak one
    keeps discs on the board against a strong one."""
    forced: float = 3.0
    """What a forced take-out of a fully exposed disc is worth to the opponent (a stick)."""
    win: float = 30.0
    """Weight of winning the round over the margin."""
    sigma_last: float = 2.0
    """Width (points) of the round-points step on the last shot of the round."""
    sigma_per_shot: float = 6.0
    """How the step widens with the square root of the shots left."""

    def to_array(self) -> np.ndarray:
        return np.array(
            [
                self.take_prob,
                self.open_board,
                self.open_skill,
                self.forced,
                self.win,
                self.sigma_last,
                self.sigma_per_shot,
            ]
        )


DEFAULT_WEIGHTS = Weights()


def figures_array(fig: BoardFigures = FIGURES) -> np.ndarray:
    return np.array(
        [
            fig.disc_r,
            fig.peg_r,
            fig.shooting_r,
            fig.touch_r,
            fig.fifteen_r,
            fig.ten_r,
            fig.reach_15_r,
        ]
    )


_FIG = figures_array()


PATH_BLOCKED, PATH_CLEAR, PATH_DISCS = 0, 1, 2
"""What the fixed bodies say of a straight line to a disc: blocked (or no line), clear whatever the
other discs do, or clear of the pegs, the other discs still to check."""


@njit_inner
def _ghost(sx, sy, tx, ty, r):  # pragma: no cover - compiled
    """Where the shooter's centre meets the disc at (tx, ty) coming from (sx, sy), and the path
    there: (gx, gy, dx, dy, squared length); a zero direction when the two coincide."""
    dx = tx - sx
    dy = ty - sy
    length = math.sqrt(dx * dx + dy * dy)
    if length < 1e-9:
        return 0.0, 0.0, 0.0, 0.0, -1.0
    gx = tx - 2.0 * r * dx / length
    gy = ty - 2.0 * r * dy / length
    dx = gx - sx
    dy = gy - sy
    return gx, gy, dx, dy, dx * dx + dy * dy


@njit_inner
def _fixed_path(sx, sy, tx, ty, pegs, r, rp):  # pragma: no cover - compiled
    """The pegs' say on the line from (sx, sy) to the disc at (tx, ty): ``PATH_*``. It depends on
    the two points alone, so a disc that did not move is asked once per batch."""
    gx, gy, dx, dy, l2 = _ghost(sx, sy, tx, ty, r)
    if l2 < 0.0:
        return PATH_BLOCKED
    if l2 < 1e-12:
        return PATH_CLEAR
    # A body outside the path's bounding box grown by the contact distance cannot touch it:
    # skipping it leaves the answer as it is and spares most of the distance computations.
    reach = r + rp
    lo_x = min(sx, gx) - reach
    hi_x = max(sx, gx) + reach
    lo_y = min(sy, gy) - reach
    hi_y = max(sy, gy) + reach
    for k in range(pegs.shape[0]):
        if not (lo_x <= pegs[k, 0] <= hi_x and lo_y <= pegs[k, 1] <= hi_y):
            continue
        t = ((pegs[k, 0] - sx) * dx + (pegs[k, 1] - sy) * dy) / l2
        t = min(max(t, 0.0), 1.0)
        cx = sx + t * dx - pegs[k, 0]
        cy = sy + t * dy - pegs[k, 1]
        if cx * cx + cy * cy < (r + rp) * (r + rp):
            return PATH_BLOCKED
    return PATH_DISCS


@njit_inner
def _discs_clear(sx, sy, tx, ty, skip, px, py, alive, n, r):  # pragma: no cover - compiled
    """Whether the line from (sx, sy) to the disc at (tx, ty) passes clear of the other discs
    (once the pegs have let it through: :func:`_fixed_path`)."""
    gx, gy, dx, dy, l2 = _ghost(sx, sy, tx, ty, r)
    lo_x = min(sx, gx) - 2.0 * r
    hi_x = max(sx, gx) + 2.0 * r
    lo_y = min(sy, gy) - 2.0 * r
    hi_y = max(sy, gy) + 2.0 * r
    for j in range(n):
        if j == skip or not alive[j]:
            continue
        if not (lo_x <= px[j] <= hi_x and lo_y <= py[j] <= hi_y):
            continue
        t = ((px[j] - sx) * dx + (py[j] - sy) * dy) / l2
        t = min(max(t, 0.0), 1.0)
        cx = sx + t * dx - px[j]
        cy = sy + t * dy - py[j]
        if cx * cx + cy * cy < 4.0 * r * r:
            return False
    return True


@njit
def _sources(threats, starts, shoot_r):  # pragma: no cover - compiled
    """Centres (A, P, 2) of discs set on the shooting line at each threat seat and start."""
    out = np.empty((threats.shape[0], starts.shape[0], 2))
    for a in range(threats.shape[0]):
        for p in range(starts.shape[0]):
            theta = (threats[a] + starts[p]) * math.pi / 180.0
            out[a, p, 0] = shoot_r * math.cos(theta)
            out[a, p, 1] = shoot_r * math.sin(theta)
    return out


@njit
def evaluate_kernel(  # pragma: no cover - compiled; exercised through evaluate()
    pos,
    status,
    flags,
    contacts,
    sides,
    my_side,
    opp_in_play,
    no_hit_scope,
    no_hiding_scope,
    line_strike,
    tw_my,
    tw_opp,
    my_left,
    opp_left,
    my_threats,
    opp_threats,
    starts,
    pegs,
    fig,
    weights,
    out_value,
    out_valid,
    out_twenty,
):
    """Rule on and value each of B simulated shots (the shot disc is the last slot)."""
    nb = pos.shape[0]
    n = pos.shape[1]
    shooter = n - 1
    r, rp, shoot_r, touch_r, fifteen_r, ten_r, reach15 = (
        fig[0],
        fig[1],
        fig[2],
        fig[3],
        fig[4],
        fig[5],
        fig[6],
    )
    take, open_board, forced, win, sig0, sig1 = (
        weights[0],
        weights[1],
        weights[3],
        weights[4],
        weights[5],
        weights[6],
    )
    left = my_left + opp_left
    sigma = sig0 + sig1 * math.sqrt(left)
    # Where the threats come from: the same start points for every outcome, computed once.
    my_sources = _sources(my_threats, starts, shoot_r)
    opp_sources = _sources(opp_threats, starts, shoot_r)
    fixed = np.full((n, max(my_threats.shape[0], opp_threats.shape[0]), starts.shape[0]), -1)
    alive = np.empty(n, dtype=np.bool_)
    value = np.empty(n)
    px = np.empty(n)
    py = np.empty(n)
    for b in range(nb):
        # Each disc's own fate.
        twenty_my = 0
        twenty_opp = 0
        for k in range(n):
            s = status[b, k]
            f = flags[b, k]
            x = pos[b, k, 0]
            y = pos[b, k, 1]
            px[k] = x
            py[k] = y
            d = math.sqrt(x * x + y * y)
            out = (
                s == codes.DITCH
                or s == codes.AIRBORNE
                or s == codes.ABSENT
                or (f & codes.F_LEFT_SURFACE) != 0
                or (s == codes.SURFACE and d >= touch_r)
                or (
                    line_strike
                    and (f & codes.F_TOUCHED_LINE) != 0
                    and (f & codes.F_STRUCK_BEYOND_LINE) != 0
                )
            )
            alive[k] = not out
            if s == codes.LEANER or (s == codes.SURFACE and d < fifteen_r):
                value[k] = 15.0
            elif s == codes.CAPTURED:
                value[k] = 20.0
            elif d < ten_r:
                value[k] = 10.0
            else:
                value[k] = 5.0
        # Validity (NCA 3a): any opposing disc struck; else something of the shot to the 15.
        valid = False
        if opp_in_play:
            for k in range(n - 1):
                if sides[k] != my_side and (flags[b, k] & codes.F_MOVED) != 0:
                    valid = True
                    break
        else:
            for k in range(n):
                if not alive[k] or (k != shooter and (flags[b, k] & codes.F_MOVED) == 0):
                    continue
                s = status[b, k]
                close = math.sqrt(px[k] * px[k] + py[k] * py[k]) <= reach15
                if s == codes.CAPTURED or s == codes.LEANER or close:
                    valid = True
                    break
        if not valid:
            scope = no_hit_scope if opp_in_play else no_hiding_scope
            alive[shooter] = False
            for k in range(n - 1):
                if (flags[b, k] & codes.F_MOVED) == 0:
                    continue
                own = sides[k] == my_side
                touched = math.isfinite(contacts[b, shooter, k])
                if scope == 0 or (own and (scope == 1 or touched)):
                    alive[k] = False
        # 20s made (credited to the owner) leave the board.
        for k in range(n):
            if alive[k] and status[b, k] == codes.CAPTURED:
                alive[k] = False
                if sides[k] == my_side:
                    twenty_my += 1
                else:
                    twenty_opp += 1
        n_my = 0
        n_opp = 0
        for k in range(n):
            if alive[k]:
                if sides[k] == my_side:
                    n_my += 1
                else:
                    n_opp += 1
        # Safety: the share of straight lines from the other side's starts that reach a disc.
        margin = 20.0 * (tw_my + twenty_my - tw_opp - twenty_opp)
        worst_exposure = 0.0
        for k in range(n):
            if not alive[k]:
                continue
            mine = sides[k] == my_side
            threats = opp_threats if mine else my_threats
            shots = opp_left if mine else my_left
            count = n_my if mine else n_opp
            sources = opp_sources if mine else my_sources
            exposure = 0.0
            if shots > 0 and threats.shape[0] > 0:
                # A disc the shot did not move lies where it lay: the pegs' say on its lines is
                # the same in every outcome of the batch, found once.
                still = k != shooter and (flags[b, k] & codes.F_MOVED) == 0
                clear = 0
                for a in range(threats.shape[0]):
                    for p in range(starts.shape[0]):
                        sx = sources[a, p, 0]
                        sy = sources[a, p, 1]
                        if still:
                            if fixed[k, a, p] < 0:
                                fixed[k, a, p] = _fixed_path(sx, sy, px[k], py[k], pegs, r, rp)
                            code = fixed[k, a, p]
                        else:
                            code = _fixed_path(sx, sy, px[k], py[k], pegs, r, rp)
                        if code == PATH_CLEAR or (
                            code == PATH_DISCS
                            and _discs_clear(sx, sy, px[k], py[k], k, px, py, alive, n, r)
                        ):
                            clear += 1
                exposure = clear / (threats.shape[0] * starts.shape[0])
            share = min(1.0, shots / max(count, 1))
            kept = value[k] * (1.0 - take * exposure * share)
            if mine:
                margin += kept
                worst_exposure = max(worst_exposure, exposure)
            else:
                margin -= kept
        if opp_left > 0:
            if n_my == 0:
                margin -= open_board
            else:
                margin -= forced * worst_exposure
        out_value[b] = win * math.tanh(margin / sigma) + margin
        out_valid[b] = valid
        out_twenty[b] = twenty_my


@dataclass(frozen=True)
class Evaluation:
    """Per simulated shot: its value to the shooter, whether it was valid, own 20s made."""

    value: np.ndarray
    valid: np.ndarray
    twenties: np.ndarray


class Evaluator:
    """Values batch-physics outcomes for one situation (the shot disc in the last slot)."""

    def __init__(
        self,
        sit: Situation,
        weights: Weights = DEFAULT_WEIGHTS,
        fig: BoardFigures = FIGURES,
    ) -> None:
        self.sit = sit
        self.sides = np.append(sit.sides, sit.side).astype(np.int64)
        self.arrays = evaluation_arrays(sit, weights, fig)

    def __call__(self, batch) -> Evaluation:
        nb = batch.positions.shape[0]
        value = np.empty(nb)
        valid = np.empty(nb, dtype=np.bool_)
        twenty = np.empty(nb, dtype=np.int64)
        sit = self.sit
        evaluate_kernel(
            batch.positions,
            batch.status,
            batch.flags,
            batch.contacts,
            self.sides,
            sit.side,
            sit.opponents_in_play,
            *self.arrays,
            value,
            valid,
            twenty,
        )
        return Evaluation(value, valid, twenty)


def evaluation_arrays(
    sit: Situation, weights: Weights = DEFAULT_WEIGHTS, fig: BoardFigures = FIGURES
) -> tuple:
    """The evaluator's inputs for one situation, for a compiled caller: :func:`evaluate_kernel`'s
    arguments from ``no_hit_scope`` to ``weights`` (the caller adds the sides, which it has).
    What :class:`Evaluator` holds, built from cached pieces: it is asked for at every decision."""
    w = _weights_array(weights).copy()
    w[1] += weights.open_skill * (sit.opp_open_20 - sit.my_open_20)
    mine = sit.twenties[sit.side]
    no_hit, no_hiding, line_strike = _rule_codes(sit.rules)
    return (
        no_hit,
        no_hiding,
        line_strike,
        float(mine),
        float(sum(sit.twenties) - mine),
        int(sit.my_left),
        int(sit.opp_left),
        seat_angles(sit.my_seats_next),
        seat_angles(sit.opp_seats_next),
        EXPOSURE_STARTS,
        _PEGS if fig is FIGURES else np.ascontiguousarray(fig.pegs, dtype=np.float64),
        _FIG if fig is FIGURES else figures_array(fig),
        w,
    )


@functools.lru_cache(maxsize=64)
def _weights_array(weights: Weights) -> np.ndarray:
    """``weights.to_array()`` (cached: never written to; copy before changing)."""
    return weights.to_array()


@functools.lru_cache(maxsize=64)
def _rule_codes(rules: RuleSet) -> tuple[int, int, bool]:
    """What an invalid shot removes (with no hit, with no hiding) and whether a disc struck
    beyond the line after touching it is out, as the kernel reads them."""
    return (
        SCOPES[rules.no_hit_removal],
        SCOPES[rules.no_hiding_removal],
        bool(rules.line_strike_puts_out),
    )


_PEGS = np.ascontiguousarray(FIGURES.pegs, dtype=np.float64)
