"""What every forum engine provides: recognise a page, read its posts, list the thread's pages."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import tzinfo
from typing import Protocol

from lxml import html as lxml_html

from ..posts import Post


@dataclass(frozen=True, slots=True)
class ThreadPage:
    """The posts of one page and the URLs of every page of its thread (first to last)."""

    posts: tuple[Post, ...]
    page_urls: tuple[str, ...] = ()
    page_url: str | None = None  # this page's own entry in page_urls


class Engine(Protocol):
    """A forum engine adapter: one module per engine implements these."""

    name: str

    def detect(self, doc: lxml_html.HtmlElement) -> bool:
        """Whether the page was made by this engine."""

    def parse(self, doc: lxml_html.HtmlElement, url: str | None, tz: tzinfo) -> ThreadPage:
        """The page's posts and its thread's page URLs."""
