"""An event's results in the Crokinole Reference layout (``scoring.record.exporting``): the
finished games from their official rounds, read back by the layout's reader to the same rounds;
for its organizers, and for anyone once the tournament is published, on the pages and the API
alike."""

from __future__ import annotations

import csv
import io
from datetime import date

import pytest
from django.urls import reverse
from django.utils.html import escape

from scoring.engine.reference_csv import parse
from scoring.record import importing
from scoring.record.exporting import event_csv, event_games
from scoring.results.services import official_rounds, record_game
from tests.events import WIN
from tests.factories import CategoryFactory, EntryFactory, GameFactory, StageFactory, UserFactory
from tournaments.models import Game, Stage

pytestmark = pytest.mark.django_db

#: A 5-1 win for entry B, with a round time ran out on.
CLOSE = [
    {"points": [0, 2], "twenties": [1, 4]},
    {"points": [1, 1], "twenties": [2, 2]},
    {"points": [0, 0], "twenties": [0, 0], "time_expired": True},
    {"points": [0, 2], "twenties": [0, 1]},
]


def _side(entry) -> tuple[str, ...]:
    return tuple(f"{p.first_name} {p.last_name}" for p in entry.people)


def test_an_events_file_reads_back_to_its_official_rounds(small_event):
    small_event.tournament.starts_on = date(2026, 5, 9)
    small_event.tournament.save(update_fields=["starts_on"])
    first, second, *_ = small_event.player_games()
    record_game(first, WIN)
    second.first_side = Game.Side.B
    second.save(update_fields=["first_side"])
    record_game(second, CLOSE)
    other = next(
        g
        for g in Game.objects.filter(match__stage=small_event.stage)
        if g.pk not in {first.pk, second.pk}
        and small_event.player.pk not in (g.match.entry_a_id, g.match.entry_b_id)
    )
    record_game(other, WIN[:2])  # two rounds of four: still being played

    parsed = parse(event_csv(small_event.tournament))
    assert parsed.errors == [] and parsed.skipped == []
    assert len(parsed.games) == 2
    by_side = {(g.side_a, g.side_b): g for g in parsed.games}
    for game, first_side in ((first, 0), (second, 1)):
        match = game.match
        read = by_side[(_side(match.entry_a), _side(match.entry_b))]
        official = official_rounds(game)
        assert [list(r) for r in read.rounds] == [[*o["points"], *o["twenties"]] for o in official]
        assert read.first == first_side
        assert read.played_on == date(2026, 5, 9)
        assert (read.event, read.stage, read.pool) == ("Small Open", "Preliminary", "")
        assert read.number == match.round_of_play


def test_a_forfeited_game_and_a_doubles_match_of_two_games():
    category = CategoryFactory(doubles=True, name="Doubles")
    stage = StageFactory(category=category, name="Final", kind=Stage.Kind.KNOCKOUT, best_of=3)
    a = EntryFactory(category=category, doubles=True)
    b = EntryFactory(category=category, doubles=True)
    one = GameFactory(match__stage=stage, match__entry_a=a, match__entry_b=b, number=1)
    two = GameFactory(match=one.match, number=2)
    record_game(one, WIN)
    record_game(two, [{"points": [0, 2], "twenties": [9, 10]}] * 4)
    singles = StageFactory(category=CategoryFactory(tournament=category.tournament, name="S"))
    forfeited = GameFactory(match__stage=singles)
    record_game(forfeited, WIN)
    Game.objects.filter(pk=forfeited.pk).update(forfeited_by="a", forfeit_kind="ruling")

    games = event_games(category.tournament)
    assert [g.stage for g in games] == ["Final G1", "Final G2"]
    assert {g.event for g in games} == {f"{category.tournament.name} (Doubles)"}
    assert games[0].side_a == _side(a) and games[0].doubles
    parsed = parse(event_csv(category.tournament))
    assert parsed.errors == []
    assert parsed.games[1].rounds == ((0, 2, 9, 10),) * 4  # 20s beyond 8: a team shoots 12
    assert " & " in event_csv(category.tournament).splitlines()[1]


def test_the_exported_file_imports_into_the_record(small_event):
    record_game(small_event.game, WIN)
    text = event_csv(small_event.tournament)
    preview = importing.preview(content=text, filename="small.csv")
    assert preview.summary["new_games"] == 1 and preview.summary["error_count"] == 0
    assert len(preview.summary["new_people"]) == 2


# --- who may download it ------------------------------------------------------------------------


def _url(tournament) -> str:
    return reverse("scoring:tournament-record-csv", args=[tournament.slug])


def test_anyone_downloads_a_published_events_results(small_event, client):
    record_game(small_event.game, WIN)
    response = client.get(_url(small_event.tournament))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "results-crokinole-reference.csv" in response["Content-Disposition"]
    lines = response.content.decode().splitlines()
    assert lines[0].startswith("date,event,stage,pool,game,player_a") and len(lines) == 2

    api = client.get(reverse("api:tournament-record-csv", args=[small_event.tournament.slug]))
    assert api.status_code == 200 and api.content == response.content

    public = client.get(small_event.tournament.get_absolute_url()).content.decode()
    assert _url(small_event.tournament) in public


def test_an_unpublished_events_results_are_its_organizers(small_event, client):
    tournament = small_event.tournament
    tournament.published = False
    tournament.save(update_fields=["published"])
    assert client.get(_url(tournament)).status_code == 302  # to the login page
    api_url = reverse("api:tournament-record-csv", args=[tournament.slug])
    refused = client.get(api_url)
    assert refused.status_code == 403 and "not published yet" in refused.json()["detail"]

    client.force_login(UserFactory())
    page = client.get(_url(tournament))
    assert page.status_code == 403
    assert escape(refused.json()["detail"]) in page.content.decode()

    client.force_login(small_event.users["organizer"])
    assert client.get(_url(tournament)).status_code == 200
    assert client.get(api_url).status_code == 200
    dashboard = client.get(reverse("tournaments:manage", args=[tournament.slug]))
    assert "Export results (Crokinole Reference)" in dashboard.content.decode()
    assert _url(tournament) in dashboard.content.decode()


def test_an_unknown_tournament_is_a_404(client):
    assert client.get(reverse("scoring:tournament-record-csv", args=["nope"])).status_code == 404
    assert client.get(reverse("api:tournament-record-csv", args=["nope"])).status_code == 404


def test_the_file_is_csv_a_spreadsheet_reads(small_event):
    record_game(small_event.game, WIN)
    text = event_csv(small_event.tournament)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows[0]["points_a"] == "2 2 2 0" and rows[0]["twenties_b"] == "1 1 1 2"
