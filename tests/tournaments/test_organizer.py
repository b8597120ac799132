"""The organizer pages: only organizers get in, and each page does its one job through the
services, with clear errors for bad input and nothing written by a refused request."""

import html
import re

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.engine import round_data
from scoring.results.services import record_game
from tests.factories import (
    EntryFactory,
    PlayerFactory,
    StageFactory,
    TournamentFactory,
    allow_creating_tournaments,
)
from tests.tournaments.test_stages import play_stage
from tournaments.forms import StageForm
from tournaments.models import (
    Board,
    Category,
    Entry,
    Game,
    Match,
    Player,
    Pool,
    Stage,
    Team,
    Tournament,
    TournamentRole,
)
from tournaments.services import draws

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, tournament: Tournament, *args) -> str:
    return reverse(f"tournaments:{name}", args=[tournament.slug, *args])


@pytest.fixture
def tournament() -> Tournament:
    return TournamentFactory(slug="club-open")


@pytest.fixture
def organizer(tournament) -> User:
    user = User.objects.create_user("olga")
    TournamentRole.objects.create(
        tournament=tournament, user=user, role=TournamentRole.Role.ORGANIZER
    )
    return user


@pytest.fixture
def org(client, organizer):
    client.force_login(organizer)
    return client


@pytest.fixture
def singles(tournament) -> Category:
    return Category.objects.create(tournament=tournament, name="Competitive Singles")


@pytest.fixture
def doubles(tournament) -> Category:
    return Category.objects.create(
        tournament=tournament, name="Competitive Doubles", kind="doubles", discs_per_player=6
    )


def csv_file(text: str | bytes, name: str = "players.csv") -> SimpleUploadedFile:
    data = text.encode() if isinstance(text, str) else text
    return SimpleUploadedFile(name, data, content_type="text/csv")


# Who gets in ------------------------------------------------------------------------------------


def organizer_urls(tournament, category, stage, entry, board):
    return [
        ("get", url("manage", tournament)),
        ("get", url("manage-category-create", tournament)),
        ("get", url("manage-category", tournament, category.pk)),
        ("get", url("manage-players", tournament)),
        ("get", url("manage-import", tournament)),
        ("get", url("manage-import-example", tournament)),
        ("get", url("manage-teams", tournament)),
        ("get", url("manage-checkin", tournament)),
        ("get", url("manage-boards", tournament)),
        ("post", url("manage-category-enter", tournament, category.pk)),
        ("post", url("manage-stage-create", tournament, category.pk)),
        ("post", url("manage-stage-draw", tournament, stage.pk)),
        ("post", url("manage-stage-advance", tournament, stage.pk)),
        ("post", url("manage-import-confirm", tournament)),
        ("post", url("manage-entry-checkin", tournament, entry.pk)),
        ("post", url("manage-entry-withdraw", tournament, entry.pk)),
        ("post", url("manage-board-service", tournament, board.pk)),
    ]


@pytest.fixture
def world(tournament, singles):
    stage = StageFactory(category=singles, games_per_entry=1)
    entry = EntryFactory(category=singles, checked_in=False)
    board = Board.objects.create(tournament=tournament, number=1)
    corrections = [
        ("get", url("manage-audit", tournament)),
        ("get", url("manage-edit", tournament)),
        ("post", url("manage-edit", tournament)),
        ("get", url("manage-stage-draw", tournament, stage.pk)),
        ("post", url("manage-stage-undo", tournament, stage.pk)),
        ("post", url("manage-stage-swap", tournament, stage.pk)),
        ("post", url("manage-checkin-bulk", tournament)),
        ("get", url("manage-category-edit", tournament, singles.pk)),
        ("post", url("manage-category-delete", tournament, singles.pk)),
        ("post", url("manage-stage-edit", tournament, stage.pk)),
        ("post", url("manage-stage-delete", tournament, stage.pk)),
        ("get", url("manage-player-edit", tournament, entry.player_id)),
        ("post", url("manage-player-delete", tournament, entry.player_id)),
    ]
    return organizer_urls(tournament, singles, stage, entry, board) + corrections


def test_anonymous_visitors_are_sent_to_log_in(client, world):
    for method, target in world:
        response = getattr(client, method)(target)
        assert response.status_code == 302, target
        assert response["Location"].startswith(reverse("login") + "?next="), target


def test_players_and_other_tournaments_organizers_get_403_and_change_nothing(
    client, tournament, world
):
    player_user = User.objects.create_user("pia")
    PlayerFactory(tournament=tournament, user=player_user)
    elsewhere = User.objects.create_user("otto")
    TournamentRole.objects.create(
        tournament=TournamentFactory(), user=elsewhere, role=TournamentRole.Role.ORGANIZER
    )
    referee = User.objects.create_user("rita")
    TournamentRole.objects.create(
        tournament=tournament, user=referee, role=TournamentRole.Role.REFEREE
    )
    for user in (player_user, elsewhere, referee):
        client.force_login(user)
        for method, target in world:
            response = getattr(client, method)(target, {"checked_in": "1", "withdrawn": "1"})
            assert response.status_code == 403, (user, target)
            assert b"Organizers only" in response.content
    assert not Entry.objects.filter(checked_in=True).exists()
    assert not Entry.objects.filter(withdrawn=True).exists()
    assert not Match.objects.exists()


