"""A whole tournament exports to one file and imports back identically (the backup and restore of
an event), from the organizer pages and the management commands; a damaged file is refused with
the line at fault and leaves nothing behind.

"Identically" is checked the strict way: the tournament is exported, the database emptied of it
(its rows, its history, its users), the file imported, and the tournament exported again: the
two files hold the same lines, but for the accounts: an import never creates, links or grants
anything to an account (the roles and the players' accounts become invitations, which their
owners accept), so into an empty database the records come back naming nobody. On the site
that signed the file they name the same accounts again. The file numbers objects by itself,
not by primary key, so the new keys the import gives do not show.
"""

from __future__ import annotations

import hashlib
import io
import json

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.core.management import CommandError, call_command
from django.urls import reverse

from scoring.engine import round_data
from scoring.exports.plan import APPS, EXCLUDED, export_plan
from scoring.exports.services import (
    FORMAT,
    VERSION,
    ImportFileError,
    SlugTakenError,
    export_tournament,
    import_tournament,
)
from scoring.models import CardRow, ShootOut
from scoring.results.services import record_game
from scoring.scorecards.services import card_for, fill_row, validate_row, verify_card
from tests.events import ANONYMOUS, OTHER_PLAYER, PLAYER, SmallEvent, build_small_event
from tests.factories import (
    CategoryFactory,
    EntryFactory,
    PlayerFactory,
    PoolFactory,
    RoleChangeFactory,
    RoundClockFactory,
    ShootOutFactory,
    ShootOutScoreFactory,
    StageFactory,
    TeamFactory,
    UserFactory,
    allow_creating_tournaments,
)
from tournaments.history import tournament_changes
from tournaments.models import (
    EntryLink,
    Invitation,
    Match,
    Player,
    Stage,
    Tournament,
    TournamentRole,
)
from tournaments.services.categories import delete_category
from tournaments.services.invitations import accept
from tournaments.services.links import entry_of_token, links_of, renew_link
from tournaments.services.people import delete_player, update_player

pytestmark = pytest.mark.django_db

WIN = [{"points": [2, 0], "twenties": [3, 1]}] * 3 + [{"points": [0, 2], "twenties": [1, 2]}]


def build_full_event() -> SmallEvent:
    """The shared small event, played a little and changed: a card row through the whole
    workflow (filled, validated, verified: official rounds), a game recorded at the table, a
    shoot-out, private links (one renewed), the round clock, a staff log line, a doubles
    category with teams in a round-robin pool, and history: a player changed by the organizer,
    a player and a category (with its stage) deleted."""
    event = build_small_event()
    t, users = event.tournament, event.users
    card = card_for(event.stage, event.player)
    row = fill_row(card=card, game=event.game, rounds=WIN, user=users[PLAYER])
    validate_row(
        row=row,
        opponent_number=str(event.opponent.player.number),
        initials="op",
        user=users["opponent"],
    )
    verify_card(card=card, user=users["scoring-table"])
    other = (
        Match.objects.filter(stage=event.stage, entry_b__isnull=False)
        .exclude(pk=event.match.pk)
        .first()
    )
    record_game(other.games.get(number=1), [round_data(points=(1, 1), twenties=(2, 2))] * 4)
    shootout = ShootOutFactory(stage=event.stage, order=1)
    for entry, made in zip(event.entries[:2], (7, 5), strict=True):
        ShootOutScoreFactory(shootout=shootout, entry=entry, twenties=made)
    links_of(event.entries)
    renew_link(event.entries[0])
    RoundClockFactory(tournament=t, label="Round of play 1", updated_by=users["organizer"])
    RoleChangeFactory(tournament=t, actor=users["organizer"], user=users["referee"])
    doubles = CategoryFactory(tournament=t, doubles=True, name="Doubles")
    teams = [
        EntryFactory(
            category=doubles,
            player=None,
            team=TeamFactory(
                tournament=t,
                player_one=PlayerFactory(tournament=t, number=201 + 2 * n),
                player_two=PlayerFactory(tournament=t, number=202 + 2 * n),
            ),
        )
        for n in range(3)
    ]
    PoolFactory(
        stage=StageFactory(category=doubles, kind=Stage.Kind.ROUND_ROBIN, name="Pools", order=1),
        entries=teams,
        name="A",
    )
    player = event.other_player.player
    player._history_user = users["organizer"]
    update_player(player=player, club="Renamed Club")
    delete_player(player=PlayerFactory(tournament=t, number=999))
    cancelled = CategoryFactory(tournament=t, name="Cancelled")
    StageFactory(category=cancelled, order=1)
    delete_category(category=cancelled)
    return event


