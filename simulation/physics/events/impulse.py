"""Collision impulses at a contact (compiled): restitution plus friction-limited tangential part.

Per unit disc mass, since all discs are equal (board.md, Motion). Signs: spin w is
counterclockwise seen from above; the contact normal n points from the disc to what it hits,
the tangent is t = z x n = (-n_y, n_x). The contact point of a disc of radius r spinning at w
moves at v + w r t.

* Disc on an immovable body (peg, rail, disc lying in the ditch): normal impulse (1 + e) v_n; the
  no-slip tangential impulse u_t / 3 (a force at the rim changes both the centre's speed, 1/m,
  and the spin, r²/I = 2/m), capped at mu times the normal impulse.
* Two equal discs: normal impulse (1 + e) v_n / 2; no-slip tangential u_t / 6 (both discs' centre
  and spin respond: 1 + 1 + 2 + 2), capped likewise.

A contact whose normal approach speed is not positive gives no impulse: touching and separating
is no collision.
"""

from __future__ import annotations

from simulation.physics.nbtypes import F8x4, F8x7, f8, njit


@njit(F8x4(f8, f8, f8, f8, f8, f8, f8, f8))
def resolve_fixed(
    vx: float, vy: float, w: float, nx: float, ny: float, e: float, mu: float, r: float
) -> tuple[float, float, float, float]:
    """Velocity and spin after hitting an immovable body; returns (vx, vy, w, normal impulse)."""
    vn = vx * nx + vy * ny
    if vn <= 0.0:
        return vx, vy, w, 0.0
    tx = -ny
    ty = nx
    jn = (1.0 + e) * vn
    ut = vx * tx + vy * ty + w * r
    jt = ut / 3.0
    cap = mu * jn
    if jt > cap:
        jt = cap
    elif jt < -cap:
        jt = -cap
    return vx - jn * nx - jt * tx, vy - jn * ny - jt * ty, w - 2.0 * jt / r, jn


@njit(F8x7(f8, f8, f8, f8, f8, f8, f8, f8, f8, f8, f8))
def resolve_pair(
    vix: float,
    viy: float,
    wi: float,
    vjx: float,
    vjy: float,
    wj: float,
    nx: float,
    ny: float,
    e: float,
    mu: float,
    r: float,
) -> tuple[float, float, float, float, float, float, float]:
    """Velocities and spins of two equal discs after their collision, n pointing from i to j.

    Returns (vix, viy, wi, vjx, vjy, wj, normal impulse per unit mass).
    """
    vn = (vix - vjx) * nx + (viy - vjy) * ny
    if vn <= 0.0:
        return vix, viy, wi, vjx, vjy, wj, 0.0
    tx = -ny
    ty = nx
    jn = 0.5 * (1.0 + e) * vn
    ut = (vix - vjx) * tx + (viy - vjy) * ty + r * (wi + wj)
    jt = ut / 6.0
    cap = mu * jn
    if jt > cap:
        jt = cap
    elif jt < -cap:
        jt = -cap
    px = jn * nx + jt * tx
    py = jn * ny + jt * ty
    dw = 2.0 * jt / r
    return vix - px, viy - py, wi - dw, vjx + px, vjy + py, wj - dw, jn
