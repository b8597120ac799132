"""Scorecard pages: filling at the board, validation on the opponent's phone, the scoring table, the
dispute queue, corrections with their history (WCC scorecards, through the Django test client)."""

import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import CardRow
from scoring.scorecards.services import card_for, fill_row, validate_row
from scoring.standings.selectors import stage_standings
from tests.factories import EntryFactory, PlayerFactory, StageFactory
from tests.row_versions import disputed, seen_fields, waiting
from tournaments.models import Board, Game, Match, TournamentRole
from tournaments.services.links import link_of

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role
Status = CardRow.Status

WIN = [{"points": [2, 0], "twenties": [3, 1]}] * 3 + [{"points": [0, 2], "twenties": [1, 2]}]
HX = {"HX-Request": "true"}
DASH = "\u2013"  # the en dash the pages print between two sides' numbers


def mirror(rounds):
    return [{"points": r["points"][::-1], "twenties": r["twenties"][::-1]} for r in rounds]


def form_data(prefix, rounds, *, version=None, **extra):
    """What the browser posts for a row's boxes (the names the forms give them)."""
    data = {} if version is None else {f"{prefix}-version": version}
    for n, r in enumerate(rounds, start=1):
        if r.get("time_expired"):
            data[f"{prefix}-r{n}_time_expired"] = "on"
            continue
        for what in ("points", "twenties", "score"):
            if r.get(what) is not None:
                own, opp = r[what]
                data[f"{prefix}-r{n}_{what}_own"] = own
                data[f"{prefix}-r{n}_{what}_opp"] = opp
    data.update({f"{prefix}-{k}": v for k, v in extra.items()})
    return data


class World:
    """One stage, two players linked to logins, the officials, one game on board 3."""

    def __init__(self):
        self.stage = StageFactory(games_per_entry=1)
        self.tournament = self.stage.category.tournament
        self.users = {
            name: User.objects.create_user(name)
            for name in ("ann", "bob", "ref", "table", "head", "eve")
        }
        t = self.tournament
        self.a = EntryFactory(
            category=self.stage.category,
            player=PlayerFactory(
                tournament=t, first_name="Ann", last_name="Ashby", user=self.users["ann"]
            ),
        )
        self.b = EntryFactory(
            category=self.stage.category,
            player=PlayerFactory(
                tournament=t, first_name="Bob", last_name="Brant", user=self.users["bob"]
            ),
        )
        EntryFactory(
            category=self.stage.category,
            player=PlayerFactory(tournament=t, user=self.users["eve"]),
        )
        for name, role in (
            ("ref", Role.REFEREE),
            ("table", Role.SCORING_TABLE),
            ("head", Role.HEAD_REFEREE),
        ):
            TournamentRole.objects.create(tournament=t, user=self.users[name], role=role)
        board = Board.objects.create(tournament=t, number=3)
        self.match = Match.objects.create(
            stage=self.stage, entry_a=self.a, entry_b=self.b, board=board
        )
        self.game = Game.objects.create(match=self.match, number=1)

    def url(self, name, entry=None, **kw):
        entry = entry or self.a
        slug = self.tournament.slug
        if name == "card":
            return reverse("scoring:cards:card", args=[slug, self.stage.id, entry.id])
        if name in ("table", "disputes", "index"):
            return reverse(f"scoring:cards:{name}", args=[slug])
        if name in ("verify_card", "void_card"):
            return reverse(f"scoring:cards:{name}", args=[slug, kw["card"].id])
        if name == "resolve_dispute":
            return reverse("scoring:cards:resolve_dispute", args=[slug, self.game.id])
        return reverse(f"scoring:cards:{name}", args=[slug, self.stage.id, entry.id, self.game.id])

    def row(self, entry=None):
        return CardRow.objects.get(card__entry=entry or self.a, game=self.game)

    def prefix(self):
        return f"g{self.game.id}"


@pytest.fixture
def w():
    return World()


def login(client, w, name):
    client.force_login(w.users[name])
    return client


