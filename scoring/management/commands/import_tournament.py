"""``manage.py import_tournament <file> [--slug new]``: a tournament back from an export file."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from scoring.exports.services import ImportFileError, import_tournament


class Command(BaseCommand):
    @property
    def help(self) -> str:  # type: ignore[override]
        # Translated when the parser is built: argparse cannot wrap a lazy text.
        return _(
            "Import a tournament from a file written by export_tournament, with new primary keys, "
            "all or nothing: into an empty database (a restore) or next to other tournaments."
        )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The export file ('-' for standard input).")
        parser.add_argument(
            "--slug", help="Import under this slug (when a tournament uses the file's own)."
        )

    def handle(self, *args: Any, file: str, slug: str | None, **options: Any) -> None:
        try:
            if file == "-":
                data = sys.stdin.buffer.read()
            else:
                with open(file, "rb") as f:
                    data = f.read()
        except OSError as exc:
            raise CommandError(
                _("Cannot read %(path)s: %(why)s.") % {"path": file, "why": exc.strerror}
            ) from None
        try:
            result = import_tournament(data, slug=slug)
        except ImportFileError as exc:
            raise CommandError(
                _("Nothing imported from %(path)s. %(why)s")
                % {"path": file, "why": exc.messages[0]}
            ) from None
        self.stdout.write(self.style.SUCCESS(result.summary()))
