"""Ratings from the record: kept up to date after each verified game, recomputed in full after
each event and nightly, and published as a ranking per discipline."""
