"""Entering a game in a few taps: per round, who won it (three big buttons over plain radios) and
each side's 20s; the points follow from the winner on the server (the engine's 2-1-0), and the row
is saved by the same service as a row typed box by box. Through the Django test client, so this
is also what a phone with JavaScript off posts.
"""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.engine import points_from_winner, round_winner
from scoring.models import CardRow
from scoring.scorecards.services import normalise_rounds
from tests.events import OPPONENT, PLAYER, SmallEvent

pytestmark = pytest.mark.django_db
Status = CardRow.Status
DASH = "\u2013"

#: Three rounds won with some 20s, one lost: what a player reports at the end of a game.
GAME = [
    ("own", 2, 0),
    ("own", 1, 1),
    ("opp", 0, 3),
    ("own", 3, 0),
]
#: The same game as the points and 20s the boxes took before (and the API takes).
AS_POINTS = [
    {"points": [2, 0], "twenties": [2, 0]},
    {"points": [2, 0], "twenties": [1, 1]},
    {"points": [0, 2], "twenties": [0, 3]},
    {"points": [2, 0], "twenties": [3, 0]},
]


def winner_data(prefix: str, rounds, *, version: int | None = None, **extra) -> dict:
    """What the phone form posts: per round the winner radio and the two 20s boxes (a blank
    20s box posts as empty)."""
    data = {} if version is None else {f"{prefix}-version": version}
    for n, (winner, own, opp) in enumerate(rounds, start=1):
        if winner:
            data[f"{prefix}-r{n}_winner"] = winner
        data[f"{prefix}-r{n}_twenties_own"] = "" if own is None else own
        data[f"{prefix}-r{n}_twenties_opp"] = "" if opp is None else opp
    data.update({f"{prefix}-{k}": v for k, v in extra.items()})
    return data


def card_url(e: SmallEvent, name: str = "card") -> str:
    slug = e.tournament.slug
    if name == "card":
        return reverse("scoring:cards:card", args=[slug, e.stage.id, e.player.id])
    return reverse(f"scoring:cards:{name}", args=[slug, e.stage.id, e.player.id, e.game.id])


def prefix(e: SmallEvent) -> str:
    return f"g{e.game.id}"


def row_of(e: SmallEvent) -> CardRow:
    return CardRow.objects.get(card__entry=e.player, game=e.game)


@pytest.fixture
def player(client: Client, small_event: SmallEvent) -> Client:
    return small_event.login(client, PLAYER)


# The engine's answer to "who won the round?" -------------------------------------------------


def test_the_engine_gives_the_points_of_the_winner_and_reads_the_winner_back():
    assert points_from_winner(0) == (2, 0)
    assert points_from_winner(None) == (1, 1)
    assert points_from_winner(1) == (0, 2)
    for side in (0, None, 1):
        assert round_winner(points_from_winner(side)) == side


# The card page ---------------------------------------------------------------------------------


def test_the_card_asks_who_won_each_round_with_steppers_for_the_20s(player, small_event):
    e = small_event
    body = player.get(card_url(e)).content.decode()
    p = prefix(e)
    for n in range(1, 5):
        for value in ("own", "tie", "opp"):
            assert re.search(rf'type="radio" name="{p}-r{n}_winner" value="{value}"', body)
        assert f'name="{p}-r{n}_twenties_own"' in body and f'name="{p}-r{n}_twenties_opp"' in body
        assert f'name="{p}-r{n}_points_own"' not in body  # the points follow from the winner
    assert f'name="{p}-r5_winner"' not in body  # a preliminary game has 4 rounds
    assert body.count('data-step="1"') >= 8 and body.count('data-step="-1"') >= 8
    assert '<details class="more">' in body and "<summary" in body  # board scores, folded
    names = (e.player.name, "Tie", e.opponent.name)
    assert all(f"<span>{name}</span>" in body for name in names)


