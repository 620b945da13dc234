"""XenForo 1.x and 2.x."""

from __future__ import annotations

import re
from datetime import tzinfo
from urllib.parse import urljoin

from .base import ThreadPage
from .markup import PageScheme, PostSpec, paginate, read_posts, select

name = "xenforo"

_ID = re.compile(r"post-(\d+)")


def _post_id(attr: str):
    def read(el) -> str | None:
        m = _ID.search(el.get(attr, ""))
        return m[1] if m else None

    return read


def _link(el, url: str | None, post_id: str) -> str | None:
    return urljoin(url, f"posts/{post_id}/") if url else None


XF1 = PostSpec(
    container="li.message[id^='post-']",
    post_id=_post_id("id"),
    author_attr="data-author",
    body=("blockquote.messageText", ".messageContent article"),
    author=(".username",),
    # The post's own date is its permalink's; an edited post's "Last edited:" date (.editDate)
    # comes before it in the message.
    time_attrs=(
        (".datePermalink abbr.DateTime", "data-time"),
        (".datePermalink span.DateTime", "title"),
        ("abbr.DateTime", "data-time"),
        ("span.DateTime", "title"),
    ),
    time_text=(".datePermalink .DateTime", ".DateTime"),
    number=(".postNumber",),
    edited=(".editDate",),
    link=_link,
)
XF2 = PostSpec(
    container="article.message--post",
    post_id=_post_id("data-content"),
    author_attr="data-author",
    body=(".message-body .bbWrapper", ".bbWrapper"),
    author=(".message-name .username", ".username"),
    time_attrs=(("time.u-dt", "datetime"), ("time.u-dt", "data-time")),
    number=(".message-attribution-opposite li:last-child a",),
    edited=(".message-lastEdit",),
    link=_link,
)
SCHEMES = (PageScheme(r"/page-(\d+)(?:[/?#]|$)"), PageScheme(r"[?&]page=(\d+)"))


def detect(doc) -> bool:
    root_id = doc.get("id", "")
    if root_id in ("XenForo", "XF"):
        return True
    return bool(select(doc, "li.message[data-author], article.message--post"))


def parse(doc, url: str | None, tz: tzinfo) -> ThreadPage:
    spec = XF2 if select(doc, "article.message--post") else XF1
    pages, page_url, _ = paginate(doc, url, SCHEMES, ".PageNav a[href], .pageNav a[href]")
    return ThreadPage(tuple(read_posts(doc, url, tz, spec)), pages, page_url)