def export_text(tournament: Tournament) -> str:
    out = io.StringIO()
    export_tournament(tournament, out)
    return out.getvalue()


def body(text: str) -> list[str]:
    """The lines that must match between two exports: all but the header's moment of export and
    the checksum over it."""
    lines = text.splitlines()
    header = json.loads(lines[0])
    header.pop("exported_at")
    end = json.loads(lines[-1])["end"]
    return [json.dumps(header), *lines[1:-1], json.dumps(end["objects"], sort_keys=True)]


def wipe() -> None:
    """Empty the database of tournaments: every row of every planned model, the history tables,
    the users (an empty database as a restore finds it)."""
    plan = export_plan()
    for p in reversed(plan.models):
        p.model._base_manager.all().delete()
    for p in plan.models:
        if p.history is not None:
            p.history._base_manager.all().delete()
    User.objects.all().delete()


def audit_lines(tournament: Tournament) -> list[tuple]:
    """The audit page's lines, with the user ids it shows as the users' names (a restore gives
    the users new ids)."""
    names = {str(pk): name for pk, name in User.objects.values_list("pk", "username")}

    def value(label: str, text: str) -> str:
        return names.get(text, text) if label == "user" else text

    return [
        (
            c.when,
            c.who,
            c.kind,
            c.name,
            c.action,
            c.reason,
            [(f.label, value(f.label, f.before), value(f.label, f.after)) for f in c.fields],
        )
        for c in tournament_changes(tournament)
    ]


def reseal(lines: list[str]) -> str:
    """A file with its end line's checksum made again and no signature: a file written wrongly
    elsewhere (not damaged, not signed by this site)."""
    end = json.loads(lines[-1])
    text = "".join(line + "\n" for line in lines[:-1])
    end["end"]["sha256"] = hashlib.sha256(text.encode()).hexdigest()
    end["end"].pop("signed_by", None)
    end["end"].pop("signature", None)
    return text + json.dumps(end) + "\n"


def without_accounts(text: str) -> list[str]:
    """``body`` with what an import never brings back into a database without the accounts:
    the users, the roles (invitations now) and every reference to an account."""
    plan = export_plan()
    user_fields = {p.label: p.user_fields for p in plan.models}
    user_fields |= {p.history_label: p.history_user_fields for p in plan.models if p.history}
    dropped = {"auth.user", "tournaments.tournamentrole"}
    out = []
    for line in body(text)[:-1]:
        obj = json.loads(line)
        label = obj.get("model")
        if label in dropped:
            continue
        for name in user_fields.get(label, ()):
            obj["fields"][name] = None
        out.append(json.dumps(obj))
    counts = {k: v for k, v in json.loads(body(text)[-1]).items() if k not in dropped}
    return [*out, json.dumps(counts, sort_keys=True)]


# --- the plan --------------------------------------------------------------------------------


def test_every_model_is_exported_or_deliberately_excluded():
    """A model added to the apps travels in the export, or is listed with the reason it does
    not: never left out silently."""
    plan = export_plan()
    planned = {p.model for p in plan.models} | {p.history for p in plan.models if p.history}
    for app in APPS:
        for model in apps.get_app_config(app).get_models():
            assert model in planned or model._meta.label in EXCLUDED, model._meta.label
    labels = [p.label for p in plan.models]
    assert labels[0] == "tournaments.tournament"
    for p in plan.models:  # each after the models it refers to
        for target in p.references.values():
            assert labels.index(target._meta.label_lower) <= labels.index(p.label), p.label


# --- the round trip --------------------------------------------------------------------------