def points_of(stage, entry):
    return next(line.points for line in stage_standings(stage).lines if line.entry == entry)


def test_phone_flow_fill_validate_on_the_opponents_phone_verify_and_standings_change(client, w):
    """WCC: players mark their own cards; the opponent records ID and initials on their own phone;
    the scoring table verifies; standings count verified cards."""
    login(client, w, "ann")
    page = client.get(w.url("card"))
    body = page.content.decode()
    assert page.status_code == 200
    for text in ("Ann Ashby", str(w.a.player.number), w.stage.category.name, w.stage.name):
        assert text in body
    assert "Bob Brant" in body and f"ID {w.b.player.number}" in body and "Board 3" in body
    assert "Time expired, no disc shot" in body and 'inputmode="numeric"' in body

    live = client.post(w.url("row_total"), form_data(w.prefix(), WIN, version=0), headers=HX)
    assert live.status_code == 200 and f"<strong>6</strong>{DASH}2 points" in live.content.decode()

    saved = client.post(w.url("fill_row"), form_data(w.prefix(), WIN, version=0))
    assert saved.status_code == 302 and saved["Location"].endswith(f"#game-{w.game.id}")
    row = w.row()
    assert row.status == Status.FILLED and row.total_points == 6 and row.total_twenties == 10
    body = client.get(w.url("card")).content.decode()
    assert "Waiting for validation by the opponent" in body and "Not filled" not in body
    assert "opponent_number" not in body  # the owner is offered no validation form

    # Handing the phone across no longer works: Ann's session is Ann's, whatever ID is typed.
    signature = {
        f"v{w.game.id}-opponent_number": w.b.player.number,
        f"v{w.game.id}-initials": "bb",
        f"v{w.game.id}-version": row.version,
    }
    assert client.post(w.url("validate_row"), signature).status_code == 403
    assert w.row().status == Status.FILLED
    # Bob signs on his own phone, through his private link (no login needed).
    bob_phone = Client()
    token = link_of(w.b).token
    assert bob_phone.get(reverse("scoring:private_link", args=[w.tournament.slug, token]))
    signed = bob_phone.post(w.url("validate_row"), signature)
    assert signed.status_code == 302
    row.refresh_from_db()
    assert row.status == Status.VALIDATED and row.validated_initials == "BB"
    assert points_of(w.stage, w.a) == 0  # WCC counts verified cards only

    login(client, w, "table")
    table = client.get(w.url("table")).content.decode()
    assert "Ann Ashby" in table and "Verify card" in table
    # The table verifies the rows it saw: a verify naming none of them verifies nothing.
    blind = client.post(w.url("verify_card", card=row.card), {"next": w.url("table")})
    assert blind.status_code == 200 and "new since you opened it" in blind.content.decode()
    assert w.row().status == Status.VALIDATED
    seen = {"next": w.url("table"), f"seen-{row.id}": row.version}
    done = client.post(w.url("verify_card", card=row.card), seen)
    assert done.status_code == 302 and done["Location"] == w.url("table")
    row.refresh_from_db()
    assert row.status == Status.VERIFIED and row.verified_by == w.users["table"]
    assert points_of(w.stage, w.a) == 6 and points_of(w.stage, w.b) == 2
    after = client.get(w.url("table")).content.decode()
    assert "Verified the card of Ann Ashby (1 row)." in after and "0 cards waiting" in after


def test_htmx_fill_returns_just_the_row(client, w):
    login(client, w, "ann")
    response = client.post(w.url("fill_row"), form_data(w.prefix(), WIN, version=0), headers=HX)
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body
    assert f'id="game-{w.game.id}"' in body and "Row saved." in body and "Filled" in body


