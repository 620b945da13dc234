"""NodeBB: server-rendered topic pages and the /api/topic/... JSON."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import tzinfo
from urllib.parse import urljoin, urlparse

from ..posts import Post
from .base import PageUrls, ThreadPage
from .markup import PageScheme, PostSpec, epoch, paginate, read_posts, select

name = "nodebb"


def _link(el, url: str | None, post_id: str) -> str | None:
    return urljoin(url, f"/post/{post_id}") if url else None


NODEBB = PostSpec(
    container="li[component='post'][data-pid]",
    post_id=lambda el: el.get("data-pid"),
    author_attr="data-username",
    body=("[component='post/content']",),
    author=("[component='post/header'] a[href*='/user/']",),
    time_attrs=((":self", "data-timestamp"), (".timeago", "title")),
    number_attr=("data-index", 1),  # NodeBB counts from 0; its URLs and readers from 1
    edited=("[component='post/editor']@data-editor",),
    link=_link,
)
SCHEMES = (PageScheme(r"[?&]page=(\d+)"),)


def detect(doc) -> bool:
    site = doc.xpath("//meta[@property='og:site_name']/@content")
    return bool(select(doc, "li[component='post'][data-pid]")) or "NodeBB" in site


def parse(doc, url: str | None, tz: tzinfo) -> ThreadPage:
    pages, page_url, _ = paginate(
        doc, url, SCHEMES, "[component='pagination'] a[href], .pagination a[href]"
    )
    return ThreadPage(tuple(read_posts(doc, url, tz, NODEBB)), pages, page_url)


def detect_json(obj) -> bool:
    return isinstance(obj, dict) and isinstance(obj.get("posts"), list) and "tid" in obj


def parse_json(obj: dict, url: str | None, tz: tzinfo) -> ThreadPage:
    posts = []
    for p in obj["posts"]:
        user = p.get("user") or {}
        index = p.get("index")
        posts.append(
            Post(
                post_id=str(p["pid"]),
                number=index + 1 if isinstance(index, int) else None,
                author=user.get("username") or user.get("displayname") or "",
                time=epoch(p.get("timestamp")),
                url=urljoin(url, f"/post/{p['pid']}") if url else None,
                html=p.get("content") or "",
                edited=bool(p.get("edited")),
            )
        )
    pages: Sequence[str] = ()
    page_url = url
    pagination = obj.get("pagination") or {}
    count = pagination.get("pageCount")
    if url and isinstance(count, int) and count > 0:
        base = urlparse(url)._replace(query="", fragment="").geturl()
        pages = PageUrls(f"{base}?page={{}}".format, range(1, count + 1))
        page_url = f"{base}?page={pagination.get('currentPage') or 1}"
    return ThreadPage(tuple(posts), pages, page_url)
