"""Fetching live threads politely: a bounded pool, a per-host pace, retries, and the page cache.

`Fetcher.thread(url)` returns every post of a thread in order. It reads the first page it is
given, learns the thread's pages from it, and fetches the others concurrently (a pool of
`concurrency` workers, default 3) while a per-host limiter spaces request starts. 429 and 503
answers pause the host for their Retry-After; 5xx answers and timeouts are retried with
exponential back-off and jitter. Every page lands in the cache as it arrives, so a run that dies
half-way resumes where it stopped.
"""

from __future__ import annotations

import copy
import random
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import tzinfo
from email.utils import parsedate_to_datetime
from http.cookiejar import LoadError, MozillaCookieJar
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlparse

from .cache import PageCache, default_cache_path
from .errors import FetchError, SourceError
from .posts import Post
from .times import UTC

if TYPE_CHECKING:
    import httpx

    from .forum import ThreadPage

USER_AGENT = "modtool/0.1 (forum game vote counter)"
_RETRY_STATUS = {429, 500, 502, 503, 504}
_LOGIN_HINTS = ('name="password"', "name='password'", 'type="password"', "type='password'")


@dataclass(frozen=True)
class FetchOptions:
    """How politely and from where to read threads."""

    engine: str | None = None
    tz: tzinfo = UTC
    selectors: Mapping[str, str] | None = None
    concurrency: int = 3
    per_host_interval: float = 0.5  # seconds between request starts to one host
    retries: int = 4
    backoff: float = 1.0  # first retry pause; doubles each time, plus jitter
    offline: bool = False  # never touch the network: the cache or nothing
    refresh: bool = False  # fetch every page again
    max_age: float = 300.0  # a thread checked this recently is read from the cache alone


def make_client(
    transport: httpx.BaseTransport | None = None,
    cookies: httpx.Cookies | None = None,
    headers: Mapping[str, str] | None = None,
    timeout: float = 20.0,
) -> httpx.Client:
    import httpx

    return httpx.Client(
        headers={"User-Agent": USER_AGENT, **(headers or {})},
        cookies=cookies,
        follow_redirects=True,
        timeout=httpx.Timeout(timeout),
        transport=transport,
    )


def load_cookies(path: Path) -> httpx.Cookies:
    """Cookies from a Netscape cookies.txt (as browser extensions export them)."""
    import httpx

    jar = MozillaCookieJar(str(path))
    try:
        jar.load(ignore_discard=True, ignore_expires=True)
    except (OSError, LoadError) as exc:
        raise SourceError(
            f"{path}: not a readable Netscape cookies.txt ({exc.__class__.__name__}); "
            "export the forum's cookies again"
        ) from None
    cookies = httpx.Cookies()
    for cookie in jar:
        cookies.set(cookie.name, cookie.value or "", domain=cookie.domain, path=cookie.path)
    return cookies


def header_pair(text: str) -> tuple[str, str]:
    """ "Name: value" as given on the command line."""
    name, sep, value = text.partition(":")
    if not sep or not name.strip():
        raise SourceError(f"header {name.strip() or text!r} must look like 'Name: value'")
    return name.strip(), value.strip()


class _HostPace:
    """Spaces request starts per host, and holds a host back after a Retry-After."""

    def __init__(
        self, interval: float, sleep: Callable[[float], None], clock: Callable[[], float]
    ) -> None:
        self.interval, self.sleep, self.clock = interval, sleep, clock
        self._next: dict[str, float] = {}
        self._lock = threading.Lock()

    def wait(self, host: str) -> None:
        with self._lock:
            now = self.clock()
            start = max(now, self._next.get(host, now))
            self._next[host] = start + self.interval
        if start > now:
            self.sleep(start - now)

    def hold(self, host: str, seconds: float) -> None:
        with self._lock:
            self._next[host] = max(self._next.get(host, 0.0), self.clock() + seconds)


@dataclass
class FetchReport:
    """What a fetch did: requests sent, pages read from the cache, and problems seen."""

    requests: int = 0
    from_cache: int = 0
    notices: list[str] = field(default_factory=list)


