"""The data model refuses impossible results in the database itself, not only in forms."""

import pytest
from django.db import IntegrityError, transaction

from tests.factories import CategoryFactory, EntryFactory, GameFactory, PlayerFactory
from tournaments.models import Category, Entry, Round, Team, Tournament

pytestmark = pytest.mark.django_db


def make_round(game, **kw) -> Round:
    fields = dict(
        game=game, number=1, points_a=2, points_b=0, twenties_a=0, twenties_b=0, discs_per_side=8
    )
    fields.update(kw)
    return Round(**fields)


def assert_db_refuses(obj) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        obj.save()


@pytest.mark.parametrize(("pa", "pb"), [(2, 2), (2, 1), (1, 0), (0, 0), (3, 0)])
def test_db_refuses_impossible_round_points(pa, pb):
    """NCA 2a iv: the higher score gets 2 points, a tie 1 each; 0-0 only when time expired."""
    game = GameFactory()
    assert_db_refuses(make_round(game, points_a=pa, points_b=pb))


@pytest.mark.parametrize(("pa", "pb"), [(2, 0), (1, 1), (0, 2)])
def test_db_accepts_possible_round_points(pa, pb):
    game = GameFactory()
    make_round(game, points_a=pa, points_b=pb).save()
    assert Round.objects.filter(game=game).count() == 1


def test_time_expired_round_scores_zero_zero():
    """WCC Tournament Scoring: a round where no discs are shot before time expires is 0-0."""
    game = GameFactory()
    make_round(game, points_a=0, points_b=0, time_expired=True).save()
    assert_db_refuses(make_round(game, number=2, points_a=2, points_b=0, time_expired=True))
    assert_db_refuses(
        make_round(game, number=3, points_a=0, points_b=0, time_expired=True, twenties_a=1)
    )


def test_db_refuses_more_twenties_than_discs():
    """20s never exceed the discs a side has (8 in singles, 6 each x 2 in doubles)."""
    game = GameFactory()
    assert_db_refuses(make_round(game, twenties_a=9, discs_per_side=8))
    make_round(game, twenties_a=8, discs_per_side=8).save()


def test_db_refuses_board_scores_not_multiple_of_five():
    game = GameFactory()
    assert_db_refuses(make_round(game, score_a=42, score_b=20))


def test_db_refuses_board_score_below_its_twenties():
    game = GameFactory()
    assert_db_refuses(make_round(game, twenties_a=3, score_a=55, score_b=20))
    make_round(game, twenties_a=3, score_a=60, score_b=20).save()


def test_db_refuses_points_that_contradict_board_scores():
    game = GameFactory()
    assert_db_refuses(make_round(game, points_a=0, points_b=2, score_a=60, score_b=20))
    assert_db_refuses(make_round(game, points_a=2, points_b=0, score_a=40, score_b=40))


def test_db_refuses_a_difference_round_whose_points_are_not_the_difference():
    """Family rulebook Scoring 5: the winner of the round adds the difference, the other 0."""
    game = GameFactory()
    difference = dict(scoring="difference", score_a=65, score_b=40)
    make_round(game, points_a=25, points_b=0, **difference).save()
    for pa, pb in ((2, 0), (25, 25), (0, 25), (30, 0)):
        assert_db_refuses(make_round(game, number=2, points_a=pa, points_b=pb, **difference))
    assert_db_refuses(make_round(game, number=2, scoring="difference", points_a=5, points_b=0))
    make_round(
        game, number=2, scoring="difference", points_a=0, points_b=0, time_expired=True
    ).save()


def test_entry_is_a_player_or_a_team_never_both():
    entry = EntryFactory()
    p1 = PlayerFactory(tournament=entry.category.tournament)
    p2 = PlayerFactory(tournament=entry.category.tournament)
    team = Team.objects.create(tournament=entry.category.tournament, player_one=p1, player_two=p2)
    assert_db_refuses(Entry(category=entry.category, player=p1, team=team))
    assert_db_refuses(Entry(category=entry.category))


def test_team_needs_two_players():
    p = PlayerFactory()
    assert_db_refuses(Team(tournament=p.tournament, player_one=p, player_two=p))


@pytest.mark.parametrize(
    ("key", "kind", "discs", "side"),
    [
        ("competitive-singles", "singles", 8, 8),
        ("recreational-doubles", "doubles", 6, 12),
        ("cue-singles", "singles", 6, 6),
        ("cue-doubles", "doubles", 5, 10),
        ("junior", "singles", 6, 6),
    ],
)
def test_category_presets_follow_wcc_disc_counts(key, kind, discs, side):
    """WCC Tournament Scoring Information: discs per player per category."""
    t = Tournament.objects.create(name="WCC", slug="wcc")
    c = Category.from_preset(t, key)
    c.save()
    assert (c.kind, c.discs_per_player, c.discs_per_side, c.rounds_per_game) == (
        kind,
        discs,
        side,
        4,
    )
    assert c.shootout_shots_per_player == (12 if kind == "singles" else 6)


def test_unknown_preset_lists_the_known_ones():
    t = Tournament.objects.create(name="WCC", slug="wcc")
    with pytest.raises(ValueError, match="competitive-singles"):
        Category.from_preset(t, "speed-crokinole")


def test_player_numbers_unique_within_a_tournament():
    c = CategoryFactory()
    PlayerFactory(tournament=c.tournament, number=7)
    assert_db_refuses(PlayerFactory.build(tournament=c.tournament, number=7))
