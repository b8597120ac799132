"""Paper scorecards entered at the scoring table (WCC cards are paper): a referee or the table
types a row in with the opponent's ID and initials as written on the card; where the event asks
for it, a second staff member confirms the row before it counts."""

import re

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from scoring.models import CardRow
from scoring.scorecards.services import (
    ScorecardError,
    card_for,
    confirm_paper_row,
    enter_paper_row,
    fill_row,
    validate_row,
)
from tests.factories import CategoryFactory, EntryFactory, StageFactory
from tournaments.forms import TournamentForm
from tournaments.models import TournamentRole
from tournaments.services.draws import draw_knockout
from tournaments.services.setup import update_tournament

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role
Status = CardRow.Status

WIN = [{"points": [2, 0], "twenties": [3, 1]}] * 3 + [{"points": [0, 2], "twenties": [1, 2]}]


def _counting(event) -> None:
    t = event.tournament
    t.count_validated_cards = True
    t.save()


def _enter(event, user, *, number=None, rounds=WIN, version=None):
    return enter_paper_row(
        card=card_for(event.stage, event.player),
        game=event.game,
        rounds=rounds,
        opponent_number=str(event.opponent.player.number) if number is None else number,
        initials="ob",
        user=user,
        version=version,
    )


def test_a_paper_row_is_validated_on_paper_and_counts(small_event):
    e = small_event
    _counting(e)
    row = _enter(e, e.users["scoring-table"])
    assert row.status == Status.VALIDATED
    assert row.validated_how == CardRow.ValidatedHow.PAPER
    assert row.entered_by == e.users["scoring-table"]
    assert (row.validated_number, row.validated_initials) == (str(e.opponent.player.number), "OB")
    assert e.game.rounds.count() == 4


def test_a_referee_may_enter_a_paper_row_over_an_unvalidated_phone_row(small_event):
    e = small_event
    row = fill_row(
        card=card_for(e.stage, e.player), game=e.game, rounds=WIN[:2], user=e.users["player"]
    )
    row = _enter(e, e.users["referee"], version=row.version)
    assert row.status == Status.VALIDATED and len(row.rounds) == 4


@pytest.mark.parametrize("role", ["player", "opponent", "other-player", "organizer"])
def test_only_referees_and_the_table_enter_paper_rows(small_event, role):
    e = small_event
    with pytest.raises(PermissionDenied):
        _enter(e, e.users[role])
    assert not CardRow.objects.filter(game=e.game).exists()


def test_a_wrong_opponent_id_is_refused_and_nothing_saved(small_event):
    e = small_event
    with pytest.raises(ScorecardError, match="not the opponent's"):
        _enter(e, e.users["scoring-table"], number=str(e.other_player.player.number))
    with pytest.raises(ScorecardError, match="not the opponent's"):
        _enter(e, e.users["scoring-table"], number=str(e.player.player.number))
    with pytest.raises(ScorecardError, match="ID number is missing"):
        _enter(e, e.users["scoring-table"], number=" ")
    assert not CardRow.objects.filter(game=e.game).exists()


def test_an_incomplete_paper_row_is_refused(small_event):
    e = small_event
    with pytest.raises(ScorecardError, match="round 4") as error:
        _enter(e, e.users["referee"], rounds=WIN[:3])
    assert error.value.round == 4
    assert not CardRow.objects.filter(game=e.game).exists()


def test_a_row_validated_on_the_phone_is_not_overwritten_from_paper(small_event):
    e = small_event
    row = fill_row(
        card=card_for(e.stage, e.player), game=e.game, rounds=WIN, user=e.users["player"]
    )
    row = validate_row(
        row=row,
        opponent_number=str(e.opponent.player.number),
        initials="OB",
        user=e.users["opponent"],
        version=row.version,
    )
    assert row.validated_how == CardRow.ValidatedHow.PHONE
    with pytest.raises(ScorecardError, match="correction"):
        _enter(e, e.users["referee"], version=row.version)


