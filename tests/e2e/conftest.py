"""Browser fixtures: Debian's chromium, driven by Playwright's sync API, against Django's live
server.

Playwright's own browser download needs the internet, so the system chromium is launched
instead; when it is missing the tests fail (they are part of ``make test``, which installs it)
and say which command installs it.
"""

import os
import shutil
import threading
from collections.abc import Generator, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

import pytest
from _pytest.nodeid import NodeId
from django.contrib.staticfiles.handlers import StaticFilesHandler
from django.core.servers.basehttp import ThreadedWSGIServer
from django.db import connections
from django.test import TransactionTestCase
from django.test.testcases import LiveServerThread, QuietWSGIRequestHandler
from django.test.utils import modify_settings

from tests.e2e.browsing import Screenshots

# Playwright's sync API keeps an asyncio event loop in the test's thread, and Django refuses
# database calls from a thread with a running loop unless told it is safe. It is: nothing runs
# on that loop but Playwright's own calls, one at a time.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

INSTALL_COMMAND = "apt-get install -y chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOT_DIR = Path(__file__).resolve().parent.parent / "artifacts" / "e2e"


E2E_DIR = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items) -> None:
    """Every test of this folder drives chromium: it is marked ``browser`` (``make check`` leaves
    it out), and each module is a story of its own in one pytest-xdist group, so that under
    ``--dist loadgroup`` (``make test``) its steps run in order in one worker, even for a story
    whose module forgot to say so.

    pytest-xdist 3.8 puts a test in its group by writing ``@group`` after its id, into an
    attribute pytest 9.2 no longer reads (pytest-dev/pytest-xdist#1386): the groups were
    silently ignored, and a story's steps went to different workers. Here the group is written
    into the id pytest reads, as xdist meant it, unless xdist already did."""
    loadgroup = config.getoption("loadgroup", default=False)  # set in xdist's workers
    for item in items:
        if E2E_DIR not in Path(item.path).resolve().parents:
            continue
        if item.get_closest_marker("browser") is None:
            item.add_marker(pytest.mark.browser)
        if item.get_closest_marker("xdist_group") is None:
            story = Path(item.path).stem.removeprefix("test_")
            item.add_marker(pytest.mark.xdist_group(f"story-{story}"))
        if loadgroup and hasattr(item, "_id") and "@" not in item.nodeid:
            groups = sorted(
                str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                for mark in item.iter_markers("xdist_group")
            )
            item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(groups)}")


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    """A headless chromium for the module's tests (one browser, a context per person)."""
    path = shutil.which("chromium")
    if path is None:
        pytest.fail(
            "chromium is not installed, and the browser tests drive Debian's chromium. "
            f"Install it as root with: {INSTALL_COMMAND}",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=path, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()


class SerialRequestHandler(QuietWSGIRequestHandler):
    """Answers one request at a time across the whole server, counting from its request line.

    A connection waits for its request line in its own thread, holding nothing: chromium opens
    connections it may never use (preconnects, one browser context per person), and a server
    that read them one at a time would sit on an idle one while another person's request waited
    behind it. Once the request line is in, the request takes the server's one lock and keeps
    it until the response is written. The round clock's event stream, which lasts, takes it only
    while its view runs and when it closes (``SharingWSGIServer.get_app``).
    """

    lock = threading.Lock()

    def parse_request(self) -> bool:
        if is_clock_stream(self.raw_requestline):
            # An event stream lasts; it takes the lock only while its view reads the database
            # (SharingWSGIServer.get_app), never while it waits for the clock to change.
            self.holding = False
            return super().parse_request()
        self.lock.acquire()
        self.holding = True
        return super().parse_request()

    def handle_one_request(self) -> None:
        self.holding = False
        try:
            super().handle_one_request()
        finally:
            if self.holding:
                self.lock.release()


#: The paths of the event streams, which last: the round clock's
#: (tournaments.views.clock_events) and the broadcast overlay's (simulation.broadcast.events).
STREAM_PATHS = ("/clock/events/", "/overlay/events/")


def is_clock_stream(request_line: bytes | str) -> bool:
    """An event stream (the round clock's or the overlay's), from its request line or its
    path."""
    text = request_line.decode("latin-1") if isinstance(request_line, bytes) else request_line
    path = text.split("?", 1)[0]
    return any(stream in path for stream in STREAM_PATHS)


class LockedStream:
    """A clock stream's body: read without the server's lock, closed under it (closing ends the
    request, and Django then looks at the shared database connection)."""

    def __init__(self, response) -> None:
        self.response = response

    def __iter__(self):
        return iter(self.response)

    def close(self) -> None:
        with SerialRequestHandler.lock:
            self.response.close()


class SharingWSGIServer(ThreadedWSGIServer):
    """Django's threaded server, leaving the test's shared connections open: a connection thread
    may end after the test has stopped sharing them, and they are the test's to close."""

    def get_app(self):
        app = super().get_app()

        def serial_app(environ, start_response):
            if not is_clock_stream(environ.get("PATH_INFO", "")):
                return app(environ, start_response)
            with SerialRequestHandler.lock:
                return LockedStream(app(environ, start_response))

        return serial_app

    def _close_connections(self) -> None:
        shared = self.connections_override or {}
        for conn in connections.all(initialized_only=True):
            if conn.alias not in shared:
                conn.close()


class SerialLiveServerThread(LiveServerThread):
    """Django's live server answering one request at a time.

    The pages fire overlapping requests (htmx asks for a game's total while the row is being
    saved). With SQLite the test database lives in memory and every server thread works through
    the test's one connection, so two requests at once would interleave their transactions on
    it; one at a time (``SerialRequestHandler``), they cannot.
    """

    def _create_server(self, connections_override=None):
        return SharingWSGIServer(
            (self.host, self.port),
            SerialRequestHandler,
            allow_reuse_address=False,
            connections_override=connections_override,
        )


@contextmanager
def serving() -> Iterator[str]:
    """A live server (the address to open) seeing the database as it is now, until the end."""
    shared = {
        conn.alias: conn
        for conn in connections.all()
        if conn.vendor == "sqlite" and conn.is_in_memory_db()
    }
    thread = SerialLiveServerThread(
        "localhost", StaticFilesHandler, connections_override=shared, port=0
    )
    thread.daemon = True
    for conn in shared.values():
        conn.inc_thread_sharing()
    try:
        thread.start()
        thread.is_ready.wait()
        if thread.error:
            raise thread.error
        with modify_settings(ALLOWED_HOSTS={"append": "localhost"}), clock_watcher_serial(shared):
            yield f"http://localhost:{thread.port}"
            thread.terminate()  # no new stream after this, so the open ones can end for good
    finally:
        thread.terminate()
        for conn in shared.values():
            conn.dec_thread_sharing()


@contextmanager
def clock_watcher_serial(shared: dict) -> Iterator[None]:
    """The watcher threads of the event streams (the round clock's,
    tournaments.views.clock_events, and the overlay's, simulation.broadcast.events) read the
    database as one more request of this server: through its shared connection, under its lock.
    At the end the open streams end, so none outlives the server and its database."""
    from simulation.broadcast.events import WATCHER as OVERLAY_WATCHER
    from tournaments.views.clock_events import WATCHER

    @contextmanager
    def around_fetch() -> Iterator[None]:
        with SerialRequestHandler.lock:
            own = connections["default"]
            if "default" in shared:
                connections["default"] = shared["default"]
            try:
                yield
            finally:
                connections["default"] = own

    watchers = (WATCHER, OVERLAY_WATCHER)
    for watcher in watchers:
        watcher.around_fetch = around_fetch
    try:
        yield
    finally:
        for watcher in watchers:
            watcher.end_streams()
            watcher.join(timeout=5)
            watcher.around_fetch = nullcontext


@pytest.fixture
def server(transactional_db) -> Iterator[str]:
    """A live server for the test (the address to open), seeing the test's database."""
    with serving() as address:
        yield address


class StoryDatabase(TransactionTestCase):
    """The test database as ``transactional_db`` keeps it, for a whole module."""


@pytest.fixture(scope="module")
def story_db(request, django_db_setup, django_db_blocker) -> Iterator[None]:
    """The database of a story told in several steps (its module's tests): what one step
    writes, the next step finds. ``transactional_db`` empties the database after each test;
    this empties it the same way once, after the module's last step.

    The module stays marked ``django_db(transaction=True)``: pytest-django sets up the test
    databases that the run's marked tests need, and no others (unmarked, a story run alone
    would write to the configured database). The mark would also empty the database after each
    step: the module gives pytest-django's per-test fixture way to this, by defining a
    ``_django_db_helper`` fixture of its own that takes ``story_db``."""
    marker = request.node.get_closest_marker("django_db")
    if marker is None or not marker.kwargs.get("transaction"):
        pytest.fail(
            f"{request.node.name} tells a story in steps on one database (story_db): mark the "
            "module django_db(transaction=True), or the test database is not set up",
            pytrace=False,
        )
    with django_db_blocker.unblock():
        StoryDatabase.setUpClass()  # a transactional case's set-up runs here, once
        try:
            yield
        finally:
            try:
                StoryDatabase("__init__")._post_teardown()
            finally:
                StoryDatabase.tearDownClass()
                StoryDatabase.doClassCleanups()


@pytest.fixture(scope="module")
def story_server(story_db) -> Iterator[str]:
    """A live server for every step of a module's story, seeing its database."""
    with serving() as address:
        yield address


#: Each phase's report of a test ("setup", "call", "teardown"), kept on the test's item.
PHASE_REPORTS = pytest.StashKey[dict[str, pytest.TestReport]]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Keep each phase's report on the test: a story's step reads in its teardown whether it
    passed, so that the steps after a failed one are skipped, saying which step failed."""
    report = yield
    item.stash.setdefault(PHASE_REPORTS, {})[report.when] = report
    return report


@pytest.fixture
def screenshots() -> Screenshots:
    """Numbered screenshots in tests/artifacts/e2e/ (git-ignored), emptied first so that what
    is there after a run is that run's story."""
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    for old in SCREENSHOT_DIR.iterdir():
        if old.suffix in (".png", ".pdf"):
            old.unlink()
    return Screenshots(SCREENSHOT_DIR)


@pytest.fixture
def fast_passwords(settings) -> None:
    """Logins in a browser story check many passwords; the default hasher is slow on purpose."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def media(settings, tmp_path) -> Path:
    """Printed batches are stored here, not in the repository's media folder."""
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return Path(settings.MEDIA_ROOT)
