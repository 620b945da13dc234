"""A host's own selectors, for the rare site where neither an adapter nor the generic reader works.

In game.toml:

    [[sources]]
    url = "https://…"
    selectors = { post = "div.msg", body = ".msg-text", author = ".msg-user", time = ".msg-date" }

`post`, `body` and `author` are required; `time`, `number` and `edited` are optional.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import tzinfo

from cssselect import SelectorError

from ...errors import SourceError
from ..selectors import SELECTOR_KEYS
from .base import ThreadPage
from .markup import PageScheme, PostSpec, paginate, read_posts

name = "custom"
_NO_ID = "-"
KEYS = SELECTOR_KEYS
_SCHEMES = (
    PageScheme(r"[?&]page=(\d+)"),
    PageScheme(r"/page-?(\d+)(?:[/?#]|$)"),
    PageScheme(r"[?&]start=(\d+)", offset=True, first=0),
)


def spec(selectors: Mapping[str, str]) -> PostSpec:
    """A PostSpec from a host's selectors; SourceError names a missing or unknown key."""
    unknown = set(selectors) - set(KEYS)
    if unknown:
        raise SourceError(f"unknown selector {sorted(unknown)[0]!r}; use {', '.join(KEYS)}")
    missing = [k for k in ("post", "body", "author") if not selectors.get(k)]
    if missing:
        raise SourceError(f"selectors need {', '.join(missing)} (CSS selectors)")
    time = selectors.get("time")
    return PostSpec(
        container=selectors["post"],
        post_id=lambda el: el.get("id") or el.get("data-id") or el.get("data-pid") or _NO_ID,
        body=(selectors["body"],),
        author=(selectors["author"],),
        time_attrs=((time, "datetime"), (time, "data-time"), (time, "title")) if time else (),
        time_text=(time,) if time else (),
        naive_times_are_utc=False,
        number=(selectors["number"],) if selectors.get("number") else (),
        edited=(selectors["edited"],) if selectors.get("edited") else (),
    )


def parse(doc, url: str | None, tz: tzinfo, selectors: Mapping[str, str]) -> ThreadPage:
    try:
        posts = read_posts(doc, url, tz, spec(selectors))
    except SelectorError as exc:
        raise SourceError(f"a selector in game.toml is not valid CSS ({exc})") from None
    except RecursionError:
        raise SourceError(
            "a selector in game.toml is nested too deeply (brackets in brackets); simplify it"
        ) from None
    # Posts without an id of their own are numbered in page order.
    pages, page_url, _ = paginate(doc, url, _SCHEMES)
    posts = [p if p.post_id != _NO_ID else _with_id(p, page_url) for p in posts]
    return ThreadPage(tuple(posts), pages, page_url)


def _with_id(post, page_url: str | None):
    return replace(post, post_id=f"{page_url or ''}#{post.number}")
