"""The replay page names the players, not "side 0" and "side 1", and shows the running score
round by round: those who watch a game know the players, not the engine's numbering."""

from __future__ import annotations

import pytest
from django.urls import reverse

from simulation import selectors
from simulation.models import AutoPlay, Status
from simulation.render import render_board
from tests.simulation.app.support import add_stage, make_tournament
from tests.simulation.app.test_sim_autoplay import _run
from tournaments.models import Game, Stage


@pytest.fixture
def simulated_game(eager) -> Game:
    tournament, category = make_tournament(players=2)
    stage = add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=1)
    run = _run(tournament, scope=AutoPlay.Scope.CATEGORY, category=category)
    assert run.status == Status.DONE, run.error
    return Game.objects.select_related("match__entry_a", "match__entry_b").get(match__stage=stage)


@pytest.mark.django_db
def test_the_replay_names_the_players_and_shows_the_score_round_by_round(client, simulated_game):
    game, match = simulated_game, simulated_game.match
    slug = match.stage.category.tournament.slug
    response = client.get(reverse("simulation:replay", args=[slug, game.id]))
    assert response.status_code == 200
    body = response.content.decode()
    a, b = match.entry_a.name, match.entry_b.name
    assert "side 0" not in body and "side 1" not in body
    board = body[
        body.index('<div class="replay-board">') : body.index('<div class="replay-controls"')
    ]
    assert a[:11] in board and b[:11] in board  # the columns of 20s are the players'
    table = body[body.index('<table class="replay-rounds">') : body.index("</table>")]
    assert f'<th scope="col">{a}</th>' in table and f'<th scope="col">{b}</th>' in table
    rounds = selectors.replay_rounds(game)
    assert len(rounds) == table.count("<tr data-round=") == len(game.rounds.all())
    last = rounds[-1]
    assert [last.total_points[0], last.total_points[1]] == [
        sum(r.points_a for r in game.rounds.all()),
        sum(r.points_b for r in game.rounds.all()),
    ]
    assert f"<strong>{last.total_points[0]}</strong>" in table


@pytest.mark.django_db
def test_the_match_page_replay_names_the_players_too(client, simulated_game):
    match = simulated_game.match
    slug = match.stage.category.tournament.slug
    body = client.get(reverse("simulation:match", args=[slug, match.id])).content.decode()
    assert 'class="replay-rounds"' in body
    assert "side 0" not in body and "side 1" not in body


def test_the_board_keeps_the_side_numbers_when_drawn_without_names():
    assert "20s, side 0" in render_board({"discs": []})
    named = render_board({"discs": []}, side_names=("Ann Long-Surname-Here", "Bo"))
    assert "side 0" not in named and "Ann Long-Su\u2026" in named and ">Bo</text>" in named
