from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
EXAMPLE = ROOT / "games" / "example-botc"


@pytest.fixture
def shared() -> Path:
    """../shared beside the repo (CI has it); tests that need it skip cleanly without it."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not beside the repository")
    return SHARED


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory, monkeypatch):
    """No test writes to the real platform cache folder."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
