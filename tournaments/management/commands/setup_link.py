"""``manage.py setup_link``: print the one-time link that creates the first account of an empty
site (``tournaments.services.first_run``). ``make run DEMO=0`` and the deployment's migrate step
run it with ``--if-empty``, so the link is in their output while the site has no account."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext, gettext_noop, ngettext

from config.health import probe_host
from tournaments.services.first_run import SETUP_LINK_SECONDS, needs_first_account, new_setup_path


def default_base_url() -> str:
    """Where the site is served, as far as the settings tell: the development server's address
    with ``DEBUG``, else HTTPS on the first name of ``ALLOWED_HOSTS``."""
    if settings.DEBUG:
        return "http://127.0.0.1:8000"
    return f"https://{probe_host(','.join(settings.ALLOWED_HOSTS))}"


class Command(BaseCommand):
    # argparse cannot print a lazy text: marked here, translated as the parser is made.
    help = gettext_noop(
        "Print a one-time link that creates the first organizer account, while the site has "
        "no account at all."
    )

    def create_parser(self, prog_name, subcommand, **kwargs):
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        parser.description = gettext(self.help)
        return parser

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--url",
            default="",
            help="The site's address, e.g. https://crokinole.example.org (default: "
            "http://127.0.0.1:8000 with DEBUG, else https:// and the first ALLOWED_HOSTS).",
        )
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="Print a link only when the site has no account; otherwise say so and exit 0.",
        )

    def handle(self, *args, url: str, if_empty: bool, **options) -> None:
        if if_empty and not needs_first_account():
            self.stdout.write(gettext("The site has accounts already: no setup link is needed."))
            return
        try:
            path = new_setup_path()
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from None
        base = (url or default_base_url()).rstrip("/")
        hours = SETUP_LINK_SECONDS // 3600
        self.stdout.write(
            ngettext(
                "No account exists yet. Open this link within %(hours)s hour to create the "
                "first organizer account (it works once):",
                "No account exists yet. Open this link within %(hours)s hours to create the "
                "first organizer account (it works once):",
                hours,
            )
            % {"hours": hours}
        )
        self.stdout.write(self.style.SUCCESS(f"    {base}{path}"))
        self.stdout.write(gettext("A new link: manage.py setup_link"))
