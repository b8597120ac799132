"""``manage.py import_record FILE [--confirm]``: past results into the record, from the server.

Without ``--confirm`` it prints the preview (games new and recorded already, new and matched
people, bad lines by number) and writes nothing; with it, the file is written as the import page
writes it (``scoring.record.importing``), as the server's operator. A file with bad lines is
refused, its lines listed on standard error, and the command exits 2 (``--skip-bad-lines``
writes the other games); so does a file that cannot be read at all.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from scoring.models.record import RecordImport
from scoring.record import importing
from tournaments.actions import Refused

#: The exit status of bad input (as the standings tool's).
BAD_INPUT = 2


class Command(BaseCommand):
    @property
    def help(self) -> str:  # type: ignore[override]
        return _(
            "Import past results into the record: a Crokinole Reference CSV file, or a "
            "tournament's export file. Prints the preview; --confirm writes it."
        )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The file ('-' for standard input).")
        parser.add_argument(
            "--layout",
            choices=RecordImport.Layout.values,
            help="The file's layout (default: app-export for a .jsonl file, else "
            "crokinole-reference).",
        )
        parser.add_argument("--cue", action="store_true", help="The games were played with cues.")
        parser.add_argument(
            "--confirm", action="store_true", help="Write the file into the record."
        )
        parser.add_argument(
            "--skip-bad-lines",
            action="store_true",
            help="With --confirm: write the other games, leaving the bad lines out.",
        )

    def handle(self, *args: Any, file: str, **options: Any) -> None:
        data = self._read(file)
        layout = options["layout"] or (
            RecordImport.Layout.APP_EXPORT
            if file.endswith(".jsonl")
            else RecordImport.Layout.CROKINOLE_REFERENCE
        )
        discipline = "cue" if options["cue"] else "fingers"
        try:
            text = importing.decode(data)
            reading = importing.read_upload(text, layout)
        except Refused as exc:
            raise CommandError(
                _("Nothing imported from %(path)s. %(why)s") % {"path": file, "why": exc.text},
                returncode=BAD_INPUT,
            ) from None
        summary = importing.summarize(reading, discipline)
        self._print_preview(summary)
        for error in reading.errors:
            self.stderr.write(str(error))
        if not options["confirm"]:
            if reading.errors:
                raise CommandError(
                    _("%(count)s bad lines in %(path)s; nothing was written.")
                    % {"count": len(reading.errors), "path": file},
                    returncode=BAD_INPUT,
                )
            self.stdout.write(_("Nothing was written; run again with --confirm to write it."))
            return
        if reading.errors and not options["skip_bad_lines"]:
            refusal = importing.bad_lines_refusal(len(reading.errors), reading.errors)
            raise CommandError(refusal.text, returncode=BAD_INPUT)
        name = "<stdin>" if file == "-" else file.rsplit("/", 1)[-1]
        record_import = importing.preview(
            content=text, filename=name, layout=layout, discipline=discipline
        )
        done = importing.confirm(None, record_import, skip_bad_lines=options["skip_bad_lines"])
        self.stdout.write(self.style.SUCCESS(importing.written_message(done)))

    def _read(self, file: str) -> bytes:
        try:
            if file == "-":
                return sys.stdin.buffer.read()
            with open(file, "rb") as handle:
                return handle.read()
        except OSError as exc:
            raise CommandError(
                _("Cannot read %(path)s: %(why)s.") % {"path": file, "why": exc.strerror},
                returncode=BAD_INPUT,
            ) from None

    def _print_preview(self, summary: dict[str, Any]) -> None:
        write = self.stdout.write
        write(
            _(
                "%(lines)s lines: %(new)s new games, %(already)s recorded already, %(bad)s bad "
                "lines, %(skipped)s lines skipped (no rounds)."
            )
            % {
                "lines": summary["lines"],
                "new": summary["new_games"],
                "already": summary["recorded_already"],
                "bad": summary["error_count"],
                "skipped": summary["skipped_count"],
            }
        )
        write(_("New people (%(count)s):") % {"count": len(summary["new_people"])})
        for person in summary["new_people"]:
            write(f"  + {person['name']}")
        write(
            _("People found in the registry (%(count)s):")
            % {"count": len(summary["matched_people"])}
        )
        for person in summary["matched_people"]:
            write(f"  = {person['name']} -> {person['person_name']}")
