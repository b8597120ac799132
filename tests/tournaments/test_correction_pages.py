"""The organizer's correction pages: the draw page with check-in first, undo and swap, bulk
check-in, edit and delete pages with their confirmations, and the audit page."""

import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils.html import escape

from tests.factories import CategoryFactory, EntryFactory, StageFactory, TournamentFactory
from tournaments.models import Category, Entry, Match, Player, Stage, Tournament, TournamentRole
from tournaments.services import forfeits, registration

pytestmark = pytest.mark.django_db


def url(name, tournament, *args):
    return reverse(f"tournaments:{name}", args=[tournament.slug, *args])


@pytest.fixture
def tournament():
    return TournamentFactory(slug="spring-open")


@pytest.fixture
def org(client, tournament):
    user = User.objects.create_user("olga")
    TournamentRole.objects.create(
        tournament=tournament, user=user, role=TournamentRole.Role.ORGANIZER
    )
    client.force_login(user)
    return client


@pytest.fixture
def category(tournament):
    return CategoryFactory(tournament=tournament, name="Singles")


@pytest.fixture
def stage(category):
    return StageFactory(category=category, games_per_entry=1)


def test_a_draw_with_someone_not_checked_in_shows_them_first(org, tournament, category, stage):
    entries = [EntryFactory(category=category, player__number=10 + i) for i in range(4)]
    late = entries[3]
    Entry.objects.filter(pk=late.pk).update(checked_in=False)
    response = org.post(url("manage-stage-draw", tournament, stage.pk), {"method": "rotation"})
    page_url = url("manage-stage-draw", tournament, stage.pk)
    assert response.status_code == 302 and response["Location"] == f"{page_url}?method=rotation"
    assert not Match.objects.exists()
    page = org.get(response["Location"]).content.decode()
    assert late.name in page and "1 entry is neither checked in nor withdrawn" in page
    assert 'name="method" value="rotation"' in page
    assert url("manage-entry-withdraw", tournament, late.pk) in page
    # "Check in all" on that page, then the draw goes through.
    back = org.post(
        url("manage-checkin-bulk", tournament),
        {"action": "everyone", "category": category.pk, "next": page_url},
    )
    assert back["Location"] == page_url
    late.refresh_from_db()
    assert late.checked_in
    done = org.post(page_url, {"method": "rotation"})
    assert done["Location"] == url("manage-category", tournament, category.pk)
    assert Match.objects.filter(stage=stage).count() == 2


def test_undo_and_swap_from_the_draw_page(org, tournament, category, stage):
    a, b, c, d = (EntryFactory(category=category) for _ in range(4))
    org.post(url("manage-stage-draw", tournament, stage.pk))
    page = org.get(url("manage-stage-draw", tournament, stage.pk)).content.decode()
    assert "Undo the draw" in page and "Swap" in page
    before = {m.pk: {m.entry_a_id, m.entry_b_id} for m in Match.objects.filter(stage=stage)}
    partner = next(m for m in before.values() if a.pk in m) - {a.pk}
    other = next(e for e in (b, c, d) if e.pk not in partner)
    response = org.post(
        url("manage-stage-swap", tournament, stage.pk), {"a": a.pk, "b": other.pk}, follow=True
    )
    assert f"{a.name} and {other.name} swapped" in response.content.decode()
    match_of_a = next(
        m for m in Match.objects.filter(stage=stage) if a.pk in (m.entry_a_id, m.entry_b_id)
    )
    assert {match_of_a.entry_a_id, match_of_a.entry_b_id} - {a.pk} != partner
    bad = org.post(url("manage-stage-swap", tournament, stage.pk), {"a": "x", "b": ""}, follow=True)
    assert "Choose the two entries to swap." in bad.content.decode()
    undone = org.post(url("manage-stage-undo", tournament, stage.pk), follow=True)
    assert "draw undone (2 matches removed)" in undone.content.decode()
    assert not Match.objects.filter(stage=stage).exists()
    again = org.post(url("manage-stage-undo", tournament, stage.pk), follow=True)
    assert "nothing to undo" in again.content.decode()