@pytest.mark.parametrize(
    ("rounds", "round_named", "said", "typed"),
    [
        (
            [WIN[0], {"points": [2, 2], "twenties": [0, 0]}, *WIN[2:]],
            2,
            "are impossible; a round scores 2-0, 1-1, 0-2",
            ("r2_twenties_own", "0"),
        ),
        (
            [*WIN[:2], {"points": [2, 0], "twenties": [9, 0]}, WIN[3]],
            3,
            "a side has only 8 discs",
            ("r3_twenties_own", "9"),
        ),
        (
            [{"score": [42, 20], "twenties": [1, 1]}, *WIN[1:]],
            1,
            "multiple of 5",
            ("r1_score_own", "42"),
        ),
    ],
    ids=["2-2", "20s-beyond-discs", "board-42"],
)
def test_impossible_input_names_the_round_and_keeps_what_was_typed(
    client, w, rounds, round_named, said, typed
):
    login(client, w, "ann")
    response = client.post(w.url("fill_row"), form_data(w.prefix(), rounds, version=0))
    body = response.content.decode()
    assert response.status_code == 200
    assert f"round {round_named}: " in body and said in body
    name, value = typed
    assert re.search(rf'name="{w.prefix()}-{name}" value="{value}"', body), "typed value lost"
    assert re.search(
        rf'<fieldset class="round phone bad" data-round="{round_named}">\s*<legend>Round', body
    )
    assert not CardRow.objects.exists()


def test_form_mistakes_are_said_in_words_with_the_round(client, w):
    login(client, w, "ann")
    data = form_data(w.prefix(), WIN, version=0)
    data[f"{w.prefix()}-r2_points_opp"] = ""
    data[f"{w.prefix()}-r4_time_expired"] = "on"
    body = client.post(w.url("fill_row"), data).content.decode()
    assert "Round 2: give the points of both sides" in body
    assert "Round 4: time expired with no disc shot scores 0-0" in body
    assert not CardRow.objects.exists()


def test_time_expired_round_scores_nothing(client, w):
    login(client, w, "ann")
    rounds = [*WIN[:3], {"time_expired": True}]
    assert (
        client.post(w.url("fill_row"), form_data(w.prefix(), rounds, version=0)).status_code == 302
    )
    row = w.row()
    assert row.rounds[3] == {
        "points": [0, 0],
        "twenties": [0, 0],
        "score": None,
        "time_expired": True,
    }
    assert row.total_points == 6


def test_stale_version_says_reload_and_overwrites_nothing(client, w):
    login(client, w, "ann")
    client.post(w.url("fill_row"), form_data(w.prefix(), WIN, version=0))
    seen = w.row().version
    # Someone else (a referee at the board) saves first.
    fill_row(card=w.row().card, game=w.game, rounds=mirror(WIN), user=w.users["ref"], version=seen)
    mine = [{"points": [1, 1], "twenties": [4, 4]}, *WIN[1:]]
    response = client.post(w.url("fill_row"), form_data(w.prefix(), mine, version=seen))
    body = response.content.decode()
    assert response.status_code == 200
    assert "Changed by someone else — reload" in body
    assert re.search(rf'name="{w.prefix()}-r1_twenties_own" value="4"', body)
    assert "Saved now (version" in body and f"<strong>2</strong>{DASH}6" in body
    row = w.row()
    assert row.version == seen + 1 and row.rounds[0]["points"] == [0, 2]