def test_the_card_loads_its_scripts_from_files_and_none_inline(player, small_event):
    body = player.get(card_url(small_event)).content.decode()
    scripts = re.findall(r"<script\b[^>]*>", body)
    assert scripts and all(" src=" in tag and " defer" in tag for tag in scripts), scripts
    assert re.search(r'<script src="[^"]*js/wake-lock\.js" defer>', body)
    assert re.search(r'<script src="[^"]*js/steppers\.js" defer>', body)
    assert not re.search(r"<script\b[^>]*>[^<]+</script>", body)
    assert not re.search(r"\son[a-z]+=", body)  # no inline handlers either


# Saving --------------------------------------------------------------------------------------


def test_winner_and_20s_save_the_same_row_as_the_points_did(player, small_event):
    e = small_event
    response = player.post(card_url(e, "fill_row"), winner_data(prefix(e), GAME, version=0))
    assert response.status_code == 302
    row = row_of(e)
    assert row.status == Status.FILLED and row.version == 1
    assert row.rounds == normalise_rounds(e.game, AS_POINTS)
    body = player.get(card_url(e)).content.decode()
    assert f"<strong>6</strong>{DASH}2" in body  # the game total, points
    assert f"<strong>6</strong>{DASH}4" in body  # and 20s


def test_a_tie_is_one_point_each_and_blank_20s_are_none(player, small_event):
    e = small_event
    game = [("tie", None, None), ("own", 1, None), ("opp", None, 2), ("own", "", "")]
    response = player.post(card_url(e, "fill_row"), winner_data(prefix(e), game, version=0))
    assert response.status_code == 302
    rounds = row_of(e).rounds
    assert [r["points"] for r in rounds] == [[1, 1], [2, 0], [0, 2], [2, 0]]
    assert [r["twenties"] for r in rounds] == [[0, 0], [1, 0], [0, 2], [0, 0]]


def test_the_saved_winners_come_back_checked_in_the_form(player, small_event):
    e = small_event
    player.post(card_url(e, "fill_row"), winner_data(prefix(e), GAME, version=0))
    body = player.get(card_url(e)).content.decode()
    for n, (winner, own, opp) in enumerate(GAME, start=1):
        checked = re.search(rf'name="{prefix(e)}-r{n}_winner" value="(\w+)"[^>]*checked', body)
        assert checked and checked.group(1) == winner, n
        assert f'name="{prefix(e)}-r{n}_twenties_own" value="{own}"' in body
        assert f'name="{prefix(e)}-r{n}_twenties_opp" value="{opp}"' in body


def test_a_round_entered_wrongly_is_fixed_in_place(player, small_event):
    """Round 3 was tapped as lost with 1 twenty too many: change its winner and 20s, save again;
    the other rounds stay as they were and the row keeps its history."""
    e = small_event
    wrong = [*GAME[:2], ("opp", 0, 4), GAME[3]]
    player.post(card_url(e, "fill_row"), winner_data(prefix(e), wrong, version=0))
    assert row_of(e).rounds[2]["points"] == [0, 2]
    fixed = [*GAME[:2], ("own", 2, 4), GAME[3]]
    response = player.post(card_url(e, "fill_row"), winner_data(prefix(e), fixed, version=1))
    assert response.status_code == 302
    row = row_of(e)
    assert row.version == 2 and row.status == Status.FILLED
    assert row.rounds[2]["points"] == [2, 0] and row.rounds[2]["twenties"] == [2, 4]
    assert row.rounds[:2] == normalise_rounds(e.game, AS_POINTS)[:2]
    assert row.rounds[3] == normalise_rounds(e.game, AS_POINTS)[3]
    assert row.history.count() == 2


def test_the_fix_with_htmx_returns_the_row_with_the_new_round(player, small_event):
    e = small_event
    player.post(card_url(e, "fill_row"), winner_data(prefix(e), GAME, version=0))
    fixed = [*GAME[:3], ("tie", 3, 0)]
    response = player.post(
        card_url(e, "fill_row"),
        winner_data(prefix(e), fixed, version=1),
        headers={"HX-Request": "true"},
    )
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body and "Row saved." in body
    assert f"<strong>5</strong>{DASH}3" in body
    assert row_of(e).rounds[3]["points"] == [1, 1]


