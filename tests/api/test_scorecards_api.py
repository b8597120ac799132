"""The WCC scorecard workflow through the API: fill, validate, verify, void, disputes."""

import pytest

from scoring.models import CardRow, ScoreCard
from tests.factories import EntryFactory, MatchFactory
from tests.row_versions import disputed, seen_versions
from tournaments.models import Game

pytestmark = pytest.mark.django_db

# Ann's side: three rounds won, the last lost: 6 points to 2, 10 twenties to 5.
WIN = [{"points": [2, 0], "twenties": [3, 1]}] * 3 + [{"points": [0, 2], "twenties": [1, 2]}]


def mirror(rounds):
    return [{"points": r["points"][::-1], "twenties": r["twenties"][::-1]} for r in rounds]


def open_card(client, world, entry):
    response = client.post(
        "/api/scorecards/", {"stage": world.stage.id, "entry": entry.id}, format="json"
    )
    assert response.status_code in (200, 201), response.json()
    return response.json()["id"]


def fill(client, card_id, game, rounds, **extra):
    return client.post(
        f"/api/scorecards/{card_id}/fill/",
        {"game": game.id, "rounds": rounds, **extra},
        format="json",
    )


def standings(client, world):
    response = client.get(f"/api/stages/{world.stage.id}/standings/")
    assert response.status_code == 200
    return {line["entry"]["id"]: line for line in response.json()["lines"]}


def test_fill_validate_verify_changes_the_standings(world, client_for):
    ann, bob, table, public = (client_for(n) for n in ("ann", "bob", "table", None))
    before = standings(public, world)
    assert {line["points"] for line in before.values()} == {0}

    first = ann.post("/api/scorecards/", {"stage": world.stage.id, "entry": world.a.id})
    assert first.status_code == 201
    again = ann.post("/api/scorecards/", {"stage": world.stage.id, "entry": world.a.id})
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    card_id = first.json()["id"]

    filled = fill(ann, card_id, world.game, WIN)
    assert filled.status_code == 201, filled.json()
    row = filled.json()
    assert (row["status"], row["version"], row["total_points"], row["total_twenties"]) == (
        "filled",
        1,
        6,
        10,
    )

    validated = bob.post(
        f"/api/card-rows/{row['id']}/validate/",
        {"opponent_number": str(world.b.player.number), "initials": "bs", "version": 1},
        format="json",
    )
    assert validated.status_code == 200, validated.json()
    assert validated.json()["status"] == "validated"
    assert validated.json()["validated_initials"] == "BS"
    assert standings(public, world)[world.a.id]["points"] == 0  # WCC counts verified cards

    blind = table.post(f"/api/scorecards/{card_id}/verify/", {}, format="json")
    assert blind.status_code == 400 and "`versions` is required" in str(blind.json())
    seen = {"versions": [{"row": row["id"], "version": validated.json()["version"]}]}
    stale = {"versions": [{"row": row["id"], "version": 1}]}
    refused = table.post(f"/api/scorecards/{card_id}/verify/", stale, format="json")
    assert refused.status_code == 409 and "changed since you opened it" in str(refused.json())
    verified = table.post(f"/api/scorecards/{card_id}/verify/", seen, format="json")
    assert verified.status_code == 200, verified.json()
    assert [r["status"] for r in verified.json()["rows"]] == ["verified"]

    after = standings(public, world)
    assert (after[world.a.id]["points"], after[world.a.id]["twenties"]) == (6, 10)
    assert (after[world.b.id]["points"], after[world.b.id]["twenties"]) == (2, 5)
    assert after[world.a.id]["rank"] == 1 and after[world.a.id]["advances"] is True
    match = public.get(f"/api/matches/{world.match.id}/").json()
    official = match["games"][0]["rounds"]
    assert [(r["points_a"], r["points_b"]) for r in official] == [(2, 0)] * 3 + [(0, 2)]


@pytest.mark.parametrize(
    ("rounds", "words"),
    [
        (
            [{"points": [2, 0], "twenties": [0, 0]}, {"points": [2, 2], "twenties": [0, 0]}],
            ["round 2", "impossible"],
        ),
        ([{"points": [2, 0], "twenties": [9, 0]}], ["round 1", "9"]),
        ([{"score": [42, 20], "twenties": [0, 1]}], ["round 1", "multiple of 5"]),
        ([{"points": [2, 0], "twenties": [0, 0]}] * 5, ["round 5", "game was over after round 4"]),
    ],
)
def test_impossible_rows_are_400_with_the_round_named(world, client_for, rounds, words):
    ann = client_for("ann")
    card_id = open_card(ann, world, world.a)
    response = fill(ann, card_id, world.game, rounds)
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert all(w in detail for w in words), detail
    assert not CardRow.objects.exists()