def test_referee_correction_is_a_new_version_listed_in_the_history(client, w):
    """WCC: any corrections made on your score card must be initialled by a referee."""
    login(client, w, "ann")
    client.post(w.url("fill_row"), form_data(w.prefix(), WIN, version=0))
    login(client, w, "bob")  # the opponent signs on their own phone
    signed = client.post(
        w.url("validate_row"),
        {
            f"v{w.game.id}-opponent_number": w.b.player.number,
            f"v{w.game.id}-initials": "BB",
            f"v{w.game.id}-version": w.row().version,
        },
    )
    assert signed.status_code == 302 and w.row().status == Status.VALIDATED
    fixed = [*WIN[:3], {"points": [1, 1], "twenties": [1, 1]}]

    login(client, w, "ann")
    refused = client.post(w.url("correct_row"), form_data(w.prefix(), fixed, version=2))
    assert refused.status_code == 403 and b"Only a referee corrects" in refused.content

    login(client, w, "ref")
    version = w.row().version
    no_initials = client.post(w.url("correct_row"), form_data(w.prefix(), fixed, version=version))
    assert b"must be initialled by the referee" in no_initials.content
    assert w.row().version == version
    done = client.post(
        w.url("correct_row"),
        form_data(w.prefix(), fixed, version=version, referee_initials="jr"),
    )
    assert done.status_code == 302
    row = w.row()
    assert row.referee_initials == "JR" and row.total_points == 7
    assert row.history.count() == 3

    login(client, w, "ann")
    assert (
        "Corrected, initialled by referee <strong>JR</strong>"
        in client.get(w.url("card")).content.decode()
    )
    history = client.get(w.url("row_history"))
    body = history.content.decode()
    assert history.status_code == 200
    assert "Version 1" in body and f"Version {row.version}" in body
    assert "corrected, initialled JR" in body
    dash = "\u2013"
    assert f"round 4: 0{dash}2, 20s 1{dash}2 → 1{dash}1, 20s 1{dash}1" in body
    assert "validated with initials: — → BB" in body
    assert body.index("Version 1") < body.index(f"Version {row.version}")
    assert ">ann<" in body.replace("<strong>", ">").replace("</strong>", "<")


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_a_signature_that_opens_a_dispute_says_so_not_validated(client, w, htmx):
    """The opponent signs a row that the other card of the game contradicts: the answer says
    the game went to the head referee, in amber, not a green "validated" above "Disputed"."""
    claim = mirror([*WIN[:3], {"points": [2, 0], "twenties": [1, 2]}])
    rb = fill_row(card=card_for(w.stage, w.b), game=w.game, rounds=claim, user=w.users["bob"])
    validate_row(row=rb, opponent_number=str(w.a.player.number), initials="AA", user=w.users["ann"])
    # A referee types Ann's row for her: it states nothing until Bob signs it (Ann typing it
    # herself would have been warned that it contradicts the card she validated).
    ra = fill_row(card=card_for(w.stage, w.a), game=w.game, rounds=WIN, user=w.users["ref"])
    login(client, w, "bob")
    signature = {
        f"v{w.game.id}-opponent_number": w.b.player.number,
        f"v{w.game.id}-initials": "BB",
        f"v{w.game.id}-version": ra.version,
    }
    if htmx:
        body = client.post(w.url("validate_row"), signature, headers=HX).content.decode()
    else:
        body = client.post(w.url("validate_row"), signature, follow=True).content.decode()
    assert w.row().status == Status.DISPUTED
    assert "Row validated by the opponent." not in body
    said = "the game went to the head referee, who rules on it."
    assert said in body
    if htmx:
        assert re.search(r'<p class="notice" role="status">Row signed, but', body)
    else:
        assert re.search(r'<li class="warning">Row signed, but', body)


