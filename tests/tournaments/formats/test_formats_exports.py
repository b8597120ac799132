"""The pairing core's public names (its purity is an import contract in pyproject.toml)."""

import tournaments.formats


def test_public_api_is_exported():
    for name in tournaments.formats.__all__:
        assert hasattr(tournaments.formats, name), name
