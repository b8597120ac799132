"""Region scoring on the line boundaries (NCA 6a, 6b, 6d, 6e)."""

import pytest

from simulation.rules.geometry import BoardGeometry
from simulation.rules.regions import disc_value, reaches_the_15, region_value
from simulation.rules.state import Disc
from simulation.rules.tally import board_scores, round_points

G = BoardGeometry()
R = G.disc_radius
H = G.half_line
EPS = 1e-6


@pytest.mark.parametrize(
    ("distance", "value"),
    [
        (0.0, 15),
        (G.line_15_10_radius - H - R - EPS, 15),  # just clear of the 15/10 line
        (G.line_15_10_radius - H - R + EPS, 10),  # edge over the line's inner side: NCA 6e
        (G.line_15_10_radius, 10),  # centred on the line
        (G.line_15_10_radius + H + R + EPS, 10),  # wholly in the 10
        (G.line_10_5_radius - H - R - EPS, 10),
        (G.line_10_5_radius - H - R + EPS, 5),  # touching the 10/5 line: the lower value
        (G.shooting_line_radius - H - R - EPS, 5),
        (G.shooting_line_radius - H - R + EPS, 0),  # touching the shooting line: out
    ],
)
def test_a_disc_scores_the_lowest_region_it_touches(distance, value):
    """NCA 6b/6d: the lowest region touched; 6e: the painted line's width counts."""
    assert region_value(distance, G) == value


def test_a_wider_line_reaches_further():
    """NCA 6e: touching is judged against any part of the painted line."""
    distance = G.line_15_10_radius - R - 0.0012
    assert region_value(distance, G) == 15
    assert region_value(distance, BoardGeometry(line_width=0.003)) == 10


def test_a_leaner_counts_15():
    """NCA 6c: only a disc lying flat in the hole scores 20; a leaner counts 15."""
    assert disc_value(Disc("a1", 0, 0.004, 0.0, leaner=True), G) == 15


def test_touching_the_15_line_reaches_the_15():
    """NCA 3a(ii): "touching or within the 15 line"."""
    touching = G.line_15_10_radius + H + R - EPS
    assert reaches_the_15(Disc("a1", 0, 0.0, touching), G)
    assert not reaches_the_15(Disc("a1", 0, 0.0, touching + 2 * EPS), G)


def test_board_totals_include_the_20s():
    """NCA 2a(iii): the board is counted along with the 20s."""
    discs = [Disc("a1", 0, 0.0, 0.05), Disc("b1", 1, 0.0, -0.15), Disc("b2", 1, 0.25, 0.0)]
    assert board_scores(discs, (2, 0), G) == (55, 15)


def test_round_points_are_2_1_0_and_0_0_when_nothing_was_shot():
    """NCA 2a(iv): 2 to the higher score, 1 each on a tie; WCC: 0-0 if no disc was shot."""
    assert round_points((55, 15), shots_taken=16) == (2, 0)
    assert round_points((30, 45), shots_taken=16) == (0, 2)
    assert round_points((20, 20), shots_taken=16) == (1, 1)
    assert round_points((0, 0), shots_taken=0) == (0, 0)
