"""Deleting a tournament: a confirmation page that names what goes with it (its categories,
players, teams, matches and scorecards), offers the export file first, and asks for the
tournament's web address or its name typed again. The step ``tournaments.delete_tournament``
(``tournaments.staff_actions``) decides who may, and its service deletes everything in one
transaction, leaving a line in the tournament's history."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from tournaments.actions import Refused
from tournaments.models import Tournament
from tournaments.selectors import DeletionSummary, deletion_summary
from tournaments.staff_actions import delete_tournament
from tournaments.views.access import refuse, tournament_page
from tournaments.views.organizer.common import TEMPLATES


class DeleteTournamentForm(forms.Form):
    """The one input of the step: the web address or the name, typed again. Not required here,
    so that an empty box gets the service's own words, as the API does."""

    confirm = forms.CharField(
        max_length=200,
        required=False,
        label=_("Type its web address or its name to confirm"),
    )


def goes_with_it(summary: DeletionSummary) -> list[str]:
    """The confirmation page's list of what the deletion takes with the tournament."""
    counts = (
        (
            summary.categories,
            ngettext("%(count)d category", "%(count)d categories", summary.categories),
        ),
        (summary.players, ngettext("%(count)d player", "%(count)d players", summary.players)),
        (summary.teams, ngettext("%(count)d team", "%(count)d teams", summary.teams)),
        (summary.matches, ngettext("%(count)d match", "%(count)d matches", summary.matches)),
        (summary.cards, ngettext("%(count)d scorecard", "%(count)d scorecards", summary.cards)),
    )
    return [words % {"count": count} for count, words in counts if count]


@tournament_page()
def tournament_delete(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """GET: what goes with the tournament, the export to download first, the box to type its
    address or name in; POST: the step, then the front page (or the page again, 400, with the
    refusal next to the box)."""
    forbidden = delete_tournament.forbidden(request.user, tournament)
    if forbidden is not None:
        return refuse(request, forbidden.text, tournament)
    form = DeleteTournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        name = tournament.name
        try:
            delete_tournament(request.user, tournament, **form.cleaned_data)
        except Refused as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.text)
        else:
            messages.success(
                request,
                gettext("%(name)s is deleted, with everything in it.") % {"name": name},
            )
            return redirect("home")
    return render(
        request,
        f"{TEMPLATES}/tournament_delete.html",
        {
            "tournament": tournament,
            "form": form,
            "goes_with_it": goes_with_it(deletion_summary(tournament)),
            # The step's state refusal (work under way on the tournament), said before typing.
            "not_now": delete_tournament.unmet(tournament),
        },
        status=400 if form.errors else 200,
    )