def test_objects_of_another_tournament_are_not_found(org, tournament):
    other = EntryFactory(checked_in=False)
    response = org.post(url("manage-entry-checkin", tournament, other.pk), {"checked_in": "1"})
    assert response.status_code == 404
    other.refresh_from_db()
    assert not other.checked_in


# Creating a tournament and its categories -------------------------------------------------------


def test_create_tournament_makes_the_creator_its_organizer(client):
    user = User.objects.create_user("carl")
    allow_creating_tournaments(user)
    assert client.get(reverse("tournament-create")).status_code == 302  # log in first
    client.force_login(user)
    response = client.post(
        reverse("tournament-create"),
        {"name": "Tavistock Open 2027", "slug": "", "game_minutes": 30},
    )
    tournament = Tournament.objects.get(slug="tavistock-open-2027")
    assert response["Location"] == url("manage", tournament)
    assert user.has_perm("tournaments.manage_tournament", tournament)
    again = client.post(
        reverse("tournament-create"), {"name": "Tavistock Open 2027", "game_minutes": 30}
    )
    assert "is taken" in again.content.decode()
    backwards = client.post(
        reverse("tournament-create"),
        {"name": "Late", "starts_on": "2027-05-02", "ends_on": "2027-05-01", "game_minutes": 30},
    )
    assert "The last day cannot be before the first." in backwards.content.decode()
    assert "violated" not in backwards.content.decode()
    assert Tournament.objects.count() == 1


def test_categories_from_presets_take_the_wcc_discs(org, tournament):
    response = org.post(
        url("manage-category-create", tournament),
        {"form": "presets", "presets": ["competitive-singles", "cue-doubles", "junior"]},
    )
    assert response.status_code == 302
    discs = dict(tournament.categories.values_list("name", "discs_per_player"))
    assert discs == {"Competitive Singles": 8, "Cue Doubles": 5, "Junior": 6}
    assert tournament.categories.get(name="Cue Doubles").kind == "doubles"
    again = org.post(
        url("manage-category-create", tournament),
        {"form": "presets", "presets": ["competitive-singles", "cue-singles"]},
    )
    assert "already has Competitive Singles" in again.content.decode()
    assert tournament.categories.count() == 3  # all or nothing: Cue Singles not added either


def test_category_by_hand_and_its_errors(org, tournament):
    fields = {
        "form": "manual",
        "name": "Club Night",
        "kind": "singles",
        "discipline": "fingers",
        "discs_per_player": 8,
        "rounds_per_game": 4,
        "scoring_system": "first-to-N",
    }
    response = org.post(url("manage-category-create", tournament), fields)
    assert "first-to-N needs the target N" in response.content.decode()
    assert not tournament.categories.exists()
    response = org.post(url("manage-category-create", tournament), {**fields, "target_points": 9})
    category = tournament.categories.get()
    assert response["Location"] == url("manage-category", tournament, category.pk)
    assert (category.scoring_system, category.target_points) == ("first-to-N", 9)
    response = org.post(
        url("manage-category-create", tournament), {**fields, "discs_per_player": 14}
    )
    assert tournament.categories.count() == 1 and response.status_code == 200


def test_dashboard_lists_categories_with_entry_counts_and_stages(org, tournament, singles):
    entries = [EntryFactory(category=singles, checked_in=False) for _ in range(3)]
    entries[0].checked_in = True
    entries[0].save()
    entries[2].withdrawn = True
    entries[2].save()
    StageFactory(category=singles, name="Preliminary")
    page = org.get(url("manage", tournament)).content.decode()
    assert "Competitive Singles" in page
    assert "2 entries, 1 checked in, 1 withdrawn" in page
    assert "Preliminary" in page and "not drawn" in page
    assert url("manage-players", tournament) in page


# Registering players ----------------------------------------------------------------------------


def test_register_player_suggests_the_next_free_id_and_enters_categories(org, tournament, singles):
    PlayerFactory(tournament=tournament, number=41)
    page = org.get(url("manage-players", tournament)).content.decode()
    assert 'name="number" value="42"' in page
    response = org.post(
        url("manage-players", tournament),
        {
            "first_name": "Anna",
            "last_name": "Brubacher",
            "number": "",
            "club": "Tavistock",
            "country": "Canada",
            "categories": [singles.pk],
        },
    )
    assert response.status_code == 302
    anna = Player.objects.get(first_name="Anna", last_name="Brubacher")
    assert anna.number == 42
    assert list(anna.entries.values_list("category__name", flat=True)) == ["Competitive Singles"]


def test_register_player_with_a_taken_id_says_who_has_it(org, tournament):
    PlayerFactory(tournament=tournament, number=7, first_name="Ben", last_name="Schmidt")
    response = org.post(
        url("manage-players", tournament), {"first_name": "Anna", "last_name": "B", "number": 7}
    )
    assert response.status_code == 400
    text = response.content.decode()
    assert "ID 7 is already registered to Ben Schmidt" in text and "next free ID is 8" in text
    assert tournament.players.count() == 1


