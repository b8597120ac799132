"""The registry's matching and writes: one person across every event."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from scoring.models.record import Rating, RatingPoint, RecordedGame
from tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tournaments.models import Person
from tournaments.services import registration, registry

pytestmark = pytest.mark.django_db


def make(**fields) -> Person:
    fields.setdefault("first_name", "Anna")
    fields.setdefault("last_name", "Müller")
    return registry.create_person(**fields)


def test_name_match_ignores_accents_case_and_punctuation():
    anna = make(club="Club X")
    found = registry.find_matches(first_name="ANNA", last_name="muller")
    assert [(m.person, m.how) for m in found] == [(anna, "name")]
    obrien = make(first_name="Émile", last_name="O'Brien")
    assert registry.find_matches(first_name="emile", last_name="obrien")[0].person == obrien


def test_name_and_club_ranks_before_name_alone():
    elsewhere = make(club="Club Y")
    here = make(club="Club X")
    found = registry.find_matches(first_name="Anna", last_name="Muller", club="club x")
    assert [(m.person, m.how) for m in found] == [(here, "name-and-club"), (elsewhere, "name")]


def test_id_number_match_comes_first_and_respects_the_federation():
    other_name = make(first_name="Hanna", last_name="Schmidt", id_number="123", federation="NCA")
    make(club="Club X")
    found = registry.find_matches(
        first_name="Anna", last_name="Müller", id_number="123", federation="NCA"
    )
    assert found[0].person == other_name and found[0].how == "id-number"
    assert (
        registry.find_matches(
            first_name="Zed", last_name="Nobody", id_number="123", federation="WCC"
        )
        == []
    )


def test_a_same_name_with_another_id_number_is_another_human():
    make(id_number="999")
    assert registry.find_matches(first_name="Anna", last_name="Müller", id_number="123") == []


def test_merged_people_are_found_as_the_kept_one():
    keep = make(club="Club X")
    duplicate = make(first_name="Ana", last_name="Muller", id_number="55")
    registry.merge_people(keep=keep, duplicate=duplicate)
    found = registry.find_matches(first_name="Ana", last_name="Muller", id_number="55")
    assert [m.person for m in found] == [keep]


def test_person_for_reuses_by_id_number_or_unique_name_and_club_else_creates():
    anna = make(club="Club X", id_number="7")
    assert registry.person_for(first_name="A", last_name="B", id_number="7") == (anna, False)
    assert registry.person_for(first_name="anna", last_name="MÜLLER", club="Club X") == (
        anna,
        False,
    )
    other, created = registry.person_for(first_name="Anna", last_name="Müller", club="Club Z")
    assert created and other != anna
    # now two Annas: a name alone is not enough
    third, created = registry.person_for(first_name="Anna", last_name="Müller")
    assert created and third not in (anna, other)


def test_person_for_fills_in_what_the_person_lacked():
    anna = make()
    person, created = registry.person_for(
        first_name="Anna", last_name="Müller", id_number="42", country="Canada"
    )
    assert (person, created) == (anna, False)
    anna.refresh_from_db()
    assert (anna.id_number, anna.country) == ("42", "Canada")


def test_create_person_refuses_missing_names_and_a_held_id_number():
    with pytest.raises(ValidationError) as missing:
        registry.create_person(first_name=" ", last_name="")
    assert set(missing.value.message_dict) == {"first_name", "last_name"}
    make(club="Club X", id_number="123")
    with pytest.raises(ValidationError) as held:
        registry.create_person(first_name="Ben", last_name="Bell", id_number="123")
    assert "Anna Müller of Club X" in held.value.message_dict["id_number"][0]


def test_merge_moves_players_and_keeps_history():
    keep = make(club="Club X")
    duplicate = make(first_name="Ana", id_number="88")
    player = PlayerFactory(person=duplicate)
    by = UserFactory(is_staff=True)
    registry.merge_people(keep=keep, duplicate=duplicate, by=by)
    player.refresh_from_db()
    duplicate.refresh_from_db()
    keep.refresh_from_db()
    assert player.person == keep
    assert duplicate.merged_into == keep
    assert keep.id_number == "88"
    assert "Merged into" in duplicate.history.first().history_change_reason
    assert duplicate.history.first().history_user == by
    assert "Merged into" in player.history.first().history_change_reason


def test_merge_refuses_two_players_of_one_tournament():
    keep, duplicate = make(), make(first_name="Ana")
    tournament = TournamentFactory()
    PlayerFactory(tournament=tournament, person=keep)
    PlayerFactory(tournament=tournament, person=duplicate)
    with pytest.raises(ValidationError, match="one human cannot be two players"):
        registry.merge_people(keep=keep, duplicate=duplicate)


def test_link_refuses_a_person_already_playing_in_the_tournament():
    anna = make()
    first = PlayerFactory(person=anna)
    second = PlayerFactory(tournament=first.tournament)
    with pytest.raises(ValidationError, match="already player"):
        registry.link_player(player=second, person=anna)
    registry.unlink_player(player=first)
    registry.link_player(player=second, person=anna)
    assert second.person == anna


def test_claim_and_visibility():
    anna = make()
    user, other = UserFactory(), UserFactory()
    anna = registry.claim_person(person=anna, user=user)
    with pytest.raises(ValidationError, match="already claimed"):
        registry.claim_person(person=anna, user=other)
    with pytest.raises(ValidationError, match="Only Anna Müller"):
        registry.set_visibility(person=anna, visibility="name-only", user=other)
    registry.set_visibility(person=anna, visibility="name-only", user=user)
    anna.refresh_from_db()
    assert (anna.user, anna.visibility) == (user, "name-only")


def test_merge_moves_the_records_games_and_drops_the_duplicates_rating():
    keep, duplicate, rival = make(), make(first_name="Ana"), make(first_name="Ben")
    game = RecordedGame.objects.create(
        key="ref:1",
        discipline="singles",
        played_on=datetime.date(2025, 5, 1),
        event="Spring Cup",
        person_a=rival,
        person_b=duplicate,
        partner_b=duplicate,
    )
    Rating.objects.create(person=keep, discipline="singles", mu=25, sigma=8)
    Rating.objects.create(person=duplicate, discipline="singles", mu=30, sigma=7)
    RatingPoint.objects.create(
        person=duplicate, discipline="singles", game=game, played_on=game.played_on, mu=30, sigma=7
    )
    registry.merge_people(keep=keep, duplicate=duplicate)
    game.refresh_from_db()
    assert (game.person_a, game.person_b, game.partner_b) == (rival, keep, keep)
    assert list(
        Rating.objects.filter(person__in=[keep, duplicate]).values_list("mu", flat=True)
    ) == [25]
    assert RatingPoint.objects.get().person == keep


def test_merge_sends_its_signal_after_commit(django_capture_on_commit_callbacks):
    keep, duplicate = make(), make(first_name="Ana")
    heard = []

    def listener(sender, keep, duplicate, **kwargs):
        heard.append((keep.pk, duplicate.pk))

    registry.person_merged.connect(listener)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            registry.merge_people(keep=keep, duplicate=duplicate)
    finally:
        registry.person_merged.disconnect(listener)
    assert heard == [(keep.pk, duplicate.pk)]


def test_import_links_on_id_number_and_never_twice_in_one_tournament():
    known = make(id_number="42", club="Club X")
    tournament = TournamentFactory()
    data = (
        "first_name,last_name,club,federation_id\n"
        "Annie,Mueller,,42\n"
        "Anna,Müller,Club X,\n"  # the same name and club as line 2's person: not linked twice
        "Ben,Bell,,\n"
    )
    preview = registration.import_preview(tournament=tournament, data=data)
    result = registration.import_players(
        tournament=tournament, data=data, fingerprint=preview.fingerprint
    )
    by_line = {r.line: p for r, p in zip(preview.valid_rows, result.players, strict=True)}
    assert by_line[2].person == known
    assert by_line[3].person not in (None, known)
    assert "already plays here" in result.people[3].words
    assert (result.linked, result.new_people) == (1, 2)
