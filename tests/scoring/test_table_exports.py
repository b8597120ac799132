"""The organizers' tables (players, entries, results per game and per round, standings), their CSV
and XLSX downloads, who may download them, and the results read back into the standings tool.

The event is the shared small one, played to the end the way a real event records results: the
player's game on the phones (filled, signed by the opponent, verified at the scoring table), the
other games typed in from the paper cards by the scoring table and verified.
"""

from __future__ import annotations

import csv
import io
import json
from itertools import cycle

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from scoring.__main__ import main as standings_tool
from scoring.engine import compute_standings, parse_standings_input
from scoring.exports.files import table_csv, tables_xlsx
from scoring.exports.standings_input import standings_input
from scoring.exports.tables import (
    ENTRY_COLUMNS,
    PLAYER_COLUMNS,
    STANDING_COLUMNS,
    TABLES,
    Table,
    entries_table,
    games_table,
    players_table,
    rounds_table,
    standings_table,
    tournament_tables,
)
from scoring.models import ScoreCard
from scoring.results.services import record_game
from scoring.scorecards.services import (
    card_for,
    enter_paper_row,
    fill_row,
    validate_row,
    verify_card,
)
from scoring.standings.selectors import stage_standings
from scoring.templatetags.scoring_labels import tiebreak_label
from tests.events import ANONYMOUS, OPPONENT, PLAYER, SmallEvent, build_small_event
from tests.factories import EntryFactory, PlayerFactory
from tournaments.models import Game, Match
from tournaments.services.forfeits import withdraw_entry

pytestmark = pytest.mark.django_db

#: The player's game from their side: 6-2 in points, 10-5 in 20s.
WIN = [{"points": [2, 0], "twenties": [3, 1]}] * 3 + [{"points": [0, 2], "twenties": [1, 2]}]
#: The other games, from entry A's side, in turn: a draw 4-4 and a loss 2-6, so that points tie
#: and the 20s break the ties.
OTHER_GAMES = [
    [{"points": [1, 1], "twenties": [2, 1]}] * 4,
    [{"points": [0, 2], "twenties": [0, 4]}] * 3 + [{"points": [2, 0], "twenties": [2, 0]}],
    [{"points": [2, 0], "twenties": [1, 1]}] * 2 + [{"points": [0, 2], "twenties": [0, 3]}] * 2,
]

GAME_HEADER = (
    "Category",
    "Stage",
    "Round of play",
    "Board",
    "Game",
    "Side A ID",
    "Side A",
    "Side B ID",
    "Side B",
    "Points A",
    "Points B",
    "20s A",
    "20s B",
    "Status",
)
ROUND_HEADER = (
    *GAME_HEADER[:9],
    "Round",
    "Points A",
    "Points B",
    "20s A",
    "20s B",
    "Score A",
    "Score B",
)


def play_everything(event: SmallEvent) -> None:
    """Every game of the preliminary recorded through the scorecards and verified."""
    users = event.users
    card = card_for(event.stage, event.player)
    row = fill_row(card=card, game=event.game, rounds=WIN, user=users[PLAYER])
    validate_row(
        row=row,
        opponent_number=str(event.opponent.player.number),
        initials="op",
        user=users[OPPONENT],
    )
    table = users["scoring-table"]
    games = (
        Game.objects.filter(match__stage=event.stage, match__entry_b__isnull=False)
        .exclude(pk=event.game.pk)
        .select_related("match__entry_a__player", "match__entry_b__player")
        .order_by("match__round_of_play", "match__id", "number")
    )
    for game, rounds in zip(games, cycle(OTHER_GAMES)):
        enter_paper_row(
            card=card_for(event.stage, game.match.entry_a),
            game=game,
            rounds=rounds,
            opponent_number=str(game.match.entry_b.player.number),
            initials="x",
            user=table,
        )
    for card in ScoreCard.objects.filter(stage=event.stage):
        verify_card(card=card, user=table)


@pytest.fixture
def played() -> SmallEvent:
    event = build_small_event()
    player = event.player.player
    player.first_name, player.club, player.country = "Émile", "Québec Crokinole", "Canada"
    player.save()
    play_everything(event)
    return event


