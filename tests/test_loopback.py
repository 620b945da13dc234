"""Fetching a multi-page thread from a loopback server with latency and injected faults,
through the real client, pool, pace, retries and page cache."""

from __future__ import annotations

import shutil
from dataclasses import replace

import httpx
import pytest

from modtool.errors import FetchError, SourceError
from modtool.games import load_game
from modtool.threads.cache import PageCache
from modtool.threads.fetch import Fetcher, FetchOptions, load_cookies, make_client

from .conftest import EXAMPLE
from .forum_server import ForumServer, thread_page

BASE_URL = "https://forum.example.invalid/viewtopic.php?f=1&t=7"
FAST = FetchOptions(per_host_interval=0.0, backoff=0.05, concurrency=3)


def _read(
    server: ForumServer,
    cache: PageCache | None = None,
    options: FetchOptions = FAST,
    url: str | None = None,
    timeout: float = 5.0,
):
    with make_client(timeout=timeout) as client:
        fetcher = Fetcher(client, cache, options)
        posts = fetcher.thread(url or server.url)
    return posts, fetcher.report


def _summary(posts):
    return [(p.post_id, p.number, p.author, p.time, p.text) for p in posts]


def test_faults_and_latency_give_the_same_posts_as_a_clean_run():
    with ForumServer(total=100) as clean_server:
        clean, _ = _read(clean_server)
    faults = {25: [429], 50: [500, 503], 75: ["timeout"]}
    with ForumServer(total=100, latency=0.05, faults=faults) as server:
        flaky, report = _read(server, timeout=1.0)
    assert [p.number for p in clean] == list(range(100))
    assert _summary(flaky) == _summary(clean)
    assert report.requests == 4 + 4  # one retry per injected fault
    assert server.requests[25] == 2 and server.requests[50] == 3 and server.requests[75] == 2


def test_refresh_after_one_new_page_sends_at_most_two_requests(tmp_path):
    cache = PageCache(tmp_path / "pages.sqlite")
    with ForumServer(total=100) as server:
        first, report = _read(server, cache)
        assert report.requests == 4 and len(first) == 100
        server.total = 110  # ten new posts: page 4 grows... no, page 5 (start=100) appears
        again, report = _read(server, cache)
    assert len(again) == 110
    assert [p.number for p in again] == list(range(110))
    assert report.requests <= 2
    assert server.requests[100] == 1 and server.requests[0] == 1  # page 1 never re-fetched


def test_a_recount_soon_after_sends_one_conditional_request(tmp_path):
    cache = PageCache(tmp_path / "pages.sqlite")
    with ForumServer(total=60) as server:
        _read(server, cache)
        before = sum(server.requests.values())
        posts, report = _read(server, cache, FetchOptions(per_host_interval=0.0))
        assert sum(server.requests.values()) == before + 1  # the last page, answered 304
        assert server.conditional == 1
        server.total = 65  # new posts at once: the next count sees them
        grown, _ = _read(server, cache, FetchOptions(per_host_interval=0.0))
    assert report.requests == 1 and len(posts) == 60 and len(grown) == 65


def test_a_post_deleted_on_an_earlier_page_hides_no_other_post(tmp_path):
    # A moderator deletes two posts of page 1 after the thread was cached: every later post
    # moves up, so two posts of page 3 now sit on page 2, whose cached copy lacks them.
    cache = PageCache(tmp_path / "pages.sqlite")
    with ForumServer(total=60) as server:
        _read(server, cache)
        server.deleted = {10, 11}
        again, report = _read(server, cache)
        fresh, _ = _read(server, None)
    assert _summary(again) == _summary(fresh)
    assert 50 in [int(p.text.split()[1]) for p in again] and len(again) == 58
    assert server.requests[0] == 3  # page 1 read again: its posts changed too
    assert report.notes == [
        f"{server.url}: posts moved between pages since the last read (a post deleted or "
        "approved): 2 earlier pages read again"
    ]


