"""Gnuboard (그누보드 4/5): a board post and its comments (댓글) read as one thread.

The post is number 0 and its comments follow in page order, the way Korean forum games are
run: the host opens a post and players reply in its comments. Comments show no number, so
they are numbered once the thread's comment pages are read in order. Dates appear as
"26-11-29 13:05" (year first, two digits) or in a <time datetime> attribute.
"""

from __future__ import annotations

import re
from datetime import tzinfo
from urllib.parse import urljoin

from .base import ThreadPage
from .markup import PageScheme, PostSpec, paginate, read_posts, select

name = "gnuboard"

_AUTHOR = (".sv_member", ".sv_guest", ".member", ".sv_wrap a")
_TIME_TEXT = (".if_date", ".bo_vc_hdinfo", ".sv_date", ".datetime", ".date")


def _comment_id(el) -> str | None:
    m = re.match(r"c_(\d+)$", el.get("id", ""))
    return f"c{m[1]}" if m else None


ARTICLE = PostSpec(
    container="article#bo_v",
    post_id=lambda el: "post",
    body=("#bo_v_con", "#bo_v_atc"),
    author=tuple(f"#bo_v_info {a}" for a in _AUTHOR) + _AUTHOR,
    # Only the post's own header: in some skins the comments sit inside article#bo_v.
    time_attrs=(("#bo_v_info time[datetime]", "datetime"),),
    # Gnuboard 5.0's basic skin marks the date with no class: "작성일 <strong>26-11-29 13:05".
    time_text=(*(f"#bo_v_info {t}" for t in _TIME_TEXT), "#bo_v_info"),
    naive_times_are_utc=False,
)
COMMENT = PostSpec(
    container="#bo_vc article[id^='c_']",
    post_id=_comment_id,
    body=(".cmt_contents", "div[id^='save_comment_']", "p"),
    author=_AUTHOR,
    time_attrs=(("time[datetime]", "datetime"),),
    time_text=_TIME_TEXT,
    naive_times_are_utc=False,
    link=lambda el, url, post_id: urljoin(url, f"#c_{post_id[1:]}") if url else None,
)
SCHEMES = (PageScheme(r"[?&]cpage=(\d+)"),)  # comment pages, where a board splits them


def detect(doc) -> bool:
    return bool(select(doc, "article#bo_v, #bo_vc"))


def parse(doc, url: str | None, tz: tzinfo) -> ThreadPage:
    article = read_posts(doc, url, tz, ARTICLE, 0)
    comments = read_posts(doc, url, tz, COMMENT, None)
    pages, page_url, _ = paginate(doc, url, SCHEMES)
    return ThreadPage(tuple(article + comments), pages, page_url)