def read_csv(content: bytes) -> list[dict[str, str]]:
    assert content.startswith("\ufeff".encode()), "Excel needs the BOM to read UTF-8"
    return list(csv.DictReader(io.StringIO(content.decode("utf-8-sig"), newline="")))


def row_of(table: Table, **where) -> dict:
    (found,) = [r for r in table.records() if all(r[k] == v for k, v in where.items())]
    return found


# --- the tables -----------------------------------------------------------------------------


def test_players_table(played):
    table = players_table(played.tournament)
    assert table.header == PLAYER_COLUMNS == ("ID", "First name", "Last name", "Club", "Country")
    number = played.player.player.number
    assert row_of(table, ID=number) == {
        "ID": number,
        "First name": "Émile",
        "Last name": played.player.player.last_name,
        "Club": "Québec Crokinole",
        "Country": "Canada",
    }
    assert [r[0] for r in table.rows] == sorted(e.player.number for e in played.entries)


def test_entries_table_names_doubles_by_both_partners(played):
    t = played.tournament
    played.opponent.withdrawn = True
    played.opponent.save()
    table = entries_table(t)
    assert table.header == ENTRY_COLUMNS
    assert row_of(table, Entry="Émile " + played.player.player.last_name) == {
        "Category": "Competitive Singles",
        "Entry": "Émile " + played.player.player.last_name,
        "ID numbers": str(played.player.player.number),
        "Seed": played.player.seed,
        "Checked in": True,
        "Withdrawn": False,
    }
    assert row_of(table, **{"ID numbers": str(played.opponent.player.number)})["Withdrawn"]
    assert len(table.rows) == len(played.entries)


def test_games_table(played):
    table = games_table(played.tournament)
    assert table.header == GAME_HEADER
    match = played.match
    row = row_of(table, **{"Side A ID": str(played.player.player.number), "Round of play": 1})
    assert row == {
        "Category": "Competitive Singles",
        "Stage": "Preliminary",
        "Round of play": 1,
        "Board": match.board.number,
        "Game": 1,
        "Side A ID": str(played.player.player.number),
        "Side A": played.player.name,
        "Side B ID": str(played.opponent.player.number),
        "Side B": played.opponent.name,
        "Points A": 6,
        "Points B": 2,
        "20s A": 10,
        "20s B": 5,
        "Status": "Finished",
    }
    assert len(table.rows) == Game.objects.filter(match__stage=played.stage).count()
    assert {r["Status"] for r in table.records()} == {"Finished"}


def test_games_table_says_what_is_not_played_and_what_was_a_walkover():
    event = build_small_event()
    record_game(event.game, [{"points": [2, 0], "twenties": [1, 0]}])
    withdraw_entry(entry=event.other_player, user=event.users["organizer"], reason="Ill")
    statuses = {r["Status"] for r in games_table(event.tournament).records()}
    assert {"In progress", "Not started", "Walkover (withdrawal)"} <= statuses
    walkover = row_of(
        games_table(event.tournament),
        Status="Walkover (withdrawal)",
        **{"Round of play": 1},
    )
    present = "B" if walkover["Side A ID"] == event.other_player.number else "A"
    assert walkover[f"Points {present}"] == event.stage.bye_points


def test_rounds_table(played):
    table = rounds_table(played.tournament)
    assert table.header == ROUND_HEADER
    number = str(played.player.player.number)
    rounds = [r for r in table.records() if r["Side A ID"] == number and r["Round of play"] == 1]
    assert [r["Round"] for r in rounds] == [1, 2, 3, 4]
    assert {k: rounds[3][k] for k in ROUND_HEADER[9:]} == {
        "Round": 4,
        "Points A": 0,
        "Points B": 2,
        "20s A": 1,
        "20s B": 2,
        "Score A": None,
        "Score B": None,
    }
    games = Game.objects.filter(match__stage=played.stage).count()
    assert len(table.rows) == 4 * games


def test_standings_table_is_the_standings_page(played):
    table = standings_table(played.tournament)
    assert table.header == STANDING_COLUMNS
    lines = stage_standings(played.stage).lines
    assert [r[2:] for r in table.rows] == [
        (
            line.rank,
            line.entry.number,
            line.entry.name,
            line.games,
            line.points,
            line.twenties,
            tiebreak_label(line.tiebreak),
        )
        for line in lines
    ]
    assert {r[:2] for r in table.rows} == {("Competitive Singles", "Preliminary")}
    assert any(r[-1] == "20s" for r in table.rows), "the event's ties are broken by 20s"


