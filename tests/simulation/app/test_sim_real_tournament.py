"""Auto-play in a real tournament: it plays to the end of the stage and leaves advancing and
drawing the next stage to the organizer (a dry run's copy still goes through every stage by
itself), and the simulation's accounts never show in the tournament's staff list."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.models import StageAdvance
from scoring.progression.services import check_stage_finished
from simulation.models import AutoPlay, Status
from simulation.services import autoplay, dryrun
from simulation.services.system_users import REFEREE_USERNAME, TABLE_USERNAME, system_users
from simulation.tasks import run_autoplay, run_dry_run
from tests.simulation.app.support import add_stage, make_tournament, organizer_of
from tournaments.models import Stage, TournamentRole
from tournaments.services import staff
from tournaments.services.registration import is_drawn

SIMULATION_ACCOUNTS = (REFEREE_USERNAME, TABLE_USERNAME)
STOPPED = "Stage complete: advance and draw the next stage from the"


def _two_stages(slug: str = "real-open"):
    """A preliminary of two rounds, then a final of the top two."""
    tournament, category = make_tournament(slug, players=4)
    prelim = add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=2, advance_count=2)
    final = add_stage(category, 2, Stage.Kind.KNOCKOUT, name="Final", best_of=1)
    return tournament, category, prelim, final


def _run(tournament, **kwargs) -> AutoPlay:
    run = autoplay.create_autoplay(tournament=tournament, seed=7, **kwargs)
    run_autoplay(run.pk)
    run.refresh_from_db()
    return run


@pytest.mark.django_db
def test_auto_playing_a_stage_plays_it_to_the_end_and_leaves_the_next_stage_undrawn(eager, client):
    tournament, category, prelim, final = _two_stages()

    run = _run(tournament, scope=AutoPlay.Scope.STAGE, stage=prelim)

    assert run.status == Status.DONE, run.error
    assert run.games_played == 4
    check_stage_finished(prelim)  # every round played: raises if anything is left
    assert not is_drawn(final)
    assert not final.matches.exists()
    assert not StageAdvance.objects.filter(stage=prelim).exists()
    client.force_login(organizer_of(tournament))
    page = client.get(reverse("simulation:autoplay", args=[tournament.slug, run.pk]))
    text = page.content.decode()
    assert STOPPED in text
    category_url = reverse("tournaments:manage-category", args=[tournament.slug, category.pk])
    assert f'<a href="{category_url}">category page</a>' in text
    assert "Preliminary is finished; advancing it draws Final." in text


@pytest.mark.django_db
def test_auto_playing_the_rest_of_a_category_stops_at_each_stage_the_organizer_has_not_drawn(
    eager, client
):
    tournament, category, prelim, final = _two_stages("real-category")

    first = _run(tournament, scope=AutoPlay.Scope.CATEGORY, category=category)

    assert first.status == Status.DONE, first.error
    assert first.games_expected == 4 == first.games_played  # the preliminary's games only
    assert not is_drawn(final)
    # The organizer advances (a tie on the cut line settled as the category page would ask).
    autoplay.advance_with_shootouts(first, prelim, final)
    assert final.matches.count() == 1

    second = _run(tournament, scope=AutoPlay.Scope.CATEGORY, category=category)

    assert second.status == Status.DONE, second.error
    assert second.games_played == 1
    check_stage_finished(final)
    client.force_login(organizer_of(tournament))
    page = client.get(reverse("simulation:autoplay", args=[tournament.slug, second.pk]))
    assert STOPPED not in page.content.decode()  # the last stage: nothing left to advance


@pytest.mark.django_db
def test_a_dry_run_still_advances_through_the_stages_of_its_copy(eager, client):
    source, _, prelim, final = _two_stages("real-source")
    dry = dryrun.create_dry_run(source=source, seed=7, boards=2)

    run_dry_run(dry.pk)

    dry.refresh_from_db()
    assert dry.status == Status.DONE, dry.error
    copy_final = dry.copy.categories.get().stages.get(kind=Stage.Kind.KNOCKOUT)
    assert copy_final.matches.count() == 1
    check_stage_finished(copy_final)
    assert dry.run.games_played == 4 + 1
    assert not prelim.matches.exists() and not is_drawn(final)  # the real one is untouched
    page = client.get(reverse("simulation:autoplay", args=[dry.copy.slug, dry.run.pk]))
    assert STOPPED not in page.content.decode()


@pytest.mark.django_db
def test_the_staff_list_never_shows_the_simulation_accounts_after_an_auto_play(eager, client):
    tournament, _, prelim, _ = _two_stages("real-staff")
    organizer = organizer_of(tournament, "olga")
    ref = User.objects.create_user("rita")
    TournamentRole.objects.create(tournament=tournament, user=ref, role="referee")
    assert _run(tournament, scope=AutoPlay.Scope.STAGE, stage=prelim).status == Status.DONE
    # They hold their roles, which the simulated cards needed...
    hidden = TournamentRole.objects.filter(
        tournament=tournament, user__username__in=SIMULATION_ACCOUNTS
    )
    assert sorted(hidden.values_list("role", flat=True)) == ["referee", "scoring-table"]
    client.force_login(organizer)

    page = client.get(reverse("tournaments:manage-staff", args=[tournament.slug])).content.decode()
    api = APIClient()
    api.force_authenticate(organizer)
    listed = api.get("/api/roles/", {"tournament": tournament.slug})

    # ...and show in neither the staff page nor the API, where the people do.
    assert "olga" in page and "rita" in page
    assert listed.status_code == 200
    usernames = {r["username"] for r in listed.json()["results"]}
    assert usernames == {"olga", "rita"}
    for username in SIMULATION_ACCOUNTS:
        assert username not in page
    # Nothing acts on them either: not the page's buttons, not the API, not the audit page.
    referee = User.objects.get(username=REFEREE_USERNAME)
    with pytest.raises(ValidationError, match="holds no role"):
        staff.staff_member(tournament, referee.pk)
    assert api.delete(f"/api/roles/{hidden.first().pk}/").status_code == 404
    assert hidden.count() == 2
    audit = client.get(reverse("tournaments:manage-audit", args=[tournament.slug]))
    assert REFEREE_USERNAME not in audit.content.decode()


@pytest.mark.django_db
def test_no_staff_account_takes_a_simulation_name_and_a_person_s_login_is_never_used():
    tournament, _ = make_tournament("real-names", players=2)
    organizer = organizer_of(tournament)
    with pytest.raises(ValidationError, match="cannot be used"):
        staff.create_account(
            tournament=tournament,
            username="Simulation-Referee",
            first_name="Sim",
            last_name="Ulation",
            role="referee",
            actor=organizer,
        )
    User.objects.create_user(TABLE_USERNAME, password="someone-s-own")

    with pytest.raises(ValidationError, match="is a person's login"):
        system_users(tournament)

    assert not TournamentRole.objects.filter(user__username=TABLE_USERNAME).exists()
