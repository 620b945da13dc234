"""Live fetching against httpx.MockTransport: pagination, retries and one-line errors."""

from __future__ import annotations

import httpx
import pytest

from modtool.errors import FetchError
from modtool.threads.fetch import fetch_thread, make_client

from .forum_server import PER_PAGE, thread_page

BASE = "https://forum.example.invalid/viewtopic.php?f=1&t=7"


def _server(total: int, faults: dict[int, list[httpx.Response]] | None = None, log=None):
    faults = {k: list(v) for k, v in (faults or {}).items()}

    def handler(request: httpx.Request) -> httpx.Response:
        start = int(request.url.params.get("start", 0))
        if "p" in request.url.params:  # a link to one post: phpBB serves the page holding it
            start = (int(request.url.params["p"]) - 1000) // PER_PAGE * PER_PAGE
        if log is not None:
            log.append(start)
        if faults.get(start):
            return faults[start].pop(0)
        return httpx.Response(200, text=thread_page(start, total))

    return make_client(httpx.MockTransport(handler))


def _fetch(client, url=BASE):
    return fetch_thread(url, client, delay=0, sleep=lambda s: None)


def test_every_page_in_order_without_duplicates():
    log: list[int] = []
    posts = _fetch(_server(80, log=log))
    assert [p.number for p in posts] == list(range(80))
    assert len({p.post_id for p in posts}) == 80
    assert sorted(log) == [0, 25, 50, 75]


def test_the_pasted_page_is_not_fetched_twice():
    log: list[int] = []
    posts = _fetch(_server(80, log=log), BASE + "&sid=0123abcd")
    assert len(posts) == 80
    assert sorted(log) == [0, 25, 50, 75]


def test_a_link_to_one_post_reads_the_whole_thread():
    log: list[int] = []
    posts = _fetch(_server(80, log=log), "https://forum.example.invalid/viewtopic.php?p=1030#p1030")
    assert [p.number for p in posts] == list(range(80))
    assert sorted(log) == [0, 25, 50, 75]


def test_starting_from_a_later_page_still_reads_the_whole_thread():
    posts = _fetch(_server(60), BASE + "&start=25")
    assert [p.number for p in posts] == list(range(60))


def test_retries_give_the_same_posts_as_a_clean_run():
    clean = _fetch(_server(60))
    faults = {
        25: [httpx.Response(429, headers={"Retry-After": "1"}), httpx.Response(500)],
        50: [httpx.Response(503)],
    }
    flaky = _fetch(_server(60, faults))
    assert [p.to_json() for p in flaky] == [p.to_json() for p in clean]


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (404, f"{BASE} answered 404: check the thread URL"),
        (
            403,
            f"{BASE} answered 403: the thread needs a login; pass --cookies with your browser's "
            "cookies.txt, or save the pages and give the folder",
        ),
    ],
)
def test_http_errors_are_one_line(status, message):
    client = make_client(httpx.MockTransport(lambda r: httpx.Response(status)))
    with pytest.raises(FetchError) as err:
        _fetch(client)
    assert str(err.value) == message


def test_a_page_that_keeps_failing_stops_with_a_message():
    client = make_client(httpx.MockTransport(lambda r: httpx.Response(502)))
    with pytest.raises(FetchError, match="answered 502; try again later"):
        _fetch(client)