def test_disputed_game_shows_both_rows_and_the_head_referee_rules(client, w):
    card_a, card_b = card_for(w.stage, w.a), card_for(w.stage, w.b)
    ra = fill_row(card=card_a, game=w.game, rounds=WIN, user=w.users["ann"])
    validate_row(row=ra, opponent_number=str(w.b.player.number), initials="BB", user=w.users["bob"])
    claim = mirror([*WIN[:3], {"points": [2, 0], "twenties": [1, 2]}])
    # Bob's own row contradicts the row he validated: saved anyway, the game is disputed.
    fill_row(
        card=card_b, game=w.game, rounds=claim, user=w.users["bob"], confirm_contradiction=True
    )
    assert w.row().status == Status.DISPUTED

    login(client, w, "ref")
    seen = client.get(w.url("disputes"))
    body = seen.content.decode()
    assert seen.status_code == 200
    assert "Ann Ashby's card" in body and "Bob Brant's card" in body
    assert body.count('class="differs"') == 1
    assert re.search(r'class="differs">\s*<th scope="row">4 <span class="flag">', body)
    assert f"0{DASH}2, 20s 1{DASH}2" in body and f"2{DASH}0, 20s 1{DASH}2" in body
    assert "Rule: both cards take this result" not in body  # a referee sees, the head rules
    denied = client.post(w.url("resolve_dispute"), form_data(f"d{w.game.id}", WIN, initials="R"))
    assert denied.status_code == 403

    login(client, w, "head")
    assert "Rule: both cards take this result" in client.get(w.url("disputes")).content.decode()
    missing = client.post(w.url("resolve_dispute"), form_data(f"d{w.game.id}", WIN))
    assert b"Initial the ruling." in missing.content and w.row().status == Status.DISPUTED
    ruling = [*WIN[:3], {"points": [1, 1], "twenties": [1, 2]}]
    done = client.post(
        w.url("resolve_dispute"),
        {**form_data(f"d{w.game.id}", ruling, initials="hr"), **seen_fields(disputed(w.game))},
    )
    assert done.status_code == 302
    statuses = {r.card.entry_id: r for r in CardRow.objects.filter(game=w.game)}
    assert {r.status for r in statuses.values()} == {Status.VERIFIED}
    assert statuses[w.b.id].rounds[3]["points"] == [1, 1] and statuses[w.a.id].total_points == 7
    assert points_of(w.stage, w.a) == 7 and points_of(w.stage, w.b) == 1
    assert "No dispute is open." in client.get(w.url("disputes")).content.decode()


def test_void_needs_a_reason_and_other_needs_words(client, w):
    row = fill_row(card=card_for(w.stage, w.a), game=w.game, rounds=WIN, user=w.users["ann"])
    validate_row(row=row, opponent_number=str(w.b.player.number), initials="B", user=w.users["bob"])
    login(client, w, "table")
    url = w.url("void_card", card=row.card)
    response = client.post(url, {"reason": "other", "other": " "}, headers=HX)
    body = response.content.decode()
    assert "Say why the card is voided." in body and "<html" not in body
    assert 'value="other" required checked' in body and "Verify card" in body  # kept, in place
    plain = client.post(url, {"reason": "other", "other": "", "next": w.url("table") + "?x=1"})
    assert plain.status_code == 200 and b"Say why the card is voided." in plain.content
    assert b"<html" in plain.content and b'value="other" required checked' in plain.content
    assert w.row().status == Status.VALIDATED
    response = client.post(url, {"reason": "illegible", **seen_fields([row])}, headers=HX)
    assert response.status_code == 200
    # one row: "1 row", not "1 rows"
    assert b"Voided the card of Ann Ashby (Not legible; 1 row)." in response.content
    row = w.row()
    assert row.status == Status.VOIDED and row.void_reason == "Not legible"
    body = login(client, w, "ann").get(w.url("card")).content.decode()
    assert "Voided: Not legible" in body and "Fill the row" not in body


def test_table_cannot_verify_a_card_missing_the_full_name(client, w):
    """WCC: cards missing full name or ID may be voided at the scoring table."""
    row = fill_row(card=card_for(w.stage, w.a), game=w.game, rounds=WIN, user=w.users["ann"])
    validate_row(row=row, opponent_number=str(w.b.player.number), initials="B", user=w.users["bob"])
    w.a.player.last_name = ""
    w.a.player.save()
    login(client, w, "table")
    body = client.get(w.url("table")).content.decode()
    assert "Card header incomplete: full name of player" in body
    response = client.post(w.url("verify_card", card=row.card), headers=HX)
    assert b"full name or ID number is missing" in response.content
    assert b"Void card" in response.content and w.row().status == Status.VALIDATED


