"""Reading forum pages: engine detection and the engine registry (one module per engine)."""

from __future__ import annotations

from datetime import tzinfo

from bs4 import UnicodeDammit
from lxml import html as lxml_html

from ..errors import SourceError
from ..times import UTC
from . import phpbb
from .base import Engine, ThreadPage

ENGINES: dict[str, Engine] = {phpbb.name: phpbb}

__all__ = ["ENGINES", "Engine", "ThreadPage", "decode_page", "parse_page"]


def decode_page(data: bytes) -> str:
    """Page bytes to text, trusting the page's declared encoding, then detection."""
    return UnicodeDammit(data, is_html=True).unicode_markup or ""


def parse_page(
    page: str,
    url: str | None = None,
    engine: str | None = None,
    tz: tzinfo = UTC,
    where: str = "page",
) -> ThreadPage:
    """The posts of one saved or fetched thread page."""
    if not page.strip():
        raise SourceError(f"{where}: the page is empty; save the thread page again")
    doc = lxml_html.document_fromstring(page)
    if engine:
        if engine not in ENGINES:
            known = ", ".join(sorted(ENGINES))
            raise SourceError(f"unknown engine {engine!r}: use one of {known}")
        chosen = ENGINES[engine]
    else:
        chosen = next((e for e in ENGINES.values() if e.detect(doc)), None)
        if chosen is None:
            raise SourceError(
                f"{where}: not a forum thread page modtool can read; "
                f"pass --engine with one of {', '.join(sorted(ENGINES))}"
            )
    result = chosen.parse(doc, url, tz)
    if not result.posts:
        raise SourceError(
            f"{where}: no posts found on this {chosen.name} page; is it a thread page?"
        )
    return result
