"""Walkovers and forfeits in the results: standings, stage progress, knockout brackets, best-of
matches, cards (phone and paper), the board list, and the head referee's forfeit of a round or a
game (``scoring.rulings.services``).

WCC Tournament Rules: "Careless or deliberate contravention of the rules may result in the
forfeiture of a round or a game and possible disqualification from the tournament."
"""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from scoring.models import CardRow
from scoring.printing.cards import stage_cards
from scoring.progression.services import advance_knockout, check_stage_finished
from scoring.results.knockout import bracket_rounds, knockout_state
from scoring.results.outcomes import stage_outcomes
from scoring.results.schedule import round_schedule
from scoring.results.services import ResultError, record_game
from scoring.rulings import services as rulings
from scoring.scorecards.services import ScorecardError, card_for, fill_row, validate_row
from scoring.standings.selectors import stage_standings
from tests.events import PLAYER, SmallEvent
from tests.factories import CategoryFactory, EntryFactory, StageFactory
from tournaments.models import Category, Entry, Game, Match, Round, Stage
from tournaments.services.draws import draw_knockout
from tournaments.svg.bracket import bracket_svg

pytestmark = pytest.mark.django_db

#: A 6-2 game for side A, in the match's order (points, 20s).
A_WINS = [{"points": [2, 0], "twenties": [3, 1]}] * 3 + [{"points": [0, 2], "twenties": [1, 2]}]
B_WINS = [{"points": [0, 2], "twenties": [0, 2]}] * 4


def line_of(standings, entry: Entry):
    return next(line for line in standings.lines if line.entry.id == entry.id)


def play(match: Match, rounds=A_WINS) -> None:
    for game in match.games.order_by("number"):
        record_game(game, rounds)
        if Stage.Kind(match.stage.kind) == Stage.Kind.KNOCKOUT:
            advance_knockout(match.stage)
        if stage_outcomes(match.stage, [match])[match.id].complete:
            return


def others(event: SmallEvent, round_of_play: int, *absent: Entry) -> list[Match]:
    """The matches of the round the absent entries do not play in."""
    ids = {e.id for e in absent}
    return [
        m
        for m in Match.objects.filter(stage=event.stage, round_of_play=round_of_play)
        if m.entry_a_id not in ids and m.entry_b_id not in ids
    ]


# --- walkovers in a preliminary ------------------------------------------------------------------


def test_opponents_of_an_entry_that_withdrew_get_the_bye_score_once_the_round_is_played(
    small_event,
):
    stage, opponent, player = small_event.stage, small_event.opponent, small_event.player
    stage.bye_points, stage.bye_twenties = 6, 2
    stage.save()
    done = rulings.withdraw(entry=opponent, user=small_event.users["organizer"])
    assert len(done.games) == 2
    # Before anything is played the standings claim nothing (like a bye: WCC sheets).
    before = stage_standings(stage)
    assert line_of(before, player).games == 0 and line_of(before, player).points == 0
    for match in others(small_event, 1, opponent, player):
        play(match)
    standings = stage_standings(stage)
    mine = line_of(standings, player)
    assert (mine.games, mine.points, mine.twenties, mine.walkovers) == (1, 6, 2, 1)
    gone = line_of(standings, opponent)
    assert (gone.games, gone.points, gone.twenties, gone.walkovers) == (1, 0, 0, 0)
    # Round 2's walkover counts once round 2 is under way, and then the stage is finished.
    with pytest.raises(ValidationError, match=r"(?i)not finished"):
        check_stage_finished(stage)
    for match in Match.objects.filter(stage=stage, round_of_play=2):
        if not match.games.get().forfeited_by:
            play(match)
    check_stage_finished(stage)  # the walkover matches count as played
    final = stage_standings(stage)
    assert line_of(final, opponent).games == 2 and line_of(final, opponent).points == 0
    walkover_wins = sum(line.walkovers for line in final.lines)
    assert walkover_wins == 2