def test_table_filters_by_stage_and_round_of_play(client, w):
    later = Match.objects.create(stage=w.stage, entry_a=w.a, entry_b=w.b, round_of_play=2)
    game2 = Game.objects.create(match=later, number=1)
    card = card_for(w.stage, w.a)
    for game in (w.game, game2):
        row = fill_row(card=card, game=game, rounds=WIN, user=w.users["ann"])
        validate_row(
            row=row, opponent_number=str(w.b.player.number), initials="B", user=w.users["bob"]
        )
    login(client, w, "table")
    everything = client.get(w.url("table")).content.decode()
    assert everything.count("phone (ID ") == 2
    one = client.get(w.url("table"), {"stage": w.stage.id, "round_of_play": 2}).content.decode()
    assert one.count("phone (ID ") == 1 and "1 card waiting" in one
    bad = client.get(w.url("table"), {"round_of_play": 9})
    assert bad.status_code == 200 and b"No match is drawn in round of play 9" in bad.content


def build_queue(cards: int) -> tuple[str, User]:
    """A tournament whose scoring table has ``cards`` cards waiting, each with one row."""
    stage = StageFactory()
    t = stage.category.tournament
    clerk = User.objects.create_user(f"clerk-{t.slug}")
    TournamentRole.objects.create(tournament=t, user=clerk, role=Role.SCORING_TABLE)
    for n in range(cards):
        # The players are not the clerk: nobody verifies a card of their own game.
        a = EntryFactory(
            category=stage.category, player__user=User.objects.create_user(f"p-{t.slug}-{n}")
        )
        rival = User.objects.create_user(f"rival-{t.slug}-{n}")
        b = EntryFactory(category=stage.category, player__user=rival)
        board = Board.objects.create(tournament=t, number=n + 1)
        match = Match.objects.create(stage=stage, entry_a=a, entry_b=b, board=board)
        game = Game.objects.create(match=match, number=1)
        row = fill_row(card=card_for(stage, a), game=game, rounds=WIN, user=a.player.user)
        validate_row(row=row, opponent_number=str(b.player.number), initials="X", user=rival)
    return reverse("scoring:cards:table", args=[t.slug]), clerk


def test_table_page_queries_do_not_grow_with_the_cards(client):
    counts = []
    for size in (2, 12):
        url, clerk = build_queue(size)
        client.force_login(clerk)
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url)
        assert response.status_code == 200
        assert response.content.decode().count("Verify card</button>") == size
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1], counts


def test_dispute_queue_queries_do_not_grow_with_the_games(client):
    counts = []
    for size in (1, 6):
        stage = StageFactory()
        t = stage.category.tournament
        head = User.objects.create_user(f"head-{t.slug}")
        TournamentRole.objects.create(tournament=t, user=head, role=Role.HEAD_REFEREE)
        for n in range(size):
            # Each player signs the other's card on their own login (nobody signs their own).
            users = [User.objects.create_user(f"p{n}{side}-{t.slug}") for side in "ab"]
            a, b = (EntryFactory(category=stage.category, player__user=u) for u in users)
            game = Game.objects.create(
                match=Match.objects.create(stage=stage, entry_a=a, entry_b=b)
            )
            for entry, other, signer in ((a, b, users[1]), (b, a, users[0])):
                # each claims the same win: they disagree
                row = fill_row(card=card_for(stage, entry), game=game, rounds=WIN, user=head)
                validate_row(
                    row=row, opponent_number=str(other.player.number), initials="X", user=signer
                )
            assert CardRow.objects.filter(game=game, status=Status.DISPUTED).count() == 2
        client.force_login(head)
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(reverse("scoring:cards:disputes", args=[t.slug]))
        assert response.content.decode().count('class="dispute"') == size
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1], counts


def test_pages_need_a_login_and_refuse_strangers_readably(client, w):
    for url in (w.url("card"), w.url("table"), w.url("disputes"), w.url("index")):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    login(client, w, "eve")
    refused = client.get(w.url("card"))
    assert refused.status_code == 403 and b"Not allowed" in refused.content
    assert b"Only the player, their opponents and officials" in refused.content
    assert client.get(w.url("table")).status_code == 403
    login(client, w, "bob")  # the opponent sees the card they sign
    assert client.get(w.url("card")).status_code == 200


