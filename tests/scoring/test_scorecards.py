"""The scorecard workflow: fill, validate, verify or void, correct, dispute (WCC scorecards)."""

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied

from scoring.engine import round_data
from scoring.models import CardRow
from scoring.results.services import record_game
from scoring.scorecards.services import (
    ContradictionError,
    ScorecardError,
    StaleRowError,
    card_for,
    fill_row,
    resolve_dispute,
    validate_row,
    verify_card,
    void_card,
)
from tests.factories import CategoryFactory, EntryFactory, StageFactory
from tournaments.models import Game, Match, TournamentRole
from tournaments.services.draws import draw_knockout

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role

WIN = [{"points": [2, 0], "twenties": [3, 1]}] * 3 + [{"points": [0, 2], "twenties": [1, 2]}]


def mirror(rounds):
    return [{"points": r["points"][::-1], "twenties": r["twenties"][::-1]} for r in rounds]


@pytest.fixture
def world(small_event):
    """The shared small event's game: the player (a) against the opponent (b)."""
    e = small_event
    return e.stage, e.player, e.opponent, e.game, e.users


def test_full_workflow_counts_only_after_verification(world):
    """WCC: players mark their cards, the opponent validates with ID and initials, the scoring
    table verifies; standings use verified cards."""
    stage, a, b, game, u = world
    card = card_for(stage, a)
    row = fill_row(card=card, game=game, rounds=WIN, user=u["player"])
    assert (
        row.status == CardRow.Status.FILLED and row.total_points == 6 and row.total_twenties == 10
    )
    assert not game.rounds.exists()
    row = validate_row(
        row=row, opponent_number=str(b.player.number), initials="bs", user=u["opponent"]
    )
    assert row.status == CardRow.Status.VALIDATED and row.validated_initials == "BS"
    assert not game.rounds.exists()
    verify_card(card=card, user=u["scoring-table"])
    assert list(game.rounds.values_list("points_a", "points_b")) == [(2, 0)] * 3 + [(0, 2)]


def test_event_may_count_validated_cards(world):
    stage, a, b, game, u = world
    t = stage.category.tournament
    t.count_validated_cards = True
    t.save()
    row = fill_row(card=card_for(stage, a), game=game, rounds=WIN, user=u["player"])
    validate_row(row=row, opponent_number=str(b.player.number), initials="B", user=u["opponent"])
    assert game.rounds.count() == 4


@pytest.mark.parametrize(
    ("rounds", "message"),
    [
        ([{"points": [2, 2], "twenties": [0, 0]}], "impossible"),
        ([{"points": [2, 0], "twenties": [9, 0]}], "9"),
        ([{"score": [42, 20], "twenties": [0, 0]}], "multiple of 5"),
        ([{"points": [2, 0], "twenties": [0, 0]}] * 5, "round 5 is one too many"),
    ],
)
def test_impossible_rows_refused_with_the_round_named(world, rounds, message):
    stage, a, _, game, u = world
    with pytest.raises(ScorecardError) as exc:
        fill_row(card=card_for(stage, a), game=game, rounds=rounds, user=u["player"])
    # The game is named by its match (one game: no "game 1" to look for a game 2 after).
    assert message in str(exc.value) and f"{game.match} in round of play" in str(exc.value)
    assert not CardRow.objects.exists()


def test_card_for_an_unscheduled_game_is_refused(world):
    stage, a, _, _, u = world
    other_stage = StageFactory(category=stage.category)
    c = EntryFactory(category=stage.category)
    d = EntryFactory(category=stage.category)
    foreign = Game.objects.create(
        match=Match.objects.create(stage=other_stage, entry_a=c, entry_b=d)
    )
    with pytest.raises(ScorecardError, match="not scheduled"):
        fill_row(card=card_for(stage, a), game=foreign, rounds=WIN, user=u["player"])