# Refusals, the round named -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("twenties", "said"),
    [
        ((9, 0), "a side has only 8 discs"),
        ((-1, 0), f"Round 2: 20s of {'{player}'} cannot be negative"),
        (("two", 0), f"Round 2: 20s of {'{player}'} must be a whole number"),
    ],
    ids=["beyond-the-discs", "negative", "not-a-number"],
)
def test_impossible_20s_are_refused_with_the_round_named(player, small_event, twenties, said):
    e = small_event
    game = [GAME[0], ("own", *twenties), *GAME[2:]]
    body = player.post(
        card_url(e, "fill_row"), winner_data(prefix(e), game, version=0)
    ).content.decode()
    said = said.format(player=e.player.name)
    assert said in body or said.replace("'", "&#x27;") in body, body[-3000:]
    assert re.search(r"[Rr]ound 2\b", body)
    assert re.search(r'<fieldset class="round phone bad" data-round="2">', body)
    assert not re.search(r'<fieldset class="round phone bad" data-round="[134]">', body)
    # What was typed stays in the boxes: the winner of round 2 still checked.
    assert re.search(rf'name="{prefix(e)}-r2_winner" value="own"[^>]*checked', body)
    assert not CardRow.objects.exists()


def test_a_refusal_names_whose_figure_is_wrong_in_the_card_owners_terms(client, small_event):
    """The opponent (the match's entry B) types 9 20s for themselves in round 2: the refusal
    says the 9 is theirs, not the other side's, with no list to read in the match's order, and
    a match of one game is named by its players alone, without "game 1"."""
    e = small_event
    owner = e.login(client, OPPONENT)
    url = reverse(
        "scoring:cards:fill_row", args=[e.tournament.slug, e.stage.id, e.opponent.id, e.game.id]
    )
    game = [GAME[0], ("own", 9, 0), *GAME[2:]]
    body = html.unescape(owner.post(url, winner_data(prefix(e), game, version=0)).content.decode())
    assert e.match.best_of == 1
    assert (
        f"{e.match} in round of play {e.match.round_of_play}, round 2: the 20s (9 for "
        f"{e.opponent.name}, 0 for {e.player.name}) are impossible; a side has only 8 discs"
    ) in body, body[-3000:]
    assert "game 1" not in body and "[9, 0]" not in body
    assert not CardRow.objects.exists()


def test_20s_without_a_winner_ask_who_won_that_round(player, small_event):
    e = small_event
    game = [*GAME[:2], ("", 1, 0), GAME[3]]
    body = player.post(
        card_url(e, "fill_row"), winner_data(prefix(e), game, version=0)
    ).content.decode()
    assert "Round 3: choose who won the round" in body
    assert not CardRow.objects.exists()


def test_a_winner_the_board_scores_contradict_is_refused_by_the_engine(player, small_event):
    e = small_event
    data = winner_data(prefix(e), GAME, version=0)
    data[f"{prefix(e)}-r1_score_own"], data[f"{prefix(e)}-r1_score_opp"] = 40, 60
    body = player.post(card_url(e, "fill_row"), data).content.decode()
    owner, other = e.player.name, e.opponent.name
    assert (
        f"round 1: the points (2 for {owner}, 0 for {other}) do not follow from the board "
        f"scores (40 for {owner}, 60 for {other}), which give 0 for {owner}, 2 for {other}"
    ) in html.unescape(body)
    assert '<details class="more" open>' in body  # the board scores shown where they were typed
    assert not CardRow.objects.exists()


def test_posted_points_must_agree_with_the_winner(player, small_event):
    e = small_event
    data = winner_data(prefix(e), GAME, version=0)
    data[f"{prefix(e)}-r4_points_own"], data[f"{prefix(e)}-r4_points_opp"] = 0, 2
    body = player.post(card_url(e, "fill_row"), data).content.decode()
    assert "Round 4: the points 0-2 do not match who won the round" in body
    assert not CardRow.objects.exists()


