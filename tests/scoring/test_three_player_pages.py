"""A three-player category (family rulebook, Three-Player Game, Option Two) as its users meet it:
the card page at the board (a box per player, both opponents named, either of them validates),
the scoring table and the dispute queue, the public schedule, hall screen and player pages, the
printed cards, the REST API, and the organizer's stage form. Through the Django test client."""

import io
import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from pypdf import PdfReader
from rest_framework.test import APIClient

from scoring.models import CardRow
from scoring.results.services import record_game
from scoring.scorecards.services import card_for, fill_row, validate_row
from tests.factories import CategoryFactory, EntryFactory, PlayerFactory, StageFactory
from tests.row_versions import disputed, seen_fields
from tournaments.models import Board, Category, Game, Match, Round, TournamentRole

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role
Status = CardRow.Status
DASH = "\u2013"
HX = {"HX-Request": "true"}

#: A game in the match's order (A, B, C), won by A 8-4-3 in points, 6-2-1 in 20s.
GAME = [
    {"points": [2, 1, 0], "twenties": [2, 1, 0]},
    {"points": [2, 0, 1], "twenties": [1, 0, 0]},
    {"points": [0, 1, 2], "twenties": [0, 0, 1]},
    {"points": [2, 1, 0], "twenties": [1, 0, 0]},
    {"points": [2, 1, 0], "twenties": [2, 1, 0]},
]


def seen_by(rounds, order):
    """The rounds as the card of the entry at ``order[0]`` holds them (own first, then the
    others in the match's order)."""
    return [{key: [r[key][i] for i in order] for key in ("points", "twenties")} for r in rounds]


def form_data(prefix, rounds, *, version=None, **extra):
    """What the browser posts for a three-player row: own, first other, second other."""
    data = {} if version is None else {f"{prefix}-version": version}
    for n, r in enumerate(rounds, start=1):
        for what in ("points", "twenties"):
            if r.get(what) is not None:
                for side, value in zip(("own", "opp", "opp2"), r[what], strict=True):
                    data[f"{prefix}-r{n}_{what}_{side}"] = value
    data.update({f"{prefix}-{k}": v for k, v in extra.items()})
    return data


class Trio:
    """Ann, Bob and Cy at board 2 in a three-player category, with the officials."""

    def __init__(self):
        self.category = CategoryFactory(
            name="Family triples",
            scoring_system=Category.ScoringSystem.THREE_PLAYER,
            discs_per_player=12,
        )
        self.tournament = t = self.category.tournament
        self.stage = StageFactory(
            category=self.category, name="Triples", games_per_entry=1, bye_points=0
        )
        self.users = {
            name: User.objects.create_user(name) for name in ("ann", "bob", "cy", "table", "head")
        }
        self.a, self.b, self.c = (
            EntryFactory(
                category=self.category,
                player=PlayerFactory(
                    tournament=t, first_name=first, last_name=last, user=self.users[login]
                ),
            )
            for login, first, last in (
                ("ann", "Ann", "Ashby"),
                ("bob", "Bob", "Brant"),
                ("cy", "Cy", "Cole"),
            )
        )
        TournamentRole.objects.create(
            tournament=t, user=self.users["table"], role=Role.SCORING_TABLE
        )
        TournamentRole.objects.create(tournament=t, user=self.users["head"], role=Role.HEAD_REFEREE)
        board = Board.objects.create(tournament=t, number=2)
        self.match = Match.objects.create(
            stage=self.stage, entry_a=self.a, entry_b=self.b, entry_c=self.c, board=board
        )
        self.game = Game.objects.create(match=self.match, number=1)

    def url(self, name, entry=None):
        args = [self.tournament.slug, self.stage.id, (entry or self.a).id]
        if name != "card":
            args.append(self.game.id)
        return reverse(f"scoring:cards:{name}", args=args)

    @property
    def prefix(self):
        return f"g{self.game.id}"

    def number(self, entry):
        return str(entry.player.number)

    def row(self, entry=None):
        return CardRow.objects.get(card__entry=entry or self.a, game=self.game)


@pytest.fixture
def trio():
    return Trio()


def login(client, trio, name):
    client.force_login(trio.users[name])
    return client


# --- the card at the board ------------------------------------------------------------------


def test_the_card_names_both_opponents_and_has_a_box_per_player(client, trio):
    body = login(client, trio, "ann").get(trio.url("card")).content.decode()
    for entry in (trio.b, trio.c):
        assert (
            f'<strong>{entry.name}</strong> <span class="id">ID {trio.number(entry)}</span>' in body
        )
    assert (
        "Boxes from left to right: <strong>Ann Ashby</strong> · <strong>Bob Brant</strong>" in body
    )
    assert f'name="{trio.prefix}-r1_points_opp2"' in body
    assert f'name="{trio.prefix}-r1_twenties_opp2"' in body
    assert "Round 1, points, Cy Cole" in body  # the third box's label, for screen readers

    # Cy, entry C of the match, finds his own card among his scorecards.
    index = login(client, trio, "cy").get(
        reverse("scoring:cards:index", args=[trio.tournament.slug])
    )
    assert trio.url("card", trio.c) in index.content.decode()


