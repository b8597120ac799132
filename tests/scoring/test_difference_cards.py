"""Scorecards of a game to 100 by differences (family rulebook, Scoring 5-6), on the pages and on
paper: rounds are written with both board scores, the card offers a line for each round the game
still needs and says what is missing, a row short of 100 cannot be signed, and the printed card
has a board-score box in every round."""

import io
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from scoring.models import CardRow
from scoring.printing.cards import round_cards
from scoring.scorecards.services import ScorecardError, card_for, fill_row, validate_row
from tests.events import OPPONENT, PLAYER, SmallEvent
from tournaments.models import Category, TournamentRole

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role
HX = {"HX-Request": "true"}
DASH = "\u2013"

#: Board scores and 20s from the player's side: 45-0, then 45-40 (short of 100), then 110-40.
SHORT = [{"score": [85, 40], "twenties": [2, 1]}, {"score": [30, 70], "twenties": [0, 2]}]
OVER = [*SHORT, {"score": [95, 30], "twenties": [3, 0]}]


@pytest.fixture
def event(small_event: SmallEvent) -> SmallEvent:
    category = small_event.category
    category.scoring_system = Category.ScoringSystem.DIFFERENCE_TO_100
    category.save(update_fields=["scoring_system"])
    return small_event


def url(event: SmallEvent, name: str) -> str:
    args = [event.tournament.slug, event.stage.id, event.player.id]
    if name != "card":
        args.append(event.game.id)
    return reverse(f"scoring:cards:{name}", args=args)


def text(body: str) -> str:
    return re.sub(r"<[^>]+>", "", body)


def boxes(event: SmallEvent, rounds: list[dict], *, lines: int | None = None) -> dict:
    """What the phone posts: the typed rounds, and empty boxes up to ``lines`` lines."""
    prefix = f"g{event.game.id}"
    data = {f"{prefix}-version": 0}
    for n in range(1, (lines or len(rounds)) + 1):
        r = rounds[n - 1] if n <= len(rounds) else {"score": ["", ""], "twenties": ["", ""]}
        for what in ("score", "twenties"):
            data[f"{prefix}-r{n}_{what}_own"], data[f"{prefix}-r{n}_{what}_opp"] = r[what]
    return data


def test_a_card_of_a_game_to_100_asks_for_board_scores_not_points(client, event):
    body = event.login(client, PLAYER).get(url(event, "card")).content.decode()
    prefix = f"g{event.game.id}"
    assert f'name="{prefix}-r1_score_own"' in body and f'name="{prefix}-r1_twenties_own"' in body
    assert f'name="{prefix}-r1_points_own"' not in body
    assert "Board scores are optional" not in body
    assert "the winner of the round adds the difference" in body
    # One line to start with: a game to 100 may end in any round.
    assert f'name="{prefix}-r2_score_own"' not in body


def test_the_live_total_says_what_is_missing_and_adds_the_next_line(client, event):
    event.login(client, PLAYER)
    answer = client.post(url(event, "row_total"), boxes(event, SHORT[:1]), headers=HX)
    body = answer.content.decode()
    assert f"45{DASH}0 points" in text(body)
    assert "round 2 is needed: the game is played to 100 points and stands at 45-0" in body
    added = re.search(r'<div hx-swap-oob="beforeend:#rounds-(\d+)">(.*)</div>', body, re.S)
    assert added and int(added[1]) == event.game.id
    assert "<legend>Round 2</legend>" in added[2] and f"g{event.game.id}-r2_score_own" in added[2]
    assert "Round 3" not in added[2]

    # The page has line 2 already (empty): nothing is added twice.
    body = client.post(
        url(event, "row_total"), boxes(event, SHORT[:1], lines=2), headers=HX
    ).content.decode()
    assert "hx-swap-oob" not in body and "round 2 is needed" in body

    body = client.post(url(event, "row_total"), boxes(event, OVER), headers=HX).content.decode()
    assert (
        f"110{DASH}40 points" in text(body)
        and "is needed" not in body
        and "hx-swap-oob" not in body
    )


def test_points_without_board_scores_are_refused_in_words(client, event):
    event.login(client, PLAYER)
    data = boxes(event, [{"score": ["", ""], "twenties": [1, 0]}])
    body = client.post(url(event, "fill_row"), data).content.decode()
    assert "Round 1: give both board scores" in body
    assert not CardRow.objects.exists()


def test_a_row_short_of_100_is_saved_but_cannot_be_signed(client, event):
    event.login(client, PLAYER)
    assert client.post(url(event, "fill_row"), boxes(event, SHORT)).status_code == 302
    body = client.get(url(event, "card")).content.decode()
    assert "Round 3 is needed: the game is played to 100 points and stands at 45-40" in body
    assert f'name="g{event.game.id}-r3_score_own"' in body, "a line for the round still needed"
    assert f'id="id_v{event.game.id}-initials"' not in body, "no signature while short of 100"
    row = CardRow.objects.get()
    with pytest.raises(ScorecardError, match="round 3 is needed"):
        validate_row(
            row=row,
            opponent_number=str(event.opponent.player.number),
            initials="OP",
            user=event.users[OPPONENT],
        )


def test_a_finished_game_records_the_differences_as_points(event):
    row = fill_row(
        card=card_for(event.stage, event.player),
        game=event.game,
        rounds=OVER,
        user=event.users[PLAYER],
    )
    assert [r["points"] for r in row.rounds] == [[45, 0], [0, 40], [65, 0]]
    assert row.status == CardRow.Status.FILLED


@pytest.mark.slow
def test_a_printed_card_has_a_board_score_box_every_round_and_says_how_to_score(client, event):
    (card, *_) = round_cards(event.stage, 1)
    assert card.board_scores and card.rounds >= 8
    client.force_login(event.users[str(Role.SCORING_TABLE)])
    response = client.get(
        reverse("scoring:print-round-cards", args=[event.tournament.slug, event.stage.id, 1])
    )
    assert response.status_code == 200
    text = " ".join(
        " ".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages).split()
    )
    assert "PTS 20S SCORE" in text
    assert "adds the difference" in text and "Round points 2 / 1 / 0" not in text
