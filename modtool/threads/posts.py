"""The Post record and the posts JSONL format (`modtool posts --json` writes and reads it)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import field, replace
from datetime import datetime
from typing import IO

import orjson

from ..errors import SourceError, json_problem
from .body import Body, inner_html, own_text, read, read_html, vote_lines
from .frozen import frozen


@frozen
class Post:
    """One post of a thread, as any engine reads it."""

    post_id: str
    number: int | None
    author: str
    time: datetime | None
    url: str | None
    html: str
    edited: bool = False
    thread: str = ""  # which thread of the game it came from ("" for a one-thread game)
    # What is read from the body, each part when first asked for (see body.py).
    _read: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_element(cls, body_element, owned: bool = False, **fields) -> Post:
        """A post whose HTML and reading come from its body element now, not parsed again.
        `owned`: the caller reads nothing more of the element, which may then be changed."""
        html = inner_html(body_element)
        return cls(**fields, html=html, _read={"reading": read(body_element, html, owned)})

    def _once(self, key: str, make):
        found = self._read.get(key)
        if found is None:
            found = self._read[key] = make()
        return found

    @property
    def has_reading(self) -> bool:
        """Whether the body was read already (by its page's reader, or from a kept reading)."""
        return "reading" in self._read

    def with_reading(self, reading: str) -> None:
        """Take a reading kept from an earlier run (the same HTML, the same reader)."""
        self._read["reading"] = reading

    def kept_in(self, cache) -> None:
        """Where this post's reading is kept (a PageCache): the clauses read in it are kept
        there too (threads.kept)."""
        self._read["kept"] = cache

    @property
    def kept(self):
        """The PageCache this post's reading is kept in, else None."""
        return self._read.get("kept")

    def clauses(self, kind: bytes):
        """The clauses of this kind read in this post already in this run, else None."""
        return self._read.get(kind)

    def remember(self, kind: bytes, clauses):
        """Keep the clauses of this kind read in this post for the rest of the run."""
        self._read[kind] = clauses
        return clauses

    @property
    def reading(self) -> str:
        return self._once("reading", lambda: read_html(self.html))

    @property
    def text(self) -> str:
        """The poster's own text (quotes removed, whitespace collapsed)."""
        return self._once("text", lambda: own_text(self.reading))

    @property
    def body(self) -> Body:
        """Own text and vote-eligible lines."""
        return self._once("body", lambda: Body(self.text, vote_lines(self.reading)))

    def to_json(self) -> dict:
        return {
            "post_id": self.post_id,
            "number": self.number,
            "author": self.author,
            "time": self.time.isoformat() if self.time else None,
            "url": self.url,
            "edited": self.edited,
            "thread": self.thread,
            "text": self.text,
            "html": self.html,
        }


def number_in_order(posts: Iterable[Post]) -> list[Post]:
    """Posts in thread order, each one with no number numbered after the post before it.

    XE and Gnuboard show no numbers on comments, and their comment pages would each restart
    a count, so those posts are numbered here, once the whole thread is in order.
    """
    numbered: list[Post] = []
    last = 0
    for post in posts:
        if post.number is None:
            post = replace(post, number=last + 1)
        last = post.number
        numbered.append(post)
    return numbered


def post_from_json(obj: dict, where: str) -> Post:
    """A Post from one posts-JSONL object; `where` names the line for errors."""
    if not isinstance(obj, dict):
        raise SourceError(f"{where}: not a modtool post (each line must be a JSON object)")
    for key in ("html", "text", "url", "time", "author"):
        value = obj.get(key)
        if value is not None and not isinstance(value, str):
            raise SourceError(f"{where}: not a modtool post ({key!r} must be a string)")
    try:
        time = obj.get("time")
        number = obj.get("number")
        return Post(
            post_id=str(obj["post_id"]),
            number=int(number) if number is not None else None,
            author=str(obj["author"]),
            time=datetime.fromisoformat(time) if time else None,
            url=obj.get("url"),
            html=obj.get("html") or _escape_text(obj.get("text") or ""),
            edited=bool(obj.get("edited", False)),
            thread=str(obj.get("thread") or ""),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise SourceError(
            f"{where}: not a modtool post ({exc}); each line needs post_id, number, author"
        ) from None


def _escape_text(text: str) -> str:
    from html import escape

    return escape(text).replace("\n", "<br>")


def json_line(line: str):
    """One JSON value, read by orjson (twice as fast on a posts file); a line orjson refuses
    is read by the standard json module, whose answer and error messages are the reference."""
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:
        return json.loads(line)


def read_posts_jsonl(lines: Iterable[str], name: str) -> Iterator[Post]:
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json_line(line)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise SourceError(f"{name}:{i}: {json_problem(exc, line)}") from None
        yield post_from_json(obj, f"{name}:{i}")


# json escapes C0 controls but writes DEL and C1 as they are; a terminal acts on them, and the
# output guard would show them as signs, changing the post. Escaped, the line reads back exact.
_JSON_CONTROLS = {c: f"\\u{c:04x}" for c in (0x7F, *range(0x80, 0xA0))}


def write_posts_jsonl(posts: Iterable[Post], out: IO[str]) -> None:
    for post in posts:
        out.write(json.dumps(post.to_json(), ensure_ascii=False).translate(_JSON_CONTROLS) + "\n")
