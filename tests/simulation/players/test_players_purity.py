"""The players core stays pure: no Django anywhere in it."""

import ast
from pathlib import Path

import simulation.players

PACKAGE = Path(simulation.players.__file__).parent


def test_no_players_module_imports_django():
    sources = sorted(PACKAGE.glob("*.py"))
    assert len(sources) >= 9
    for source in sources:
        tree = ast.parse(source.read_text(encoding="utf-8"))
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
        assert not {n for n in names if n.split(".")[0] in ("django", "tournaments")}, source


def test_public_api_is_exported():
    for name in simulation.players.__all__:
        assert hasattr(simulation.players, name), name
