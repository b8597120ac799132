"""The order of people's names (``tournaments.names``): accented names are filed where a
reader looks for them, on every list of entries (check-in, a category's entries, the swap
lists, every card)."""

import html
import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tests.factories import CategoryFactory, EntryFactory, StageFactory, TournamentFactory
from tournaments.models import TournamentRole
from tournaments.names import by_name, folded
from tournaments.services.draws import draw_stage

#: Last names as the audit met them: after Z in the database's order.
SURNAMES = ["Zimmermann", "Åkesson", "Ångström", "Ó Briain", "Ölçer", "Østby", "Łukasiewicz"]
SURNAMES += ["Šimek", "Brubacher", "Bélanger", "Straße", "Ærø"]
#: The same, as a phone book files them.
FILED = [
    "Ærø",
    "Åkesson",
    "Ångström",
    "Bélanger",
    "Brubacher",
    "Łukasiewicz",
    "Ó Briain",
    "Ölçer",
    "Østby",
    "Šimek",
    "Straße",
    "Zimmermann",
]


@pytest.mark.parametrize(
    ("name", "filed_as"),
    [
        ("Åkesson", "akesson"),
        ("Østby", "ostby"),
        ("Łukasiewicz", "lukasiewicz"),
        ("Straße", "strasse"),
        ("Ærø", "aero"),
        ("Ó  Briain", "o briain"),
        ("Šimek", "simek"),
        ("Œuvray", "oeuvray"),
    ],
)
def test_a_name_is_filed_without_its_accents(name, filed_as):
    assert folded(name) == filed_as


def test_entries_are_in_the_order_of_their_names_accents_folded():
    people = [
        type("P", (), {"last_name": last, "first_name": "Ann"})() for last in reversed(SURNAMES)
    ]
    entries = [
        type("E", (), {"player_id": n + 1, "player": p, "id": n + 1})()
        for n, p in enumerate(people)
    ]
    assert [e.player.last_name for e in by_name(entries)] == FILED


def _names_in(text: str, names: list[str]) -> list[str]:
    """The names in the order the page shows them (each one's first place in the text)."""
    return sorted(names, key=text.index)


@pytest.mark.django_db
def test_every_list_of_entries_files_accented_names_in_place(client):
    tournament = TournamentFactory()
    category = CategoryFactory(tournament=tournament, name="Singles")
    stage = StageFactory(category=category, games_per_entry=1)
    for number, last in enumerate(SURNAMES, start=101):
        EntryFactory(
            category=category,
            player__tournament=tournament,
            player__first_name="Ann",
            player__last_name=last,
            player__number=number,
        )
    organizer = User.objects.create_user("olga")
    TournamentRole.objects.create(
        tournament=tournament, user=organizer, role=TournamentRole.Role.ORGANIZER
    )
    client.force_login(organizer)
    slug = tournament.slug
    pages = {
        "check-in": reverse("tournaments:manage-checkin", args=[slug]),
        "entries": reverse("tournaments:manage-category", args=[slug, category.pk]),
    }
    for what, url in pages.items():
        text = html.unescape(client.get(url).content.decode())
        assert _names_in(text, [f"Ann {n}" for n in SURNAMES]) == [f"Ann {n}" for n in FILED], what
    draw_stage(stage)
    draw = html.unescape(
        client.get(reverse("tournaments:manage-stage-draw", args=[slug, stage.pk])).content.decode()
    )
    swap = re.search(r'<select id="swap-a".*?</select>', draw, re.S).group(0)
    assert _names_in(swap, [f"Ann {n}" for n in SURNAMES]) == [f"Ann {n}" for n in FILED]
    cards = html.unescape(client.get(reverse("scoring:cards:index", args=[slug])).content.decode())
    assert _names_in(cards, [f"Ann {n}" for n in SURNAMES]) == [f"Ann {n}" for n in FILED]
