"""DebateArt forum topics (debateart.com), where forum games like seed 003's are played.

No saved page of it is at hand: the selectors come from the site's published class names
(BEM blocks under .forum-topic-show__forum-post); the generic reader backs it up.
"""

from __future__ import annotations

from datetime import tzinfo
from urllib.parse import urljoin

from .base import ThreadPage
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
    first = ((page or 1) - 1) * PER_PAGE + 1
    return ThreadPage(tuple(read_posts(doc, url, tz, DEBATEART, first)), pages, page_url)