def test_unknown_card_or_game_is_404_not_500(client, w):
    login(client, w, "ref")
    other = StageFactory()
    stranger = EntryFactory(category=other.category)
    slug = w.tournament.slug
    assert (
        client.get(reverse("scoring:cards:card", args=[slug, other.id, w.a.id])).status_code == 404
    )
    assert (
        client.get(reverse("scoring:cards:card", args=[slug, w.stage.id, stranger.id])).status_code
        == 404
    )
    wrong_game = reverse("scoring:cards:fill_row", args=[slug, w.stage.id, w.a.id, w.game.id + 99])
    assert client.post(wrong_game, {}).status_code == 404


def test_index_lists_my_cards_and_officials_see_every_card(client, w):
    body = login(client, w, "ann").get(w.url("index")).content.decode()
    assert w.url("card") in body and "Scoring table" not in body
    body = login(client, w, "table").get(w.url("index")).content.decode()
    assert w.url("card") in body and w.url("card", entry=w.b) in body and "Scoring table" in body


def open_forms(body: str) -> list[int]:
    """The games whose row form the card shows unfolded."""
    return [
        int(game)
        for game, section in re.findall(r'<section [^>]*id="game-(\d+)"(.*?)</section>', body, re.S)
        if re.search(r'<details class="edit" open>', section)
    ]


def test_card_opens_only_the_next_game_to_fill(client, w):
    """A card of four games on a phone: the game about to be written is open, the others are
    folded behind their "Fill the row" bar (each form alone is a phone screen of boxes)."""
    games = [w.game]
    for round_of_play in (2, 3, 4):
        match = Match.objects.create(
            stage=w.stage, entry_a=w.a, entry_b=w.b, round_of_play=round_of_play
        )
        games.append(Game.objects.create(match=match, number=1))
    login(client, w, "ann")
    body = client.get(w.url("card")).content.decode()
    assert open_forms(body) == [games[0].id]
    assert body.count("<summary>Fill the row</summary>") == 4
    for game in games:  # every form is there, folded or not: no game is out of reach
        assert f'name="g{game.id}-r1_winner"' in body

    fill_row(card=card_for(w.stage, w.a), game=games[0], rounds=WIN, user=w.users["ann"])
    body = client.get(w.url("card")).content.decode()
    assert open_forms(body) == [games[1].id], "the next game opens once the first is written"
    assert "<summary>Change the row</summary>" in body

    # A refused save opens its own row again, with what was typed.
    bad = form_data(f"g{games[2].id}", [{"points": [2, 2], "twenties": [0, 0]}], version=0)
    fill_url = reverse(
        "scoring:cards:fill_row", args=[w.tournament.slug, w.stage.id, w.a.id, games[2].id]
    )
    body = client.post(fill_url, bad).content.decode()
    assert set(open_forms(body)) == {games[1].id, games[2].id}


def test_verifying_a_card_updates_the_count_of_cards_waiting(client, w):
    """The count sits above the cards; the verified card's answer carries the new count for it
    (an out-of-band swap), counted with the table's filters."""
    later = Match.objects.create(stage=w.stage, entry_a=w.a, entry_b=w.b, round_of_play=2)
    game2 = Game.objects.create(match=later, number=1)
    rows = [
        fill_row(card=card_for(w.stage, w.a), game=w.game, rounds=WIN, user=w.users["ann"]),
        fill_row(card=card_for(w.stage, w.b), game=w.game, rounds=mirror(WIN), user=w.users["bob"]),
        fill_row(card=card_for(w.stage, w.a), game=game2, rounds=WIN, user=w.users["ann"]),
    ]
    # The first game's two own cards agree: each validates the other. Game 2 waits for Bob.
    assert {r.status for r in CardRow.objects.filter(game=w.game)} == {Status.VALIDATED}
    rows[:2] = [CardRow.objects.get(pk=r.pk) for r in rows[:2]]
    validate_row(
        row=rows[2], opponent_number=str(w.b.player.number), initials="X", user=w.users["bob"]
    )
    login(client, w, "table")
    page = client.get(w.url("table")).content.decode()
    assert '<p class="count" id="queue-count">2 cards waiting.</p>' in page
    round_two = w.url("table") + f"?stage={w.stage.id}&round_of_play=2"
    assert "1 card waiting." in client.get(round_two).content.decode()

    answer = client.post(
        w.url("verify_card", card=rows[1].card),
        {"next": w.url("table"), **seen_fields(waiting(rows[1].card))},
        headers=HX,
    ).content.decode()
    assert answer.lstrip().startswith('<article class="table-card result done" id="card-')
    assert '<p class="count" id="queue-count" hx-swap-oob="true">1 card waiting.</p>' in answer
    # With the round 2 filter, Ann's card (rows in rounds 1 and 2) is the one left.
    answer = client.post(
        w.url("verify_card", card=rows[0].card),
        {"next": round_two, **seen_fields(waiting(rows[0].card))},
        headers=HX,
    ).content.decode()
    assert 'hx-swap-oob="true">0 cards waiting.</p>' in answer


