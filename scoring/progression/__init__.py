"""Stage progression: from a finished stage to the next, knockout winners, shoot-outs."""
