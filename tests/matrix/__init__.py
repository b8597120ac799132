"""The rows of the role matrix (``tests/test_role_matrix.py``) for the declared steps
(``tournaments.actions``), one module per area of the event, so that the steps of one area and
their rows are read together.

Each module holds ``ROWS``: a step's name to its :class:`Row`: who may take it, the object it is
asked about (built from the matrix's ``World`` in a state where the step applies, so that
those allowed meet no refusal at all) and who is refused *because they play* in the game it
concerns. The matrix asks every declared step of every role and fails when a step is declared
without its row here.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Row:
    """A declared step's row of the matrix."""

    #: The roles (the matrix's ``ROLES``) that may take the step on ``target``.
    allowed: frozenset[str]
    #: ``target(world)``: the object the step is asked about, in a state where it applies.
    target: Callable[[Any], Any]
    #: The roles whose role would allow it, refused because they play in the game.
    conflicts: frozenset[str] = field(default_factory=frozenset)


def rows() -> dict[str, Row]:
    """Every area's rows, by step name; a step with rows in two areas is a mistake."""
    found: dict[str, Row] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for name, row in getattr(module, "ROWS", {}).items():
            assert name not in found, f"{name} has rows in two modules of tests/matrix"
            found[name] = row
    return found
