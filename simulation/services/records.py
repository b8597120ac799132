"""Game records as stored: compact JSON compressed with zlib (pure; no Django).

A 4-round singles record (64 shots with every physics event) is about 145 kB of JSON and about
37 kB compressed; base64 adds a third for the trip through the Celery result backend.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Mapping
from typing import Any


def compress_record(record: Mapping[str, Any]) -> bytes:
    """A game record as stored: compact JSON, zlib level 6."""
    return zlib.compress(json.dumps(record, separators=(",", ":")).encode(), 6)


def decompress_record(blob: bytes | memoryview) -> dict[str, Any]:
    return json.loads(zlib.decompress(bytes(blob)))


def encode_record(record: Mapping[str, Any]) -> tuple[str, int]:
    """The record compressed and base64-encoded, for JSON messages between tasks, and the size
    in bytes of its JSON."""
    raw = json.dumps(record, separators=(",", ":")).encode()
    return base64.b64encode(zlib.compress(raw, 6)).decode("ascii"), len(raw)