def test_a_page_the_cache_lost_is_fetched_again(tmp_path):
    import sqlite3

    path = tmp_path / "pages.sqlite"
    with ForumServer(total=60) as server:
        first, _ = _read(server, PageCache(path))
        with sqlite3.connect(path) as db:  # as a cache written by an older modtool, or pruned
            db.execute("DELETE FROM pages WHERE url LIKE '%start=25%'")
        db.close()
        cache = PageCache(path)
        assert not cache.has(server.url + "&start=25")
        again, _ = _read(server, cache, FetchOptions(per_host_interval=0.0))
    assert _summary(again) == _summary(first)
    assert server.requests[25] == 2 and cache.has(server.url + "&start=25")


def test_offline_says_how_old_the_cached_pages_are(tmp_path):
    cache = PageCache(tmp_path / "pages.sqlite")
    with ForumServer(total=60) as server:
        _read(server, cache)
    posts, report = _read(server, cache, FetchOptions(per_host_interval=0.0, offline=True))
    assert len(posts) == 60
    assert report.notes == [
        f"{server.url}: read from the cache, checked 0 seconds ago (--refresh fetches it again)"
    ]


def test_offline_reads_the_cache_or_says_what_to_do(tmp_path):
    cache = PageCache(tmp_path / "pages.sqlite")
    offline = FetchOptions(offline=True)
    with ForumServer(total=60) as server:
        with pytest.raises(FetchError) as err:
            Fetcher(None, cache, offline).thread(server.url)
        assert str(err.value) == (
            f"{server.url} is not in the cache; run once without --offline to fetch it"
        )
        _read(server, cache)
        before = sum(server.requests.values())
        posts = Fetcher(None, cache, offline).thread(server.url)
        assert sum(server.requests.values()) == before
    assert len(posts) == 60


def test_a_run_that_dies_half_way_resumes_from_the_cache(tmp_path):
    cache = PageCache(tmp_path / "pages.sqlite")
    with ForumServer(total=100, faults={50: [404]}) as server:
        with pytest.raises(FetchError, match="answered 404"):
            _read(server, cache, FetchOptions(per_host_interval=0.0, concurrency=1))
        done = dict(server.requests)
        posts, report = _read(server, cache)
    assert len(posts) == 100
    assert server.requests[25] == done[25]  # fetched before the failure, read from the cache
    assert report.requests == 3  # page 1 (validated: 304), and the two pages never fetched
    assert server.conditional == 1


def test_cookies_from_a_netscape_file_are_sent(tmp_path):
    jar = tmp_path / "cookies.txt"
    jar.write_text(
        "# Netscape HTTP Cookie File\n"
        ".forum.example.invalid\tTRUE\t/\tFALSE\t0\tphpbb3_sid\tsecret-value\n"
    )
    seen = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers.get("Cookie"))
        return httpx.Response(404)

    client = make_client(httpx.MockTransport(handler))
    with pytest.raises(FetchError) as err:
        Fetcher(client, None, FAST, cookies=load_cookies(jar)).thread(
            "https://forum.example.invalid/viewtopic.php?t=1"
        )
    assert seen == ["phpbb3_sid=secret-value"]
    assert "secret-value" not in str(err.value)


def test_a_bad_cookies_file_is_one_line(tmp_path):
    jar = tmp_path / "cookies.txt"
    jar.write_text("not a cookie file\n")
    with pytest.raises(SourceError, match="not a readable Netscape cookies.txt"):
        load_cookies(jar)


def test_a_login_wall_says_how_to_get_past_it():
    page = (
        '<html><body><form action="ucp.php?mode=login"><input name="username">'
        '<input type="password" name="password"></form></body></html>'
    )
    client = make_client(httpx.MockTransport(lambda r: httpx.Response(200, text=page)))
    with pytest.raises(FetchError, match="shows a login form, not the thread: pass --cookies"):
        Fetcher(client, None, FAST).thread("https://forum.example.invalid/viewtopic.php?t=1")