def test_a_game_not_scheduled_for_the_card_is_400(world, client_for):
    ann = client_for("ann")
    card_id = open_card(ann, world, world.a)
    other = MatchFactory(
        stage=world.stage, entry_a=world.c, entry_b=EntryFactory(category=world.stage.category)
    )
    game = Game.objects.create(match=other, number=1)
    response = fill(ann, card_id, game, WIN)
    assert response.status_code == 400
    assert "not scheduled" in response.json()["detail"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"rounds": "2-0 2-0"}, "rounds"),
        ({"rounds": [{"points": [2]}]}, "rounds"),
        ({"rounds": [{"points": ["two", 0]}]}, "rounds"),
        ({"rounds": [{"twenties": [1, 1]}]}, "rounds"),
        ({"rounds": [7]}, "rounds"),
        ({"rounds": []}, "rounds"),
        ({"game": "first"}, "game"),
        ({"version": "latest"}, "version"),
    ],
)
def test_malformed_rows_are_400_naming_the_field(world, client_for, body, field):
    ann = client_for("ann")
    card_id = open_card(ann, world, world.a)
    good = {"game": world.game.id, "rounds": WIN}
    response = ann.post(f"/api/scorecards/{card_id}/fill/", {**good, **body}, format="json")
    assert response.status_code == 400
    assert list(response.json()) == [field], response.json()
    assert not CardRow.objects.exists()


def test_shape_errors_name_the_round_counting_from_1(world, client_for):
    ann = client_for("ann")
    card_id = open_card(ann, world, world.a)
    rounds = [{"points": [2, 0]}, {"points": [2]}]
    response = fill(ann, card_id, world.game, rounds)
    assert response.status_code == 400
    assert list(response.json()["rounds"]) == ["round 2"]
    assert "2 elements" in response.json()["rounds"]["round 2"]["points"][0]


def test_bad_json_is_400_not_500(world, client_for):
    ann = client_for("ann")
    card_id = open_card(ann, world, world.a)
    broken = ann.post(
        f"/api/scorecards/{card_id}/fill/",
        data='{"game": 1, "rounds": [',
        content_type="application/json",
    )
    assert broken.status_code == 400 and "JSON parse error" in broken.json()["detail"]
    a_list = ann.post(
        f"/api/scorecards/{card_id}/fill/", data="[1, 2]", content_type="application/json"
    )
    assert a_list.status_code == 400
    bad_category = ann.post("/api/categories/", data="{", content_type="application/json")
    assert bad_category.status_code == 400


def test_only_the_opponent_validates(world, client_for):
    ann, ref, cid = (client_for(n) for n in ("ann", "ref", "cid"))
    card_id = open_card(ann, world, world.a)
    row = fill(ann, card_id, world.game, WIN).json()
    url = f"/api/card-rows/{row['id']}/validate/"
    own_number = ann.post(
        url,
        {"opponent_number": str(world.a.player.number), "initials": "AA", "version": 1},
        format="json",
    )
    assert own_number.status_code == 400
    assert "only the opponent" in own_number.json()["detail"]
    referee = ref.post(
        url,
        {"opponent_number": str(world.b.player.number), "initials": "BS", "version": 1},
        format="json",
    )
    assert referee.status_code == 403 and "opponent" in referee.json()["detail"]
    stranger = cid.post(
        url,
        {"opponent_number": str(world.b.player.number), "initials": "BS", "version": 1},
        format="json",
    )
    assert stranger.status_code == 404
    missing = ann.post(url, {"opponent_number": str(world.b.player.number)}, format="json")
    assert missing.status_code == 400 and set(missing.json()) == {"version"}
    half = ann.post(
        url, {"opponent_number": str(world.b.player.number), "version": 1}, format="json"
    )
    assert half.status_code == 400 and set(half.json()) == {"initials"}
    assert CardRow.objects.get(pk=row["id"]).status == CardRow.Status.FILLED


