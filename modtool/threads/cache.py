"""The page cache: every fetched page, kept in one SQLite file, so a re-count needs no network.

SQLite (in the standard library) rather than an HTTP cache such as hishel: forum pages are
usually sent with no-cache headers, and a game's pages must stay usable offline for the whole
game whatever the server says. We keep our own rules instead: pages are kept until the host
asks for `--refresh`; a normal run re-fetches only the last known page of a thread and the
pages after it, with If-None-Match / If-Modified-Since where the forum gave validators.

It also keeps the reading of every post body read from a posts file (its text, with the marks
of quotes, bold and struck-out text), under a digest of the body's HTML and the reader's
version, so that a re-count parses no body twice; and the clauses read in those posts (vote
actions, chat announcements), under the same digest and the kind of clause: the syntax read
and a digest of the code reading it (threads.kept).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import platformdirs

from ..errors import ModToolError
from .frozen import frozen

_TABLES = {  # name -> columns
    "pages": """url TEXT PRIMARY KEY, body TEXT NOT NULL, etag TEXT, last_modified TEXT,
        fetched_at REAL NOT NULL""",
    "threads": "url TEXT PRIMARY KEY, pages TEXT NOT NULL, updated_at REAL NOT NULL",
    "readings": "digest BLOB NOT NULL UNIQUE, reading TEXT NOT NULL",
    "clauses": "kind BLOB NOT NULL, digest BLOB NOT NULL, clauses BLOB NOT NULL, "
    "UNIQUE (kind, digest)",
}
# Readings and clauses are keyed by a hash, so a count's new rows land all over the key order. In
# a table ordered by that key (WITHOUT ROWID) each row rewrites a page of text somewhere in the
# file: 4x the CPU of appending the rows in a rowid table and indexing the short keys (1,500 rows
# into a 45 MB cache: 26 ms against 7 ms). Caches before this layout (user_version 0) had the
# keyed tables; their rows are derived from the pages and read again, so they are dropped.
_LAYOUT_VERSION = 2
# The columns by which a file with no mark (a cache made before the mark) is known as a cache.
_COLUMNS = {
    "pages": {"url", "body", "etag", "last_modified", "fetched_at"},
    "threads": {"url", "pages", "updated_at"},
    "readings": {"digest", "reading"},
    "clauses": {"kind", "digest", "clauses"},
}
# Marks a file as modtool's page cache (SQLite's application_id; "mdtc"). A SQLite file with
# tables and neither this mark nor a cache's tables is another program's: it is never changed.
_APPLICATION_ID = 0x6D647463
_DERIVED_TABLES = ("readings", "clauses")
_CHUNK = 500  # digests asked for in one query (SQLite's limit on parameters is 999 or more)
# What SQLite says when a cache cannot take a write: a file (or folder, for the journal) the
# user may not write to, or a full disk. Such a cache is still read; what is new is not kept.
_CANNOT_WRITE = ("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_FULL")


def _cannot_write(exc: sqlite3.OperationalError) -> bool:
    return (getattr(exc, "sqlite_errorname", None) or "").startswith(_CANNOT_WRITE)


def _prepare(conn: sqlite3.Connection) -> None:
    """This version's tables: made, or an older cache's brought to them, in one transaction
    with the version read again inside it, so that two modtools opening an old cache at once
    upgrade it once. A cache of this version is only read (no write lock for each run). A
    cache that cannot be written to is read as it is: the inserts name their columns, which
    both layouts have. Another program's SQLite file is refused before anything is written."""
    if conn.execute("PRAGMA application_id").fetchone()[0] != _APPLICATION_ID:
        _refuse_a_stranger(conn)
    if _version(conn) >= _LAYOUT_VERSION:
        return  # its tables were made in the transaction that set its version
    try:
        conn.execute("BEGIN IMMEDIATE")
        if _version(conn) < _LAYOUT_VERSION:  # not upgraded meanwhile by another modtool
            for table in _DERIVED_TABLES:
                conn.execute(f"DROP TABLE IF EXISTS {table}")
            for table, columns in _TABLES.items():
                conn.execute(f"CREATE TABLE IF NOT EXISTS {table} ({columns})")
            conn.execute(f"PRAGMA user_version = {_LAYOUT_VERSION}")
            conn.execute(f"PRAGMA application_id = {_APPLICATION_ID}")
        conn.commit()
    except sqlite3.OperationalError:  # read-only, or another modtool writing all this while
        conn.rollback()
        if not _tables_in(conn) >= _TABLES.keys():
            raise


