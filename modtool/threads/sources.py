"""Thread sources: a URL, a saved page, a folder of saved pages, or a posts JSONL file.

Every source becomes a list of `Post`s in thread order. Two JSONL dialects are read: modtool's
own posts format and the mafiascum archive format (`{number, user, timestamp, content, ...}`).
"""

from __future__ import annotations

import gzip
import html
import json
import lzma
import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from datetime import tzinfo
from pathlib import Path

from ..errors import GameFileError, SourceError, json_problem
from .body import reading_digest
from .cache import PageCache
from .fetch import Fetcher, FetchOptions, looks_cut_short, make_client
from .folder_files import regular_file
from .forum import explain_page, parse_page
from .patterns import lazy
from .posts import Post, json_line, number_in_order, read_posts_jsonl
from .times import UTC, parse_displayed

# A saved page, or an engine's JSON answer (a Discourse topic, a NodeBB API page).
_PAGE_SUFFIXES = (".html", ".htm", ".json")
MAX_PAGE_BYTES = FetchOptions.max_page_bytes
_DIGITS = lazy(r"(\d+)")


def read_source(
    source: str,
    tz: tzinfo = UTC,
    engine: str | None = None,
    fetcher: Fetcher | None = None,
    thread: str = "",
    selectors: Mapping[str, str] | None = None,
    doubts: list | None = None,
) -> list[Post]:
    """All posts of one source, in thread order.

    URLs are read through `fetcher` (its cache and politeness); without one, a plain fetcher
    with no cache is made for the call. `doubts`, where given, gets (page, Doubts) for each
    page a reader was unsure of (the generic reader, or an adapter that read no time).
    """
    doubts = [] if doubts is None else doubts
    if "://" in source:
        if fetcher is None:
            with make_client() as client:
                reader = Fetcher(client, None, FetchOptions(engine, tz, selectors))
                posts = reader.thread(source)
                doubts.extend(reader.report.doubts)
        else:
            reader = fetcher.for_source(engine, selectors)
            before = len(reader.report.doubts)
            posts = reader.thread(source)
            doubts.extend(reader.report.doubts[before:])
    else:
        path = Path(source)
        if path.is_dir():
            posts = _read_folder(path, tz, engine, selectors, doubts)
        elif path.is_file():
            posts = list(_read_file(path, tz, engine, selectors, doubts))
        elif path.exists():  # a FIFO, a device, a socket: it could hang a read, or never end
            raise SourceError(
                f"{source}: not a regular file (a FIFO or a device); give a saved page, a folder "
                "of saved pages or a posts .jsonl file"
            )
        else:
            raise SourceError(
                f"{source}: no such file or folder; give a thread URL, a saved page, "
                "a folder of saved pages or a posts .jsonl file"
            )
    if not posts:
        raise SourceError(
            f"{source}: no posts in it; check that it is the thread (a saved page, a posts "
            "file) and that it is not empty"
        )
    posts = number_in_order(posts)
    if thread:
        posts = [_in_thread(p, thread) for p in posts]
    return posts


def _in_thread(post: Post, thread: str) -> Post:
    return post if post.thread == thread else replace(post, thread=thread)


def _natural_key(path: Path):
    return [int(part) if part.isdigit() else part for part in _DIGITS.split(path.name)]


def _read_folder(
    folder: Path,
    tz: tzinfo,
    engine: str | None,
    selectors: Mapping[str, str] | None,
    doubts: list,
) -> list[Post]:
    files = sorted(
        (
            p
            for p in folder.iterdir()
            if p.suffix.lower() in _PAGE_SUFFIXES
            or p.name.endswith((".jsonl", ".jsonl.xz", ".jsonl.gz"))
        ),
        key=_natural_key,
    )
    for f in files:  # a folder's entries are its own files: no link out, no FIFO or device
        regular_file(f)
    if not files:
        raise SourceError(
            f"{folder}: no saved pages (.html, .json) or posts files (.jsonl) in this folder"
        )
    posts: dict[str, Post] = {}
    for f in files:  # in natural order: page-2.html before page-10.html
        for post in _read_file(f, tz, engine, selectors, doubts):
            posts.setdefault(post.post_id, post)
    # Pages saved in any order: shown numbers put them right (unnumbered posts keep file order).
    return sorted(number_in_order(posts.values()), key=lambda p: p.number)


