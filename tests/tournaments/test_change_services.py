"""Changing and removing what was registered: each service refuses what would contradict saved
matches, results or registrations, with the field named, and writes nothing when it refuses."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from tests.factories import (
    CategoryFactory,
    EntryFactory,
    MatchFactory,
    PlayerFactory,
    PoolFactory,
    StageFactory,
    TeamFactory,
    TournamentFactory,
)
from tournaments.actions import Refused
from tournaments.models import Category, Entry, Player, Stage, Team, Tournament
from tournaments.services import categories, entries, people, registration, setup
from tournaments.services.errors import StillInUse

pytestmark = pytest.mark.django_db


def refusal(call, **kwargs) -> dict[str, list[str]]:
    """The refusal's words by the field it names (a step's ``Refused`` names it as ``field``)."""
    with pytest.raises(ValidationError) as caught:
        call(**kwargs)
    if isinstance(caught.value, Refused) and caught.value.field:
        return {caught.value.field: caught.value.messages}
    return caught.value.message_dict


# Tournaments ------------------------------------------------------------------------------------


def test_a_tournament_keeps_its_web_address_and_its_days_in_order():
    tournament = TournamentFactory(slug="club-open", starts_on=datetime.date(2027, 5, 1))
    assert "slug" in refusal(setup.update_tournament, tournament=tournament, slug="renamed")
    assert refusal(
        setup.update_tournament, tournament=tournament, ends_on=datetime.date(2027, 4, 30)
    ) == {"ends_on": ["The last day cannot be before the first."]}
    setup.update_tournament(tournament=tournament, slug="club-open", venue="Hall", game_minutes=25)
    stored = Tournament.objects.get()
    assert (stored.slug, stored.venue, stored.game_minutes, stored.ends_on) == (
        "club-open",
        "Hall",
        25,
        None,
    )


# Players and teams ------------------------------------------------------------------------------


def test_a_player_is_corrected_but_keeps_a_free_number():
    anna = PlayerFactory(number=7, first_name="Anna")
    ben = PlayerFactory(tournament=anna.tournament, number=8)
    words = refusal(people.update_player, player=ben, number=7)["number"][0]
    assert words.startswith("ID 7 is already registered to Anna")
    people.update_player(player=ben, first_name="  Benedikt ", number=9)
    ben.refresh_from_db()
    assert (ben.first_name, ben.number) == ("Benedikt", 9)
    # The same number at another tournament is no clash.
    people.update_player(player=PlayerFactory(number=3), number=7)


def test_a_player_who_plays_is_not_deleted():
    entry = EntryFactory()
    with pytest.raises(StillInUse, match=f"is entered in {entry.category.name}"):
        people.delete_player(player=entry.player)
    team = TeamFactory()
    with pytest.raises(StillInUse, match="plays in the team"):
        people.delete_player(player=team.player_one)
    loose = PlayerFactory()
    people.delete_player(player=loose)
    assert not Player.objects.filter(pk=loose.pk).exists()
    assert Player.objects.count() == 3


def test_a_team_changes_partners_only_while_it_is_entered_nowhere():
    tournament = TournamentFactory()
    doubles = CategoryFactory(tournament=tournament, name="Doubles", doubles=True)
    team = TeamFactory(tournament=tournament)
    other = PlayerFactory(tournament=tournament)
    people.update_team(team=team, player_two=other, name=" The Flicks ")
    team.refresh_from_db()
    assert team.player_two == other and team.name == "The Flicks"
    registration.enter_team(category=doubles, team=team)
    moved = refusal(people.update_team, team=team, player_one=PlayerFactory(tournament=tournament))
    assert "is entered in Doubles" in moved["player_one"][0]
    people.update_team(team=team, name="Renamed")
    with pytest.raises(StillInUse, match="is entered in Doubles"):
        people.delete_team(team=team)
    assert Team.objects.get().name == "Renamed"


def test_a_team_is_two_players_of_its_tournament_and_one_partnership():
    tournament = TournamentFactory()
    anna, ben = PlayerFactory.create_batch(2, tournament=tournament)
    assert refusal(people.create_team, tournament=tournament, player_one=anna, player_two=anna) == {
        "player_two": ["A team needs two different players."]
    }
    stranger = PlayerFactory()
    assert refusal(
        people.create_team, tournament=tournament, player_one=anna, player_two=stranger
    ) == {"player_two": [f"{stranger} is not registered at this tournament."]}
    team = people.create_team(tournament=tournament, player_one=anna, player_two=ben)
    again = refusal(people.create_team, tournament=tournament, player_one=ben, player_two=anna)
    assert again == {"player_two": [f"{ben} and {anna} already form the team {team}."]}


# Entries ----------------------------------------------------------------------------------------


def test_enter_takes_one_player_or_one_team_of_the_tournament():
    singles = CategoryFactory()
    with pytest.raises(ValidationError, match="either one player or one team"):
        entries.enter(category=singles)
    doubles = CategoryFactory(tournament=singles.tournament, doubles=True)
    team = TeamFactory(tournament=singles.tournament)
    assert "singles category" in refusal(entries.enter, category=singles, team=team)["category"][0]
    entries.enter(category=doubles, team=team)
    assert "already entered" in refusal(entries.enter, category=doubles, team=team)["team"][0]
    foreign = TeamFactory()
    assert "not registered" in refusal(entries.enter, category=doubles, team=foreign)["team"][0]
    assert doubles.entries.count() == 1


def test_an_entry_keeps_who_plays_it():
    entry = EntryFactory()
    other = PlayerFactory(tournament=entry.category.tournament)
    assert "cannot change" in refusal(entries.update_entry, entry=entry, player=other)["player"][0]
    entries.update_entry(entry=entry, player=entry.player, seed=3, checked_in=True)
    entry.refresh_from_db()
    assert entry.seed == 3 and entry.checked_in


def test_a_drawn_entry_is_withdrawn_not_deleted():
    match = MatchFactory()
    with pytest.raises(StillInUse, match="withdraw the entry instead"):
        entries.delete_entry(entry=match.entry_a)
    seeded = EntryFactory(category=match.stage.category)
    PoolFactory(stage=StageFactory(category=match.stage.category), entries=[seeded])
    with pytest.raises(StillInUse, match="is seeded into"):
        entries.delete_entry(entry=seeded)
    loose = EntryFactory(category=match.stage.category)
    entries.delete_entry(entry=loose)
    assert set(Entry.objects.values_list("pk", flat=True)) == {
        match.entry_a_id,
        match.entry_b_id,
        seeded.pk,
    }


# Categories -------------------------------------------------------------------------------------


def test_a_category_is_renamed_and_corrected_until_it_is_played():
    category = CategoryFactory(name="Adult singles")
    CategoryFactory(tournament=category.tournament, name="Cue singles")
    taken = refusal(categories.update_category, category=category, name=" cue SINGLES ")
    assert taken == {"name": ["The tournament already has a category named cue SINGLES."]}
    categories.update_category(category=category, name="Adult Singles", rounds_per_game=5)
    EntryFactory(category=category)
    kind = refusal(categories.update_category, category=category, kind="doubles")
    assert "has entries already" in kind["kind"][0]
    stage = StageFactory(category=category)
    MatchFactory(stage=stage)
    played = refusal(categories.update_category, category=category, rounds_per_game=4)
    assert played == {
        "rounds_per_game": [
            "Adult Singles has drawn stages: its rounds per game cannot change now."
        ]
    }
    categories.update_category(category=category, name="Open singles")
    with pytest.raises(StillInUse, match="has drawn stages"):
        categories.delete_category(category=category)
    stored = Category.objects.get(pk=category.pk)
    assert (stored.name, stored.rounds_per_game, stored.kind) == ("Open singles", 5, "singles")


def test_a_category_not_drawn_is_deleted_with_its_entries():
    category = CategoryFactory()
    entry = EntryFactory(category=category)
    StageFactory(category=category)
    categories.delete_category(category=category)
    assert not Entry.objects.filter(pk=entry.pk).exists()
    assert Player.objects.filter(pk=entry.player_id).exists()


def test_settings_that_cannot_be_played_are_refused_in_words():
    category = CategoryFactory()
    assert refusal(categories.update_category, category=category, discs_per_player=13) == {
        "discs_per_player": ["Each player shoots from 1 to 12 discs a round."]
    }
    assert (
        "target"
        in refusal(categories.update_category, category=category, scoring_system="first-to-N")[
            "target_points"
        ][0]
    )


# Stages -----------------------------------------------------------------------------------------


def test_a_drawn_stage_keeps_what_its_matches_were_made_with():
    stage = StageFactory(order=1, games_per_entry=2)
    StageFactory(category=stage.category, order=2, kind=Stage.Kind.KNOCKOUT, name="Final")
    registration.update_stage(stage=stage, best_of=3, games_per_entry=3)
    assert (
        "already has a stage number 2"
        in refusal(registration.update_stage, stage=stage, order=2)["order"][0]
    )
    MatchFactory(stage=stage)
    # The value is judged first, then whether it may still change.
    assert "odd" in refusal(registration.update_stage, stage=stage, best_of=2)["best_of"][0]
    assert refusal(registration.update_stage, stage=stage, best_of=5) == {
        "best_of": ["Preliminary is drawn already: its best of cannot change now."]
    }
    registration.update_stage(stage=stage, name="Heats", tiebreak_chain=["twenties"], best_of=3)
    with pytest.raises(StillInUse, match="is drawn already"):
        registration.delete_stage(stage=stage)
    stored = Stage.objects.get(pk=stage.pk)
    assert (stored.name, stored.best_of, stored.chain) == ("Heats", 3, ["twenties"])
    final = Stage.objects.get(name="Final")
    registration.delete_stage(stage=final)
    assert not Stage.objects.filter(pk=final.pk).exists()