def test_a_three_player_game_gets_side_c_columns(played):
    """Family rulebook, Option Two: the third side has columns of its own when such a game is
    drawn; a two-sided game leaves them empty."""
    a, b = played.entries[:2]
    c = EntryFactory(
        category=played.category,
        player=PlayerFactory(tournament=played.tournament, number=900),
    )
    Match.objects.create(stage=played.stage, entry_a=a, entry_b=b, entry_c=c, round_of_play=9)
    table = games_table(played.tournament)
    assert table.header[9:14] == ("Side C ID", "Side C", "Points A", "Points B", "Points C")
    two_sided = row_of(table, **{"Round of play": 1, "Side A ID": played.player.number})
    assert two_sided["Side C ID"] is None and two_sided["Side C"] is None


# --- the files ------------------------------------------------------------------------------


def test_csv_keeps_accents_and_reads_back(played):
    table = players_table(played.tournament)
    content = table_csv(table)
    rows = read_csv(content)
    assert list(rows[0]) == list(PLAYER_COLUMNS)
    assert {"Émile", "Québec Crokinole"} <= {v for r in rows for v in r.values()}
    assert len(rows) == len(table.rows)
    assert b"\r\n" in content


def test_csv_writes_booleans_and_blanks_as_spreadsheets_read_them(played):
    rows = read_csv(table_csv(entries_table(played.tournament)))
    assert {r["Checked in"] for r in rows} == {"TRUE"} and {r["Withdrawn"] for r in rows} == {
        "FALSE"
    }
    assert {r["Seed"] for r in rows} == {""}


def test_text_that_looks_like_a_formula_stays_text(played):
    player = played.other_player.player
    player.club = "=HYPERLINK(1)"
    player.save()
    table = players_table(played.tournament)
    (row,) = [r for r in read_csv(table_csv(table)) if r["ID"] == str(player.number)]
    assert row["Club"] == "'=HYPERLINK(1)"
    sheet = load_workbook(io.BytesIO(tables_xlsx([table])))["Players"]
    (cell,) = [r[3] for r in sheet.iter_rows(min_row=2) if r[0].value == player.number]
    assert cell.value == "=HYPERLINK(1)" and cell.data_type == "s"


def test_xlsx_has_a_sheet_per_table_with_the_same_values(played):
    tables = tournament_tables(played.tournament)
    workbook = load_workbook(io.BytesIO(tables_xlsx(tables)))
    assert workbook.sheetnames == [t.title for t in tables]
    assert [t.name for t in tables] == list(TABLES)
    for table in tables:
        values = list(workbook[table.title].iter_rows(values_only=True))
        assert values[0] == table.header
        # A spreadsheet keeps no empty text: an empty club comes back as an empty cell.
        expected = [tuple(None if v == "" else v for v in row) for row in table.rows]
        assert values[1:] == expected, table.name


# --- the downloads --------------------------------------------------------------------------