def _read_file(
    path: Path,
    tz: tzinfo,
    engine: str | None,
    selectors: Mapping[str, str] | None = None,
    doubts: list | None = None,
) -> Iterator[Post]:
    name = path.name
    if name.endswith((".jsonl", ".jsonl.xz", ".jsonl.gz")):
        yield from _read_jsonl(path, tz)
    elif path.suffix.lower() in _PAGE_SUFFIXES:
        if path.stat().st_size > MAX_PAGE_BYTES:
            raise SourceError(
                f"{path}: larger than {MAX_PAGE_BYTES // 1_000_000} MB, more than any thread "
                "page; check that it is a saved page"
            )
        data = path.read_bytes()
        if looks_cut_short(data):
            raise SourceError(
                f"{path}: the page ends before its closing </html>, so posts may be missing; "
                "save the page again once it has loaded completely"
            )
        url = _saved_url(data)
        page = parse_page(data, url, engine, tz, where=str(path), selectors=selectors)
        if doubts is not None and page.doubts is not None and not page.doubts.sure:
            doubts.append((str(path), page.doubts))
        yield from page.posts
    else:
        raise SourceError(
            f"{path}: unknown source type; use .html pages, a forum's .json answer "
            "or .jsonl posts files"
        )


def _saved_url(page: bytes) -> str | None:
    m = re.search(rb'<link[^>]+rel="canonical"[^>]+href="([^"]+)"', page)
    # an attribute as HTML writes it: "&amp;start=25" is "&start=25"
    return html.unescape(m[1].decode("utf-8", "replace")) if m else None


def _open_text(path: Path):
    if path.name.endswith(".xz"):
        return lzma.open(path, "rt", encoding="utf-8")
    if path.name.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8")
    return path.open(encoding="utf-8")


# A posts file's bounds, compressed or not: a line longer than any page (a post is far less),
# and far more text than any thread (the archive's largest game is 2 MB of JSON lines), so a
# .xz or .gz that decompresses without end stops in one line instead of filling memory.
MAX_LINE_CHARS = MAX_PAGE_BYTES
MAX_POSTS_FILE_CHARS = 25 * MAX_PAGE_BYTES


def bounded_lines(fh, path: Path) -> Iterator[str]:
    total = 0
    while line := fh.readline(MAX_LINE_CHARS + 1):
        total += len(line)
        if len(line) > MAX_LINE_CHARS:
            raise SourceError(
                f"{path}: a line longer than {MAX_LINE_CHARS // 1_000_000} million characters, "
                "more than any post; check that it is a posts file"
            )
        if total > MAX_POSTS_FILE_CHARS:
            raise SourceError(
                f"{path}: more than {MAX_POSTS_FILE_CHARS // 1_000_000} million characters of "
                "posts, more than any thread; check that it is a posts file"
            )
        yield line


def _read_jsonl(path: Path, tz: tzinfo) -> Iterator[Post]:
    try:
        with _open_text(path) as fh:
            lines = bounded_lines(fh, path)
            first = next(lines, "")
            if not first.strip():
                return
            try:
                head = json_line(first)
            except (json.JSONDecodeError, RecursionError) as exc:
                raise SourceError(f"{path}:1: {json_problem(exc, first)}") from None
            if isinstance(head, dict) and "content" in head and "user" in head:
                yield from _read_archive(_chain(first, lines), str(path), tz)
            else:
                yield from read_posts_jsonl(_chain(first, lines), str(path))
    except UnicodeDecodeError:
        raise SourceError(f"{path}: not UTF-8 text; a posts file is UTF-8 JSON lines") from None
    except (OSError, EOFError, lzma.LZMAError) as exc:
        raise SourceError(f"{path}: cannot read ({exc})") from None


def _chain(first: str, rest) -> Iterator[str]:
    yield first
    yield from rest


def _read_archive(lines, name: str, tz: tzinfo) -> Iterator[Post]:
    """The mafiascum archive dialect: one object per post with number, user, timestamp, content."""
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json_line(line)
            number = int(obj["number"])
            thread = str(obj.get("thread", ""))
            yield Post(
                post_id=f"{thread}-{number}" if thread else str(number),
                number=number,
                author=obj["user"],
                time=parse_displayed(obj.get("timestamp") or "", tz),
                url=obj.get("pagelink"),
                html=obj.get("content") or "",
            )
        except (KeyError, TypeError, ValueError, json.JSONDecodeError) as exc:
            raise SourceError(f"{name}:{i}: not an archive post ({exc})") from None