def test_with_confirmation_on_a_paper_row_counts_only_once_another_staff_member_confirms(
    small_event,
):
    e = small_event
    _counting(e)
    e.tournament.paper_rows_need_confirmation = True
    e.tournament.save()
    row = _enter(e, e.users["scoring-table"])
    assert row.status == Status.AWAITING and row.validated_at is None
    assert not e.game.rounds.exists()
    with pytest.raises(PermissionDenied, match="another staff member must confirm"):
        confirm_paper_row(row=row, user=e.users["scoring-table"])
    with pytest.raises(PermissionDenied):
        confirm_paper_row(row=row, user=e.users["opponent"])
    with pytest.raises(ScorecardError, match="awaits a second staff member"):
        fill_row(
            card=row.card, game=e.game, rounds=WIN, user=e.users["player"], version=row.version
        )
    assert not e.game.rounds.exists()
    row = confirm_paper_row(row=row, user=e.users["referee"], version=row.version)
    assert row.status == Status.VALIDATED
    assert (row.entered_by, row.confirmed_by) == (e.users["scoring-table"], e.users["referee"])
    assert e.game.rounds.count() == 4
    with pytest.raises(ScorecardError, match="not awaiting confirmation"):
        confirm_paper_row(row=row, user=e.users["head-referee"])


@pytest.fixture
def playoff(db):
    category = CategoryFactory()
    stage = StageFactory(category=category, kind="knockout", best_of=1, name="Playoff")
    entries = [EntryFactory(category=category) for _ in range(4)]
    draw_knockout(stage, entries)
    table = User.objects.create_user("table")
    TournamentRole.objects.create(
        tournament=category.tournament, user=table, role=Role.SCORING_TABLE
    )
    return stage, stage.matches.get(bracket_slot="SF1"), table


WON, TIED, LOST = (
    {"points": [2, 0], "twenties": [2, 0]},
    {"points": [1, 1], "twenties": [1, 1]},
    {"points": [0, 2], "twenties": [0, 2]},
)


def test_a_tied_playoff_game_from_paper_needs_its_sixth_round(playoff):
    stage, semi, table = playoff
    game = semi.games.get()
    card = card_for(stage, semi.entry_a)
    number = str(semi.entry_b.player.number)
    for rounds, needed in (([WON, LOST, TIED, TIED], 5), ([WON, LOST, TIED, TIED, TIED], 6)):
        with pytest.raises(ScorecardError, match=f"round {needed} is needed"):
            enter_paper_row(
                card=card,
                game=game,
                rounds=rounds,
                opponent_number=number,
                initials="X",
                user=table,
            )
    row = enter_paper_row(
        card=card,
        game=game,
        rounds=[WON, LOST, TIED, TIED, TIED, WON],
        opponent_number=number,
        initials="X",
        user=table,
    )
    assert row.status == Status.VALIDATED and len(row.rounds) == 6


# The pages ----------------------------------------------------------------------------------


def _post_row(client, e, *, number, rounds=WIN, version=0):
    data = {"paper-version": version, "paper-opponent_number": number, "paper-initials": "ob"}
    for n, r in enumerate(rounds, start=1):
        data[f"paper-r{n}_points_own"], data[f"paper-r{n}_points_opp"] = r["points"]
        data[f"paper-r{n}_twenties_own"], data[f"paper-r{n}_twenties_opp"] = r["twenties"]
    url = reverse(
        "scoring:cards:paper_row", args=[e.tournament.slug, e.stage.id, e.player.id, e.game.id]
    )
    return client.post(url, data)


