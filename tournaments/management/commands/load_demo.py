from django.core.management.base import BaseCommand
from django.utils.translation import gettext, gettext_noop

from tournaments.demo import DEMO_SLUG, load_demo
from tournaments.models import Tournament


class Command(BaseCommand):
    # argparse cannot print a lazy text: marked here, translated as the parser is made.
    help = gettext_noop("Load the demo tournament (12 players, a played 4-game preliminary).")

    def create_parser(self, prog_name, subcommand, **kwargs):
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        parser.description = gettext(self.help)
        return parser

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-empty", action="store_true", help="Do nothing when the demo is already there."
        )
        parser.add_argument("--seed", type=int, default=2026)

    def handle(self, *args, if_empty: bool, seed: int, **options):
        if if_empty and Tournament.objects.filter(slug=DEMO_SLUG).exists():
            self.stdout.write(gettext("Demo tournament already loaded."))
            return
        tournament = load_demo(seed=seed)
        self.stdout.write(
            self.style.SUCCESS(gettext("Loaded %(name)s.") % {"name": tournament.name})
        )
