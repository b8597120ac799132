from django.core.management.base import BaseCommand

from tournaments.demo import DEMO_SLUG, load_demo
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Load the demo tournament (12 players, a played 4-game preliminary)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-empty", action="store_true", help="Do nothing when the demo is already there."
        )
        parser.add_argument("--seed", type=int, default=2026)

    def handle(self, *args, if_empty: bool, seed: int, **options):
        if if_empty and Tournament.objects.filter(slug=DEMO_SLUG).exists():
            self.stdout.write("Demo tournament already loaded.")
            return
        tournament = load_demo(seed=seed)
        self.stdout.write(self.style.SUCCESS(f"Loaded {tournament.name}."))
