"""The rules core's public names (its purity is an import contract in pyproject.toml)."""

import simulation.rules


def test_public_api_is_exported():
    for name in simulation.rules.__all__:
        assert hasattr(simulation.rules, name), name
