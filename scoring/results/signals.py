"""What other parts listen to when official results change.

``official_results_changed`` is sent once per committed transaction that changed the official
result of some games (``game_ids``), by the one hook that watches them
(:mod:`scoring.ratings.hooks`), after the ratings have followed. The live odds of the cut
(``simulation``) listen here, so that scoring never imports what sits above it.
"""

from __future__ import annotations

from django.dispatch import Signal

#: Sent with ``game_ids`` (a sorted list), after the transaction that changed them committed.
official_results_changed = Signal()