def test_cli_posts_from_the_network_then_offline(tmp_path):
    from typer.testing import CliRunner

    from modtool.cli import app

    cache = tmp_path / "pages.sqlite"
    runner = CliRunner()
    with ForumServer(total=30) as server:
        online = runner.invoke(app, ["posts", server.url, "--json", "--cache", str(cache)])
        fetched = sum(server.requests.values())
        offline = runner.invoke(
            app, ["posts", server.url, "--json", "--offline", "--cache", str(cache)]
        )
        assert sum(server.requests.values()) == fetched
    assert online.exit_code == 0 and offline.exit_code == 0
    assert online.stdout == offline.stdout
    assert len(online.stdout.splitlines()) == 30
    assert offline.stderr.startswith(f"Note: {server.url}: read from the cache, checked")
    assert oct(cache.stat().st_mode & 0o777) == "0o600"


def test_a_short_page_mid_thread_is_fetched_again_then_reported():
    with ForumServer(total=100, faults={25: ["short"]}) as server:
        posts, report = _read(server)
    assert len(posts) == 100 and report.notices == []
    assert server.requests[25] == 2
    with ForumServer(total=100, faults={25: ["short", "short"]}) as server:
        posts, report = _read(server)
    assert len(posts) == 90
    assert report.notices == [
        f"{server.url}&start=25 has 15 posts where 25 were expected; some posts may be missing "
        "(deleted, or hidden from guests)"
    ]


def _redirecting(seen):
    """/old -> /viewtopic (same origin) -> a page; /away -> another site."""
    page = '<html><head><meta name="generator" content="phpBB"></head><body></body></html>'

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append((request.url.host, request.url.path, request.headers.get("Cookie")))
        if request.url.path == "/old":
            return httpx.Response(301, headers={"Location": "/viewtopic.php?t=1"})
        if request.url.path == "/away":
            return httpx.Response(302, headers={"Location": "https://elsewhere.invalid/x"})
        return httpx.Response(404)

    return handler, page


def test_host_headers_follow_a_redirect_within_the_forum_only():
    seen = []
    handler, _ = _redirecting(seen)
    fetcher = Fetcher(
        make_client(httpx.MockTransport(handler)), None, FAST, headers={"Cookie": "sid=s3cret"}
    )
    with pytest.raises(FetchError):
        fetcher.thread("https://forum.example.invalid/old")
    assert seen == [
        ("forum.example.invalid", "/old", "sid=s3cret"),
        ("forum.example.invalid", "/viewtopic.php", "sid=s3cret"),  # same origin: kept
    ]
    seen.clear()
    with pytest.raises(FetchError):
        fetcher.thread("https://forum.example.invalid/away")
    assert seen == [
        ("forum.example.invalid", "/away", "sid=s3cret"),
        ("elsewhere.invalid", "/x", None),  # another site: never sent
    ]


@pytest.mark.parametrize(
    ("header", "shown"),
    [
        ("Cookie sid=s3cret", None),  # no colon
        (": s3cret", None),
        ("Bad Name: s3cret", None),
        ("Cookie: 세션=s3cret", "'Cookie'"),  # not latin-1: HTTP cannot carry it
        ("Cookie: a\x00s3cret", "'Cookie'"),
    ],
)
def test_a_malformed_header_is_refused_without_its_value(header, shown):
    from modtool.threads.fetch import header_pair

    with pytest.raises(SourceError) as err:
        header_pair(header)
    assert "s3cret" not in str(err.value)
    assert shown is None or shown in str(err.value)