def explain_source(
    source: str, tz: tzinfo = UTC, engine: str | None = None, fetcher: Fetcher | None = None
) -> dict:
    """How the first page of a source is read (`modtool posts --explain`): the engine or the
    generic reader's rule, the selectors it ended up with, and the blocks it was unsure of."""
    if "://" in source:
        if fetcher is None:
            with make_client() as client:
                page = Fetcher(client, None, FetchOptions(engine, tz, None)).page(source)
        else:
            page = fetcher.page(source)
        return {"source": source, **explain_page(page, engine, tz, where=source)}
    path = Path(source)
    if path.is_dir():
        pages = sorted(p for p in path.iterdir() if p.suffix.lower() in (".html", ".htm"))
        if not pages:
            raise SourceError(f"{source}: no saved .html pages in this folder to explain")
        path = pages[0]
    if not path.is_file():
        raise SourceError(f"{source}: no such file or folder; give a thread URL or a saved page")
    if path.suffix.lower() in (".jsonl", ".xz", ".json"):
        return {
            "source": source,
            "engine": "posts file",
            "rule": "modtool's own posts file",
            "selectors": {},
            "unsure": [],
        }
    data = path.read_bytes()
    return {"source": str(path), **explain_page(data, engine, tz, where=str(path))}


def read_sources(
    sources: list[str],
    tz: tzinfo = UTC,
    engine: str | None = None,
    fetcher: Fetcher | None = None,
    doubts: list | None = None,
) -> list[Post]:
    """The posts of several sources, each labelled as its own thread when there are several
    (`doubts` as in read_source)."""
    several = len(sources) > 1
    posts: list[Post] = []
    for i, source in enumerate(sources):
        thread = f"thread{i + 1}" if several else ""
        posts.extend(read_source(source, tz, engine, fetcher, thread, doubts=doubts))
    return posts


def doubts_line(doubts: list) -> str:
    """One line on the pages a reader was unsure of (`modtool posts` prints it)."""
    where, first = doubts[0]
    more = f" (and {len(doubts) - 1} more pages)" if len(doubts) > 1 else ""
    return (
        f"{where}{more}: {first.reader} was unsure of this page ({first.unsure[0]}); "
        "check with modtool posts --explain"
    )


def require_authors(doubts: list) -> None:
    """A game's posts are counted by author: a page whose authors could not be read stops it
    (else a label such as "Log in" would be counted as a player)."""
    for where, found in doubts:
        if not found.authors:
            about = [u for u in found.unsure if "author" in u] or list(found.unsure) or ["?"]
            raise SourceError(
                f"{where}: the posts' authors could not be read ({about[0]}); set "
                "selectors for the source in game.toml (modtool posts --explain gives a start)"
            )


def read_game_posts(game, fetcher: Fetcher | None = None, doubts: list | None = None) -> list[Post]:
    """Every post of every source of a game; saved paths are relative to the game folder.
    `doubts`, where given, gets what the generic reader was unsure of (as in read_source); a
    page whose authors could not be read is refused (require_authors)."""
    if not game.sources:
        raise GameFileError(
            game.folder / "game.toml", 'no [[sources]]; add one with url = "..." or path = "..."'
        )
    posts: list[Post] = []
    doubts = [] if doubts is None else doubts
    for source, thread in zip(game.sources, game.threads, strict=True):
        location = source.location
        if "://" not in location:
            location = str(game.folder / location)
        posts.extend(
            read_source(
                location, game.timezone, source.engine, fetcher, thread, source.selectors, doubts
            )
        )
    require_authors(doubts)
    if fetcher is not None and fetcher.cache is not None:
        with_kept_readings(posts, fetcher.cache)
    return posts


def with_kept_readings(posts: list[Post], cache: PageCache) -> None:
    """Give posts not read yet (those of posts files) the readings kept in the page cache, and
    read and keep the others: a re-count parses no body it has read before. A reading is kept
    under a digest of the HTML and the reader's version: an edited post, or a changed reader,
    is read again. The clauses read in these posts are kept beside their readings (kept.py)."""
    unread = [p for p in posts if not p.has_reading]
    if not unread:
        return
    digests = [reading_digest(p.html) for p in unread]
    kept = cache.readings(digests)
    new = []
    for post, digest in zip(unread, digests, strict=True):
        post.kept_in(cache)
        reading = kept.get(digest)
        if reading is None:
            new.append((digest, post.reading))
        else:
            post.with_reading(reading)
    if new:
        cache.keep_readings(new)
