"""The generic reader's pages named by their neighbours (rel="next" and rel="prev"), and a
post id that names a post ("post-7"): what Misago's thread pages needed (tests/test_live_misago.py
reads the real engine)."""

from __future__ import annotations

import lxml.html
import pytest

from modtool.threads.forum import generic
from modtool.threads.times import UTC

T = "http://f.example/t/mafia-12/1"


PAGES = {f"{T}/2/": 2, f"{T}/5/": 5, f"{T}/": None, "http://f.example/u/alice/2/": None}


@pytest.mark.parametrize(
    ("page", "following", "numbers"),
    [
        (f"{T}/", f"{T}/2/", PAGES),  # page 2 adds the number that page 1 shows none of
        (f"{T}/2/", f"{T}/3/", PAGES),  # one run of digits goes up by one
        (
            "http://f.example/thread-9-1.html",  # wherever the number sits in the URL
            "http://f.example/thread-9-2.html",
            {"http://f.example/thread-9-7.html": 7, "http://f.example/thread-8-7.html": None},
        ),
        (f"{T}/", f"{T}/3/", None),  # page 3 does not follow page 1
        (f"{T}/2/", f"{T}/4/", None),
        (f"{T}/", "http://f.example/t/other/7/", None),
        (f"{T}/", f"{T}/2/extra", None),
    ],
)
def test_page_scheme_between(page, following, numbers):
    scheme = generic.page_scheme_between(page, following)
    if numbers is None:
        assert scheme is None
    else:
        assert {url: scheme.number(url) for url in numbers} == numbers


def _page(own: str, prev: str | None, nxt: str | None, first_id: int) -> str:
    near = "".join(
        f'<link rel="{rel}" href="{href}">' for rel, href in (("prev", prev), ("next", nxt)) if href
    )
    posts = "".join(
        f'<li id="post-{i}" class="post"><div class="side"><a class="item-title" '
        f'href="/u/player{i}/{i}/">player{i}</a></div><div class="heading"><a href="/t/mafia-12/1/'
        f'post/{i}/"><time datetime="2026-10-31T{9 + i:02d}:00:00+00:00">Oct. 31</time></a>'
        f'</div><div class="post-body"><p>message number {i} of the thread</p></div></li>'
        for i in range(first_id, first_id + 3)
    )
    last = '<a title="Go to last page" href="/t/mafia-12/1/3/">last</a>'
    first = '<a title="Go to first page" href="/t/mafia-12/1/">first</a>'
    return f"<html><head>{near}</head><body>{first}{last}<ul>{posts}</ul></body></html>"


@pytest.mark.parametrize(
    ("own", "prev", "nxt"),
    [
        (f"{T}/", None, "/t/mafia-12/1/2/"),
        (f"{T}/2/", "/t/mafia-12/1/", "/t/mafia-12/1/3/"),
        (f"{T}/3/", "/t/mafia-12/1/2/", None),
    ],
)
def test_a_thread_whose_pages_only_their_neighbours_name(own, prev, nxt):
    page = generic.parse(lxml.html.fromstring(_page(own, prev, nxt, 1)), own, UTC)
    assert page.page_urls == (f"{T}/", f"{T}/2/", f"{T}/3/")
    assert page.page_url == own
    # ids of one digit that name a post are the forum's, not the posts' places on the page
    assert [p.post_id for p in page.posts] == ["1", "2", "3"]


def test_a_page_with_no_neighbours_is_the_thread_alone():
    page = generic.parse(lxml.html.fromstring(_page(f"{T}/", None, None, 1)), f"{T}/", UTC)
    assert page.page_urls == (f"{T}/",)
