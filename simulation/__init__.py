"""Simulation: the physics of the board, the rules of play, AI players, dry runs and replays.

Importing this package is cheap: it neither imports Django nor compiles the physics. The public
entry points are loaded on first use.
"""

from typing import Any

__all__ = ["play_game", "simulate_shot"]


def __getattr__(name: str) -> Any:
    if name == "play_game":
        from simulation.game import play_game  # on first use: it loads the compiled physics

        return play_game
    if name in __all__:
        from simulation import api  # on first use: it loads the compiled physics

        return getattr(api, name)
    raise AttributeError(
        f"module 'simulation' has no attribute {name!r}"  # untranslated: Python's own wording
    )
