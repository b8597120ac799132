"""The shared small event: a tournament with a singles category, its preliminary drawn, a few
checked-in players, and a user for every role, so that tests start from one realistic world
instead of each file building its own.

``tests.conftest`` gives it as the ``small_event`` fixture; a test that needs two events (the
query-count tests compare a small and a larger one) calls ``build_small_event`` itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q

from tests.factories import (
    BoardFactory,
    CategoryFactory,
    EntryFactory,
    PlayerFactory,
    StageFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
)
from tournaments.models import (
    Board,
    Category,
    Entry,
    Game,
    Match,
    Stage,
    Tournament,
    TournamentRole,
)
from tournaments.services.draws import draw_stage

Role = TournamentRole.Role

#: The officials, by the name ``SmallEvent.users`` gives them (the role's own value).
OFFICIALS = (Role.ORGANIZER, Role.HEAD_REFEREE, Role.REFEREE, Role.SCORING_TABLE)
#: The player whose game the event is about, the opponent of that game, a player of another game.
PLAYER, OPPONENT, OTHER_PLAYER, ANONYMOUS = "player", "opponent", "other-player", "anonymous"
#: Every role a test may act as: ``SmallEvent.users[role]``.
ROLES = (*(str(r) for r in OFFICIALS), PLAYER, OPPONENT, OTHER_PLAYER, ANONYMOUS)

#: A 6-2 win for the card's owner: three rounds won, the last lost, with some 20s.
WIN = [{"points": [2, 0], "twenties": [3, 1]}] * 3 + [{"points": [0, 2], "twenties": [1, 2]}]
FIRST_NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon", "Kim", "Lou")


@dataclass
class SmallEvent:
    """What ``build_small_event`` made. ``match`` is the player's first game's match (the
    player is its entry A, the opponent its entry B); ``game`` is its game."""

    tournament: Tournament
    category: Category
    stage: Stage
    boards: list[Board]
    entries: list[Entry]
    users: dict[str, User | AnonymousUser]
    match: Match
    game: Game
    by_role: dict[str, Entry] = field(default_factory=dict)

    @property
    def player(self) -> Entry:
        return self.by_role[PLAYER]

    @property
    def opponent(self) -> Entry:
        return self.by_role[OPPONENT]

    @property
    def other_player(self) -> Entry:
        return self.by_role[OTHER_PLAYER]

    def player_games(self) -> list[Game]:
        """The player's games in the preliminary, in round-of-play order."""
        plays = Q(match__entry_a=self.player) | Q(match__entry_b=self.player)
        return list(
            Game.objects.filter(plays, match__stage=self.stage).order_by(
                "match__round_of_play", "number"
            )
        )

    def play_and_verify(self, rounds: list[dict] | None = None) -> None:
        """The player's game played as at the event: the player fills their row (``rounds``,
        by default a 6-2 win), the opponent validates it, the scoring table verifies the card.
        Its result then counts."""
        from scoring.scorecards.services import card_for, fill_row, validate_row, verify_card

        card = card_for(self.stage, self.player)
        row = fill_row(card=card, game=self.game, rounds=rounds or WIN, user=self.users[PLAYER])
        validate_row(
            row=row,
            opponent_number=str(self.opponent.player.number),
            initials="OP",
            user=self.users[OPPONENT],
        )
        verify_card(card=card, user=self.users["scoring-table"])

    def login(self, client, role: str):
        """The test client signed in as ``role`` (left anonymous for ``"anonymous"``)."""
        if role != ANONYMOUS:
            client.force_login(self.users[role])
        return client


def build_small_event(*, players: int = 6, games_per_entry: int = 2, boards: int = 3) -> SmallEvent:
    """A drawn preliminary of ``players`` checked-in singles entries, ``games_per_entry`` games
    each, on ``boards`` boards; the officials hold their roles and three players have logins.

    The draw is the real one (``draw_stage``, the stage's fixed seed), so the matches, boards and
    games are what the organizer's draw button makes; the logins are linked after it, to the two
    players of the first match on the lowest board and to a player of another match.
    """
    if players < 4:
        raise ValueError("a small event needs at least 4 players: two matches in round 1")
    tournament = TournamentFactory(name="Small Open")
    event_boards = [BoardFactory(tournament=tournament, number=n) for n in range(1, boards + 1)]
    category = CategoryFactory(tournament=tournament, name="Competitive Singles")
    entries = [
        EntryFactory(
            category=category,
            checked_in=True,
            player=PlayerFactory(
                tournament=tournament,
                first_name=FIRST_NAMES[n % len(FIRST_NAMES)],
                last_name=f"Player{n + 1}",
                number=101 + n,
            ),
        )
        for n in range(players)
    ]
    stage = StageFactory(
        category=category,
        name="Preliminary",
        kind=Stage.Kind.PRELIMINARY,
        order=1,
        games_per_entry=games_per_entry,
        advance_count=4,
    )
    draw_stage(stage)

    slug = tournament.slug
    users: dict[str, User | AnonymousUser] = {}
    for role in OFFICIALS:
        users[str(role)] = TournamentRoleFactory(
            tournament=tournament, role=role, user__username=f"{role}-{slug}"
        ).user
    first, second = Match.objects.filter(stage=stage, round_of_play=1, entry_b__isnull=False)[:2]
    by_id = {entry.id: entry for entry in entries}
    by_role = {
        PLAYER: by_id[first.entry_a_id],
        OPPONENT: by_id[first.entry_b_id],
        OTHER_PLAYER: by_id[second.entry_a_id],
    }
    for role, entry in by_role.items():
        users[role] = UserFactory(username=f"{role}-{slug}")
        entry.player.user = users[role]
        entry.player.save(update_fields=["user"])
    users[ANONYMOUS] = AnonymousUser()
    return SmallEvent(
        tournament=tournament,
        category=category,
        stage=stage,
        boards=event_boards,
        entries=entries,
        users=users,
        match=first,
        game=first.games.get(number=1),
        by_role=by_role,
    )
