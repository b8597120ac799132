"""Where numba keeps the compiled code: in a folder named after every compiled source.

numba's own cache checks only the file of the function it caches. A compiled function that calls
one from another file keeps the callee's old code after that file changes: the players' search
(``players/search_kernel.py``) has the physics kernel (``physics/engine.py``) compiled into it,
so after an edit or a pull of the physics, the search would go on playing the old physics while
a single shot played the new, and nothing would say so. Here the cache folder is named after a
digest of all the compiled packages' sources (``var/numba/<digest>/``): any change to any of them
starts a fresh cache, compiled once (some 20 s), and a change back finds its old one again.

An environment that names its own cache (``NUMBA_CACHE_DIR``, as the image does: its sources
never change) keeps it. :func:`use` runs when this module is imported, which
:mod:`simulation.physics` does first of all, before any compiled function is defined (numba
reads the folder when a function is decorated).

Pure: no Django.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

SIMULATION = Path(__file__).resolve().parents[1]
#: The packages with compiled functions, whose sources name the cache.
COMPILED = (SIMULATION / "physics", SIMULATION / "players")
#: Where the caches live, one folder per digest (ignored by git and by the image's build).
CACHES = SIMULATION.parent / "var" / "numba"
#: How many caches of earlier sources are kept beside the current one (switching branches).
KEEP = 3


def source_digest(folders: Iterable[Path]) -> str:
    """A digest of every Python source under ``folders``: their paths and contents."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            digest.update(path.relative_to(folder.parent).as_posix().encode())
            digest.update(b"\0")
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()[:16]


def cache_folder() -> Path | None:
    """The cache folder of the current sources, or None when the environment names one."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    return CACHES / source_digest(COMPILED)


def use() -> None:
    """Point numba's cache at :func:`cache_folder`, and drop the caches of all but the ``KEEP``
    most recently used earlier sources."""
    folder = cache_folder()
    if folder is None:
        return  # named by the environment, or by this process already
    # In the environment too: numba reads its settings from it again before each compilation,
    # and the processes started from this one (pools, Celery's children) keep the same folder.
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    import numba

    numba.config.CACHE_DIR = str(folder)
    folder.mkdir(parents=True, exist_ok=True)
    os.utime(folder)  # used now: the last to be dropped
    _drop_old(folder)


def _drop_old(current: Path) -> None:
    import shutil

    others = sorted(
        (p for p in CACHES.iterdir() if p.is_dir() and p != current),
        key=lambda p: p.stat().st_mtime,
        reverse=True,
    )
    for old in others[KEEP:]:
        shutil.rmtree(old, ignore_errors=True)


use()
