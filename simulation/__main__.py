"""``python -m simulation``: see :mod:`simulation.cli`."""

from simulation.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
