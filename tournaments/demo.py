"""A demo tournament: 12 players, a played 4-game preliminary, and its best-of-3 playoff drawn.

Officials and players get logins (password "demo") so that people can try every page.
Results come from a small seeded model of play (each side's 20s and board scores drawn from the
player's skill) so the demo is the same on every machine and its standings show real ties.
"""

import random
from datetime import date

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import transaction
from django.utils.translation import gettext

from scoring.engine import round_data
from scoring.progression.services import CutLineTieError, advance, record_shootout
from scoring.results.services import record_game
from tournaments.models import Board, Category, Entry, Player, Stage, Tournament, TournamentRole
from tournaments.services.draws import draw_preliminary

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


def demo_round(rng: random.Random, skill_a: float, skill_b: float, discs: int) -> dict:
    """One plausible round: 20s by skill, the rest of the board in multiples of 5."""
    tw_a = sum(rng.random() < skill_a * 0.2 for _ in range(discs))
    tw_b = sum(rng.random() < skill_b * 0.2 for _ in range(discs))
    rest_a = 5 * rng.randint(0, 6) if rng.random() < skill_a else 0
    rest_b = 5 * rng.randint(0, 6) if rng.random() < skill_b else 0
    return round_data(twenties=(tw_a, tw_b), score=(20 * tw_a + rest_a, 20 * tw_b + rest_b))


@transaction.atomic
def load_demo(seed: int = 2026) -> Tournament:
    """Create the demo tournament (replacing an earlier one) and play its preliminary.

    Its names are stored in the language active when it is loaded (the site's, from the
    ``load_demo`` command); the players' names, clubs and countries are data of the demo."""
    Tournament.objects.filter(slug=DEMO_SLUG).delete()
    tournament = Tournament.objects.create(
        name=gettext("Demo Club Open"),
        slug=DEMO_SLUG,
        venue=gettext("Community Hall"),
        starts_on=date(2026, 11, 21),
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
        name=gettext("Preliminary"),
        kind=Stage.Kind.PRELIMINARY,
        order=1,
        games_per_entry=4,
        advance_count=4,
        seed=seed,
    )
    Stage.objects.create(
        category=category,
        name=gettext("Playoff"),
        kind=Stage.Kind.KNOCKOUT,
        order=2,
        best_of=3,
    )
    _create_demo_users(tournament)
    for match in draw_preliminary(prelim):
        for game in match.games.all():
            rounds = [
                demo_round(
                    rng, skill[match.entry_a_id], skill[match.entry_b_id], category.discs_per_side
                )
                for _ in range(category.rounds_per_game)
            ]
            record_game(game, rounds)
    _advance_with_shootouts(prelim, rng)
    return tournament


def _advance_with_shootouts(stage: Stage, rng: random.Random) -> None:
    """Seed the playoff; a tie on the cut line is settled by shoot-outs, as at the WCC."""
    for _ in range(10):
        try:
            advance(stage, third_place=True)
            return
        except CutLineTieError as tie:
            for group in tie.ties:
                record_shootout(stage, {e: rng.randint(3, 9) for e in group.entries})


#: Logins for trying the app with the demo (password "demo"); never created outside the demo.
DEMO_PASSWORD = "demo"
DEMO_OFFICIALS = {
    "organizer": TournamentRole.Role.ORGANIZER,
    "headref": TournamentRole.Role.HEAD_REFEREE,
    "referee": TournamentRole.Role.REFEREE,
    "table": TournamentRole.Role.SCORING_TABLE,
}


def _create_demo_users(tournament: Tournament) -> None:
    User = get_user_model()
    for username, role in DEMO_OFFICIALS.items():
        user = User.objects.filter(username=username).first() or User.objects.create_user(
            username, password=DEMO_PASSWORD
        )
        TournamentRole.objects.create(tournament=tournament, user=user, role=role)
        if role == TournamentRole.Role.ORGANIZER:
            # The demo's organizer may create tournaments of their own, as a real one would.
            user.user_permissions.add(
                Permission.objects.get(
                    content_type__app_label="tournaments", codename="add_tournament"
                )
            )
    for player in tournament.players.all():
        username = player.first_name.lower()
        player.user = User.objects.filter(username=username).first() or User.objects.create_user(
            username, password=DEMO_PASSWORD, first_name=player.first_name
        )
        player.save(update_fields=["user"])