def test_a_login_in_the_url_goes_to_its_origin_only_and_is_never_printed():
    """user:password@ in a thread URL: sent as Basic auth to that origin (and on a redirect
    within it), never to another site, and never in an error, a post's URL or the cache."""
    seen = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append((request.url.host, request.url.path, request.headers.get("Authorization")))
        assert request.url.userinfo == b""  # the URL on the wire carries no login
        if request.url.path == "/old":
            return httpx.Response(301, headers={"Location": "/viewtopic.php?t=1"})
        if request.url.path == "/away":
            return httpx.Response(302, headers={"Location": "https://elsewhere.invalid/x"})
        return httpx.Response(404)

    fetcher = Fetcher(make_client(httpx.MockTransport(handler)), None, FAST)
    basic = "Basic Ym9iOnMzY3JldA=="  # bob:s3cret
    with pytest.raises(FetchError) as caught:
        fetcher.thread("https://bob:s3cret@forum.example.invalid/old")
    assert "s3cret" not in str(caught.value) and "bob" not in str(caught.value)
    assert "https://forum.example.invalid/old" in str(caught.value)
    assert seen == [
        ("forum.example.invalid", "/old", basic),
        ("forum.example.invalid", "/viewtopic.php", basic),  # same origin: kept
    ]
    seen.clear()
    with pytest.raises(FetchError):
        fetcher.thread("https://bob:s3cret@forum.example.invalid/away")
    assert seen == [
        ("forum.example.invalid", "/away", basic),
        ("elsewhere.invalid", "/x", None),  # another site: never sent
    ]


def test_a_login_in_the_url_reads_a_thread_and_is_kept_out_of_the_posts():
    with ForumServer(total=30) as server:
        host = server.url.split("://", 1)[1]
        posts, _ = _read(server, url=f"http://bob:s3cret@{host}")
    assert len(posts) == 30
    assert all("s3cret" not in (p.url or "") and "bob@" not in (p.url or "") for p in posts)


def test_a_shift_is_seen_past_the_opening_post_a_comment_page_repeats():
    # XE and Gnuboard show the document (number 0) atop every comment page: the page's own
    # first post is the first comment
    from modtool.threads.fetch import _first_id
    from modtool.threads.forum.base import ThreadPage
    from modtool.threads.posts import Post

    def post(post_id, number):
        return Post(post_id, number, "a", None, None, "x")

    assert _first_id(ThreadPage((post("d1", 0), post("c7", None), post("c8", None)))) == "c7"
    assert _first_id(ThreadPage((post("p25", 25), post("p26", 26)))) == "p25"
    assert _first_id(ThreadPage((post("d1", 0),))) is None


def test_a_short_url_redirecting_to_another_folder_reads_the_pages_from_where_they_are(tmp_path):
    """/t/7 -> /forum/viewtopic.php?f=1&t=7: the page's links ("./viewtopic.php?...&start=25")
    are relative to the page's own URL, as a browser reads them, not to the URL asked for."""
    seen = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.path)
        if request.url.path == "/t/7":
            return httpx.Response(301, headers={"Location": "/forum/viewtopic.php?f=1&t=7"})
        if request.url.path == "/forum/viewtopic.php":
            return httpx.Response(
                200, text=thread_page(int(request.url.params.get("start", 0)), 75)
            )
        return httpx.Response(404)

    cache = PageCache(tmp_path / "pages.sqlite")
    fetcher = Fetcher(make_client(httpx.MockTransport(handler)), cache, FAST)
    posts = fetcher.thread("https://forum.example.invalid/t/7")
    assert len(posts) == 75 and set(seen) == {"/t/7", "/forum/viewtopic.php"}
    assert posts[30].url.startswith("https://forum.example.invalid/forum/viewtopic.php?p=1030")
    offline = Fetcher(None, cache, replace(FAST, offline=True)).thread(
        "https://forum.example.invalid/t/7"
    )
    assert _summary(offline) == _summary(posts)


