"""The scorecard, the private link's page and the round clock speak French to a French browser
(Accept-Language): the card's header, its row and round boxes, the clock's states and its
equalising-shot notice, the refusals of the scorecard service, with a round of play called a
"ronde" and a round of a game a "manche"; and they stay in English for everyone else."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from scoring.scorecards.services import ScorecardError, card_for, fill_row, validate_row
from tests.events import SmallEvent
from tests.scoring.test_private_links import WIN, boxes, card_url, link_url, unlink_logins
from tests.test_i18n import ENGLISH, FRENCH, visible_text
from tournaments.services import clock as clocks

pytestmark = pytest.mark.django_db

#: English words of the card, the private link's page and the clock that must not be left on a
#: French page (whole words, in the text a player reads; names are the organizer's).
CARD_WORDS = (
    "Round",
    "round",
    "Board",
    "board",
    "Game",
    "Scorecard",
    "Scorecards",
    "scorecards",
    "Full name",
    "Category",
    "Stage",
    "Fill the row",
    "Save the row",
    "Board scores",
    "Time expired",
    "Tie",
    "Game total",
    "Not filled",
    "Waiting",
    "Validate",
    "Validation",
    "opponent",
    "Round clock",
    "Buzzer",
    "ready to start",
    "running",
    "paused",
    "time is up",
    "Time left",
    "Refresh",
    "private link",
    "Your scorecards",
    "No card yet",
    "Log in",
    "Walkover",
    "Forfeit",
)


def english_left(text: str, event: SmallEvent) -> list[str]:
    for name in (
        event.tournament.name,
        event.category.name,
        event.stage.name,
        *(e.name for e in event.entries),
    ):
        text = text.replace(name, " ")
    return [w for w in CARD_WORDS if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)]


def get(client, url: str, headers: dict) -> str:
    response = client.get(url, **headers)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def clock_partial(event: SmallEvent) -> str:
    return reverse("tournaments:clock-partial", args=[event.tournament.slug])


def test_the_private_link_page_is_in_french(small_event, client):
    unlink_logins(small_event)
    body = get(client, link_url(small_event, small_event.player), FRENCH)
    text = visible_text(body)
    assert '<html lang="fr">' in body
    assert "Cette page est votre lien personnel" in text
    assert "Vos feuilles de match" in text
    assert "Connexion" in text or "Se connecter" in text
    assert english_left(text, small_event) == []


def test_the_card_and_its_clock_are_in_french(small_event, client):
    event = small_event
    unlink_logins(event)
    clocks.set_up(
        tournament=event.tournament, user=event.users["referee"], duration_s=900, now=timezone.now()
    )
    client.get(link_url(event, event.player))
    text = visible_text(get(client, card_url(event, event.player), FRENCH))
    assert "Feuille de match" in text and "Nom complet" in text and "Catégorie" in text
    assert "Phase" in text and "Ronde 1" in text and "Planche" in text
    assert "Remplir la ligne" in text and "Enregistrer la ligne" in text
    assert "Manche 1" in text and "Égalité" in text and "Scores de planche" in text
    assert "Temps écoulé, aucun disque joué" in text and "Total de la partie" in text
    assert "Chrono de la ronde" in text and "prêt à démarrer" in text
    assert english_left(text, event) == []
    # the buttons' words for a screen reader, and the clock's words for clock.js
    body = get(client, card_url(event, event.player), FRENCH)
    assert "Un 20 de plus pour" in body and "Manche 1\u00a0: qui l\u2019a gagnée\u00a0?" in body
    assert 'data-word-time-up="temps écoulé"' in body
    assert 'data-word-sound-on="Son du buzzer\u00a0: activé"' in body


def test_the_round_clock_fragment_is_in_french_and_its_notice_too(small_event, client):
    event = small_event
    referee = event.users["referee"]
    clocks.set_up(tournament=event.tournament, user=referee, duration_s=900, now=timezone.now())
    clocks.start(tournament=event.tournament, user=referee, now=timezone.now())
    text = visible_text(get(client, clock_partial(event), FRENCH))
    assert "Chrono de la ronde" in text and "en marche" in text
    assert english_left(text, event) == []
    clocks.reset(tournament=event.tournament, user=referee, now=timezone.now())
    clocks.start(tournament=event.tournament, user=referee, now=timezone.now() - timedelta(hours=1))
    body = get(client, clock_partial(event), FRENCH)
    text = visible_text(body)
    assert "temps écoulé" in text and "tir d\u2019égalisation" in text and "0\u20130" in text
    assert "Temps ! Arrêtez le jeu" in text  # (visible_text makes no-break spaces plain)
    assert english_left(text, event) == [] and "equalising" not in text
    # and in English for everyone else
    text = visible_text(get(client, clock_partial(event), ENGLISH))
    assert "time is up" in text and "equalising shot" in text


def test_a_refusal_of_the_service_comes_out_in_french_through_the_card(small_event, client):
    event = small_event
    unlink_logins(event)
    fill_row(
        card=card_for(event.stage, event.player),
        game=event.game,
        rounds=WIN,
        user=event.users["referee"],
    )
    client.get(link_url(event, event.opponent))
    g = event.game.id
    response = client.post(
        card_url(event, event.player, "validate_row", event.game),
        {f"v{g}-opponent_number": "999999", f"v{g}-initials": "OP", f"v{g}-version": 1},
        **FRENCH,
    )
    text = visible_text(response.content.decode())
    # The match is named in French too ("Ann c. Bob").
    assert f" c. {event.match.entry_b.name} de la ronde {event.match.round_of_play}" in text
    assert "seul l\u2019adversaire peut valider cette ligne" in text
    assert "only the opponent" not in text


def test_a_round_named_in_a_refusal_is_a_manche(small_event, client):
    event = small_event
    unlink_logins(event)
    client.get(link_url(event, event.player))
    rounds = [{"points": ["", ""], "twenties": ["", ""]}, {"points": [2, 0], "twenties": [1, 0]}]
    response = client.post(
        card_url(event, event.player, "fill_row", event.game),
        boxes(f"g{event.game.id}", rounds, version=0),
        **FRENCH,
    )
    text = visible_text(response.content.decode())
    assert "La manche 1 est vide mais la manche 2 est remplie" in text
    assert english_left(text, event) == []


def test_the_engines_verdict_on_a_round_comes_out_in_french_through_the_card(small_event, client):
    """The scoring engine (a pure core, free of Django) words its verdicts through the installed
    translation: a round after the game was over is explained in the player's language."""
    event = small_event
    unlink_logins(event)
    client.get(link_url(event, event.player))
    rounds = [{"points": [2, 0], "twenties": [2, 0]}] * 5
    data = boxes(f"g{event.game.id}", rounds, version=0)
    response = client.post(card_url(event, event.player, "fill_row", event.game), data, **FRENCH)
    text = visible_text(response.content.decode())
    assert "la manche 5 est de trop : la partie était terminée après la manche 4" in text, text
    assert "one too many" not in text
    assert (
        f" c. {event.match.entry_b.name} de la ronde {event.match.round_of_play}, la manche 5"
        in text
    )
    assert english_left(text, event) == []
    label = f"in round of play {event.match.round_of_play}"
    response = client.post(card_url(event, event.player, "fill_row", event.game), data, **ENGLISH)
    text = visible_text(response.content.decode())
    assert f"{label}, round 5 is one too many: the game was over after round 4" in text


