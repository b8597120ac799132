"""A small tournament with every role, and API clients signed in with real tokens."""

import copy
from dataclasses import dataclass
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import User
from django.core.management import call_command
from drf_spectacular.drainage import reset_generator_stats
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import (
    CategoryFactory,
    EntryFactory,
    PlayerFactory,
    StageFactory,
    allow_creating_tournaments,
)
from tournaments.models import Entry, Game, Match, Stage, Tournament, TournamentRole
from tournaments.services.setup import create_tournament

Role = TournamentRole.Role


@dataclass
class World:
    tournament: Tournament
    stage: Stage
    a: Entry
    b: Entry
    c: Entry
    match: Match
    game: Game
    users: dict[str, User]


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """The real hasher is slow on purpose; these tests create many users."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session")
def _generated_schema(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The OpenAPI schema as ``manage.py spectacular`` writes it, validated and with no warning
    of the generator. Generating it walks every view and serializer (seconds on a shared
    machine) and reads no table, so a test process makes it once for every test that reads it."""
    reset_generator_stats()  # warnings from generations made before in this process do not count
    target = tmp_path_factory.mktemp("schema") / "schema.yaml"
    call_command("spectacular", validate=True, fail_on_warn=True, file=str(target))
    return yaml.safe_load(target.read_text())


@pytest.fixture
def api_schema(_generated_schema: dict[str, Any]) -> dict[str, Any]:
    """The generated OpenAPI schema (see ``_generated_schema``), a copy of its own per test."""
    return copy.deepcopy(_generated_schema)


@pytest.fixture
def world(db) -> World:
    """Ann (entry a) plays Bob (entry b); Cid (entry c) plays in the same stage, not against
    them. Olga organizes; Ref, Table and Head are the referee, scoring table and head referee."""
    users = {
        name: User.objects.create_user(name, email=f"{name}@example.org", password="pw-" + name)
        for name in ("olga", "ann", "bob", "cid", "ref", "table", "head", "outsider")
    }
    # Olga, and Cid who runs events of his own elsewhere, may create tournaments.
    allow_creating_tournaments(users["olga"], users["cid"])
    t = create_tournament(name="Club Open", slug="club-open", user=users["olga"])
    for name, role in (
        ("ref", Role.REFEREE),
        ("table", Role.SCORING_TABLE),
        ("head", Role.HEAD_REFEREE),
    ):
        TournamentRole.objects.create(tournament=t, user=users[name], role=role)
    category = CategoryFactory(tournament=t, name="Adult singles")
    stage = StageFactory(category=category, games_per_entry=1, advance_count=1)
    a, b, c = (
        EntryFactory(category=category, player=PlayerFactory(tournament=t, user=users[name]))
        for name in ("ann", "bob", "cid")
    )
    match = Match.objects.create(stage=stage, entry_a=a, entry_b=b)
    game = Game.objects.create(match=match, number=1)
    return World(t, stage, a, b, c, match, game, users)


@pytest.fixture
def client_for(world):
    """``client_for("ann")``: an API client sending Ann's token."""

    def make(name: str | None = None) -> APIClient:
        client = APIClient()
        if name is not None:
            token, _ = Token.objects.get_or_create(user=world.users[name])
            client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client

    return make