def test_the_table_finds_a_card_by_its_id_number_and_enters_it(client, small_event):
    e = small_event
    _counting(e)
    c = e.login(client, "scoring-table")
    table = c.get(reverse("scoring:cards:table", args=[e.tournament.slug])).content.decode()
    paper = reverse("scoring:cards:paper", args=[e.tournament.slug])
    assert paper in table
    number = e.game.match.round_of_play
    found = c.get(
        paper, {"stage": e.stage.id, "round_of_play": number, "who": e.player.player.number}
    )
    body = found.content.decode()
    assert found.status_code == 200 and 'name="paper-opponent_number"' in body
    assert body.count("autofocus") == 1 and e.opponent.name in body
    none = c.get(paper, {"stage": e.stage.id, "round_of_play": number, "who": "99999"})
    assert "No card of" in none.content.decode()

    wrong = _post_row(c, e, number=str(e.other_player.player.number))
    assert wrong.status_code == 400 and "not the opponent&#x27;s" in wrong.content.decode()
    assert not CardRow.objects.filter(game=e.game).exists()
    saved = _post_row(c, e, number=str(e.opponent.player.number))
    assert saved.status_code == 302 and f"round_of_play={number}" in saved["Location"]
    row = CardRow.objects.get(game=e.game, card__entry=e.player)
    assert (row.status, row.validated_how) == (Status.VALIDATED, "paper")
    assert e.game.rounds.count() == 4
    queue = c.get(reverse("scoring:cards:table", args=[e.tournament.slug])).content.decode()
    assert f"paper (ID {e.opponent.player.number}, initials OB), entered by" in queue


def test_a_paper_row_awaits_a_second_staff_member_on_the_table_page(client, small_event):
    e = small_event
    e.tournament.paper_rows_need_confirmation = True
    e.tournament.save()
    c = e.login(client, "scoring-table")
    assert _post_row(c, e, number=str(e.opponent.player.number)).status_code == 302
    row = CardRow.objects.get(game=e.game, card__entry=e.player)
    assert row.status == Status.AWAITING
    table = reverse("scoring:cards:table", args=[e.tournament.slug])
    confirm = reverse("scoring:cards:confirm_paper_row", args=[e.tournament.slug, row.id])
    own = c.get(table).content.decode()
    assert "awaiting confirmation by another staff member" in own and confirm not in own
    c.post(confirm, {"version": row.version, "next": table})
    row.refresh_from_db()
    assert row.status == Status.AWAITING
    c.logout()
    r = e.login(client, "referee")
    assert confirm in r.get(table).content.decode()
    done = r.post(confirm, {"version": row.version, "next": table})
    assert done.status_code == 302 and done["Location"] == table
    row.refresh_from_db()
    assert (row.status, row.confirmed_by) == (Status.VALIDATED, e.users["referee"])
    assert "confirmed by" in r.get(table).content.decode()


@pytest.mark.parametrize("role", ["player", "opponent", "organizer"])
def test_players_cannot_open_the_paper_page_or_post_a_row(client, small_event, role):
    e = small_event
    c = e.login(client, role)
    assert c.get(reverse("scoring:cards:paper", args=[e.tournament.slug])).status_code == 403
    assert _post_row(c, e, number=str(e.opponent.player.number)).status_code == 403
    assert not CardRow.objects.filter(game=e.game).exists()


def test_the_organizer_sets_whether_paper_rows_need_confirmation(small_event):
    """The setting sits with "count validated cards" on the tournament's settings (the page and
    the API share the service)."""
    assert "paper_rows_need_confirmation" in TournamentForm().fields
    t = update_tournament(tournament=small_event.tournament, paper_rows_need_confirmation=True)
    t.refresh_from_db()
    assert t.paper_rows_need_confirmation


def test_the_paper_page_offers_the_line_a_tied_playoff_game_still_needs(client, playoff):
    stage, semi, table = playoff
    client.force_login(table)
    game = semi.games.get()
    data = {"paper-version": 0, "paper-opponent_number": semi.entry_b.player.number}
    data["paper-initials"] = "X"
    for n, winner in enumerate(["own", "opp", "tie", "tie"], start=1):
        data[f"paper-r{n}_winner"] = winner  # the rounds WON, LOST, TIED, TIED
    url = reverse(
        "scoring:cards:paper_row",
        args=[stage.category.tournament.slug, stage.id, semi.entry_a.id, game.id],
    )
    response = client.post(url, data)
    body = response.content.decode()
    assert response.status_code == 400 and "round 5 is needed" in body
    assert 'name="paper-r5_winner"' in body
    assert re.search(r'name="paper-r1_winner" value="own"[^>]*checked', body)
    assert not CardRow.objects.filter(game=game).exists()
