"""The opponent signs at the board with the hall's Wi-Fi gone, in a real chromium: on their own
phone (their private link), the "Agree" of a row waiting for their signature is kept in the
phone's outbox, says "saved on this phone, not yet sent" at that row, survives a reload with no
network, and signs the row once when the network is back.

As in ``test_offline_card``, Playwright's offline mode cuts the page and its service worker while
the server keeps running: every "not yet sent" is checked in the database too (the row still
waiting), then exactly one signature (one version more in the row's history).
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import CardRow, RowSubmission
from scoring.scorecards.services import card_for, fill_row
from tests.e2e.browsing import Story
from tests.e2e.test_offline_card import WAITING, Phone, history, overflow
from tests.events import PLAYER, WIN, build_small_event
from tournaments.services.links import link_of

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("story-offline-signing"),
    pytest.mark.django_db(transaction=True),
]


def test_an_agree_tapped_offline_survives_a_reload_and_signs_the_row_once(
    chromium, server, screenshots, tmp_path
):
    event = build_small_event()
    slug = event.tournament.slug
    row = fill_row(
        card=card_for(event.stage, event.player),
        game=event.game,
        rounds=WIN,
        user=event.users[PLAYER],
    )
    before = history(row)
    link = reverse("scoring:private_link", args=[slug, link_of(event.opponent).token])
    story = Story(chromium, server, screenshots)
    # The page alone sends: Background Sync would send the signature at once (the browser sees
    # the machine online), before the notice could be looked at.
    phone = Phone(story, tmp_path / "opponent", background_sync=False)

    # Online, the opponent opens their private link: the row waits for their signature, and
    # the phone keeps the page.
    page = phone.open()
    page.goto(link)
    phone.controlled()
    waiting = page.locator(f"#to-sign-{row.pk}")
    agree = waiting.get_by_role("button", name="Agree")
    expect(agree).to_be_visible()

    # Offline, they read the rounds and agree: kept on the phone, said at that row.
    phone.context.set_offline(True)
    agree.click()
    notice = waiting.locator("[data-outbox-notice]")
    expect(notice).to_contain_text(WAITING)
    assert overflow(page) == 0
    story.screenshots.take(page, "offline-agree-kept-on-the-phone")
    kept = phone.outbox()
    assert len(kept) == 1 and kept[0]["state"] == "pending"
    assert [f"v{event.game.id}-version", str(row.version)] in kept[0]["fields"]
    row.refresh_from_db()
    assert row.status == CardRow.Status.FILLED and history(row) == before

    # Reloaded offline: the page the phone kept, the notice still at the row.
    page.reload()
    expect(waiting.locator("[data-outbox-notice]")).to_contain_text(WAITING)
    assert [entry["key"] for entry in phone.outbox()] == [kept[0]["key"]]
    row.refresh_from_db()
    assert row.status == CardRow.Status.FILLED and history(row) == before

    # The network is back: the signature is sent, said in the row, and written once.
    phone.context.set_offline(False)
    expect(notice).to_contain_text("Row validated by the opponent.")
    expect(waiting.get_by_role("button", name="Agree")).to_be_hidden()
    story.screenshots.take(page, "offline-agree-sent-when-the-network-returned")
    row.refresh_from_db()
    assert row.status == CardRow.Status.VALIDATED
    assert row.validated_entry_id == event.opponent.id
    assert history(row) == before + 1
    submission = RowSubmission.objects.get()
    assert submission.key == kept[0]["key"] and submission.kind == RowSubmission.Write.VALIDATE
    assert phone.outbox() == []

    # The next visit: nothing waits for a signature, nothing is sent again.
    page.reload()
    expect(page.locator(f"#to-sign-{row.pk}")).to_have_count(0)
    row.refresh_from_db()
    assert history(row) == before + 1 and RowSubmission.objects.count() == 1
    phone.close()
    assert not phone.problems, phone.problems


def test_an_agree_kept_offline_on_a_row_changed_since_is_refused_never_signed(
    chromium, server, screenshots, tmp_path
):
    """While the opponent's phone was offline, a referee changed the row they had read: their
    kept "Agree" reaches the server and is refused as stale, said at the row in words; it leaves
    the outbox and the Agree goes (the row must be read again before it is signed)."""
    event = build_small_event()
    slug = event.tournament.slug
    card = card_for(event.stage, event.player)
    row = fill_row(card=card, game=event.game, rounds=WIN, user=event.users[PLAYER])
    link = reverse("scoring:private_link", args=[slug, link_of(event.opponent).token])
    story = Story(chromium, server, screenshots)
    phone = Phone(story, tmp_path / "opponent", background_sync=False)
    page = phone.open()
    page.goto(link)
    phone.controlled()
    waiting = page.locator(f"#to-sign-{row.pk}")
    phone.context.set_offline(True)
    waiting.get_by_role("button", name="Agree").click()
    notice = waiting.locator("[data-outbox-notice]")
    expect(notice).to_contain_text(WAITING)

    theirs = [{"points": [0, 2], "twenties": [0, 4]}] * 3 + [{"points": [2, 0], "twenties": [2, 0]}]
    fill_row(
        card=card,
        game=event.game,
        rounds=theirs,
        user=event.users["referee"],
        version=row.version,
        referee_initials="RF",
    )
    row.refresh_from_db()
    changed = history(row)

    phone.context.set_offline(False)
    expect(notice).to_contain_text("Not sent: Changed by someone else — reload before you sign")
    expect(waiting.get_by_role("button", name="Agree")).to_be_hidden()
    story.screenshots.take(page, "offline-agree-refused-row-changed-since")
    assert phone.outbox() == []
    row.refresh_from_db()
    assert row.status == CardRow.Status.FILLED and history(row) == changed
    assert not RowSubmission.objects.exists()
    phone.close()
    assert not phone.problems, phone.problems
