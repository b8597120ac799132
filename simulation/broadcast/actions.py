"""The broadcast kit's steps (``tournaments.actions``): the organizers keep the stream queue;
the officials who do not play in a featured match enter its rounds.

- ``broadcast.queue_match`` on the tournament (input ``match``): feature a match at the end.
- ``broadcast.change_queue`` on a featured match (input ``move``: up, down, on_air, remove).
- ``broadcast.score_round`` on a featured match's :class:`~tournaments.models.Match` (inputs:
  the round's points, 20s, ``time_expired``; or ``undo`` to take back the last round).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy

from simulation.broadcast import services
from simulation.models import FeaturedMatch
from simulation.permissions import MANAGE_STREAM, SCORE_FEATURED
from tournaments.actions import Action, Refused
from tournaments.models import Match, Tournament

QUEUE_WHO = gettext_lazy("Organizers only: the organizers choose the matches the stream features.")
SCORE_WHO = gettext_lazy(
    "Officials only: an organizer, a referee or the scoring table enters a featured match's "
    "rounds, never in a match they play in."
)


def _denied(user: Any, permission: str, obj: Any) -> str | None:
    from scoring.permissions import plays_in
    from tournaments.permissions import is_official

    if is_official.test(user, obj) and plays_in(user, obj):
        return str(
            gettext_lazy("You play in this match: another official must enter its live score.")
        )
    return None


def _queue(user: Any, tournament: Tournament, *, match: Any) -> FeaturedMatch:
    if not isinstance(match, Match):
        found = (
            Match.objects.filter(
                pk=match if str(match).isdigit() else None,
                stage__category__tournament=tournament,
            )
            .select_related("stage__category")
            .first()
        )
        if found is None:
            raise Refused(
                str(gettext_lazy("There is no match %(match)s in this tournament."))
                % {"match": match},
                field="match",
            )
        match = found
    return services.add_to_queue(tournament, match, user)


def _change(user: Any, featured: FeaturedMatch, *, move: str) -> FeaturedMatch | None:
    if move == "remove":
        services.remove_from_queue(featured)
        return None
    return services.move_in_queue(featured, move)


def featured_of(match: Match) -> FeaturedMatch:
    featured = FeaturedMatch.objects.filter(match=match).first()
    if featured is None:
        raise Refused(str(gettext_lazy("This match is not featured: nothing to score here.")))
    return featured


def _score(
    user: Any,
    match: Match,
    *,
    points_a: int = 0,
    points_b: int = 0,
    twenties_a: int = 0,
    twenties_b: int = 0,
    time_expired: bool = False,
    undo: bool = False,
) -> Any:
    featured = featured_of(match)
    if undo:
        return services.undo_last_round(featured, user)
    return services.enter_round(
        featured,
        user,
        points_a=points_a,
        points_b=points_b,
        twenties_a=twenties_a,
        twenties_b=twenties_b,
        time_expired=time_expired,
    )


queue_match = Action(
    name="broadcast.queue_match",
    permission=MANAGE_STREAM,
    who=QUEUE_WHO,
    fields=("match",),
    run=_queue,
)

change_queue = Action(
    name="broadcast.change_queue",
    permission=MANAGE_STREAM,
    who=QUEUE_WHO,
    fields=("move",),
    run=_change,
)

score_round = Action(
    name="broadcast.score_round",
    permission=SCORE_FEATURED,
    who=SCORE_WHO,
    fields=("points_a", "points_b", "twenties_a", "twenties_b", "time_expired", "undo"),
    run=_score,
    denied=_denied,
)
