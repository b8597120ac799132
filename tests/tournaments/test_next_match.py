"""What a player plays next, and "in about N minutes": the pure estimate from the board's queue,
the round clock and the schedule (``tournaments.next_match``), and the same figure on the
private link's page and on the public player page."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring.results.next_match import board_estimate, next_match
from scoring.results.services import record_game
from tests.events import WIN
from tournaments.models import Match, RoundClock
from tournaments.next_match import Ahead, estimate_start, games_left
from tournaments.services.links import link_of

NOW = datetime(2026, 6, 13, 10, 0)


# The pure estimate --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("best_of", "wins", "played", "fixed", "left"),
    [
        (1, (0, 0), 0, False, 1),
        (3, (0, 0), 0, False, 2),  # the leader winning out: 2-0
        (3, (1, 0), 1, False, 1),
        (3, (1, 1), 2, False, 1),
        (3, (2, 0), 2, False, 0),
        (5, (0, 1), 1, False, 2),
        (4, (1, 1), 2, True, 2),  # a fixed match plays all its games
        (1, (0, 0), 1, False, 0),  # a drawn single game is over
    ],
)
def test_games_left_is_the_fewest_that_can_still_decide_the_match(
    best_of, wins, played, fixed, left
):
    assert games_left(best_of=best_of, wins=wins, played=played, fixed=fixed) == left


def test_a_free_board_is_now():
    estimate = estimate_start([], now=NOW)
    assert estimate.minutes == 0 and estimate.now and not estimate.scheduled


def test_each_match_ahead_adds_its_games_at_the_time_limit():
    ahead = [Ahead(games=1, minutes_per_game=30), Ahead(games=2, minutes_per_game=30)]
    assert estimate_start(ahead, now=NOW).minutes == 90


def test_the_game_on_the_board_counts_only_what_is_left_of_it():
    ahead = [Ahead(games=1, minutes_per_game=30), Ahead(games=1, minutes_per_game=30)]
    since = NOW - timedelta(minutes=12, seconds=30)
    assert estimate_start(ahead, now=NOW, current_since=since).minutes == 48  # 17.5 + 30, up
    # A game over its time is about to end, never a negative wait.
    long_ago = NOW - timedelta(minutes=45)
    assert estimate_start(ahead, now=NOW, current_since=long_ago).minutes == 30


def test_the_schedule_holds_a_match_back_from_a_board_that_is_free_earlier():
    ahead = [Ahead(games=1, minutes_per_game=30)]
    later = NOW + timedelta(minutes=55)
    estimate = estimate_start(ahead, now=NOW, starts_at=later)
    assert (estimate.minutes, estimate.scheduled) == (55, True)
    # A start time already passed, or sooner than the board is free: the board decides.
    sooner = estimate_start(ahead, now=NOW, starts_at=NOW + timedelta(minutes=10))
    assert (sooner.minutes, sooner.scheduled) == (30, False)


def test_a_later_round_waits_for_the_buzzer_even_on_a_free_board():
    estimate = estimate_start([], now=NOW, round_ends_at=NOW + timedelta(minutes=7, seconds=1))
    assert (estimate.minutes, estimate.scheduled) == (8, False)


# Gathered from the event --------------------------------------------------------------------


def _second_round_behind_another_game(event) -> tuple[Match, Match]:
    """The player's first game played; their round-2 match put on the board of a round-1 match
    of two other players that is still being played, and alone on it in round 2."""
    record_game(event.game, WIN)
    mine = Match.objects.filter(stage=event.stage, round_of_play=2).filter(
        entry_a=event.player
    ) | Match.objects.filter(stage=event.stage, round_of_play=2, entry_b=event.player)
    second_round = mine.get()
    busy = (
        Match.objects.filter(stage=event.stage, round_of_play=1, entry_b__isnull=False)
        .exclude(pk=event.match.pk)
        .first()
    )
    # Swapped with the round-2 match on that board, which would otherwise wait there too.
    Match.objects.filter(stage=event.stage, round_of_play=2, board=busy.board).update(
        board=second_round.board
    )
    Match.objects.filter(pk=second_round.pk).update(board=busy.board)
    second_round.refresh_from_db()
    return second_round, busy


def test_the_next_match_waits_for_the_game_on_its_board(small_event):
    second_round, busy = _second_round_behind_another_game(small_event)
    found = next_match(small_event.player, now=timezone.now())
    assert found.match == second_round and not found.in_play
    assert found.board == busy.board.number
    assert found.estimate.minutes == small_event.tournament.game_minutes  # one game ahead
    # The game ahead played: the board is free.
    record_game(busy.games.get(), WIN)
    assert board_estimate(second_round, now=timezone.now()).now


def test_the_round_clock_takes_the_time_played_off_the_wait(small_event):
    second_round, _busy = _second_round_behind_another_game(small_event)
    now = timezone.now()
    RoundClock.objects.create(
        tournament=small_event.tournament,
        duration_s=30 * 60,
        state=RoundClock.State.RUNNING,
        started_at=now - timedelta(minutes=20),
    )
    estimate = board_estimate(second_round, now=now)
    # 10 minutes left of the game ahead; the round of play it belongs to ends with the buzzer.
    assert estimate.minutes == 10


def test_the_private_link_page_leads_with_the_next_match(small_event, client):
    second_round, busy = _second_round_behind_another_game(small_event)
    token = link_of(small_event.player).token
    url = reverse("scoring:private_link", args=[small_event.tournament.slug, token])
    text = client.get(url).content.decode()
    block = text[text.index('class="next-game next-match"') :]
    block = block[: block.index("</section>")]
    assert f"Board <strong>{busy.board.number}</strong>" in block
    opponent = next(e for e in second_round.entries if e.id != small_event.player.id)
    assert opponent.name in block
    assert "in about 30 minutes" in block
    # It leads: before the cards and the rows to sign.
    assert text.index("next-match") < text.index("Your scorecards")


def test_the_public_player_page_says_when_too(small_event, client):
    _second_round_behind_another_game(small_event)
    number = small_event.player.player.number
    url = reverse("tournaments:player", args=[small_event.tournament.slug, number])
    text = client.get(url).content.decode()
    assert 'data-estimate-minutes="30"' in text
    assert "in about 30 minutes" in text


def test_nothing_left_to_play_says_so(small_event, client):
    for match in Match.objects.filter(stage=small_event.stage, entry_b__isnull=False):
        record_game(match.games.get(), WIN)
    assert next_match(small_event.player, now=timezone.now()) is None
    token = link_of(small_event.player).token
    url = reverse("scoring:private_link", args=[small_event.tournament.slug, token])
    assert "Nothing left to play for now" in client.get(url).content.decode()
