"""Shared fixtures. Tests use the real database configured by DATABASE_URL (SQLite by
default, PostgreSQL in CI)."""

import os

import pytest

ARTIFACTS = os.path.join(os.path.dirname(__file__), "artifacts")


@pytest.fixture
def artifacts_dir() -> str:
    """Where tests save pictures (SVG boards, screenshots, rendered PDF pages) for people."""
    os.makedirs(ARTIFACTS, exist_ok=True)
    return ARTIFACTS
