"""Match previews: probabilities from many simulated games, shown with a chart."""

from __future__ import annotations

import pytest
from django.urls import reverse

from simulation.models import MatchPreview, Status
from simulation.services import playing, previews
from simulation.services.playing import match_win_probability
from tests.simulation.app.support import add_stage, make_tournament, organizer_of
from tournaments.models import Stage
from tournaments.services.draws import draw_stage


def _match(players: int = 2, best_of: int = 1):
    tournament, category = make_tournament(players=players)
    kind = Stage.Kind.KNOCKOUT if best_of > 1 else Stage.Kind.PRELIMINARY
    stage = add_stage(category, 1, kind, games_per_entry=1, best_of=best_of)
    draw_stage(stage)
    return tournament, stage.matches.exclude(entry_b=None).first()


def test_summary_probabilities_add_up_and_count_every_split():
    rows = [[2, 0, 1, 0, 8], [1, 1, 0, 0, 8], [0, 2, 0, 2, 8], [2, 0, 2, 1, 8]]

    result = previews.summarise(rows, rounds=1)

    assert result["win"] == 0.5 and result["tie"] == 0.25 and result["loss"] == 0.25
    assert [(p["a"], p["b"]) for p in result["points"]] == [(2, 0), (1, 1), (0, 2)]
    assert sum(p["p"] for p in result["points"]) == pytest.approx(1)
    assert result["expected_points"] == [1.25, 0.75]
    assert result["expected_twenties"] == [0.75, 0.75]


def test_best_of_three_favours_the_stronger_side_more_than_one_game():
    assert match_win_probability(0.6, 0.4, 3) == pytest.approx(0.648)
    assert match_win_probability(0.5, 0.5, 3) == pytest.approx(0.5)
    assert match_win_probability(0.6, 0.4, 1) == pytest.approx(0.6)


@pytest.mark.django_db
def test_preview_through_the_page_shows_probabilities_that_sum_to_one(
    eager, client, django_capture_on_commit_callbacks
):
    tournament, match = _match()
    client.force_login(organizer_of(tournament))

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("simulation:preview_start", args=[tournament.slug, match.id]),
            {"games": 12, "profile_a": "best", "profile_b": ""},
        )

    assert response.status_code == 302
    preview = MatchPreview.objects.get(match=match)
    assert preview.status == Status.DONE, preview.error
    result = preview.result
    assert result["games"] == 12
    assert result["win"] + result["tie"] + result["loss"] == pytest.approx(1)
    assert sum(p["p"] for p in result["points"]) == pytest.approx(1)
    assert {p["a"] + p["b"] for p in result["points"]} == {2}  # one-round games: 2-0 ... 0-2
    assert preview.players["a"] == ["best"]
    page = client.get(reverse("simulation:match", args=[tournament.slug, match.id]))
    html = page.content.decode()
    assert "Expected points per game" in html
    assert 'class="sim-chart"' in html and "<rect" in html


@pytest.mark.django_db
def test_preview_of_a_best_of_three_gives_the_match_chance(eager):
    _, match = _match(players=2, best_of=3)
    preview = previews.create_preview(match=match, games=10, seed=3)
    from simulation.tasks import run_preview

    run_preview(preview.pk)
    preview.refresh_from_db()

    result = preview.result
    assert 0 <= result["match_win"] <= 1
    assert result["win"] + result["tie"] + result["loss"] == pytest.approx(1)
    assert result["best_of"] == 3


@pytest.mark.django_db
def test_bad_preview_requests_are_refused_with_the_reason(client):
    tournament, match = _match()
    client.force_login(organizer_of(tournament))

    response = client.post(
        reverse("simulation:preview_start", args=[tournament.slug, match.id]),
        {"games": 5},
        follow=True,
    )

    assert "The preview was not started" in response.content.decode()
    assert not MatchPreview.objects.exists()
    with pytest.raises(previews.PreviewError, match="unknown skill profile"):
        previews.create_preview(match=match, games=20, players={"a": "wizard"})


@pytest.mark.django_db
def test_a_running_preview_shows_its_progress_and_the_probabilities_so_far(eager, client):
    """Each part of the games records its figures as it comes back: the status partial shows a
    progress bar and the chances so far, and a part delivered twice counts once."""
    tournament, match = _match()
    preview = previews.create_preview(match=match, games=40, seed=5)
    assert previews.start(preview.pk) is not None
    status_url = reverse("simulation:preview_status", args=[tournament.slug, preview.pk])

    waiting = client.get(status_url).content.decode()
    assert "40 games are being simulated" in waiting and 'aria-valuenow="0"' in waiting

    previews.record_part(preview.pk, 0, [[2, 0, 1, 0, 8]] * 6 + [[1, 1, 0, 0, 8]] * 2)
    previews.record_part(preview.pk, 1, [[0, 2, 0, 1, 8]] * 2)
    previews.record_part(preview.pk, 1, [[0, 2, 0, 1, 8]] * 2)  # delivered again
    preview.refresh_from_db()
    assert preview.so_far == (10, 6, 2, 2)

    html = client.get(status_url).content.decode()
    assert 'aria-valuenow="25"' in html
    a, b = match.entry_a.name, match.entry_b.name
    assert f"10 of 40 games played; so far {a} wins 60%, 20% tied, {b} wins 20%" in html
    assert "(give or take 30 points)" in html  # 1.96 * sqrt(0.6 * 0.4 / 10)
    assert 'hx-trigger="every' in html  # still polling


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("games", "parts"),
    [
        (120, [15] * 5 + [12, 10, 10, 10, 3]),
        (500, [50] * 7 + [38, 28, 21, 16, 12, 10, 10, 10, 5]),
    ],
)
def test_a_preview_is_played_in_parts_of_at_most_50_games(eager, monkeypatch, games, parts):
    """Parts of at most 50 games, at least 8 of them, in the seeds' order; the last ones shrink
    to a quarter of the games left (down to 10) so that the workers finish together."""
    from simulation import tasks

    _, match = _match()
    preview = previews.create_preview(match=match, games=games, seed=2)
    sent = []
    real = tasks.preview_games.s

    def spy(spec, seeds, preview_id, part, first):
        sent.append((first, len(seeds)))
        # One game a part keeps the test quick.
        return real(spec, seeds[:1], preview_id, part, first)

    monkeypatch.setattr(tasks.preview_games, "s", spy)
    tasks.run_preview(preview.pk)
    sizes = [size for _, size in sent]
    assert sizes == parts
    assert sum(sizes) == games and max(sizes) <= 50 and len(sizes) >= 8
    # Each part knows where its first game stands in the preview.
    assert [first for first, _ in sent] == [sum(sizes[:k]) for k in range(len(sizes))]
    preview.refresh_from_db()
    assert preview.status == Status.DONE and preview.so_far[0] == len(parts)


def test_a_preview_plays_each_game_alike_however_it_is_cut():
    """A game's opener alternates with its place in the preview, not in its part: the preview's
    games cut at an odd place are the games of one long part."""
    spec = {
        "players": ["competitive", "competitive"],
        "rounds": 1,
        "discs_per_player": 2,
        "scoring": "nca",
        "target": None,
        "playoff": False,
        "rules": "nca",
    }
    seeds = [playing.derive_seed("cut", n) for n in range(10)]
    whole = playing.play_summaries(spec, seeds)
    cut = playing.play_summaries(spec, seeds[:3], 0) + playing.play_summaries(spec, seeds[3:], 3)
    assert cut == whole
    # Without its place, the second part would open its games the other way round.
    assert playing.play_summaries(spec, seeds[3:]) != whole[3:]
