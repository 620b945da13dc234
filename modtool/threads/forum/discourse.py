"""Discourse: the JSON API (/t/{id}.json, /t/{id}/posts.json?post_ids[]=…) and crawler HTML."""

from __future__ import annotations

import re
from datetime import tzinfo
from urllib.parse import urlencode, urljoin, urlparse

from ..posts import Post
from ..times import parse_iso
from .base import ThreadPage
from .markup import PageScheme, PostSpec, clean_text, paginate, read_posts, select

name = "discourse"

CHUNK = 20  # post ids per /posts.json request, as Discourse's own client asks


def _crawler_id(el) -> str | None:
    m = re.search(r"post_(\d+)", el.get("id", ""))
    if m:
        return m[1]
    position = select(el, "[itemprop='position']")
    return clean_text(position[0]).lstrip("#") if position else None


CRAWLER = PostSpec(
    container="div.crawler-post",
    post_id=_crawler_id,
    body=("[itemprop='articleBody']", "[itemprop='text']", "div.post"),
    author=(".creator [itemprop='name']", ".creator a", "[itemprop='author'] [itemprop='name']"),
    time_attrs=(
        ("time[itemprop='datePublished']", "datetime"),
        ("[itemprop='datePublished']", "content"),
    ),
    number=("[itemprop='position']", "span.post-count"),
)
SCHEMES = (PageScheme(r"[?&]page=(\d+)"),)


def detect(doc) -> bool:
    generator = " ".join(doc.xpath("//meta[@name='generator']/@content"))
    return "discourse" in generator.lower() or bool(select(doc, "div.crawler-post"))


def parse(doc, url: str | None, tz: tzinfo) -> ThreadPage:
    pages, page_url, _ = paginate(
        doc, url, SCHEMES, "div[role='navigation'] a[href], a[rel='next'], a[rel='prev']"
    )
    return ThreadPage(tuple(read_posts(doc, url, tz, CRAWLER)), pages, page_url)


def detect_json(obj) -> bool:
    return isinstance(obj, dict) and (
        isinstance((obj.get("post_stream") or {}).get("posts"), list)
        or isinstance(obj.get("latest_posts"), list)
    )


def parse_json(obj: dict, url: str | None, tz: tzinfo) -> ThreadPage:
    stream = obj.get("post_stream") or {}
    raw_posts = stream.get("posts") or obj.get("latest_posts") or []
    posts = tuple(_post(p, url, tz) for p in raw_posts)
    topic_id = obj.get("id") or (raw_posts[0].get("topic_id") if raw_posts else None)
    ids = stream.get("stream") or []
    if not url or not topic_id or not ids:
        return ThreadPage(posts, (url,) if url else (), url)
    # A topic's first answer holds ~20 posts; the rest are fetched by id, CHUNK at a time.
    have = {int(p.post_id) for p in posts}
    missing = [i for i in ids if int(i) not in have]
    base = urljoin(url, f"/t/{topic_id}/posts.json")
    own = urlparse(url)._replace(fragment="").geturl()
    chunks = tuple(
        f"{base}?" + urlencode([("post_ids[]", i) for i in missing[n : n + CHUNK]])
        for n in range(0, len(missing), CHUNK)
    )
    return ThreadPage(posts, (own, *chunks), own)


def _post(p: dict, url: str | None, tz: tzinfo) -> Post:
    number = p.get("post_number")
    slug, topic = p.get("topic_slug") or "-", p.get("topic_id")
    link = urljoin(url, f"/t/{slug}/{topic}/{number}") if url and topic and number else None
    created = p.get("created_at")
    return Post(
        post_id=str(p["id"]),
        number=int(number) if number is not None else None,
        author=p.get("username") or p.get("name") or "",
        time=parse_iso(created) if created else None,
        url=link,
        html=p.get("cooked") or "",
        edited=(p.get("version") or 1) > 1,  # Discourse bumps the version on every edit
    )
