"""Simple Machines Forum 2.0 and 2.1 (2.0 checked on a saved page, 2.1 on a page shaped on
its Display.template.php: see tests/fixtures/synthetic/README.md)."""

from __future__ import annotations

import re
from datetime import tzinfo
from urllib.parse import urljoin

from .base import ThreadPage
from .markup import PageScheme, PostSpec, paginate, read_posts, select

name = "smf"

_ID = re.compile(r"msg_?(\d+)")


def _post_id(el) -> str | None:
    for node in select(el, "div.inner[id^='msg_'], [id^='msg_']"):
        m = _ID.search(node.get("id", ""))
        if m:
            return m[1]
    m = _ID.search(el.get("id", ""))
    return m[1] if m else None


def _link(el, url: str | None, post_id: str) -> str | None:
    return urljoin(url, f"index.php?msg={post_id}") if url else None


SMF = PostSpec(
    container="div.post_wrapper",
    post_id=_post_id,
    body=("div.post div.inner", "div.inner", "div.post"),
    author=(".poster h4 a", ".poster h4"),
    time_text=(".keyinfo .smalltext", ".postinfo .smalltext", ".keyinfo"),
    naive_times_are_utc=False,
    number=(".keyinfo .smalltext", ".page_number", ".keyinfo"),
    edited=(".modified",),
    link=_link,
)
# topic,123.25.html and index.php?topic=123.25 both count posts, not pages.
SCHEMES = (
    PageScheme(r"topic,\d+\.(\d+)\.html", offset=True, first=0),
    PageScheme(r"[?&;]topic=\d+\.(\d+)", offset=True, first=0),
)


def detect(doc) -> bool:
    if select(doc, "div.post_wrapper div.inner[id^='msg_']"):
        return True
    return any("smf" in (s or "").lower() for s in doc.xpath("//script/text()")[:20]) and bool(
        select(doc, "div.post_wrapper")
    )


def parse(doc, url: str | None, tz: tzinfo) -> ThreadPage:
    pages, page_url, offset = paginate(
        doc, url, SCHEMES, ".pagelinks a[href], .pagesection a[href]"
    )
    posts = read_posts(doc, url, tz, SMF, offset or 0)
    return ThreadPage(tuple(posts), pages, page_url)
