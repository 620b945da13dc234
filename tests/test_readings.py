"""Kept readings: a post body read from a posts file is read once, kept in the page cache under
a digest of its HTML and the reader's version, and read back on the next run; an edited post,
a new reader or a changed vote syntax never count from a stale reading."""

from __future__ import annotations

import importlib
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from dataclasses import replace

import pytest

import modtool.threads.body as body
import modtool.threads.cache as cache_module
import modtool.threads.posts as posts_module
from modtool.errors import ModToolError
from modtool.games import load_game
from modtool.host.counting import count_game
from modtool.threads.body import read_html
from modtool.threads.cache import PageCache
from modtool.threads.fetch import open_fetcher
from modtool.threads.lazy_modules import lazy_module
from modtool.threads.posts import Post
from modtool.threads.sources import read_game_posts, with_kept_readings

from .conftest import ROOT

BODIES = (
    "<b>VOTE: Aster</b>",
    "I think <i>Birch</i> is scum",
    "<blockquote>vote cypress</blockquote>x",
)


def _posts(bodies=BODIES) -> list[Post]:
    return [Post(str(i), i, "Birch", None, None, html) for i, html in enumerate(bodies)]


@pytest.fixture
def reads(monkeypatch) -> list[str]:
    """The HTML of every body parsed, in order."""
    seen: list[str] = []

    def counted(html: str) -> str:
        seen.append(html)
        return read_html(html)

    monkeypatch.setattr(posts_module, "read_html", counted)
    return seen


def test_a_second_run_parses_no_body(tmp_path, reads):
    cache = PageCache(tmp_path / "c.sqlite")
    first = _posts()
    with_kept_readings(first, cache)
    assert reads == list(BODIES)
    again = _posts()
    with_kept_readings(again, cache)
    assert reads == list(BODIES)  # nothing parsed again
    assert [p.body for p in again] == [p.body for p in first]
    assert [p.text for p in again] == ["VOTE: Aster", "I think Birch is scum", "x"]


def test_an_edited_post_is_read_again(tmp_path, reads):
    cache = PageCache(tmp_path / "c.sqlite")
    with_kept_readings(_posts(), cache)
    edited = _posts((BODIES[0], "<b>VOTE: Dahlia</b>", BODIES[2]))
    with_kept_readings(edited, cache)
    assert reads == [*BODIES, "<b>VOTE: Dahlia</b>"]
    assert edited[1].text == "VOTE: Dahlia"


def test_a_new_reader_reads_every_post_again(tmp_path, reads, monkeypatch):
    cache = PageCache(tmp_path / "c.sqlite")
    with_kept_readings(_posts(), cache)
    monkeypatch.setattr(body, "reader_version", lambda: b"the next reader")
    with_kept_readings(_posts(), cache)
    assert reads == [*BODIES, *BODIES]


def test_the_reader_version_follows_the_reader_code():
    assert body.reader_version() == body.reader_version()
    assert body.reading_digest("<b>a</b>") != body.reading_digest("<b>b</b>")


def test_posts_read_from_pages_keep_nothing(tmp_path):
    cache = PageCache(tmp_path / "c.sqlite")
    read = [replace(p, _read={"reading": "already read"}) for p in _posts()]
    with_kept_readings(read, cache)
    assert not (tmp_path / "c.sqlite").exists()


def _count(folder, cache_path):
    with open_fetcher(cache_path=cache_path) as fetcher:
        game = load_game(folder)
        return count_game(game, "all", posts=read_game_posts(game, fetcher))


def test_a_changed_vote_syntax_counts_as_a_fresh_run(tmp_path):
    folder = tmp_path / "game"
    shutil.copytree(ROOT / "games" / "example-mafia", folder)
    cache = tmp_path / "c.sqlite"
    assert _count(folder, cache) == count_game(folder, "all")  # cold, then kept
    assert _count(folder, cache) == count_game(folder, "all")  # warm
    setup = folder / "game.toml"
    setup.write_text(
        setup.read_text().replace(
            'preset = "mafiascum"', 'preset = "mafiascum"\nsyntaxes = ["official"]'
        )
    )
    warm, fresh = _count(folder, cache), count_game(folder, "all")
    assert warm == fresh
    assert warm != _count(ROOT / "games" / "example-mafia", tmp_path / "other.sqlite")


# A fresh process counts the example game twice from one cache: the second count reads every
# body from its kept reading and must not import lxml.etree (a fifth of its start-up).
_IMPORTS_OF_A_WARM_COUNT = """
import sys
from pathlib import Path
from modtool.errors import ModToolError
from modtool.games import load_game
from modtool.host.counting import count_game
from modtool.threads.fetch import open_fetcher
from modtool.threads.sources import read_game_posts
with open_fetcher(cache_path=Path(sys.argv[2])) as fetcher:
    game = load_game(sys.argv[1])
    count_game(game, "all", posts=read_game_posts(game, fetcher))
print("lxml.etree" in sys.modules)
"""


