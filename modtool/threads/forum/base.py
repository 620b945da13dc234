"""What every forum engine provides: recognise a page, read its posts, list the thread's pages."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import tzinfo
from typing import Protocol

from lxml import html as lxml_html

from ..posts import Post


@dataclass(frozen=True, slots=True)
class Doubts:
    """What the generic reader was unsure of on a page: how many records it read, and each
    doubt in a line (a field missing in some records, no field passing for the author or the
    time). `authors` is False when no author could be read: a count must not use the page."""

    records: int
    unsure: tuple[str, ...] = ()
    authors: bool = True
    # For a page read as records: where each field was found ("author": "tr 1 > td 1 > b 1")
    fields: tuple[tuple[str, str], ...] = ()

    @property
    def sure(self) -> bool:
        return not self.unsure


@dataclass(frozen=True, slots=True)
class ThreadPage:
    """The posts of one page and the URLs of every page of its thread (first to last)."""

    posts: tuple[Post, ...]
    page_urls: tuple[str, ...] = ()
    page_url: str | None = None  # this page's own entry in page_urls
    doubts: Doubts | None = None  # the generic reader's, where it was unsure of something


class Engine(Protocol):
    """A forum engine adapter: one module per engine implements these."""

    name: str

    def detect(self, doc: lxml_html.HtmlElement) -> bool:
        """Whether the page was made by this engine."""

    def parse(self, doc: lxml_html.HtmlElement, url: str | None, tz: tzinfo) -> ThreadPage:
        """The page's posts and its thread's page URLs."""
