"""Fetching live threads politely: a bounded pool, a per-host pace, retries, and the page cache.

`Fetcher.thread(url)` returns every post of a thread in order. It reads the first page it is
given, learns the thread's pages from it, and fetches the others concurrently (a pool of
`concurrency` workers, default 3) while a per-host limiter spaces request starts. 429 and 503
answers pause the host for their Retry-After (said as the pause begins; one longer than
`max_wait` stops the run, saying how long the forum asks to wait); 5xx answers and timeouts
are retried with exponential back-off and jitter, and so is every fault of the connection
itself (a reset, a server closing early, a body cut short, a stalled read). A page is read
only whole: its bytes
must reach the Content-Length the server announced, an HTML document must reach its closing
tag, and no page may pass `max_page_bytes`. Every page lands in the cache as it arrives, so a
run that dies half-way resumes where it stopped.

Headers and cookies the host gives (`--header`, `--cookies`) go only to the origins of the
threads being read, and to those a thread's redirects reach within its site (http to https,
www. or not), never to another site.
"""

from __future__ import annotations

import copy
import random
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import tzinfo
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urljoin, urlparse

from ..errors import FetchError, SourceError
from .cache import PageCache, default_cache_path
from .forum import ThreadPage, decode_page, parse_page
from .frozen import frozen
from .patterns import lazy
from .posts import Post
from .times import UTC

if TYPE_CHECKING:
    from http.cookiejar import MozillaCookieJar

    import httpx

USER_AGENT = "modtool/0.1 (forum game vote counter)"
_RETRY_STATUS = {429, 500, 502, 503, 504}
_LOGIN_HINTS = ('name="password"', "name='password'", 'type="password"', "type='password'")


@frozen(slots=False)
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
    max_page_bytes: int = 20_000_000  # larger answers are refused, not read into memory
    max_redirects: int = 10
    max_wait: float = 300.0  # a longer Retry-After stops the run, saying when to try again


def make_client(
    transport: httpx.BaseTransport | None = None, timeout: float = 20.0
) -> httpx.Client:
    """The HTTP client: it follows no redirects and keeps no cookies itself, so that the
    fetcher decides what each hop of a redirect is sent (see `Fetcher._send`)."""
    import httpx

    return httpx.Client(
        headers={"User-Agent": USER_AGENT},
        follow_redirects=False,
        timeout=httpx.Timeout(timeout),
        transport=transport,
    )


def load_cookies(path: Path) -> MozillaCookieJar:
    """Cookies from a Netscape cookies.txt (as browser extensions export them)."""
    from http.cookiejar import LoadError, MozillaCookieJar  # with urllib and email: only here

    jar = MozillaCookieJar(str(path))
    try:
        jar.load(ignore_discard=True, ignore_expires=True)
    except (OSError, LoadError, UnicodeDecodeError) as exc:
        raise SourceError(
            f"{path}: not a readable Netscape cookies.txt ({exc.__class__.__name__}); "
            "export the forum's cookies again"
        ) from None
    return jar


def cookie_header(jar: MozillaCookieJar, url: str) -> str | None:
    """The Cookie header a browser would send to `url` from this jar: the cookies whose domain
    and path cover it (secure ones over https only). Expiry is not judged: exports write 0 for
    a session cookie, and the forum is the judge of a stale one."""
    parts = urlparse(url)
    host, path = (parts.hostname or "").lower(), parts.path or "/"
    found = []
    for c in jar:
        domain = (c.domain or "").lstrip(".").lower()
        if not (host == domain or host.endswith("." + domain)):
            continue
        if not path.startswith(c.path or "/") or (c.secure and parts.scheme != "https"):
            continue
        found.append(f"{c.name}={c.value or ''}")
    return "; ".join(found) or None


