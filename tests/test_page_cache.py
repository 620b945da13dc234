"""The page cache file as hosts meet it: one they may not write to, one in a folder they may
not write to, one damaged, and another program's SQLite file given by mistake. Each is either
read as it is or refused in one line; a file that is not modtool's is never changed."""

from __future__ import annotations

import sqlite3

from typer.testing import CliRunner

from modtool.cli import app
from modtool.threads import cache as cache_module

from .forum_server import ForumServer


def _opened_read_only(monkeypatch) -> None:
    """Every cache opened from now on read-only, as a file the user may not write to is
    (the tests may run as root, whom chmod does not stop)."""
    connect = sqlite3.connect
    monkeypatch.setattr(
        cache_module.sqlite3,
        "connect",
        lambda path, **kw: connect(f"file:{path}?mode=ro", uri=True, **kw),
    )


def _posts(args: list[str]):
    result = CliRunner().invoke(app, ["posts", *args, "--json"])
    return result, [line for line in result.stderr.splitlines() if line.strip()]


def test_a_read_only_cache_is_read_and_new_pages_are_fetched_but_not_kept(tmp_path, monkeypatch):
    cache = tmp_path / "pages.sqlite"
    with ForumServer(total=40) as server:
        first, _ = _posts([server.url, "--cache", str(cache)])
        assert first.exit_code == 0, first.output
        before = cache.read_bytes()
        server.total = 60  # the thread grew: page 3 is new
        _opened_read_only(monkeypatch)
        result, err = _posts([server.url, "--cache", str(cache)])
        assert result.exit_code == 0, result.output
        assert len(result.stdout.splitlines()) == 60
        assert len(err) == 1 and err[0].startswith(f"Note: --cache {cache} cannot be written")
        assert "not kept" in err[0] and "unexpected" not in result.output
        offline, _ = _posts([server.url, "--cache", str(cache), "--offline"])
    assert offline.exit_code == 0 and len(offline.stdout.splitlines()) == 40  # as it was kept
    assert cache.read_bytes() == before