def test_racing_second_submission_is_409_and_keeps_the_first(world, client_for):
    ann, ref = client_for("ann"), client_for("ref")
    card_id = open_card(ann, world, world.a)
    seen = fill(ann, card_id, world.game, WIN).json()["version"]
    first = fill(ann, card_id, world.game, mirror(WIN), version=seen)
    assert first.status_code == 200 and first.json()["version"] == seen + 1
    second = fill(ref, card_id, world.game, WIN, version=seen)
    assert second.status_code == 409
    assert "Reload" in second.json()["detail"]
    assert CardRow.objects.get().rounds[0]["points"] == [0, 2]

    stale_validation = client_for("bob").post(
        f"/api/card-rows/{first.json()['id']}/validate/",
        {"opponent_number": str(world.b.player.number), "initials": "BS", "version": seen},
        format="json",
    )
    assert stale_validation.status_code == 409


def test_players_cannot_fill_each_others_cards(world, client_for):
    card_id = open_card(client_for("ann"), world, world.a)
    response = fill(client_for("bob"), card_id, world.game, mirror(WIN))
    assert response.status_code == 403
    assert not CardRow.objects.exists()


def test_correction_after_validation_needs_a_referees_initials(world, client_for):
    ann, bob, ref = (client_for(n) for n in ("ann", "bob", "ref"))
    card_id = open_card(ann, world, world.a)
    row = fill(ann, card_id, world.game, WIN).json()
    row = bob.post(
        f"/api/card-rows/{row['id']}/validate/",
        {"opponent_number": str(world.b.player.number), "initials": "BS", "version": 1},
        format="json",
    ).json()
    fixed = [*WIN[:3], {"points": [1, 1], "twenties": [1, 1]}]
    by_player = fill(ann, card_id, world.game, fixed, version=row["version"])
    assert by_player.status_code == 403
    no_initials = fill(ref, card_id, world.game, fixed, version=row["version"])
    assert no_initials.status_code == 400 and "initialled" in no_initials.json()["detail"]
    corrected = fill(ref, card_id, world.game, fixed, version=row["version"], referee_initials="jr")
    assert corrected.status_code == 200
    assert corrected.json()["referee_initials"] == "JR" and corrected.json()["total_points"] == 7


def test_void_needs_a_reason_and_the_scoring_table(world, client_for):
    ann, bob, table = (client_for(n) for n in ("ann", "bob", "table"))
    card_id = open_card(ann, world, world.a)
    row = fill(ann, card_id, world.game, WIN).json()
    bob.post(
        f"/api/card-rows/{row['id']}/validate/",
        {"opponent_number": str(world.b.player.number), "initials": "BS", "version": 1},
        format="json",
    )
    seen = {"versions": seen_versions([CardRow.objects.get(pk=row["id"])])}
    table.post(f"/api/scorecards/{card_id}/verify/", seen, format="json")
    assert world.game.rounds.count() == 4

    refused = ann.post(f"/api/scorecards/{card_id}/void/", {"reason": "x", **seen}, format="json")
    assert refused.status_code == 403
    blank = table.post(f"/api/scorecards/{card_id}/void/", {"reason": ""})
    assert blank.status_code == 400 and "reason" in blank.json()
    foreign = table.post(
        f"/api/scorecards/{card_id}/void/",
        {"reason": "illegible", "rows": [999999], "versions": []},
        format="json",
    )
    assert foreign.status_code == 400 and "999999" in foreign.json()["rows"]
    seen = {"versions": seen_versions([CardRow.objects.get(pk=row["id"])])}
    voided = table.post(
        f"/api/scorecards/{card_id}/void/", {"reason": "illegible", **seen}, format="json"
    )
    assert voided.status_code == 200
    assert [(r["status"], r["void_reason"]) for r in voided.json()["rows"]] == [
        ("voided", "illegible")
    ]
    assert not world.game.rounds.exists()
    nothing_left = table.post(f"/api/scorecards/{card_id}/verify/", {"versions": []}, format="json")
    # The card's state refuses it: a conflict (409), in the step's words.
    assert nothing_left.status_code == 409 and "no validated row" in nothing_left.json()["detail"]


