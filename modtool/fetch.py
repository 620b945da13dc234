"""Fetching live thread pages: one polite client, retries on 429/5xx, one-line errors."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import tzinfo

import httpx

from .errors import FetchError
from .forum import ThreadPage, decode_page, parse_page
from .posts import Post
from .times import UTC

USER_AGENT = "modtool/0.1 (forum game vote counter)"


def make_client(transport: httpx.BaseTransport | None = None) -> httpx.Client:
    return httpx.Client(
        headers={"User-Agent": USER_AGENT},
        follow_redirects=True,
        timeout=httpx.Timeout(20.0),
        transport=transport,
    )


def get_page(
    client: httpx.Client, url: str, retries: int = 3, sleep: Callable[[float], None] = time.sleep
) -> str:
    """One page's text; retries 429/5xx and timeouts, honouring Retry-After."""
    delay = 1.0
    for attempt in range(retries + 1):
        try:
            response = client.get(url)
        except httpx.TimeoutException:
            if attempt == retries:
                raise FetchError(
                    f"timed out fetching {url}; try again later or use --offline"
                ) from None
            sleep(delay)
            delay *= 2
            continue
        except httpx.HTTPError as exc:
            raise FetchError(
                f"could not fetch {url}: {exc}; check the URL and your connection"
            ) from None
        if response.status_code in (429, 500, 502, 503, 504) and attempt < retries:
            sleep(_retry_after(response) or delay)
            delay *= 2
            continue
        if response.status_code in (401, 403):
            raise FetchError(
                f"{url} answered {response.status_code}: the thread needs a login; "
                "save the pages from your browser and pass the folder instead"
            )
        if response.status_code == 404:
            raise FetchError(f"{url} answered 404: check the thread URL")
        if response.status_code >= 400:
            raise FetchError(f"{url} answered {response.status_code}; try again later")
        return decode_page(response.content)
    raise FetchError(f"{url} kept failing; try again later")  # pragma: no cover


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("Retry-After", "")
    return min(float(value), 120.0) if value.replace(".", "", 1).isdigit() else None


def fetch_thread(
    url: str,
    client: httpx.Client,
    engine: str | None = None,
    tz: tzinfo = UTC,
    delay: float = 1.0,
    sleep: Callable[[float], None] = time.sleep,
) -> list[Post]:
    """Every post of a thread, page by page, starting from any page's URL."""
    first: ThreadPage = parse_page(get_page(client, url, sleep=sleep), url, engine, tz, where=url)
    pages = list(first.page_urls) or [url]
    posts: list[Post] = []
    seen: set[str] = set()
    for page_url in pages:
        if page_url in (first.page_url, url):
            page = first  # already fetched: the page the host pasted
        else:
            sleep(delay)
            page = parse_page(
                get_page(client, page_url, sleep=sleep), page_url, engine, tz, where=page_url
            )
        for post in page.posts:
            if post.post_id not in seen:
                seen.add(post.post_id)
                posts.append(post)
    posts.sort(key=lambda p: (p.number is None, p.number or 0))
    return posts
