"""phpBB 3.0–3.3 (prosilver, subsilver-like styles and mafiascum.net)."""

from __future__ import annotations

import re
from datetime import tzinfo
from urllib.parse import parse_qs, urlencode, urljoin, urlparse, urlunparse

from lxml import etree
from lxml import html as lxml_html

from ..body import text_of
from ..posts import Post
from ..times import parse_displayed, parse_iso
from .base import ThreadPage
from .markup import inner_html

name = "phpbb"

_POST_ID = re.compile(r"^p(\d+)$")
_NUMBER = re.compile(r"#\s*(\d+)")


_POSTS = etree.XPath("//div[@id][contains(@class, 'post')]")
_GENERATOR = etree.XPath("//meta[@name='generator']/@content")
_PAGINATION = etree.XPath("//*[contains(@class, 'pagination')]")


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


_COPYRIGHT = etree.XPath("//meta[@name='copyright']/@content")
# The print view (viewtopic.php?view=print): bare div.post blocks with date, author, content.
_PRINT_POSTS = etree.XPath("//div[@class='post'][div[@class='content']][div[@class='author']]")


def detect(doc: lxml_html.HtmlElement) -> bool:
    if "phpbb" in " ".join(_GENERATOR(doc) + _COPYRIGHT(doc)).lower():
        return True
    return any(_is_post(el) and _parts(el).content is not None for el in _POSTS(doc))


def _is_post(el) -> bool:
    return "post" in (el.get("class") or "").split() and bool(_POST_ID.match(el.get("id", "")))


class _Parts:
    """The parts of one post, found in a single walk over its subtree."""

    __slots__ = ("post", "content", "author_line", "usernames", "notice", "number")

    def __init__(self, post) -> None:
        self.post = post
        self.content = self.author_line = self.notice = self.number = None
        self.usernames: list = []  # a.username / a.username-coloured (moderators' colour)


# The nodes of a post that can matter: those with a class (sorted out in Python, which is
# cheaper than asking libxml2 six contains() per node), and the profile column's plain links.
_PART_NODES = etree.XPath(".//*[@class]")
_PROFILE_LINKS = etree.XPath(".//dl[contains(@class, 'postprofile')]//a[not(@class)]")


def _parts(el) -> _Parts:
    parts = _Parts(el)
    for node in _PART_NODES(el):
        classes = node.get("class").split()
        if "content" in classes and node.tag == "div":
            if parts.content is None:
                parts.content = node
        elif "author" in classes:
            if parts.author_line is None:
                parts.author_line = node
        elif "notice" in classes and node.tag == "div":
            parts.notice = node
        elif node.tag == "a" and ("username" in classes or "username-coloured" in classes):
            parts.usernames.append(node)
        elif parts.number is None and ("post-number" in classes or "posti" in classes):
            parts.number = node
    return parts


def parse(doc: lxml_html.HtmlElement, url: str | None, tz: tzinfo) -> ThreadPage:
    containers = [el for el in _POSTS(doc) if _is_post(el)]
    boxes = _PAGINATION(doc)
    start = _url_start(url)
    if start is None:
        start = _shown_page_start(boxes)
    if not containers:
        return ThreadPage(tuple(_print_posts(doc, url, tz, start)), (), url)
    posts = []
    for i, el in enumerate(containers):
        post = _read_post(el, url, tz, start + i)
        if post is not None:
            posts.append(post)
    page_urls, page_url = _pages(boxes, url, start)
    return ThreadPage(tuple(posts), page_urls, page_url)


def _read_post(el, url: str | None, tz: tzinfo, fallback_number: int) -> Post | None:
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
    if parts.number is not None:
        m = _NUMBER.search(text_of(parts.number))
        if m:
            number = int(m[1])
    link = urljoin(url, f"viewtopic.php?p={post_id}#p{post_id}") if url else f"#p{post_id}"
    return Post.from_element(
        parts.content,
        post_id=post_id,
        number=number,
        author=_author(parts),
        time=time,
        url=link,
        html=inner_html(parts.content),
        edited=parts.notice is not None,
    )


def _print_posts(doc, url: str | None, tz: tzinfo, start: int) -> list[Post]:
    """Posts of the print view, which shows no ids: they are numbered from the page start."""
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
                html=inner_html(content),
            )
        )
    return posts


def _author(parts: _Parts) -> str:
    line = parts.author_line
    candidates = []
    if line is not None:
        # The author line names the poster; the profile column can hold other links.
        candidates += [a for a in parts.usernames if _inside(a, line)]
        candidates += [s for s in line.iter("strong")]
    for node in (*candidates, *parts.usernames):
        name = text_of(node).strip()
        if name:
            return name
    for node in _PROFILE_LINKS(parts.post):  # older styles: a plain link in the profile column
        name = text_of(node).strip()
        if name:
            return name
    if line is not None:
        m = re.search(r"by\s+(.+?)\s*»", text_of(line))
        if m:
            return m[1].strip()
    return ""


def _inside(node, ancestor) -> bool:
    return any(a is ancestor for a in node.iterancestors())


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
    starts, pages = [], []
    for a in _page_links(boxes):
        qs = parse_qs(urlparse(a.get("href")).query)
        label = text_of(a).strip()
        if "start" in qs and qs["start"][0].isdigit() and label.isdigit() and int(label) > 1:
            starts.append(int(qs["start"][0]))
            pages.append(int(label))
    if not starts:
        return 0
    per_page = starts[0] // (pages[0] - 1)
    return (page - 1) * per_page


def _pages(boxes: list, url: str | None, start: int) -> tuple[tuple[str, ...], str | None]:
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
    pages = tuple(_with_start(template, s) for s in range(0, positive[-1] + 1, step))
    return pages, _with_start(template, start)


def _with_start(url: str, start: int) -> str:
    parts = urlparse(url)
    qs = {k: v[0] for k, v in parse_qs(parts.query).items() if k not in ("start", "sid", "p")}
    if start:
        qs["start"] = str(start)
    return urlunparse(parts._replace(query=urlencode(qs), fragment=""))
