"""The registration list and doubles teams."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Prefetch, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext

from tournaments.entry_actions import pair_team, register_player
from tournaments.forms import PlayerForm, TeamForm
from tournaments.models import Entry, Player, Team, Tournament
from tournaments.names import by_name
from tournaments.services import registration
from tournaments.services.people import delete_player, delete_team, update_player, update_team
from tournaments.views.organizer.common import (
    TEMPLATES,
    form_errors_from,
    organizer_page,
    tournament_entries,
)
from tournaments.views.organizer.corrections import delete_page, edit_page


@organizer_page
def players(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The registration list and the form to register one more player."""
    if request.method == "POST":
        form = PlayerForm(request.POST, tournament=tournament)
        if form.is_valid():
            try:
                player = register_player(request.user, tournament, **form.cleaned_data)
            except registration.PersonChoiceNeeded as exc:
                form.offer_people(exc.matches, exc.text)
            except ValidationError as exc:
                form_errors_from(form, exc)
            else:
                messages.success(
                    request,
                    gettext("Registered %(name)s with ID %(number)s.")
                    % {"name": player.full_name, "number": player.number},
                )
                return redirect("tournaments:manage-players", tournament.slug)
    else:
        form = PlayerForm(
            tournament=tournament, initial={"number": registration.next_free_number(tournament)}
        )
    q = request.GET.get("q", "").strip()
    return render(
        request,
        f"{TEMPLATES}/players.html",
        {"tournament": tournament, "form": form, "lines": _player_lines(tournament, q), "q": q},
        status=400 if form.errors else 200,
    )


@dataclass
class PlayerLine:
    """A registered player with the categories they play, alone or with a partner."""

    player: Player
    singles: list[Entry] = field(default_factory=list)
    doubles: list[tuple[Entry, Player]] = field(default_factory=list)


def _player_lines(tournament: Tournament, q: str = "") -> list[PlayerLine]:
    """The registration list (three queries whatever its length)."""
    players = tournament.players.order_by("number")
    for word in q.split():
        match = (
            Q(first_name__icontains=word)
            | Q(last_name__icontains=word)
            | Q(club__icontains=word)
            | Q(country__icontains=word)
        )
        if word.isdigit():
            match |= Q(number=int(word))
        players = players.filter(match)
    lines = {
        p.pk: PlayerLine(player=p)
        for p in players.prefetch_related(
            Prefetch(
                "entries",
                queryset=Entry.objects.select_related("category").order_by("category__name"),
            )
        )
    }
    for line in lines.values():
        line.singles = list(line.player.entries.all())
    team_entries = (
        Entry.objects.filter(category__tournament=tournament, team__isnull=False)
        .select_related("category", "team__player_one", "team__player_two")
        .order_by("category__name")
    )
    for entry in team_entries:
        one, two = entry.team.player_one, entry.team.player_two
        if one.pk in lines:
            lines[one.pk].doubles.append((entry, two))
        if two.pk in lines:
            lines[two.pk].doubles.append((entry, one))
    return list(lines.values())


@organizer_page
def teams(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Doubles teams by category, and the form to pair two registered players where the step
    applies (``pair_team``: the page says why not, before a doubles category exists)."""
    form = TeamForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            entry = pair_team(request.user, tournament, **form.cleaned_data)
        except ValidationError as exc:
            form_errors_from(form, exc)
        else:
            messages.success(
                request,
                gettext("%(entry)s entered in %(category)s.")
                % {"entry": entry.name, "category": entry.category.name},
            )
            return redirect("tournaments:manage-teams", tournament.slug)
    return render(
        request,
        f"{TEMPLATES}/teams.html",
        {
            "tournament": tournament,
            "form": form,
            "entries": by_name(tournament_entries(tournament).filter(team__isnull=False)),
            "pair_refused": pair_team.refusal(request.user, tournament),
        },
        status=400 if form.errors else 200,
    )


# Corrections ------------------------------------------------------------------------------------


@organizer_page
def player_edit(request: HttpRequest, tournament: Tournament, player_id: int) -> HttpResponse:
    """Correct a player's name, ID number, club or country."""
    player = get_object_or_404(Player, pk=player_id, tournament=tournament)
    initial = {f: getattr(player, f) for f in ("first_name", "last_name", "number", "club")}
    form = PlayerForm(
        request.POST or None, tournament=tournament, initial={**initial, "country": player.country}
    )
    # Categories are entered elsewhere; who the player is in the registry is linked from the
    # players page (the registry's own step), never changed by a correction of the name.
    for name in ("categories", "federation_id", "federation", "person"):
        del form.fields[name]
    form.fields["number"].required = True
    form.fields["number"].help_text = gettext(
        "Printed on the scorecard; another player's ID is refused."
    )
    return edit_page(
        request,
        tournament,
        form=form,
        title=player.full_name,
        save=lambda data: update_player(player=player, **data),
        named=lambda saved: saved.full_name,
        done=reverse("tournaments:manage-players", args=[tournament.slug]),
        delete_url=reverse("tournaments:manage-player-delete", args=[tournament.slug, player.pk]),
    )


@organizer_page
def player_delete(request: HttpRequest, tournament: Tournament, player_id: int) -> HttpResponse:
    """Remove a player registered by mistake (one entered anywhere is refused, saying where)."""
    player = get_object_or_404(Player, pk=player_id, tournament=tournament)
    return delete_page(
        request,
        tournament,
        title=player.full_name,
        goes_with_it=[],
        delete=lambda: delete_player(player=player),
        done=reverse("tournaments:manage-players", args=[tournament.slug]),
        back=reverse("tournaments:manage-player-edit", args=[tournament.slug, player.pk]),
    )


@organizer_page
def team_edit(request: HttpRequest, tournament: Tournament, team_id: int) -> HttpResponse:
    """Rename a team, or change its partners while it is entered nowhere."""
    team = get_object_or_404(Team, pk=team_id, tournament=tournament)
    form = TeamForm(
        request.POST or None,
        tournament=tournament,
        initial={
            "player_one": team.player_one_id,
            "player_two": team.player_two_id,
            "name": team.name,
        },
    )
    del form.fields["category"]
    return edit_page(
        request,
        tournament,
        form=form,
        title=str(team),
        save=lambda data: update_team(team=team, **data),
        named=str,
        done=reverse("tournaments:manage-teams", args=[tournament.slug]),
        delete_url=reverse("tournaments:manage-team-delete", args=[tournament.slug, team.pk]),
    )


@organizer_page
def team_delete(request: HttpRequest, tournament: Tournament, team_id: int) -> HttpResponse:
    team = get_object_or_404(Team, pk=team_id, tournament=tournament)
    return delete_page(
        request,
        tournament,
        title=str(team),
        goes_with_it=[],
        delete=lambda: delete_team(team=team),
        done=reverse("tournaments:manage-teams", args=[tournament.slug]),
        back=reverse("tournaments:manage-team-edit", args=[tournament.slug, team.pk]),
    )