def test_dispute_table_writes_every_score_with_one_dash(client, w):
    card_a, card_b = card_for(w.stage, w.a), card_for(w.stage, w.b)
    ra = fill_row(card=card_a, game=w.game, rounds=WIN, user=w.users["ann"])
    validate_row(row=ra, opponent_number=str(w.b.player.number), initials="BB", user=w.users["bob"])
    # Bob's card, his side first: he says he lost round 4 by 35 to 60 on the board.
    claim = [*mirror(WIN[:3]), {"points": [0, 2], "twenties": [1, 2], "score": [35, 60]}]
    fill_row(
        card=card_b, game=w.game, rounds=claim, user=w.users["bob"], confirm_contradiction=True
    )
    body = login(client, w, "ref").get(w.url("disputes")).content.decode()
    table = re.search(r'<table class="compare">.*?</table>', body, re.S).group(0)
    assert f"2{DASH}0, 20s 2{DASH}1, board 60{DASH}35" in table
    assert f"2{DASH}0, 20s 3{DASH}1" in table
    scores = re.findall(r"\d+\s*[-\u2013]\s*\d+", re.sub(r"<[^>]+>", " ", table))
    assert scores and all(DASH in s and "-" not in s for s in scores), scores


def test_a_referee_enters_a_tied_playoff_game_round_after_round_on_the_page(client, w):
    """WCC Scoring: a championship game tied after 4 rounds plays a 5th, and another while the
    5th is tied: the card page offers the next line and says which round is missing."""
    w.game.is_playoff = True
    w.game.save()
    login(client, w, "ref")
    tied = [
        *WIN[:2],
        {"points": [0, 2], "twenties": [0, 1]},
        {"points": [0, 2], "twenties": [0, 0]},
    ]
    assert client.post(w.url("fill_row"), form_data(w.prefix(), tied, version=0)).status_code == 302
    body = client.get(w.url("card")).content.decode()
    assert f'name="{w.prefix()}-r5_winner"' in body
    assert f'name="{w.prefix()}-r6_winner"' not in body
    assert "Round 5 is needed: the game is tied 4-4" in body
    level = [*tied, {"points": [1, 1], "twenties": [1, 1]}]
    saved = client.post(w.url("fill_row"), form_data(w.prefix(), level, version=1))
    assert saved.status_code == 302
    body = client.get(w.url("card")).content.decode()
    assert f'name="{w.prefix()}-r6_winner"' in body
    assert "Round 6 is needed: the game is tied 5-5" in body
    won = [*level, {"points": [2, 0], "twenties": [2, 0]}]
    assert client.post(w.url("fill_row"), form_data(w.prefix(), won, version=2)).status_code == 302
    assert len(w.row().rounds) == 6
    too_many = client.post(
        w.url("fill_row"), form_data(w.prefix(), [*won, WIN[0]], version=3)
    ).content.decode()
    assert "round 7 is one too many" in too_many
    assert len(w.row().rounds) == 6