def test_the_service_refuses_missing_initials_in_french_and_english(small_event):
    event = small_event
    row = fill_row(
        card=card_for(event.stage, event.player),
        game=event.game,
        rounds=WIN,
        user=event.users["referee"],
    )
    for language, words in (
        (
            "fr",
            f" c. {event.match.entry_b.name} de la ronde 1\u00a0: "
            "les initiales de l\u2019adversaire manquent.",
        ),
        ("en", f"{event.match} in round of play 1: the opponent's initials are missing."),
    ):
        with translation.override(language), pytest.raises(ScorecardError) as refused:
            validate_row(
                row=row,
                opponent_number=str(event.opponent.player.number),
                initials=" ",
                user=event.users["opponent"],
                version=row.version,
            )
        assert refused.value.messages[0].endswith(words), refused.value.messages


def test_an_english_browser_keeps_the_card_in_english(small_event, client):
    event = small_event
    unlink_logins(event)
    client.get(link_url(event, event.player))
    for headers in (ENGLISH, {}):
        text = visible_text(get(client, card_url(event, event.player), headers))
        assert "Full name" in text and "Round of play 1" in text and "Fill the row" in text
        assert "Round 1" in text and "Feuille de match" not in text
        text = visible_text(get(client, link_url(event, event.player), headers))
        assert "This page is your private link" in text
