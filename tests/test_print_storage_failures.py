"""A PDF batch that cannot be stored says why (the disk is full, the media folder cannot be
written) instead of "see the worker's log", and leaves no truncated file behind; and a batch
whose worker died is not called stalled before Redis could have handed it out again.

The disk is really full: a 64 kB tmpfs mounted in a mount namespace of the test's own
(``unshare``, no privileges needed where user namespaces are allowed), with the media folder on
it. The unwritable folder is really unwritable: one under ``/sys``, which refuses new folders to
every user, root included.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.printing import batch
from scoring.printing.errors import PrintError

ROOT = Path(__file__).resolve().parent.parent
NAME = "print-batches/open/stage-1-round-1-task.pdf"
#: A PDF larger than the 64 kB disk.
LARGE_PDF = b"%PDF-1.7\n" + b"0" * 200_000

ON_A_FULL_DISK = f"""
import json, os, sys
import django
django.setup()
from scoring.printing.batch import _save
from scoring.printing.errors import PrintError
try:
    _save({NAME!r}, b"%PDF-1.7\\n" + b"0" * 200_000)
except PrintError as error:
    folder = os.path.join(os.environ["MEDIA_ROOT"], {os.path.dirname(NAME)!r})
    print(json.dumps({{"message": error.message, "left": os.listdir(folder)}}))
else:
    print(json.dumps({{"message": None}}))
"""


def test_a_full_disk_says_so_and_leaves_no_truncated_pdf(tmp_path: Path) -> None:
    unshare = shutil.which("unshare")
    assert unshare, "unshare (util-linux) is needed: apt-get install -y util-linux"
    media = tmp_path / "media"
    media.mkdir()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "1",
        "MEDIA_ROOT": str(media),
    }
    mount_and_run = (
        f'mount -t tmpfs -o size=64k tmpfs {media} && exec {sys.executable} -c "$SCRIPT"'
    )
    done = subprocess.run(
        [unshare, "--user", "--map-root-user", "--mount", "sh", "-c", mount_and_run],
        cwd=ROOT,
        env={**env, "SCRIPT": ON_A_FULL_DISK},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout.strip().splitlines()[-1])
    assert said["message"] == f"the disk is full: free space for the media folder ({media})"
    assert said["left"] == [], "a truncated PDF was left behind"


def test_an_unwritable_media_folder_says_so(settings) -> None:
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": "/sys/crokinole-media"},
        },
    }
    from django.core.files.storage import default_storage

    assert default_storage.location == "/sys/crokinole-media"
    with pytest.raises(PrintError) as refused:
        batch._save(NAME, LARGE_PDF)
    assert refused.value.message == "the media folder cannot be written: /sys/crokinole-media"


def test_stalled_waits_for_redis_to_hand_a_dead_workers_batch_out_again() -> None:
    """Run with the environment of a Redis deployment: the threshold covers the visibility
    timeout, one sweep and a margin, whatever PRINT_STALL_SECONDS says."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import config.settings as s; print(s.PRINT_STALL_SECONDS, s.TASK_VISIBILITY_TIMEOUT)",
        ],
        cwd=ROOT,
        env={
            "PATH": os.environ.get("PATH", ""),
            "DEBUG": "1",
            "REDIS_URL": "redis://127.0.0.1:1/0",
            "PRINT_STALL_SECONDS": "60",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    stall, visibility = map(int, done.stdout.split())
    assert stall >= visibility + 10 + 30, (stall, visibility)