def test_a_winner_on_a_round_time_ran_out_on_is_refused(player, small_event):
    e = small_event
    data = winner_data(prefix(e), [*GAME[:3], ("own", None, None)], version=0)
    data[f"{prefix(e)}-r4_time_expired"] = "on"
    body = player.post(card_url(e, "fill_row"), data).content.decode()
    assert "Round 4: time expired with no disc shot scores 0-0" in body
    assert not CardRow.objects.exists()


# The running total and the rounds a game needs -----------------------------------------------


def test_the_running_total_is_added_up_by_the_server(player, small_event):
    e = small_event
    # As the browser posts it: two rounds tapped, the two lines below still blank.
    typed = [*GAME[:2], ("", None, None), ("", None, None)]
    body = player.post(card_url(e, "row_total"), winner_data(prefix(e), typed)).content.decode()
    total = f"<strong>4</strong>{DASH}0 points · <strong>3</strong>{DASH}1 20s"
    assert body.strip().startswith(total)
    assert "not over" in body and "hx-swap-oob" not in body


def test_a_tied_championship_game_gets_its_fifth_round_only_when_tied(player, small_event):
    """The engine decides: a championship game tied after 4 rounds plays a 5th, and only then
    does the form grow a 5th line (added by the total, as the 4th winner is tapped)."""
    e = small_event
    e.game.is_playoff = True
    e.game.save()
    p = prefix(e)
    assert f'name="{p}-r5_winner"' not in player.get(card_url(e)).content.decode()
    won = player.post(card_url(e, "row_total"), winner_data(p, GAME)).content.decode()
    assert f'name="{p}-r5_winner"' not in won
    tied = [("own", 0, 0), ("opp", 0, 0), ("own", 1, 0), ("opp", 0, 0)]
    body = player.post(card_url(e, "row_total"), winner_data(p, tied)).content.decode()
    assert f'hx-swap-oob="beforeend:#rounds-{e.game.id}"' in body
    assert re.search(rf'type="radio" name="{p}-r5_winner" value="own"', body)
    assert f'name="{p}-r6_winner"' not in body
    assert "round 5 is needed" in body
    # Saved without JavaScript, the tied row comes back with its 5th line to fill.
    player.post(card_url(e, "fill_row"), winner_data(p, tied, version=0))
    page = player.get(card_url(e)).content.decode()
    assert f'name="{p}-r5_winner"' in page and f'name="{p}-r6_winner"' not in page
    done = [*tied, ("own", 2, 0)]
    assert player.post(card_url(e, "fill_row"), winner_data(p, done, version=1)).status_code == 302
    assert row_of(e).rounds[4]["points"] == [2, 0]


# The referee at the table: the same form for a paper card ------------------------------------


def test_a_paper_card_is_entered_with_the_same_buttons_from_the_keyboard(client, small_event):
    e = small_event
    e.login(client, "referee")
    url = reverse(
        "scoring:cards:paper_row", args=[e.tournament.slug, e.stage.id, e.player.id, e.game.id]
    )
    body = client.get(url).content.decode()
    assert body.count("autofocus") == 1
    assert re.search(r'name="paper-r1_winner" value="own"[^>]*autofocus', body)
    assert re.search(r'<script src="[^"]*js/steppers\.js" defer>', body)
    assert "wake-lock" not in body
    # The steppers and the folded part stay out of the tab order: tab goes winner, 20s, 20s.
    assert 'data-step="1" tabindex="-1"' in body and '<summary tabindex="-1">' in body
    data = winner_data("paper", GAME, version=0)
    data |= {"paper-opponent_number": str(e.opponent.player.number), "paper-initials": "ob"}
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[-2000:]
    row = row_of(e)
    assert row.status == Status.VALIDATED and row.validated_how == CardRow.ValidatedHow.PAPER
    assert row.rounds == normalise_rounds(e.game, AS_POINTS)
