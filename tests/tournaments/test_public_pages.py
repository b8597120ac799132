"""Public pages: schedule, hall screen, bracket, pools and player pages, read without a login,
at a cost in queries that does not grow with the field."""

import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import engine
from scoring.templatetags.scoring_labels import tiebreak_label
from tests.tournaments.test_stages import field, play_stage, record
from tournaments.models import Match, Stage
from tournaments.models.stages import TIEBREAK_STEPS
from tournaments.services.draws import draw_knockout, draw_round_robin, draw_stage
from tournaments.services.schedule import schedule_stage

pytestmark = pytest.mark.django_db


def event(size):
    """A category with a played preliminary (odd field: byes), half-played pools and a drawn
    best-of-3 knockout with one game played."""
    category, entries = field(size, boards=size // 2 + 1)
    strength = {e.id: 1 + i for i, e in enumerate(entries)}
    prelim = Stage.objects.create(
        category=category,
        name="Preliminary",
        kind="preliminary",
        order=1,
        games_per_entry=3,
        advance_count=4,
        seed=5,
    )
    pools = Stage.objects.create(category=category, name="Pools", kind="round-robin", order=2)
    knockout = Stage.objects.create(
        category=category, name="Final four", kind="knockout", order=3, best_of=3
    )
    draw_stage(prelim)
    play_stage(prelim, strength)
    draw_round_robin(pools, pool_count=2)
    for match in Match.objects.filter(stage=pools, round_of_play=1, entry_b__isnull=False):
        record(match.games.get(), "a", (3, 1))
    draw_knockout(knockout, entries[:4], third_place=True)
    record(Match.objects.filter(stage=knockout).first().games.get(number=1), "a", (4, 2))
    start = datetime(2026, 11, 21, 9, tzinfo=UTC)
    for stage in (prelim, pools, knockout):
        schedule_stage(stage, start)
    return category, entries, {"prelim": prelim, "pools": pools, "knockout": knockout}


def urls(category, entries, stages):
    slug = category.tournament.slug
    prelim, pools, knockout = stages["prelim"], stages["pools"], stages["knockout"]
    return {
        "detail": reverse("tournaments:detail", args=[slug]),
        "now": reverse("tournaments:now", args=[slug]),
        "round": reverse("tournaments:round", args=[slug, prelim.id, 2]),
        "round_now": reverse("tournaments:round_now", args=[slug, pools.id, 1]),
        "pool_round": reverse("tournaments:round", args=[slug, pools.id, 2]),
        "bracket": reverse("tournaments:bracket", args=[slug, knockout.id]),
        "bracket_svg": reverse("tournaments:bracket_svg", args=[slug, knockout.id]),
        "pools": reverse("tournaments:pools", args=[slug, pools.id]),
        "player": reverse("tournaments:player", args=[slug, entries[0].player.number]),
    }


def test_public_pages_are_open_to_anonymous_visitors(client):
    category, entries, stages = event(9)
    pages = urls(category, entries, stages)
    bodies = {}
    for name, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        bodies[name] = response.content.decode()

    assert pages["now"] in bodies["detail"] and pages["bracket"] in bodies["detail"]
    assert pages["pools"] in bodies["detail"]
    # the hall screen refreshes itself with htmx and shows boards and names
    assert 'hx-trigger="every' in bodies["round_now"] and 'class="screen"' in bodies["round_now"]
    partial = client.get(pages["round_now"], headers={"HX-Request": "true"})
    assert partial.status_code == 200 and b"<html" not in partial.content
    assert b'id="screen"' in partial.content
    # the schedule lists every game of the round with its board and time
    round_two = Match.objects.filter(stage=stages["prelim"], round_of_play=2).select_related(
        "entry_a__player", "board"
    )
    for match in round_two:
        assert match.entry_a.name in bodies["round"]
    assert "09:" in bodies["round"] or "10:" in bodies["round"]
    assert "Bye" in bodies["round"]  # nine entries: somebody sits out
    # the bracket is an inline SVG with the seeds' names; the file version parses as XML
    assert "<svg" in bodies["bracket"] and entries[0].name in bodies["bracket"]
    root = ET.fromstring(bodies["bracket_svg"])
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    # pools: a crosstable per pool
    assert bodies["pools"].count("<h3>Pool ") == 2
    # the player's page lists games with opponents, results and 20s
    assert "won" in bodies["player"] or "lost" in bodies["player"]
    assert entries[0].player.full_name in bodies["player"]


def test_schedule_link_goes_to_the_round_in_play(client):
    category, _, stages = event(9)
    slug = category.tournament.slug
    response = client.get(reverse("tournaments:schedule", args=[slug, stages["pools"].id]))
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:round", args=[slug, stages["pools"].id, 2])


def test_bad_addresses_get_a_404_that_says_what_is_missing(client):
    category, entries, stages = event(9)
    slug = category.tournament.slug
    missing_round = client.get(reverse("tournaments:round", args=[slug, stages["prelim"].id, 9]))
    assert missing_round.status_code == 404
    assert b"has no round 9" in missing_round.content and b"1, 2, 3" in missing_round.content
    not_a_knockout = client.get(reverse("tournaments:bracket", args=[slug, stages["pools"].id]))
    assert not_a_knockout.status_code == 404
    assert client.get(reverse("tournaments:player", args=[slug, 99999])).status_code == 404
    other = field(2)[0].tournament.slug
    assert client.get(
        reverse("tournaments:pools", args=[other, stages["pools"].id])
    ).status_code == (404)
    lookup = reverse("tournaments:player_lookup", args=[slug])
    bad = client.get(lookup, {"number": "12a"})
    assert bad.status_code == 400 and "not a player ID" in bad.content.decode()
    found = client.get(lookup, {"number": entries[1].player.number})
    assert found.status_code == 302
    assert client.post(lookup).status_code == 405


def test_shootout_stage_page_lists_the_tied_entries(client):
    from scoring.progression.services import CutLineTieError, advance

    category, entries = field(4)
    prelim = Stage.objects.create(
        category=category,
        name="Preliminary",
        kind="preliminary",
        order=1,
        games_per_entry=1,
        advance_count=1,
    )
    Stage.objects.create(category=category, name="Final", kind="knockout", order=2)
    draw_stage(prelim, method="rotation")
    for match in Match.objects.filter(stage=prelim):
        record(match.games.get(), None)
    with pytest.raises(CutLineTieError) as exc:
        advance(prelim)
    url = reverse(
        "tournaments:schedule", args=[category.tournament.slug, exc.value.shootout_stage.id]
    )
    body = client.get(url).content.decode()
    assert "Shoot-Out Procedure" in body
    assert all(e.name in body for e in entries) and "Still tied" in body


@pytest.mark.slow
def test_query_counts_do_not_grow_with_the_field(client):
    """Every public page costs the same number of queries for 9 entries as for 21."""
    counts: dict[str, list[int]] = {}
    for size in (9, 21):
        category, entries, stages = event(size)
        for page, url in urls(category, entries, stages).items():
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(url).status_code == 200
            counts.setdefault(page, []).append(len(ctx.captured_queries))
    grown = {page: n for page, n in counts.items() if n[0] != n[1]}
    assert not grown, grown


def player_results(client, slug, number) -> list[tuple[str, str]]:
    """(round cell, result) of every line of a player's page."""
    body = client.get(reverse("tournaments:player", args=[slug, number])).content.decode()
    rows = re.findall(
        r'<td class="round-of-play">(.*?)</td>.*?<td class="result[^"]*">(.*?)</td>', body, re.S
    )
    return [(re.sub(r"<[^>]+>", "", cell).strip(), result) for cell, result in rows]


def test_player_page_says_a_game_the_decided_match_did_not_need_is_not_needed(client):
    """WCC finals are "best two out of three games": after 2-0 the third game is not played,
    although the match has it drawn up front."""
    category, entries = field(4)
    final = Stage.objects.create(
        category=category, name="Final four", kind="knockout", order=1, best_of=3
    )
    draw_knockout(final, entries)
    decided, open_match = Match.objects.filter(stage=final).order_by("bracket_slot")
    assert decided.games.count() == 3, "a best-of-3 match has its three games up front"
    record(decided.games.get(number=1), "a", (4, 2))
    record(decided.games.get(number=2), "a", (5, 1))
    record(open_match.games.get(number=1), "b", (2, 3))
    slug = category.tournament.slug

    winner = player_results(client, slug, decided.entry_a.player.number)
    assert [result for _, result in winner] == ["won", "won", "not needed"]
    assert winner[2][0].endswith("game 3")
    loser = player_results(client, slug, decided.entry_b.player.number)
    assert [result for _, result in loser] == ["lost", "lost", "not needed"]
    # A match still being played keeps its next games to play.
    undecided = player_results(client, slug, open_match.entry_a.player.number)
    assert [result for _, result in undecided] == ["lost", "to play", "to play"]


def test_tiebreak_labels_cover_every_step_in_words():
    labels = {step: tiebreak_label(step) for step in TIEBREAK_STEPS}
    assert labels == {
        "twenties": "20s",
        "head-to-head": "head-to-head",
        "twenties-among-tied": "20s among tied",
        "twenties-all-games": "20s in all games",
        "shoot-out": "shoot-out",
        "buchholz": "Buchholz",
        "game-points": "game points",
    }
    assert set(TIEBREAK_STEPS) == set(engine.STEPS), "a step of the engine has no label"
    assert tiebreak_label(None) == "" and tiebreak_label("new-step") == "new-step"


def test_standings_show_the_tiebreak_in_words(client):
    """Two winners level on points, set apart by their 20s: the column says "20s"."""
    category, _ = field(4)
    prelim = Stage.objects.create(
        category=category, name="Preliminary", kind="preliminary", order=1, games_per_entry=1
    )
    draw_stage(prelim, method="rotation")
    for n, match in enumerate(Match.objects.filter(stage=prelim).order_by("id")):
        record(match.games.get(), "a", (5 + n, 1 + n))
    url = reverse("scoring:standings", args=[category.tournament.slug, prelim.id])
    body = client.get(url).content.decode()
    table = re.search(r'<table class="standings">.*?</table>', body, re.S).group(0)
    cells = re.findall(r"<td>([^<]*)</td>\s*</tr>", table)
    assert cells.count("20s") >= 2, cells
    assert not any(key in table for key in ("twenties", "shoot-out</td>")), table


def test_a_board_with_several_games_in_a_round_calls_them_in_order(client):
    """More games than boards: board 1 carries two games of round 1; the first not finished is
    on it now, the one after is next."""
    from tests.events import build_small_event
    from tournaments.models import Match

    event = build_small_event(players=6, boards=1)
    board = event.boards[0]
    matches = list(Match.objects.filter(stage=event.stage, round_of_play=1).order_by("id"))
    Match.objects.filter(pk__in=[m.pk for m in matches]).update(board=board)
    url = reverse("tournaments:round", args=[event.tournament.slug, event.stage.id, 1])
    html = client.get(url).content.decode()
    assert html.count(f"on board {board.number} now") == 1
    assert html.count(f"next on board {board.number}") == 1
    assert html.count(f"3rd on board {board.number}") == len(matches) - 2
