"""A live forum engine, not a saved page: django-machina served on 127.0.0.1, read by URL.

The engine is installed from the package registry into an environment of its own
(`.venv-machina/`, kept between runs and rebuilt when tests/live/machina/requirements.txt
changes), seeded with a three-page game thread (tests/live/machina/seed.py), and served by
Django's own server. modtool has no adapter for it: the generic reader reads it. The seed also
writes the thread from the forum's database as a posts file, and everything read by URL must
equal what is read from that file: the posts field by field, and a game's vote count.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from modtool.threads.cache import PageCache
from modtool.threads.fetch import Fetcher, FetchOptions, make_client
from modtool.threads.sources import read_source
from modtool.threads.times import UTC, zone

from .conftest import ROOT

SITE = ROOT / "tests" / "live" / "machina"
ENV = ROOT / ".venv-machina"
ZONE = zone("America/New_York")  # the forum's TIME_ZONE (settings.py)
PLAYERS = ["Alice", "Bob_Builder", "carol", "Dave.K", "erin", "Frank 7", "gina"]


def _digest(*files: Path) -> str:
    h = hashlib.sha256()
    for f in files:
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def _engine_python() -> Path:
    """The forum's own Python, with django-machina installed: made once per requirements file."""
    requirements = SITE / "requirements.txt"
    stamp = ENV / "installed"
    python = ENV / "bin" / "python"
    if stamp.is_file() and stamp.read_text() == _digest(requirements) and python.exists():
        return python
    shutil.rmtree(ENV, ignore_errors=True)
    venv.EnvBuilder(with_pip=True).create(ENV)
    subprocess.run(
        [
            python,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-r",
            requirements,
        ],
        check=True,
    )
    stamp.write_text(_digest(requirements))
    return python


def _seeded(python: Path, data: Path) -> str:
    """The forum's database with the game thread, made once per seed and settings; returns
    the thread's path on the forum."""
    site = ENV / f"site-{_digest(SITE / 'seed.py', SITE / 'settings.py')}"
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
    python = _engine_python()
    data = tmp_path_factory.mktemp("machina")
    path = _seeded(python, data)
    server = subprocess.Popen(
        [python, SITE / "serve.py"],
        env={**os.environ, "MACHINA_SITE_DATA": str(data)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        port = server.stdout.readline().strip()
        if not port.isdigit():
            server.kill()
            pytest.fail(f"the forum did not start: {server.stderr.read()[-2000:]}")
        yield f"http://127.0.0.1:{port}{path}", data / "thread.jsonl"
    finally:
        server.kill()
        server.communicate()  # reaps it and closes its pipes


def _fields(posts):
    return [(p.post_id, p.number, p.author, p.time, p.text) for p in posts]


def test_the_thread_read_by_url_equals_the_forums_own_record(forum):
    url, posts_file = forum
    live = read_source(url, ZONE)
    recorded = read_source(str(posts_file), ZONE)
    assert len(recorded) == 40
    assert _fields(live) == _fields(recorded)
    # what the comparison rests on: three pages, times across the clocks going back
    assert len({p.url for p in live}) == 3
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
    assert _fields(first) == _fields(again) == _fields(offline)


def _game(folder: Path, source: str) -> Path:
    folder.mkdir()
    players = "".join(f'[[players]]\nname = "{p}"\n\n' for p in PLAYERS)
    (folder / "game.toml").write_text(
        f'title = "Mafia 12"\ntimezone = "America/New_York"\nhosts = ["TheHost"]\n\n'
        f'[[sources]]\n{source}\n\n[rules]\npreset = "mafiascum"\n'
        f'syntaxes = ["bold", "bbcode", "vtl", "plain"]\n\n{players}'
    )
    return folder


def _without_urls(found):
    """A count with its links to posts left out: the posts file has no page URLs."""
    if isinstance(found, dict):
        return {k: _without_urls(v) for k, v in found.items() if k != "url"}
    if isinstance(found, list):
        return [_without_urls(v) for v in found]
    return found


def _count(game: Path) -> list:
    done = subprocess.run(
        [sys.executable, "-m", "modtool", "count", str(game), "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, "XDG_CACHE_HOME": str(game / "cache")},
    )
    assert done.returncode == 0, done.stderr
    return _without_urls(json.loads(done.stdout))


def test_a_game_counted_by_url_equals_the_game_counted_from_the_posts_file(forum, tmp_path):
    url, posts_file = forum
    by_url = _count(_game(tmp_path / "by-url", f'url = "{url}"'))
    from_file = _count(_game(tmp_path / "from-file", f'path = "{posts_file}"'))
    assert by_url == from_file
    # and the count is the thread's: gina's vote by nickname ("Bob", post 8), Alice's (16),
    # carol's (25) and erin's at post 27 make four of seven, and the day ends there
    (day,) = by_url
    assert day["outcome"]["kind"] == "execution"
    assert (day["outcome"]["player"], day["outcome"]["post"]) == ("Bob_Builder", 27)
    (wagon,) = [w for w in day["wagons"] if w["target"] == "Bob_Builder"]
    assert [(v["player"], v["post"]) for v in wagon["voters"]] == [
        ("gina", 8),
        ("Alice", 16),
        ("carol", 25),
        ("erin", 27),
    ]