class Fetcher:
    """Reads threads through one client, one cache and one politeness policy."""

    def __init__(
        self,
        client: httpx.Client | Callable[[], httpx.Client] | None,
        cache: PageCache | None = None,
        options: FetchOptions = FetchOptions(),
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        # A callable client is made on the first request: reading only saved pages never
        # imports the HTTP stack.
        self._client, self.cache, self.options = client, cache, options
        self.sleep, self.clock, self.progress = sleep, clock, progress
        self.pace = _HostPace(options.per_host_interval, sleep, clock)
        self.report = FetchReport()
        self._count_lock = threading.Lock()

    @property
    def client(self) -> httpx.Client | None:
        with self._count_lock:
            if callable(self._client) and not hasattr(self._client, "get"):
                self._client = self._client()
        return self._client

    def close(self) -> None:
        if self._client is not None and hasattr(self._client, "close"):
            self._client.close()

    # --- one page ------------------------------------------------------------------------------

    def _get(self, url: str, conditional: bool) -> str:
        """A page's text from the network (stored in the cache), or the cache on a 304."""
        if self.options.offline or self.client is None:
            return self._cached(url)
        cached = self.cache.page(url) if self.cache and conditional else None
        headers = {}
        if cached and cached.etag:
            headers["If-None-Match"] = cached.etag
        if cached and cached.last_modified:
            headers["If-Modified-Since"] = cached.last_modified
        import httpx

        host = urlparse(url).netloc
        delay = self.options.backoff
        for attempt in range(self.options.retries + 1):
            self.pace.wait(host)
            with self._count_lock:
                self.report.requests += 1
            last = attempt == self.options.retries
            try:
                response = self.client.get(url, headers=headers)
            except httpx.TimeoutException:
                if last:
                    raise FetchError(
                        f"{url} timed out {attempt + 1} times; try again later, "
                        "or use --offline to count from the cache"
                    ) from None
                self.sleep(delay + random.uniform(0, delay))
                delay *= 2
                continue
            except httpx.HTTPError as exc:
                raise FetchError(
                    f"could not fetch {url}: {exc}; check the URL and your connection"
                ) from None
            status = response.status_code
            if status == 304 and cached:
                self.cache.touch(url)
                return cached.body
            if status in _RETRY_STATUS and not last:
                wait = _retry_after(response)
                if wait is not None:
                    self.pace.hold(host, wait)  # the whole host waits, not just this worker
                else:
                    self.sleep(delay + random.uniform(0, delay))
                    delay *= 2
                continue
            _raise_for(url, status)
            body = _text(response)
            if self.cache:
                self.cache.store(
                    url, body, response.headers.get("ETag"), response.headers.get("Last-Modified")
                )
            return body
        raise FetchError(f"{url} kept failing; try again later")  # pragma: no cover

    def _cached(self, url: str) -> str:
        page = self.cache.page(url) if self.cache else None
        if page is None:
            raise FetchError(f"{url} is not in the cache; run once without --offline to fetch it")
        with self._count_lock:
            self.report.from_cache += 1
        return page.body

    def _parse(self, body: str, url: str) -> ThreadPage:
        from .forum import parse_page

        o = self.options
        if not o.selectors and _looks_like_login(body):
            raise FetchError(
                f"{url} shows a login form, not the thread: pass --cookies with "
                "your browser's cookies.txt, or save the pages and give the folder"
            )
        return parse_page(body, url, o.engine, o.tz, where=url, selectors=o.selectors)

    def for_source(self, engine: str | None, selectors: Mapping[str, str] | None) -> Fetcher:
        """The same fetcher (client, cache, pace, report) reading with a source's own settings."""
        if engine == self.options.engine and selectors == self.options.selectors:
            return self
        twin = copy.copy(self)
        twin.options = replace(self.options, engine=engine, selectors=selectors)
        return twin

    # --- a thread ------------------------------------------------------------------------

    def thread(self, url: str) -> list[Post]:
        """Every post of the thread `url` belongs to, in thread order, without duplicates."""
        o = self.options
        known = self.cache.thread(url) if self.cache else None
        if known and not o.refresh:
            pages, updated = known
            if o.offline or time.time() - updated < o.max_age:
                return self._posts(pages, {}, fetch=set())
            # Only the last known page can have grown; pages after it are new.
            last = pages[-1]
            last_page = self._parse(self._get(last, conditional=True), last)
            pages = list(last_page.page_urls) or pages
            if last not in pages:
                pages = [*known[0], *(p for p in pages if p not in known[0])]
            fetch = {p for p in pages if p not in known[0]}
            return self._finish(url, pages, {last: last_page}, fetch)
        if o.offline:
            raise FetchError(f"{url} is not in the cache; run once without --offline to fetch it")
        first = self._parse(self._get(url, conditional=not o.refresh), url)
        pages = list(first.page_urls) or [url]
        have = {first.page_url or url: first}
        fetch = {
            p
            for p in pages
            if p not in have and (o.refresh or not (self.cache and self.cache.page(p)))
        }
        return self._finish(url, pages, have, fetch)

    def _finish(
        self, url: str, pages: list[str], have: dict[str, ThreadPage], fetch: set[str]
    ) -> list[Post]:
        posts = self._posts(pages, have, fetch)
        if self.cache:
            self.cache.store_thread([url, pages[0]], pages)
        return posts

    def _posts(self, pages: list[str], have: dict[str, ThreadPage], fetch: set[str]) -> list[Post]:
        """The posts of every page: workers only fetch (I/O), this thread parses as pages come.

        Parsing in the workers would hold each one off its next request for the parse's length.
        """
        failed = threading.Event()

        def load(page_url: str) -> str | None:
            if failed.is_set():
                return None  # another page failed: send nothing more
            try:
                return self._get(page_url, conditional=False)
            except BaseException:
                failed.set()
                raise

        workers = max(1, min(self.options.concurrency, len(fetch) or 1))
        pool = ThreadPoolExecutor(max_workers=workers)
        results: list[ThreadPage] = []
        try:
            futures = {p: pool.submit(load, p) for p in pages if p in fetch and p not in have}
            for done, page_url in enumerate(pages, 1):
                if page_url in have:
                    page = have[page_url]
                elif page_url in futures:
                    page = self._parse(futures[page_url].result(), page_url)
                else:
                    page = self._parse(self._cached(page_url), page_url)
                results.append(page)
                if self.progress:
                    self.progress(done, len(pages))
        except BaseException:
            failed.set()
            pool.shutdown(wait=True, cancel_futures=True)  # a fatal error stops the queue
            raise
        pool.shutdown()
        results = self._refill_short_pages(pages, results)
        posts: list[Post] = []
        seen: set[str] = set()
        for page in results:
            for post in page.posts:
                if post.post_id not in seen:
                    seen.add(post.post_id)
                    posts.append(post)
        return posts

    def _refill_short_pages(self, pages: list[str], results: list[ThreadPage]) -> list[ThreadPage]:
        """A page mid-thread with fewer posts than the first is fetched once more, then reported."""
        if len(results) < 3:
            return results
        per_page = len(results[0].posts)
        for i in range(1, len(results) - 1):
            if len(results[i].posts) >= per_page:
                continue
            if not self.options.offline and self.client is not None:
                results[i] = self._parse(self._get(pages[i], conditional=False), pages[i])
            if len(results[i].posts) < per_page:
                self.report.notices.append(
                    f"{pages[i]} has {len(results[i].posts)} posts where {per_page} were expected; "
                    "some posts may be missing (deleted, or hidden from guests)"
                )
        return results


def _text(response: httpx.Response) -> str:
    """A page's text: the charset the server names, else the page's own declaration."""
    if response.charset_encoding:
        return response.text
    from .forum import decode_page

    return decode_page(response.content)


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("Retry-After", "").strip()
    if not value:
        return None
    if value.replace(".", "", 1).isdigit():
        return min(float(value), 300.0)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, min(300.0, when.timestamp() - time.time()))