def test_only_the_opponent_validates(world):
    """WCC: the opponent records their ID number and initials."""
    stage, a, b, game, u = world
    row = fill_row(card=card_for(stage, a), game=game, rounds=WIN, user=u["player"])
    with pytest.raises(ScorecardError, match="only the opponent"):
        validate_row(row=row, opponent_number=str(a.player.number), initials="AB", user=u["player"])
    with pytest.raises(PermissionDenied):
        validate_row(
            row=row, opponent_number=str(b.player.number), initials="BS", user=u["referee"]
        )
    row.refresh_from_db()
    assert row.status == CardRow.Status.FILLED


def test_correction_after_validation_needs_a_referee_and_keeps_history(world):
    """WCC: any corrections made on your score card must be initialled by a referee."""
    stage, a, b, game, u = world
    row = fill_row(card=card_for(stage, a), game=game, rounds=WIN, user=u["player"])
    row = validate_row(
        row=row, opponent_number=str(b.player.number), initials="BS", user=u["opponent"]
    )
    fixed = [*WIN[:3], {"points": [1, 1], "twenties": [1, 1]}]
    with pytest.raises(PermissionDenied):
        fill_row(card=row.card, game=game, rounds=fixed, user=u["player"], version=row.version)
    with pytest.raises(ScorecardError, match="initialled"):
        fill_row(card=row.card, game=game, rounds=fixed, user=u["referee"], version=row.version)
    row = fill_row(
        card=row.card,
        game=game,
        rounds=fixed,
        user=u["referee"],
        version=row.version,
        referee_initials="jr",
    )
    assert row.referee_initials == "JR" and row.total_points == 7
    history = list(row.history.order_by("history_date"))
    assert history[0].rounds[3]["points"] == [0, 2]
    assert history[-1].rounds[3]["points"] == [1, 1]
    assert history[-1].history_change_reason.startswith("corrected")


def test_second_submission_racing_the_first_is_told_to_reload(world):
    stage, a, _, game, u = world
    row = fill_row(card=card_for(stage, a), game=game, rounds=WIN, user=u["player"])
    seen = row.version
    fill_row(card=row.card, game=game, rounds=mirror(WIN), user=u["player"], version=seen)
    with pytest.raises(StaleRowError, match="Reload"):
        fill_row(card=row.card, game=game, rounds=WIN, user=u["referee"], version=seen)
    row.refresh_from_db()
    assert row.rounds[0]["points"] == [0, 2]


def test_disagreeing_cards_go_to_the_dispute_queue_and_the_head_referee_rules(world):
    """B's own row contradicting A's row, which B validated, is refused once with the round
    named; saved anyway, both rows go to the head referee's queue."""
    stage, a, b, game, u = world
    ra = fill_row(card=card_for(stage, a), game=game, rounds=WIN, user=u["player"])
    validate_row(row=ra, opponent_number=str(b.player.number), initials="BS", user=u["opponent"])
    wrong = mirror([*WIN[:3], {"points": [2, 0], "twenties": [1, 2]}])
    with pytest.raises(ContradictionError, match="Round 4"):
        fill_row(card=card_for(stage, b), game=game, rounds=wrong, user=u["opponent"])
    rb = fill_row(
        card=card_for(stage, b),
        game=game,
        rounds=wrong,
        user=u["opponent"],
        confirm_contradiction=True,
    )
    assert rb.status == CardRow.Status.DISPUTED
    statuses = set(CardRow.objects.filter(game=game).values_list("status", flat=True))
    assert statuses == {CardRow.Status.DISPUTED}
    assert not game.rounds.exists()
    with pytest.raises(PermissionDenied):
        resolve_dispute(game=game, rounds_a=WIN, user=u["referee"], initials="R")
    resolve_dispute(game=game, rounds_a=WIN, user=u["head-referee"], initials="HR")
    assert set(CardRow.objects.filter(game=game).values_list("status", flat=True)) == {
        CardRow.Status.VERIFIED
    }
    assert game.rounds.count() == 4


