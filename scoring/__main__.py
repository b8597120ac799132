"""Command-line tools of the scoring app: ``python -m scoring standings FILE.json``.

Reads the standings input as JSON (``-`` for standard input), prints the standings as JSON and
exits 0; on bad input prints a message naming the offending game or round to standard error and
exits 2. Imports no Django, so it runs without the project's settings.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from scoring.engine import (
    EngineInputError,
    compute_standings,
    format_standings,
    parse_standings_input,
)
from tournaments.translation import _

EXIT_BAD_INPUT = 2


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object hook that refuses a key given twice (JSON would silently keep the last)."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise EngineInputError(
                _("key %(key)s is given twice in one JSON object") % {"key": repr(key)}
            )
        data[key] = value
    return data


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def standings(path: str) -> int:
    """Run the standings tool on one input; returns the exit status."""
    try:
        text = _read(path)
    except (OSError, UnicodeDecodeError) as error:
        print(
            _("error: cannot read %(path)s: %(error)s") % {"path": path, "error": error},
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicate_keys)
        parsed = parse_standings_input(data)
        result = compute_standings(parsed.games, chain=parsed.chain, shootouts=parsed.shootouts)
    except json.JSONDecodeError as error:
        where = {"message": error.msg, "line": error.lineno, "column": error.colno}
        print(
            _("error: malformed JSON: %(message)s at line %(line)s column %(column)s") % where,
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    except EngineInputError as error:
        print(_("error: %(error)s") % {"error": error}, file=sys.stderr)
        return EXIT_BAD_INPUT
    print(format_standings(result))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scoring",  # untranslated: the command to type
        description=__doc__.splitlines()[0],
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    tool = commands.add_parser(
        "standings",
        help=_("compute standings from games, 20s and shoot-outs given as JSON"),
        # Translators: the JSON between braces is the input's format: keep it as it is.
        description=_(
            'Compute standings from JSON input: {"method": "preliminary" | "round-robin" | '
            '"swiss", '
            '"games": [{"a", "b", "rounds": [{"points" | "score", "twenties"}]}], '
            '"shootouts": [{"twenties": {ENTRY: N}}]}. Prints the standings as JSON; exits 2 '
            "with a message naming the game and round on bad input."
        ),
    )
    tool.add_argument("file", metavar="FILE.json", help="the input file, or - for standard input")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "standings":
        return standings(args.file)
    return EXIT_BAD_INPUT  # pragma: no cover - argparse refuses unknown commands


if __name__ == "__main__":
    sys.exit(main())
