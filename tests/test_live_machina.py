"""A live forum engine, not a saved page: django-machina served on 127.0.0.1, read by URL.

The engine is installed from the package registry into an environment of its own
(`.venv-machina/`, kept between runs and rebuilt when tests/live/machina/requirements.txt
changes), seeded with a three-page game thread (tests/live/machina/seed.py), and served by
Django's own server. modtool has no adapter for it: the generic reader reads it. The seed also
writes the thread from the forum's database as a posts file, and everything read by URL must
equal what is read from that file: the posts field by field, and a game's vote count.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from modtool.threads.cache import PageCache
from modtool.threads.fetch import Fetcher, FetchOptions, make_client
from modtool.threads.times import UTC, zone

from .conftest import ROOT
from .live_forums import LIVE, counted_alike, digest, engine_python, fields, read_alike, served

SITE = LIVE / "machina"
ENV = ROOT / ".venv-machina"
ZONE = zone("America/New_York")  # the forum's TIME_ZONE (settings.py)
PLAYERS = ["Alice", "Bob_Builder", "carol", "Dave.K", "erin", "Frank 7", "gina"]


def _seeded(python: Path, data: Path) -> str:
    """The forum's database with the game thread, made once per seed and settings; returns
    the thread's path on the forum."""
    parts = [SITE / "seed.py", SITE / "settings.py", *sorted(LIVE.glob("*.py"))]
    site = ENV / f"site-{digest(*parts)}"
    if not (site / "path").is_file():
        shutil.rmtree(site, ignore_errors=True)
        site.mkdir()
        env = {**os.environ, "MACHINA_SITE_DATA": str(site)}
        done = subprocess.run(
            [python, SITE / "seed.py"], env=env, check=True, capture_output=True, text=True
        )
        (site / "path").write_text(done.stdout.strip())
    # The server writes as it serves (a topic's view count): it gets a copy.
    shutil.copytree(site, data, dirs_exist_ok=True)
    return (site / "path").read_text()


@pytest.fixture(scope="module")
def forum(tmp_path_factory):
    """(the thread's URL, the posts file written from the forum's database)."""
    python = engine_python(ENV, SITE / "requirements.txt")
    data = tmp_path_factory.mktemp("machina")
    path = _seeded(python, data)
    with served(python, SITE, {"MACHINA_SITE_DATA": str(data)}) as port:
        yield f"http://127.0.0.1:{port}{path}", data / "thread.jsonl"


def test_the_thread_read_by_url_equals_the_forums_own_record(forum):
    url, posts_file = forum
    live = read_alike(url, posts_file, ZONE)
    # what the comparison rests on: times across the clocks going back
    by_number = {p.number: p for p in live}
    assert by_number[14].time.astimezone(UTC).isoformat() == "2026-10-31T16:00:00+00:00"  # "noon"
    assert (
        by_number[23].time.astimezone(UTC).isoformat() == "2026-11-01T04:00:00+00:00"
    )  # "midnight" (EDT)
    assert (
        by_number[26].time.astimezone(UTC).isoformat() == "2026-11-01T14:00:00+00:00"
    )  # "9 a.m." (EST)
    # quote headers go with their quotes, and the forum's edit note and signature are not
    # the poster's text
    assert by_number[9].text == "Welcome."  # "Quote from gina", then a blockquote
    assert by_number[4].text == "That is a bad reason."  # "Bob_Builder wrote:" inside it
    assert by_number[7].text == "I want to hear from gina first."
    assert by_number[6].text == "hi"


def test_a_second_read_asks_again_and_an_offline_read_needs_no_forum(forum, tmp_path):
    url, _ = forum
    cache = PageCache(tmp_path / "cache.sqlite")
    options = FetchOptions(tz=ZONE, per_host_interval=0.0)
    with make_client() as client:
        first = Fetcher(client, cache, options).thread(url)
        again = Fetcher(client, cache, options).thread(url)
    offline = Fetcher(None, cache, FetchOptions(tz=ZONE, offline=True)).thread(url)
    assert fields(first) == fields(again) == fields(offline)


def test_a_game_counted_by_url_equals_the_game_counted_from_the_posts_file(forum, tmp_path):
    url, posts_file = forum
    counted_alike(url, posts_file, PLAYERS, tmp_path)