def test_the_standings_page_marks_walkovers_and_the_entry_that_withdrew(client, small_event):
    opponent = small_event.opponent
    rulings.withdraw(entry=opponent, kind="disqualification", reason="coaching")
    for match in others(small_event, 1, opponent, small_event.player):
        play(match)
    url = reverse("scoring:standings", args=[small_event.tournament.slug, small_event.stage.id])
    text = client.get(url).content.decode()
    assert "(1 W/O)" in text
    assert f'{opponent.name} <span class="meta">(disqualified)</span>' in text


def test_the_opponents_card_says_walkover_and_takes_no_row(client, small_event):
    opponent, player = small_event.opponent, small_event.player
    rulings.withdraw(entry=opponent, reason="ill")
    card = reverse(
        "scoring:cards:card", args=[small_event.tournament.slug, small_event.stage.id, player.id]
    )
    text = small_event.login(client, PLAYER).get(card).content.decode()
    assert f"Walkover: {opponent.name} withdrew" in text
    assert f'name="g{small_event.game.id}-r1_winner"' not in text  # no boxes to fill
    with pytest.raises(ScorecardError) as refused:
        fill_row(
            card=card_for(small_event.stage, player),
            game=small_event.game,
            rounds=A_WINS,
            user=small_event.users[PLAYER],
        )
    assert str(refused.value.messages[0]).startswith(
        f"Game 1 is a walkover: {opponent.name} withdrew ("
    )
    with pytest.raises(ResultError, match=f"Game 1 is a walkover: {opponent.name} withdrew"):
        record_game(small_event.game, A_WINS)


def test_the_board_list_and_the_printed_card_show_the_walkover(small_event):
    opponent = small_event.opponent
    rulings.withdraw(entry=opponent)
    schedule = round_schedule(small_event.stage, 1)
    row = next(r for r in schedule.rows if r.match.id == small_event.match.id)
    assert row.state == "walkover"
    assert row.result == "W/O 8\u20130"
    assert row.forfeits == ["Walkover (withdrawal)"]
    (card,) = stage_cards(small_event.stage, [small_event.player])
    line = card.lines[0]
    assert line.walkover and line.note == f"Walkover: {opponent.name} withdrew"


# --- knockouts and best-of matches ---------------------------------------------------------------


def knockout(event: SmallEvent, size: int, *, best_of: int = 1) -> tuple[Stage, list[Entry]]:
    category = CategoryFactory(tournament=event.tournament, name=f"Knockout {size}")
    entries = [
        EntryFactory(category=category, checked_in=True, seed=n + 1, player__number=500 + n)
        for n in range(size)
    ]
    stage = StageFactory(
        category=category, name="Bracket", kind=Stage.Kind.KNOCKOUT, order=1, best_of=best_of
    )
    draw_knockout(stage)
    return stage, entries


def test_a_withdrawal_in_a_knockout_sends_the_opponent_on(small_event):
    stage, (first, second, _third, fourth) = knockout(small_event, 4)
    semis = {m.bracket_slot: m for m in Match.objects.filter(stage=stage)}
    top = next(m for m in semis.values() if first.id in (m.entry_a_id, m.entry_b_id))
    bottom = next(m for m in semis.values() if m.id != top.id)
    play(bottom)  # the other semifinal is decided first
    loser = fourth if fourth.id in (top.entry_a_id, top.entry_b_id) else second
    done = rulings.withdraw(entry=loser, user=small_event.users["organizer"])
    assert len(done.games) == 1
    (final,) = done.opened
    assert first.id in (final.entry_a_id, final.entry_b_id)
    assert "Opened in the bracket" in done.message
    outcome = stage_outcomes(stage)[top.id]
    assert outcome.by_walkover and outcome.winner is not None
    rounds = bracket_rounds(stage)
    drawn = next(m for r in rounds for m in r.matches if m.id == top.bracket_slot)
    assert drawn.note == "Walkover"
    assert {drawn.a.games, drawn.b.games} == {("W/O",)}
    svg = bracket_svg(rounds)
    assert "W/O" in svg and "Walkover" in svg
    # The walkover sent the winner on: it can no longer be taken back.
    with pytest.raises(ValidationError, match="sent the winner on to"):
        rulings.reinstate(entry=loser, user=small_event.users["organizer"])