def test_the_organizer_downloads_each_table_and_the_workbook(client, played):
    slug = played.tournament.slug
    played.login(client, "organizer")
    for name, build in TABLES.items():
        response = client.get(reverse("scoring:export-table", args=[slug, name]))
        assert response.status_code == 200, name
        assert response["Content-Type"] == "text/csv; charset=utf-8"
        assert response["Content-Disposition"] == f'attachment; filename="{slug}-{name}.csv"'
        assert response.content == table_csv(build(played.tournament))
    response = client.get(reverse("scoring:export-tables", args=[slug]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="{slug}.xlsx"'
    workbook = load_workbook(io.BytesIO(response.content))
    titles = ["Players", "Entries", "Results per game", "Results per round", "Standings"]
    assert workbook.sheetnames == titles
    dashboard = client.get(reverse("tournaments:manage", args=[slug])).content.decode()
    assert reverse("scoring:export-tables", args=[slug]) in dashboard
    for name in TABLES:
        assert reverse("scoring:export-table", args=[slug, name]) in dashboard


def test_an_unknown_table_is_a_404(client, played):
    played.login(client, "organizer")
    slug = played.tournament.slug
    for path in (f"/t/{slug}/exports/scores.csv", f"/t/{slug}/exports/tournament.csv"):
        response = client.get(path)
        assert response.status_code == 404
        assert b"There is no table" in response.content
    assert client.get(f"/t/{slug}/exports/players.json").status_code == 404
    assert client.get("/t/no-such-event/exports/players.csv").status_code == 404


@pytest.mark.parametrize(
    ("role", "status"),
    [(ANONYMOUS, 302), (PLAYER, 403), ("referee", 403), ("scoring-table", 403)],
)
def test_others_are_refused_as_the_export_refuses_them(client, role, status):
    event = build_small_event()
    slug = event.tournament.slug
    event.login(client, role)
    export = client.get(reverse("scoring:export", args=[slug]))
    assert export.status_code == status
    for url in (
        reverse("scoring:export-table", args=[slug, "players"]),
        reverse("scoring:export-table", args=[slug, "no-such-table"]),
        reverse("scoring:export-tables", args=[slug]),
    ):
        response = client.get(url)
        assert response.status_code == status, url
        if status == 302:
            assert response["Location"].startswith(export["Location"].split("?")[0])
        else:
            assert b"Organizers only" in response.content


# --- the standings tool reads the results back ------------------------------------------------


def test_the_results_export_reads_back_into_the_standings_tool_unchanged(played, tmp_path, capsys):
    stage = played.stage
    rows = [
        r
        for r in read_csv(table_csv(rounds_table(played.tournament)))
        if (r["Category"], r["Stage"]) == (stage.category.name, stage.name)
    ]
    data = standings_input(rows, chain=stage.chain)
    assert len(data["games"]) == Game.objects.filter(match__stage=stage).count()

    parsed = parse_standings_input(json.loads(json.dumps(data)))
    tool = compute_standings(parsed.games, chain=parsed.chain, shootouts=parsed.shootouts)
    app = stage_standings(stage)
    assert app.lines and all(line.games == 2 for line in app.lines)

    def by_entry(rows) -> dict:
        return {r[0]: r[1:] for r in rows}

    assert by_entry(
        (r.entry, r.rank, r.games, r.points, r.twenties, r.tiebreak) for r in tool.rows
    ) == by_entry(
        (line.entry.number, line.rank, line.games, line.points, line.twenties, line.tiebreak)
        for line in app.lines
    )
    assert [r.rank for r in tool.rows] == [line.rank for line in app.lines]

    # And through the command line, as an organizer would run it.
    path = tmp_path / "standings.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert standings_tool(["standings", str(path)]) == 0
    printed = json.loads(capsys.readouterr().out)["standings"]
    assert {r["entry"]: r["points"] for r in printed} == {
        line.entry.number: line.points for line in app.lines
    }


def test_the_standings_input_refuses_a_three_player_row():
    row = {
        "Round of play": 1,
        "Board": 1,
        "Game": 1,
        "Side A ID": "1",
        "Side B ID": "2",
        "Side C ID": "3",
        "Round": 1,
        "Points A": 2,
        "Points B": 1,
        "20s A": 0,
        "20s B": 0,
    }
    with pytest.raises(ValueError, match="three-player"):
        standings_input([row], chain=["twenties"])


# --- what a table costs -----------------------------------------------------------------------

#: The most queries each table may take, whatever the number of players (the standings read a
#: fixed number per stage; the event has one).
MAX_QUERIES = {"players": 1, "entries": 1, "games": 3, "rounds": 3, "standings": 6}


def test_a_table_costs_the_same_few_queries_for_20_players(django_assert_max_num_queries):
    event = build_small_event(players=20, games_per_entry=3, boards=10)
    for game in Game.objects.filter(match__stage=event.stage, match__entry_b__isnull=False)[:12]:
        record_game(game, [{"points": [2, 0], "twenties": [1, 0]}] * 4)
    for name, build in TABLES.items():
        with django_assert_max_num_queries(MAX_QUERIES[name]):
            table = build(event.tournament)
        assert table.rows, name
