"""The stream queue and the live rounds of a featured match (``simulation.broadcast``): the
engine's round rules, the hammer's alternation, the end of a game and of a match, who may."""

from __future__ import annotations

import pytest

from simulation.broadcast import actions, services
from simulation.models import FeaturedMatch, LiveRound
from tests.factories import MatchFactory, StageFactory, TournamentRoleFactory
from tests.simulation.broadcast.support import featured_event, play
from tournaments.actions import Forbidden, Refused
from tournaments.models import Match, TournamentRole

pytestmark = pytest.mark.django_db


def other_matches(event, count):
    return list(
        Match.objects.filter(stage=event.stage, entry_b__isnull=False)
        .exclude(pk=event.match.pk)
        .order_by("id")[:count]
    )


def test_the_first_match_not_finished_is_on_air_and_the_queue_moves():
    event, first = featured_event()
    organizer = event.users["organizer"]
    second, third = (
        services.add_to_queue(event.tournament, m, organizer) for m in other_matches(event, 2)
    )
    states = lambda: list(  # noqa: E731
        FeaturedMatch.objects.filter(tournament=event.tournament).values_list("pk", "state")
    )
    assert states() == [(first.pk, "live"), (second.pk, "queued"), (third.pk, "queued")]
    before = max(f.version for f in FeaturedMatch.objects.all())
    services.move_in_queue(third, "on_air")
    assert states() == [(third.pk, "live"), (first.pk, "queued"), (second.pk, "queued")]
    assert max(f.version for f in FeaturedMatch.objects.all()) > before
    services.move_in_queue(second, "up")
    assert [pk for pk, _ in states()] == [third.pk, second.pk, first.pk]
    services.remove_from_queue(FeaturedMatch.objects.get(pk=third.pk))
    assert states() == [(second.pk, "live"), (first.pk, "queued")]
    with pytest.raises(Refused, match="Move must be one of"):
        services.move_in_queue(first, "sideways")


def test_a_match_is_queued_once_and_only_in_its_own_tournament():
    event, _featured = featured_event()
    with pytest.raises(Refused, match="already"):
        services.add_to_queue(event.tournament, event.match, None)
    elsewhere = MatchFactory(stage=StageFactory())
    with pytest.raises(Refused, match="not one of this tournament"):
        services.add_to_queue(event.tournament, elsewhere, None)
    with pytest.raises(Refused, match="no match 999999"):
        actions.queue_match(event.users["organizer"], event.tournament, match="999999")


@pytest.mark.parametrize(
    ("points", "twenties", "words"),
    [
        ((3, 0), (0, 0), "2-0, 1-1, 0-2"),
        ((2, 1), (0, 0), "2-0, 1-1, 0-2"),
        ((0, 0), (0, 0), "only for a round that time ran out on"),
        ((2, 0), (9, 0), "20"),
        ((2, 0), (0, -1), ""),
    ],
)
def test_an_illegal_round_is_refused_in_words_and_nothing_is_saved(points, twenties, words):
    event, featured = featured_event()
    version = FeaturedMatch.objects.get(pk=featured.pk).version
    with pytest.raises(Refused) as refused:
        services.enter_round(
            featured,
            event.users["referee"],
            points_a=points[0],
            points_b=points[1],
            twenties_a=twenties[0],
            twenties_b=twenties[1],
        )
    assert words in refused.value.text
    assert "Game 1" in refused.value.text
    assert not LiveRound.objects.exists()
    assert FeaturedMatch.objects.get(pk=featured.pk).version == version


def test_legal_rounds_alternate_the_hammer_and_the_engine_ends_the_game():
    event, featured = featured_event()
    referee = event.users["referee"]
    services.enter_round(featured, referee, points_a=2, points_b=0, twenties_a=3, twenties_b=1)
    services.enter_round(featured, referee, points_a=1, points_b=1)
    services.enter_round(featured, referee, points_a=0, points_b=0, time_expired=True)
    services.enter_round(featured, referee, points_a=0, points_b=2, twenties_b=8)
    rounds = list(LiveRound.objects.filter(featured=featured))
    # A shoots first in round 1 (game 1's first side), so B has the hammer, then A, B, A.
    assert [r.hammer for r in rounds] == ["b", "a", "b", "a"]
    assert [(r.points_a, r.points_b) for r in rounds] == [(2, 0), (1, 1), (0, 0), (0, 2)]
    featured.refresh_from_db()
    assert featured.state == FeaturedMatch.State.FINISHED  # a 3-3 tie ends an NCA game
    with pytest.raises(Refused, match="over"):
        services.enter_round(featured, referee, points_a=2, points_b=0)
    services.undo_last_round(featured, referee)
    featured.refresh_from_db()
    assert featured.state == FeaturedMatch.State.LIVE
    services.enter_round(featured, referee, points_a=2, points_b=0)
    assert LiveRound.objects.filter(featured=featured).count() == 4