def test_best_of_three_partly_played_is_decided_by_walkovers(small_event):
    stage, _entries = knockout(small_event, 2, best_of=3)
    final = Match.objects.get(stage=stage)
    assert final.games.count() == 3
    record_game(final.games.get(number=1), A_WINS)  # entry A wins game 1
    quitter = final.entry_b
    done = rulings.withdraw(entry=quitter)
    assert sorted(g.number for g in done.games) == [2, 3]
    outcome = stage_outcomes(stage)[final.id]
    assert outcome.complete and outcome.winner == "a" and outcome.wins == (2, 0)
    game1, game2, game3 = outcome.games
    assert game1.rounds == 4 and not game1.walkover
    assert game2.walkover and game2.points == (stage.bye_points, 0)
    assert not game3.walkover and game3.forfeited_by == "b"  # not needed
    assert knockout_state(stage).bracket.matches[-1].winner == str(final.entry_a_id)


# --- the head referee's rulings ------------------------------------------------------------------


def test_a_round_forfeit_changes_the_game_and_survives_the_cards(small_event):
    game = small_event.game
    record_game(game, A_WINS)
    done = rulings.forfeit_round(
        game=game,
        number=1,
        side="a",
        reason="shot before the buzzer",
        user=small_event.users["head-referee"],
    )
    # A match of one game is named by its players: "game 1" would send the reader looking for
    # a game 2.
    assert done.message == (
        f"{small_event.match} in round of play 1, round 1: forfeited by "
        f"{small_event.player.name} on the head referee's ruling (shot before the buzzer); the "
        f"round scores 2-0 to {small_event.opponent.name}."
    )
    first = Round.objects.get(game=game, number=1)
    assert (first.points_a, first.points_b, first.twenties_a, first.twenties_b) == (0, 2, 3, 1)
    assert first.forfeited_by == "a" and first.forfeit_reason == "shot before the buzzer"
    outcome = stage_outcomes(small_event.stage)[small_event.match.id]
    assert outcome.games[0].points == (4, 4) and outcome.winner is None  # now a drawn game
    # The cards write the game again (a correction): the ruling stays.
    record_game(game, A_WINS)
    assert Round.objects.get(game=game, number=1).points_a == 0
    assert Round.objects.filter(game=game).count() == 4


def test_a_round_forfeit_is_refused_where_the_rules_say_nothing_of_it(small_event):
    category = small_event.category
    category.scoring_system = Category.ScoringSystem.DIFFERENCE_TO_100
    category.save(update_fields=["scoring_system"])
    game = small_event.game
    record_game(game, [{"score": [100, 0], "twenties": [5, 0]}])
    with pytest.raises(ValidationError, match="forfeit the game instead"):
        rulings.forfeit_round(
            game=game, number=1, side="a", reason="late", user=small_event.users["head-referee"]
        )
    assert not Round.objects.filter(game=game).exclude(forfeited_by="").exists()


def test_a_round_without_its_official_result_cannot_be_forfeited(small_event):
    with pytest.raises(ValidationError) as refused:
        rulings.forfeit_round(game=small_event.game, number=1, side="b", reason="late")
    assert "has no round yet with an official result" in refused.value.messages[0]


