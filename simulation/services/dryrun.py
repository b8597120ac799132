"""Dry runs: a whole event played by the simulation on a separate copy of the tournament.

``create_dry_run`` checks the request and queues it; ``build_copy`` builds the copy ("Dry run of
<name>"): its boards, one category with the format's stages, and its field: generated players
with a spread of skill, or the real registered entries of a tournament's category with the
profiles ``simulation.services.profiles`` gives them. The copy is then auto-played to the end
(``simulation.services.autoplay``, category scope), and ``summary`` works out what the
organizer wants to know: how long the event would take on the boards, and statistics of the
play. When each of these happens is ``simulation.services.runs``'s: the dry run's states are a
thin layer over its auto-play run's.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

from django.db.models import Count, F, Q, Sum
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from simulation.models import AutoPlay, DryRun, EntryProfile, SimulatedGame
from simulation.players.estimate import profile_from_twenties
from simulation.presets import PRESETS, DryRunPreset, StageSpec, generated_players
from simulation.services import autoplay, playing
from simulation.services.profiles import entry_players
from tournaments.actions import Refused
from tournaments.models import (
    ENTRY_PEOPLE,
    Board,
    Category,
    Entry,
    Game,
    Player,
    Pool,
    Stage,
    Team,
    Tournament,
    TournamentRole,
)
from tournaments.selectors import BRACKET_POOL, FIELD_POOL

MAX_ENTRIES = 1000
MAX_BOARDS = 500


class DryRunError(Refused):
    """A dry run that cannot be made; the message says what to change."""


# --- the request ---------------------------------------------------------------------------------


def create_dry_run(
    *,
    source: Tournament | None = None,
    category: Category | None = None,
    preset: str | None = None,
    entries: int | None = None,
    boards: int | None = None,
    seed: int | None = None,
    user: Any = None,
    generated: bool = False,
) -> DryRun:
    """A queued dry run. Without ``source`` (or with ``generated``) a preset format is played
    by a generated field of ``entries`` (default: the preset's); with ``source`` the registered
    entries of its ``category`` (default: the one with most entries) play the category's own
    stages, or the preset's when one is named. Raises ``DryRunError`` naming what is wrong
    before anything is written."""
    if preset and preset not in PRESETS:
        raise DryRunError(
            _("Unknown preset %(preset)r: choose one of %(known)s.")
            % {"preset": preset, "known": ", ".join(PRESETS)}
        )
    for refusal, value, high in (
        (
            _("Number of players: %(value)r is not allowed; choose 1 to %(high)s."),
            entries,
            MAX_ENTRIES,
        ),
        (
            _("Number of boards: %(value)r is not allowed; choose 1 to %(high)s."),
            boards,
            MAX_BOARDS,
        ),
    ):
        if value is not None and (isinstance(value, bool) or not 1 <= value <= high):
            raise DryRunError(refusal % {"value": value, "high": high})
    chosen = PRESETS[preset] if preset else None
    if source is None or generated:
        chosen = chosen or PRESETS["wcc-singles"]
        count = entries or chosen.entries
        if count < chosen.min_entries:
            if chosen.doubles:
                refusal = _(
                    "The %(format)s format needs at least %(needed)s teams; %(count)s were asked "
                    "for."
                )
            else:
                refusal = _(
                    "The %(format)s format needs at least %(needed)s players; %(count)s were "
                    "asked for."
                )
            raise DryRunError(
                refusal % {"format": _(chosen.name), "needed": chosen.min_entries, "count": count}
            )
    else:
        category = category or _busiest_category(source)
        if category is None or category.tournament_id != source.id:
            raise DryRunError(
                _("%(tournament)s has no category with entries to rehearse.")
                % {"tournament": source}
            )
        count = category.entries.filter(withdrawn=False).count()
        stages = _source_stages(category)
        if chosen is None and not stages:
            raise DryRunError(
                _("%(category)s has no stages yet: add its stages, or choose a preset format.")
                % {"category": category.name}
            )
        needed = chosen.min_entries if chosen else _min_entries(stages)
        if count < needed:
            raise DryRunError(
                _(
                    "%(category)s has %(count)s active entries; its format needs at least "
                    "%(needed)s."
                )
                % {"category": category.name, "count": count, "needed": needed}
            )
        if chosen is not None and chosen.doubles != (category.kind == Category.Kind.DOUBLES):
            if chosen.doubles:
                refusal = _("The %(format)s format is for doubles; %(category)s is %(kind)s.")
            else:
                refusal = _("The %(format)s format is for singles; %(category)s is %(kind)s.")
            raise DryRunError(
                refusal
                % {
                    "format": _(chosen.name),
                    "category": category.name,
                    "kind": category.get_kind_display().lower(),
                }
            )
    default_boards = source.boards.filter(in_service=True).count() if source else 0
    return DryRun.objects.create(
        source=source,
        source_category=category if source and not generated else None,
        preset=chosen.key if chosen else "",
        entries=count,
        boards=boards or default_boards or max(1, count // 2),
        seed=seed if seed is not None else playing.derive_seed(timezone.now().isoformat()) % 10**9,
        requested_by=user if user is not None and user.is_authenticated else None,
    )


def _busiest_category(tournament: Tournament) -> Category | None:
    return (
        tournament.categories.annotate(n=Count("entries", filter=Q(entries__withdrawn=False)))
        .filter(n__gt=0)
        .order_by("-n", "name")
        .first()
    )


def _source_stages(category: Category) -> list[Stage]:
    return list(category.stages.exclude(kind=Stage.Kind.SHOOTOUT).order_by("order"))


def _min_entries(stages: list[Stage]) -> int:
    first = stages[0]
    return max(
        (first.games_per_entry or 1) + 1 if first.kind == "preliminary" else 2,
        first.advance_count or 2,
    )


# --- building the copy ---------------------------------------------------------------------------


def build_copy(dry_run: DryRun) -> AutoPlay:
    """Build the copy tournament and the queued auto-play run that will play it, and set them
    on ``dry_run`` (the caller saves it: ``simulation.services.runs.start_dry_run`` does, in
    the same transaction, so a copy that cannot be built leaves nothing behind)."""
    preset = PRESETS.get(dry_run.preset)
    source = dry_run.source
    if not dry_run.source_category_id and preset is None:
        raise DryRunError(
            _("The category this dry run copied from is gone; start a new dry run.")
            if source
            else _("Unknown preset %(preset)r.") % {"preset": dry_run.preset}
        )
    base = source.name if source else _(preset.name)
    copy = Tournament.objects.create(
        name=(_("Dry run of %(name)s (#%(number)s)") % {"name": base, "number": dry_run.pk})[:200],
        slug=f"dry-run-{dry_run.pk}-{slugify(base)[:40]}".rstrip("-"),
        venue=_("Simulation"),
        starts_on=source.starts_on if source else None,
        ends_on=source.ends_on if source else None,
        game_minutes=source.game_minutes if source else 30,
    )
    if dry_run.requested_by_id:
        TournamentRole.objects.create(
            tournament=copy, user_id=dry_run.requested_by_id, role=TournamentRole.Role.ORGANIZER
        )
    Board.objects.bulk_create(
        Board(tournament=copy, number=n) for n in range(1, dry_run.boards + 1)
    )
    if dry_run.source_category_id:
        category = _copy_category(copy, dry_run.source_category, preset, dry_run.seed)
        _copy_entries(copy, category, dry_run.source_category)
    else:
        category = Category.from_preset(copy, preset.category_preset)
        category.save()
        _add_stages(category, preset.stages, dry_run.seed)
        _generate_entries(copy, category, preset, dry_run.entries, dry_run.seed)
    run = AutoPlay(
        tournament=copy,
        category=category,
        scope=AutoPlay.Scope.CATEGORY,
        seed=dry_run.seed,
        requested_by_id=dry_run.requested_by_id,
    )
    run.games_expected = autoplay.expected_games(run, advancing=True)
    run.save()
    dry_run.copy = copy
    dry_run.run = run
    return run


def _add_stages(category: Category, specs: tuple[StageSpec, ...], seed: int) -> None:
    for order, spec in enumerate(specs, start=1):
        stage = Stage.objects.create(
            category=category,
            name=_(spec.name),
            kind=spec.kind,
            order=order,
            games_per_entry=spec.games_per_entry,
            advance_count=spec.advance_count,
            best_of=spec.best_of,
            third_place=spec.third_place,
            seed=playing.derive_seed(seed, "draw", order) % 2**31,
        )
        # advance() seeds a round robin into the stage's empty pools (WCC: two pools of 8).
        Pool.objects.bulk_create(
            Pool(stage=stage, name=chr(ord("A") + k)) for k in range(spec.pools)
        )


def _copy_category(
    copy: Tournament, source: Category, preset: DryRunPreset | None, seed: int
) -> Category:
    category = Category.objects.create(
        tournament=copy,
        name=source.name,
        preset=source.preset,
        kind=source.kind,
        discipline=source.discipline,
        discs_per_player=source.discs_per_player,
        rounds_per_game=source.rounds_per_game,
        scoring_system=source.scoring_system,
        target_points=source.target_points,
        game_minutes=source.game_minutes,
    )
    if preset is not None:
        _add_stages(category, preset.stages, seed)
        return category
    for order, stage in enumerate(_source_stages(source), start=1):
        new = Stage.objects.create(
            category=category,
            name=stage.name,
            kind=stage.kind,
            order=order,
            advance_count=stage.advance_count,
            games_per_entry=stage.games_per_entry,
            best_of=stage.best_of,
            match_format=stage.match_format,
            tiebreak_chain=stage.tiebreak_chain,
            third_place=stage.third_place,
            bye_points=stage.bye_points,
            bye_twenties=stage.bye_twenties,
            seed=stage.seed,
        )
        names = stage.pools.exclude(name__in=(BRACKET_POOL, FIELD_POOL)).values_list(
            "name", flat=True
        )
        Pool.objects.bulk_create(Pool(stage=new, name=name) for name in names)
    return category


def _copy_entries(copy: Tournament, category: Category, source: Category) -> None:
    """The source category's active entries, their players copied (names, IDs, clubs), each
    with the profile it has at the source tournament."""
    entries = list(
        source.entries.filter(withdrawn=False).select_related(*ENTRY_PEOPLE).order_by("seed", "id")
    )
    profiles = entry_players(entries, source)
    players: dict[int, Player] = {}
    for entry in entries:
        people = (
            [entry.player] if entry.player_id else [entry.team.player_one, entry.team.player_two]
        )
        for p in people:
            if p.id not in players:
                players[p.id] = Player(
                    tournament=copy,
                    first_name=p.first_name,
                    last_name=p.last_name,
                    number=p.number,
                    club=p.club,
                    country=p.country,
                )
    Player.objects.bulk_create(players.values())
    new_entries = []
    for entry in entries:
        if entry.player_id:
            new = Entry(category=category, player=players[entry.player_id], seed=entry.seed)
        else:
            team = Team.objects.create(
                tournament=copy,
                name=entry.team.name,
                player_one=players[entry.team.player_one_id],
                player_two=players[entry.team.player_two_id],
            )
            new = Entry(category=category, team=team, seed=entry.seed)
        new.checked_in = True
        new_entries.append(new)
    Entry.objects.bulk_create(new_entries)
    EntryProfile.objects.bulk_create(
        EntryProfile(
            entry=new,
            players=profiles[old.id].players,
            label=(
                _("from %(tournament)s: %(profile)s")
                % {"tournament": source.tournament.name, "profile": profiles[old.id].label}
            )[:100],
        )
        for old, new in zip(entries, new_entries, strict=True)
    )


def _generate_entries(
    copy: Tournament, category: Category, preset: DryRunPreset, count: int, seed: int
) -> None:
    per_entry = 2 if preset.doubles else 1
    people = generated_players(count * per_entry, preset, seed)
    players = Player.objects.bulk_create(
        Player(
            tournament=copy,
            first_name=p.first_name,
            last_name=p.last_name,
            number=p.number,
            club=p.club,
        )
        for p in people
    )
    entries = []
    levels = []
    for k in range(count):
        group = players[k * per_entry : (k + 1) * per_entry]
        specs = people[k * per_entry : (k + 1) * per_entry]
        if preset.doubles:
            team = Team.objects.create(tournament=copy, player_one=group[0], player_two=group[1])
            entries.append(Entry(category=category, team=team, checked_in=True))
        else:
            entries.append(Entry(category=category, player=group[0], checked_in=True))
        levels.append(specs)
    Entry.objects.bulk_create(entries)
    EntryProfile.objects.bulk_create(
        EntryProfile(
            entry=entry,
            players=[profile_from_twenties(s.twenties_per_game) for s in specs],
            label=_("generated: %(levels)s")
            % {
                "levels": " / ".join(
                    _("%(twenties).1f 20s per game") % {"twenties": s.twenties_per_game}
                    for s in specs
                )
            },
        )
        for entry, specs in zip(entries, levels, strict=True)
    )


# --- the end -------------------------------------------------------------------------------------


def summary(dry_run: DryRun) -> dict[str, Any]:
    """What the organizer wants to know of a played dry run: the time on the boards, the
    statistics of play, the games and shots it took, and its wall time."""
    copy = dry_run.copy
    run = dry_run.run
    return {
        "time": time_on_boards(copy, dry_run.boards),
        "stats": play_statistics(copy),
        "games": run.games_played if run else 0,
        "shots": run.shots if run else 0,
        "wall_s": round(dry_run.wall_seconds or 0.0, 1),
    }


def time_on_boards(tournament: Tournament, boards: int) -> dict[str, Any]:
    """How long the event would take on ``boards`` boards with each category's game time limit
    (:meth:`Category.time_limit_minutes`; an untimed category is counted at the tournament's game
    time, the nearest figure there is).

    Per round of play: its matches fill ``ceil(matches / boards)`` slots one after the other,
    and a slot lasts as many game times as the longest match of the round needed games (a
    best-of-3 plays its games on one board, one after the other). The rounds of a stage add up;
    so do the stages."""
    minutes = tournament.game_minutes
    rows = (
        Game.objects.filter(match__stage__category__tournament=tournament, rounds__isnull=False)
        .values("match_id", "match__stage_id", "match__round_of_play")
        .annotate(n=Count("id", distinct=True))
    )
    per_round: dict[tuple[int, int], list[int]] = defaultdict(list)
    for row in rows:
        per_round[(row["match__stage_id"], row["match__round_of_play"])].append(row["n"])
    stages = (
        Stage.objects.filter(category__tournament=tournament)
        .exclude(kind=Stage.Kind.SHOOTOUT)
        .select_related("category__tournament")
        .order_by("category__name", "order")
    )
    out = []
    total = 0
    for stage in stages:
        rounds = []
        for (stage_id, number), games in sorted(per_round.items()):
            if stage_id != stage.id:
                continue
            slots = math.ceil(len(games) / max(boards, 1))
            length = slots * max(games) * (stage.category.time_limit_minutes() or minutes)
            rounds.append(
                {
                    "round": number,
                    "matches": len(games),
                    "games": sum(games),
                    "slots": slots,
                    "minutes": length,
                }
            )
        stage_minutes = sum(r["minutes"] for r in rounds)
        total += stage_minutes
        out.append(
            {
                "stage": f"{stage.category.name}: {stage.name}",
                "rounds": rounds,
                "games": sum(r["games"] for r in rounds),
                "minutes": stage_minutes,
            }
        )
    return {"boards": boards, "game_minutes": minutes, "stages": out, "minutes": total}


def play_statistics(tournament: Tournament) -> dict[str, Any]:
    """Statistics of the simulated play, per stage and overall: 20s per player per round and
    per game, the open-20 rate (successful open-20 attempts / attempts, an attempt being a shot
    taken with no opponent disc in play), the share of tied rounds; and per entry its 20s per
    round and open-20 rate beside the profile it played with."""
    games = SimulatedGame.objects.filter(game__match__stage__category__tournament=tournament)
    sums = dict(
        n_games=Count("id"),
        n_rounds=Sum("rounds"),
        n_tied=Sum("tied_rounds"),
        n_cut=Sum("rounds_cut_short"),
        n_twenties=Sum(F("twenties_a") + F("twenties_b") + F("twenties_c")),
        n_att=Sum(F("open20_attempts_a") + F("open20_attempts_b") + F("open20_attempts_c")),
        n_made=Sum(F("open20_made_a") + F("open20_made_b") + F("open20_made_c")),
        n_shots=Sum("shots"),
        # Player-rounds: each round, each player of every side shot their discs.
        n_player_rounds=Sum(F("rounds") * F("players_per_side") * F("sides")),
        n_players=Sum(F("players_per_side") * F("sides")),
        n_raw=Sum("raw_size"),
    )
    by_stage = (
        games.values(
            "game__match__stage_id", "game__match__stage__name", "game__match__stage__order"
        )
        .annotate(**sums)
        .order_by("game__match__stage__order")
    )
    stages = [{"stage": row["game__match__stage__name"], **_rates(row)} for row in by_stage]
    overall = _rates(games.aggregate(**sums))
    return {"stages": stages, "overall": overall, "entries": _entry_rows(tournament)}


def _rates(row: dict[str, Any]) -> dict[str, Any]:
    games = row["n_games"] or 0
    rounds = row["n_rounds"] or 0
    twenties = row["n_twenties"] or 0
    player_rounds = row["n_player_rounds"] or 0
    players = row["n_players"] or 0
    attempts = row["n_att"] or 0
    tied = row["n_tied"] or 0
    return {
        "games": games,
        "rounds": rounds,
        "shots": row["n_shots"] or 0,
        "twenties": twenties,
        "twenties_per_player_round": twenties / player_rounds if player_rounds else 0.0,
        "twenties_per_player_game": twenties / players if players else 0.0,
        "twenties_per_game": twenties / games if games else 0.0,
        "open20_attempts": attempts,
        "open20_rate": (row["n_made"] or 0) / attempts if attempts else 0.0,
        "tied_rounds": tied,
        "tied_share": tied / rounds if rounds else 0.0,
        "rounds_cut_short": row["n_cut"] or 0,
        "record_bytes": round((row["n_raw"] or 0) / games) if games else 0,
    }


def _entry_rows(tournament: Tournament) -> list[dict[str, Any]]:
    """Per entry: games, 20s per player per round, open-20 rate, and its profile's label."""
    keys = ("games", "rounds", "twenties", "attempts", "made", "seats")
    acc: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(keys, 0))
    base = SimulatedGame.objects.filter(game__match__stage__category__tournament=tournament)
    for side in ("a", "b", "c"):
        rows = base.filter(**{f"game__match__entry_{side}__isnull": False})
        rows = rows.values(f"game__match__entry_{side}").annotate(
            n_games=Count("id"),
            n_rounds=Sum("rounds"),
            n_twenties=Sum(f"twenties_{side}"),
            n_attempts=Sum(f"open20_attempts_{side}"),
            n_made=Sum(f"open20_made_{side}"),
            # Players per side times rounds: the player-rounds behind the side's 20s.
            n_seats=Sum(F("rounds") * F("players_per_side")),
        )
        for row in rows:
            item = acc[row[f"game__match__entry_{side}"]]
            for key in keys:
                item[key] += row[f"n_{key}"] or 0
    labels = dict(
        EntryProfile.objects.filter(entry_id__in=list(acc)).values_list("entry_id", "label")
    )
    entries = Entry.objects.filter(id__in=list(acc)).select_related(*ENTRY_PEOPLE)
    names = {e.id: (e.name, e.number) for e in entries}
    out = []
    for entry_id, item in acc.items():
        name, number = names.get(entry_id, ("?", ""))
        out.append(
            {
                "entry": name,
                "number": number,
                "games": item["games"],
                "twenties": item["twenties"],
                "twenties_per_player_round": (
                    item["twenties"] / item["seats"] if item["seats"] else 0.0
                ),
                "open20_rate": item["made"] / item["attempts"] if item["attempts"] else 0.0,
                "profile": labels.get(entry_id, ""),
            }
        )
    out.sort(key=lambda r: -r["twenties_per_player_round"])
    return out