def test_doubles_categories_are_not_offered_to_single_players(org, tournament, doubles):
    response = org.post(
        url("manage-players", tournament),
        {"first_name": "Anna", "last_name": "B", "categories": [doubles.pk]},
    )
    assert response.status_code == 400
    assert not tournament.players.exists()


def test_enter_registered_player_from_the_category_page(org, tournament, singles):
    player = PlayerFactory(tournament=tournament)
    page = org.get(url("manage-category", tournament, singles.pk)).content.decode()
    assert player.full_name in page
    response = org.post(url("manage-category-enter", tournament, singles.pk), {"player": player.pk})
    assert response.status_code == 302
    assert singles.entries.filter(player=player).exists()
    again = org.post(url("manage-category-enter", tournament, singles.pk), {"player": player.pk})
    assert again.status_code == 400  # no longer offered
    assert singles.entries.count() == 1


def queries_for(client, target: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(target).status_code == 200
    return len(ctx.captured_queries)


def populate(tournament, singles, doubles, n: int) -> None:
    players = [PlayerFactory(tournament=tournament) for _ in range(n)]
    for p in players:
        EntryFactory(category=singles, player=p)
    for one, two in zip(players[::2], players[1::2], strict=False):
        team = Team.objects.create(tournament=tournament, player_one=one, player_two=two)
        Entry.objects.create(category=doubles, team=team)


@pytest.mark.parametrize(
    "page", ["manage", "manage-category", "manage-players", "manage-checkin", "manage-teams"]
)
def test_lists_take_the_same_queries_for_few_and_many_players(
    org, tournament, singles, doubles, page
):
    args = [singles.pk] if page == "manage-category" else []
    StageFactory(category=singles, order=1)
    StageFactory(category=singles, name="Final", kind="knockout", order=2)
    populate(tournament, singles, doubles, 4)
    few = queries_for(org, url(page, tournament, *args))
    populate(tournament, singles, doubles, 40)
    many_page = org.get(url(page, tournament, *args)).content.decode()
    if page != "manage":
        assert many_page.count("<tr") > 22  # 44 players, 22 teams
    assert queries_for(org, url(page, tournament, *args)) == few


# CSV import -------------------------------------------------------------------------------------

GOOD_AND_BAD = (
    "first_name;last_name;number;club;country;categories\n"
    "Anna;Brubacher;101;Tavistock;Canada;Competitive Singles\n"
    ";Nofirst;102;;;\n"
    "Ben;Schmidt;abc;;;\n"
    "Carla;Martin;101;;;\n"
    "Dan;Okafor;;;;Juniors\n"
    "Elise;Dubois;;Montréal;Canada;competitive singles\n"
    "Finn;Larsen;55;;;\n"
)


def test_preview_shows_each_row_and_its_errors_and_writes_nothing(org, tournament, singles):
    PlayerFactory(tournament=tournament, number=55, first_name="Old", last_name="Timer")
    response = org.post(url("manage-import", tournament), {"file": csv_file(GOOD_AND_BAD)})
    page = response.content.decode()
    assert response.status_code == 200
    for message in (
        "The first name is missing.",
        "ID number &#x27;abc&#x27; is not a whole number above 0.",
        "ID 101 is kept by line 2: this line is skipped",
        "Unknown category &#x27;Juniors&#x27;",
        "ID 55 is already registered (Old Timer).",
    ):
        assert message in page, message
    assert "Elise" in page and "Montréal" in page
    # the first line with ID 101 is imported (with a word about the other), the second skipped
    assert "ID 101 is also on line 5, which is skipped; this line keeps it." in page
    assert "Import 2 players, skip 5" in page
    assert tournament.players.count() == 1
    assert not Entry.objects.exists()


def test_confirm_imports_the_valid_rows_only(org, tournament, singles):
    text = GOOD_AND_BAD.replace("Carla;Martin;101", "Carla;Martin;103")
    preview = org.post(url("manage-import", tournament), {"file": csv_file(text)})
    confirm = preview.context["confirm"]
    response = org.post(
        url("manage-import-confirm", tournament),
        {"data": confirm.initial["data"], "fingerprint": confirm.initial["fingerprint"]},
        follow=True,
    )
    assert "Imported 4 players and 2 entries; skipped 3 rows with errors." in (
        response.content.decode()
    )
    numbers = dict(tournament.players.values_list("last_name", "number"))
    assert numbers == {"Brubacher": 101, "Martin": 103, "Dubois": 104, "Larsen": 55}
    assert set(singles.entries.values_list("player__last_name", flat=True)) == {
        "Brubacher",
        "Dubois",
    }


def test_confirm_refuses_when_registrations_changed_since_the_preview(org, tournament, singles):
    preview = org.post(url("manage-import", tournament), {"file": csv_file(GOOD_AND_BAD)})
    confirm = preview.context["confirm"]
    PlayerFactory(tournament=tournament, number=300)  # another desk registered someone
    response = org.post(
        url("manage-import-confirm", tournament),
        {"data": confirm.initial["data"], "fingerprint": confirm.initial["fingerprint"]},
    )
    assert "changed since the preview" in response.content.decode()
    # the new preview: the blank ID now takes the next number after 300
    assert [r.number for r in response.context["preview"].valid_rows] == [101, 301, 55]
    assert tournament.players.count() == 1


def test_confirm_with_a_tampered_file_is_refused_cleanly(org, tournament):
    response = org.post(
        url("manage-import-confirm", tournament), {"data": "%%%", "fingerprint": "x"}, follow=True
    )
    assert "upload it again" in response.content.decode()
    assert not tournament.players.exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "The submitted file is empty."),
        (b"\n\n", "The file is empty"),
        (b"name,email\nAnna,a@example.org\n", "first_name and last_name are missing"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not a CSV text file"),
        ("first_name,last_name\nÉlise,Dubois\n".encode("cp1252"), "is not UTF-8 text"),
    ],
)
def test_malformed_files_get_a_clear_error(org, tournament, data, message):
    response = org.post(url("manage-import", tournament), {"file": csv_file(data)})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not tournament.players.exists()


