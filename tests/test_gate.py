"""The gate of ``tests/gate.py``, tried on small suites of its own in a separate pytest: a run
whose tests share a node id, skip without a reason or never reach an outcome fails."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.gate import repeated_node_ids, skip_reason

ROOT = Path(__file__).resolve().parent.parent


def _run(tmp_path: Path, source: str, *args: str) -> subprocess.CompletedProcess:
    """The probe suite in a pytest of its own, with the gate and only the plugins named in
    ``args``: loading every installed plugin (Django's, schemathesis', Faker's...) cost each run
    some 2 s of the 3 it took."""
    (tmp_path / "test_probe.py").write_text(textwrap.dedent(source))
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "tests.gate",
            "-q",
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(tmp_path),
            str(tmp_path / "test_probe.py"),
            *args,
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        env={
            "PYTHONPATH": str(ROOT),
            "PATH": "/usr/bin:/bin",
            "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        },
    )


def test_repeated_node_ids_are_named_once_each_in_order():
    assert repeated_node_ids(["b", "a", "b", "c", "a", "b"]) == ["b", "a"]
    assert repeated_node_ids(["a", "b"]) == []


SCHEMA_WITH_TWO_OPERATIONS = """
    import schemathesis
    schema = schemathesis.openapi.from_dict({
        "openapi": "3.0.0", "info": {"title": "t", "version": "1"},
        "paths": {"/a/": {"get": {"responses": {"200": {"description": "ok"}}}},
                  "/b/": {"get": {"responses": {"200": {"description": "ok"}}}}},
    })

    @schema.parametrize()
    def test_operation(case):
        pass
"""


def test_a_collection_with_a_shared_node_id_stops_the_run(tmp_path):
    """Schemathesis' own ``parametrize`` gives every operation the function's node id: the
    shape in which the schema fuzz once ran one operation of 87."""
    result = _run(tmp_path, SCHEMA_WITH_TWO_OPERATIONS, "-p", "schemathesis.pytest.plugin")
    assert result.returncode != 0
    assert "shared by more than one collected test" in result.stdout + result.stderr
    assert "test_probe.py::test_operation" in result.stdout + result.stderr


@pytest.mark.parametrize(
    ("source", "passes"),
    [
        pytest.param("import pytest\ndef test_x():\n    pytest.skip()\n", False, id="bare-skip"),
        pytest.param(
            "import pytest\n@pytest.mark.skip\ndef test_x():\n    pass\n", False, id="bare-mark"
        ),
        pytest.param(
            "import pytest\ndef test_x():\n    pytest.skip('needs a GPU')\n", True, id="stated"
        ),
        pytest.param("def test_x():\n    assert True\n", True, id="plain-pass"),
    ],
)
def test_a_skip_counts_only_with_a_stated_reason(tmp_path, source, passes):
    result = _run(tmp_path, source)
    assert (result.returncode == 0) is passes, result.stdout
    assert ("skipped without a stated reason" in result.stdout) is not passes


def test_the_same_holds_across_xdist_workers(tmp_path):
    result = _run(
        tmp_path, "import pytest\ndef test_x():\n    pytest.skip()\n", "-p", "xdist", "-n", "2"
    )
    assert result.returncode != 0
    assert "skipped without a stated reason" in result.stdout


def test_a_test_that_never_reaches_an_outcome_fails_the_run(tmp_path):
    """A plugin that swallows a test (here a conftest hook that claims to have run it): pytest
    alone says "1 passed" and exits 0; the gate counts 2 collected and 1 outcome."""
    (tmp_path / "conftest.py").write_text(
        "def pytest_runtest_protocol(item, nextitem):\n"
        "    return True if item.name == 'test_swallowed' else None\n"
    )
    result = _run(tmp_path, "def test_kept():\n    pass\ndef test_swallowed():\n    pass\n")
    assert result.returncode != 0
    assert "collected 2 tests but 1 reached an outcome" in result.stdout


def test_skip_reason_reads_the_words_given():
    class Report:
        longrepr = ("f.py", 3, "Skipped: needs a GPU")

    assert skip_reason(Report()) == "needs a GPU"