def test_a_game_forfeit_overrides_the_recorded_result(client, small_event):
    game, player = small_event.game, small_event.player
    card = card_for(small_event.stage, player)
    row = fill_row(card=card, game=game, rounds=A_WINS, user=small_event.users[PLAYER])
    validate_row(
        row=row,
        opponent_number=str(small_event.opponent.player.number),
        initials="OP",
        user=small_event.users["opponent"],
    )
    record_game(game, A_WINS)
    assert stage_outcomes(small_event.stage)[small_event.match.id].winner == "a"
    done = rulings.forfeit_game(
        game=game, side="a", reason="coaching", user=small_event.users["head-referee"]
    )
    assert done.message.endswith(f"{small_event.opponent.name} wins the game.")
    outcome = stage_outcomes(small_event.stage)[small_event.match.id]
    assert outcome.winner == "b" and outcome.games[0].points == (0, 8)
    assert not Round.objects.filter(game=game).exists()
    assert CardRow.objects.get(pk=row.pk).rounds == row.rounds  # the card stays as written
    url = reverse(
        "scoring:cards:card", args=[small_event.tournament.slug, small_event.stage.id, player.id]
    )
    text = small_event.login(client, PLAYER).get(url).content.decode()
    assert "Forfeit (head referee): coaching" in text
    with pytest.raises(ValidationError, match="was forfeited by"):
        rulings.forfeit_game(game=game, side="b", reason="again")


def test_forfeits_are_the_head_referees(small_event):
    record_game(small_event.game, A_WINS)
    for role in ("organizer", "referee", "scoring-table", PLAYER):
        with pytest.raises(PermissionDenied, match="Only the head referee forfeits"):
            rulings.forfeit_game(
                game=small_event.game, side="a", reason="x", user=small_event.users[role]
            )
    with pytest.raises(ValidationError) as refused:
        rulings.forfeit_game(
            game=small_event.game, side="a", reason=" ", user=small_event.users["head-referee"]
        )
    assert refused.value.field == "reason" and "say why" in refused.value.text
    assert not Game.objects.exclude(forfeited_by="").exists()


def test_the_game_page_offers_the_head_referee_both_forfeits(client, small_event):
    game = small_event.game
    record_game(game, A_WINS)
    slug = small_event.tournament.slug
    small_event.login(client, "head-referee")
    page = client.get(reverse("scoring:rulings:game", args=[slug, game.id])).content.decode()
    assert "Forfeit game" in page and "Forfeit round" in page
    response = client.post(
        reverse("scoring:rulings:forfeit_round", args=[slug, game.id]),
        {"round-round": "2", "round-side": "b", "round-reason": "slow play"},
        follow=True,
    )
    assert "round 2: forfeited by" in response.content.decode()
    assert Round.objects.get(game=game, number=2).forfeited_by == "b"
    listing = client.get(reverse("scoring:rulings:index", args=[slug])).content.decode()
    assert "Forfeit (head referee): slow play" in listing


def test_a_forfeited_round_is_2_0_against_the_offender_in_the_database(small_event):
    record_game(small_event.game, A_WINS)
    first = Round.objects.get(game=small_event.game, number=1)
    first.forfeited_by = "a"  # still 2-0 for A: refused
    with pytest.raises(IntegrityError), transaction.atomic():
        first.save()


def test_match_rows_are_judged_as_the_matches_they_read(small_event):
    """Auto-play judges a stage from plain rows (``match_rows``) before each batch: the judge
    gives them the outcomes it gives the stored matches, finished, started and forfeited."""
    from scoring.results.outcomes import match_rows

    stage, entries = knockout(small_event, 4, best_of=3)
    semis = list(Match.objects.filter(stage=stage).order_by("id"))
    play(semis[0])
    record_game(semis[1].games.get(number=1), B_WINS)
    rulings.withdraw(entry=entries[2], user=small_event.users["organizer"])
    rows = match_rows(stage)
    assert [r.id for r in rows] == sorted(m.id for m in Match.objects.filter(stage=stage))
    judged = stage_outcomes(stage, rows)
    assert judged == stage_outcomes(stage)
    assert {o.complete for o in judged.values()} == {True, False}