def test_a_count_from_kept_readings_imports_no_page_parser(tmp_path):
    folder = shutil.copytree(ROOT / "games" / "example-mafia", tmp_path / "game")
    args = [sys.executable, "-c", _IMPORTS_OF_A_WARM_COUNT, str(folder), str(tmp_path / "c")]
    cold = subprocess.run(args, capture_output=True, text=True, check=True)
    warm = subprocess.run(args, capture_output=True, text=True, check=True)
    assert (cold.stdout, warm.stdout) == ("True\n", "False\n")


def test_a_lazy_module_imports_on_first_use_and_keeps_what_it_found():
    stand_in = lazy_module("colorsys")
    assert "rgb_to_hsv" not in vars(stand_in)
    assert stand_in.rgb_to_hsv(1, 0, 0) == (0.0, 1.0, 1)
    assert vars(stand_in)["rgb_to_hsv"] is importlib.import_module("colorsys").rgb_to_hsv
    with pytest.raises(AttributeError):
        stand_in.no_such_name  # noqa: B018


_FIRST_CACHE = """
CREATE TABLE pages (url TEXT PRIMARY KEY, body TEXT NOT NULL, etag TEXT, last_modified TEXT,
    fetched_at REAL NOT NULL);
CREATE TABLE threads (url TEXT PRIMARY KEY, pages TEXT NOT NULL, updated_at REAL NOT NULL);
CREATE TABLE readings (digest BLOB PRIMARY KEY, reading TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE clauses (kind BLOB NOT NULL, digest BLOB NOT NULL, clauses BLOB NOT NULL,
    PRIMARY KEY (kind, digest)) WITHOUT ROWID;
INSERT INTO pages VALUES ('https://f.invalid/t/1', '<p>page</p>', NULL, NULL, 1.0);
INSERT INTO readings VALUES (x'00', 'an old reading');
INSERT INTO clauses VALUES (x'01', x'00', x'02');
"""


def test_a_cache_of_the_first_layout_keeps_its_pages_and_reads_its_posts_again(tmp_path, reads):
    path = tmp_path / "c.sqlite"
    with closing(sqlite3.connect(path)) as old:
        old.executescript(_FIRST_CACHE)
    cache = PageCache(path)
    assert cache.page("https://f.invalid/t/1").body == "<p>page</p>"
    assert cache.readings([b"\0"]) == {}  # derived rows go; the page they came from stays
    assert cache.clauses(b"\1", [b"\0"]) == {}
    with_kept_readings(_posts(), cache)
    with_kept_readings(_posts(), cache)
    assert reads == list(BODIES)
    cache.close()
    with closing(sqlite3.connect(path)) as db:
        layouts = dict(db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'"))
        version = db.execute("PRAGMA user_version").fetchone()[0]
    assert not [name for name, sql in layouts.items() if "WITHOUT ROWID" in sql]
    assert version == 2


def test_opening_an_upgraded_cache_again_keeps_its_readings(tmp_path, reads):
    path = tmp_path / "c.sqlite"
    with closing(sqlite3.connect(path)) as old:
        old.executescript(_FIRST_CACHE)
    first, second = PageCache(path), PageCache(path)
    with_kept_readings(_posts(), first)
    with_kept_readings(_posts(), second)  # the second opening finds the new layout in place
    assert reads == list(BODIES)


def _opened_read_only(monkeypatch) -> None:
    """Every cache opened from now on read-only, as a file the user may not write to is."""
    connect = sqlite3.connect
    monkeypatch.setattr(
        cache_module.sqlite3,
        "connect",
        lambda path, **kw: connect(f"file:{path}?mode=ro", uri=True, **kw),
    )


def test_a_read_only_cache_of_the_first_layout_is_read_as_it_is(tmp_path, monkeypatch, reads):
    path = tmp_path / "c.sqlite"
    with closing(sqlite3.connect(path)) as old:
        old.executescript(_FIRST_CACHE)
    _opened_read_only(monkeypatch)
    cache = PageCache(path)
    assert cache.page("https://f.invalid/t/1").body == "<p>page</p>"
    assert cache.readings([b"\0"]) == {b"\0": "an old reading"}
    with_kept_readings(_posts(), cache)  # read, and kept nowhere: no error
    assert reads == list(BODIES)


def test_a_read_only_file_with_no_cache_in_it_is_one_line_saying_so(tmp_path, monkeypatch):
    path = tmp_path / "c.sqlite"
    path.touch()
    _opened_read_only(monkeypatch)
    with pytest.raises(ModToolError, match=r"^--cache .*c\.sqlite: cannot be used \(.*readonly"):
        PageCache(path).page("https://f.invalid/t/1")


def test_a_cache_of_this_layout_is_opened_without_a_write(tmp_path, monkeypatch):
    path = tmp_path / "c.sqlite"
    PageCache(path).page("https://f.invalid/t/1")  # made
    said: list[str] = []
    connect = sqlite3.connect

    def traced(*args, **kw):
        conn = connect(*args, **kw)
        conn.set_trace_callback(said.append)
        return conn

    monkeypatch.setattr(cache_module.sqlite3, "connect", traced)
    PageCache(path).page("https://f.invalid/t/1")
    assert said and not [s for s in said if s.split()[0].upper() in ("BEGIN", "CREATE", "DROP")]
