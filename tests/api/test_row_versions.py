"""Writes to an existing card row carry the version the writer read, as the card pages send it:
without it the API refuses (400, saying so), with an old one it is a conflict (409)."""

import pytest

from scoring.models import CardRow
from tests.api.test_scorecards_api import WIN, fill, mirror, open_card

pytestmark = pytest.mark.django_db


@pytest.fixture
def row(world, client_for):
    """Ann's row for her game against Bob, filled once (version 1)."""
    ann = client_for("ann")
    card_id = open_card(ann, world, world.a)
    filled = fill(ann, card_id, world.game, WIN)
    assert filled.status_code == 201 and filled.json()["version"] == 1
    return card_id, filled.json()


def test_a_new_row_needs_no_version(world, row):
    assert CardRow.objects.get().version == 1


def test_refilling_without_the_version_is_refused_and_changes_nothing(world, client_for, row):
    card_id, first = row
    refused = fill(client_for("ann"), card_id, world.game, mirror(WIN))
    assert refused.status_code == 400
    words = refused.json()["version"][0]
    assert words.startswith("`version` is required")
    assert f"/api/card-rows/{first['id']}/" in words
    stored = CardRow.objects.get()
    assert stored.version == 1 and stored.rounds[0]["points"] == [2, 0]

    seen = client_for("ann").get(f"/api/card-rows/{first['id']}/").json()["version"]
    changed = fill(client_for("ann"), card_id, world.game, mirror(WIN), version=seen)
    assert changed.status_code == 200 and changed.json()["version"] == seen + 1


def test_an_old_version_is_a_conflict(world, client_for, row):
    card_id, _ = row
    fill(client_for("ann"), card_id, world.game, mirror(WIN), version=1)
    stale = fill(client_for("ann"), card_id, world.game, WIN, version=1)
    assert stale.status_code == 409
    # 0 is the version of a row not yet filled, as the page sends it for a new row: against a
    # row filled since, it is stale too, never an overwrite.
    unseen = fill(client_for("ann"), card_id, world.game, WIN, version=0)
    assert unseen.status_code == 409
    assert CardRow.objects.get().version == 2


def test_a_correction_needs_the_version_too(world, client_for, row):
    card_id, first = row
    client_for("bob").post(
        f"/api/card-rows/{first['id']}/validate/",
        {"opponent_number": str(world.b.player.number), "initials": "BS", "version": 1},
        format="json",
    )
    refused = fill(client_for("ref"), card_id, world.game, mirror(WIN), referee_initials="JR")
    assert refused.status_code == 400 and "`version` is required" in refused.json()["version"][0]
    assert CardRow.objects.get().status == CardRow.Status.VALIDATED


@pytest.mark.parametrize("version", [None, "missing"])
def test_validating_without_the_version_is_refused(world, client_for, row, version):
    _, first = row
    body = {"opponent_number": str(world.b.player.number), "initials": "BS"}
    if version is None:
        body["version"] = None
    refused = client_for("bob").post(f"/api/card-rows/{first['id']}/validate/", body, format="json")
    assert refused.status_code == 400
    assert refused.json()["version"][0].startswith("`version` is required")
    assert CardRow.objects.get().status == CardRow.Status.FILLED


def _statements(client, method: str, url: str, body: dict) -> tuple[int, list[str]]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        answer = getattr(client, method)(url, body, format="json")
    return answer.status_code, [q["sql"] for q in queries.captured_queries]


def _work(statements: list[str]) -> list[str]:
    """The statements less the transaction's own (savepoints here, BEGIN and COMMIT on a
    server)."""
    return [sql for sql in statements if "SAVEPOINT" not in sql]


def test_the_end_of_round_writes_cost_a_few_statements(world, client_for, row):
    """At the end of a round every phone writes at once: a stale fill (fifty phones sending one
    row give forty-nine) reads the version and is refused, without asking who may see the card;
    a validation writes its row in one UPDATE, version check included, and runs in the
    service's transaction alone (no savepoint around it)."""
    card_id, first = row
    url = f"/api/scorecards/{card_id}/fill/"
    code, stale = _statements(
        client_for("ann"), "post", url, {"game": world.game.pk, "rounds": WIN, "version": 0}
    )
    assert code == 409
    # Her token, her card, the game, the row's version, the game's names for the message.
    assert len(_work(stale)) <= 5, stale
    assert not any("tournamentrole" in sql for sql in stale), stale  # no visibility query

    code, signed = _statements(
        client_for("bob"),
        "post",
        f"/api/card-rows/{first['id']}/validate/",
        {"opponent_number": str(world.b.player.number), "initials": "BS", "version": 1},
    )
    assert code == 200
    updates = [sql for sql in signed if sql.startswith('UPDATE "scoring_cardrow"')]
    assert len(updates) == 1 and '"version" = ' in updates[0].split("WHERE")[1], updates
    # The test runs in a transaction, so the service's own shows as a savepoint; with the
    # request's transaction around it, there were two.
    assert len([sql for sql in signed if sql.startswith("SAVEPOINT")]) == 1, signed
    assert len(_work(signed)) <= 8, signed
    assert CardRow.objects.get(pk=first["id"]).version == 2


def test_a_stranger_gets_404_for_a_stale_fill_too(world, client_for, row):
    """The stale check comes after the permission: someone who may not write the card does not
    learn that its row moved on."""
    card_id, _ = row
    body = {"game": world.game.pk, "rounds": WIN, "version": 0}
    answer = client_for("cid").post(f"/api/scorecards/{card_id}/fill/", body, format="json")
    assert answer.status_code == 404
    assert CardRow.objects.get().version == 1


def test_a_verification_writes_the_official_result_without_reading_the_game_again(
    world, client_for, row
):
    """The table's verify holds the game's lock and read the game under it: the official
    result it writes takes no second read of the game, no second look at the stage and no
    savepoint of its own."""
    card_id, first = row
    bob = client_for("bob")
    signed = bob.post(
        f"/api/card-rows/{first['id']}/validate/",
        {"opponent_number": str(world.b.player.number), "initials": "BS", "version": 1},
        format="json",
    )
    assert signed.status_code == 200, signed.json()
    seen = {"versions": [{"row": first["id"], "version": signed.json()["version"]}]}
    code, verified = _statements(
        client_for("table"), "post", f"/api/scorecards/{card_id}/verify/", seen
    )
    assert code == 200
    games = [sql for sql in verified if 'FROM "tournaments_game"' in sql.split("WHERE")[0]]
    # The card's games locked (FOR UPDATE where the database has it), once: the game itself
    # comes with the locked rows.
    assert len(games) == 1 and games[0].startswith('SELECT "tournaments_game"."id" AS'), games
    assert len([sql for sql in verified if sql.startswith("SAVEPOINT")]) == 1, verified
    inserted = [sql for sql in verified if sql.startswith('INSERT INTO "tournaments_round"')]
    assert len(inserted) == 1, verified
    official = world.game.rounds.order_by("number")
    assert [(r.points_a, r.points_b) for r in official] == [(2, 0)] * 3 + [(0, 2)]