def test_bulk_check_in_by_numbers_names_unknown_numbers_and_keeps_the_list(
    org, tournament, category
):
    for n in (1, 2, 3):
        EntryFactory(category=category, player__number=n, checked_in=False)
    response = org.post(url("manage-checkin-bulk", tournament), {"numbers": "1\n2\n42"})
    html = response.content.decode()
    assert response.status_code == 400 and "No player has the ID number 42" in html
    assert "1\n2\n42</textarea>" in html
    assert not Entry.objects.filter(checked_in=True).exists()
    words = org.post(url("manage-checkin-bulk", tournament), {"numbers": "1 two"})
    assert words.status_code == 400 and "Not an ID number: two" in words.content.decode()
    ok = org.post(url("manage-checkin-bulk", tournament), {"numbers": "1, 2"}, follow=True)
    assert "Checked in 2." in ok.content.decode()
    assert Entry.objects.filter(checked_in=True).count() == 2


def test_a_withdrawn_entry_says_why_it_has_no_check_in_and_no_walkovers_before_the_draw(
    org, tournament, category, stage
):
    """Withdrawn: no "Check in" (it would be refused), but the reason in words; and before any
    draw nothing became a walkover, so no "walkovers" page is offered; after the draw it is."""
    entries = [EntryFactory(category=category, player__number=20 + i) for i in range(4)]
    leaving = entries[0]
    registration.set_withdrawn(entry=leaving, withdrawn=True)
    ruling = reverse("scoring:rulings:entry", args=[tournament.slug, leaving.pk])

    def row() -> str:
        page = org.get(url("manage-checkin", tournament)).content.decode()
        return re.search(rf'<tr id="entry-{leaving.pk}".*?</tr>', page, re.S).group(0)

    before = row()
    # the step's own refusal (``entry_actions.check_in_entry``), where the button would be
    words = escape(f"{leaving.name} has withdrawn; reinstate the entry to check it in.")
    assert words in before and "Reinstate" in before
    assert "Check in</button>" not in before and "disabled" not in before
    assert ruling not in before
    registration.set_withdrawn(entry=leaving, withdrawn=False)
    registration.set_checked_in(entry=leaving, checked_in=True)
    org.post(url("manage-stage-draw", tournament, stage.pk), {"method": "rotation"})
    assert Match.objects.filter(stage=stage).exists()
    forfeits.withdraw_entry(entry=leaving, reason="ill")
    after = row()
    assert ruling in after and "walkovers" in after


def test_edit_pages_save_through_the_services_and_show_their_refusals(
    org, tournament, category, stage
):
    anna = EntryFactory(category=category, player__number=7).player
    ben = EntryFactory(category=category, player__number=8).player
    edit = url("manage-player-edit", tournament, anna.pk)
    assert org.get(edit).status_code == 200
    taken = org.post(edit, {"first_name": "Anna", "last_name": "B", "number": 8})
    assert taken.status_code == 400 and "already registered to" in taken.content.decode()
    saved = org.post(edit, {"first_name": "Anna", "last_name": "B", "number": 9, "club": "Ayr"})
    assert saved.status_code == 302
    anna.refresh_from_db()
    assert (anna.number, anna.club, anna.last_name) == (9, "Ayr", "B")
    assert ben.number == 8

    cat = org.post(
        url("manage-category-edit", tournament, category.pk),
        {
            "name": "Open Singles",
            "kind": "singles",
            "discipline": "fingers",
            "discs_per_player": 8,
            "rounds_per_game": 4,
            "scoring_system": "nca",
        },
    )
    assert cat.status_code == 302
    assert Category.objects.get(pk=category.pk).name == "Open Singles"

    details = url("manage-edit", tournament)
    assert "cannot change" in org.get(details).content.decode()
    t = org.post(details, {"name": "Spring Open 2", "slug": "hacked", "game_minutes": 25})
    assert t.status_code == 302
    tournament = Tournament.objects.get(pk=tournament.pk)
    assert (tournament.name, tournament.slug, tournament.game_minutes) == (
        "Spring Open 2",
        "spring-open",
        25,
    )

    st = org.post(
        url("manage-stage-edit", tournament, stage.pk),
        {
            "name": "Round 1",
            "kind": "preliminary",
            "order": stage.order,
            "games_per_entry": 1,
            "best_of": 1,
            "bye_points": 8,
            "seed": 1,
            "tiebreak": "default",
        },
    )
    assert st.status_code == 302 and Stage.objects.get(pk=stage.pk).name == "Round 1"


