"""vBulletin 3.8, 4.2 and 5.x."""

from __future__ import annotations

import re
from datetime import tzinfo
from urllib.parse import urljoin

from .base import ThreadPage
from .markup import PageScheme, PostSpec, paginate, read_posts, select

name = "vbulletin"

_V3_ID = re.compile(r"^post(\d+)$")
_V4_ID = re.compile(r"^post_(\d+)$")


def _v3_id(el) -> str | None:
    m = _V3_ID.match(el.get("id", ""))
    return m[1] if m else None


def _v4_id(el) -> str | None:
    m = _V4_ID.match(el.get("id", ""))
    return m[1] if m else None


def _link(el, url: str | None, post_id: str) -> str | None:
    return urljoin(url, f"showthread.php?p={post_id}#post{post_id}") if url else None


V3 = PostSpec(
    container="table[id^='post']",
    post_id=_v3_id,
    body=("div[id^='post_message_']",),
    author=("a.bigusername", ".bigusername"),
    time_text=("td.thead",),
    naive_times_are_utc=False,
    number=("a[id^='postcount']",),
    edited=("td[id^='td_post_'] div.smallfont em",),
    link=_link,
)
V4 = PostSpec(
    container="li.postcontainer, li.postbitlegacy, li.postbit",
    post_id=_v4_id,
    body=("div[id^='post_message_'] > blockquote.postcontent", "div[id^='post_message_']"),
    author=("a.username strong", "a.username", ".username"),
    time_text=(".posthead .date", ".postdate"),
    naive_times_are_utc=False,
    number=("a.postcounter",),
    edited=("blockquote.lastedited", ".lastedited"),
    link=_link,
)
V5 = PostSpec(
    container="li.b-post[data-node-id]",
    post_id=lambda el: el.get("data-node-id"),
    body=(".js-post__content-text", "[itemprop='text']"),
    author=(".author a", "[itemprop='author'] [itemprop='name']", ".b-userinfo__details a"),
    time_attrs=((":self", "data-node-publishdate"), ("time[datetime]", "datetime")),
    number=(".b-post__count",),
    edited=(".b-post__edit", ".js-post__edited"),
    link=lambda el, url, post_id: (
        select(el, ".b-post__count")[0].get("href") if select(el, ".b-post__count") else url
    ),
)
SCHEMES = (PageScheme(r"[?&]page=(\d+)"), PageScheme(r"/page(\d+)(?:[/?#]|$)"))


def _version(doc) -> int:
    generator = " ".join(doc.xpath("//meta[@name='generator']/@content"))
    m = re.search(r"vBulletin\s+(\d)", generator)
    if m:
        return int(m[1])
    if select(doc, "li.b-post[data-node-id]"):
        return 5
    if select(doc, "li.postcontainer, li.postbitlegacy"):
        return 4
    return 3


def detect(doc) -> bool:
    generator = " ".join(doc.xpath("//meta[@name='generator']/@content"))
    if "vbulletin" in generator.lower():
        return True
    return bool(select(doc, "div[id^='post_message_'], li.b-post[data-node-id]"))


def parse(doc, url: str | None, tz: tzinfo) -> ThreadPage:
    spec = {3: V3, 4: V4}.get(_version(doc), V5)
    pages, page_url, _ = paginate(doc, url, SCHEMES)
    return ThreadPage(tuple(read_posts(doc, url, tz, spec)), pages, page_url)
