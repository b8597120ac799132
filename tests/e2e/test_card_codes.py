"""The codes on a scorecard carry no identity, in a real chromium.

The WCC hands the paper card across the board to be signed, and a player holds their phone out
to the opponent: neither may let the other act for them. The story, from an empty database:
the scoring table prints round 1; the QR of the owner's printed card, read back from the PDF and
opened on a stranger's phone, shows the card to read and nothing more (no acting-for bar, no
form, the card's own page still closed). The owner fills the row on their phone and shows the
signing code; their own phone cannot use it; the opponent scans it on their own phone, where
they opened their own private link, and signs. The scoring table then reads, on its laptop, who
signed, with which identity and on which phone.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import zxingcpp
from django.urls import reverse
from PIL import Image
from playwright.sync_api import expect

from scoring.models import CardRow
from scoring.scorecards.services import card_for, fill_row
from tests.e2e.browsing import LAPTOP, PHONE, Story, open_private_link, validate_row
from tests.events import PLAYER, build_small_event
from tournaments.services.links import link_of

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("story-card-codes"),
    pytest.mark.django_db(transaction=True),
]

PASSWORD = "codes-carry-no-one"
WIN = [{"points": [2, 0], "twenties": [1, 0]}] * 3 + [{"points": [0, 2], "twenties": [0, 1]}]


def qr_texts(pdf: bytes) -> list[str]:
    """Every QR code printed on the PDF's pages, read back as a phone's camera would."""
    if shutil.which("pdftoppm") is None:
        pytest.fail(
            "pdftoppm is missing; install it as root with: apt-get install -y poppler-utils"
        )
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "cards.pdf"
        source.write_bytes(pdf)
        subprocess.run(
            ["pdftoppm", "-r", "200", "-png", str(source), str(Path(folder) / "page")], check=True
        )
        found = []
        for page in sorted(Path(folder).glob("page*.png")):
            found += [code.text for code in zxingcpp.read_barcodes(Image.open(page))]
    return found


def test_codes_on_cards_and_phones_lead_to_the_row_never_to_the_owner(
    chromium, server, screenshots, fast_passwords, media
):
    event = build_small_event()
    slug, game = event.tournament.slug, event.game
    table_user = event.users["scoring-table"]
    table_user.set_password(PASSWORD)
    table_user.save()
    owner_token = link_of(event.player).token
    opponent_token = link_of(event.opponent).token
    story = Story(chromium, server, screenshots)

    # The scoring table prints round 1's cards on its laptop.
    table = story.visitor("table", LAPTOP)
    pdf_path = reverse("scoring:print-round-cards", args=[slug, event.stage.id, 1])
    table.log_in(table_user.username, PASSWORD, then=reverse("scoring:cards:table", args=[slug]))
    pdf = table.download(pdf_path)
    story.screenshots.keep("round-1-cards.pdf", pdf)
    codes = qr_texts(pdf)
    assert codes, "no QR code could be read off the printed cards"
    # No printed code carries a private link, anyone's.
    assert not [c for c in codes if "/me/" in c or owner_token in c or opponent_token in c]
    card_path = reverse("scoring:cards:card", args=[slug, event.stage.id, event.player.id])
    owner_codes = []
    for code in codes:
        path = urlsplit(code).path
        assert re.fullmatch(rf"/t/{slug}/scan/[^/]+/", path), code
        owner_codes.append(path)

    # A stranger's phone opens each printed code: it reads a card, acts for nobody.
    stranger = story.visitor("stranger", PHONE)
    owner_scan = None
    for path in owner_codes:
        stranger.go(path)
        if event.player.name in stranger.page.locator(".card-header").inner_text():
            owner_scan = path
            break
    assert owner_scan is not None, "the owner's card has no readable code"
    page = stranger.page
    expect(page.locator("[data-scan-message]")).to_contain_text("To validate a row")
    expect(page.locator(".acting-for")).to_have_count(0)
    expect(page.locator("form.validate-form, form.row-form")).to_have_count(0)
    assert not any(c["name"] == "sessionid" for c in stranger.context.cookies())
    assert stranger.overflow() == 0
    stranger.shot("printed-code-on-a-strangers-phone")
    # ... and the card's own page stays closed to it: it was sent to sign in.
    stranger.go(card_path)
    assert stranger.path == reverse("login")

    # The owner fills the row on their phone (their own private link), then shows the code.
    owner = open_private_link(story, "owner", f"/t/{slug}/me/{owner_token}/", PHONE)
    expect(owner.page.locator(".acting-for")).to_contain_text(event.player.name)
    fill_row(
        card=card_for(event.stage, event.player), game=game, rounds=WIN, user=event.users[PLAYER]
    )
    owner.go(card_path)
    row = owner.page.locator(f"#game-{game.id}")
    row.locator("details.sign-code summary").click()
    code_box = row.locator("details.sign-code .qr")
    expect(code_box).to_be_visible()
    assert owner.overflow() == 0
    shot = owner.shot("signing-code-on-the-owners-phone", at=code_box)
    picture = Image.open(io.BytesIO(code_box.screenshot()))
    read = zxingcpp.read_barcodes(picture)
    assert read, f"the signing code on the owner's phone could not be read ({shot})"
    sign_path = urlsplit(read[0].text).path
    assert sign_path.startswith(f"/t/{slug}/sign/") and owner_token not in sign_path

    # The owner's own phone cannot sign with it.
    owner.go(sign_path)
    expect(owner.page.locator("[data-scan-message]")).to_contain_text("This phone acts for")
    assert CardRow.objects.get(card__entry=event.player, game=game).status == "filled"

    # The opponent scans it on their own phone (their own private link, from their sheet).
    opponent = open_private_link(story, "opponent", f"/t/{slug}/me/{opponent_token}/", PHONE)
    expect(opponent.page.locator(".to-sign")).to_contain_text(event.player.name)
    opponent.go(sign_path)
    assert opponent.path == card_path
    validate_row(opponent.page, game.id, event.opponent.player.number, "KN")
    opponent.shot("signed-on-the-opponents-phone")
    signed = CardRow.objects.get(card__entry=event.player, game=game)
    assert signed.status == "validated"
    assert signed.validated_entry_id == event.opponent.id and signed.validated_by is None
    assert re.fullmatch(r"[0-9A-F]{6}", signed.validated_device)
    # The printed card's code, scanned by the opponent's phone, leads to the card too.
    opponent.go(owner_scan)
    assert opponent.path == card_path

    # The scoring table reads who signed, how, and on which phone.
    table.go(reverse("scoring:cards:table", args=[slug]))
    words = table.page.locator("main").inner_text()
    assert (
        f"{event.opponent.name} (ID {event.opponent.player.number}) with their private link"
        in words
    )
    assert f"phone {signed.validated_device}" in words
    table.shot("table-shows-who-signed")

    expected = {"/accounts/login/", sign_path}  # the refusals this story asks for
    unexpected = [p for p in story.problems if not any(e in p for e in expected)]
    assert not unexpected, unexpected
