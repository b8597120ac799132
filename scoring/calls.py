"""The calls the scoring steps make once they commit (their ``after`` hooks): "a card waits for
your validation" to the opponent of a row just filled, and "the head referee ruled on your game"
to both sides of a game forfeited or a dispute settled.

Each call is recorded and pushed by ``tournaments.services.calls``; its address leads to the card
(never to a private link: the hall screen and the public player page show the calls too). Rows
and games played by the simulation call nobody: its players have no phones.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from scoring.models import CardRow
from tournaments.models import Call, Game
from tournaments.services.calls import record_call


def _card_url(game: Game, entry_id: int) -> str:
    match = game.match
    slug = match.stage.category.tournament.slug
    return reverse("scoring:cards:card", args=[slug, match.stage_id, entry_id])


def row_waits_for_validation(row: CardRow) -> None:
    """After a row is filled: its opponents (one, or both others of three) are called to
    validate it, on the owner's card, where the row is."""
    if row is None or row.status != CardRow.Status.FILLED or row.game_id is None:
        return
    if getattr(row, "simulated", False) or row.game.simulated:
        return
    owner = row.card.entry
    url = _card_url(row.game, owner.id)
    for entry in row.game.match.entries:
        if entry.id == owner.id:
            continue
        record_call(
            entry=entry,
            kind=Call.Kind.TO_VALIDATE,
            match=row.game.match,
            game=row.game,
            game_number=row.game.number,
            other=owner.name,
            url=f"{url}#game-{row.game.id}",
        )


def game_ruled(result: Any) -> None:
    """After a forfeit (a ruling, whose ``game`` it is) or a settled dispute (the game): both
    sides of the game are told, each with their own card."""
    game = getattr(result, "game", result)
    if not isinstance(game, Game) or game.simulated:
        return
    entries = game.match.entries
    for entry in entries:
        others = " · ".join(e.name for e in entries if e.id != entry.id)
        record_call(
            entry=entry,
            kind=Call.Kind.RULING,
            match=game.match,
            game=game,
            game_number=game.number,
            other=others,
            url=_card_url(game, entry.id),
        )
