"""DebateArt forum topics (debateart.com), where forum games are played.

No saved page of it is at hand: the selectors come from the site's published class names
(BEM blocks under .forum-topic-show__forum-post) as public user scripts written against the
live site read them (the name inside the username link, padded with spaces; "#N" anchors; the
topic's post count in .forum-topic-show__total-posts-number, 25 posts a page). The generic
reader backs it up.
"""

from __future__ import annotations

import re
from datetime import tzinfo
from functools import partial
from urllib.parse import parse_qsl, urlencode, urljoin, urlparse, urlunparse

from .base import PageUrls, ThreadPage
from .markup import PageScheme, PostSpec, around, clean_text, paginate, read_posts, select

name = "debateart"

_P = ".forum-topic-show__forum-post"
PER_PAGE = 25


def _post_id(el) -> str | None:
    anchor = select(el, f"{_P}__anchor")
    if anchor:
        return (anchor[0].get("id") or anchor[0].get("name") or clean_text(anchor[0])).lstrip("#")
    return el.get("id")


DEBATEART = PostSpec(
    container=around(f"{_P}__text", f"{_P}__author-username-link"),
    post_id=_post_id,
    body=(f"{_P}__text",),
    author=(f"{_P}__author-username-link",),
    time_attrs=(
        ("time[datetime]", "datetime"),
        ("[data-timestamp]", "data-timestamp"),
        (f"{_P}__date[title]", "title"),
    ),
    time_text=(f"{_P}__date", f"{_P}__created-at", "time"),
    naive_times_are_utc=True,
    number=(f"{_P}__anchor",),
    edited=(f"{_P}__edited",),
    link=lambda el, url, post_id: urljoin(url, f"#{post_id}") if url else None,
)
SCHEMES = (PageScheme(r"[?&]page=(\d+)"),)


def detect(doc) -> bool:
    return bool(select(doc, f"{_P}__text"))


def parse(doc, url: str | None, tz: tzinfo) -> ThreadPage:
    pages, page_url, page = paginate(doc, url, SCHEMES)
    counted = _page_count(doc)
    if url and counted > len(pages):  # the pager shows a window of pages; the count is whole
        pages = PageUrls(partial(_with_page, url), range(1, counted + 1))
    first = ((page or 1) - 1) * PER_PAGE + 1
    return ThreadPage(tuple(read_posts(doc, url, tz, DEBATEART, first)), pages, page_url)


def _page_count(doc) -> int:
    """Pages the topic has, from its post count ("1,234 posts"), or 0 when it shows none."""
    shown = select(doc, ".forum-topic-show__total-posts-number")
    digits = re.sub(r"\D", "", clean_text(shown[0])) if shown else ""
    return -(-int(digits) // PER_PAGE) if digits else 0


def _with_page(url: str, page: int) -> str:
    parts = urlparse(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "page"] + [("page", str(page))]
    return urlunparse(parts._replace(query=urlencode(query), fragment=""))
