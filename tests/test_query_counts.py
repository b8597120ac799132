"""Pages and selectors whose docstrings promise a fixed number of queries, held to it with
pytest-django's query-count assertions: the shared small event (6 players, 2 games each) against
a larger one (16 players, 5 games each), with results and scorecards in both.

A selector is held to the exact number its docstring states. A page is held to the same count for
both events and to a ceiling: its count may change with the page, not with the size of the event.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import CardRow
from scoring.results.schedule import round_schedule
from scoring.scorecards.selectors import card_page, table_queue
from tests.events import PLAYER, SmallEvent, build_small_event
from tests.factories import CardRowFactory, RoundFactory, ScoreCardFactory, StageFactory
from tournaments.models import Match, Stage
from tournaments.services.draws import draw_round_robin

pytestmark = pytest.mark.django_db

#: (points, 20s) of entry A and entry B in each round of a played game: A wins 6-2.
PLAYED = [((2, 0), (2, 1)), ((2, 0), (1, 0)), ((0, 2), (0, 3)), ((2, 0), (1, 1))]
#: The most queries any of these pages may take (sessions, the user's roles, the page's reads).
PAGE_CEILING = 20


def play(matches) -> None:
    """Official rounds for game 1 of each match (byes have none)."""
    for match in matches:
        if match.entry_b_id is None:
            continue
        game = match.games.get(number=1)
        for number, ((pa, pb), (ta, tb)) in enumerate(PLAYED, start=1):
            RoundFactory(
                game=game, number=number, points_a=pa, points_b=pb, twenties_a=ta, twenties_b=tb
            )


def with_pools(event: SmallEvent) -> Stage:
    """A round robin after the preliminary: the whole field in two pools, round 1 played."""
    pools = StageFactory(
        category=event.category, name="Pools", kind=Stage.Kind.ROUND_ROBIN, order=2
    )
    draw_round_robin(pools, pool_count=2)
    play(Match.objects.filter(stage=pools, round_of_play=1))
    return pools


def with_cards(event: SmallEvent) -> None:
    """Both sides' cards of every round-1 game filled and validated, so the scoring table has
    every card of the round to verify; the player's card has every game filled."""
    for match in Match.objects.filter(stage=event.stage, round_of_play=1, entry_b__isnull=False):
        for entry in (match.entry_a, match.entry_b):
            CardRowFactory(
                card=ScoreCardFactory(stage=event.stage, entry=entry),
                game=match.games.get(number=1),
                status=CardRow.Status.VALIDATED,
                validated_number="1",
                validated_initials="XY",
            )
    card = event.player.cards.get(stage=event.stage)
    for game in event.player_games():
        if not CardRow.objects.filter(card=card, game=game).exists():
            CardRowFactory(card=card, game=game)


@pytest.fixture
def events() -> tuple[SmallEvent, SmallEvent]:
    small = build_small_event()
    large = build_small_event(players=16, games_per_entry=5, boards=8)
    for event in (small, large):
        play(Match.objects.filter(stage=event.stage, round_of_play=1))
        with_cards(event)
    return small, large


def page_costs_the_same(client, urls, assert_max, assert_num) -> None:
    """The small event's page within the ceiling, the large event's in exactly as many queries.

    The first request of a test fills Django's caches (content types, ...): it is not counted.
    What the pages cache per live version (the standings) is off in the tests: the cost counted
    is that of the first visitor after a result."""
    small, large = urls
    assert client.get(small).status_code == 200
    with assert_max(PAGE_CEILING) as counted:
        assert client.get(small).status_code == 200
    with assert_num(len(counted)):
        assert client.get(large).status_code == 200


def test_standings_page(client, events, django_assert_max_num_queries, django_assert_num_queries):
    urls = [reverse("scoring:standings", args=[e.tournament.slug, e.stage.id]) for e in events]
    page_costs_the_same(client, urls, django_assert_max_num_queries, django_assert_num_queries)


def test_pool_tables_page(client, events, django_assert_max_num_queries, django_assert_num_queries):
    """Two pools of 3 and two pools of 8: the pools page's queries go with the pools only."""
    urls = [
        reverse("tournaments:pools", args=[e.tournament.slug, with_pools(e).id]) for e in events
    ]
    page_costs_the_same(client, urls, django_assert_max_num_queries, django_assert_num_queries)


def test_schedule_page_and_round_schedule(
    client, events, django_assert_max_num_queries, django_assert_num_queries
):
    for event in events:
        with django_assert_num_queries(3):  # "One round of play of the stage, by board"
            schedule = round_schedule(event.stage, 1)
        assert (
            len(schedule.rows) == Match.objects.filter(stage=event.stage, round_of_play=1).count()
        )
    urls = [reverse("tournaments:round", args=[e.tournament.slug, e.stage.id, 1]) for e in events]
    page_costs_the_same(client, urls, django_assert_max_num_queries, django_assert_num_queries)


def test_scorecard_page_and_card_page(
    client, events, django_assert_max_num_queries, django_assert_num_queries
):
    small, large = events
    for event, games in ((small, 2), (large, 5)):
        # The card, the entry's matches, their games, the games' official rounds and every
        # card's rows of those games (its docstring counts five).
        with django_assert_num_queries(5):
            page = card_page(event.stage, event.player)
        assert len(page.lines) == games and all(line.row for line in page.lines)
    # Both logins see their own card; the session and role reads are the same for both.
    urls = [
        reverse("scoring:cards:card", args=[e.tournament.slug, e.stage.id, e.player.id])
        for e in events
    ]
    small.login(client, PLAYER)
    assert client.get(urls[0]).status_code == 200
    with django_assert_max_num_queries(PAGE_CEILING) as counted:
        assert client.get(urls[0]).status_code == 200
    queries = len(counted)  # read now: the next request empties the connection's query log
    client.force_login(large.users[PLAYER])
    assert client.get(urls[1]).status_code == 200
    with django_assert_num_queries(queries):
        assert client.get(urls[1]).status_code == 200


def test_table_queue_and_its_page(
    client, events, django_assert_max_num_queries, django_assert_num_queries
):
    small, large = events
    for event in (small, large):
        with django_assert_num_queries(1):  # "Cards with validated rows, by stage and entry"
            queue = table_queue(event.tournament)
        round_one = Match.objects.filter(stage=event.stage, round_of_play=1, entry_b__isnull=False)
        assert len(queue) == 2 * round_one.count()
    urls = [reverse("scoring:cards:table", args=[e.tournament.slug]) for e in events]
    small.login(client, "scoring-table")
    assert client.get(urls[0]).status_code == 200
    with django_assert_max_num_queries(PAGE_CEILING) as counted:
        assert client.get(urls[0]).status_code == 200
    queries = len(counted)  # read now: the next request empties the connection's query log
    client.force_login(large.users["scoring-table"])
    assert client.get(urls[1]).status_code == 200
    with django_assert_num_queries(queries):
        assert client.get(urls[1]).status_code == 200
