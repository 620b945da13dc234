"""Clauses kept across runs: what a re-count reads in a post (its vote actions, its chat
announcements) is read once per post version and kept beside the post's reading.

A kind of clause is a `ClauseReader`: its `kind` is a digest of everything the clauses depend
on besides the post's HTML and the body reader (the syntax the game reads, and the code that
reads it), so a changed syntax or a changed reader finds nothing kept and reads again. Clauses
are kept in the page cache under (kind, the post's reading digest): an edited post has another
digest, a new body reader too (body.reading_digest). Only posts whose reading is kept (those
of posts files, see sources.with_kept_readings) keep their clauses; the others are read each
run, as their pages are.

Before any of that, `wanted` is the post-level test that spares a post with none of the kind's
words: it has no clause, nothing is looked up or kept for it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from .body import reading_digest
from .frozen import frozen
from .posts import Post

_NONE = b"[]"  # the clauses of a post that has none, as every reader's `dump` writes them


@frozen
class ClauseReader:
    """How one kind of clause is read in a post, and kept."""

    kind: bytes  # see code_digest: the syntax and the code that reads it
    wanted: Callable[[Post], bool]  # False: the post holds no clause of this kind
    read: Callable[[Post], list]  # the clauses, in order
    dump: Callable[[list], bytes]  # JSON: a post with no clause is "[]"
    load: Callable[[bytes], list]


def code_digest(name: str, syntax: Iterable[str], files: Iterable[str]) -> bytes:
    """A kind of clause: its name, the syntax read, and the source of the files reading it."""
    parts = [name, "\0".join(syntax), *(Path(f).read_text(encoding="utf-8") for f in files)]
    return hashlib.blake2b("\0\0".join(parts).encode(), digest_size=16).digest()


def post_clauses(posts: Sequence[Post], reader: ClauseReader) -> list[Sequence]:
    """The clauses of each post, in the posts' order: read earlier in this run, kept from an
    earlier run, or read now (and kept, where the post's reading is kept)."""
    out: list = [()] * len(posts)  # a post kept back by `wanted` has none (nothing is kept)
    asked: dict[int, tuple] = {}  # id(cache) -> (cache, [(index, digest)])
    kind = reader.kind
    for i, post in enumerate(posts):
        known = post.clauses(kind)
        if known is not None:
            out[i] = known
        elif not reader.wanted(post):
            continue
        elif (cache := post.kept) is None:
            out[i] = post.remember(kind, reader.read(post))
        else:
            asked.setdefault(id(cache), (cache, []))[1].append((i, reading_digest(post.html)))
    for cache, wanted in asked.values():
        found = cache.clauses(kind, list({digest for _, digest in wanted}))
        new: dict[bytes, bytes] = {}
        for i, digest in wanted:
            blob = found.get(digest)
            if blob is None:
                clauses = reader.read(posts[i])
                new[digest] = found[digest] = reader.dump(clauses)
            else:
                clauses = reader.load(blob) if blob != _NONE else ()
            out[i] = posts[i].remember(kind, clauses)
        if new:
            cache.keep_clauses(kind, list(new.items()))
    return out
