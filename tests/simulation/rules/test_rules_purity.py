"""The rules core stays pure: no Django, no compiled physics (design: the arrows point inward)."""

import ast
from pathlib import Path

import simulation.rules

PACKAGE = Path(simulation.rules.__file__).parent


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_no_rules_module_imports_django_or_the_physics():
    sources = sorted(PACKAGE.glob("*.py"))
    assert len(sources) >= 12
    for source in sources:
        offending = {
            name
            for name in imported_modules(source)
            if name.split(".")[0] in ("django", "numba", "numpy")
            or name.startswith("simulation.physics")
        }
        assert not offending, f"{source.name} imports {offending}"


def test_public_api_is_exported():
    for name in simulation.rules.__all__:
        assert hasattr(simulation.rules, name), name