def test_void_needs_a_reason_and_withdraws_the_result(world):
    """WCC: cards missing full name, ID or category, or not legible, may be voided."""
    stage, a, b, game, u = world
    card = card_for(stage, a)
    row = fill_row(card=card, game=game, rounds=WIN, user=u["player"])
    validate_row(row=row, opponent_number=str(b.player.number), initials="BS", user=u["opponent"])
    verify_card(card=card, user=u["scoring-table"])
    with pytest.raises(ScorecardError, match="why"):
        void_card(card=card, reason=" ", user=u["scoring-table"])
    with pytest.raises(PermissionDenied):
        void_card(card=card, reason="illegible", user=u["player"])
    void_card(card=card, reason="illegible", user=u["scoring-table"])
    row.refresh_from_db()
    assert row.status == CardRow.Status.VOIDED and row.void_reason == "illegible"
    assert not game.rounds.exists()


def test_players_cannot_fill_someone_elses_card(world):
    stage, a, _, game, u = world
    with pytest.raises(PermissionDenied):
        fill_row(card=card_for(stage, a), game=game, rounds=WIN, user=u["opponent"])


def test_referee_filling_before_validation_still_needs_the_opponent(world):
    stage, a, _, game, u = world
    row = fill_row(
        card=card_for(stage, a), game=game, rounds=WIN, user=u["referee"], referee_initials="JR"
    )
    row = fill_row(
        card=row.card, game=game, rounds=mirror(WIN), user=u["referee"], referee_initials="JR"
    )
    assert row.status == CardRow.Status.FILLED
    assert not game.rounds.exists()


def _disputed(world):
    stage, a, b, game, u = world
    ra = fill_row(card=card_for(stage, a), game=game, rounds=WIN, user=u["player"])
    validate_row(row=ra, opponent_number=str(b.player.number), initials="BS", user=u["opponent"])
    wrong = mirror([*WIN[:3], {"points": [2, 0], "twenties": [1, 2]}])
    fill_row(
        card=card_for(stage, b),
        game=game,
        rounds=wrong,
        user=u["opponent"],
        confirm_contradiction=True,
    )


def test_a_ruling_needs_the_head_referees_initials(world):
    _, _, _, game, u = world
    _disputed(world)
    with pytest.raises(ScorecardError, match="initials"):
        resolve_dispute(game=game, rounds_a=WIN, user=u["head-referee"], initials=" ")
    assert set(CardRow.objects.filter(game=game).values_list("status", flat=True)) == {
        CardRow.Status.DISPUTED
    }


def test_verified_knockout_results_open_the_next_match():
    """Best of 3 (WCC championship): two verified game wins send the winner to the final."""
    category = CategoryFactory()
    stage = StageFactory(category=category, kind="knockout", best_of=3, name="Playoff")
    entries = [EntryFactory(category=category) for _ in range(4)]
    table = User.objects.create_user("table")
    TournamentRole.objects.create(
        tournament=category.tournament, user=table, role=Role.SCORING_TABLE
    )
    draw_knockout(stage, entries)
    semi = stage.matches.get(bracket_slot="SF1")
    card = card_for(stage, semi.entry_a)
    referee = User.objects.create_user("ref")
    TournamentRole.objects.create(tournament=category.tournament, user=referee, role=Role.REFEREE)
    owner = User.objects.create_user("owner")
    semi.entry_a.player.user = owner
    semi.entry_a.player.save()
    rival = User.objects.create_user("rival")
    semi.entry_b.player.user = rival
    semi.entry_b.player.save()
    for game in semi.games.order_by("number")[:2]:
        row = fill_row(card=card, game=game, rounds=WIN, user=owner)
        validate_row(
            row=row, opponent_number=str(semi.entry_b.player.number), initials="X", user=rival
        )
    other = stage.matches.get(bracket_slot="SF2")
    for game in other.games.order_by("number")[:2]:
        record_game(game, [round_data(points=(2, 0))] * 4)
    assert not stage.matches.filter(bracket_slot="F").exists()  # SF1 is not verified yet
    verify_card(card=card, user=table)
    final = stage.matches.get(bracket_slot="F")
    assert {final.entry_a, final.entry_b} == {semi.entry_a, other.entry_a}
