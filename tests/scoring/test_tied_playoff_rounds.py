"""WCC Scoring: "If after 4 rounds (a game) the player's scores are tied, a 5th round will be
played as a winner has to be determined" — and a tied 5th round is followed by another, until one
is won, in every place that takes or shows a result: the phone scorecard, the API, the official
results, the bracket, the printed card and the simulation."""

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.models import CardRow
from scoring.printing.cards import stage_cards
from scoring.results.outcomes import stage_outcomes
from scoring.results.services import record_game
from scoring.scorecards.forms import RoundsForm
from scoring.scorecards.services import (
    ScorecardError,
    card_for,
    fill_row,
    validate_row,
    verify_card,
)
from simulation.game import play_game
from tests.factories import CategoryFactory, EntryFactory, StageFactory
from tournaments.models import TournamentRole
from tournaments.services.draws import draw_knockout

Role = TournamentRole.Role

WON, TIED, LOST = (
    {"points": [2, 0], "twenties": [2, 0]},
    {"points": [1, 1], "twenties": [1, 1]},
    {"points": [0, 2], "twenties": [0, 2]},
)
#: Tied 4-4 after 4 rounds, 5-5 after a tied 5th, won in the 6th.
FOUR_ALL = [WON, LOST, TIED, TIED]
SIX_ROUNDS = [*FOUR_ALL, TIED, WON]


@pytest.fixture
def bracket(db):
    """A best-of-3 knockout of four with its semifinals drawn, a scoring table and users."""
    category = CategoryFactory()
    stage = StageFactory(category=category, kind="knockout", best_of=3, name="Playoff")
    entries = [EntryFactory(category=category) for _ in range(4)]
    draw_knockout(stage, entries)
    tournament = category.tournament
    users = {name: User.objects.create_user(name) for name in ("owner", "rival", "table")}
    TournamentRole.objects.create(
        tournament=tournament, user=users["table"], role=Role.SCORING_TABLE
    )
    semi = stage.matches.get(bracket_slot="SF1")
    semi.entry_a.player.user = users["owner"]
    semi.entry_a.player.save()
    semi.entry_b.player.user = users["rival"]
    semi.entry_b.player.save()
    return stage, semi, users


def _validate(row, semi, users):
    return validate_row(
        row=row,
        opponent_number=str(semi.entry_b.player.number),
        initials="RV",
        user=users["rival"],
    )


def test_a_card_row_tied_after_four_or_five_rounds_cannot_be_validated(bracket):
    stage, semi, users = bracket
    game = semi.games.get(number=1)
    card = card_for(stage, semi.entry_a)
    row = fill_row(card=card, game=game, rounds=FOUR_ALL, user=users["owner"])
    with pytest.raises(ScorecardError, match="round 5 is needed: the game is tied 4-4") as error:
        _validate(row, semi, users)
    assert error.value.round == 5
    row = fill_row(
        card=card, game=game, rounds=[*FOUR_ALL, TIED], user=users["owner"], version=row.version
    )
    with pytest.raises(ScorecardError, match="round 6 is needed: the game is tied 5-5"):
        _validate(row, semi, users)
    row = fill_row(
        card=card, game=game, rounds=SIX_ROUNDS, user=users["owner"], version=row.version
    )
    assert _validate(row, semi, users).status == CardRow.Status.VALIDATED


def test_a_round_after_the_deciding_round_is_refused_with_its_number(bracket):
    stage, semi, users = bracket
    card = card_for(stage, semi.entry_a)
    with pytest.raises(ScorecardError, match="round 7 is one too many") as error:
        fill_row(
            card=card, game=semi.games.get(number=1), rounds=[*SIX_ROUNDS, WON], user=users["owner"]
        )
    assert error.value.round == 7


def test_the_phone_form_offers_a_sixth_line_after_a_tied_fifth(bracket):
    _stage, semi, _users = bracket
    game = semi.games.get(number=1)
    assert RoundsForm(game=game).round_count == 4
    assert RoundsForm(game=game, rounds=FOUR_ALL).round_count == 5
    assert RoundsForm(game=game, rounds=[*FOUR_ALL, TIED]).round_count == 6
    assert RoundsForm(game=game, rounds=SIX_ROUNDS).round_count == 6


def test_a_six_round_game_counts_and_the_bracket_advances(bracket):
    """The verified 6-round game and a second win finish the semifinal; the final opens."""
    stage, semi, users = bracket
    card = card_for(stage, semi.entry_a)
    for number, rounds in ((1, SIX_ROUNDS), (2, [WON, WON, WON, LOST])):
        row = fill_row(
            card=card, game=semi.games.get(number=number), rounds=rounds, user=users["owner"]
        )
        _validate(row, semi, users)
    other = stage.matches.get(bracket_slot="SF2")
    for game in other.games.order_by("number")[:2]:
        record_game(game, [WON] * 4)
    verify_card(card=card, user=users["table"])
    official = semi.games.get(number=1)
    assert official.rounds.count() == 6
    outcome = stage_outcomes(stage)[semi.id]
    assert outcome.games[0].finished and outcome.games[0].winner == "a"
    assert outcome.complete and outcome.winner == "a"
    final = stage.matches.get(bracket_slot="F")
    assert semi.entry_a in (final.entry_a, final.entry_b)


def test_the_api_takes_the_sixth_round_and_refuses_validation_of_a_tie(bracket):
    stage, semi, users = bracket
    game = semi.games.get(number=1)
    owner, rival = APIClient(), APIClient()
    for client, name in ((owner, "owner"), (rival, "rival")):
        token, _ = Token.objects.get_or_create(user=users[name])
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    card = owner.post(
        "/api/scorecards/", {"stage": stage.id, "entry": semi.entry_a.id}, format="json"
    ).json()
    tied = owner.post(
        f"/api/scorecards/{card['id']}/fill/",
        {"game": game.id, "rounds": [*FOUR_ALL, TIED]},
        format="json",
    )
    assert tied.status_code == 201, tied.json()
    refused = rival.post(
        f"/api/card-rows/{tied.json()['id']}/validate/",
        {
            "opponent_number": str(semi.entry_b.player.number),
            "initials": "RV",
            "version": tied.json()["version"],
        },
        format="json",
    )
    assert refused.status_code == 400
    assert "round 6 is needed" in str(refused.json())
    done = owner.post(
        f"/api/scorecards/{card['id']}/fill/",
        {"game": game.id, "rounds": SIX_ROUNDS, "version": tied.json()["version"]},
        format="json",
    )
    assert done.status_code == 200, done.json()
    assert len(done.json()["rounds"]) == 6


def test_a_printed_playoff_card_keeps_room_for_extra_rounds(bracket):
    stage, _semi, _users = bracket
    cards = stage_cards(stage)
    assert cards and all(card.rounds == 6 and card.regular == 4 for card in cards)


@pytest.mark.parametrize("seed", [*range(8), 56])
def test_a_simulated_playoff_game_never_ends_tied(seed):
    """One-disc, one-round games are often level, so deciding rounds come within a few seeds
    (seed 56 plays four rounds: the 2nd and 3rd were tied as well)."""
    record = play_game(["novice", "novice"], seed=seed, rounds=1, playoff=True, discs_per_player=1)
    assert record["points"][0] != record["points"][1]
    totals = [0, 0]
    for number, round_ in enumerate(record["rounds"], 1):
        totals = [totals[0] + round_["points"][0], totals[1] + round_["points"][1]]
        if number < len(record["rounds"]):
            assert totals[0] == totals[1]  # it went on only while level
    if seed == 56:
        assert len(record["rounds"]) == 4
