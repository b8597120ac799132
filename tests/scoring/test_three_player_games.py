"""Family rulebook, Three-Player Game, Option Two, as a tournament category: groups of three at a
board, each player alone, 2-1-0 by rank each round, play to 8; the three cards of a game must
agree; the standings add each player's own points."""

import pytest
from django.core.exceptions import ValidationError

from scoring.models import CardRow
from scoring.results.outcomes import stage_outcomes
from scoring.scorecards.services import (
    ScorecardError,
    card_for,
    fill_row,
    validate_row,
    verify_card,
)
from scoring.standings.selectors import stage_standings
from tests.factories import CategoryFactory, EntryFactory, StageFactory, UserFactory
from tournaments.models import Category, Stage, TournamentRole
from tournaments.services.draws import draw_stage

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role

#: A game from entry A's side, won 8-4-3: [a, b, c] points and 20s per round.
GAME = [
    {"points": [2, 1, 0], "twenties": [2, 1, 0]},
    {"points": [2, 0, 1], "twenties": [1, 0, 0]},
    {"points": [0, 1, 2], "twenties": [0, 0, 1]},
    {"points": [2, 1, 0], "twenties": [1, 0, 0]},
    {"points": [2, 1, 0], "twenties": [2, 1, 0]},
]


def seen_by(rounds, order):
    return [{key: [r[key][i] for i in order] for key in ("points", "twenties")} for r in rounds]


@pytest.fixture
def event():
    category = CategoryFactory(
        scoring_system=Category.ScoringSystem.THREE_PLAYER, discs_per_player=12
    )
    # Byes are worth nothing here, so the standings show what was played.
    stage = StageFactory(category=category, games_per_entry=3, name="Triples", bye_points=0)
    entries = [EntryFactory(category=category) for _ in range(7)]
    table = UserFactory()
    TournamentRole.objects.create(
        tournament=category.tournament, user=table, role=Role.SCORING_TABLE
    )
    return stage, entries, table


def test_the_draw_makes_groups_of_three_and_a_bye_for_the_seventh(event):
    stage, _entries, _ = event
    matches = draw_stage(stage)
    for number in (1, 2, 3):
        played = [m for m in matches if m.round_of_play == number]
        games = [m for m in played if m.entry_b_id is not None]
        assert len(games) == 2 and all(m.entry_c_id is not None for m in games)
        byes = [m for m in played if m.entry_b_id is None]
        assert len(byes) == 1
    sat_out = [m.entry_a_id for m in matches if m.entry_b_id is None]
    assert len(set(sat_out)) == 3  # nobody sits out twice


def test_only_preliminary_rounds_are_drawn_for_three_player_games(event):
    stage, _, _ = event
    knockout = Stage(category=stage.category, name="Final", kind="knockout", order=2)
    with pytest.raises(ValidationError, match="played by two sides"):
        knockout.full_clean()


def test_three_cards_that_agree_make_the_official_result_and_the_standings(event):
    stage, _entries, table = event
    draw_stage(stage)
    match = stage.matches.filter(round_of_play=1, entry_b__isnull=False).first()
    game = match.games.get()
    a, b, c = match.entry_a, match.entry_b, match.entry_c
    users = {}
    for entry in (a, b, c):
        users[entry.id] = UserFactory()
        entry.player.user = users[entry.id]
        entry.player.save()
    rows = {}
    for entry, order in ((a, (0, 1, 2)), (b, (1, 0, 2)), (c, (2, 0, 1))):
        card = card_for(stage, entry)
        rows[entry.id] = fill_row(
            card=card, game=game, rounds=seen_by(GAME, order), user=users[entry.id]
        )
    # Each player entered their own card, and the three say the same: each card is validated
    # by another that agrees (A's and B's by each other, C's by A's), none waits for a signature.
    saved = {row.card.entry_id: row for row in CardRow.objects.filter(game=game)}
    assert {row.status for row in saved.values()} == {CardRow.Status.VALIDATED}
    assert {row.validated_how for row in saved.values()} == {CardRow.ValidatedHow.AGREEMENT}
    assert saved[a.id].validated_entry_id == b.id and saved[b.id].validated_entry_id == a.id
    assert saved[c.id].validated_entry_id == a.id
    with pytest.raises(ScorecardError, match="only the opponent"):
        validate_row(row=rows[a.id], opponent_number="99999", initials="X", user=users[b.id])
    verify_card(card=card_for(stage, a), user=table)
    official = list(game.rounds.values_list("points_a", "points_b", "points_c"))
    assert official == [tuple(r["points"]) for r in GAME]
    outcome = stage_outcomes(stage)[match.id]
    assert outcome.complete and outcome.winner == "a" and outcome.games[0].points == (8, 4, 3)
    lines = {line.entry.id: line for line in stage_standings(stage).lines}
    assert (lines[a.id].points, lines[b.id].points, lines[c.id].points) == (8, 4, 3)
    assert (lines[a.id].twenties, lines[c.id].twenties) == (6, 1)
    assert CardRow.objects.get(pk=rows[b.id].pk).status == CardRow.Status.VALIDATED


def test_cards_that_disagree_go_to_the_head_referee(event):
    stage, _entries, _ = event
    draw_stage(stage)
    match = stage.matches.filter(round_of_play=1, entry_b__isnull=False).first()
    game = match.games.get()
    a, b, c = match.entry_a, match.entry_b, match.entry_c
    for entry in (a, b, c):
        entry.player.user = UserFactory()
        entry.player.save()
    row_a = fill_row(card=card_for(stage, a), game=game, rounds=GAME, user=a.player.user)
    wrong = seen_by(GAME, (1, 0, 2))
    wrong[0] = {"points": [1, 2, 0], "twenties": [2, 2, 0]}  # B claims a 20 more in round 1
    # Two own cards telling round 1 differently: a dispute as soon as both are in.
    row_b = fill_row(card=card_for(stage, b), game=game, rounds=wrong, user=b.player.user)
    assert row_b.status == CardRow.Status.DISPUTED and row_a.pk != row_b.pk
    statuses = set(CardRow.objects.filter(game=game).values_list("status", flat=True))
    assert statuses == {CardRow.Status.DISPUTED}
    assert not game.rounds.exists()


def test_a_short_three_player_row_says_which_round_is_missing(event):
    stage, _entries, _ = event
    draw_stage(stage)
    match = stage.matches.filter(round_of_play=1, entry_b__isnull=False).first()
    a, b = match.entry_a, match.entry_b
    for entry in (a, b):
        entry.player.user = UserFactory()
        entry.player.save()
    row = fill_row(
        card=card_for(stage, a), game=match.games.get(), rounds=GAME[:3], user=a.player.user
    )
    with pytest.raises(ScorecardError, match="round 4 is needed: the game is played to 8 points"):
        validate_row(
            row=row, opponent_number=str(b.player.number), initials="BB", user=b.player.user
        )
