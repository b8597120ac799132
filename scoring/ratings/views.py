"""The ranking pages: the public ranking of each discipline, a record keeper's "Recompute now"
with its progress, and an organizer's "Publish to the ranking" of their event.

Thin: the rows come from ``scoring.ratings.ranking``, the picture from ``scoring.ratings.chart``,
and the buttons are the steps of ``scoring.ratings.actions`` (whose refusals the API answers in
the same words).
"""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from config.celery import QueueUnreachable, app
from scoring.models.record import Discipline, RankingSnapshot
from scoring.ratings import actions as steps
from scoring.ratings.chart import ranking_chart
from scoring.ratings.ranking import baseline, min_games, ranking
from tournaments.actions import Forbidden, Refused
from tournaments.models import Tournament
from tournaments.views.access import refuse, tournament_page
from tournaments.views.progress import Progress, progress_partial

TEMPLATES = "scoring/ratings"
PER_PAGE = 100


def _discipline(slug: str) -> Discipline:
    try:
        return Discipline(slug)
    except ValueError:
        raise Http404(_("There is no ranking “%(slug)s”.") % {"slug": slug}) from None


@require_GET
def ranking_page(request: HttpRequest, discipline: str = Discipline.SINGLES) -> HttpResponse:
    """The ranking of one discipline, a hundred people a page, with its picture."""
    chosen = _discipline(discipline)
    rows = ranking(chosen)
    page = Paginator(rows, PER_PAGE).get_page(request.GET.get("page"))
    since = baseline(chosen)
    refusal = steps.recompute_ratings_step.refusal(request.user, None)
    return render(
        request,
        f"{TEMPLATES}/ranking.html",
        {
            "discipline": chosen,
            "disciplines": list(Discipline),
            "page": page,
            "chart": ranking_chart(page.object_list),
            "min_games": min_games(),
            "since": since,
            "recompute_refusal": refusal,
            # For the record keepers: the latest events, which count and which not yet.
            "events": [] if refusal else latest_events(),
        },
    )


#: How many of the latest events the record keepers' list shows on the ranking page.
EVENTS_LISTED = 20


def latest_events() -> list[Tournament]:
    """The latest tournaments (the demo's aside), each with whether it counts for the ranking:
    where a record keeper goes to switch an event on."""
    from tournaments.demo import DEMO_SLUG

    return list(
        Tournament.objects.exclude(slug=DEMO_SLUG)
        .order_by("-starts_on", "-created_at")
        .only("name", "slug", "starts_on", "rated")[:EVENTS_LISTED]
    )


@require_POST
def recompute_view(request: HttpRequest) -> HttpResponse:
    """A record keeper's "Recompute now": queued, then its progress page."""
    try:
        task_id = steps.recompute_ratings_step(request.user, None)
    except Forbidden as refused:
        return refuse(request, refused.text)
    except (Refused, QueueUnreachable) as exc:
        messages.error(request, getattr(exc, "text", None) or str(exc))
        return redirect("ranking")
    return redirect("ranking-recompute-progress", task_id=task_id)


def _progress(task_id: str, status_url: str) -> Progress:
    """Where the recompute task ``task_id`` stands, from its Celery result."""
    common = {"element_id": "recompute-progress", "status_url": status_url}
    if app.conf.task_always_eager:
        # Run in place before this page was drawn: nothing is left to wait for.
        return Progress(**common, running=False, state=_("Done: the ratings are recomputed."))
    result = app.AsyncResult(task_id)
    state, info = result.state, result.info
    if state == "SUCCESS" and isinstance(info, dict):
        detail = _("%(games)s games, %(people)s people, in %(seconds)s s") % info
        return Progress(**common, running=False, state=_("Done"), detail=detail, percent=100)
    if state == "FAILURE":
        return Progress(
            **common,
            running=False,
            state=_("Failed"),
            error=_("The recompute stopped; see the worker's log and start it again."),
        )
    if state == "PROGRESS" and isinstance(info, dict) and info.get("total"):
        done, total = int(info["done"]), int(info["total"])
        return Progress(
            **common,
            running=True,
            state=_("Running"),
            detail=_("%(done)s of %(total)s games") % {"done": done, "total": total},
            percent=min(100, round(100 * done / total)),
        )
    if state == "STARTED":
        return Progress(**common, running=True, state=_("Starting…"))
    return Progress(**common, running=True, state=_("Waiting for a worker to start…"))


