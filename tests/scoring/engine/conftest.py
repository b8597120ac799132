"""Make the repository root importable when these tests run without the Django plugin.

pytest-django puts the project on the import path; run with `-p no:django` (the engine needs no
settings) nothing does, so this adds it, once.
"""

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[3])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
