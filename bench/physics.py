"""Benchmark of the compiled physics: batch shots per second against a fixed-step pymunk model.

A fixed, seeded set of legal shots on mid-round boards: 12 discs in play at random
non-overlapping positions inside the shooting line, the shot disc starting on the shooting line
in the south quadrant, aimed roughly at the board at 1-4 m/s. The batch entry point runs them
single-threaded after compilation; the same shots run (a subset, extrapolated) in a pymunk model
with fixed 1 ms steps (friction as a per-step velocity reduction, pegs as static circles, the same
restitution and friction coefficients), the kind of engine one would otherwise write. Compile time
is measured in a fresh process with an empty numba cache, cache-load time in a second fresh
process sharing that cache.

Run: ``python bench/physics.py``. Prints readable figures and ends with one ``RESULT`` line.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

N_SHOTS = 20_000
N_PYMUNK = 100
N_DISCS = 12
SEED = 20240611

TARGET_SHOTS_PER_S = 20_000
TARGET_RATIO = 500
TARGET_COMPILE_S = 15.0


def make_shots(n_shots: int, seed: int = SEED) -> dict[str, np.ndarray]:
    """Seeded random boards and shots (see the module docstring)."""
    from simulation.physics import PhysicsParams
    from simulation.physics.geometry import peg_positions

    p = PhysicsParams()
    rng = np.random.default_rng(seed)
    r = p.disc_radius
    pegs = peg_positions(p)
    n = N_DISCS + 1
    pos = np.zeros((n_shots, n, 2))
    shot_pos = np.zeros((n_shots, 2))
    shot_vel = np.zeros((n_shots, 2))
    r_max = p.touch_radius - 1e-4
    for b in range(n_shots):
        placed: list[tuple[float, float]] = []
        while len(placed) < N_DISCS:
            d = r_max * math.sqrt(rng.uniform(0.0, 1.0))
            a = rng.uniform(0.0, 2.0 * math.pi)
            x, y = d * math.cos(a), d * math.sin(a)
            if d < p.hole_radius + r:
                continue
            if any(math.hypot(x - px, y - py) < 2 * r for px, py in placed):
                continue
            if np.min(np.hypot(pegs[:, 0] - x, pegs[:, 1] - y)) < r + p.peg_radius:
                continue
            placed.append((x, y))
        pos[b, :N_DISCS] = placed
        while True:
            a = math.radians(rng.uniform(-135.0, -45.0))
            sx, sy = p.shooting_line_radius * math.cos(a), p.shooting_line_radius * math.sin(a)
            if all(math.hypot(sx - px, sy - py) >= 2 * r for px, py in placed):
                break
        aim = math.atan2(-sy, -sx) + math.radians(rng.uniform(-20.0, 20.0))
        v = rng.uniform(1.0, 4.0)
        shot_pos[b] = (sx, sy)
        shot_vel[b] = (v * math.cos(aim), v * math.sin(aim))
    status = np.zeros((n_shots, n), dtype=np.int8)
    return {"pos": pos, "status": status, "shot_pos": shot_pos, "shot_vel": shot_vel}


def run_batch(shots: dict[str, np.ndarray]):
    """One call of the batch entry point on all shots."""
    from simulation.physics import simulate_batch

    return simulate_batch(
        shots["pos"], shots["status"], N_DISCS, shots["shot_pos"], shots["shot_vel"]
    )


def pymunk_shot(pos: np.ndarray, shot_pos: np.ndarray, shot_vel: np.ndarray) -> np.ndarray:
    """The same shot in a fixed-step pymunk model (dt = 1 ms); returns the final positions."""
    import pymunk

    from simulation.physics import PhysicsParams
    from simulation.physics.geometry import peg_positions

    p = PhysicsParams()
    dt = 1e-3
    space = pymunk.Space()
    space.gravity = (0.0, 0.0)
    # pymunk multiplies the two shapes' coefficients: give discs sqrt(e_dd), pegs e_peg/sqrt(e_dd).
    e_d = math.sqrt(p.e_disc)
    mu_d = math.sqrt(p.mu_disc)
    for px, py in peg_positions(p):
        shape = pymunk.Circle(space.static_body, p.peg_radius, (float(px), float(py)))
        shape.elasticity = p.e_peg / e_d
        shape.friction = p.mu_peg / mu_d
        space.add(shape)
    bodies = []
    all_pos = np.vstack([pos[:N_DISCS], shot_pos[None, :]])
    moment = pymunk.moment_for_circle(p.disc_mass, 0.0, p.disc_radius)
    for k, (x, y) in enumerate(all_pos):
        body = pymunk.Body(p.disc_mass, moment)
        body.position = (float(x), float(y))
        if k == N_DISCS:
            body.velocity = (float(shot_vel[0]), float(shot_vel[1]))
        shape = pymunk.Circle(body, p.disc_radius)
        shape.elasticity = e_d
        shape.friction = mu_d
        space.add(body, shape)
        bodies.append(body)
    dv = p.decel * dt
    alive = [True] * len(bodies)
    for _ in range(20_000):
        moving = False
        for k, body in enumerate(bodies):
            if not alive[k]:
                continue
            vx, vy = body.velocity
            sp = math.hypot(vx, vy)
            if sp > dv:
                f = (sp - dv) / sp
                body.velocity = (vx * f, vy * f)
                moving = True
            elif sp > 0.0:
                body.velocity = (0.0, 0.0)
            x, y = body.position
            if math.hypot(x, y) > p.surface_radius:
                space.remove(body, *body.shapes)
                alive[k] = False
        if not moving:
            break
        space.step(dt)
    return np.array([b.position for b in bodies])


def _child(mode: str) -> None:
    """Time the import (which compiles, or loads from the cache, every kernel: the signatures
    are explicit) plus the first batch call, in this fresh process; print JSON."""
    t0 = time.perf_counter()
    c0 = time.process_time()
    from simulation.physics import simulate_batch

    pos = np.array([[[0.05, 0.1], [-0.1, 0.05], [0.0, 0.2]]])
    simulate_batch(pos, np.zeros((1, 3), dtype=np.int8), 2, [[0.0, -0.3048]], [[0.1, 2.0]])
    t1 = time.perf_counter()
    c1 = time.process_time()
    print(json.dumps({"mode": mode, "first_call_s": t1 - t0, "cpu_s": c1 - c0}))


def measure_first_call() -> tuple[dict[str, float], dict[str, float]]:
    """Compile time (empty cache) and cache-load time, each in a fresh subprocess: wall clock
    and the process's CPU time (the latter unaffected by other load on the machine)."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = []
        for mode in ("compile", "cache"):
            res = subprocess.run(
                [sys.executable, __file__, "--child", mode],
                env=env,
                capture_output=True,
                text=True,
                check=True,
                cwd=ROOT,
            )
            line = [ln for ln in res.stdout.splitlines() if ln.startswith("{")][-1]
            out.append(json.loads(line))
    return out[0], out[1]


