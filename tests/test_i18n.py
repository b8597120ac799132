"""The public pages speak the visitor's language: French when the browser asks for it
(Accept-Language) or the language switcher chose it, English otherwise; and the French
catalogue is complete and compiled (locale/fr/LC_MESSAGES: django.po and the django.mo built
from it, both committed)."""

import ast
import gettext
import re
from datetime import date
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from scoring.results.schedule import STATE_LABELS
from scoring.templatetags.scoring_labels import tiebreak_label
from tests.events import build_small_event
from tests.tournaments.test_public_pages import event
from tournaments.models import Match

pytestmark = pytest.mark.django_db

LOCALE = Path(settings.BASE_DIR) / "locale" / "fr" / "LC_MESSAGES"
FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}

#: English words of the marked pages that must not be left on a French page (whole words, in
#: the text a visitor reads; names of players, stages and tournaments are the organizer's).
ENGLISH_WORDS = (
    "Standings",
    "Schedule",
    "Bracket",
    "Tournaments",
    "Board",
    "board",
    "Opponent",
    "Result",
    "State",
    "Entry",
    "Tiebreak",
    "Round",
    "round",
    "Pool",
    "pool",
    "Bye",
    "bye",
    "to play",
    "in play",
    "finished",
    "won",
    "lost",
    "against",
    "Log in",
    "Print",
    "Now playing",
    "Who plays where now",
    "Draw and schedule",
    "Show games",
    "Games so far",
    "Find a tournament",
    "Search",
    "Live now",
    "Upcoming",
    "head-to-head",
    "shoot-out",
    "Simulation previews",
)


def visible_text(html: str) -> str:
    """The words a visitor reads: no markup, scripts, styles or the bracket's drawing (drawn by
    the pure SVG core, in figures and names), attribute values left out."""
    html = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r"<[^>]+>", " ", html)
    return " ".join(html.split())


def english_left(text: str) -> list[str]:
    return [w for w in ENGLISH_WORDS if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)]


@pytest.fixture
def pages(client):
    category, entries, stages = event(9)
    tournament = category.tournament
    tournament.starts_on = date(2026, 2, 14)
    tournament.save(update_fields=["starts_on"])
    slug = tournament.slug
    return {
        "front": reverse("home"),
        "detail": reverse("tournaments:detail", args=[slug]),
        "standings": reverse("scoring:standings", args=[slug, stages["prelim"].id]),
        "schedule": reverse("tournaments:round", args=[slug, stages["prelim"].id, 2]),
        "player": reverse("tournaments:player", args=[slug, entries[0].player.number]),
        "pools": reverse("tournaments:pools", args=[slug, stages["pools"].id]),
        "bracket": reverse("tournaments:bracket", args=[slug, stages["knockout"].id]),
        "now": reverse("tournaments:now", args=[slug]),
    }


def get(client, url, headers):
    response = client.get(url, **headers)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def test_french_browser_gets_the_public_pages_in_french(client, pages):
    bodies = {name: get(client, url, FRENCH) for name, url in pages.items()}
    texts = {name: visible_text(body) for name, body in bodies.items()}
    for name, body in bodies.items():
        assert '<html lang="fr">' in body, name
        assert "Gestion de tournois de crokinole" in texts[name], name
        assert english_left(texts[name]) == [], (name, english_left(texts[name]))
    assert "Tournois" in texts["front"] and "Rechercher" in texts["front"]
    # the date is in French words
    assert "14 février 2026" in texts["detail"]
    assert "Classement" in texts["detail"] and "Tirage et horaire" in texts["detail"]
    standings = texts["standings"]
    assert "Participant" in standings and "Départage" in standings
    schedule = texts["schedule"]
    assert "Planche" in schedule and "Adversaire" in schedule and "Ronde 2" in schedule
    assert "terminée" in schedule and "Exempt" in schedule
    player = texts["player"]
    assert "Parties jusqu\u2019ici" in player
    assert "gagnée" in player or "perdue" in player
    assert "Poule A" in texts["pools"] and "Tableau" in texts["bracket"]
    assert "Qui joue où maintenant" in texts["now"] or "qui joue où maintenant" in texts["now"]


def test_english_browser_and_no_preference_get_english(client, pages):
    for headers in (ENGLISH, {}):
        for name in ("front", "detail", "standings", "schedule", "player"):
            body = get(client, pages[name], headers)
            text = visible_text(body)
            assert '<html lang="en">' in body, name
            assert "Crokinole Tournament Manager" in text
            assert "Gestion de tournois" not in text
        assert "Tiebreak" in visible_text(get(client, pages["standings"], headers))
        schedule = visible_text(get(client, pages["schedule"], headers))
        assert "Board" in schedule and "finished" in schedule
        player = visible_text(get(client, pages["player"], headers))
        assert "Games so far" in player and ("won" in player or "lost" in player)
        assert "14 February 2026" in visible_text(get(client, pages["detail"], headers))


def test_the_language_switcher_sets_french_for_the_next_pages(client, pages):
    page = get(client, pages["schedule"], {})
    # the switcher: a form posting to set_language, no inline script
    assert f'action="{reverse("set_language")}"' in page
    assert 'name="language"' in page and 'value="fr"' in page
    assert "js/language.js" in page
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page)
    response = client.post(reverse("set_language"), {"language": "fr", "next": pages["schedule"]})
    assert response.status_code == 302 and response["Location"] == pages["schedule"]
    text = visible_text(get(client, pages["schedule"], {}))
    assert "Planche" in text and english_left(text) == []
    # and back to English, even with a French browser
    client.post(reverse("set_language"), {"language": "en", "next": pages["front"]})
    assert "Tournaments" in visible_text(get(client, pages["front"], FRENCH))


