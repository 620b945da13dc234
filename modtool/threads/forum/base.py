"""What every forum engine provides: recognise a page, read its posts, list the thread's pages."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import tzinfo
from typing import TYPE_CHECKING, Protocol, overload

from ..frozen import frozen
from ..posts import Post

if TYPE_CHECKING:  # lxml.html is named in annotations only: not imported to read a posts file
    from lxml import html as lxml_html


@frozen
class Doubts:
    """What a reader was unsure of on a page: how many records it read, and each doubt in a
    line (a field missing in some records, no field passing for the author or the time).
    `authors` is False when no author could be read: a count must not use the page. The
    generic reader has doubts of its own; an engine adapter says which posts showed it no
    time or no author (forum.adapter_doubts), never dropping one silently."""

    records: int
    unsure: tuple[str, ...] = ()
    authors: bool = True
    # For a page read as records: where each field was found ("author": "tr 1 > td 1 > b 1")
    fields: tuple[tuple[str, str], ...] = ()
    reader: str = "the generic reader"  # who was unsure: "the xenforo adapter"

    @property
    def sure(self) -> bool:
        return not self.unsure


class PageUrls(Sequence[str]):
    """A thread's page URLs, first to last, each made when asked for.

    Every page of a thread names all its pages; making every URL on every page would make
    reading an N-page thread cost N*N URLs, where reading it needs each page's URL once.
    Equal to the tuple of the same URLs.
    """

    __slots__ = ("_make", "_numbers")

    def __init__(self, make: Callable[[int], str], numbers: range) -> None:
        self._make, self._numbers = make, numbers

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[str, ...]: ...
    def __getitem__(self, i):
        if isinstance(i, slice):
            return tuple(map(self._make, self._numbers[i]))
        return self._make(self._numbers[i])

    def __len__(self) -> int:
        return len(self._numbers)

    def __iter__(self):
        return map(self._make, self._numbers)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PageUrls | tuple):
            return len(self) == len(other) and tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"PageUrls({tuple(self)!r})"


@frozen
class ThreadPage:
    """The posts of one page and the URLs of every page of its thread (first to last)."""

    posts: tuple[Post, ...]
    page_urls: Sequence[str] = ()  # a tuple, or PageUrls
    page_url: str | None = None  # this page's own entry in page_urls
    doubts: Doubts | None = None  # the reader's, where it was unsure of something


class Engine(Protocol):
    """A forum engine adapter: one module per engine implements these."""

    name: str

    def detect(self, doc: lxml_html.HtmlElement) -> bool:
        """Whether the page was made by this engine."""

    def parse(self, doc: lxml_html.HtmlElement, url: str | None, tz: tzinfo) -> ThreadPage:
        """The page's posts and its thread's page URLs."""

    # Optional: `read_if_claimed(doc, url, tz) -> ThreadPage | None`, detect and parse in one
    # (None for a page the engine does not claim), where the two share their work; parse_page
    # asks it before detect.
