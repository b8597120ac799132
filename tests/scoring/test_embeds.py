"""Embeds: a stage's standings, bracket and schedule framed on a club's own site.

Only these pages may be framed by other sites; every other page keeps refusing (clickjacking).
They show the stage without the site's bar, follow the live version like the pages they copy,
and the normal pages hand out the ``<iframe>`` to paste.
"""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from tests.test_security_settings import ScriptFinder
from tests.tournaments.test_public_pages import event
from tournaments import live

pytestmark = pytest.mark.django_db

KINDS = ("standings", "bracket", "schedule")


@pytest.fixture
def stages():
    """A category with a played preliminary and a drawn knockout: something in every embed."""
    category, _, by_name = event(9)
    return category.tournament.slug, by_name


def embed_url(kind: str, slug: str, stage_id: int) -> str:
    namespace = "scoring" if kind == "standings" else "tournaments"
    return reverse(f"{namespace}:embed-{kind}", args=[slug, stage_id])


def page_url(kind: str, slug: str, stage_id: int) -> str:
    name = {
        "standings": "scoring:standings",
        "bracket": "tournaments:bracket",
        "schedule": "tournaments:schedule",
    }[kind]
    return reverse(name, args=[slug, stage_id])


def stage_for(kind: str, by_name: dict) -> int:
    return by_name["knockout" if kind == "bracket" else "prelim"].id


def directives(response) -> dict[str, list[str]]:
    policy = response["Content-Security-Policy"]
    return {p.split()[0]: p.split()[1:] for p in policy.split(";") if p.strip()}


@pytest.mark.parametrize("kind", KINDS)
def test_an_embed_shows_the_stage_without_the_sites_frame(client: Client, stages, kind: str):
    slug, by_name = stages
    response = client.get(embed_url(kind, slug, stage_for(kind, by_name)))
    assert response.status_code == 200
    body = response.content.decode()
    assert 'class="top"' not in body and "Log in" not in body  # no site header
    assert 'class="event-nav"' not in body  # nor the tournament's menu
    assert '<base target="_blank">' in body  # a link leaves the frame for a tab of its own
    expected = {
        "standings": "standings-chart",
        "bracket": "<svg",
        "schedule": 'class="plain schedule"',
    }[kind]
    assert expected in body


@pytest.mark.parametrize("kind", KINDS)
def test_an_embed_may_be_framed_by_other_sites_and_still_runs_no_inline_script(
    client: Client, stages, kind: str
):
    slug, by_name = stages
    response = client.get(embed_url(kind, slug, stage_for(kind, by_name)))
    assert response.get("X-Frame-Options") is None
    policy = directives(response)
    assert policy["frame-ancestors"] == ["*"]
    assert policy["script-src"] == ["'self'"] and policy["default-src"] == ["'self'"]
    finder = ScriptFinder()
    finder.feed(response.content.decode())
    assert not finder.problems


@pytest.mark.parametrize("kind", KINDS)
def test_the_normal_pages_still_refuse_to_be_framed(client: Client, stages, kind: str):
    slug, by_name = stages
    response = client.get(page_url(kind, slug, stage_for(kind, by_name)), follow=True)
    assert response.status_code == 200
    assert response["X-Frame-Options"] == "DENY"
    assert directives(response)["frame-ancestors"] == ["'none'"]


@pytest.mark.parametrize("kind", KINDS)
def test_the_normal_page_hands_out_the_iframe_to_copy(client: Client, stages, kind: str):
    slug, by_name = stages
    stage_id = stage_for(kind, by_name)
    body = client.get(page_url(kind, slug, stage_id), follow=True).content.decode()
    assert '<details class="embed-snippet">' in body and "<summary>Embed</summary>" in body
    field = body.split("<textarea", 1)[1].split("</textarea>", 1)
    attributes, snippet = field[0].split(">", 1)[0], html.unescape(field[0].split(">", 1)[1])
    assert "readonly" in attributes and "data-select-on-click" in attributes
    assert snippet.startswith(f'<iframe src="http://testserver{embed_url(kind, slug, stage_id)}"')
    assert 'title="' in snippet and snippet.endswith("</iframe>")
    assert "<iframe" not in body.replace(field[0], "")  # shown as text, never a live frame
    assert "js/select-on-click.js" in body
    # Not a link: the site's own crawl never lands on a page that allows framing.
    assert f'href="{embed_url(kind, slug, stage_id)}"' not in body


@pytest.mark.parametrize("kind", KINDS)
def test_an_unknown_stage_is_a_404_page_that_fits_the_frame(client: Client, stages, kind: str):
    slug, by_name = stages
    response = client.get(embed_url(kind, slug, by_name["knockout"].id + 999))
    assert response.status_code == 404
    body = response.content.decode()
    assert "There is no" in body and 'class="top"' not in body
    other = client.get(embed_url(kind, "no-such-event", by_name["prelim"].id))
    assert other.status_code == 404


def test_a_bracket_embed_of_a_stage_that_is_no_knockout_is_not_found(client: Client, stages):
    slug, by_name = stages
    response = client.get(embed_url("bracket", slug, by_name["prelim"].id))
    assert response.status_code == 404
    assert "no knockout stage" in response.content.decode()


@pytest.mark.parametrize("kind", KINDS)
def test_an_embed_follows_the_live_version(client: Client, stages, kind: str):
    slug, by_name = stages
    body = client.get(embed_url(kind, slug, stage_for(kind, by_name))).content.decode()
    poll = reverse("tournaments:live", args=[slug])
    assert f'hx-get="{poll}?seen={live.version(slug)}"' in body
    assert "js/live.js" in body and "htmx-2.min.js" in body


def test_an_embed_is_only_read(client: Client, stages):
    slug, by_name = stages
    url = embed_url("standings", slug, by_name["prelim"].id)
    assert client.post(url).status_code == 405
