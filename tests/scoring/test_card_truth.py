"""A player's own card tells the official truth of each game, whoever's card or paper decided it.

The official result (``tournaments.Round``) is written from whichever row counts: the player's own
row, the opponent's row of the game (signed by the player), a paper card typed in by the table,
or the officials themselves. The player's card shows that result and where it came from instead
of "Not filled"; a game the match no longer needs (game 3 of a best of 3 won 2-0) says so and
takes no row, on the page and in the service alike; a closed stage's rows are read only and say
why; a forfeit keeps its own words.
"""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.engine import round_data
from scoring.models import CardRow
from scoring.progression.services import advance
from scoring.results.services import record_game
from scoring.rulings import services as rulings
from scoring.scorecards.services import (
    ScorecardError,
    card_for,
    enter_paper_row,
    fill_row,
    resolve_dispute,
    validate_row,
    verify_card,
)
from tests.events import OPPONENT, PLAYER, WIN, SmallEvent, build_small_event
from tests.factories import (
    CardRowFactory,
    CategoryFactory,
    EntryFactory,
    StageFactory,
    UserFactory,
)
from tournaments.models import Entry, Game, Match, Stage
from tournaments.services.draws import draw_knockout

pytestmark = pytest.mark.django_db

#: The dash between each side's figures, as every card prints them.
D = "\u2013"

#: Four rounds in the match's order of sides, every one won by entry A.
A_WINS = [round_data(points=(2, 0), twenties=(2, 1))] * 4
#: Four rounds in the match's order of sides, every one won by entry B.
B_WINS = [round_data(points=(0, 2), twenties=(1, 2))] * 4


def page_of(client, event_slug: str, stage: Stage, entry: Entry) -> str:
    """The card page as its words read (entities decoded, so that "Bob's" reads as typed)."""
    url = reverse("scoring:cards:card", args=[event_slug, stage.id, entry.id])
    response = client.get(url)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def row_html(page: str, game: Game) -> str:
    """The part of the card page that is ``game``'s row."""
    found = re.search(
        rf'<section class="card-row[^"]*" id="game-{game.id}">(.*?)</section>', page, re.S
    )
    assert found, f"no row for game {game.id} on the page"
    return found.group(1)


def badges(row: str) -> list[str]:
    return [b.strip() for b in re.findall(r'<span class="badge[^"]*">(.*?)</span>', row, re.S)]


def signed_by_opponent(event: SmallEvent) -> CardRow:
    """The player's row of their game (a 6-2 win), filled and signed by the opponent."""
    row = fill_row(
        card=card_for(event.stage, event.player),
        game=event.game,
        rounds=WIN,
        user=event.users[PLAYER],
    )
    return validate_row(
        row=row,
        opponent_number=str(event.opponent.player.number),
        initials="OP",
        user=event.users[OPPONENT],
    )


# --- decided from a card ------------------------------------------------------------------------


def test_a_game_decided_from_the_opponents_card_shows_on_the_players_own_card(small_event, client):
    """The opponent never wrote their row: their own card shows the official result from the
    player's card, who validated it (the opponent themselves, by name) and that the table
    verified it; no "Not filled", no form to fill a game that is decided."""
    e = small_event
    signed_by_opponent(e)
    before = row_html(
        page_of(e.login(client, OPPONENT), e.tournament.slug, e.stage, e.opponent), e.game
    )
    # Signed, not yet verified: nothing is official, the opponent's row is still theirs to fill.
    assert "Not filled" in badges(before) and "Official result" not in before
    verify_card(card=card_for(e.stage, e.player), user=e.users["scoring-table"])

    row = row_html(page_of(client, e.tournament.slug, e.stage, e.opponent), e.game)
    assert badges(row) == [f"Official: 2{D}6 (from {e.player.name}'s card)"]
    assert "Not filled" not in row
    # the player may still write their own row (a row that says otherwise goes to the head
    # referee), but the decided game is not the next one the card opens to fill
    assert '<details class="edit">' in row and '<details class="edit" open' not in row
    number = e.opponent.player.number
    assert (
        f"Decided from {e.player.name}'s card, validated by {e.opponent.name} "
        f"(ID {number}, initials OP). Verified at the scoring table."
    ) in row
    # the official figures, the card owner's first, as every row of a card reads
    assert f"<strong>2</strong>{D}6 points" in row and f"<strong>5</strong>{D}10 20s" in row
    assert row.count("rounds-view") == 1 and row.count("<tr") == 5  # a head, four rounds