def test_disputed_game_settled_by_the_head_referee(world, client_for):
    ann, bob, ref, head = (client_for(n) for n in ("ann", "bob", "ref", "head"))
    card_a = open_card(ann, world, world.a)
    card_b = open_card(bob, world, world.b)
    row_a = fill(ann, card_a, world.game, WIN).json()
    bob.post(
        f"/api/card-rows/{row_a['id']}/validate/",
        {"opponent_number": str(world.b.player.number), "initials": "BS", "version": 1},
        format="json",
    )
    wrong = mirror([*WIN[:3], {"points": [2, 0], "twenties": [1, 2]}])
    # Bob's own row contradicts the row he validated: refused once (409, round 4 named), then
    # saved with the confirmation, which opens the dispute.
    warned = fill(bob, card_b, world.game, wrong)
    assert warned.status_code == 409 and "Round 4" in warned.json()["detail"]
    saved = fill(bob, card_b, world.game, wrong, confirm_contradiction=True)
    assert saved.status_code == 201 and saved.json()["status"] == "disputed"
    queue = head.get("/api/card-rows/", {"status": "disputed", "tournament": "club-open"})
    assert queue.json()["count"] == 2

    url = f"/api/games/{world.game.id}/resolve-dispute/"
    ruling = {"rounds": WIN, "initials": "hr", "versions": seen_versions(disputed(world.game))}
    blind = head.post(url, {"rounds": WIN, "initials": "hr"}, format="json")
    assert blind.status_code == 400 and "`versions` is required" in str(blind.json())
    assert ref.post(url, ruling, format="json").status_code == 403
    assert client_for().post(url, ruling, format="json").status_code == 401
    settled = head.post(url, ruling, format="json")
    assert settled.status_code == 200, settled.json()
    assert [r["points_a"] for r in settled.json()["rounds"]] == [2, 2, 2, 0]
    statuses = set(CardRow.objects.values_list("status", flat=True))
    assert statuses == {CardRow.Status.VERIFIED}
    assert standings(client_for(), world)[world.a.id]["points"] == 6
    # Settled: a second ruling finds no dispute and rewrites nothing.
    again = head.post(url, {**ruling, "rounds": mirror(WIN), "versions": []}, format="json")
    # the game's state refuses it, not the request: a conflict
    assert again.status_code == 409 and "no dispute on this game" in again.json()["detail"]
    assert standings(client_for(), world)[world.a.id]["points"] == 6


def test_cards_are_seen_by_their_players_opponents_and_officials(world, client_for):
    card_a = open_card(client_for("ann"), world, world.a)
    open_card(client_for("cid"), world, world.c)
    assert client_for().get("/api/scorecards/").status_code == 401
    seen_by = {
        name: {c["id"] for c in client_for(name).get("/api/scorecards/").json()["results"]}
        for name in ("ann", "bob", "cid", "table", "outsider")
    }
    card_c = ScoreCard.objects.get(entry=world.c).id
    assert seen_by["ann"] == {card_a}
    assert seen_by["bob"] == {card_a}  # the opponent, to validate
    assert seen_by["cid"] == {card_c}
    assert seen_by["table"] == {card_a, card_c}
    assert seen_by["outsider"] == set()
    assert client_for("outsider").get(f"/api/scorecards/{card_a}/").status_code == 404


def test_opening_a_card_is_for_its_players_and_officials(world, client_for):
    body = {"stage": world.stage.id, "entry": world.a.id}
    assert client_for("bob").post("/api/scorecards/", body).status_code == 403
    assert client_for("outsider").post("/api/scorecards/", body).status_code == 403
    assert client_for("table").post("/api/scorecards/", body).status_code == 201
    stranger = EntryFactory()
    wrong = client_for("olga").post(
        "/api/scorecards/", {"stage": world.stage.id, "entry": stranger.id}
    )
    assert wrong.status_code == 400 and "does not play" in wrong.json()["entry"][0]
    assert not ScoreCard.objects.filter(entry=stranger).exists()