@pytest.mark.parametrize(
    ("start", "moved_to", "kept"),
    [
        ("http://forum.example.invalid", "https://forum.example.invalid", True),  # http -> https
        ("https://www.forum.example.invalid", "https://forum.example.invalid", True),
        ("https://forum.example.invalid", "https://www.forum.example.invalid", True),
        ("https://forum.example.invalid:8443", "https://forum.example.invalid", True),
        ("https://forum.example.invalid", "http://forum.example.invalid", False),  # downgrade
        ("https://forum.example.invalid", "https://forum.example.invalid.evil.invalid", False),
        ("https://forum.example.invalid", "https://other.example.invalid", False),
    ],
)
def test_cookies_and_headers_follow_a_move_within_the_site_only(tmp_path, start, moved_to, kept):
    """The forum moved (http to https, www. or not) and needs the host's session: the cookies
    exported from the browser and the --header reach it there; another site never gets them."""
    seen = []
    login = b'<html><body><form><input type="password" name="password"></form></body></html>'

    def handler(request: httpx.Request) -> httpx.Response:
        here = f"{request.url.scheme}://{request.url.netloc.decode()}"
        seen.append((here, request.headers.get("Cookie"), request.headers.get("X-Token")))
        if here == start:
            path = request.url.raw_path.decode()
            return httpx.Response(301, headers={"Location": moved_to + path})
        if "sess=1" not in (request.headers.get("Cookie") or ""):
            return httpx.Response(200, content=login)
        offset = int(request.url.params.get("start", 0))
        return httpx.Response(200, text=thread_page(offset, 75))

    cookies = tmp_path / "cookies.txt"
    cookies.write_text(
        "# Netscape HTTP Cookie File\n"
        ".forum.example.invalid\tTRUE\t/\tFALSE\t0\tsess\t1\n"
        ".other.example.invalid\tTRUE\t/\tFALSE\t0\tsess\t1\n"
        ".evil.invalid\tTRUE\t/\tFALSE\t0\tsess\t1\n"
    )
    fetcher = Fetcher(
        make_client(httpx.MockTransport(handler)),
        None,
        FAST,
        headers={"X-Token": "t0ken"},
        cookies=load_cookies(cookies),
    )
    url = start + "/viewtopic.php?f=1&t=7"
    if kept:
        assert len(fetcher.thread(url)) == 75
        assert all(c == "sess=1" and t == "t0ken" for _, c, t in seen), seen
    else:
        with pytest.raises(FetchError, match="shows a login form"):
            fetcher.thread(url)
        assert [(c, t) for h, c, t in seen if h == moved_to] == [(None, None)]


@pytest.mark.parametrize("pasted", [" {}", "{} ", "{}\n", "{}\r\n", "\t{}  "])
def test_a_url_pasted_with_spaces_or_a_line_end_is_the_url(pasted):
    """Spaces around a pasted URL are not part of it (they were sent as %20, and a leading
    one was refused as 'missing an http:// or https:// protocol')."""
    sent = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(str(request.url))
        if "%20" in str(request.url) or "%0A" in str(request.url).upper():
            return httpx.Response(404)
        return httpx.Response(200, text=thread_page(int(request.url.params.get("start", 0)), 60))

    fetcher = Fetcher(make_client(httpx.MockTransport(handler)), None, FAST)
    assert len(fetcher.thread(pasted.format(BASE_URL))) == 60
    assert sent[0] == BASE_URL