def test_oversized_file_refused(org, tournament):
    big = b"first_name,last_name\n" + b"Anna,Brubacher\n" * 80_000
    response = org.post(url("manage-import", tournament), {"file": csv_file(big)})
    assert response.status_code == 400 and "at most 1000 kB" in response.content.decode()


def test_import_page_documents_the_format_and_serves_the_example(org, tournament, singles):
    page = org.get(url("manage-import", tournament)).content.decode()
    assert "first_name" in page and "categories" in page and "CSV UTF-8" in page
    example = org.get(url("manage-import-example", tournament))
    assert example["Content-Type"].startswith("text/csv")
    assert "attachment" in example["Content-Disposition"]
    body = example.content.decode()
    assert body.startswith("first_name,last_name,number,club,country,categories")
    assert "Competitive Singles" in body
    preview = org.post(url("manage-import", tournament), {"file": csv_file(example.content)})
    assert not preview.context["preview"].invalid_rows


# Teams ------------------------------------------------------------------------------------------


def test_pair_team_enters_it_and_refuses_a_player_already_paired(org, tournament, doubles):
    anna, ben, carl = (PlayerFactory(tournament=tournament) for _ in range(3))
    response = org.post(
        url("manage-teams", tournament),
        {"category": doubles.pk, "player_one": anna.pk, "player_two": ben.pk},
    )
    assert response.status_code == 302
    entry = doubles.entries.get()
    assert {entry.team.player_one, entry.team.player_two} == {anna, ben}
    response = org.post(
        url("manage-teams", tournament),
        {"category": doubles.pk, "player_one": carl.pk, "player_two": ben.pk},
    )
    assert response.status_code == 400
    assert f"{ben.full_name} already plays in Competitive Doubles" in response.content.decode()
    assert doubles.entries.count() == 1 and Team.objects.count() == 1


def test_same_partners_are_one_team_across_doubles_categories(org, tournament, doubles):
    cue = Category.objects.create(tournament=tournament, name="Cue Doubles", kind="doubles")
    anna, ben = (PlayerFactory(tournament=tournament) for _ in range(2))
    for category in (doubles, cue):
        org.post(
            url("manage-teams", tournament),
            {"category": category.pk, "player_one": anna.pk, "player_two": ben.pk},
        )
    assert Team.objects.count() == 1 and Entry.objects.filter(team__isnull=False).count() == 2


def test_a_team_needs_two_players_and_a_doubles_category(org, tournament, singles, doubles):
    anna = PlayerFactory(tournament=tournament)
    same = org.post(
        url("manage-teams", tournament),
        {"category": doubles.pk, "player_one": anna.pk, "player_two": anna.pk},
    )
    assert "two different players" in same.content.decode()
    ben = PlayerFactory(tournament=tournament)
    wrong = org.post(
        url("manage-teams", tournament),
        {"category": singles.pk, "player_one": anna.pk, "player_two": ben.pk},
    )
    assert wrong.status_code == 400
    assert not Team.objects.exists()


# Check-in and withdrawal ------------------------------------------------------------------------