class NotACache(Exception):
    """A SQLite file of another program: its own tables (named), and none of modtool's mark."""


def _refuse_a_stranger(conn: sqlite3.Connection) -> None:
    """Raise NotACache unless the file is empty or holds a cache of an earlier modtool (made
    before the mark): modtool's tables only, with their columns, the pages among them."""
    tables = {t for t in _tables_in(conn) if not t.startswith("sqlite_")}
    if not tables:
        return  # a new file, or an empty one: made a cache
    ours = "pages" in tables and tables <= _COLUMNS.keys()
    for table in tables & _COLUMNS.keys():
        columns = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        ours = ours and columns >= _COLUMNS[table]
    if not ours:
        raise NotACache(", ".join(sorted(tables)))


def _version(conn: sqlite3.Connection) -> int:
    return conn.execute("PRAGMA user_version").fetchone()[0]


def _tables_in(conn: sqlite3.Connection) -> set[str]:
    return {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def default_cache_path() -> Path:
    """The platform's cache folder for modtool (e.g. ~/.cache/modtool/pages.sqlite)."""
    return Path(platformdirs.user_cache_dir("modtool")) / "pages.sqlite"


@frozen
class CachedPage:
    """A page kept in the cache: its body and the headers to ask for it again."""

    url: str
    body: str
    etag: str | None
    last_modified: str | None
    fetched_at: float


class PageCache:
    """Pages and thread page lists; safe to share between the fetching threads."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        # Why nothing new can be kept (SQLite's words), once a write has failed: the cache
        # is still read, and writes are no longer tried.
        self.not_kept: str | None = None

    @property
    def _db(self) -> sqlite3.Connection:
        """The database, opened on first use: counting saved pages never creates a cache (a
        posts file's count keeps its readings in it)."""
        with self._lock:
            if self._conn is None:
                if self.path.exists() and not self.path.is_file():
                    raise ModToolError(f"--cache {self.path}: a folder; give a file path")
                new = not self.path.exists()
                try:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                    conn = sqlite3.connect(self.path, check_same_thread=False)
                except (OSError, sqlite3.OperationalError) as exc:
                    reason = getattr(exc, "strerror", None) or exc
                    raise ModToolError(
                        f"--cache {self.path}: cannot be opened or made ({reason}); give --cache "
                        "a file in a folder you may write to, or fix the folder's permissions"
                    ) from None
                try:
                    if new:
                        os.chmod(self.path, 0o600)  # pages of private forums may be in here
                    _prepare(conn)
                except sqlite3.OperationalError as exc:  # locked by another writer, unreadable
                    conn.close()
                    fix = (
                        "give --cache a file you may write to, or fix its permissions"
                        if _cannot_write(exc)  # no cache in it yet, and none can be made
                        else "if another modtool is using it, run again when it has "
                        "finished, or give another path"
                    )
                    raise ModToolError(
                        f"--cache {self.path}: cannot be used ({exc}); {fix}"
                    ) from None
                except sqlite3.DatabaseError as exc:
                    conn.close()
                    raise ModToolError(
                        f"--cache {self.path}: not a modtool page cache ({exc}); "
                        "give another path, or delete the file"
                    ) from None
                except NotACache as exc:
                    conn.close()
                    raise ModToolError(
                        f"--cache {self.path}: not a modtool page cache, but another program's "
                        f"SQLite file (tables: {exc}); it is left as it is: give --cache another "
                        "path"
                    ) from None
                self._conn = conn
            return self._conn

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def page(self, url: str) -> CachedPage | None:
        with self._using() as db:
            row = db.execute(
                "SELECT url, body, etag, last_modified, fetched_at FROM pages WHERE url = ?", (url,)
            ).fetchone()
        return CachedPage(*row) if row else None

    def has(self, url: str) -> bool:
        """Whether a page is cached (without reading its body)."""
        with self._using() as db:
            row = db.execute("SELECT 1 FROM pages WHERE url = ?", (url,)).fetchone()
        return row is not None

    def store(self, url: str, body: str, etag: str | None, last_modified: str | None) -> None:
        self._write(
            lambda db: db.execute(
                "INSERT OR REPLACE INTO pages VALUES (?, ?, ?, ?, ?)",
                (url, body, etag, last_modified, time.time()),
            )
        )

    def touch(self, url: str) -> None:
        """A 304: the cached copy is current as of now."""
        self._write(
            lambda db: db.execute(
                "UPDATE pages SET fetched_at = ? WHERE url = ?", (time.time(), url)
            )
        )

    def thread(self, url: str) -> tuple[list[str], float] | None:
        """The page URLs last seen for a thread (by any URL it was read from), and when."""
        with self._using() as db:
            row = db.execute(
                "SELECT pages, updated_at FROM threads WHERE url = ?", (url,)
            ).fetchone()
        return (json.loads(row[0]), row[1]) if row else None

    def readings(self, digests: list[bytes]) -> dict[bytes, str]:
        """The post readings kept under these digests (see body.reading_digest)."""
        return self._by_digest("SELECT digest, reading FROM readings WHERE", (), digests)

    def keep_readings(self, readings: list[tuple[bytes, str]]) -> None:
        """Keep post readings by digest, so that a re-count parses no body it has read."""
        self._keep("INSERT OR REPLACE INTO readings (digest, reading) VALUES (?, ?)", readings)

    def clauses(self, kind: bytes, digests: list[bytes]) -> dict[bytes, bytes]:
        """The clauses of this kind kept for the posts of these digests (threads.kept)."""
        return self._by_digest(
            "SELECT digest, clauses FROM clauses WHERE kind = ? AND", (kind,), digests
        )

    def _by_digest(self, select: str, params: tuple, digests: list[bytes]) -> dict:
        """{digest: value} of `select` ("... WHERE") for these digests, in chunks of _CHUNK."""
        found: dict = {}
        with self._using() as db:
            for i in range(0, len(digests), _CHUNK):
                chunk = digests[i : i + _CHUNK]
                marks = ",".join("?" * len(chunk))
                found.update(db.execute(f"{select} digest IN ({marks})", (*params, *chunk)))
        return found

    def keep_clauses(self, kind: bytes, clauses: list[tuple[bytes, bytes]]) -> None:
        """Keep the clauses of this kind read in posts, by the posts' digests."""
        rows = [(kind, digest, value) for digest, value in clauses]
        self._keep("INSERT OR REPLACE INTO clauses (kind, digest, clauses) VALUES (?, ?, ?)", rows)

    def _keep(self, insert: str, rows: list[tuple]) -> None:
        """Run `insert` for each row, in one transaction."""
        self._write(lambda db: db.executemany(insert, rows))

    def store_thread(self, urls: list[str], pages: list[str]) -> None:
        now = time.time()
        rows = [(url, json.dumps(pages), now) for url in urls]
        self._write(
            lambda db: db.executemany("INSERT OR REPLACE INTO threads VALUES (?, ?, ?)", rows)
        )

    def _write(self, write: Callable[[sqlite3.Connection], object]) -> None:
        """One write in its own transaction. A cache that cannot be written to (read-only,
        its folder read-only, a full disk) is read as it is: the write is dropped, `not_kept`
        says why, and no later write is tried (the next run fetches what was not kept)."""
        with self._using() as db:
            if self.not_kept is not None:
                return
            try:
                with db:
                    write(db)
            except sqlite3.OperationalError as exc:
                if not _cannot_write(exc):
                    raise
                self.not_kept = str(exc)

    @contextmanager
    def _using(self) -> Iterator[sqlite3.Connection]:
        """The database, for one read or write: SQLite's errors made one line each."""
        with self._lock:
            try:
                yield self._db
            except sqlite3.OperationalError as exc:  # locked by another writer all this while
                raise ModToolError(
                    f"--cache {self.path}: cannot be used ({exc}); if another modtool "
                    "is using it, run again when it has finished, or give another path"
                ) from None
            except sqlite3.DatabaseError as exc:  # a page of the file overwritten, lost
                raise ModToolError(
                    f"--cache {self.path}: the cache is damaged ({exc}); delete the file (its "
                    "pages are fetched again), or give another --cache"
                ) from None