def test_writes_on_a_card_or_row_the_user_may_not_see_are_404(world, client_for):
    """A write finds its object by id and asks about visibility only when refused: whatever the
    refusal (a role, a stale version, a bad body), an object the user may not see is a 404."""
    ann = client_for("ann")
    card_a = open_card(ann, world, world.a)
    row = fill(ann, card_a, world.game, WIN).json()
    outsider = client_for("outsider")
    for path, body in (
        (f"/api/scorecards/{card_a}/fill/", {"game": world.game.id, "rounds": WIN, "version": 1}),
        (f"/api/scorecards/{card_a}/fill/", {"game": world.game.id, "rounds": WIN, "version": 9}),
        (f"/api/scorecards/{card_a}/verify/", {"versions": []}),
        (f"/api/scorecards/{card_a}/void/", {"reason": "illegible", "versions": []}),
        (f"/api/scorecards/{card_a}/paper/", {"bad": "body"}),
        (f"/api/card-rows/{row['id']}/validate/", {"initials": "X", "version": 1}),
        (f"/api/card-rows/{row['id']}/confirm/", {"version": 1}),
    ):
        answer = outsider.post(path, body, format="json")
        assert answer.status_code == 404, (path, answer.status_code, answer.json())
    # Cid plays in the stage, but not against Ann: her card is not his to see either.
    cid = client_for("cid").post(
        f"/api/card-rows/{row['id']}/validate/",
        {"opponent_number": str(world.c.player.number), "initials": "CC", "version": 1},
        format="json",
    )
    assert cid.status_code == 404
    assert CardRow.objects.get().version == 1
    # Bob, the opponent, sees the card: his refusal is the real one.
    bob = fill(client_for("bob"), card_a, world.game, mirror(WIN), version=1)
    assert bob.status_code == 403


def test_unknown_objects_are_404(world, client_for):
    table = client_for("table")
    assert table.post("/api/scorecards/999999/verify/").status_code == 404
    assert table.get("/api/stages/999999/standings/").status_code == 404
    assert table.get("/api/tournaments/no-such-event/").status_code == 404


def test_the_table_enters_a_paper_row_and_a_second_staff_member_confirms_it(world, client_for):
    world.tournament.paper_rows_need_confirmation = True
    world.tournament.count_validated_cards = True
    world.tournament.save()
    table, ref, ann = client_for("table"), client_for("ref"), client_for("ann")
    card_id = open_card(table, world, world.a)
    body = {"game": world.game.id, "rounds": WIN, "opponent_number": "", "initials": "BB"}
    refused = ann.post(
        f"/api/scorecards/{card_id}/paper/",
        {**body, "opponent_number": str(world.b.player.number)},
        format="json",
    )
    assert refused.status_code == 403
    wrong = table.post(
        f"/api/scorecards/{card_id}/paper/",
        {**body, "opponent_number": str(world.c.player.number)},
        format="json",
    )
    assert wrong.status_code == 400 and "not the opponent's" in str(wrong.json())
    entered = table.post(
        f"/api/scorecards/{card_id}/paper/",
        {**body, "opponent_number": str(world.b.player.number)},
        format="json",
    )
    assert entered.status_code == 201, entered.json()
    row = entered.json()
    assert (row["status"], row["validated_how"], row["entered_by"]) == (
        "awaiting",
        "paper",
        "table",
    )
    assert not world.game.rounds.exists()
    own = table.post(f"/api/card-rows/{row['id']}/confirm/", {"version": 1}, format="json")
    # Who may confirm: never who entered it (403, the words say why).
    assert own.status_code == 403 and "another staff member" in str(own.json())
    confirmed = ref.post(f"/api/card-rows/{row['id']}/confirm/", {"version": 1}, format="json")
    assert confirmed.status_code == 200, confirmed.json()
    assert (confirmed.json()["status"], confirmed.json()["confirmed_by"]) == ("validated", "ref")
    assert world.game.rounds.count() == 4


def test_the_opponent_agrees_without_typing_and_others_are_told_what_is_missing(world, client_for):
    """The API's Agree: the opponent's login signs with neither ID nor initials (implied by
    who they are, as on the card page); a referee, who stands for nobody at the board, is told
    in words to type them."""
    ann, bob, referee = (client_for(n) for n in ("ann", "bob", "ref"))
    card_id = open_card(ann, world, world.a)
    row = fill(ann, card_id, world.game, WIN).json()

    typed_nothing = referee.post(
        f"/api/card-rows/{row['id']}/validate/", {"version": row["version"]}, format="json"
    )
    assert typed_nothing.status_code in (400, 403), typed_nothing.json()
    assert CardRow.objects.get(pk=row["id"]).status == CardRow.Status.FILLED

    agreed = bob.post(
        f"/api/card-rows/{row['id']}/validate/", {"version": row["version"]}, format="json"
    )
    assert agreed.status_code == 200, agreed.json()
    assert agreed.json()["status"] == "validated"
    assert agreed.json()["validated_number"] == str(world.b.player.number)
    assert agreed.json()["validated_initials"]