def test_checkin_toggle_via_htmx_returns_the_row(org, tournament, singles):
    entry = EntryFactory(category=singles)
    target = url("manage-entry-checkin", tournament, entry.pk)
    response = org.post(target, {"checked_in": "1"}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith(f'<tr id="entry-{entry.pk}"') and "<html" not in html
    assert "✓ Here" in html and 'name="checked_in" value="0"' in html
    assert "checkin-summary" not in html  # no count on the category page to update
    entry.refresh_from_db()
    assert entry.checked_in
    org.post(target, {"checked_in": "0"}, **HTMX)
    entry.refresh_from_db()
    assert not entry.checked_in


def test_checkin_toggles_carry_the_fresh_count_out_of_band(org, tournament, singles):
    """On the check-in page the count at the top comes with each toggle's row, counted after
    the toggle: no second request that a fast click could overtake."""
    first, second, third = (EntryFactory(category=singles, checked_in=False) for _ in range(3))
    page = org.get(url("manage-checkin", tournament)).content.decode()
    assert page.count('name="summary" value="1"') == 6  # both buttons of the three rows
    assert 'hx-get="?part=summary"' not in page
    for done, entry in enumerate((first, second), start=1):
        response = org.post(
            url("manage-entry-checkin", tournament, entry.pk),
            {"checked_in": "1", "summary": "1"},
            **HTMX,
        )
        html = response.content.decode()
        assert html.lstrip().startswith(f'<tr id="entry-{entry.pk}"'), "the row comes first"
        assert html.index("</tr>") < html.index('id="checkin-summary" hx-swap-oob="true"')
        assert f">{done} of 3 entries checked in</span>" in html
    withdrawn = org.post(
        url("manage-entry-withdraw", tournament, third.pk),
        {"withdrawn": "1", "summary": "1"},
        **HTMX,
    ).content.decode()
    assert ">2 of 2 entries checked in · 1 withdrawn</span>" in withdrawn


def test_checkin_without_javascript_redirects_back(org, tournament, singles):
    entry = EntryFactory(category=singles)
    back = url("manage-checkin", tournament) + "?q=x"
    response = org.post(
        url("manage-entry-checkin", tournament, entry.pk), {"checked_in": "1", "next": back}
    )
    assert response["Location"] == back
    unsafe = org.post(
        url("manage-entry-checkin", tournament, entry.pk),
        {"checked_in": "1", "next": "https://evil.example/"},
    )
    assert unsafe["Location"] == url("manage-checkin", tournament)


def test_checkin_search_via_htmx_returns_only_matching_rows(org, tournament, singles, doubles):
    anna = EntryFactory(
        category=singles, player__first_name="Anna", player__number=501, checked_in=False
    )
    EntryFactory(
        category=singles, player__first_name="Zed", player__last_name="Q", checked_in=False
    )
    partner = PlayerFactory(tournament=tournament, first_name="Annika", last_name="Lund")
    team = Team.objects.create(
        tournament=tournament, player_one=partner, player_two=PlayerFactory(tournament=tournament)
    )
    Entry.objects.create(category=doubles, team=team)
    response = org.get(
        url("manage-checkin", tournament), {"q": "ann"}, HTTP_HX_TARGET="checkin-rows", **HTMX
    )
    html = response.content.decode()
    assert "<html" not in html and "<tbody" not in html
    assert html.count("<tr") == 2 and "Anna" in html and "Annika" in html and "Zed" not in html
    by_number = org.get(url("manage-checkin", tournament), {"q": "501"})
    [found] = by_number.context["entries"]
    assert found == anna
    by_category = org.get(url("manage-checkin", tournament), {"category": doubles.pk})
    assert [e.category for e in by_category.context["entries"]] == [doubles]
    full = org.get(url("manage-checkin", tournament)).content.decode()
    assert '<span id="checkin-summary">0 of 3 entries checked in</span>' in full


def test_withdrawn_entry_is_kept_and_left_out_of_the_draw(org, tournament, singles):
    entries = [EntryFactory(category=singles) for _ in range(5)]
    entries[0].checked_in = True
    entries[0].save()
    response = org.post(
        url("manage-entry-withdraw", tournament, entries[0].pk), {"withdrawn": "1"}, **HTMX
    )
    assert (
        'class="withdrawn"' in response.content.decode()
        and "Reinstate" in response.content.decode()
    )
    entries[0].refresh_from_db()
    assert entries[0].withdrawn and not entries[0].checked_in
    refused = org.post(
        url("manage-entry-checkin", tournament, entries[0].pk), {"checked_in": "1"}, **HTMX
    )
    assert "has withdrawn" in refused.content.decode()
    stage = Stage.objects.create(
        category=singles, name="Preliminary", kind="preliminary", order=1, games_per_entry=2
    )
    org.post(url("manage-stage-draw", tournament, stage.pk))
    drawn = set(Match.objects.values_list("entry_a", flat=True)) | set(
        Match.objects.exclude(entry_b=None).values_list("entry_b", flat=True)
    )
    assert drawn == {e.pk for e in entries[1:]}
    assert Entry.objects.filter(pk=entries[0].pk).exists()
    org.post(url("manage-entry-withdraw", tournament, entries[0].pk), {"withdrawn": "0"})
    entries[0].refresh_from_db()
    assert not entries[0].withdrawn


# Stages -----------------------------------------------------------------------------------------


def stage_post(**overrides):
    data = {
        "name": "Preliminary",
        "kind": "preliminary",
        "order": "",
        "advance_count": 4,
        "games_per_entry": 4,
        "best_of": 1,
        "bye_points": 8,
        "seed": 1,
        "tiebreak": "default",
    }
    data.update(overrides)
    return data


def test_add_stages_with_default_wcc_and_custom_tiebreaks(org, tournament, singles):
    target = url("manage-stage-create", tournament, singles.pk)
    assert org.post(target, stage_post()).status_code == 302
    org.post(target, stage_post(name="Playoff", kind="round-robin", tiebreak="round-robin"))
    org.post(
        target,
        stage_post(
            name="Final",
            kind="knockout",
            best_of=3,
            tiebreak="custom",
            step_1="twenties",
            step_2="head-to-head",
            step_3="shoot-out",
        ),
    )
    stages = list(singles.stages.order_by("order"))
    assert [(s.name, s.order) for s in stages] == [("Preliminary", 1), ("Playoff", 2), ("Final", 3)]
    assert stages[0].tiebreak_chain == [] and stages[0].chain == ["twenties", "shoot-out"]
    assert stages[1].tiebreak_chain == Stage.DEFAULT_CHAINS[Stage.Kind.ROUND_ROBIN]
    assert stages[2].tiebreak_chain == ["twenties", "head-to-head", "shoot-out"]
    assert stages[2].best_of == 3


def input_attrs(html: str, name: str) -> dict[str, str]:
    """The attributes of the ``<input name=...>`` in ``html``."""
    tag = re.search(rf'<input[^>]*\bname="{name}"[^>]*>', html)
    assert tag, f"no input named {name}"
    return dict(re.findall(r'(\w[\w-]*)="([^"]*)"', tag.group(0)))


def test_games_input_lets_the_browser_send_any_number_of_games(org, tournament, singles):
    """A number input accepts min, min + step, min + 2 step...: with min 1 and no step the
    browser sends any N from 1 to 15, an even one too, which a fixed match may have (min 0
    refused nothing, step 2 from 0 refused 1 and 3). The stage refuses an even best of N in its
    own words (``test_stage_errors_are_shown_and_nothing_saved``)."""
    attrs = input_attrs(str(StageForm(next_order=1)["best_of"]), "best_of")
    assert (attrs["type"], attrs["min"], attrs["max"]) == ("number", "1", "15")
    assert "step" not in attrs
    page = org.get(url("manage-category", tournament, singles.pk)).content.decode()
    assert input_attrs(page, "best_of") == attrs
    for best_of, ok in ((1, True), (2, True), (7, True), (10, True), (0, False), (16, False)):
        form = StageForm(stage_post(best_of=best_of, match_format="fixed"), next_order=1)
        assert form.is_valid() is ok, (best_of, form.errors)


def test_category_page_offers_draw_and_advance_only_where_they_apply(org, tournament, singles):
    """The knockout after a preliminary is drawn by the preliminary's Advance, so it has no Draw
    button of its own; the preliminary's Advance waits for its draw, saying so; once the
    preliminary has advanced, its Advance button goes too."""
    entries = [EntryFactory(category=singles) for _ in range(4)]
    prelim = StageFactory(category=singles, order=1, games_per_entry=1, advance_count=2)
    final = StageFactory(category=singles, name="Final", kind="knockout", order=2, best_of=3)
    page_url = url("manage-category", tournament, singles.pk)
    draw = {s: url("manage-stage-draw", tournament, s.pk) for s in (prelim, final)}
    advance = {s: url("manage-stage-advance", tournament, s.pk) for s in (prelim, final)}
    # The Draw button posts to the draw; the stage's draw page (swap, undo) is a plain link.
    button = {s: f'action="{draw[s]}"' for s in (prelim, final)}

    page = org.get(page_url).content.decode()
    assert button[prelim] in page and button[final] not in page
    assert "Filled by the Advance of Preliminary, once that stage is finished." in page
    assert advance[prelim] not in page and advance[final] not in page
    assert "Not drawn yet: advance once the stage is drawn and played." in page
    assert "Tiebreaks: 20s, shoot-out (WCC default)" in page

    org.post(draw[prelim])
    page = org.get(page_url).content.decode()
    assert advance[prelim] in page and advance[final] not in page
    assert "once the stage is drawn and played" not in page
    play_stage(prelim, {e.id: 1 + i for i, e in enumerate(entries)})
    done = org.post(advance[prelim], follow=True).content.decode()
    assert "Preliminary: entries advanced; next: Final." in done
    assert final.matches.count() == 1

    page = org.get(page_url).content.decode()
    assert advance[prelim] not in page, "the preliminary has advanced already"
    assert button[final] not in page and button[prelim] not in page
    assert "Drawn by “Advance”" not in page


def test_advance_stays_until_the_next_stage_has_entries(org, tournament, singles):
    """Seeded pools without matches yet count as advanced too (the service refuses a second
    advance then)."""
    prelim = StageFactory(category=singles, order=1, advance_count=2, games_per_entry=1)
    pools = StageFactory(category=singles, name="Pools", kind="round-robin", order=2)
    for _ in range(4):
        EntryFactory(category=singles)
    org.post(url("manage-stage-draw", tournament, prelim.pk))
    page_url = url("manage-category", tournament, singles.pk)
    assert url("manage-stage-advance", tournament, prelim.pk) in org.get(page_url).content.decode()
    pool = Pool.objects.create(stage=pools, name="A")
    pool.entries.add(EntryFactory(category=singles))
    assert url("manage-stage-advance", tournament, prelim.pk) not in (
        org.get(page_url).content.decode()
    )


def test_organizer_pages_link_to_the_table_print_and_public_pages(
    org, organizer, tournament, singles
):
    allow_creating_tournaments(organizer)  # the header's "New tournament" is for them only
    for _ in range(4):
        EntryFactory(category=singles)
    stage = StageFactory(category=singles, games_per_entry=1)
    final = StageFactory(category=singles, name="Final", kind="knockout", order=9)
    draws.draw_preliminary(stage)
    draws.draw_knockout(final, list(singles.entries.all()))
    slug = tournament.slug
    wanted = {
        reverse("scoring:print-index", args=[slug]): "Print",
        reverse("scoring:cards:table", args=[slug]): "Scoring table",
        tournament.get_absolute_url(): "Public pages",
        reverse("tournament-create"): "New tournament",
    }
    for name in ("manage", "manage-players", "manage-checkin", "manage-category"):
        args = [singles.pk] if name == "manage-category" else []
        page = org.get(url(name, tournament, *args)).content.decode()
        for href, text in wanted.items():
            assert re.search(rf'href="{re.escape(href)}"[^>]*>{text}</a>', page), (name, text)
    category = org.get(url("manage-category", tournament, singles.pk)).content.decode()
    dashboard = org.get(url("manage", tournament)).content.decode()
    for page in (category, dashboard):
        assert f'href="{reverse("tournaments:schedule", args=[slug, stage.pk])}"' in page
        assert f'href="{reverse("tournaments:bracket", args=[slug, final.pk])}"' in page
        assert f'href="{reverse("tournaments:bracket", args=[slug, stage.pk])}"' not in page


def test_new_tournament_link_is_for_those_who_may_create_tournaments(client, organizer):
    """The header offers "New tournament" only where the page would let the visitor in: the
    site permission, which organizing one tournament does not give."""
    new = f'href="{reverse("tournament-create")}"'
    assert new not in client.get(reverse("home")).content.decode()
    client.force_login(organizer)
    assert new not in client.get(reverse("home")).content.decode()
    assert client.get(reverse("tournament-create")).status_code == 403
    allow_creating_tournaments(organizer)
    assert new in client.get(reverse("home")).content.decode()
    assert client.get(reverse("tournament-create")).status_code == 200


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"tiebreak": "custom"}, "Choose the steps of the custom order."),
        (
            {"tiebreak": "custom", "step_1": "twenties", "step_2": "twenties"},
            "chosen twice: 20s",
        ),
        ({"best_of": 2}, "Best of N needs an odd N"),
        ({"games_per_entry": ""}, "need the games each entry plays"),
        ({"order": 1}, "already has a stage number 1"),
    ],
)
def test_stage_errors_are_shown_and_nothing_saved(org, tournament, singles, overrides, message):
    StageFactory(category=singles, order=1)
    response = org.post(
        url("manage-stage-create", tournament, singles.pk), stage_post(name="X", **overrides)
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    assert singles.stages.count() == 1


def test_draw_button_draws_a_preliminary_and_reports_errors_as_messages(org, tournament, singles):
    for _ in range(6):
        EntryFactory(category=singles)
    stage = StageFactory(category=singles, games_per_entry=3)
    response = org.post(url("manage-stage-draw", tournament, stage.pk), follow=True)
    assert stage.matches.count() == 9
    assert "Preliminary: drawn (9 matches)." in response.content.decode()
    again = org.post(url("manage-stage-draw", tournament, stage.pk), follow=True)
    assert again.status_code == 200
    assert "Preliminary: Already drawn; undo the draw to draw again." in again.content.decode()
    assert stage.matches.count() == 9


def test_a_refused_draw_is_a_message(org, tournament, singles):
    stage = StageFactory(category=singles, kind="knockout", name="Final")
    draw_url = url("manage-stage-draw", tournament, stage.pk)
    page = org.get(url("manage-category", tournament, singles.pk)).content.decode()
    assert draw_url in page
    response = org.post(draw_url, follow=True)  # a knockout of nobody
    assert response.status_code == 200
    assert "Final: " in response.content.decode()
    assert not stage.matches.exists()


def test_advance_refused_by_a_tie_on_the_cut_keeps_the_shootout_stage_it_created(
    org, tournament, singles
):
    """An advance blocked by a tie on the cut line creates the shoot-out stage that settles it;
    the refusal must not undo that."""
    for _ in range(4):
        EntryFactory(category=singles)
    stage = StageFactory(category=singles, order=1, games_per_entry=1, advance_count=1)
    StageFactory(category=singles, name="Final", kind="knockout", order=2)
    org.post(url("manage-stage-draw", tournament, stage.pk))
    for game in Game.objects.filter(match__stage=stage):  # two winners level on everything
        record_game(game, [round_data(points=(2, 0))] * 4)
    response = org.post(url("manage-stage-advance", tournament, stage.pk), follow=True)
    assert response.status_code == 200
    text = html.unescape(response.content.decode())
    assert "a tie sits on the cut line" in text
    # The stage is named once (the service names it already), and the tie by the places it
    # spans: the two winners share places 1 and 2, and one of them goes on.
    assert f"{stage.name}: a tie sits on the cut line" in text
    assert f"{stage.name}: {stage}" not in text
    assert "tied on places 1 to 2, of whom 1 goes on" in text
    assert singles.stages.filter(kind="shoot-out").exists()
    assert not Match.objects.filter(stage__name="Final").exists()


def test_advance_button_seeds_the_next_stage(org, tournament, singles):
    entries = [EntryFactory(category=singles) for _ in range(4)]
    stage = StageFactory(category=singles, order=1, games_per_entry=1, advance_count=2)
    final = StageFactory(category=singles, name="Final", kind="knockout", order=2)
    org.post(url("manage-stage-draw", tournament, stage.pk))
    play_stage(stage, {e.id: 1 + i for i, e in enumerate(entries)})
    page = org.get(url("manage-category", tournament, singles.pk)).content.decode()
    assert url("manage-stage-advance", tournament, stage.pk) in page
    assert url("manage-stage-advance", tournament, final.pk) not in page  # the last stage
    ok = org.post(url("manage-stage-advance", tournament, stage.pk), {"pool_count": 2}, follow=True)
    assert "Preliminary: entries advanced; next: Final." in ok.content.decode()
    assert final.matches.count() == 1


def test_advance_an_unfinished_stage_is_a_message(org, tournament, singles):
    for _ in range(4):
        EntryFactory(category=singles)
    stage = StageFactory(category=singles, order=1, games_per_entry=1, advance_count=2)
    StageFactory(category=singles, name="Final", kind="knockout", order=2, best_of=3)
    org.post(url("manage-stage-draw", tournament, stage.pk))
    response = org.post(url("manage-stage-advance", tournament, stage.pk), follow=True)
    assert response.status_code == 200
    assert "Preliminary: Not finished: " in response.content.decode()


def test_draw_passes_the_options_of_the_stage_kind(org, tournament, singles):
    for _ in range(8):
        EntryFactory(category=singles)
    stage = StageFactory(category=singles, kind="round-robin", name="Playoff")
    target = url("manage-stage-draw", tournament, stage.pk)
    response = org.post(target, {"pool_count": "0"}, follow=True)
    assert "Pools: Ensure this value is greater than or equal to 1." in response.content.decode()
    assert not stage.matches.exists()
    org.post(target, {"pool_count": "2", "double": "on", "third_place": "on"})
    # Two pools of 4, each a double round robin: 2 x (6 pairings x 2).
    assert stage.pools.count() == 2
    assert stage.matches.count() == 24


def test_start_times_are_set_from_the_category_page(org, tournament, singles):
    for _ in range(4):
        EntryFactory(category=singles)
    stage = StageFactory(category=singles, games_per_entry=2)
    target = url("manage-stage-schedule", tournament, stage.pk)
    refused = org.post(target, {"start": "2026-05-02T09:00"}, follow=True)
    assert "No matches to schedule: draw the stage first." in refused.content.decode()
    org.post(url("manage-stage-draw", tournament, stage.pk))
    page = org.get(url("manage-category", tournament, singles.pk)).content.decode()
    assert target in page
    bad = org.post(target, {"start": "soon", "minutes_per_game": "0"}, follow=True)
    assert "First round starts: Enter a valid date/time." in bad.content.decode()
    assert not stage.matches.filter(starts_at__isnull=False).exists()
    done = org.post(
        target, {"start": "2026-05-02T09:00", "minutes_per_game": "30", "break_minutes": "10"}
    )
    assert done.status_code == 302
    starts = sorted({m.starts_at for m in stage.matches.all()})
    assert len(starts) == 2 and (starts[1] - starts[0]).total_seconds() == 40 * 60


def test_draw_of_a_preliminary_takes_its_pairing_method(org, tournament, singles):
    for _ in range(8):
        EntryFactory(category=singles)
    stage = StageFactory(category=singles, games_per_entry=3)
    response = org.post(
        url("manage-stage-draw", tournament, stage.pk), {"method": "rotation"}, follow=True
    )
    assert "Preliminary: drawn (12 matches)." in response.content.decode()
    assert stage.matches.count() == 12


# Boards -----------------------------------------------------------------------------------------


def test_set_board_count_and_mark_one_out_of_service(org, tournament):
    org.post(url("manage-boards", tournament), {"count": 6})
    assert list(tournament.boards.values_list("number", flat=True)) == [1, 2, 3, 4, 5, 6]
    org.post(url("manage-boards", tournament), {"count": 4})
    assert tournament.boards.count() == 4
    board = tournament.boards.get(number=2)
    response = org.post(
        url("manage-board-service", tournament, board.pk),
        {"in_service": "0", "note": "warped"},
        **HTMX,
    )
    assert "out of service" in response.content.decode()
    assert "<html" not in response.content.decode()
    board.refresh_from_db()
    assert not board.in_service and board.note == "warped"


def test_a_board_with_matches_is_not_removed(org, tournament, singles):
    org.post(url("manage-boards", tournament), {"count": 3})
    stage = StageFactory(category=singles)
    a, b = EntryFactory(category=singles), EntryFactory(category=singles)
    Match.objects.create(stage=stage, entry_a=a, entry_b=b, board=tournament.boards.get(number=3))
    response = org.post(url("manage-boards", tournament), {"count": 1})
    assert response.status_code == 400
    assert "Board 3 already has matches" in response.content.decode()
    assert tournament.boards.count() == 3
