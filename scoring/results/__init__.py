"""Results of games and matches as the official rounds give them, and how they are recorded."""
