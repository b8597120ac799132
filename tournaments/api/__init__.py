"""REST API for tournaments, categories, players, teams, entries, stages and matches."""
