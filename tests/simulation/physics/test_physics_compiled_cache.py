"""Where numba keeps the compiled code: a folder per state of the compiled sources, so that an
edit of one compiled file is never hidden by another file's cache that compiled the old one in
(``simulation.physics.compiled_cache``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numba

from simulation.physics import compiled_cache

ROOT = Path(__file__).resolve().parents[3]


def _sources(tmp_path: Path) -> list[Path]:
    physics = tmp_path / "physics"
    (physics / "events").mkdir(parents=True)
    (physics / "engine.py").write_text("X = 1\n")
    (physics / "events" / "pair.py").write_text("Y = 2\n")
    players = tmp_path / "players"
    players.mkdir()
    (players / "search_kernel.py").write_text("Z = 3\n")
    return [physics, players]


def _unfinished_writes(folder: str, names: list[str]) -> list[str]:
    """The files numba is still writing (``<file>.tmp.<id>``, renamed once written): another
    test process may be adding to the same cache while it is copied."""
    return [name for name in names if ".tmp." in name]


def test_any_change_to_any_compiled_source_names_a_new_cache(tmp_path):
    folders = _sources(tmp_path)
    first = compiled_cache.source_digest(folders)
    assert compiled_cache.source_digest(folders) == first
    # A file that another one's compiled code calls, deep in a sub-package.
    pair = tmp_path / "physics" / "events" / "pair.py"
    pair.write_text("Y = 3\n")
    second = compiled_cache.source_digest(folders)
    assert second != first
    (tmp_path / "players" / "new_kernel.py").write_text("")
    assert compiled_cache.source_digest(folders) != second
    # Back as it was: the same name, so the old cache is found again.
    (tmp_path / "players" / "new_kernel.py").unlink()
    pair.write_text("Y = 2\n")
    assert compiled_cache.source_digest(folders) == first


def test_this_process_caches_under_the_digest_of_its_sources():
    folder = Path(numba.config.CACHE_DIR)
    assert os.environ["NUMBA_CACHE_DIR"] == str(folder)
    if folder.parent == compiled_cache.CACHES:  # not named by the environment that ran the tests
        assert folder.name == compiled_cache.source_digest(compiled_cache.COMPILED)


def test_a_fresh_process_picks_the_folder_unless_the_environment_names_one(tmp_path):
    # The players' search first, not the physics package: the folder is set before its kernel
    # is defined all the same (the kernel reads it when decorated), and that is where it caches.
    code = (
        "import numba, os, simulation.players.search_kernel as k; "
        "assert k.choose_kernel._cache._cache_path.startswith(numba.config.CACHE_DIR + os.sep); "
        "print(numba.config.CACHE_DIR)"
    )
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["DJANGO_SETTINGS_MODULE"] = ""
    run = [sys.executable, "-c", code]
    own = subprocess.run(run, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    expected = compiled_cache.CACHES / compiled_cache.source_digest(compiled_cache.COMPILED)
    assert own.stdout.strip() == str(expected)
    # The named folder starts as a copy of the one just used, as the image's starts compiled in
    # at build time: an empty one would have the search compiled from scratch (some 50 s on a
    # shared machine) to check where a path points.
    named_cache = tmp_path / "image-cache"
    shutil.copytree(expected, named_cache, ignore=_unfinished_writes)
    named = subprocess.run(
        run,
        cwd=ROOT,
        env={**env, "NUMBA_CACHE_DIR": str(named_cache)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert named.stdout.strip() == str(named_cache)


def test_only_the_most_recent_earlier_caches_are_kept(tmp_path, monkeypatch):
    # This process's own setting comes back after the test.
    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    caches = tmp_path / "caches"
    for age, name in enumerate(["a", "b", "c", "d", "e"]):
        (caches / name).mkdir(parents=True)
        stamp = time.time() - 1000 * (age + 1)  # "a" the most recent, "e" the oldest
        os.utime(caches / name, (stamp, stamp))
    monkeypatch.setattr(compiled_cache, "CACHES", caches)
    monkeypatch.setattr(compiled_cache, "COMPILED", _sources(tmp_path))
    compiled_cache.use()
    current = compiled_cache.source_digest(compiled_cache.COMPILED)
    chosen = numba.config.CACHE_DIR
    assert chosen == str(caches / current)
    assert sorted(p.name for p in caches.iterdir()) == sorted([current, "a", "b", "c"])
