"""phpBB 3.0–3.3 (prosilver, subsilver-like styles and mafiascum.net)."""

from __future__ import annotations

import re
from datetime import tzinfo
from urllib.parse import parse_qs, urlencode, urljoin, urlparse, urlunparse

from lxml import html as lxml_html

from ..posts import Post
from ..times import parse_displayed, parse_iso
from .base import ThreadPage

name = "phpbb"

_POST_ID = re.compile(r"^p(\d+)$")
_NUMBER = re.compile(r"#\s*(\d+)")


def detect(doc: lxml_html.HtmlElement) -> bool:
    generator = " ".join(doc.xpath("//meta[@name='generator']/@content")).lower()
    if "phpbb" in generator:
        return True
    if doc.xpath(
        "//div[contains(concat(' ', @class, ' '), ' post ')][starts-with(@id, 'p')]"
        "//div[contains(concat(' ', @class, ' '), ' content ')]"
    ):
        return True
    return bool(doc.xpath("//a[contains(@href, 'viewtopic.php')]")) and bool(
        doc.xpath("//*[contains(@class, 'postbody')]")
    )


def parse(doc: lxml_html.HtmlElement, url: str | None, tz: tzinfo) -> ThreadPage:
    containers = [
        el
        for el in doc.xpath("//div[contains(concat(' ', @class, ' '), ' post ')][@id]")
        if _POST_ID.match(el.get("id", ""))
    ]
    start = _url_start(url)
    if start is None:
        start = _shown_page_start(doc)
    posts = []
    for i, el in enumerate(containers):
        post = _read_post(el, url, tz, start + i)
        if post is not None:
            posts.append(post)
    page_urls, page_url = _pages(doc, url, start)
    return ThreadPage(tuple(posts), page_urls, page_url)


def _read_post(el, url: str | None, tz: tzinfo, fallback_number: int) -> Post | None:
    post_id = _POST_ID.match(el.get("id", ""))[1]
    content = el.xpath(".//div[contains(concat(' ', @class, ' '), ' content ')]")
    if not content:
        return None
    body = content[0]
    author_line = el.xpath(".//*[contains(concat(' ', @class, ' '), ' author ')]")
    author = _author(el, author_line[0] if author_line else None)
    time = None
    if author_line:
        stamp = author_line[0].xpath(".//time/@datetime")
        if stamp:
            time = parse_iso(stamp[0], tz)
        if time is None:
            text = author_line[0].text_content()
            if "»" in text:
                time = parse_displayed(text.rsplit("»", 1)[1], tz)
    number = fallback_number
    if author_line:
        shown = author_line[0].xpath(
            ".//*[contains(@class, 'post-number') or contains(@class, 'posti')]//text()"
        )
        m = _NUMBER.search(" ".join(shown))
        if m:
            number = int(m[1])
    edited = bool(el.xpath(".//div[contains(concat(' ', @class, ' '), ' notice ')]"))
    inner = (body.text or "") + "".join(lxml_html.tostring(child, encoding=str) for child in body)
    link = urljoin(url, f"viewtopic.php?p={post_id}#p{post_id}") if url else f"#p{post_id}"
    return Post(
        post_id=post_id,
        number=number,
        author=author,
        time=time,
        url=link,
        html=inner.strip(),
        edited=edited,
    )


def _author(el, author_line) -> str:
    # Moderators' names use username-coloured; both classes are author links.
    for xpath in (
        ".//*[contains(concat(' ', @class, ' '), ' author ')]//a[contains(@class, 'username')]",
        ".//dl[contains(@class, 'postprofile')]//a[contains(@class, 'username')]",
        ".//*[contains(concat(' ', @class, ' '), ' author ')]//strong//a",
        ".//*[contains(concat(' ', @class, ' '), ' author ')]//strong",
        ".//dl[contains(@class, 'postprofile')]//dt//a",
    ):
        found = el.xpath(xpath)
        for node in found:
            name = node.text_content().strip()
            if name:
                return name
    if author_line is not None:
        m = re.search(r"by\s+(.+?)\s*»", author_line.text_content())
        if m:
            return m[1].strip()
    return ""


def _url_start(url: str | None) -> int | None:
    """The start= offset a phpBB page URL names, if it names one."""
    if url:
        qs = parse_qs(urlparse(url).query)
        if "start" in qs and qs["start"][0].isdigit():
            return int(qs["start"][0])
    return None


def _shown_page_start(doc) -> int:
    """The first post number of a saved page whose URL is unknown, from its pagination."""
    current = doc.xpath(
        "(//*[contains(@class, 'pagination')]//strong[not(ancestor::a)]"
        " | //*[contains(@class, 'pagination')]//li[contains(@class, 'active')]/span)[1]/text()"
    )
    if not current or not current[0].strip().isdigit():
        return 0
    page = int(current[0].strip())
    starts, pages = [], []
    for a in doc.xpath("//*[contains(@class, 'pagination')]//a[@href]"):
        qs = parse_qs(urlparse(a.get("href")).query)
        label = (a.text_content() or "").strip()
        if "start" in qs and qs["start"][0].isdigit() and label.isdigit() and int(label) > 1:
            starts.append(int(qs["start"][0]))
            pages.append(int(label))
    if not starts:
        return 0
    per_page = starts[0] // (pages[0] - 1)
    return (page - 1) * per_page


def _pages(doc, url: str | None, start: int) -> tuple[tuple[str, ...], str | None]:
    """Every page of the thread and this page's own URL, from the pagination links.

    The links, not the URL given, supply the thread's address: a host may paste a link to one
    post (viewtopic.php?p=123), which names no thread.
    """
    if not url:
        return (), None
    links = [urljoin(url, h) for h in doc.xpath("//*[contains(@class, 'pagination')]//a/@href")]
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
