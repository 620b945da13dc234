"""What engines share: a declarative post reader, time and number helpers, and pagination.

Most engines are a `PostSpec` (where a post's parts live) plus a pagination pattern; the code
that walks a page with a spec lives here once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC as _UTC
from datetime import datetime, tzinfo
from functools import lru_cache, partial
from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlparse, urlunparse

from ..body import text_of
from ..frozen import frozen
from ..posts import Post
from ..times import (
    day_and_month,
    in_one_order,
    orient_day_month,
    parse_displayed,
    parse_iso,
    parse_loose,
)
from .base import PageUrls

if TYPE_CHECKING:
    import lxml.cssselect

_NUMBER = re.compile(r"#\s*(\d+)|^\s*(\d+)\s*$")
_SPACES = re.compile(r"\s+")


_CACHE: dict[str, lxml.cssselect.CSSSelector] = {}


def _compiled(selector: str) -> lxml.cssselect.CSSSelector:
    found = _CACHE.get(selector)
    if found is None:
        from lxml.cssselect import CSSSelector  # cssselect compiles its tokenizer on import

        found = _CACHE[selector] = CSSSelector(selector)
    return found


def select(el, selector: str) -> list:
    return _compiled(selector)(el)


def select_one(el, selectors: Sequence[str]):
    for selector in selectors:
        found = _compiled(selector)(el)
        if found:
            return found[0]
    return None


def first_text(el, selectors: Sequence[str]) -> str:
    """The text of the first match that has any, trying the selectors in order (SMF 2.1 puts
    an empty "online" link before the member's link)."""
    for selector in selectors:
        for node in _compiled(selector)(el):
            text = clean_text(node)
            if text:
                return text
    return ""


def remove_keeping_tail(node) -> None:
    """Take an element out of its parent; the words after it stay where they were."""
    parent = node.getparent()
    if parent is None:
        return
    tail, before = node.tail, node.getprevious()
    parent.remove(node)
    if tail and tail.strip():
        if before is not None:
            before.tail = (before.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail


def shown_name(el, lead: re.Pattern | None = None) -> str:
    """A poster's name as an element shows it: its first piece of text (not the rank under
    it, nor "says:" after it), less a byline's `lead` word ("by"); a mark of the poster's
    group before the name is part of it ("<b>+</b>forster" is "+forster")."""
    pieces = []
    for text in el.itertext():
        piece = lead.sub("", text.strip()).strip() if lead else text.strip()
        if piece:
            pieces.append(piece)
            if len(pieces) == 2:
                break
    if len(pieces) == 2 and not any(ch.isalnum() for ch in pieces[0]):
        return pieces[0] + pieces[1]
    return pieces[0] if pieces else ""


# Icon fonts draw a glyph for a word in an element of their class: Material's "more_horiz",
# Font Awesome's and Bootstrap's icons ("fa fa-reply", "bi bi-heart", "glyphicon ...").
_ICON_CLASS = re.compile(r"^(?:material-(?:icons|symbols)\S*|fa[srlbd]?|bi|glyphicon|icon)$", re.I)


def icon_glyph(el) -> bool:
    """An icon drawn by an icon font: its text (one word, "more_horiz") is no one's words."""
    if len(el) or " " in (el.text or "").strip():
        return False  # an icon holds no element and no words (most elements are neither)
    return _icon_class(el.get("class") or "")


@lru_cache(maxsize=4096)
def _icon_class(class_attr: str) -> bool:
    # A page repeats a few class attributes over thousands of elements: each read once.
    return any(_ICON_CLASS.match(c) for c in class_attr.split())


# --- what the generic reader asks of any page (generic.py, records.py) -------------------------

# Classes that say what state a block is in, not what it is: alternating rows (odd, alt2, bg1,
# row2), a new or unread post, a poster online, a selected or highlighted one, scripts' hooks.
_STATE_CLASS = re.compile(
    r"^(odd|even|alt\d?|bg\d|row\d|first|last|new|old|unread|read|online|offline|active|"
    r"selected|hidden|sticky|highlight|is-.*|has-.*|js-.*)$",
    re.I,
)
_DIGITS_IN = re.compile(r"\d")


def stable_class(name: str) -> bool:
    """A class name that says what a block is (a CSS selector may use it): no state class, no
    number in it (post-301342, windowbg2 name one block or one row)."""
    return bool(name) and not _STATE_CLASS.match(name) and not _DIGITS_IN.search(name)


def class_stems(el) -> tuple[str, ...]:
    """An element's stable class names once trailing digits are off (windowbg and windowbg2,
    alternating rows, are one class), each once, in the page's order."""
    return stems_of_classes(el.get("class") or "")


@lru_cache(maxsize=4096)
def stems_of_classes(classes: str) -> tuple[str, ...]:
    """class_stems of a class attribute's value (the readers that key on it ask it of that)."""
    # A page repeats a few class attributes over thousands of elements: each read once.
    stems = (c.rstrip("0123456789") for c in classes.split() if not _STATE_CLASS.match(c))
    return tuple(dict.fromkeys(s for s in stems if stable_class(s)))


# A member's page: /members/x.12/, member.php?u=, memberlist.php?mode=viewprofile, /user/x,
# /users/x, user_info.pl?id=, /profile/x, /people/x, /author/x, /u/x, /@x, Discuz's
# space-uid-9, ?uid=9, Forumotion's /u12, MyBB's search-engine URLs (user-3.html).
_MEMBER_PAGE = re.compile(
    r"(?:members?|users?|profile|viewprofile|people|author)(?:list|_?info)?"
    r"(?:\.\w+|/|\?|=|;|&|$)|/u/|/@|space-uid-\d|[?&;]uid=\d|/u\d+(?:[/?#-]|$)"
    r"|(?:^|/)(?:user|member)-\d+(?:\.html?)?(?:[?#]|$)",
    re.I,
)
# Links every visitor's page shows near the members' (logging in, registering, searching a
# member's posts): no member's page, though they name the member area.
_NOT_A_MEMBER_PAGE = re.compile(
    r"^(?:#|javascript:|mailto:)|log[-_]?(?:in|out|on|off)|sign[-_]?(?:in|up|on)|regist|passw"
    r"|search(?:\.php)?[/?]|[?&]action=finduser",
    re.I,
)


@lru_cache(maxsize=8192)
def member_page(href: str) -> bool:
    """Whether a link's address is a member's page (a profile), not a login or a search."""
    return bool(_MEMBER_PAGE.search(href)) and not _NOT_A_MEMBER_PAGE.search(href)


# Attributes that keep a machine time: HTML's datetime, and a page's own data-* attribute
# named for a time or a date (data-time, data-timestamp, data-date, data-publishdate), not
# for a later change (data-edit-time, data-lastupdate) nor for the member (a join date, a
# birthday, a last visit: the poster card's dates). title and content (an abbr's tooltip, a
# meta tag) may hold one too, in free text.
_MACHINE_TIME = re.compile(r"^(?:datetime|data-[\w-]*(?:time|date)[\w-]*)$", re.I)
_LATER_CHANGE = re.compile(r"edit|updat|modif|last|expir|join|regist|member|user|birth|visit", re.I)


def machine_time_attrs(el) -> list[str]:
    """The values of the attributes of an element named for its machine time: HTML's own
    (datetime) first, then the page's."""
    keys = el.keys()
    return [v for k in _time_keys(tuple(keys))[0] if (v := el.get(k))] if keys else []


def time_attr_values(el) -> list[str]:
    """Every attribute value of an element that may hold a time: the machine time's first,
    then a meta tag's content and a tooltip."""
    keys = el.keys()
    return [v for k in _time_keys(tuple(keys))[1] if (v := el.get(k))] if keys else []


@lru_cache(maxsize=4096)
def _time_keys(keys: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    # The names of an element's attributes that may hold a time, in the order asked (for
    # machine_time_attrs, and for time_attr_values): a page repeats a few sets of names over
    # thousands of elements, each sorted out once.
    own = [
        k
        for k in keys
        if k != "datetime" and _MACHINE_TIME.match(k) and not _LATER_CHANGE.search(k)
    ]
    machine = (*(("datetime",) if "datetime" in keys else ()), *own)
    return machine, (*machine, *(a for a in ("content", "title") if a in keys))


def attribute_time(
    value: str, tz: tzinfo = _UTC, naive: tzinfo | None = None, loose: bool = False
) -> datetime | None:
    """A time an attribute gives: a Unix time (seconds or milliseconds, nine digits or more:
    a short number is a count), an ISO 8601 timestamp (naive ones in `naive`, else UTC), or a
    date and time in free text read in `tz` (a tooltip). With `loose` (an attribute an engine
    keeps its time in), the text may be in any form time_from_text reads: XenForo 1's German
    tooltip "10. April 2020 um 07:38 Uhr"."""
    value = value.strip()
    if not _DIGITS_IN.search(value):
        return None
    if value.replace(".", "", 1).isdigit():
        return epoch(value) if len(value.split(".")[0]) >= 9 else None
    return parse_iso(value, naive or _UTC) or time_from_text(value, tz, loose=loose)


# An element's text is read many times while its page is read (each candidate group, each
# criterion): once per element of the page being read. parse_page forgets them (forget_page):
# the elements are the page's, which nothing changes (bodies are cleaned on copies).
_texts: dict = {}


def clean_text(el) -> str:
    if el is None:
        return ""
    found = _texts.get(el)
    if found is None:
        found = _texts[el] = " ".join(text_of(el).split())  # as \s+ -> " ", stripped
    return found


def forget_page() -> None:
    """Forget the texts and date lines read on the last page (parse_page calls it first)."""
    _texts.clear()
    time_from_text.cache_clear()
    _displayed.cache_clear()


def shown_number(text: str) -> int | None:
    """A displayed post number: "#12", "12"."""
    m = _NUMBER.search(text or "")
    if not m:
        return None
    return int(m[1] or m[2])


def epoch(value: str) -> datetime | None:
    """A Unix timestamp in seconds or milliseconds."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    if number > 10**11:
        number /= 1000
    try:
        return datetime.fromtimestamp(number, _UTC)
    except (OverflowError, OSError, ValueError):
        return None  # a number no clock reaches is no time (an id, a size)


# A page's lines are read many times over (an element is scored in several candidate groups,
# and records compare every path): each line once per page (parse_page clears the cache, so
# a relative "3 hours ago" is never read against an old clock).
@lru_cache(maxsize=8192)
def time_from_text(text: str, tz: tzinfo, loose: bool = True) -> datetime | None:
    """A time somewhere in a displayed line such as "« Reply #1 on: April 25, 2018, 10:22 pm »";
    with `loose`, at last a date in any common order near the line's start (times.parse_loose)."""
    cleaned = _SPACES.sub(" ", text.replace("«", " ").replace("»", " ")).strip()
    if len(_NUMBER_RUNS.findall(cleaned)) < 2 and not _ONE_NUMBER_TIME.search(cleaned):
        return None  # every date form names two numbers or more, but "5 hours ago"
    candidates = [cleaned]
    for sep in (": ", " - ", ", ", " at ", " on "):
        if sep in cleaned:
            candidates.extend(part.strip() for part in cleaned.split(sep, 1)[1:])
    candidates.extend(m[0] for m in _DATEISH.finditer(cleaned))
    tokens = cleaned.split()
    # "#1 Post by flywire 02 Jun 2018 05:41": the time is often the end of a labelled line.
    candidates.extend(" ".join(tokens[i:]) for i in range(1, min(len(tokens), 12)))
    for candidate in dict.fromkeys(candidates):  # in order, each once
        found = _displayed(candidate, tz)
        if found:
            return found
    return parse_loose(cleaned, tz) if loose else None


# The lines of a page end alike ("... 02 Jun 2018 05:41"): each ending read once per page.
_displayed = lru_cache(maxsize=8192)(parse_displayed)
_NUMBER_RUNS = re.compile(r"\d+")
# The times written with one number: "5 hours ago" ("5시간 전"), ISO 8601's 20200421.
_ONE_NUMBER_TIME = re.compile(r"ago\b|전|\d{8}", re.I)
_DATEISH = re.compile(
    r"\d{2,4}[-./]\d{1,2}[-./]\d{1,4},?\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]m)?"
    r"|[A-Z][a-z]+ \d{1,2}, \d{4},? (?:at )?\d{1,2}:\d{2}(?::\d{2})?\s*[ap]m",
    re.I,
)


@frozen(slots=False)
class PostSpec:
    """Where the parts of a post live in one engine's markup (CSS selectors, first match wins)."""

    container: str | Callable[[object], list]  # a selector, or a function finding containers
    body: Sequence[str]
    author: Sequence[str]
    post_id: Callable[[object], str | None]
    author_attr: str | None = None  # an attribute of the container naming the author
    time_attrs: Sequence[tuple[str, str]] = ()  # (selector, attribute) holding a machine time
    time_text: Sequence[str] = ()  # selectors whose text shows the time
    naive_times_are_utc: bool = True  # a machine time without an offset is UTC, not local
    number: Sequence[str] = ()  # selectors whose text shows "#N"
    number_attr: tuple[str, int] | None = None  # (attribute, offset): data-index 0 is post 1
    edited: Sequence[str] = ()  # selectors present (with text) only on edited posts
    link: Callable[[object, str | None, str], str | None] | None = None


def read_posts(doc, url: str | None, tz: tzinfo, spec: PostSpec, first_number: int | None = 0):
    """Every post a spec finds on a page, numbered from `first_number` where none is shown
    (None: left unnumbered, for the thread to number in order; see posts.number_in_order)."""
    posts, shown, searched = [], [], []
    containers = spec.container(doc) if callable(spec.container) else select(doc, spec.container)
    for i, el in enumerate(containers):
        body = select_one(el, spec.body)
        post_id = spec.post_id(el)
        if body is None or not post_id:
            continue
        author = (el.get(spec.author_attr) or "").strip() if spec.author_attr else ""
        if not author:
            author = first_text(el, spec.author)
        time, text = _time(el, spec, tz)
        if time is None:
            time, text = _any_shown_time(el, body, tz)
            searched.append(len(posts))
        shown.append(day_and_month(text) if text else None)
        posts.append(
            Post.from_element(
                body,
                post_id=post_id,
                number=_number(el, spec, None if first_number is None else first_number + i),
                author=author,
                time=time,
                url=spec.link(el, url, post_id) if spec.link else url,
                edited=any(_marked(el, s) for s in spec.edited),
            )
        )
    times = orient_day_month([p.time for p in posts], shown)
    if not in_one_order([times[i] for i in searched]):
        for i in searched:  # dates found by search that go back and forth: join dates
            times[i] = None
    posts = [replace(p, time=t) for p, t in zip(posts, times, strict=True)]
    return _without_empty_slots(posts)


def _any_shown_time(el, body, tz: tzinfo) -> tuple[datetime | None, str]:
    """A post's time where the engine's own places show none (a site's template moved it):
    the first short line of the post outside its body that reads as a date."""
    for node in el.iter():
        if node is body:
            break  # the body and what follows it (a signature, a footer) are not searched
        if not isinstance(node.tag, str) or node.tag in ("script", "style"):
            continue
        text = clean_text(node)
        if 6 <= len(text) <= 40 and any(ch.isdigit() for ch in text):
            found = time_from_text(text, tz)
            if found is not None:
                return found, text
    return None, ""


def _without_empty_slots(posts: list[Post]) -> list[Post]:
    """Posts less the slots with neither a time nor a word where the posts with words show a
    time: an ad or a video box the forum lays out as a post (vBulletin's "Publicité" between
    posts); however many of them a page has, a post has words or a time."""
    worded = [p for p in posts if p.text.strip()]
    if len(worded) < 2 or any(p.time is None for p in worded):
        return posts
    return [p for p in posts if p.time is not None or p.text.strip()]


def _marked(el, selector: str) -> bool:
    """ "sel" marks an edit when a match has text; "sel@attr" when a match's attr is set."""
    selector, _, attr = selector.partition("@")
    return any((e.get(attr) if attr else clean_text(e)) for e in select(el, selector))


def around(body_selector: str, author_selector: str) -> Callable[[object], list]:
    """Containers found from their parts: for each body, its nearest ancestor with an author."""

    def find(doc) -> list:
        found = []
        for body in select(doc, body_selector):
            el = body.getparent()
            while el is not None and not select(el, author_selector):
                el = el.getparent()
            if el is not None and el not in found:
                found.append(el)
        return found

    return find


def _number(el, spec: PostSpec, fallback: int | None) -> int | None:
    if spec.number_attr:
        value = el.get(spec.number_attr[0])
        if value and value.isdigit():
            return int(value) + spec.number_attr[1]
    for selector in spec.number:
        for node in select(el, selector):
            found = shown_number(clean_text(node)) or shown_number(node.get("name") or "")
            if found is not None:
                return found
    return fallback


def _time(el, spec: PostSpec, tz: tzinfo) -> tuple[datetime | None, str]:
    """The post's time, and the text it was read from ("" for a machine time)."""
    for selector, attr in spec.time_attrs:
        nodes = [el] if selector == ":self" else select(el, selector)
        for node in nodes:
            value = node.get(attr)
            naive = _UTC if spec.naive_times_are_utc else tz
            found = attribute_time(value, tz, naive, loose=True) if value else None
            if found:
                return found, ""
    for selector in spec.time_text:
        for node in select(el, selector):
            text = clean_text(node)
            found = time_from_text(text, tz)
            if found:
                return found, text
    return None, ""


# --- pagination --------------------------------------------------------------------------------


@frozen(slots=False)
class PageScheme:
    """How an engine's page URLs name a page: a regex whose group 1 is the page or offset."""

    pattern: str
    offset: bool = False  # the number is a post offset (start=25), not a page number
    first: int = 1  # the number of the first page (0 for offsets)

    def number(self, url: str) -> int | None:
        m = re.search(self.pattern, url)
        return int(m[1]) if m else None


def paginate(
    doc, url: str | None, schemes: Sequence[PageScheme], links_selector: str = "a[href]"
) -> tuple[Sequence[str], str | None, int | None]:
    """(every page URL in order, as PageUrls, this page's URL, this page's number or offset).

    Page links are read from the page itself; the first scheme that its links use wins, and the
    thread's address comes from those links, not from the pasted URL (which may be a post link).
    """
    if not url:
        return (), None, None
    own = _strip(url)
    links = [
        _strip(urljoin(url, h))
        for h in (a.get("href") for a in select(doc, links_selector))
        if h and not h.startswith("#")
    ]
    for scheme in schemes:
        numbered = [(scheme.number(link), link) for link in links]
        numbered = [(n, link) for n, link in numbered if n is not None]
        if not numbered:
            continue
        template_number, template = numbered[0]
        base = _replace_number(template, scheme, None)
        same = sorted({n for n, link in numbered if _replace_number(link, scheme, None) == base})
        current = scheme.number(own)
        if current is None:
            current = scheme.first
        values = sorted({scheme.first, current, *same})
        if scheme.offset:
            positive = [v for v in values if v > 0]
            step = (
                min(b - a for a, b in zip([0, *positive], positive, strict=False))
                if positive
                else 1
            )
            numbers = range(0, max(values) + 1, step)
        else:
            numbers = range(scheme.first, max(values) + 1)
        pages = PageUrls(partial(_replace_number, template, scheme), numbers)
        return pages, _replace_number(template, scheme, current), current
    return (own,), own, None


def _replace_number(url: str, scheme: PageScheme, value: int | None) -> str:
    m = re.search(scheme.pattern, url)
    if not m:
        return url
    text = "{}" if value is None else str(value)
    return url[: m.start(1)] + text + url[m.end(1) :]


_SESSION = re.compile(r"([?&;])(sid|s|PHPSESSID|sessionid)=[^&#;]*&?", re.I)


def _strip(url: str) -> str:
    """A URL without its fragment and session id."""
    parts = urlparse(url)
    query = _SESSION.sub(r"\1", "?" + parts.query)[1:].rstrip("&")
    return urlunparse(parts._replace(query=query, fragment=""))
