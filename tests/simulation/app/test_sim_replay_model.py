"""The replay player (static/js/replay.js) moves discs between a shot's events by the closed
form p(t) = p0 + v0·t - ½·a·t²·v̂ (a = the release event's deceleration on the board, 0 over the
ditch), until the disc stops. Here the same formula, written in Python, must land every disc
exactly where the next event that involves it says it is."""

from __future__ import annotations

import math

import pytest

from simulation.game import play_game

FRICTION = {"surface", "leaner"}


def _at(seg: dict, t: float) -> tuple[float, float]:
    v = math.hypot(seg["vx"], seg["vy"])
    tau = t - seg["t0"]
    if not v or tau <= 0:
        return seg["x"], seg["y"]
    if seg["a"] > 0:
        tau = min(tau, v / seg["a"])
    s = v * tau - 0.5 * seg["a"] * tau * tau
    return seg["x"] + seg["vx"] / v * s, seg["y"] + seg["vy"] / v * s


@pytest.mark.parametrize("seed", [1, 2])
def test_closed_form_motion_between_events_reproduces_the_record(seed):
    record = play_game(["top", "competitive"], seed=seed, rounds=2, discs_per_player=4)
    checked = 0
    for rnd in record["rounds"]:
        before: list[dict] = []
        for item in rnd["shots"]:
            events = item["outcome"]["events"]
            assert events[0]["kind"] == "release"
            decel = events[0]["deceleration"]
            segs = {
                d["id"]: {"t0": 0.0, "x": d["x"], "y": d["y"], "vx": 0.0, "vy": 0.0, "a": 0.0}
                for d in before
            }
            for event in events:
                for disc in event["discs"]:
                    if disc["id"] in segs:
                        x, y = _at(segs[disc["id"]], event["t"])
                        assert math.hypot(x - disc["x"], y - disc["y"]) < 1e-9, (seed, event)
                        checked += 1
                    segs[disc["id"]] = {
                        "t0": event["t"],
                        "x": disc["x"],
                        "y": disc["y"],
                        "vx": disc["vx"],
                        "vy": disc["vy"],
                        "a": decel if disc["status"] in FRICTION else 0.0,
                    }
            end = events[-1]["t"]
            for disc in item["outcome"]["discs"]:  # and the board at rest after the shot
                x, y = _at(segs[disc["id"]], end + 10.0)
                assert math.hypot(x - disc["x"], y - disc["y"]) < 1e-9
            before = item["outcome"]["discs"]
    assert checked > 10
