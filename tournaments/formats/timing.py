"""Timed matches: the last shot after the buzzer, and the round that never started.

Tournament games are played against the clock. WCC: "If some discs have not been shot when the
ending buzzer sounds they will remain non played. However, if a player or team has had one less
shot, they will be allowed to take one last shot immediately after the buzzer to even out number
of shots taken." NCA rule 8b: "If time runs out in a timed match, one additional shot will be
allowed, if necessary, to equalize the number of shots." And WCC: "For any round where no discs
are shot before time expires, both teams will record a zero for that round." Scorekeepers and
the scorecard page ask these two questions when the buzzer goes.
"""

from __future__ import annotations

from typing import Literal

from tournaments.translation import _

Side = Literal["a", "b"]


def equalising_shot(shots_a: int, shots_b: int, discs_per_side: int | None = None) -> Side | None:
    """Who may take one last shot after the buzzer, given the discs each side had shot.

    The side with one shot fewer gets it; nobody does when the counts are level. Play alternates,
    so counts further apart than one (or more than the discs a side has) are an error.
    """
    if shots_a < 0 or shots_b < 0:
        raise ValueError(_("a number of shots cannot be negative"))
    if discs_per_side is not None and max(shots_a, shots_b) > discs_per_side:
        raise ValueError(_("a side has only %(discs)s discs to shoot") % {"discs": discs_per_side})
    if abs(shots_a - shots_b) > 1:
        raise ValueError(
            _(
                "%(shots_a)s shots against %(shots_b)s: sides take turns, so they cannot differ by"
                " more than one"
            )
            % {"shots_a": shots_a, "shots_b": shots_b}
        )
    if shots_a < shots_b:
        return "a"
    if shots_b < shots_a:
        return "b"
    return None


def timed_round_points(score_a: int, score_b: int, shots_a: int, shots_b: int) -> tuple[int, int]:
    """The round's points when time expired: 0-0 if no disc was shot, else 2-0, 1-1 or 0-2.

    `score_a` and `score_b` are the board totals (20s included) once the equalising shot, if
    any, has been taken.
    """
    if shots_a < 0 or shots_b < 0:
        raise ValueError(_("a number of shots cannot be negative"))
    if shots_a == 0 and shots_b == 0:
        return (0, 0)
    if score_a > score_b:
        return (2, 0)
    if score_b > score_a:
        return (0, 2)
    return (1, 1)
