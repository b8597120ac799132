"""The test gate's own honesty: a run passes only if it ran every test it collected.

Loaded by ``-p tests.gate`` (``pyproject.toml``), in the controller and in every xdist worker.
Two ways a green run used to hide tests that never ran:

- **Shared node ids.** Two collected items with one node id are one test to pytest-xdist's
  ``--dist loadgroup`` (it schedules by node id), so the second never ran and nothing said so:
  the schema fuzz's 87 operations once ran as one. A collection with a repeated node id stops
  the run, naming the ids.
- **Fewer outcomes than items.** At the end, the number of tests that reached an outcome
  (passed, failed, skipped, errored in set-up) must equal the number collected (after ``-m`` and
  ``-k`` deselection). A skip counts only with a stated reason: a bare ``pytest.skip()`` or an
  unconditional ``skip`` mark is a failure of the run, since a test skipped silently is a test
  that did not run.

Stopping early on purpose (``-x``, ``--maxfail``, Ctrl-C) already fails the run, and then the
count is not checked.
"""

from __future__ import annotations

from collections import Counter

import pytest

#: The reasons pytest gives a skip when its author gave none.
UNSTATED_REASONS = {"", "skipped", "unconditional skip"}


def repeated_node_ids(node_ids: list[str]) -> list[str]:
    """The node ids that appear more than once, in the order first seen."""
    counts = Counter(node_ids)
    return [node_id for node_id in dict.fromkeys(node_ids) if counts[node_id] > 1]


def skip_reason(report: pytest.TestReport) -> str:
    """The words a skip was given (pytest keeps them as ``(path, line, "Skipped: why")``)."""
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr or "")
    return reason.removeprefix("Skipped:").strip()


class Gate:
    """Counts the outcomes the run reaches, in whichever process reports them (the xdist
    controller receives every worker's reports through the same hook)."""

    def __init__(self) -> None:
        self.outcomes = 0
        self.silent_skips: list[str] = []

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, session: pytest.Session, items: list) -> None:
        repeated = repeated_node_ids([item.nodeid for item in items])
        if repeated:
            raise pytest.UsageError(
                f"{len(repeated)} node ids are shared by more than one collected test, so those "
                "tests would run as one: give each case its own id (pytest.param(id=...)). "
                "Shared: " + ", ".join(repeated[:10])
            )

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        reached = report.when == "call" or (report.when == "setup" and not report.passed)
        if not reached:
            return
        self.outcomes += 1
        silent = report.skipped and skip_reason(report).lower() in UNSTATED_REASONS
        if silent and not hasattr(report, "wasxfail"):
            self.silent_skips.append(report.nodeid)

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if getattr(session.config, "workerinput", None) is not None:
            return  # an xdist worker: the controller judges the whole run
        if exitstatus != pytest.ExitCode.OK or session.config.option.collectonly:
            return
        problems = []
        if self.outcomes != session.testscollected:
            problems.append(
                f"collected {session.testscollected} tests but {self.outcomes} reached an outcome"
            )
        if self.silent_skips:
            problems.append(
                f"{len(self.silent_skips)} skipped without a stated reason: "
                + ", ".join(self.silent_skips[:10])
            )
        if problems:
            reporter = session.config.pluginmanager.get_plugin("terminalreporter")
            if reporter is not None:
                reporter.write_line("")
                for problem in problems:
                    reporter.write_line(f"TEST GATE: {problem}", red=True, bold=True)
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(Gate(), "tests-gate")