def test_a_tied_championship_game_goes_on_to_a_deciding_round():
    event, featured = featured_event()
    event.game.is_playoff = True
    event.game.save(update_fields=["is_playoff"])
    referee = event.users["referee"]
    play(featured, referee, (2, 0), (0, 2), (1, 1), (1, 1))
    featured.refresh_from_db()
    assert featured.state == FeaturedMatch.State.LIVE
    play(featured, referee, (0, 2))
    assert LiveRound.objects.get(featured=featured, number=5).hammer == "b"
    featured.refresh_from_db()
    assert featured.state == FeaturedMatch.State.FINISHED


def test_a_best_of_three_goes_on_to_its_next_game_with_the_other_side_opening():
    event, featured = featured_event()
    Match.objects.filter(pk=event.match.pk).update(best_of=3)
    featured = FeaturedMatch.objects.get(pk=featured.pk)
    referee = event.users["referee"]
    play(featured, referee, (2, 0), (2, 0), (2, 0), (2, 0))
    featured.refresh_from_db()
    assert featured.state == FeaturedMatch.State.LIVE
    play(featured, referee, (0, 2))
    second = LiveRound.objects.get(featured=featured, game_number=2, number=1)
    assert second.hammer == "a"  # B opens game 2
    play(featured, referee, (2, 0), (2, 0), (2, 0))
    featured.refresh_from_db()
    assert featured.state == FeaturedMatch.State.FINISHED


def test_undo_with_nothing_entered_is_refused():
    event, featured = featured_event()
    with pytest.raises(Refused, match="nothing to undo"):
        services.undo_last_round(featured, event.users["referee"])


def test_a_round_finishing_the_match_puts_the_next_one_on_air():
    event, featured = featured_event()
    [nxt] = other_matches(event, 1)
    second = services.add_to_queue(event.tournament, nxt, None)
    play(featured, event.users["referee"], (2, 0), (2, 0), (2, 0), (2, 0))
    second.refresh_from_db()
    assert second.state == FeaturedMatch.State.LIVE


@pytest.mark.parametrize("role", ["referee", "scoring-table", "organizer", "head-referee"])
def test_officials_not_playing_score(role):
    event, featured = featured_event()
    actions.score_round(event.users[role], event.match, points_a=2, points_b=0)
    assert LiveRound.objects.filter(featured=featured).count() == 1


@pytest.mark.parametrize("role", ["player", "opponent", "other-player", "anonymous"])
def test_players_and_visitors_do_not_score(role):
    event, _featured = featured_event()
    with pytest.raises(Forbidden, match="Officials only"):
        actions.score_round(event.users[role], event.match, points_a=2, points_b=0)
    assert not LiveRound.objects.exists()


def test_a_referee_who_plays_in_the_match_is_refused_with_the_reason():
    event, _featured = featured_event()
    player = event.users["player"]
    TournamentRole.objects.create(tournament=event.tournament, user=player, role="referee")
    with pytest.raises(Forbidden, match="You play in this match"):
        actions.score_round(player, event.match, points_a=2, points_b=0)
    # ... but scores a match they do not play in
    other = (
        Match.objects.filter(stage=event.stage, entry_b__isnull=False)
        .exclude(entry_a=event.player)
        .exclude(entry_b=event.player)
        .first()
    )
    services.add_to_queue(event.tournament, other, None)
    actions.score_round(player, other, points_a=2, points_b=0)
    assert LiveRound.objects.get().featured.match == other


def test_another_tournaments_organizer_neither_queues_nor_scores():
    event, featured = featured_event()
    stranger = TournamentRoleFactory(role="organizer").user
    with pytest.raises(Forbidden):
        actions.queue_match(stranger, event.tournament, match=str(other_matches(event, 1)[0].pk))
    with pytest.raises(Forbidden):
        actions.change_queue(stranger, featured, move="remove")
    with pytest.raises(Forbidden):
        actions.score_round(stranger, event.match, points_a=2, points_b=0)
    assert FeaturedMatch.objects.count() == 1 and not LiveRound.objects.exists()


def test_a_referee_does_not_manage_the_queue():
    event, featured = featured_event()
    with pytest.raises(Forbidden, match="Organizers only"):
        actions.change_queue(event.users["referee"], featured, move="remove")