def test_a_tournament_comes_back_identically_into_an_empty_database():
    event = build_full_event()
    slug = event.tournament.slug
    first = export_text(event.tournament)
    audit = audit_lines(event.tournament)
    granted = TournamentRole.objects.filter(tournament=event.tournament).count()
    linked = event.tournament.players.exclude(user=None).count()
    assert granted == 4 and linked
    token = EntryLink.objects.get(entry=event.entries[0]).token
    created_at = event.tournament.created_at
    lines = [json.loads(line) for line in first.splitlines()]
    models_in_file = {line.get("model") for line in lines}
    for label in (
        "tournaments.historicalcategory",
        "scoring.historicalcardrow",
        "tournaments.pool",
        "scoring.shootoutscore",
        "tournaments.roundclock",
        "tournaments.rolechange",
        "tournaments.entrylink",
        "auth.user",
    ):
        assert label in models_in_file, label
    assert "password" not in first

    # The accounts travel as usernames only: no e-mail, no name (a player's own name is the
    # player's, not the account's).
    accounts = [line for line in lines if line.get("model") == "auth.user"]
    assert accounts and '"email"' not in first
    assert all(set(line) == {"model", "id"} for line in accounts), accounts

    wipe()
    assert not Tournament.objects.exists() and not User.objects.exists()
    result = import_tournament(first)

    tournament = Tournament.objects.get(slug=slug)
    again = export_text(tournament)
    assert without_accounts(again) == without_accounts(first)
    assert not User.objects.exists()  # no account is ever created by an import
    assert result.signed and result.roles_dropped == 0
    # The roles and the players' accounts wait as invitations, which no account can accept
    # here: none exists.
    assert result.invited == granted + linked
    assert not Invitation.objects.filter(user__isnull=False).exists()
    assert tournament.created_at == created_at
    # The history comes back whole; the accounts it named are not here (the same site's
    # restore names them again: the next test).
    restored = audit_lines(tournament)
    assert len(restored) >= len(audit) - granted - linked
    audit = restored
    # The history of what was deleted before the export, and who changed what, came too.
    assert ("Category", "Cancelled", "deleted") in [line[2:5] for line in audit]
    assert any(line[2] == "Stage" and line[3].startswith("Cancelled:") for line in audit)
    assert ("Player", "deleted") in [(line[2], line[4]) for line in audit]
    # A private link printed on a card still opens the entry's scorecards.
    assert entry_of_token(tournament.pk, token).player.number == event.entries[0].player.number
    # The verified row comes back verified, naming no account: there is none here.
    row = CardRow.objects.get(
        status=CardRow.Status.VERIFIED, card__entry__player__number=(event.player.player.number)
    )
    assert row.verified_by is None
    assert row.history.count() == 3
    assert not TournamentRole.objects.filter(tournament=tournament).exists()
    assert ShootOut.objects.get(stage__category__tournament=tournament).scores.count() == 2
    assert "Imported Small Open" in result.summary()
    assert f"{granted + linked} invitations went to the usernames" in result.summary()


def test_a_signed_file_restored_on_its_own_site_names_the_same_accounts_and_invites_the_staff():
    """The same site, the accounts still there: the records (who filled, verified, changed
    what) name the same accounts again; the roles and the players' accounts are invitations
    their owners accept, signed in; nothing is granted before."""
    event = build_full_event()
    t = event.tournament
    first = export_text(t)
    audit = audit_lines(t)
    linked = set(t.players.exclude(user=None).values_list("number", "user__username"))
    roles = set(TournamentRole.objects.filter(tournament=t).values_list("user", "role"))
    assert linked and roles
    plan = export_plan()
    for p in reversed(plan.models):
        p.model._base_manager.filter(**{p.path: t} if p.path else {"pk": t.pk}).delete()
    for p in plan.models:
        if p.history is not None:
            p.history._base_manager.all().delete()

    result = import_tournament(first)

    tournament = result.tournament
    assert result.signed
    assert audit_lines(tournament) == audit
    row = CardRow.objects.get(
        status=CardRow.Status.VERIFIED, card__entry__category__tournament=tournament
    )
    assert row.verified_by == event.users["scoring-table"]
    assert not TournamentRole.objects.filter(tournament=tournament).exists()
    assert not tournament.players.exclude(user=None).exists()
    waiting = Invitation.objects.filter(tournament=tournament, status="pending")
    assert {(i.user_id, i.role) for i in waiting if i.kind == "role"} == roles
    assert {(i.player.number, i.user.username) for i in waiting if i.kind == "player"} == linked
    # Accepted by their owners, the invitations give back what the file held.
    for invitation in waiting:
        accept(invitation_id=invitation.pk, user=invitation.user)
    assert (
        set(TournamentRole.objects.filter(tournament=tournament).values_list("user", "role"))
        == roles
    )
    assert (
        set(tournament.players.exclude(user=None).values_list("number", "user__username")) == linked
    )