def test_the_live_total_shows_three_totals_and_adds_the_round_still_needed(client, trio):
    login(client, trio, "ann")
    whole = client.post(trio.url("row_total"), form_data(trio.prefix, GAME, version=0), headers=HX)
    text = whole.content.decode()
    assert f"<strong>8</strong>{DASH}4{DASH}3 points" in text
    assert f"<strong>6</strong>{DASH}2{DASH}1 20s" in text and "not over" not in text

    short = client.post(
        trio.url("row_total"), form_data(trio.prefix, GAME[:3], version=0), headers=HX
    )
    text = short.content.decode()
    assert "round 4 is needed: the game is played to 8 points and stands at 4-2-3" in text
    assert f'name="{trio.prefix}-r4_points_opp2"' in text  # the line the game still needs


def test_fill_then_the_second_opponent_validates_on_the_page(client, trio):
    login(client, trio, "ann")
    saved = client.post(trio.url("fill_row"), form_data(trio.prefix, GAME, version=0))
    assert saved.status_code == 302
    row = trio.row()
    assert [r["points"] for r in row.rounds] == [r["points"] for r in GAME]
    assert row.status == Status.FILLED and row.total_points == 8

    # Cy, the second opponent, reads Ann's card and signs it with his own ID.
    login(client, trio, "cy")
    body = client.get(trio.url("card")).content.decode()
    assert "Validation by an opponent" in body
    # Cy's login stands for one of the two opponents: the form names him and signs as him.
    assert "<strong>Cy Cole</strong>: check the rounds above; if they are what was played" in body
    assert f"<td>2{DASH}1{DASH}0</td>" in body  # the saved rounds, a figure per player
    signed = client.post(
        trio.url("validate_row"),
        {
            f"v{trio.game.id}-opponent_number": trio.number(trio.c),
            f"v{trio.game.id}-initials": "cc",
            f"v{trio.game.id}-version": row.version,
        },
    )
    assert signed.status_code == 302
    row.refresh_from_db()
    assert row.status == Status.VALIDATED and row.validated_number == trio.number(trio.c)


def test_a_round_without_the_third_players_points_is_refused_in_words(client, trio):
    login(client, trio, "ann")
    data = form_data(trio.prefix, GAME, version=0)
    del data[f"{trio.prefix}-r2_points_opp2"]
    response = client.post(trio.url("fill_row"), data)
    assert response.status_code == 200
    assert (
        "Round 2: give the points of all three players (2-1-0 by rank)."
        in response.content.decode()
    )
    assert not CardRow.objects.exists()


def test_rows_from_two_sides_in_a_three_player_game_are_refused_by_the_judge(client, trio):
    """A row sent with two figures per round (an old form, the API) is refused with the round
    named, and nothing is saved."""
    login(client, trio, "ann")
    data = {f"{trio.prefix}-version": 0}
    for n, r in enumerate(GAME, start=1):
        for what in ("points", "twenties"):
            data[f"{trio.prefix}-r{n}_{what}_own"] = r[what][0]
            data[f"{trio.prefix}-r{n}_{what}_opp"] = r[what][1]
    body = client.post(trio.url("fill_row"), data).content.decode()
    assert "Round 1: give the points of all three players" in body
    assert not CardRow.objects.exists()


# --- the scoring table and the head referee --------------------------------------------------


def test_the_scoring_table_queue_names_both_opponents_and_three_totals(client, trio):
    row = fill_row(
        card=card_for(trio.stage, trio.a), game=trio.game, rounds=GAME, user=trio.users["ann"]
    )
    validate_row(
        row=row, opponent_number=trio.number(trio.b), initials="BB", user=trio.users["bob"]
    )
    body = (
        login(client, trio, "table")
        .get(reverse("scoring:cards:table", args=[trio.tournament.slug]))
        .content.decode()
    )
    assert f'Bob Brant <span class="id">ID {trio.number(trio.b)}</span> and Cy Cole' in body
    assert f"<td><strong>8</strong>{DASH}4{DASH}3</td>" in body
    assert f"<td>6{DASH}2{DASH}1</td>" in body