def test_the_players_own_card_agreeing_says_the_result_is_from_this_card(small_event, client):
    e = small_event
    e.play_and_verify()
    row = row_html(page_of(e.login(client, PLAYER), e.tournament.slug, e.stage, e.player), e.game)
    assert badges(row) == ["Verified at the scoring table", f"Official: 6{D}2 (from this card)"]
    assert (
        f"Decided from this card, validated by {e.opponent.name} "
        f"(ID {e.opponent.player.number}, initials OP)."
    ) in row
    # the card's row and the official result agree: the rounds are shown once, no warning
    assert row.count("rounds-view") == 1 and "says otherwise" not in row


def test_an_own_row_that_says_otherwise_is_shown_beside_the_official_result(small_event, client):
    """The player's row says the opposite of the result decided from the opponent's card: both
    are shown, and the card says which one counts."""
    e = small_event
    theirs = fill_row(
        card=card_for(e.stage, e.opponent),
        game=e.game,
        rounds=[round_data(points=(2, 0), twenties=(2, 1))] * 4,
        user=e.users[OPPONENT],
    )
    validate_row(
        row=theirs,
        opponent_number=str(e.player.player.number),
        initials="PL",
        user=e.users[PLAYER],
    )
    verify_card(card=card_for(e.stage, e.opponent), user=e.users["scoring-table"])
    CardRowFactory(card=card_for(e.stage, e.player), game=e.game, rounds=WIN)
    row = row_html(page_of(e.login(client, PLAYER), e.tournament.slug, e.stage, e.player), e.game)
    assert badges(row) == ["Filled", f"Official: 0{D}8 (from {e.opponent.name}'s card)"]
    assert f"validated by {e.player.name} (ID {e.player.player.number}, initials PL)" in row
    assert (
        "This card's row says otherwise: the official result above is the one that counts." in row
    )
    assert row.count("rounds-view") == 2  # the official rounds, then the card's own row


def test_a_dispute_the_head_referee_settled_says_so(small_event, client):
    e = small_event
    for entry, rounds in ((e.player, WIN), (e.opponent, WIN)):  # each claims the win
        CardRowFactory(
            card=card_for(e.stage, entry),
            game=e.game,
            rounds=rounds,
            status=CardRow.Status.DISPUTED,
        )
    resolve_dispute(game=e.game, rounds_a=A_WINS, user=e.users["head-referee"], initials="hr")
    row = row_html(
        page_of(e.login(client, OPPONENT), e.tournament.slug, e.stage, e.opponent), e.game
    )
    assert badges(row) == ["Verified at the scoring table", f"Official: 0{D}8 (from this card)"]
    assert "Settled by the head referee (initials HR), on this card." in row


# --- paper --------------------------------------------------------------------------------------


def test_a_game_entered_from_paper_by_the_table_says_so_on_the_players_card(small_event, client):
    e = small_event
    table = e.users["scoring-table"]
    table.first_name, table.last_name = "Tess", "Table"
    table.save()
    opponents_card = card_for(e.stage, e.opponent)
    enter_paper_row(
        card=opponents_card,
        game=e.game,
        rounds=[round_data(points=(0, 2), twenties=(1, 3))] * 4,
        opponent_number=str(e.player.player.number),
        initials="PL",
        user=table,
    )
    verify_card(card=opponents_card, user=e.users["head-referee"])
    row = row_html(page_of(e.login(client, PLAYER), e.tournament.slug, e.stage, e.player), e.game)
    assert badges(row) == [f"Official: 8{D}0 (from paper)"]
    assert (
        f"Entered from paper by the table ({e.opponent.name}'s card, signed ID "
        f"{e.player.player.number}, initials PL; entered by Tess Table). Verified at the "
        "scoring table."
    ) in row
    assert "Not filled" not in row and '<details class="edit" open' not in row


