"""Faults of the connection, injected at random with a seed on a loopback forum: the posts
equal a clean run's every time. `make soak` runs many more seeds (MODTOOL_SOAK_SEEDS)."""

from __future__ import annotations

import os
import random

import httpx
import pytest

from modtool.errors import FetchError
from modtool.threads.fetch import Fetcher, FetchOptions, looks_cut_short, make_client

from .forum_server import PER_PAGE, ForumServer

TOTAL = 150  # six pages
KINDS = ("reset", "close", "truncate", "cut", "stall", 429, 500, 502, 503)
OPTIONS = FetchOptions(per_host_interval=0.0, backoff=0.01, concurrency=3, retries=4)
SEEDS = range(int(os.environ.get("MODTOOL_SOAK_SEEDS", "3")))


def _faults(seed: int) -> dict[int, list]:
    """Up to three faults on each page, drawn with the seed (within the retry budget)."""
    rng = random.Random(seed)
    return {
        start: [rng.choice(KINDS) for _ in range(rng.randint(0, 3))]
        for start in range(0, TOTAL, PER_PAGE)
    }


def _posts(server: ForumServer):
    with make_client(timeout=0.5) as client:
        fetcher = Fetcher(client, None, OPTIONS)
        posts = fetcher.thread(server.url)
    return [(p.post_id, p.number, p.author, p.text) for p in posts], fetcher.report


@pytest.fixture(scope="module")
def clean():
    with ForumServer(total=TOTAL) as server:
        posts, _ = _posts(server)
    assert len(posts) == TOTAL
    return posts


@pytest.mark.parametrize("seed", SEEDS)
def test_random_faults_give_the_clean_posts(seed, clean):
    faults = _faults(seed)
    with ForumServer(total=TOTAL, faults=faults, timeout_delay=0.8) as server:
        posts, report = _posts(server)
    injected = sum(len(v) for v in faults.values())
    assert posts == clean, f"seed {seed}: {faults}"
    # every fault cost exactly one more request (429's Retry-After included)
    assert report.requests == TOTAL // PER_PAGE + injected


@pytest.mark.parametrize("fault", ["reset", "close", "truncate", "cut", "stall"])
def test_each_connection_fault_is_retried(fault, clean):
    with ForumServer(total=TOTAL, faults={25: [fault]}, timeout_delay=0.8) as server:
        posts, _ = _posts(server)
    assert posts == clean and server.requests[25] == 2


def test_a_fault_that_never_ends_stops_with_one_line():
    with ForumServer(total=TOTAL, faults={25: ["reset"] * 9}) as server:
        with pytest.raises(FetchError) as err:
            _posts(server)
    assert "the connection failed" in str(err.value) and "5 tries" in str(err.value)


def test_a_page_past_the_size_limit_is_refused_unread():
    big = b"<html><body>" + b"x" * 5000 + b"</body></html>"
    client = make_client(httpx.MockTransport(lambda r: httpx.Response(200, content=big)))
    options = FetchOptions(per_host_interval=0, max_page_bytes=1000)
    with pytest.raises(FetchError, match="is larger than 0 MB"):
        Fetcher(client, None, options).thread("https://forum.example.invalid/t/1")


@pytest.mark.parametrize(
    ("page", "cut"),
    [
        (b"<!DOCTYPE html><html><body>all</body></html>", False),
        (b"<html><body>half of it", True),
        (b"<!-- saved --><!doctype html><html><body><div>half", True),
        (b'{"post_stream": {}}', False),  # JSON is not judged
        (b"<div class='post'>a fragment</div>", False),  # nor a fragment
        (b"<html><body>no closing html, but the body closes</body>", False),
    ],
)
def test_looks_cut_short(page, cut):
    assert looks_cut_short(page) is cut
