"""The pairing core stays free of Django, as the design's inward-pointing arrows require."""

import ast
from pathlib import Path

import tournaments.formats

PACKAGE = Path(tournaments.formats.__file__).parent


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_no_module_imports_django():
    sources = sorted(PACKAGE.glob("*.py"))
    assert len(sources) >= 8
    for source in sources:
        offending = {name for name in imported_modules(source) if name.split(".")[0] == "django"}
        assert not offending, f"{source.name} imports {offending}"


def test_public_api_is_exported():
    for name in tournaments.formats.__all__:
        assert hasattr(tournaments.formats, name), name