def test_a_game_source_url_with_spaces_around_it_is_the_url(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    setup = game / "game.toml"
    pasted = f" {BASE_URL} \\n"  # TOML's escape: a line end pasted with the URL
    setup.write_text(setup.read_text().replace('path = "thread.jsonl"', f'url = "{pasted}"'))
    assert load_game(game).sources[0].location == BASE_URL


def _waiting_fetcher(answers: list[httpx.Response], say: bool = True):
    """A fetcher on a fake clock: what it slept and said, and answers given in turn (then
    the thread's pages)."""
    now, slept, said = [0.0], [], []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    def handler(request: httpx.Request) -> httpx.Response:
        if answers:
            return answers.pop(0)
        return httpx.Response(200, text=thread_page(int(request.url.params.get("start", 0)), 50))

    client = make_client(httpx.MockTransport(handler))
    fetcher = Fetcher(client, None, FAST, sleep=sleep, clock=lambda: now[0])
    if say:
        fetcher.say = said.append
    return fetcher, slept, said


def test_a_long_retry_after_stops_the_run_saying_how_long_the_forum_asks_to_wait():
    busy = [httpx.Response(503, headers={"Retry-After": "3600"}) for _ in range(5)]
    fetcher, slept, said = _waiting_fetcher(busy, say=False)
    with pytest.raises(FetchError, match=r"answered 503 and asks to wait 1 hour \(Retry-After\)"):
        fetcher.thread(BASE_URL)
    assert sum(slept) == 0  # no silent 20 minutes of waiting


def test_a_pause_the_forum_asks_for_is_said_as_it_begins():
    fetcher, slept, said = _waiting_fetcher([httpx.Response(429, headers={"Retry-After": "30"})])
    assert len(fetcher.thread(BASE_URL)) == 50
    assert said == ["forum.example.invalid asks to wait 30 seconds (Retry-After); waiting"]
    assert 30 <= sum(slept) < 31


def test_an_empty_page_is_fetched_once_more_then_said_as_the_forums_fault():
    empty = [httpx.Response(200, content=b"")]
    fetcher, _, _ = _waiting_fetcher(empty)
    assert len(fetcher.thread(BASE_URL)) == 50  # asked again: the forum's answer was whole
    fetcher, _, _ = _waiting_fetcher([httpx.Response(200, content=b"") for _ in range(5)])
    with pytest.raises(FetchError) as err:
        fetcher.thread(BASE_URL)
    assert "the forum sent an empty page (2 tries); try again later" in str(err.value)
    assert "save the thread page" not in str(err.value)


CHALLENGE = """<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title></head>
<body><h2 id="challenge-running">Checking if the site connection is secure</h2>
<form id="challenge-form" action="/viewtopic.php?t=7&amp;__cf_chl_f_tk=abc" method="POST"></form>
<script>window._cf_chl_opt={cType: 'managed'};</script></body></html>"""
MUST_LOG_IN = """<html><head><title>Game thread</title></head><body>
<div class="header"><a href="/login">Log in</a> | <a href="/register">Register</a></div>
<div class="blockMessage"><p>You must be logged-in to do that.</p>
<p>The board requires you to be registered and logged in to view this forum.</p></div>
</body></html>"""


@pytest.mark.parametrize(
    ("answer", "says"),
    [
        (httpx.Response(200, text=CHALLENGE), "shows a browser check"),
        (
            httpx.Response(403, text=CHALLENGE, headers={"cf-mitigated": "challenge"}),
            "shows a browser check",
        ),
        (httpx.Response(503, text=CHALLENGE), "shows a browser check"),  # not retried
        (httpx.Response(200, text=MUST_LOG_IN), "asks to log in before it shows the thread"),
    ],
)
def test_a_browser_check_or_a_log_in_page_is_said_as_what_it_is(answer, says):
    fetcher, slept, _ = _waiting_fetcher([answer] * 5)
    with pytest.raises(FetchError) as err:
        fetcher.thread(BASE_URL)
    assert says in str(err.value) and "pass --cookies" in str(err.value)
    assert "selectors" not in str(err.value) and sum(slept) == 0


def test_a_page_redirected_to_a_login_form_is_named_by_the_page_asked_for():
    login = '<html><body><form><input type="password" name="password"></form></body></html>'

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/ucp.php":
            return httpx.Response(200, text=login)
        if request.url.params.get("start"):  # guests see page 1 only
            return httpx.Response(302, headers={"Location": "/ucp.php?mode=login"})
        return httpx.Response(200, text=thread_page(0, 75))

    fetcher = Fetcher(make_client(httpx.MockTransport(handler)), None, FAST)
    with pytest.raises(FetchError, match=r"t=7&start=25 shows a login form"):
        fetcher.thread(BASE_URL)


def test_a_thread_a_page_shorter_since_the_last_read_is_read_again_from_its_first_page(tmp_path):
    # posts deleted: the last known page (start=50) shows none now; every page may have moved
    cache = PageCache(tmp_path / "pages.sqlite")
    with ForumServer(total=60) as server:
        _read(server, cache)
        server.deleted = set(range(40, 60))
        again, report = _read(server, cache)
        fresh, _ = _read(server, None)
    assert _summary(again) == _summary(fresh) and len(again) == 40
    assert report.notes == [
        f"{server.url}: its last known page shows no posts now (posts deleted): "
        "every page read again"
    ]