_TOKEN = lazy(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")


def header_pair(text: str) -> tuple[str, str]:
    """ "Name: value" as given on the command line. The value is never shown in an error: it
    is often a secret (a session cookie, a token)."""
    name, sep, value = text.partition(":")
    name = name.strip()
    if not sep or not name or not _TOKEN.match(name):
        raise SourceError(
            "a --header must look like 'Name: value' with a name of letters, digits and "
            "dashes (the value is not shown here)"
        )
    value = value.strip()
    try:
        value.encode("latin-1")
    except UnicodeEncodeError:
        raise SourceError(
            f"the --header {name!r} has characters an HTTP header cannot carry; "
            "give its value as plain ASCII (the value is not shown here)"
        ) from None
    if any(ch in value for ch in "\r\n\0"):
        raise SourceError(f"the --header {name!r} has a line break in its value")
    return name, value


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
    notes: list[str] = field(default_factory=list)  # facts worth a line, not warnings
    # (page URL, Doubts) of the pages a reader was unsure of (generic, or an adapter)
    doubts: list[tuple[str, object]] = field(default_factory=list)


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
        headers: Mapping[str, str] | None = None,
        cookies: MozillaCookieJar | None = None,
        say: Callable[[str], None] | None = None,
    ) -> None:
        # A callable client is made on the first request: reading only saved pages never
        # imports the HTTP stack.
        self._client, self.cache, self.options = client, cache, options
        self.private_headers = dict(headers or {})  # the host's: only to the threads' origins
        self.cookies = cookies
        self.origins: set[tuple[str, str]] = set()
        # user:password from a thread URL, by origin: the URL itself is kept (and printed,
        # cached, linked) without them, and they are sent only to that origin
        self.logins: dict[tuple[str, str], str] = {}
        self.sleep, self.clock, self.progress = sleep, clock, progress
        self.say = say  # a line for the person waiting, while it happens (a long pause)
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

    def page(self, url: str) -> str:
        """One page's text (the cache first when offline), for `posts --explain`."""
        url, login = split_login(url.strip())
        if login:
            self.origins.add(_origin(url))
            self.logins[_origin(url)] = login
        return self._get(url, conditional=False)[0]

    def _get(self, url: str, conditional: bool) -> tuple[str, str]:
        """A page's text from the network (stored in the cache under `url`), or the cache on
        a 304; and the URL it came from after any redirect, which its links are relative to."""
        if self.options.offline or self.client is None:
            return self._cached(url), url
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
            last = attempt == self.options.retries
            try:
                status, body, response_headers, where = self._send(url, headers)
            except _Retry as fault:
                if last or (fault.once and attempt >= 1):
                    raise FetchError(
                        f"{url}: {fault} ({attempt + 1} tries); try again later, "
                        "or use --offline to count from the cache"
                    ) from None
                self.sleep(delay + random.uniform(0, delay))
                delay *= 2
                continue
            except httpx.HTTPError as exc:
                raise FetchError(
                    f"could not fetch {url}: {exc}; check the URL and your connection"
                ) from None
            if status in (403, 429, 503) and (
                response_headers.get("cf-mitigated") == "challenge" or _looks_like_challenge(body)
            ):
                raise FetchError(_challenge(url))  # no wait or retry gets past it
            if status == 304 and cached:
                self.cache.touch(url)
                self._say_if_not_kept()
                return cached.body, where
            if status in _RETRY_STATUS and not last:
                wait = _retry_after(response_headers)
                if wait is not None:
                    self._wait_as_asked(url, status, wait)
                    self.pace.hold(host, wait)  # the whole host waits, not just this worker
                else:
                    self.sleep(delay + random.uniform(0, delay))
                    delay *= 2
                continue
            _raise_for(url, status)
            if self.cache:
                self.cache.store(
                    url, body, response_headers.get("ETag"), response_headers.get("Last-Modified")
                )
                self._say_if_not_kept()
            return body, where
        raise FetchError(f"{url} kept failing; try again later")  # pragma: no cover

    def _send(self, url: str, headers: dict[str, str]) -> tuple[int, str, httpx.Headers, str]:
        """One GET, following redirects by hand: the host's headers and cookies go only to
        the origins of the threads being read. The status, text, headers and final URL.
        Raises _Retry for a fault worth trying again."""
        import httpx

        for _ in range(self.options.max_redirects + 1):
            with self._count_lock:
                self.report.requests += 1
            sent = dict(headers)
            if _origin(url) in self.origins:
                sent.update(self.private_headers)
                if _origin(url) in self.logins:
                    sent["Authorization"] = self.logins[_origin(url)]
                cookie = cookie_header(self.cookies, url) if self.cookies else None
                if cookie:
                    sent["Cookie"] = cookie
            try:
                with self.client.stream("GET", url, headers=sent) as response:
                    location = response.headers.get("Location")
                    if response.is_redirect and location:
                        url = self._redirected(url, urljoin(url, location))
                        continue
                    data = self._read_capped(url, response)
                    return response.status_code, _text(response, data), response.headers, url
            except (httpx.UnsupportedProtocol, httpx.InvalidURL) as exc:
                raise FetchError(f"{url} is not a URL modtool can fetch ({exc})") from None
            except httpx.TimeoutException:
                raise _Retry("timed out") from None
            except httpx.TransportError as exc:
                # a reset, a closed connection, a body cut short by the server
                raise _Retry(f"the connection failed ({exc.__class__.__name__})") from None
        raise FetchError(f"{url}: more than {self.options.max_redirects} redirects")

    def _wait_as_asked(self, url: str, status: int, seconds: float) -> None:
        """A Retry-After: longer than max_wait stops the run, saying when to come back; a
        pause of more than a few seconds is said as it begins (else a run seems to hang)."""
        if seconds > self.options.max_wait:
            raise FetchError(
                f"{url} answered {status} and asks to wait {_age(seconds)} (Retry-After); "
                "try again after that, or use --offline to count from the cache"
            )
        if seconds >= 5 and self.say is not None:
            self.say(f"{urlparse(url).netloc} asks to wait {_age(seconds)} (Retry-After); waiting")

    def _say_if_not_kept(self) -> None:
        """One note, the first time the cache could not keep a page (it is still read)."""
        if self.cache is None or self.cache.not_kept is None:
            return
        note = (
            f"--cache {self.cache.path} cannot be written ({self.cache.not_kept}): pages are "
            "read from it, but what was fetched is not kept; give a --cache you may write to, "
            "or fix its permissions"
        )
        with self._count_lock:
            if note not in self.report.notes:
                self.report.notes.append(note)

    def _redirected(self, old: str, new: str) -> str:
        """Where a redirect leads. A thread's origin moving within its site (http to https, or
        www.forum.example to forum.example) takes the host's headers and cookies along, as the
        browser the host exported them from would send them; another site never gets them."""
        if urlparse(new).scheme not in ("http", "https"):
            raise FetchError(f"{new}: a redirect left http(s); check the URL")
        with self._count_lock:
            if _origin(old) in self.origins and _same_site(old, new):
                self.origins.add(_origin(new))
                login = self.logins.get(_origin(old))
                if login and _host(old) == _host(new):  # user:password: the same host only
                    self.logins.setdefault(_origin(new), login)
        return new

    def _read_capped(self, url: str, response: httpx.Response) -> bytes:
        """The whole body, or a refusal: never more than max_page_bytes, never cut short."""
        limit = self.options.max_page_bytes
        declared = response.headers.get("Content-Length")
        if declared and declared.isdigit() and int(declared) > limit:
            raise FetchError(_too_big(url, limit))
        chunks, size = [], 0
        for chunk in response.iter_bytes():
            size += len(chunk)
            if size > limit:
                raise FetchError(_too_big(url, limit))
            chunks.append(chunk)
        data = b"".join(chunks)
        if declared and declared.isdigit() and len(data) < int(declared):
            raise _Retry(f"the body stopped at {len(data)} of {declared} bytes")
        if response.status_code == 200 and not data.strip():  # an overloaded forum's answer
            raise _Retry("the forum sent an empty page", once=True)
        if response.status_code == 200 and looks_cut_short(data):
            raise _Retry("the page ends before its closing </html>")
        return data

    def _cached(self, url: str) -> str:
        page = self.cache.page(url) if self.cache else None
        if page is None:
            raise FetchError(f"{url} is not in the cache; run once without --offline to fetch it")
        with self._count_lock:
            self.report.from_cache += 1
        return page.body

    def _parse(self, body: str, url: str, asked: str | None = None) -> ThreadPage:
        """A page read with its links relative to `url`, where it came from; errors and
        doubts name the page `asked` for (a redirect to a login form names the thread's page)."""
        o = self.options
        shown = asked or url
        if not o.selectors and _looks_like_login(body):
            raise FetchError(
                f"{shown} shows a login form, not the thread: pass --cookies with "
                "your browser's cookies.txt, or save the pages and give the folder"
            )
        try:
            page = parse_page(body, url, o.engine, o.tz, where=shown, selectors=o.selectors)
        except SourceError:
            if not o.selectors:  # the reader's advice (selectors) is wrong for a wall
                _refuse_a_wall(shown, body)
            raise
        if page.doubts is not None and not page.doubts.sure:
            with self._count_lock:
                self.report.doubts.append((shown, page.doubts))
        return page

    def for_source(self, engine: str | None, selectors: Mapping[str, str] | None) -> Fetcher:
        """The same fetcher (client, cache, pace, report) reading with a source's own settings."""
        if engine == self.options.engine and selectors == self.options.selectors:
            return self
        twin = copy.copy(self)
        twin.options = replace(self.options, engine=engine, selectors=selectors)
        return twin

    # --- a thread ------------------------------------------------------------------------

    def thread(self, url: str) -> list[Post]:
        """Every post of the thread `url` belongs to, in thread order, without duplicates.
        Spaces and line ends around the URL (pasted with it) are not part of it."""
        o = self.options
        url = url.strip()
        try:
            parts = urlparse(url)
            parts.port  # noqa: B018 - a bad port only shows when asked for
        except ValueError:
            parts = None
        if parts is None or parts.scheme not in ("http", "https") or not parts.netloc:
            raise SourceError(f"{url}: not an http(s) URL; give the thread's web address")
        url, login = split_login(url)
        self.origins.add(_origin(url))
        if login:
            self.logins[_origin(url)] = login
        known = self.cache.thread(url) if self.cache else None
        if known and not o.refresh:
            pages, updated = known
            if o.offline:
                self.report.notes.append(
                    f"{url}: read from the cache, checked {_age(time.time() - updated)} ago "
                    "(--refresh fetches it again)"
                )
                return self._posts(pages, {}, fetch=set())
            # However recent the cache, the last page is asked for again with a conditional
            # request (a 304 costs the forum next to nothing), so new posts are never hidden.
            # Only the last known page can have grown; pages after it are new.
            last = pages[-1]
            before = self._parse(self._cached(last), last) if self.cache.has(last) else None
            try:
                last_page = self._parse(*self._get(last, conditional=True), asked=last)
            except FetchError:
                raise  # the forum's answer (a login form, a status): not the thread's shape
            except SourceError:
                if len(pages) == 1:
                    raise
                # the last known page shows no posts now: posts were deleted and the thread
                # is a page shorter; every page may have moved, so all are read again
                self.report.notes.append(
                    f"{url}: its last known page shows no posts now (posts deleted): "
                    "every page read again"
                )
                return self._from_first_page(url, again=True)
            pages = list(last_page.page_urls) or pages
            if last not in pages:
                pages = [*known[0], *(p for p in pages if p not in known[0])]
            have = {last: last_page}
            if before is not None and _first_id(before) != _first_id(last_page):
                self._read_moved(url, pages[: pages.index(last)] if last in pages else [], have)
            # New pages, and any page the cache lost, are fetched.
            fetch = {p for p in pages if p not in known[0] or not self.cache.has(p)}
            return self._finish(url, pages, have, fetch)
        if o.offline:
            raise FetchError(f"{url} is not in the cache; run once without --offline to fetch it")
        return self._from_first_page(url, again=o.refresh)

    def _from_first_page(self, url: str, again: bool) -> list[Post]:
        """The thread read from its first page on; `again`: every page fetched, none taken
        from the cache."""
        body, where = self._get(url, conditional=not again)
        first = self._parse(body, where, asked=url)  # links relative to where it came from
        name = first.page_url or where
        if self.cache and name != url:
            # The thread's page list names the first page by its own URL ("?page=1", the URL
            # a short one redirected to): the page is cached under that name too, so a later
            # --offline run finds it.
            self.cache.store(name, body, None, None)
            self._say_if_not_kept()
        pages = list(first.page_urls) or [name]
        have = {name: first}
        fetch = {
            p for p in pages if p not in have and (again or not (self.cache and self.cache.has(p)))
        }
        return self._finish(url, pages, have, fetch)

    def _read_moved(self, url: str, earlier: list[str], have: dict[str, ThreadPage]) -> None:
        """The last page starts at another post than when it was cached: a post deleted (or
        approved late) on an earlier page moved every post after it, so the cached copies of
        the pages between are stale, and a post that moved onto one of them is in no copy.
        They are read again from the last back, up to the first that has not changed."""
        read = 0
        for page_url in reversed(earlier):
            cached = (
                self._parse(self._cached(page_url), page_url) if self.cache.has(page_url) else None
            )
            fresh = self._parse(*self._get(page_url, conditional=False), asked=page_url)
            have[page_url] = fresh
            read += 1
            if cached is not None and [p.post_id for p in cached.posts] == [
                p.post_id for p in fresh.posts
            ]:
                break  # the pages before it are as they were
        if read:
            self.report.notes.append(
                f"{url}: posts moved between pages since the last read (a post deleted or "
                f"approved): {read} earlier page{'s' if read != 1 else ''} read again"
            )

    def _finish(
        self, url: str, pages: list[str], have: dict[str, ThreadPage], fetch: set[str]
    ) -> list[Post]:
        posts = self._posts(pages, have, fetch)
        if self.cache:
            self.cache.store_thread([url, pages[0]], pages)
            self._say_if_not_kept()
        return posts

    def _posts(self, pages: list[str], have: dict[str, ThreadPage], fetch: set[str]) -> list[Post]:
        """The posts of every page: workers only fetch (I/O), this thread parses as pages come.

        Parsing in the workers would hold each one off its next request for the parse's length.
        """
        failed = threading.Event()

        def load(page_url: str) -> tuple[str, str] | None:
            if failed.is_set():
                return None  # another page failed: send nothing more
            try:
                return self._get(page_url, conditional=False)
            except BaseException:
                failed.set()
                raise

        workers = max(1, min(self.options.concurrency, len(fetch) or 1))
        from concurrent.futures import ThreadPoolExecutor  # reading the cache alone needs none

        pool = ThreadPoolExecutor(max_workers=workers)
        results: list[ThreadPage] = []
        try:
            futures = {p: pool.submit(load, p) for p in pages if p in fetch and p not in have}
            for done, page_url in enumerate(pages, 1):
                if page_url in have:
                    page = have[page_url]
                elif page_url in futures:
                    page = self._parse(*futures[page_url].result(), asked=page_url)
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
                results[i] = self._parse(*self._get(pages[i], conditional=False), asked=pages[i])
            if len(results[i].posts) < per_page:
                self.report.notices.append(
                    f"{pages[i]} has {len(results[i].posts)} posts where {per_page} were expected; "
                    "some posts may be missing (deleted, or hidden from guests)"
                )
        return results