def test_the_board_calls_are_in_french(client):
    small = build_small_event(players=6, boards=1)
    board = small.boards[0]
    matches = list(Match.objects.filter(stage=small.stage, round_of_play=1).order_by("id"))
    Match.objects.filter(pk__in=[m.pk for m in matches]).update(board=board)
    url = reverse("tournaments:round", args=[small.tournament.slug, small.stage.id, 1])
    text = visible_text(get(client, url, FRENCH))
    assert text.count(f"sur la planche {board.number} maintenant") == 1
    assert text.count(f"ensuite sur la planche {board.number}") == 1
    assert text.count(f"3e sur la planche {board.number}") == len(matches) - 2
    assert "à jouer" in text


def test_labels_translate_at_display_and_keys_stay_english():
    with translation.override("fr"):
        assert tiebreak_label("head-to-head") == "confrontation directe"
        assert STATE_LABELS["to play"]() == "à jouer"
    with translation.override("en"):
        assert tiebreak_label("head-to-head") == "head-to-head"
        assert STATE_LABELS["to play"]() == "to play"


# --- the catalogue -----------------------------------------------------------------------------


def _unquote(chunks: list[str]) -> str:
    return "".join(ast.literal_eval(chunk) for chunk in chunks)


def po_entries(path: Path, *, with_sources: bool = False) -> dict:
    """The messages of a .po file, read without gettext or polib: {key: translation}, the key as
    the .mo stores it ("context\\x04msgid"; (msgid, n) for each plural form). Entries are
    separated by blank lines, as makemessages writes them. ``with_sources`` gives
    {key: (translation, [files that use it])} instead."""
    catalog = {}
    for block in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
        fields: dict[str, list[str]] = {}
        sources: list[str] = []
        name = None
        for line in block.splitlines():
            line = line.strip()
            if line.startswith("#~"):
                raise AssertionError(f"obsolete entry left in {path.name}: {line}")
            if line.startswith("#:"):
                sources += [ref.rsplit(":", 1)[0] for ref in line[2:].split()]
                continue
            if not line or line.startswith("#"):
                continue
            match = re.match(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(\".*\")$", line)
            if match:
                name = match.group(1)
                fields[name] = [match.group(2)]
            else:
                fields[name].append(line)
        if "msgid" not in fields or not _unquote(fields["msgid"]):
            continue  # the header
        msgid = _unquote(fields["msgid"])
        if "msgctxt" in fields:
            msgid = f"{_unquote(fields['msgctxt'])}\x04{msgid}"
        found = {}
        if "msgid_plural" in fields:
            for name in fields:
                if name.startswith("msgstr["):
                    found[(msgid, int(name[7:-1]))] = _unquote(fields[name])
        else:
            found[msgid] = _unquote(fields["msgstr"])
        for key, text in found.items():
            catalog[key] = (text, sources) if with_sources else text
    return catalog


#: The pages offered in French: every message they use must be translated. Other pages (the
#: organizer's, the simulation's, printed sheets) are marked for translation and show English
#: until their messages are translated.
FRENCH_PAGES = (
    "templates/base.html",
    "templates/tournaments/home.html",
    "templates/tournaments/_index_section.html",
    "templates/tournaments/_header.html",
    "templates/tournaments/public/",
    "templates/tournaments/screen/",
    "templates/tournaments/clock/",
    "templates/scoring/cards/",
    "templates/scoring/_",
    "templates/scoring/stage_standings.html",
    "templates/embed/",
    "scoring/scorecards/",
    # what the scorecard and the public pages show from the cores and the models: the engine's
    # verdicts on a round, the bracket's round names, results, the models' choice labels
    "scoring/engine/",
    "scoring/results/",
    "scoring/standings/",
    "scoring/templatetags/",
    "tournaments/formats/",
    "tournaments/svg/",
    "tournaments/models/",
    "tournaments/views/public.py",
    "tournaments/views/clock",
)


def _on_french_pages(sources: list[str]) -> bool:
    return any(src.startswith(FRENCH_PAGES) for src in sources)


def test_every_french_message_is_translated():
    catalog = po_entries(LOCALE / "django.po", with_sources=True)
    assert len(catalog) > 150
    missing = [k for k, (v, src) in catalog.items() if not v.strip() and _on_french_pages(src)]
    assert missing == []
    fuzzy = re.findall(r"^#,.*\bfuzzy\b", (LOCALE / "django.po").read_text(), re.M)
    assert fuzzy == []
    # a placeholder of the English is in the French, and no other
    for key, (text, _sources) in catalog.items():
        english = key[0] if isinstance(key, tuple) else key.split("\x04")[-1]
        if isinstance(key, tuple) or not text:
            continue  # the singular of a plural may leave out its count; English shown as is
        assert sorted(re.findall(r"%\(\w+\)s", english)) == sorted(
            re.findall(r"%\(\w+\)s", text)
        ), key


def test_the_compiled_catalogue_matches_the_po():
    """django.mo was compiled from the django.po as committed (run `manage.py compilemessages`
    after editing the .po)."""
    with (LOCALE / "django.mo").open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    mo_catalog = {k: v for k, v in compiled._catalog.items() if k != ""}
    translated = {k: v for k, v in po_entries(LOCALE / "django.po").items() if v}
    assert mo_catalog == translated
