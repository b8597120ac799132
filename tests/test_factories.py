"""The test data builders themselves: a factory for every model, each making a valid row, and the
shared small event with every role doing what its role allows."""

from __future__ import annotations

import factory
import pytest
from django.apps import apps
from django.contrib.auth.models import User

from tests import factories
from tests.events import ANONYMOUS, OFFICIALS, ROLES, build_small_event
from tournaments.models import Match

pytestmark = pytest.mark.django_db

APPS = ("tournaments", "scoring", "simulation")


def all_factories() -> dict[type, type[factory.django.DjangoModelFactory]]:
    found = {}
    for value in vars(factories).values():
        if isinstance(value, type) and issubclass(value, factory.django.DjangoModelFactory):
            model = value._meta.model
            if model is not None:
                found[model] = value
    return found


def test_every_model_of_the_three_apps_has_a_factory():
    models = {
        model
        for label in APPS
        for model in apps.get_app_config(label).get_models()
        if not model.__name__.startswith("Historical")  # django-simple-history's copies
    }
    missing = sorted(m.__name__ for m in models - set(all_factories()))
    assert not missing, f"models without a factory in tests/factories.py: {missing}"


@pytest.mark.parametrize(
    "factory_class", list(all_factories().values()), ids=lambda f: f._meta.model.__name__
)
def test_each_factory_makes_a_valid_row(factory_class):
    obj = factory_class()
    exclude = ["password"] if isinstance(obj, User) else None
    obj.full_clean(exclude=exclude)
    assert type(obj)._default_manager.filter(pk=obj.pk).exists()


def test_related_rows_stay_in_one_tournament():
    row = factories.CardRowFactory()
    match = row.game.match
    assert match.stage == row.card.stage and match.entry_a == row.card.entry
    assert match.entry_b.category == row.card.stage.category
    assert row.card.entry.player.tournament == row.card.stage.category.tournament
    team = factories.EntryFactory(doubles=True, category__doubles=True)
    assert team.player is None and team.team.player_one.tournament == team.category.tournament


def test_small_event_has_a_drawn_preliminary_and_every_role(small_event):
    e = small_event
    assert set(e.users) == set(ROLES)
    assert not e.users[ANONYMOUS].is_authenticated
    for role in OFFICIALS:
        assert e.tournament.roles.filter(user=e.users[role], role=role).exists()
    assert e.player.player.user == e.users["player"]
    assert e.opponent.player.user == e.users["opponent"]
    assert e.other_player.player.user == e.users["other-player"]
    assert (e.match.entry_a, e.match.entry_b) == (e.player, e.opponent)
    assert e.game.match == e.match and not e.game.rounds.exists()
    assert e.other_player not in (e.player, e.opponent)
    # 6 players, 2 games each: 6 matches over 2 rounds of play, everyone on a board.
    matches = Match.objects.filter(stage=e.stage)
    assert matches.count() == 6 and set(matches.values_list("round_of_play", flat=True)) == {1, 2}
    assert not matches.filter(board__isnull=True).exists()
    assert all(entry.checked_in for entry in e.entries)


def test_two_events_in_one_test_do_not_collide():
    small, large = build_small_event(), build_small_event(players=12, boards=6)
    assert small.tournament != large.tournament
    assert large.stage.matches.count() == 12
    assert small.users["organizer"] != large.users["organizer"]