def test_a_result_recorded_by_the_officials_alone_says_so(small_event, client):
    e = small_event
    record_game(e.game, A_WINS)
    row = row_html(page_of(e.login(client, PLAYER), e.tournament.slug, e.stage, e.player), e.game)
    assert badges(row) == [f"Official: 8{D}0"]
    assert "Recorded by the officials." in row


# --- games the match does not need --------------------------------------------------------------


def best_of(n: int) -> tuple[Match, dict[str, object]]:
    """A final of two players, best of ``n``, drawn as the organizer draws it; both players
    have logins."""
    category = CategoryFactory(name=f"Best of {n}")
    for k in range(2):
        EntryFactory(category=category, checked_in=True, seed=k + 1, player__number=700 + k)
    stage = StageFactory(
        category=category, name="Final", kind=Stage.Kind.KNOCKOUT, order=1, best_of=n
    )
    draw_knockout(stage)
    match = Match.objects.get(stage=stage)
    users = {}
    for side, entry in (("a", match.entry_a), ("b", match.entry_b)):
        users[side] = UserFactory(username=f"final-{n}-{side}")
        entry.player.user = users[side]
        entry.player.save(update_fields=["user"])
    return match, users


@pytest.mark.parametrize(("n", "won"), [(3, 2), (5, 3)])
def test_games_not_needed_once_the_match_is_won_say_so_and_take_no_row(client, n, won):
    """Best of 3 won 2-0, best of 5 won 3-0: the games after say that the match does not need
    them, on the winner's card and the loser's; the step refuses a row for them, on the page
    and in the service, in the same words."""
    match, users = best_of(n)
    games = list(match.games.order_by("number"))
    assert len(games) == n
    for game in games[:won]:
        record_game(game, A_WINS)
    slug = match.stage.category.tournament.slug
    client.force_login(users["b"])
    page = page_of(client, slug, match.stage, match.entry_b)
    words = (
        f"is not needed: {match.entry_a.name} won the match {won}{D}0 ({match}, round of play "
        f"{match.round_of_play}), so it is not played and nothing is written on it."
    )
    for game in games[:won]:
        assert badges(row_html(page, game)) == [f"Official: 0{D}8"]
    for game in games[won:]:
        row = row_html(page, game)
        assert badges(row) == ["Not needed"]
        assert f"Game {game.number} {words}" in row
        assert "Fill the row" not in row and "Not filled" not in row
        assert row.count(words) == 1  # said once, not again as the reason of a missing form
    # the service refuses the row, with the step's words
    with pytest.raises(ScorecardError, match=re.escape(f"Game {won + 1} {words}")):
        fill_row(
            card=card_for(match.stage, match.entry_b),
            game=games[won],
            rounds=B_WINS,
            user=users["b"],
        )
    # and the page's post says the same, next to the row
    url = reverse(
        "scoring:cards:fill_row", args=[slug, match.stage.id, match.entry_b.id, games[won].id]
    )
    data = {"version": 0}
    for k, r in enumerate(B_WINS, start=1):
        data |= {f"r{k}_points_own": r["points"][1], f"r{k}_points_opp": r["points"][0]}
    response = client.post(url, {f"g{games[won].id}-{key}": v for key, v in data.items()})
    assert f"Game {won + 1} {words}" in html.unescape(response.content.decode())
    # and the API: a conflict with the stored state, in the same words
    api = APIClient()
    api.force_authenticate(users["b"])
    card = card_for(match.stage, match.entry_b)
    body = {"game": games[won].id, "rounds": [dict(r) for r in B_WINS], "version": 0}
    answer = api.post(f"/api/scorecards/{card.id}/fill/", body, format="json")
    assert answer.status_code == 409
    assert answer.json()["detail"] == f"Game {won + 1} {words}"
    assert not CardRow.objects.filter(game__in=games[won:]).exists()


def test_the_last_game_is_needed_while_the_match_is_level(client):
    match, users = best_of(3)
    one, two, three = match.games.order_by("number")
    record_game(one, A_WINS)
    record_game(two, B_WINS)
    client.force_login(users["b"])
    page = page_of(client, match.stage.category.tournament.slug, match.stage, match.entry_b)
    row = row_html(page, three)
    assert badges(row) == ["Not filled"] and "Fill the row" in row and "not needed" not in row