def _first_id(page: ThreadPage) -> str | None:
    """The page's first post, past the thread's opening post, which XE and Gnuboard show
    again at the top of every comment page."""
    return next((p.post_id for p in page.posts if p.number != 0), None)


def _age(seconds: float) -> str:
    """ "40 seconds", "3 minutes", "5 hours", "2 days"."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            n = int(seconds // size)
            return f"{n} {unit}{'s' if n != 1 else ''}"
    n = max(int(seconds), 0)
    return f"{n} second{'s' if n != 1 else ''}"


class _Retry(Exception):
    """A fault of the connection or the transfer: worth the same request again (`once`: only
    once, as an empty page may be all the forum ever sends)."""

    def __init__(self, message: str, once: bool = False) -> None:
        super().__init__(message)
        self.once = once


def _origin(url: str) -> tuple[str, str]:
    parts = urlparse(url)
    return parts.scheme, parts.netloc.rpartition("@")[2].lower()


def _host(url: str) -> str:
    return (urlparse(url).hostname or "").lower()


def _same_site(old: str, new: str) -> bool:
    """Whether a redirect stays on the forum's site: the same host (another port, or http to
    https, as a browser's cookies ignore both), or the host with or without "www.". A move
    from https back to http is not: what was sent encrypted is not sent in the clear."""
    if urlparse(old).scheme == "https" and urlparse(new).scheme == "http":
        return False
    return _host(old).removeprefix("www.") == _host(new).removeprefix("www.")


def split_login(url: str) -> tuple[str, str | None]:
    """A URL without its user:password, and the HTTP Basic `Authorization` value they make."""
    parts = urlparse(url)
    if "@" not in parts.netloc:
        return url, None
    import base64

    userinfo, _, host = parts.netloc.rpartition("@")
    user, _, password = userinfo.partition(":")
    pair = f"{unquote(user)}:{unquote(password)}".encode()
    return parts._replace(netloc=host).geturl(), "Basic " + base64.b64encode(pair).decode()


def _too_big(url: str, limit: int) -> str:
    return (
        f"{url} is larger than {limit // 1_000_000} MB, more than any thread page; "
        "check the URL (it may be a file, not a page)"
    )


_HTML_START = lazy(rb"^\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html)\b", re.I | re.S)
_HTML_END = lazy(rb"</(?:html|body)\s*>", re.I)


def looks_cut_short(data: bytes) -> bool:
    """An HTML document that never reaches </body> or </html>: the transfer stopped early.
    (JSON answers and page fragments are not judged.)"""
    return bool(_HTML_START.match(data[:4096])) and not _HTML_END.search(data[-65536:])


def _text(response: httpx.Response, data: bytes) -> str:
    """A page's text as a browser reads it: a byte-order mark, else the charset the server
    names, else the page's own declaration, else detection (`charsets.decode_page`)."""
    return decode_page(data, response.charset_encoding)