def test_the_dispute_queue_shows_three_cards_and_the_ruling_takes_three_sides(client, trio):
    rows = {}
    for entry, order, user in (
        (trio.a, (0, 1, 2), "ann"),
        (trio.b, (1, 0, 2), "bob"),
    ):
        rounds = seen_by(GAME, order)
        if entry is trio.b:
            rounds[0] = {"points": [1, 2, 0], "twenties": [2, 2, 0]}  # Bob claims round 1
        rows[entry.id] = fill_row(
            card=card_for(trio.stage, entry), game=trio.game, rounds=rounds, user=trio.users[user]
        )
    # Each entered by its own player, the two cards tell round 1 differently: a dispute at once.
    assert rows[trio.b.id].status == Status.DISPUTED
    assert set(CardRow.objects.values_list("status", flat=True)) == {Status.DISPUTED}

    login(client, trio, "head")
    page = reverse("scoring:cards:disputes", args=[trio.tournament.slug])
    body = client.get(page).content.decode()
    for name in ("Ann Ashby", "Bob Brant", "Cy Cole"):
        assert f"{name}'s card</th>" in body
    # Ann's card read in the match's order, Bob's too: round 1 differs, Cy has no row.
    assert f"<td>2{DASH}1{DASH}0, 20s 2{DASH}1{DASH}0</td>" in body
    assert f"<td>2{DASH}1{DASH}0, 20s 2{DASH}2{DASH}0</td>" in body
    assert body.count('<span class="flag">differs</span>') == 1
    assert f"8{DASH}4{DASH}3, 20s 6{DASH}2{DASH}1" in body and "no row in dispute" in body
    prefix = f"d{trio.game.id}"
    assert f'name="{prefix}-r1_points_opp2"' in body
    assert "Rule: every card takes this result" in body

    for row in disputed(trio.game):  # the page names the rows it shows, as it shows them
        assert f'name="seen-{row.id}" value="{row.version}"' in body
    ruling = {**form_data(prefix, GAME, initials="hr"), **seen_fields(disputed(trio.game))}
    done = client.post(
        reverse("scoring:cards:resolve_dispute", args=[trio.tournament.slug, trio.game.id]), ruling
    )
    assert done.status_code == 302
    assert {r.card.entry_id: r.status for r in CardRow.objects.select_related("card")} == {
        trio.a.id: Status.VERIFIED,
        trio.b.id: Status.VERIFIED,
        trio.c.id: Status.VERIFIED,
    }
    assert [r["points"] for r in trio.row(trio.c).rounds] == [
        r["points"] for r in seen_by(GAME, (2, 0, 1))
    ]
    official = list(
        trio.game.rounds.order_by("number").values_list("points_a", "points_b", "points_c")
    )
    assert official == [tuple(r["points"]) for r in GAME]


# --- the public pages -------------------------------------------------------------------------


def test_schedule_hall_screen_and_player_pages_show_three_players(client, trio):
    record_game(trio.game, GAME)
    slug = trio.tournament.slug
    schedule = client.get(reverse("tournaments:round", args=[slug, trio.stage.id, 1]))
    body = schedule.content.decode()
    assert schedule.status_code == 200
    assert body.count("<th>Opponent</th>") == 2
    assert f'<td class="result">8{DASH}4{DASH}3</td>' in body
    assert "Cy Cole</a>" in body and "finished" in body

    screen = client.get(reverse("tournaments:round_now", args=[slug, trio.stage.id, 1]))
    text = " ".join(re.sub(r"<[^>]+>", " ", screen.content.decode()).split())
    assert "Ann Ashby v Bob Brant v Cy Cole" in text

    cy = client.get(reverse("tournaments:player", args=[slug, trio.c.player.number]))
    text = " ".join(re.sub(r"<[^>]+>", " ", cy.content.decode()).split())
    assert "v Ann Ashby #" in text and "and Bob Brant #" in text
    assert f"lost 3{DASH}8{DASH}4 pts 1{DASH}6{DASH}2 20s" in text
    assert "Games so far: 3 points for, 12 against, 1 \u00d7 20." in text
    ann = client.get(reverse("tournaments:player", args=[slug, trio.a.player.number]))
    assert "won</td>" in ann.content.decode()
    assert f"8{DASH}4{DASH}3<span" in ann.content.decode()


# --- printed cards ----------------------------------------------------------------------------


def pdf_text(content: bytes) -> str:
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)
    return " ".join(text.split())


def test_printed_cards_name_both_opponents_and_keep_the_owners_own_figures(client, trio):
    fill_row(card=card_for(trio.stage, trio.a), game=trio.game, rounds=GAME, user=trio.users["ann"])
    login(client, trio, "table")
    slug = trio.tournament.slug
    cards = client.get(reverse("scoring:print-round-cards", args=[slug, trio.stage.id, 1]))
    assert cards.status_code == 200 and cards["Content-Type"] == "application/pdf"
    text = pdf_text(cards.content)
    assert text.count("TOURNAMENT") == 3  # a card for each player at the board
    assert f"Bob Brant ID # {trio.number(trio.b)} Cy Cole ID # {trio.number(trio.c)}" in text
    assert f"Ann Ashby ID # {trio.number(trio.a)} Cy Cole ID # {trio.number(trio.c)}" in text
    assert "OPPONENTS: NAMES, ID #" in text and "One of your opponents checks the game" in text

    card = card_for(trio.stage, trio.a)
    filled = pdf_text(client.get(reverse("scoring:print-card", args=[slug, card.id])).content)
    # Ann's own points and 20s, round by round (2/2, 2/1, 0/0, 2/1, 2/2), then her 8 and 6.
    assert re.search(r"2 2 2 1 0 0 2 1 2 2 8 6", filled), filled


