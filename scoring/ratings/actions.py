"""The ranking's steps, declared once (``tournaments.actions``): a record keeper's recompute of
every rating from the record, and an organizer's "publish to the ranking" once their event is
over (the ratings recomputed from the record and the ranking kept as it stood after the event,
what movers are measured against). The ranking page, its API and the organizer's page take
these steps and ask them why a button is not offered.

Both queue the recompute on the task queue (eager where tasks run in place) and return the
task's id, whose progress the page follows.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_lazy

from config.celery import check_queue, publish
from scoring.models.record import RankingSnapshot, RecordedGame
from scoring.ratings.recording import RATED_SYSTEMS
from scoring.record.disciplines import category_discipline
from tournaments.actions import Action
from tournaments.models import Tournament
from tournaments.permissions import MANAGE_RECORD, MANAGE_TOURNAMENT


def queue_recompute(
    discipline: str | list[str] | None = None, *, reason: str = "", tournament_id=None
) -> str:
    """Queue a recompute once the queue answered (``QueueUnreachable`` in words otherwise,
    nothing queued); the task's id."""
    from scoring.ratings.tasks import recompute_ratings

    check_queue()
    kwargs = {"discipline": discipline, "reason": reason, "tournament_id": tournament_id}
    return publish(lambda: recompute_ratings.apply_async(kwargs=kwargs)).id


def _recompute(user: AbstractBaseUser, obj: object = None) -> str:
    return queue_recompute(None)


def rated_disciplines(tournament: Tournament) -> list[str]:
    """The disciplines the tournament's games count in: those of its recorded games, else of
    its categories scored 2-1-0 per round."""
    found = set(
        RecordedGame.objects.filter(tournament=tournament).values_list("discipline", flat=True)
    )
    if not found:
        found = {
            str(category_discipline(c))
            for c in tournament.categories.all()
            if c.scoring_system in RATED_SYSTEMS
        }
    return sorted(found)


def has_rated_categories(tournament: Tournament) -> str | None:
    if rated_disciplines(tournament):
        return None
    return gettext_lazy(
        "None of this tournament's categories is scored 2-1-0 per round (NCA or first to N "
        "points): its games do not count for the ranking."
    )


def counts_for_the_ranking(tournament: Tournament) -> str | None:
    if tournament.rated:
        return None
    return gettext_lazy(
        "This tournament does not count for the ranking: the site's record keepers say which "
        "events do (so that nobody moves real players' ratings with games nobody played)."
    )


def _set_rated(user: AbstractBaseUser, tournament: Tournament, rated: bool) -> list[str]:
    from scoring.ratings.services import set_rated

    return set_rated(tournament, bool(rated))


def _publish(user: AbstractBaseUser, tournament: Tournament) -> str:
    return queue_recompute(
        rated_disciplines(tournament),
        reason=RankingSnapshot.Reason.EVENT,
        tournament_id=tournament.pk,
    )


recompute_ratings_step = Action(
    name="scoring.recompute_ratings",
    permission=MANAGE_RECORD,
    who=gettext_lazy(
        "Only the site's record keepers (its staff accounts) may recompute the ratings."
    ),
    run=_recompute,
)

publish_to_ranking = Action(
    name="scoring.publish_to_ranking",
    permission=MANAGE_TOURNAMENT,
    who=gettext_lazy("Only the tournament's organizers may publish its results to the ranking."),
    when=(counts_for_the_ranking, has_rated_categories),
    run=_publish,
)

#: A record keeper says whether a tournament's verified games count for the record (ratings,
#: the ranking, profiles): never a tournament role, which anyone allowed to create a tournament
#: can hold.
rate_tournament = Action(
    name="scoring.rate_tournament",
    permission=MANAGE_RECORD,
    who=gettext_lazy(
        "Only the site's record keepers (its staff accounts) say which tournaments count for "
        "the ranking."
    ),
    fields=("rated",),
    run=_set_rated,
)