def _retry_after(headers: Mapping[str, str]) -> float | None:
    value = headers.get("Retry-After", "").strip()
    if not value:
        return None
    if value.replace(".", "", 1).isdigit():
        return float(value)
    from email.utils import parsedate_to_datetime

    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


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


# A browser check (Cloudflare's "Just a moment...") in place of the page
_CHALLENGE_HINTS = (
    "_cf_chl_opt",
    "cf-chl-",
    "/cdn-cgi/challenge-platform/",
    "<title>just a moment...</title>",
    "checking your browser before accessing",
    "checking if the site connection is secure",
)
# A forum telling a guest to log in, with no login form on the page
_LOGIN_WORDS = lazy(
    r"\b(?:you must be (?:registered and )?logged[ -]in|you need to (?:be logged in|log in)"
    r"|must be (?:registered and )?logged[ -]in to (?:view|read|see)"
    r"|(?:please )?log ?in to (?:view|read|see) (?:this|the) (?:topic|thread|forum|board))",
    re.I,
)


def _looks_like_challenge(body: str) -> bool:
    head = body[:200_000].lower()
    return any(h in head for h in _CHALLENGE_HINTS)


def _challenge(url: str) -> str:
    return (
        f"{url}: the forum shows a browser check (such as Cloudflare's 'Just a moment...'), "
        "not the thread: open the thread in your browser, then pass --cookies with its "
        "cookies.txt, or save the pages and give the folder"
    )


def _refuse_a_wall(url: str, body: str) -> None:
    """A page that could not be read as a thread: a browser check or a 'you must be logged
    in' page is said as what it is, with the way past it."""
    if _looks_like_challenge(body):
        raise FetchError(_challenge(url))
    if _LOGIN_WORDS.search(body[:200_000]):
        raise FetchError(
            f"{url}: the forum asks to log in before it shows the thread: pass --cookies "
            "with your browser's cookies.txt, or save the pages and give the folder"
        )


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
    say: Callable[[str], None] | None = None,
) -> Iterator[Fetcher]:
    """A fetcher with its client and cache, closed on exit. `cache_path` None: the default."""
    jar = load_cookies(cookies) if cookies else None
    cache = PageCache(cache_path or default_cache_path())

    def client() -> httpx.Client:
        return make_client(transport)

    fetcher = Fetcher(
        None if options.offline else client,
        cache,
        options,
        progress=progress,
        headers=headers,
        cookies=jar,
        say=say,
    )
    try:
        yield fetcher
    finally:
        fetcher.close()
        cache.close()
