"""Reading a long thread costs the same per post as reading a short one: counted in work done
(Python function calls), never in time, so the test holds on a busy machine."""

from __future__ import annotations

import sys

from modtool.threads.cache import PageCache
from modtool.threads.fetch import Fetcher, FetchOptions
from modtool.threads.forum.base import PageUrls
from tests.forum_server import PER_PAGE, thread_page

URL = "http://forum.invalid/viewtopic.php?f=1&t=7"


def _cached_thread(tmp_path, pages: int) -> PageCache:
    total = pages * PER_PAGE
    cache = PageCache(tmp_path / f"{pages}.sqlite")
    urls = [URL if s == 0 else f"{URL}&start={s}" for s in range(0, total, PER_PAGE)]
    for url, start in zip(urls, range(0, total, PER_PAGE), strict=True):
        cache.store(url, thread_page(start, total, window=2), None, None)
    cache.store_thread([URL], urls)
    return cache


def _calls_per_post(cache: PageCache) -> float:
    fetcher = Fetcher(None, cache, FetchOptions(offline=True))
    calls = 0

    def count(frame, event, arg) -> None:
        nonlocal calls
        calls += 1

    sys.setprofile(count)
    try:
        posts = fetcher.thread(URL)
    finally:
        sys.setprofile(None)
    return calls / len(posts)


def test_reading_1000_cached_pages_costs_per_post_at_most_1_3_times_100(tmp_path):
    small = _calls_per_post(_cached_thread(tmp_path, 100))
    large = _calls_per_post(_cached_thread(tmp_path, 1000))
    assert large / small <= 1.3, (small, large)


def test_a_page_makes_only_the_page_urls_asked_for():
    made = []

    def make(n: int) -> str:
        made.append(n)
        return f"{URL}&start={n}"

    pages = PageUrls(make, range(0, 100_000, 25))
    assert len(pages) == 4000 and not made
    assert pages[-1] == f"{URL}&start=99975" and made == [99975]
    assert pages[1:3] == (f"{URL}&start=25", f"{URL}&start=50")
    assert PageUrls(make, range(0, 50, 25)) == (URL + "&start=0", URL + "&start=25")