# --- the API ----------------------------------------------------------------------------------


def api_for(trio, name):
    client = APIClient()
    client.force_authenticate(trio.users[name])
    return client


def test_api_fills_a_three_player_row_and_reads_the_official_rounds_back(trio):
    ann, cy, table = (api_for(trio, n) for n in ("ann", "cy", "table"))
    opened = ann.post("/api/scorecards/", {"stage": trio.stage.id, "entry": trio.a.id})
    card_id = opened.json()["id"]
    pairs = [{"points": r["points"][:2], "twenties": r["twenties"][:2]} for r in GAME]
    refused = ann.post(
        f"/api/scorecards/{card_id}/fill/", {"game": trio.game.id, "rounds": pairs}, format="json"
    )
    assert refused.status_code == 400
    assert "three whole numbers, one per player" in str(refused.json())
    four = [{"points": [2, 1, 0, 0], "twenties": [0, 0, 0, 0]}]
    too_many = ann.post(
        f"/api/scorecards/{card_id}/fill/", {"game": trio.game.id, "rounds": four}, format="json"
    )
    assert too_many.status_code == 400 and "round 1" in too_many.json()["rounds"]

    filled = ann.post(
        f"/api/scorecards/{card_id}/fill/", {"game": trio.game.id, "rounds": GAME}, format="json"
    )
    assert filled.status_code == 201, filled.json()
    row = filled.json()
    assert row["rounds"][0]["points"] == [2, 1, 0] and row["total_points"] == 8
    assert row["total_points_against"] == 7
    # The second opponent reads the row (his card list shows it) and signs it.
    assert any(c["id"] == card_id for c in cy.get("/api/scorecards/").json()["results"])
    signed = cy.post(
        f"/api/card-rows/{row['id']}/validate/",
        {"opponent_number": trio.number(trio.c), "initials": "CC", "version": row["version"]},
        format="json",
    )
    assert signed.status_code == 200, signed.json()
    seen = {"versions": [{"row": row["id"], "version": signed.json()["version"]}]}
    verified = table.post(f"/api/scorecards/{card_id}/verify/", seen, format="json")
    assert verified.status_code == 200, verified.json()

    match = APIClient().get(f"/api/matches/{trio.match.id}/").json()
    assert match["entry_c"] == {"id": trio.c.id, "name": "Cy Cole", "number": trio.number(trio.c)}
    rounds = match["games"][0]["rounds"]
    assert [(r["points_a"], r["points_b"], r["points_c"]) for r in rounds] == [
        tuple(r["points"]) for r in GAME
    ]
    assert [r["twenties_c"] for r in rounds] == [r["twenties"][2] for r in GAME]
    assert Round.objects.filter(game=trio.game, scoring="three").count() == 5


def test_api_matches_of_two_sides_keep_the_third_figures_empty(trio):
    other = Match.objects.create(stage=trio.stage, entry_a=trio.a, entry_b=trio.b, round_of_play=2)
    game = Game.objects.create(match=other, number=1)
    Round.objects.create(game=game, number=1, points_a=2, points_b=0)
    found = APIClient().get(f"/api/matches/{other.id}/").json()
    assert found["entry_c"] is None
    assert found["games"][0]["rounds"][0]["points_c"] is None


# --- the organizer's pages --------------------------------------------------------------------


def test_organizer_pages_suggest_12_discs_and_refuse_a_knockout_stage(client, trio):
    organizer = User.objects.create_user("olga")
    TournamentRole.objects.create(tournament=trio.tournament, user=organizer, role=Role.ORGANIZER)
    client.force_login(organizer)
    slug = trio.tournament.slug
    create = client.get(reverse("tournaments:manage-category-create", args=[slug]))
    assert "gives each player 12 discs" in create.content.decode()
    response = client.post(
        reverse("tournaments:manage-stage-create", args=[slug, trio.category.pk]),
        {
            "name": "Final",
            "kind": "knockout",
            "order": "",
            "advance_count": 4,
            "games_per_entry": 1,
            "best_of": 1,
            "bye_points": 8,
            "seed": 1,
            "tiebreak": "default",
        },
    )
    assert response.status_code == 400
    assert "round robins, brackets and Swiss rounds are played by two sides" in (
        response.content.decode()
    )
    assert trio.category.stages.count() == 1