def test_a_copy_imports_next_to_its_original_under_another_slug():
    event = build_full_event()
    original = event.tournament
    text = export_text(original)
    with pytest.raises(SlugTakenError) as refused:
        import_tournament(text)
    assert str(refused.value.messages[0]) == (
        f"A tournament with slug {original.slug!r} exists: import with --slug {original.slug}-2"
    )
    users_before = User.objects.count()

    result = import_tournament(text, slug="copy")
    assert not TournamentRole.objects.filter(tournament=result.tournament).exists()
    assert not result.tournament.players.exclude(user=None).exists()

    copy = result.tournament
    assert copy.slug == "copy" and copy.pk != original.pk
    assert User.objects.count() == users_before  # the same people, linked, not duplicated
    # The copy's private links are its own: the original's still open the original only.
    links = EntryLink.objects.filter(entry__category__tournament=original).count()
    assert result.renewed == {"tournaments.entrylink.token": links}
    old_token = EntryLink.objects.get(entry=event.entries[0]).token
    assert entry_of_token(original.pk, old_token) is not None
    assert entry_of_token(copy.pk, old_token) is None

    def without_slug_and_tokens(text: str) -> list[str]:
        out = []
        for line in without_accounts(text):
            obj = json.loads(line)
            if obj.get("model") == "tournaments.tournament":
                obj["fields"]["slug"] = "-"
            if obj.get("model") == "tournaments.entrylink":
                obj["fields"]["token"] = "-"
            if "tournament" in obj and "format" in obj:
                obj["tournament"] = "-"
            out.append(json.dumps(obj))
        return out

    assert without_slug_and_tokens(export_text(copy)) == without_slug_and_tokens(text)


def test_the_importing_user_becomes_organizer_like_a_creator():
    event = build_full_event()
    text = export_text(event.tournament)
    newcomer = UserFactory()
    allow_creating_tournaments(newcomer)
    result = import_tournament(text, slug="moved", user=newcomer)
    assert newcomer.has_perm("tournaments.manage_tournament", result.tournament)
    player = event.users[PLAYER]
    with pytest.raises(PermissionDenied, match="permission"):
        import_tournament(text, slug="moved-again", user=player)
    assert not Tournament.objects.filter(slug="moved-again").exists()


# --- damaged and foreign files ---------------------------------------------------------------


@pytest.fixture
def exported():
    event = build_small_event()
    text = export_text(event.tournament)
    wipe()
    return text.splitlines()


