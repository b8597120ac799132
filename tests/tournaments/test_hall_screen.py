"""The hall screen (``/t/<slug>/screen/``): a projector's page set up by its address alone.

Each panel appears when ``show`` asks for it and not otherwise; a wrong option is a 400 page
that names the parameter and what it takes (never a 500, never a silent default); the page
stands alone without the site's frame and runs no inline script; and its cost in queries does
not grow with the event.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.results.hall import latest_results
from tests.events import ANONYMOUS, SmallEvent, build_small_event
from tests.factories import RoundFactory, TournamentFactory
from tournaments.hall_screen import (
    DEFAULT_SECONDS,
    DEFAULT_SHOW,
    ScreenOptionError,
    parse_screen_options,
)
from tournaments.models import Match, RoundClock

pytestmark = pytest.mark.django_db

#: (points, 20s) of entry A and entry B in each round of a played game: A wins 6-2.
PLAYED = [((2, 0), (2, 1)), ((2, 0), (1, 0)), ((0, 2), (0, 3)), ((2, 0), (1, 1))]
PANEL = re.compile(r'data-panel="([a-z]+)"')
#: The most queries the screen may take with every panel up, whatever the size of the event.
SCREEN_CEILING = 14


def play(matches) -> list[Match]:
    """Official rounds for game 1 of each match, in the order given (byes have none)."""
    played = []
    for match in matches:
        if match.entry_b_id is None:
            continue
        game = match.games.get(number=1)
        for number, ((pa, pb), (ta, tb)) in enumerate(PLAYED, start=1):
            RoundFactory(
                game=game, number=number, points_a=pa, points_b=pb, twenties_a=ta, twenties_b=tb
            )
        played.append(match)
    return played


def screen(event: SmallEvent, query: str = "") -> str:
    url = reverse("tournaments:screen", args=[event.tournament.slug])
    return f"{url}?{query}" if query else url


def panels(html: str) -> list[str]:
    return PANEL.findall(html)


# --- the options of the address ------------------------------------------------------------------


def test_an_address_without_options_shows_the_clock_the_boards_the_results_and_the_calls():
    options = parse_screen_options({})
    assert options.show == DEFAULT_SHOW
    assert options.panels == ("now", "results", "calls")
    assert options.clock
    assert options.seconds == DEFAULT_SECONDS
    assert options.stage_id is None


def test_a_stage_brings_its_standings_and_show_keeps_its_order_once_each():
    assert parse_screen_options({"stage": ["7"]}).panels == (
        "now",
        "results",
        "calls",
        "standings",
    )
    options = parse_screen_options({"show": ["results, NOW,results"], "seconds": ["30"]})
    assert options.panels == ("results", "now")
    assert not options.clock
    assert options.seconds == 30


@pytest.mark.parametrize(
    ("query", "parameter", "accepts"),
    [
        ({"show": ["now,scores"]}, "show", "now, clock, results, standings"),
        ({"show": [""]}, "show", "now, clock, results, standings"),
        ({"seconds": ["2"]}, "seconds", "from 4 to 300"),
        ({"seconds": ["ten"]}, "seconds", "from 4 to 300"),
        ({"seconds": ["\u00b2"]}, "seconds", "from 4 to 300"),
        ({"stage": ["-3"]}, "stage", "stage=12"),
        ({"stage": ["9" * 30]}, "stage", "stage=12"),
        ({"show": ["standings"]}, "stage", "standings panel needs"),
        ({"seconds": ["5", "6"]}, "seconds", "give it once"),
        ({"sho": ["now"]}, "sho", "only show, stage, seconds"),
    ],
)
def test_a_wrong_option_names_the_parameter_and_what_it_takes(query, parameter, accepts):
    with pytest.raises(ScreenOptionError) as raised:
        parse_screen_options(query)
    assert raised.value.parameter == parameter
    assert f"“{parameter}”" in raised.value.message
    assert accepts in raised.value.message


# --- the page ------------------------------------------------------------------------------------


def test_the_screen_stands_alone_in_large_type_with_no_inline_script(client, small_event):
    response = client.get(screen(small_event))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="top"' not in html  # the site's header bar
    assert "css/screen.css" in html
    assert re.search(r'<script src="[^"]*js/screen\.js" defer>', html)
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline script"
    assert 'class="no-js"' in html  # the first page of each panel without JavaScript
    assert panels(html) == ["now", "results", "calls"]
    assert 'id="round-clock"' in html
    assert f'data-version="{small_event.tournament.live_version}"' in html
    assert (
        f'data-live-url="{reverse("tournaments:live", args=[small_event.tournament.slug])}"' in html
    )


@pytest.mark.parametrize(
    ("show", "expected", "clock"),
    [
        ("now", ["now"], False),
        ("results", ["results"], False),
        ("clock", [], True),
        ("standings", ["standings"], False),
        ("standings,now,clock,results", ["standings", "now", "results"], True),
    ],
)
def test_each_panel_shows_when_asked_for_and_only_then(client, small_event, show, expected, clock):
    response = client.get(screen(small_event, f"show={show}&stage={small_event.stage.id}"))
    assert response.status_code == 200
    html = response.content.decode()
    assert panels(html) == expected
    assert ('id="round-clock"' in html) is clock


def test_the_clock_band_is_the_round_clock(client, small_event):
    RoundClock.objects.create(
        tournament=small_event.tournament, label="Round of play 2", duration_s=600
    )
    html = client.get(screen(small_event, "show=clock,now")).content.decode()
    assert "data-round-clock" in html
    assert "Round of play 2" in html


def test_now_lists_board_both_sides_with_their_ids_and_the_game_state(client, small_event):
    match = small_event.match
    html = client.get(screen(small_event, "show=now")).content.decode()
    assert "Who plays where now" in html
    assert f"{small_event.category.name} · {small_event.stage.name} · round 1" in html
    assert f'<td class="board">{match.board.number}</td>' in html
    for entry in (match.entry_a, match.entry_b):
        assert entry.name in html
        assert f"#{entry.number}" in html
    assert "to play" in html

    play([match])
    html = client.get(screen(small_event, "show=now")).content.decode()
    assert "finished <b>6\u20132</b>" in html


def test_results_are_the_latest_official_ones_newest_first(client, small_event):
    first, second = Match.objects.filter(
        stage=small_event.stage, round_of_play=1, entry_b__isnull=False
    ).order_by("id")[:2]
    play([second, first])
    rows = latest_results(small_event.tournament)
    assert [r.match.id for r in rows] == [first.id, second.id]
    assert rows[0].row.result == "6\u20132"
    html = client.get(screen(small_event, "show=results")).content.decode()
    assert html.index(first.entry_a.name) < html.index(second.entry_a.name)
    assert '<td class="score">6\u20132</td>' in html
    assert "No official results yet" not in html


def test_a_game_under_way_is_not_a_result_yet(small_event):
    match = small_event.match
    RoundFactory(game=match.games.get(number=1), number=1)
    assert latest_results(small_event.tournament) == []


def test_standings_are_the_stages(client, small_event):
    html = client.get(
        screen(small_event, f"show=standings&stage={small_event.stage.id}")
    ).content.decode()
    assert f"Standings · {small_event.category.name} · {small_event.stage.name}" in html
    for entry in small_event.entries:
        assert entry.name in html


def test_a_stage_limits_every_panel_to_it(client, small_event):
    other = build_small_event(players=4)
    play(Match.objects.filter(stage=other.stage, round_of_play=1))
    html = client.get(
        screen(small_event, f"show=now,results&stage={small_event.stage.id}")
    ).content.decode()
    assert "No official results yet" in html  # the other event's results are not here
    assert small_event.match.entry_a.name in html


def test_an_htmx_request_gets_the_panels_alone_with_their_version(client, small_event):
    response = client.get(screen(small_event, "show=now"), headers={"HX-Request": "true"})
    html = response.content.decode()
    assert "<html" not in html
    assert 'id="hall-panels"' in html
    assert f'data-version="{small_event.tournament.live_version}"' in html
    assert panels(html) == ["now"]


# --- wrong options: a 400 page that says what to type ---------------------------------------------


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("show=now,scores", "The parameter “show” cannot be “now,scores”"),
        ("seconds=1", "The parameter “seconds” cannot be “1”"),
        ("seconds=%C2%B2", "The parameter “seconds” cannot be"),
        ("stage=abc", "The parameter “stage” cannot be “abc”"),
        ("stage=" + "9" * 40, "The parameter “stage” cannot be"),
        ("show=standings", "The parameter “stage” needs a value"),
        ("colour=red", "There is no parameter “colour”"),
    ],
)
def test_a_wrong_option_is_a_400_page_saying_which_and_what_it_takes(
    client, small_event, query, words
):
    response = client.get(screen(small_event, query))
    assert response.status_code == 400
    html = response.content.decode()
    assert words in html
    assert "show=" in html and "seconds=" in html  # the options, explained
    assert f"stage={small_event.stage.id}" in html


def test_a_stage_of_another_tournament_is_refused_with_this_ones_stages(client, small_event):
    other = build_small_event(players=4)
    response = client.get(screen(small_event, f"stage={other.stage.id}"))
    assert response.status_code == 400
    html = response.content.decode()
    assert f"The parameter “stage” cannot be “{other.stage.id}”" in html
    assert (
        f"{small_event.stage.id} ({small_event.category.name} · {small_event.stage.name})" in html
    )


def test_an_unknown_tournament_is_a_404(client):
    assert client.get(reverse("tournaments:screen", args=["no-such-event"])).status_code == 404


def test_a_tournament_without_stages_says_so(client):
    tournament = TournamentFactory()
    url = reverse("tournaments:screen", args=[tournament.slug])
    response = client.get(f"{url}?stage=5")
    assert response.status_code == 400
    assert "has no stages yet" in response.content.decode()
    assert client.get(url).status_code == 200


# --- the cost ------------------------------------------------------------------------------------


def test_the_screen_costs_a_fixed_number_of_queries_for_a_40_player_event(
    client, django_assert_max_num_queries
):
    event = build_small_event(players=40, boards=20)
    play(Match.objects.filter(stage=event.stage, round_of_play=1))
    url = screen(event, f"show=now,clock,results,standings&stage={event.stage.id}")
    with django_assert_max_num_queries(SCREEN_CEILING):
        response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('class="game ') == 20  # round 2: every board
    assert html.count('class="result"') == 20
    with django_assert_max_num_queries(SCREEN_CEILING):
        assert client.get(url, headers={"HX-Request": "true"}).status_code == 200

    small = build_small_event()
    play(Match.objects.filter(stage=small.stage, round_of_play=1))
    small_url = screen(small, f"show=now,clock,results,standings&stage={small.stage.id}")
    with CaptureQueriesContext(connection) as large_cost:
        client.get(url)
    with CaptureQueriesContext(connection) as small_cost:
        client.get(small_url)
    assert len(large_cost) == len(small_cost)  # the same for 6 players as for 40


# --- links for the staff --------------------------------------------------------------------------


def test_staff_find_the_screen_and_its_options_on_the_tournament_page(client, small_event):
    slug = small_event.tournament.slug
    page = small_event.tournament.get_absolute_url()
    screen_url = reverse("tournaments:screen", args=[slug])
    help_url = reverse("tournaments:screen_help", args=[slug])
    html = small_event.login(client, "referee").get(page).content.decode()
    assert f'href="{screen_url}"' in html and f'href="{help_url}"' in html
    client.logout()
    assert (
        f'href="{screen_url}"'
        not in small_event.login(client, ANONYMOUS).get(page).content.decode()
    )

    manage = reverse("tournaments:manage", args=[slug])
    html = small_event.login(client, "organizer").get(manage).content.decode()
    assert f'href="{screen_url}"' in html and f'href="{help_url}"' in html

    help_page = client.get(help_url).content.decode()
    assert f"stage={small_event.stage.id}" in help_page
    assert "seconds=" in help_page and "show=" in help_page