def _keepers_only(request: HttpRequest) -> HttpResponse | None:
    refused = steps.recompute_ratings_step.forbidden(request.user, None)
    return refuse(request, refused.text) if refused is not None else None


@require_GET
def recompute_progress(request: HttpRequest, task_id: str) -> HttpResponse:
    """The recompute's progress bar, polled until it is done."""
    shut = _keepers_only(request)
    if shut is not None:
        return shut
    progress = _progress(task_id, _status_url(task_id))
    return render(request, f"{TEMPLATES}/recompute.html", {"progress": progress})


@require_GET
def recompute_status(request: HttpRequest, task_id: str) -> HttpResponse:
    shut = _keepers_only(request)
    if shut is not None:
        return shut
    return progress_partial(request, _progress(task_id, _status_url(task_id)))


def _status_url(task_id: str) -> str:
    return reverse("ranking-recompute-status", args=[task_id])


def _publish_status_url(tournament: Tournament, task_id: str) -> str:
    return reverse("ranking-publish-status", args=[tournament.slug, task_id])


@require_GET
@tournament_page()
def publish_status(request: HttpRequest, tournament: Tournament, task_id: str) -> HttpResponse:
    refused = steps.publish_to_ranking.forbidden(request.user, tournament)
    if refused is not None:
        return refuse(request, refused.text, tournament)
    return progress_partial(request, _progress(task_id, _publish_status_url(tournament, task_id)))


@tournament_page()
def publish_view(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """An organizer's "Publish to the ranking": the ratings recomputed from the record and the
    ranking kept as it stands after this event (movers are measured against it)."""
    step = steps.publish_to_ranking
    if request.method == "POST":
        try:
            task_id = step(request.user, tournament)
        except Forbidden as refused:
            return refuse(request, refused.text, tournament)
        except (Refused, QueueUnreachable) as exc:
            messages.error(request, getattr(exc, "text", None) or str(exc))
            return redirect("ranking-publish", slug=tournament.slug)
        messages.success(
            request,
            _("%(tournament)s is being published to the ranking.") % {"tournament": tournament},
        )
        if app.conf.task_always_eager:
            return redirect("ranking")
        return redirect(reverse("ranking-publish", args=[tournament.slug]) + f"?task={task_id}")
    refused = step.forbidden(request.user, tournament)
    keeper = steps.rate_tournament.forbidden(request.user, tournament) is None
    if refused is not None and not keeper:
        return refuse(request, refused.text, tournament)
    task_id = request.GET.get("task", "")
    published = RankingSnapshot.objects.filter(
        tournament=tournament, reason=RankingSnapshot.Reason.EVENT
    ).order_by("-taken_at")
    return render(
        request,
        f"{TEMPLATES}/publish.html",
        {
            "tournament": tournament,
            "refusal": refused or step.unmet(tournament),
            # The record keepers' switch: whether this event counts for the ranking at all.
            "keeper": keeper,
            "disciplines": [Discipline(d) for d in steps.rated_disciplines(tournament)],
            "published": published.first(),
            "progress": _progress(task_id, _publish_status_url(tournament, task_id))
            if task_id
            else None,
        },
    )


@require_POST
@tournament_page()
def rated_view(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """A record keeper's "Counts for the ranking" switch of a tournament."""
    rated = request.POST.get("rated") == "1"
    try:
        steps.rate_tournament(request.user, tournament, rated=rated)
    except Forbidden as refused:
        return refuse(request, refused.text, tournament)
    messages.success(
        request,
        (
            _("%(tournament)s counts for the ranking: its verified games are in the record.")
            if rated
            else _("%(tournament)s no longer counts for the ranking: its games left the record.")
        )
        % {"tournament": tournament},
    )
    return redirect("ranking-publish", slug=tournament.slug)
