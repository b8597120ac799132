"""One progress partial for long work done in the background: PDF batches, dry runs, auto-play,
match previews.

Each feature says where its work stands as a :class:`Progress`; ``_progress.html`` draws it the
same way everywhere (a bar when the share done is known, the state, what is being done, the
error, a download link, buttons such as Retry) and polls ``status_url`` with htmx until the
work is finished.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


@dataclass(frozen=True)
class Action:
    """A button under the state: a form posting to ``url`` (Retry, Stop); the view that
    answers says what it did on the page it redirects to."""

    label: str
    url: str


@dataclass(frozen=True)
class Progress:
    """Where a piece of long work stands, as the partial shows it."""

    #: The HTML id of the partial (htmx swaps the element by it).
    element_id: str
    #: The URL that answers with this partial again; polled while ``running``.
    status_url: str
    running: bool
    #: The state in words ("Queued", "Running", "Ready: 4 cards (12 KB)").
    state: str
    #: What is being done, after the state ("12 of about 40 games · Preliminary, round 2").
    detail: str = ""
    #: The share done, 0-100; None when it is not known yet (no bar is drawn).
    percent: int | None = None
    error: str = ""
    download_url: str = ""
    download_label: str = ""
    poll_s: int = 2
    #: Reload the whole page once the work is finished (it shows the result).
    reload_when_finished: bool = False
    #: Buttons for whoever may act on the work (e.g. Retry and Stop when it stalled).
    actions: tuple[Action, ...] = ()


def progress_partial(request: HttpRequest, progress: Progress) -> HttpResponse:
    """The partial alone, for htmx polling; once finished it may tell the page to reload."""
    response = render(request, "_progress.html", {"progress": progress})
    if progress.reload_when_finished and not progress.running:
        response["HX-Refresh"] = "true"
    return response
