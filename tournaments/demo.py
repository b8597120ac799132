"""A demo tournament: 12 players, a 4-game preliminary with results, and an empty playoff.

Results come from a small seeded model of play (each side's 20s and board scores drawn from the
player's skill) so the demo is the same on every machine and its standings show real ties.
"""

import random
from datetime import date

from django.db import transaction

from tournaments.models import Board, Category, Entry, Player, Stage, Tournament
from tournaments.services.draws import draw_preliminary
from tournaments.services.results import RoundInput, record_game

DEMO_SLUG = "demo-club-open"

PLAYERS = [
    ("Anna", "Brubacher", "Tavistock", "Canada"),
    ("Ben", "Schmidt", "Tavistock", "Canada"),
    ("Carla", "Martin", "Kitchener", "Canada"),
    ("Dan", "Okafor", "Kitchener", "Canada"),
    ("Elise", "Dubois", "Montréal", "Canada"),
    ("Finn", "Larsen", "Copenhagen", "Denmark"),
    ("Greta", "Weber", "Berlin", "Germany"),
    ("Hiro", "Tanaka", "Osaka", "Japan"),
    ("Ines", "Costa", "Porto", "Portugal"),
    ("Jack", "Murphy", "Dublin", "Ireland"),
    ("Kai", "Nowak", "Kraków", "Poland"),
    ("Lena", "Fischer", "Berlin", "Germany"),
]


def demo_round(rng: random.Random, skill_a: float, skill_b: float, discs: int) -> RoundInput:
    """One plausible round: 20s by skill, the rest of the board in multiples of 5."""
    tw_a = sum(rng.random() < skill_a * 0.2 for _ in range(discs))
    tw_b = sum(rng.random() < skill_b * 0.2 for _ in range(discs))
    rest_a = 5 * rng.randint(0, 6) if rng.random() < skill_a else 0
    rest_b = 5 * rng.randint(0, 6) if rng.random() < skill_b else 0
    return RoundInput(twenties=(tw_a, tw_b), score=(20 * tw_a + rest_a, 20 * tw_b + rest_b))


@transaction.atomic
def load_demo(seed: int = 2026) -> Tournament:
    """Create the demo tournament (replacing an earlier one) and play its preliminary."""
    Tournament.objects.filter(slug=DEMO_SLUG).delete()
    tournament = Tournament.objects.create(
        name="Demo Club Open", slug=DEMO_SLUG, venue="Community Hall", starts_on=date(2026, 11, 21)
    )
    Board.objects.bulk_create(Board(tournament=tournament, number=n) for n in range(1, 7))
    category = Category.from_preset(tournament, "competitive-singles")
    category.save()
    rng = random.Random(seed)
    skill = {}
    for number, (first, last, club, country) in enumerate(PLAYERS, start=1):
        player = Player.objects.create(
            tournament=tournament,
            first_name=first,
            last_name=last,
            number=100 + number,
            club=club,
            country=country,
        )
        entry = Entry.objects.create(category=category, player=player, checked_in=True)
        skill[entry.id] = 0.45 + 0.5 * rng.random()
    prelim = Stage.objects.create(
        category=category,
        name="Preliminary",
        kind=Stage.Kind.PRELIMINARY,
        order=1,
        games_per_entry=4,
        advance_count=4,
        seed=seed,
    )
    Stage.objects.create(
        category=category, name="Playoff", kind=Stage.Kind.KNOCKOUT, order=2, best_of=3
    )
    for match in draw_preliminary(prelim):
        for game in match.games.all():
            rounds = [
                demo_round(
                    rng, skill[match.entry_a_id], skill[match.entry_b_id], category.discs_per_side
                )
                for _ in range(category.rounds_per_game)
            ]
            record_game(game, rounds)
    return tournament