def damaged(lines: list[str], how: str) -> str:
    """The export changed in one way: how a file goes wrong in transit or by hand. The changes
    made by hand get a new checksum, as a file written wrongly (not damaged) would have."""
    player = next(n for n, line in enumerate(lines) if '"tournaments.player"' in line)
    match = next(n for n, line in enumerate(lines) if '"tournaments.match"' in line)

    def changed(n: int, text: str) -> list[str]:
        return [*lines[:n], text, *lines[n + 1 :]]

    def written(n: int, **fields) -> str:
        obj = json.loads(lines[n])
        obj["fields"] |= fields
        return reseal(changed(n, json.dumps(obj)))

    entry_a = json.loads(lines[match])["fields"]["entry_a"]
    cases = {
        "cut short": lambda: "\n".join(lines[: len(lines) // 2]) + "\n",
        "cut mid-line": lambda: "\n".join(lines)[: -len(lines[-1]) // 2],
        "edited": lambda: "\n".join(changed(player, lines[player].replace("Player", "P"))) + "\n",
        "garbled line": lambda: "\n".join(changed(player, lines[player][:-7])) + "\n",
        "newer version": lambda: reseal(
            changed(0, json.dumps(json.loads(lines[0]) | {"version": VERSION + 1}))
        ),
        "not an export": lambda: "number,first_name,last_name\n101,Ann,Player1\n",
        "unknown field": lambda: written(player, nickname="Annie"),
        "dangling reference": lambda: written(match, entry_a=999),
        "impossible value": lambda: written(match, best_of="three"),
        "refused by the database": lambda: written(match, entry_b=entry_a),  # against itself
    }
    return cases[how]()


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("cut short", "without its end line: it was cut short"),
        ("cut mid-line", "not valid JSON"),
        ("edited", "changed or damaged after it was exported"),
        ("garbled line", "not valid JSON"),
        ("newer version", "format version 2; this installation reads version 1 only: upgrade"),
        ("not an export", "Line 1: this is not a tournament export"),
        ("unknown field", "a field 'nickname' this version of the application does not know"),
        ("dangling reference", "entry_a refers to tournaments.entry 999, which is not in the file"),
        ("impossible value", "best_of 'three'"),
        ("refused by the database", "the database refused tournaments.match 1"),
    ],
)
def test_a_damaged_file_is_refused_with_where_and_nothing_is_imported(exported, how, message):
    data = damaged(exported, how)
    with pytest.raises(ImportFileError) as refused:
        import_tournament(data.encode())
    text = refused.value.messages[0]
    assert message in text
    if how not in ("cut short", "edited", "refused by the database"):
        assert text.startswith("Line ")
    assert not Tournament.objects.exists()
    assert not User.objects.exists()  # the users the file lists were not left behind
    assert not Player.history.exists()


def test_a_file_copied_with_windows_line_ends_still_imports(exported):
    data = "\ufeff" + "\r\n".join(exported) + "\r\n"
    assert import_tournament(data.encode()).tournament.players.count() == 6


def test_a_file_that_is_not_text_is_refused():
    with pytest.raises(ImportFileError, match="not UTF-8 text"):
        import_tournament(b"\x89PNG\r\n\x1a\n\xff\xfe")


# --- the management commands -----------------------------------------------------------------


def test_the_commands_export_and_import_a_tournament(tmp_path):
    event = build_full_event()
    slug = event.tournament.slug
    path = tmp_path / "backup.jsonl"
    out = io.StringIO()
    call_command("export_tournament", slug, "-o", str(path), stdout=out)
    assert f"to {path}" in out.getvalue()
    first = path.read_text(encoding="utf-8")
    assert json.loads(first.splitlines()[0])["format"] == FORMAT

    with pytest.raises(CommandError, match=f"exists: import with --slug {slug}-2"):
        call_command("import_tournament", str(path), stdout=io.StringIO())
    wipe()
    out = io.StringIO()
    call_command("import_tournament", str(path), stdout=out)
    assert "Imported Small Open" in out.getvalue()
    again = io.StringIO()
    call_command("export_tournament", slug, "-o", "-", stdout=again)
    assert without_accounts(again.getvalue()) == without_accounts(first)

    with pytest.raises(CommandError, match="There is no tournament 'nowhere'"):
        call_command("export_tournament", "nowhere", "-o", "-", stdout=io.StringIO())
    path.write_text(first[: len(first) // 2], encoding="utf-8")
    with pytest.raises(CommandError, match=r"Nothing imported from .*backup\.jsonl\. Line"):
        call_command("import_tournament", str(path), "--slug", "other", stdout=io.StringIO())
    assert not Tournament.objects.filter(slug="other").exists()


# --- the pages -------------------------------------------------------------------------------


def test_the_organizer_downloads_the_export_and_others_are_refused(client):
    event = build_small_event()
    url = reverse("scoring:export", args=[event.tournament.slug])
    response = event.login(client, "organizer").get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith(
        f'attachment; filename="{event.tournament.slug}-'
    )
    assert body(response.content.decode()) == body(export_text(event.tournament))
    dashboard = client.get(reverse("tournaments:manage", args=[event.tournament.slug]))
    assert url in dashboard.content.decode()
    for role in ("referee", PLAYER):
        client.logout()
        assert event.login(client, role).get(url).status_code == 403
    client.logout()
    assert event.login(client, ANONYMOUS).get(url).status_code == 302


def test_the_import_page_restores_a_tournament_and_says_what_is_wrong(client):
    event = build_small_event()
    text = export_text(event.tournament)
    url = reverse("tournament-import")
    creator = event.users["organizer"]
    allow_creating_tournaments(creator)
    client.force_login(creator)
    assert reverse("tournament-import") in client.get(reverse("tournament-create")).content.decode()

    def upload(data: str, slug: str = ""):
        file = io.BytesIO(data.encode())
        file.name = "backup.jsonl"
        return client.post(url, {"file": file, "slug": slug})

    clash = upload(text)
    assert clash.status_code == 400
    assert "exists already" in clash.content.decode() and "-2" in clash.content.decode()

    broken = upload(text[: len(text) // 2], slug="restored")
    assert broken.status_code == 400
    assert "Nothing was imported. Line" in broken.content.decode()
    assert not Tournament.objects.filter(slug="restored").exists()

    done = upload(text, slug="restored")
    assert done.status_code == 302
    assert done["Location"] == reverse("tournaments:manage", args=["restored"])
    restored = Tournament.objects.get(slug="restored")
    assert restored.players.count() == event.tournament.players.count()

    for role in (PLAYER, OTHER_PLAYER):
        client.logout()
        refused = event.login(client, role).post(url, {"file": io.BytesIO(text.encode())})
        assert refused.status_code == 403
    client.logout()
    assert client.get(url).status_code == 302
    assert Tournament.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_an_export_outside_a_transaction_reads_one_snapshot():
    """The command runs in no transaction: the export opens its own (REPEATABLE READ on
    PostgreSQL) and the file is the same as one read inside a transaction."""
    event = build_small_event()
    out = io.StringIO()
    call_command("export_tournament", event.tournament.slug, "-o", "-", stdout=out)
    assert body(out.getvalue()) == body(export_text(event.tournament))
