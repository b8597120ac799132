"""The leaderboards of a discipline and season, as a selector, a page and through the API:
most 20s in a game, 20s per round (a minimum of rounds), longest win streaks; shared ranks,
filters, private people by name only, refusals in words, a bounded number of queries."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.urls import reverse

from scoring.engine.record_stats import MIN_ROUNDS
from scoring.models.record import Discipline
from scoring.record import profiles
from tests.factories import TournamentFactory
from tests.scoring.profile_factories import PersonFactory, RecordedGameFactory, game
from tournaments.models import Person

pytestmark = pytest.mark.django_db


#: A 4-round game in which side A makes ``n`` 20s (all in the first round) and wins 8-0.
def twenties(n: int) -> list[tuple]:
    return [(2, 0, n, 0, 0), (2, 0, 0, 0, 1), (2, 0, 0, 0, 0), (2, 0, 0, 0, 1)]


def test_most_twenties_in_a_game_ranks_sides_with_shared_ranks():
    anna, ben, carl = PersonFactory(), PersonFactory(), PersonFactory()
    game(anna, ben, lines=twenties(14))
    game(carl, anna, lines=twenties(14))
    game(ben, carl, lines=twenties(9))
    # Ben's 16 in five rounds comes from side B.
    game(
        anna,
        ben,
        lines=[(0, 2, 0, 16, 0), *[(1, 1, 0, 0, 1), (1, 1, 0, 0, 0)] * 2],
    )
    board = profiles.leaderboards(Discipline.SINGLES).most_twenties
    assert [(r.rank, r.people[0].id, r.twenties) for r in board[:4]] == [
        (1, ben.pk, 16),
        (2, anna.pk, 14),
        (2, carl.pk, 14),
        (4, ben.pk, 9),
    ]
    assert board[0].opponents[0].id == anna.pk
    assert board[0].rounds == 5


def test_a_season_and_a_discipline_filter_the_boards():
    anna, ben = PersonFactory(), PersonFactory()
    game(anna, ben, lines=twenties(20), played_on=date(2014, 6, 7))
    game(anna, ben, lines=twenties(11), played_on=date(2015, 6, 6))
    game(anna, ben, lines=twenties(30), played_on=date(2015, 6, 6), discipline=Discipline.DOUBLES)
    boards = profiles.leaderboards(Discipline.SINGLES, 2015)
    assert [r.twenties for r in boards.most_twenties] == [11, 0]
    assert boards.seasons == [2015, 2014]
    assert profiles.leaderboards(Discipline.SINGLES).most_twenties[0].twenties == 20
    assert profiles.leaderboards(Discipline.DOUBLES).most_twenties[0].twenties == 30


def test_twenties_per_round_needs_the_minimum_of_rounds():
    steady, lucky, other = PersonFactory(), PersonFactory(), PersonFactory()
    for _ in range(MIN_ROUNDS // 4):
        game(steady, other, lines=twenties(8))  # 8 20s in 4 rounds: 2.00 a round
    game(lucky, other, lines=twenties(12))  # 3.00 a round, in 4 rounds only
    rows = profiles.leaderboards(Discipline.SINGLES).best_rates
    # Their opponent has the rounds but no 20s; the lucky one too few rounds to be listed.
    assert [(r.person.id, r.rounds, r.rate) for r in rows] == [
        (steady.pk, MIN_ROUNDS, 2.0),
        (other.pk, MIN_ROUNDS + 4, 0.0),
    ]


def test_a_draw_ends_a_win_streak_and_equal_streaks_go_to_who_made_theirs_first():
    anna, ben, carl = PersonFactory(), PersonFactory(), PersonFactory()
    start = date(2016, 1, 1)
    draw = [(1, 1, 0, 0, 0), (1, 1, 0, 0, 1), (1, 1, 0, 0, 0), (1, 1, 0, 0, 1)]
    plan = [(anna, ben, None)] * 3 + [(anna, ben, draw)] + [(anna, carl, None)] * 2
    plan += [(carl, ben, None)] * 3
    for i, (a, b, lines) in enumerate(plan):
        game(a, b, lines=lines, played_on=start + timedelta(days=i), sequence=i)
    rows = profiles.leaderboards(Discipline.SINGLES).streaks
    assert [(r.rank, r.person.id, r.length) for r in rows] == [(1, anna.pk, 3), (1, carl.pk, 3)]
    assert rows[0].first_day == start and rows[0].last_day == start + timedelta(days=2)
    assert rows[0].running is False  # anna lost to carl in the end
    assert rows[1].running is True


def test_the_page_names_a_private_person_without_a_link(client):
    public = PersonFactory(first_name="Nathan", last_name="Walsh")
    private = PersonFactory(
        first_name="Ab", last_name="Leitch", visibility=Person.Visibility.NAME_ONLY
    )
    t = TournamentFactory()
    game(private, public, lines=twenties(15), tournament=t, event="Ontario Open")
    response = client.get(reverse("leaderboards"), {"discipline": "singles"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "Ab Leitch" in html and reverse("person-profile", args=[private.pk]) not in html
    assert reverse("person-profile", args=[public.pk]) in html
    assert reverse("tournaments:detail", args=[t.slug]) in html
    data = client.get(reverse("api:leaderboards")).json()
    assert data["most_twenties"][0]["people"] == [
        {"id": private.pk, "name": "Ab Leitch", "profile": False}
    ]
    assert data["most_twenties"][0]["tournament"] == t.slug


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ({"season": "last"}, "Season: Enter a whole number."),
        ({"season": "99999"}, "Season: Ensure this value is less than or equal to 2200."),
        ({"discipline": "darts"}, "Discipline: Select a valid choice."),
    ],
)
def test_wrong_choices_are_refused_in_words(client, query, words):
    page = client.get(reverse("leaderboards"), query)
    assert page.status_code == 400
    assert words.replace("Ensure", "") in page.content.decode().replace("Ensure", "")
    api = client.get(reverse("api:leaderboards"), query)
    assert api.status_code == 400
    assert api.json()["detail"].startswith(words)


def test_the_boards_take_a_bounded_number_of_queries(client, django_assert_max_num_queries):
    people = PersonFactory.create_batch(30)
    for i in range(400):
        RecordedGameFactory(person_a=people[i % 30], person_b=people[(i * 7 + 1) % 30])
    with django_assert_max_num_queries(3):
        boards = profiles.leaderboards(Discipline.SINGLES)
    assert len(boards.most_twenties) == len(boards.streaks) == profiles.BOARD_SIZE
    with django_assert_max_num_queries(6):
        assert client.get(reverse("leaderboards")).status_code == 200
    with django_assert_max_num_queries(6):
        assert client.get(reverse("api:leaderboards"), {"season": 2015}).status_code == 200


def test_the_api_schema_describes_the_record_reads(client):
    schema = client.get(reverse("api-schema"), HTTP_ACCEPT="application/json").json()
    paths = schema["paths"]
    assert "/api/people/{id}/profile/" in paths
    assert "/api/people/{id}/head-to-head/{other}/" in paths
    board = paths["/api/leaderboards/"]["get"]
    assert {p["name"] for p in board["parameters"]} >= {"discipline", "season"}
    assert "400" in board["responses"]