# --- closed stages ------------------------------------------------------------------------------


def closed_event() -> SmallEvent:
    """Four players, one game each; the player filled their row (not validated), the results
    were recorded, and the preliminary advanced to the final: its results are closed."""
    event = build_small_event(players=4, games_per_entry=1)
    event.stage.advance_count = 2
    event.stage.save()
    StageFactory(category=event.category, name="Final", kind=Stage.Kind.KNOCKOUT, order=2)
    for n, match in enumerate(Match.objects.filter(stage=event.stage).order_by("id")):
        # entry A wins each game, with 20s that set the winners apart (no shoot-out)
        record_game(match.games.get(), [round_data(points=(2, 0), twenties=(2 + n, 1))] * 4)
    CardRowFactory(card=card_for(event.stage, event.opponent), game=event.game, rounds=B_WINS)
    advance(event.stage)
    return event


@pytest.mark.parametrize("who", [PLAYER, OPPONENT, "referee"])
def test_a_closed_stages_rows_are_read_only_and_say_why(client, who):
    e = closed_event()
    reason = "Preliminary is closed: it advanced to Final on "
    e.login(client, who)
    for entry in (e.player, e.opponent):
        row = row_html(page_of(client, e.tournament.slug, e.stage, entry), e.game)
        assert "Read only" in badges(row)
        assert f'<p class="why-not">{reason}' in row
        assert "Only the head referee can change its results" in row
        # no form: nothing to fill, sign or correct
        assert "<form" not in row and "Fill the row" not in row and "Change the row" not in row
        assert "Not filled" not in row
    # each card still tells the official result
    mine = row_html(page_of(client, e.tournament.slug, e.stage, e.player), e.game)
    assert f"Official: 8{D}0" in badges(mine)
    theirs = row_html(page_of(client, e.tournament.slug, e.stage, e.opponent), e.game)
    assert f"Official: 0{D}8" in badges(theirs) and "Filled" in badges(theirs)


# --- forfeits -----------------------------------------------------------------------------------


def test_a_forfeit_keeps_its_own_words_and_shows_no_official_result(small_event, client):
    e = small_event
    rulings.withdraw(entry=e.opponent, user=e.users["organizer"])
    row = row_html(page_of(e.login(client, PLAYER), e.tournament.slug, e.stage, e.player), e.game)
    assert badges(row) == ["Walkover"]
    assert "The game is not played:" in row and "(W/O)" in row
    assert "Official" not in row and "Not filled" not in row and "Fill the row" not in row


def test_the_card_page_reads_no_more_for_official_results(small_event, django_assert_num_queries):
    """Every game of the card with its official result and the row that decided it: five
    queries, however many rows the other cards hold."""
    from scoring.scorecards.selectors import card_page

    e = small_event
    e.play_and_verify()
    for game in e.player_games()[1:]:
        record_game(game, A_WINS)
    with django_assert_num_queries(5):
        page = card_page(e.stage, e.player)
    assert all(line.official is not None for line in page.lines)
    assert page.lines[0].official.source == "own"


def test_asking_the_rows_to_sign_costs_the_same_for_one_row_or_two(
    small_event, django_assert_max_num_queries
):
    """The validation step asked of each row waiting for the player's signature (the rules of
    its game, its stage open or closed, who may sign it): its cost does not grow with the rows."""
    from scoring.scorecards import actions
    from scoring.scorecards.selectors import rows_to_sign

    e = small_event
    player = e.users[PLAYER]

    def ask() -> int:
        with django_assert_max_num_queries(50) as counted:
            rows = rows_to_sign(e.tournament, [e.player.id])
            refusals = [actions.validate_row.refusal(player, item.row) for item in rows]
        assert refusals and all(r is None for r in refusals)
        return len(counted)

    for n, game in enumerate(e.player_games()):
        opponent = next(x for x in game.match.entries if x.id != e.player.id)
        CardRowFactory(card=card_for(e.stage, opponent), game=game, rounds=B_WINS)
        if n == 0:
            one = ask()
    assert ask() == one
