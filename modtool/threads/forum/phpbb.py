"""phpBB 3.0–3.3 (prosilver, subsilver-like styles and mafiascum.net)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import tzinfo
from functools import lru_cache, partial
from urllib.parse import parse_qs, urlencode, urljoin, urlparse, urlunparse

from lxml import etree

from ..body import text_of
from ..posts import Post
from ..times import parse_displayed, parse_iso
from .base import PageUrls, ThreadPage
from .markup import time_from_text

name = "phpbb"

_POST_ID = re.compile(r"^p(\d+)$")
_NUMBER = re.compile(r"#\s*(\d+)")


_META = etree.XPath("/html/head/meta[@name='generator' or @name='copyright']/@content")


def _scan(doc) -> tuple[list, list]:
    """The post containers and pagination boxes of a page, in one pass over its divs and lists
    (name tests in C, classes read in Python: cheaper than libxml2's contains() per node)."""
    posts, boxes = [], []
    for el in doc.iter("div", "ul"):
        cls = el.get("class")
        if not cls:
            continue
        if "pagination" in cls:
            boxes.append(el)
        elif (
            el.tag == "div"
            and "post" in cls  # a substring test before the split: most classes hold no "post"
            and "post" in cls.split()
            and _POST_ID.match(el.get("id") or "")
        ):
            posts.append(el)
    return posts, boxes


def _page_links(boxes: list) -> list:
    return [a for box in boxes for a in box.iter("a") if a.get("href")]


def _current_page(boxes: list) -> str | None:
    """The page number phpBB shows unlinked: <strong>2</strong> (3.0) or li.active > span."""
    for box in boxes:
        for node in box.iter("strong", "span"):
            if node.tag == "span" and "active" not in (node.getparent().get("class") or ""):
                continue
            if not any(a.tag == "a" for a in node.iterancestors()):
                return node.text
    return None


# The print view (viewtopic.php?view=print): bare div.post blocks with date, author, content.
_PRINT_POSTS = etree.XPath("//div[@class='post'][div[@class='content']][div[@class='author']]")


def detect(doc) -> bool:
    return _says_phpbb(doc) or _claimed_scan(doc) is not None


def _says_phpbb(doc) -> bool:
    """Whether the page's generator or copyright meta tag names phpBB."""
    return "phpbb" in " ".join(_META(doc)).lower()


def read_if_claimed(doc, url: str | None, tz: tzinfo) -> ThreadPage | None:
    """The page's posts where phpBB made the page, else None: detection and reading share the
    page's one scan of its divs and lists (parse_page asks this, not detect then parse)."""
    if _says_phpbb(doc):
        return parse(doc, url, tz)
    scan = _claimed_scan(doc)
    return None if scan is None else _parse_scanned(doc, scan, url, tz)


def _claimed_scan(doc) -> tuple[list, list] | None:
    """The page's scan where it holds a post of phpBB's shape, else None."""
    scan = _scan(doc)
    return scan if any(_parts(el).content is not None for el in scan[0]) else None


class _Parts:
    """The parts of one post, found in a single walk over its subtree."""

    __slots__ = (
        "post",
        "content",
        "author_line",
        "usernames",
        "line_usernames",
        "notice",
        "number",
        "profile",
    )

    def __init__(self, post) -> None:
        self.post = post
        self.content = self.author_line = self.notice = self.number = self.profile = None
        self.usernames: list = []  # a.username / a.username-coloured (moderators' colour)
        self.line_usernames: list = []  # those of them inside the author line


_USERNAME_CLASSES = frozenset(("username", "username-coloured"))


def _parts(post) -> _Parts:
    parts = _Parts(post)
    _find_parts(post, parts)
    return parts


# What a node's tag and class attribute make it in a post, each pair sorted out once (a forum
# repeats a few dozen): the first role that applies, in the order _find_parts tests them.
_CONTENT, _PROFILE, _AUTHOR, _NOTICE, _USERNAME, _NUMBER_BOX, _OTHER = range(7)


@lru_cache(maxsize=1024)
def _role(tag, cls: str) -> int:
    classes = cls.split()
    if "content" in classes and tag == "div":
        return _CONTENT
    if "postprofile" in classes:
        return _PROFILE
    if "author" in classes:
        return _AUTHOR
    if "notice" in classes and tag == "div":
        return _NOTICE
    if tag == "a" and not _USERNAME_CLASSES.isdisjoint(classes):
        return _USERNAME
    if "post-number" in classes or "posti" in classes:
        return _NUMBER_BOX
    return _OTHER


def _find_parts(el, parts: _Parts) -> None:
    """Walk a post in document order, but not into its content (the bulk of it, and never a
    part) or its profile column (read only when the author line names nobody)."""
    for node in el:
        cls = node.get("class")
        if cls:
            role = _role(node.tag, cls)
            if role == _CONTENT:
                if parts.content is None:
                    parts.content = node
                continue
            if role == _PROFILE:
                parts.profile = node
                continue
            if role == _AUTHOR:
                if parts.author_line is None:
                    parts.author_line = node
                    before = len(parts.usernames)
                    _find_parts(node, parts)
                    parts.line_usernames = parts.usernames[before:]
                    continue
            elif role == _NOTICE:
                parts.notice = node
                continue
            elif role == _USERNAME:
                parts.usernames.append(node)
            elif parts.number is None and role == _NUMBER_BOX:
                parts.number = node
        if len(node):
            _find_parts(node, parts)


def parse(doc, url: str | None, tz: tzinfo) -> ThreadPage:
    return _parse_scanned(doc, _scan(doc), url, tz)


def _parse_scanned(doc, scan: tuple[list, list], url: str | None, tz: tzinfo) -> ThreadPage:
    containers, boxes = scan
    start = _url_start(url)
    if not containers:
        return ThreadPage(tuple(_print_posts(doc, url, tz, start)), (), url)
    if start is None:
        start = _shown_page_start(boxes)
    posts = []
    link_base = urljoin(url, "viewtopic.php") if url else ""
    for i, el in enumerate(containers):
        post = _read_post(el, link_base, tz, start + i)
        if post is not None:
            posts.append(post)
    page_urls, page_url = _pages(boxes, url, start)
    return ThreadPage(tuple(posts), page_urls, page_url)


def _read_post(el, link_base: str, tz: tzinfo, fallback_number: int) -> Post | None:
    post_id = _POST_ID.match(el.get("id", ""))[1]
    parts = _parts(el)
    if parts.content is None:
        return None
    line = parts.author_line
    time = None
    number = fallback_number
    if line is not None:
        stamp = next(line.iter("time"), None)
        if stamp is not None and stamp.get("datetime"):
            time = parse_iso(stamp.get("datetime"), tz)
        text = text_of(line)
        if time is None and "»" in text:
            time = parse_displayed(text.rsplit("»", 1)[1], tz)
        if time is None:  # styles that write "by name on Sat 27 Nov 2026 - 20:00"
            time = time_from_text(text, tz)
    if parts.number is not None:
        m = _NUMBER.search(text_of(parts.number))
        if m:
            number = int(m[1])
    link = f"{link_base}?p={post_id}#p{post_id}" if link_base else f"#p{post_id}"
    return Post.from_element(
        parts.content,
        owned=True,  # the page is read once: its posts' contents are not read again
        post_id=post_id,
        number=number,
        author=_author(parts),
        time=time,
        url=link,
        edited=parts.notice is not None,
    )


_PRINT_PAGE = etree.XPath("//div[@class='page-number']/strong[1]/text()")


def _print_posts(doc, url: str | None, tz: tzinfo, start: int | None) -> list[Post]:
    """Posts of the print view, which shows no ids: they are numbered from the page start.
    A saved page whose start is unknown shows only its page number ("Page 2 of 3", no links):
    past page 1 its posts are left for the thread to number after the page before."""
    shown = next((n for n in _PRINT_PAGE(doc) if n.strip().isdigit()), "1")
    if start is None and int(shown) > 1:
        return [
            replace(post, post_id=f"print-page{shown}-{i}", number=None)
            for i, post in enumerate(_print_posts(doc, url, tz, 0))
        ]
    start = start or 0
    posts = []
    for i, el in enumerate(_PRINT_POSTS(doc)):
        content = next(c for c in el if c.get("class") == "content")
        author = next(c for c in el if c.get("class") == "author")
        date = next((c for c in el if c.get("class") == "date"), None)
        shown = next(date.iter("strong"), None) if date is not None else None
        name = next(author.iter("strong"), author)
        posts.append(
            Post.from_element(
                content,
                post_id=f"print-{start + i}",
                number=start + i,
                author=text_of(name).strip(),
                time=parse_displayed(text_of(shown), tz) if shown is not None else None,
                url=url,
            )
        )
    return posts


def _author(parts: _Parts) -> str:
    line = parts.author_line
    candidates = []
    if line is not None:
        # The author line names the poster; the profile column can hold other links.
        candidates += parts.line_usernames
        candidates += [s for s in line.iter("strong")]
    for node in (*candidates, *parts.usernames):
        name = text_of(node).strip()
        if name:
            return name
    if parts.profile is not None:
        links = list(parts.profile.iter("a"))
        named = [a for a in links if not _USERNAME_CLASSES.isdisjoint(_classes(a))]
        plain = [a for a in links if not a.get("class")]  # older styles: a plain link
        for node in (*named, *plain):
            name = text_of(node).strip()
            if name:
                return name
    if line is not None:
        m = re.search(r"by\s+(.+?)\s*»", text_of(line))
        if m:
            return m[1].strip()
    return ""


def _classes(el) -> list[str]:
    return (el.get("class") or "").split()


def _url_start(url: str | None) -> int | None:
    """The start= offset a phpBB page URL names, if it names one."""
    if url:
        qs = parse_qs(urlparse(url).query)
        if "start" in qs and qs["start"][0].isdigit():
            return int(qs["start"][0])
    return None


def _shown_page_start(boxes: list) -> int:
    """The first post number of a saved page whose URL is unknown, from its pagination."""
    current = (_current_page(boxes) or "").strip()
    if not current.isdigit():
        return 0
    page = int(current)
    # The first link to another numbered page gives the page size: the rest are not read
    for a in _page_links(boxes):
        qs = parse_qs(urlparse(a.get("href")).query)
        label = text_of(a).strip()
        if "start" in qs and qs["start"][0].isdigit() and label.isdigit() and int(label) > 1:
            per_page = int(qs["start"][0]) // (int(label) - 1)
            return (page - 1) * per_page
    return 0


def _pages(boxes: list, url: str | None, start: int) -> tuple[Sequence[str], str | None]:
    """Every page of the thread and this page's own URL, from the pagination links.

    The links, not the URL given, supply the thread's address: a host may paste a link to one
    post (viewtopic.php?p=123), which names no thread.
    """
    if not url:
        return (), None
    links = [urljoin(url, a.get("href")) for a in _page_links(boxes)]
    numbered = [(s, link) for link in links if (s := _url_start(link)) is not None]
    if not numbered:
        own = urlunparse(urlparse(url)._replace(fragment=""))
        return (own,), own  # a thread of one page
    template = numbered[0][1]
    positive = sorted({start, *(s for s, _ in numbered)} - {0})
    step = min(b - a for a, b in zip([0, *positive], positive, strict=False) if b > a)
    pages = PageUrls(partial(_with_start, template), range(0, positive[-1] + 1, step))
    return pages, _with_start(template, start)


def _with_start(url: str, start: int) -> str:
    parts = urlparse(url)
    qs = {k: v[0] for k, v in parse_qs(parts.query).items() if k not in ("start", "sid", "p")}
    if start:
        qs["start"] = str(start)
    return urlunparse(parts._replace(query=urlencode(qs), fragment=""))
