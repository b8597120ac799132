"""The players core's public names (its purity is an import contract in pyproject.toml)."""

import simulation.players


def test_public_api_is_exported():
    for name in simulation.players.__all__:
        assert hasattr(simulation.players, name), name