def _raise_for(url: str, status: int) -> None:
    if status in (401, 403):
        raise FetchError(
            f"{url} answered {status}: the thread needs a login; pass --cookies "
            "with your browser's cookies.txt, or save the pages and give the folder"
        )
    if status == 404:
        raise FetchError(f"{url} answered 404: check the thread URL")
    if status >= 400:
        raise FetchError(f"{url} answered {status}; try again later")


def _looks_like_login(body: str) -> bool:
    """A page with a password field and nothing shaped like posts is a login wall."""
    head = body[:200_000].lower()
    return any(h in head for h in _LOGIN_HINTS) and not any(m in head for m in _POST_MARKERS)


_POST_MARKERS = (
    'class="post',
    "class='post",
    "messagetext",
    "message--post",
    "postbody",
    "crawler-post",
    "data-pid",
    "forum-post__text",
    "xe_content",
    'id="bo_v"',
    "post_message_",
    "b-post",
)


def fetch_thread(
    url: str,
    client: httpx.Client,
    engine: str | None = None,
    tz: tzinfo = UTC,
    delay: float = 0.5,
    sleep: Callable[[float], None] = time.sleep,
) -> list[Post]:
    """Every post of a thread, without a cache (the simplest use of `Fetcher`)."""
    options = FetchOptions(engine=engine, tz=tz, per_host_interval=delay)
    return Fetcher(client, None, options, sleep=sleep).thread(url)


@contextmanager
def open_fetcher(
    options: FetchOptions = FetchOptions(),
    cache_path: Path | None = None,
    cookies: Path | None = None,
    headers: Mapping[str, str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    transport: httpx.BaseTransport | None = None,
) -> Iterator[Fetcher]:
    """A fetcher with its client and cache, closed on exit. `cache_path` None: the default."""
    cache = PageCache(cache_path or default_cache_path())
    jar = load_cookies(cookies) if cookies else None

    def client() -> httpx.Client:
        return make_client(transport, jar, headers)

    fetcher = Fetcher(None if options.offline else client, cache, options, progress=progress)
    try:
        yield fetcher
    finally:
        fetcher.close()
        cache.close()
