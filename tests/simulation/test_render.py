"""The SVG picture of a board: well-formed XML with every part of the board where it belongs."""

import math
import os
import xml.etree.ElementTree as ET

import pytest

from simulation.api import run_round, simulate_shot
from simulation.render import SIDE_COLOURS, render_board, shot_paths
from simulation.rules.geometry import DEFAULT_GEOMETRY as G

NS = {"svg": "http://www.w3.org/2000/svg"}

STATE = {
    "discs": [
        {"id": "a1", "side": 0, "x": 0.05, "y": 0.06},
        {"id": "b1", "side": 1, "x": -0.12, "y": 0.15},
        {"id": "a2", "side": 0, "x": 0.004, "y": 0.0, "leaner": True},
    ],
    "seats": {"0": 0, "2": 1},
}


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def by_class(root: ET.Element, css: str) -> list[ET.Element]:
    return [e for e in root.iter() if css in (e.get("class") or "").split()]


def test_the_board_has_its_rings_hole_pegs_and_quadrant_lines():
    root = parse(render_board({"discs": []}))
    for css in ("rail", "ditch", "surface", "shooting-line", "line-10-5", "line-15-10", "hole"):
        assert len(by_class(root, css)) == 1, css
    assert float(by_class(root, "shooting-line")[0].get("r")) == pytest.approx(304.8)
    assert float(by_class(root, "line-15-10")[0].get("r")) == pytest.approx(101.6)
    pegs = by_class(root, "peg")
    assert len(pegs) == 8
    for peg in pegs:  # on the 15/10 line, 22.5 degrees off every seat's centre line
        x, y = float(peg.get("cx")), -float(peg.get("cy"))
        assert math.hypot(x, y) == pytest.approx(101.6, abs=0.01)
        assert (math.degrees(math.atan2(y, x)) - 22.5 + 1) % 45 == pytest.approx(1, abs=1e-3)
    lines = by_class(root, "quadrant-line")
    assert len(lines) == 4
    for line in lines:  # radial, on the diagonals between the seats
        x2, y2 = float(line.get("x2")), -float(line.get("y2"))
        assert abs(abs(x2) - abs(y2)) < 0.02


def test_discs_are_coloured_by_side_and_titled_with_their_ids():
    root = parse(render_board(STATE))
    discs = by_class(root, "disc")
    assert [d.get("data-id") for d in discs] == ["a1", "b1", "a2"]
    titles = [d.find("svg:title", NS).text for d in discs]
    assert titles[0].startswith("a1") and "leaner" in titles[2]
    fills = [d.find("svg:circle", NS).get("fill") for d in discs]
    assert fills == [SIDE_COLOURS[0], SIDE_COLOURS[1], SIDE_COLOURS[0]]
    a1 = discs[0].find("svg:circle", NS)
    assert (float(a1.get("cx")), float(a1.get("cy"))) == (50.0, -60.0)  # y up on the board
    assert float(a1.get("r")) == pytest.approx(G.disc_radius * 1000)


def test_twenties_are_set_aside_beside_the_board_by_side():
    twenties = [{"id": "a3", "side": 0}, {"id": "b2", "side": 1}, {"id": "a4", "side": 0}]
    root = parse(render_board(STATE, twenties))
    set_aside = by_class(root, "twenty")
    assert [t.get("data-id") for t in set_aside] == ["a3", "b2", "a4"]
    rail = (G.surface_radius + 0.051) * 1000
    xs = [float(t.find("svg:circle", NS).get("cx")) for t in set_aside]
    assert xs[0] < -rail and xs[2] < -rail and xs[1] > rail


def test_ids_are_escaped():
    state = {"discs": [{"id": "<a&1>", "side": 0, "x": 0.05, "y": 0.06}]}
    root = parse(render_board(state, title="R1 & R2"))
    assert by_class(root, "disc")[0].get("data-id") == "<a&1>"
    assert root.find("svg:title", NS).text == "R1 & R2"


def test_the_last_shot_path_is_highlighted(artifacts_dir):
    state = {
        "discs": [
            {"id": "a1", "side": 0, "x": -0.05, "y": -0.12},
            {"id": "b1", "side": 1, "x": 0.03, "y": 0.08},
        ]
    }
    shot = {"seat": 0, "position": -6.0, "angle": 2.5, "speed": 2.2, "id": "a2"}
    outcome = simulate_shot(state, shot)
    svg = render_board({"discs": outcome["discs"]}, outcome["twenties"], outcome, title="after a2")
    root = parse(svg)
    highlighted = by_class(root, "shot-path")
    assert [p.get("data-id") for p in highlighted] == ["a2"]
    moved = set(shot_paths(outcome["events"]))
    assert {p.get("data-id") for p in by_class(root, "path")} == moved
    assert len(highlighted[0].get("points").split()) >= 2
    with open(os.path.join(artifacts_dir, "board-after-shot.svg"), "w", encoding="utf-8") as f:
        f.write(svg)


def test_a_round_can_be_pictured(artifacts_dir):
    to_20 = math.sqrt(2 * 0.15 * 9.81 * G.shooting_line_radius)
    shots = [
        {"seat": 0, "position": 0.0, "angle": 0.0, "speed": to_20},
        {"seat": 2, "position": 0.0, "angle": 0.0, "speed": 0.795},
        {"seat": 0, "position": 8.0, "angle": -3.0, "speed": 1.3},
        {"seat": 2, "position": -15.0, "angle": 2.0, "speed": 0.9},
    ]
    result = run_round(shots, discs_per_player=2)
    svg = render_board(result["state"], result["set_aside"], title="end of round")
    root = parse(svg)
    assert len(by_class(root, "disc")) == len(result["state"]["discs"])
    assert len(by_class(root, "twenty")) == sum(result["twenties"])
    with open(os.path.join(artifacts_dir, "board-end-of-round.svg"), "w", encoding="utf-8") as f:
        f.write(svg)


def test_a_bad_state_is_refused():
    with pytest.raises(ValueError, match="appears twice"):
        render_board({"discs": [STATE["discs"][0], STATE["discs"][0]]})
