"""The page cache file as hosts meet it: one they may not write to, one in a folder they may
not write to, one damaged, and another program's SQLite file given by mistake. Each is either
read as it is or refused in one line; a file that is not modtool's is never changed."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest
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


def test_a_cache_in_a_folder_that_cannot_be_written_is_one_line(tmp_path, monkeypatch):
    _opened_read_only(monkeypatch)  # as SQLite finds a folder the user may not write to
    cache = tmp_path / "ro" / "pages.sqlite"
    cache.parent.mkdir()
    with ForumServer(total=40) as server:
        result, err = _posts([server.url, "--cache", str(cache)])
        assert sum(server.requests.values()) == 0
    assert result.exit_code == 1 and len(err) == 1, result.output
    assert f"--cache {cache}: cannot be opened or made (unable to open database file)" in err[0]
    assert "folder you may write to" in err[0] and "unexpected" not in err[0]
    assert list(cache.parent.iterdir()) == []


def test_a_cache_under_a_file_is_one_line(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    cache = tmp_path / "notes.txt" / "pages.sqlite"
    result, err = _posts(["https://forum.example.invalid/t/1", "--cache", str(cache)])
    assert result.exit_code == 1 and len(err) == 1, result.output
    assert f"--cache {cache}: cannot be opened or made" in err[0]
    assert (tmp_path / "notes.txt").read_text() == "mine"


def _zero_a_page(cache, page: int = 1, size: int = 4096) -> None:
    """One page of the file overwritten with zeros (a bad sector, a copy that failed)."""
    data = cache.read_bytes()
    cache.write_bytes(data[: page * size] + b"\0" * size + data[(page + 1) * size :])


@pytest.mark.parametrize("offline", [False, True])
def test_a_damaged_cache_is_one_line_saying_so(tmp_path, offline):
    cache = tmp_path / "pages.sqlite"
    with ForumServer(total=75) as server:
        first, _ = _posts([server.url, "--cache", str(cache)])
        assert first.exit_code == 0, first.output
        _zero_a_page(cache)
        damaged = cache.read_bytes()
        result, err = _posts([server.url, "--cache", str(cache), *(["--offline"] * offline)])
    assert result.exit_code == 1 and len(err) == 1, result.output
    assert f"--cache {cache}: the cache is damaged (database disk image is malformed)" in err[0]
    assert "delete the file" in err[0] and "unexpected" not in err[0]
    assert cache.read_bytes() == damaged


def test_another_programs_sqlite_file_is_refused_and_left_as_it_is(tmp_path):
    theirs = tmp_path / "readings.db"
    with closing(sqlite3.connect(theirs)) as db:
        db.executescript(
            "CREATE TABLE readings (sensor TEXT, value REAL); CREATE TABLE notes (body TEXT);"
            "INSERT INTO readings VALUES ('kitchen', 21.5); INSERT INTO notes VALUES ('mine');"
        )
    before = theirs.read_bytes()
    with ForumServer(total=40) as server:
        result, err = _posts([server.url, "--cache", str(theirs)])
        assert sum(server.requests.values()) == 0
    assert result.exit_code == 1 and len(err) == 1, result.output
    assert f"--cache {theirs}: not a modtool page cache, but another program's SQLite" in err[0]
    assert theirs.read_bytes() == before


def test_a_cache_carries_modtools_mark_and_an_unmarked_cache_is_still_read(tmp_path):
    cache = tmp_path / "pages.sqlite"
    with ForumServer(total=40) as server:
        assert _posts([server.url, "--cache", str(cache)])[0].exit_code == 0
        with closing(sqlite3.connect(cache)) as db:
            assert db.execute("PRAGMA application_id").fetchone()[0] == 0x6D647463
            db.execute("PRAGMA application_id = 0")  # as a cache made before the mark
        again, err = _posts([server.url, "--cache", str(cache), "--offline"])
    assert again.exit_code == 0 and len(again.stdout.splitlines()) == 40, again.output
