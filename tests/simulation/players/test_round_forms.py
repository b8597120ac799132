"""Each player's form in a round (``simulation.players.noise.round_forms``): the shared form
alone when the own form's spread is 0, from the same one draw; with it, each player's factor
moves apart from the other's by the own spread."""

import math

import numpy as np
import pytest

from simulation.players import noise


def test_without_own_form_every_player_gets_the_shared_form_from_the_same_draw(monkeypatch):
    monkeypatch.setattr(noise, "ROUND_OWN_FORM_SD", 0.0)
    forms = noise.round_forms(np.random.default_rng(5), 4)
    assert forms == [noise.round_form(np.random.default_rng(5))] * 4


def test_own_form_sets_the_players_apart_by_its_spread(monkeypatch):
    monkeypatch.setattr(noise, "ROUND_OWN_FORM_SD", 0.35)
    rng = np.random.default_rng(9)
    logs = np.log([noise.round_forms(rng, 2) for _ in range(4000)])
    assert np.std(logs[:, 0] - logs[:, 1]) == pytest.approx(0.35 * math.sqrt(2), rel=0.05)
    assert np.std(logs[:, 0]) == pytest.approx(math.hypot(0.35, noise.ROUND_FORM_SD), rel=0.05)


def test_the_own_form_is_in_play_and_the_players_of_a_game_get_it():
    """In play (the refit of the levels assumes it): two players' factors in a round differ."""
    from simulation.game import play_game

    assert noise.ROUND_OWN_FORM_SD == 0.5
    forms = noise.round_forms(np.random.default_rng(5), 2)
    assert forms[0] != forms[1]
    record = play_game(["competitive", "competitive"], seed=11, rounds=1)
    assert len(record["rounds"]) == 1


def test_a_form_far_in_the_tail_plays_at_the_worst_a_player_can_be():
    """A round's factor of 13 on a novice's errors (a draw about once in a million rounds) would
    pass what any player makes; the hand is held at the worst a player can be instead of the
    game failing."""
    from simulation.players.player import AIPlayer
    from simulation.players.profiles import MAX_ANGLE_SD, MAX_SPEED_SD, get_profile

    player = AIPlayer(get_profile("novice"))
    player.in_form(13.0)
    assert player.hand.angle_sd <= MAX_ANGLE_SD and player.hand.speed_sd <= MAX_SPEED_SD
    assert max(player.hand.angle_sd / MAX_ANGLE_SD, player.hand.speed_sd / MAX_SPEED_SD) == (
        pytest.approx(1.0)
    )
    player.in_form(1.5)
    assert player.hand.angle_sd == pytest.approx(1.5 * player.profile.angle_sd)
