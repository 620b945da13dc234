"""Reading forum pages: engine detection and the engine registry (one module per engine).

Each engine module has `name`, `detect(doc)` and `parse(doc, url, tz) -> ThreadPage` for HTML
pages, and may add `read_if_claimed(doc, url, tz)` (both in one, None for a page it does not
claim) where detection and reading share their work; engines with a JSON API add
`detect_json(obj)` and `parse_json(obj, url, tz)`.
Detection tries the engines in the order below; `generic` reads what none of them claims.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime, tzinfo
from functools import cache
from typing import TYPE_CHECKING

from ...errors import SourceError
from ..charsets import DECLARED, browser_codec, decode_page
from ..lazy_modules import lazy_module
from ..patterns import lazy
from ..times import UTC, page_zone, stated_offset
from .base import Doubts, Engine, ThreadPage

if TYPE_CHECKING:
    import html as _html

    from lxml import etree
else:  # a count from kept readings parses no page: lxml is imported when one is read
    etree = lazy_module("lxml.etree")
    _html = lazy_module("html")

# The engines in the order detection tries them, each found by its name: an adapter module is
# loaded when a page first needs it, so that reading a posts file never loads a page parser.
ENGINE_ORDER = (
    "phpbb",
    "vbulletin",
    "xenforo",
    "smf",
    "nodebb",
    "discourse",
    "debateart",
    "gnuboard",
    "xe",
    "generic",
)


def adapter(name: str) -> Engine:
    """The adapter module of an engine (or `custom`, the reader of a host's selectors)."""
    return importlib.import_module(f"{__name__}.{name}")


class _Engines(Mapping):
    """The engine registry: name -> adapter, in detection order, each loaded when asked for."""

    def __getitem__(self, name: str) -> Engine:
        if name not in ENGINE_ORDER:
            raise KeyError(name)
        return adapter(name)

    def __iter__(self):
        return iter(ENGINE_ORDER)

    def __len__(self) -> int:
        return len(ENGINE_ORDER)


ENGINES: Mapping[str, Engine] = _Engines()

__all__ = ["ENGINES", "Engine", "ThreadPage", "decode_page", "detect_engine", "parse_page"]


def _forget_page() -> None:
    """markup.forget_page where the page reading (markup) is loaded; where it is not, no page
    has been read and nothing is to be forgotten. So reading a posts file loads no markup."""
    markup = sys.modules.get(f"{__name__}.markup")
    if markup is not None:
        markup.forget_page()


def _choose(engine: str | None, claims) -> Engine | None:
    if engine:
        if engine not in ENGINES:
            raise SourceError(f"unknown engine {engine!r}: use one of {', '.join(sorted(ENGINES))}")
        return ENGINES[engine]
    return next((e for e in ENGINES.values() if claims(e)), None)


def detect_engine(doc) -> str | None:
    """The name of the engine that made a parsed page, or None."""
    found = _choose(None, lambda e: e.detect(doc))
    return found.name if found else None


def parse_page(
    page: str | bytes,
    url: str | None = None,
    engine: str | None = None,
    tz: tzinfo = UTC,
    where: str = "page",
    selectors: Mapping[str, str] | None = None,
) -> ThreadPage:
    """The posts of one saved or fetched thread page (HTML, or an engine's JSON API answer).

    `page` may be the page's bytes: UTF-8 pages are then parsed without being decoded first.
    `selectors` (a host's own CSS selectors for the source) take the place of detection.
    """
    _forget_page()
    utf8 = None
    if isinstance(page, bytes):
        utf8, page = _utf8_or_text(page)
    stripped = page.lstrip()
    if not stripped:
        raise SourceError(f"{where}: the page is empty; save the thread page again")
    if stripped[0] in "{[":
        try:
            obj = json.loads(stripped)
        except json.JSONDecodeError:
            obj = None
        if obj is not None:
            chosen = _choose(engine, lambda e: hasattr(e, "detect_json") and e.detect_json(obj))
            if chosen is None or not hasattr(chosen, "parse_json"):
                raise SourceError(
                    f"{where}: JSON that is not a Discourse or NodeBB topic; "
                    "give the thread's page URL instead"
                )
            return _checked(chosen.parse_json(obj, url, tz), chosen, where)
    doc = _document(utf8 if utf8 is not None else page)
    # "All times are UTC-05:00": the page's word on its zone
    tz = page_zone(_zone_statement(utf8 if utf8 is not None else page), tz)
    if selectors:
        custom = adapter("custom")
        return _checked(custom.parse(doc, url, tz, selectors), custom, where)
    if engine:
        chosen = _choose(engine, None)
        return _checked(chosen.parse(doc, url, tz), chosen, where)
    for chosen in ENGINES.values():
        found = _claimed(chosen, doc, url, tz)
        if found is not None:
            return _checked(found, chosen, where)
    raise SourceError(
        f"{where}: not a forum thread page modtool can read (no repeated posts with an "
        "author and a time); check the URL, or set selectors for the source in game.toml"
    )


def _claimed(engine: Engine, doc, url: str | None, tz: tzinfo) -> ThreadPage | None:
    """An engine's reading of a page it claims, else None. An engine whose detection and
    reading share their work (the generic reader finds the posts to know a page is one, phpBB
    scans the page once for both) reads once: `read_if_claimed` (Engine)."""
    read = getattr(engine, "read_if_claimed", None)
    if read is not None:
        return read(doc, url, tz)
    return engine.parse(doc, url, tz) if engine.detect(doc) else None


def explain_page(
    page: str | bytes, engine: str | None = None, tz: tzinfo = UTC, where: str = "page"
) -> dict:
    """How a page is read: the engine adapter that claims it, or the generic reader's rule,
    selectors and doubts (`modtool posts --explain`)."""
    _forget_page()
    utf8 = None
    if isinstance(page, bytes):
        utf8, page = _utf8_or_text(page)
    if not page.strip():
        raise SourceError(f"{where}: the page is empty; save the thread page again")
    if page.lstrip()[0] in "{[":
        return {
            "engine": "JSON API",
            "rule": "the engine's JSON answer",
            "selectors": {},
            "unsure": [],
        }
    doc = _document(utf8 if utf8 is not None else page)
    generic = adapter("generic")  # explains any page no adapter claims: it need not detect
    chosen = _choose(engine, lambda e: e is not generic and e.detect(doc))
    if chosen is not None and chosen is not generic:
        posts = chosen.parse(doc, None, tz).posts
        return {
            "engine": chosen.name,
            "rule": f"the {chosen.name} adapter recognised the page ({len(posts)} posts)",
            "selectors": {},
            "unsure": list(adapter_doubts(posts, chosen.name).unsure),
        }
    shown_in = page_zone(_zone_statement(utf8 if utf8 is not None else page), tz)
    found = generic.explain(doc, shown_in)
    if shown_in is not tz:
        offset = datetime.now(shown_in).strftime("%z")
        found["notes"] = [
            *found.get("notes", ()),
            f"times: read at UTC{offset[:3]}:{offset[3:]}, the zone the page states "
            "(the game's timezone never has that offset)",
        ]
    return {"engine": "generic", **found}


_TAG = lazy(r"<[^>]*>")


def _zone_statement(page: str | bytes) -> str:
    """The lines of a page's source that may state its zone ("All times are UTC-05:00"),
    found by searching the source itself: reading the page's whole text for them cost an
    eighth of reading its posts. The last few of each are looked at (the footer's). A line
    in a comment counts only when the page shows none: a site that hides its footer in a
    comment (a Discuz! board: "<!-- ... GMT+8, 2024-5-27 10:35 -->") still has the forum
    write it, with the time it made the page."""
    raw = isinstance(page, bytes)
    opens, closes = (b"<!--", b"-->") if raw else ("<!--", "-->")
    shown, hidden = [], []
    for word in ("times are", "GMT"):
        needle = word.encode() if raw else word
        end = len(page)
        for _ in range(3):
            at = page.rfind(needle, 0, end)
            if at < 0:
                break
            end = at
            # In a comment: opened before it and not closed since (a search forward from the
            # opening, not back from the line to the last closing: one scan of the page less)
            opened = page.rfind(opens, 0, at)
            in_comment = opened >= 0 and page.find(closes, opened, at) < 0
            piece = page[max(0, at - 16) : at + 160]
            text = _html.unescape(_TAG.sub("", piece.decode("utf-8", "replace") if raw else piece))
            (hidden if in_comment else shown).append(text)
    return "\n".join(shown if stated_offset("\n".join(shown)) is not None else hidden)


# No table of the id attributes (libxml2's, for XPath's id(), which nothing here calls):
# building it was a thirtieth of parsing a page.
@cache
def _parser(encoding: str | None = None):
    return etree.HTMLParser(encoding=encoding, collect_ids=False)


_XML_DECLARATION = lazy(r"^\s*<\?xml[^>]*>")


def _utf8_or_text(data: bytes) -> tuple[bytes | None, str]:
    """(the bytes to parse, when the page is UTF-8 by its mark, its declaration or, declaring
    nothing, its bytes; the page's text). lxml parses UTF-8 bytes faster than
    text, which it encodes again: about a fifth of a bare parse saved per page."""
    bom = data.startswith(b"\xef\xbb\xbf")
    declared = None if bom else DECLARED.search(data[:4096])
    if bom or browser_codec(declared[1] if declared else "utf-8") == ("utf-8",):
        body = data[3:] if bom else data
        try:
            return body, body.decode("utf-8")
        except UnicodeDecodeError:
            pass  # a page that says UTF-8 and is not: detected below
    return None, decode_page(data)


def _document(page: str | bytes):
    """The page's root element. Plain lxml elements, not lxml.html's: they are built and walked
    several times faster, and nothing here needs lxml.html's extra methods."""
    if isinstance(page, bytes):
        doc = etree.fromstring(page, _parser("utf-8"))
    else:
        doc = etree.fromstring(_XML_DECLARATION.sub("", page, count=1), _parser())
    if doc is None:
        raise SourceError("the page has no HTML in it; save the thread page again")
    return doc


def _checked(result: ThreadPage, engine: Engine, where: str) -> ThreadPage:
    if not result.posts:
        raise SourceError(
            f"{where}: no posts found on this {engine.name} page; "
            "is it a thread page (and not a login page)?"
        )
    if result.doubts is None and engine.name != "generic":
        found = adapter_doubts(result.posts, engine.name)
        if not found.sure:
            return replace(result, doubts=found)
    return result


def dates_only(times) -> bool:
    """Whether a page's times are its dates alone: two or more, every one at midnight to the
    second (posts written at 00:00:00 by chance are one in 86,400 each)."""
    known = [t for t in times if t is not None]
    return len(known) >= 2 and all((t.hour, t.minute, t.second) == (0, 0, 0) for t in known)


def adapter_doubts(posts, engine: str) -> Doubts:
    """What an engine adapter could not read on a page: posts that show it no time (a site's
    template moved it, or writes it in a form no reader knows) or no author. Said, as the
    generic reader's doubts are, so that no post's time is dropped without a word."""
    unsure = []
    authors, times = [p.author for p in posts], [p.time for p in posts]
    for what, n in (("author", authors.count("")), ("time", times.count(None))):
        if n:
            unsure.append(f"{n} of {len(posts)} posts show no {what}")
    if dates_only(times):
        unsure.append(f"all {len(posts)} posts' times are midnight: dates shown without a clock?")
    return Doubts(
        len(posts),
        tuple(unsure),
        authors=authors.count("") < len(posts),
        reader=f"the {engine} adapter",
    )