def main() -> None:
    comp, load = measure_first_call()
    compile_s, cache_s = comp["first_call_s"], load["first_call_s"]
    print(
        f"import + first call, fresh process, empty cache (compile): {compile_s:6.2f} s "
        f"(CPU {comp['cpu_s']:.2f} s)"
    )
    print(
        f"import + first call, fresh process, warm cache (load):     {cache_s:6.2f} s "
        f"(CPU {load['cpu_s']:.2f} s)"
    )

    shots = make_shots(N_SHOTS)
    run_batch({k: v[:8] for k, v in shots.items()})  # compiled or loaded: warm it up
    best = math.inf
    res = None
    for _ in range(3):
        t0 = time.perf_counter()
        res = run_batch(shots)
        best = min(best, time.perf_counter() - t0)
    shots_per_s = N_SHOTS / best
    ev = res.n_events
    print(f"batch entry point: {N_SHOTS} shots, 13 discs, in {best:.3f} s (best of 3, 1 thread)")
    print(f"  shots/s per core: {shots_per_s:,.0f}")
    print(
        f"  events per shot: mean {ev.mean():.1f}, max {ev.max()}; "
        f"shots cut off by the event cap: {int(res.hit_event_cap.sum())}"
    )
    moved = (res.flags & 32) != 0
    print(f"  discs moved per shot: mean {moved.sum(axis=1).mean():.2f}")

    t0 = time.perf_counter()
    for b in range(N_PYMUNK):
        pymunk_shot(shots["pos"][b], shots["shot_pos"][b], shots["shot_vel"][b])
    pm = time.perf_counter() - t0
    pymunk_per_s = N_PYMUNK / pm
    ratio = shots_per_s / pymunk_per_s
    print(f"pymunk baseline (dt = 1 ms): {N_PYMUNK} shots in {pm:.2f} s")
    print(f"  shots/s: {pymunk_per_s:,.1f} (extrapolated); ratio: {ratio:,.0f}x")
    ok = (
        shots_per_s >= TARGET_SHOTS_PER_S and ratio >= TARGET_RATIO and compile_s < TARGET_COMPILE_S
    )
    print(
        f"targets: >= {TARGET_SHOTS_PER_S} shots/s, >= {TARGET_RATIO}x pymunk, "
        f"compile < {TARGET_COMPILE_S:.0f} s: {'met' if ok else 'MISSED'}"
    )
    print(
        f"RESULT shots_per_s={shots_per_s:.0f} ratio_vs_pymunk={ratio:.0f} "
        f"compile_s={compile_s:.2f} cache_load_s={cache_s:.2f} "
        f"pymunk_shots_per_s={pymunk_per_s:.2f}"
    )


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        _child(sys.argv[2])
    else:
        main()
