"""``manage.py export_tournament <slug> [-o file]``: one tournament to a file (a backup)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from scoring.exports.services import export_filename, export_tournament
from tournaments.models import Tournament


class Command(BaseCommand):
    @property
    def help(self) -> str:  # type: ignore[override]
        # Translated when the parser is built: argparse cannot wrap a lazy text.
        return _(
            "Write one tournament, with everything that belongs to it, to a JSON Lines file that "
            "import_tournament reads back (see scoring/exports/services.py for what it holds). "
            "The file holds the private links' tokens and the staff's emails: keep it safe."
        )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="The tournament's slug (its web address).")
        parser.add_argument(
            "-o",
            "--output",
            help="The file to write ('-' for standard output); by default "
            "<slug>-<date>-<time>.jsonl in the current directory.",
        )

    def handle(self, *args: Any, slug: str, output: str | None, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            known = ", ".join(Tournament.objects.order_by("slug").values_list("slug", flat=True))
            raise CommandError(
                _("There is no tournament %(slug)s. Tournaments: %(known)s.")
                % {"slug": repr(slug), "known": known or _("none")}
            )
        if output == "-":
            export_tournament(tournament, self.stdout)
            return
        path = output or export_filename(tournament)
        try:
            with open(path, "w", encoding="utf-8", newline="\n") as out:
                counts = export_tournament(tournament, out)
        except OSError as exc:
            raise CommandError(
                _("Cannot write %(path)s: %(why)s.") % {"path": path, "why": exc.strerror}
            ) from None
        total = sum(counts.values())
        done = _("Exported %(tournament)s to %(path)s (%(count)s objects).") % {
            "tournament": tournament.name,
            "path": path,
            "count": total,
        }
        self.stdout.write(self.style.SUCCESS(done))