def test_after_a_rename_the_saved_message_gives_the_new_name(org, tournament, category, stage):
    """ "Søren Kierkegård: saved." after renaming him to Søren Kierkegaard read as if the
    change had not been taken: the message names what was saved, as it is now."""
    player = EntryFactory(
        category=category, player__first_name="Søren", player__last_name="Kierkegård"
    ).player
    fields = {"first_name": "Søren", "last_name": "Kierkegaard", "number": player.number}
    saved = org.post(url("manage-player-edit", tournament, player.pk), fields, follow=True)
    said = [str(m) for m in saved.context["messages"]]
    assert said == ["Søren Kierkegaard: saved."], said
    renamed = {
        "name": "Open Singles",
        "kind": "singles",
        "discipline": "fingers",
        "discs_per_player": 8,
        "rounds_per_game": 4,
        "scoring_system": "nca",
    }
    saved = org.post(url("manage-category-edit", tournament, category.pk), renamed, follow=True)
    assert [str(m) for m in saved.context["messages"]] == ["Open Singles: saved."]
    details = {"name": "Spring Open 2", "game_minutes": 25}
    saved = org.post(url("manage-edit", tournament), details, follow=True)
    assert [str(m) for m in saved.context["messages"]] == ["Spring Open 2: saved."]


def test_delete_pages_confirm_and_refuse_what_is_in_use(org, tournament, category, stage):
    entry = EntryFactory(category=category)
    player = entry.player
    confirm = org.get(url("manage-player-delete", tournament, player.pk))
    assert confirm.status_code == 200 and "Delete" in confirm.content.decode()
    refused = org.post(url("manage-player-delete", tournament, player.pk), follow=True)
    assert "delete those entries first" in refused.content.decode()
    assert Player.objects.filter(pk=player.pk).exists()

    page = org.get(url("manage-category-delete", tournament, category.pk)).content.decode()
    assert "its 1 entry" in page and "its 1 stage" in page
    EntryFactory.create_batch(1, category=category)
    org.post(url("manage-stage-draw", tournament, stage.pk))
    drawn = org.post(url("manage-stage-delete", tournament, stage.pk), follow=True)
    assert "drawn already" in drawn.content.decode()
    assert Stage.objects.filter(pk=stage.pk).exists()
    gone = org.post(url("manage-category-delete", tournament, category.pk), follow=True)
    assert "has drawn stages" in gone.content.decode()
    org.post(url("manage-stage-undo", tournament, stage.pk))
    org.post(url("manage-category-delete", tournament, category.pk))
    assert not Category.objects.filter(pk=category.pk).exists()


def test_the_audit_page_shows_who_changed_what_before_and_after(org, tournament, category):
    player = EntryFactory(category=category, player__club="Old club").player
    org.post(
        url("manage-player-edit", tournament, player.pk),
        {
            "first_name": player.first_name,
            "last_name": player.last_name,
            "number": player.number,
            "club": "New club",
        },
    )
    org.post(url("manage-category-delete", tournament, category.pk))
    page = org.get(url("manage-audit", tournament)).content.decode()
    assert "Club: Old club → New club" in page
    assert "olga" in page
    assert page.index("Category <strong>Singles</strong> deleted") < page.index(
        "Old club → New club"
    )


def test_imported_players_have_history_with_the_organizer(org, tournament, category):
    from tournaments.services import registration

    data = "first_name,last_name,number,categories\nAnna,Berg,5,Singles\nBen,Carr,6,\n"
    preview = registration.import_preview(tournament=tournament, data=data)
    org.post(
        url("manage-import-confirm", tournament),
        {"data": registration.encode_upload(data.encode()), "fingerprint": preview.fingerprint},
    )
    history = Player.history.filter(tournament_id=tournament.pk, history_type="+")
    assert sorted(history.values_list("number", flat=True)) == [5, 6]
    assert {h.history_user.username for h in history} == {"olga"}
    assert Entry.history.filter(category_id=category.pk, history_type="+").count() == 1


def test_a_stage_filled_by_an_advance_offers_no_draw_of_its_own(org, tournament, category, stage):
    later = StageFactory(category=category, kind="knockout", order=stage.order + 1)
    EntryFactory(category=category, checked_in=False)
    page = org.get(url("manage-stage-draw", tournament, later.pk)).content.decode()
    assert f"Filled by the Advance of {stage.name}, once that stage is finished." in page
    assert f'action="{url("manage-stage-draw", tournament, later.pk)}"' not in page
