"""XE (XpressEngine) and Rhymix boards: a document and its comments read as one thread.

Both engines wrap the document's text in `div.document_<srl>_<member> .xe_content` and each
comment's in `div.comment_<srl>_<member> .xe_content`, whatever the skin; the author and date
are read from the nearest enclosing block that shows them. The document is number 0; comments
show no number (and every comment page shows the document again), so they are numbered once
the thread's comment pages are read in order.
"""

from __future__ import annotations

import re
from datetime import tzinfo
from urllib.parse import urljoin

from ..posts import Post
from ..times import parse_iso
from .base import ThreadPage
from .markup import (
    PageScheme,
    clean_text,
    paginate,
    select,
    select_one,
    time_from_text,
)

name = "xe"

_SRL = re.compile(r"\b(document|comment)_(\d+)_\d+\b")
_AUTHOR = (".author", ".nick", ".nickname", "a[class^='member_']", ".member", ".writer")
_TIME = (".date", ".time", ".regdate", "time", ".side.fr span")


def detect(doc) -> bool:
    generator = " ".join(doc.xpath("//meta[@name='generator']/@content")).lower()
    if "xpressengine" in generator or "rhymix" in generator:
        return True
    return bool(doc.xpath("//div[contains(@class, 'xe_content')][contains(@class, 'document_')]"))


def parse(doc, url: str | None, tz: tzinfo) -> ThreadPage:
    posts = []
    for content in doc.xpath("//div[contains(@class, 'xe_content')]"):
        m = _SRL.search(content.get("class", ""))
        if not m:
            continue
        kind, srl = m[1], m[2]
        block = content.getparent()
        while block is not None and select_one(block, _AUTHOR) is None:
            block = block.getparent()
        author = clean_text(select_one(block, _AUTHOR)) if block is not None else ""
        time = None
        if block is not None:
            stamp = select(block, "time[datetime]")
            time = parse_iso(stamp[0].get("datetime"), tz) if stamp else None
            shown = select_one(block, _TIME)
            if time is None and shown is not None:
                time = time_from_text(clean_text(shown), tz)
        anchor = f"#comment_{srl}" if kind == "comment" else ""
        posts.append(
            Post.from_element(
                content,
                post_id=f"{kind[0]}{srl}",
                number=0 if kind == "document" else None,
                author=author,
                time=time,
                url=urljoin(url, anchor) if url else None,
            )
        )
    pages, page_url, _ = paginate(doc, url, (PageScheme(r"[?&]cpage=(\d+)"),))
    return ThreadPage(tuple(posts), pages, page_url)
