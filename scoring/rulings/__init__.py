"""Forfeits and withdrawals: the head referee's forfeit of a round or a game, and what an entry's
withdrawal or disqualification after the draw does to its games and to the bracket."""
