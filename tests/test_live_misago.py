"""A second live forum engine, of another make than django-machina: Misago on PostgreSQL.

Misago is installed from the package registry into `.venv-misago/` (pinned in
tests/live/misago/requirements.txt); its database is a PostgreSQL server of Debian's packages
that the test starts on its own on 127.0.0.1 (tests/live_forums.py). The seed writes a game
thread of 40 posts in Misago's markup and parses it with Misago's parser; the seeded cluster is
kept in the environment (made again when the seed or the settings change) and each run serves a
copy of it. Misago's thread pages are its own server's HTML, React coming after: they show
each post with its poster card, a <time datetime> and the body, name the next and previous
pages only by rel="next" and rel="prev" links (".../t/mafia-12-day-1/1/2/"), repeat the last
post of a page at the top of the next one, and show the host's closing of the thread among the
posts as an event. modtool has no adapter for it: the generic reader reads it, and everything
read by URL must equal what the seed wrote from the database, field by field, and so must a
game's vote count.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from modtool.threads.times import UTC, zone

from .conftest import ROOT
from .live_forums import (
    LIVE,
    Postgres,
    counted_alike,
    digest,
    engine_python,
    read_alike,
    served,
)

SITE = LIVE / "misago"
ENV = ROOT / ".venv-misago"
ZONE = zone("America/New_York")  # the forum's TIME_ZONE (settings.py)
PLAYERS = ["Alice", "Bob_Builder", "carol", "DaveK", "erin", "Frank7", "gina"]


def _seeded(python: Path) -> Path:
    """The seeded forum: its stopped PostgreSQL cluster, the posts file and the thread's path
    on the forum, made once per seed, settings and requirements."""
    parts = [SITE / name for name in ("seed.py", "settings.py", "urls.py", "requirements.txt")]
    site = ENV / f"site-{digest(*parts, *sorted(LIVE.glob('*.py')))}"
    if (site / "path").is_file():
        return site
    for older in ENV.glob("site-*"):  # a cluster is some 50 MB: only the current one is kept
        shutil.rmtree(older)
    site.mkdir()
    database = Postgres()
    try:
        database.create("misago")
        environ = {"MISAGO_SITE_DATA": str(site), "MISAGO_DB_PORT": str(database.port)}
        done = subprocess.run(
            [python, SITE / "seed.py"],
            env={**os.environ, **environ},
            capture_output=True,
            text=True,
        )
        if done.returncode:
            pytest.fail(f"the forum's seed failed: {done.stderr[-3000:]}")
        database.stop()
        shutil.copytree(database.cluster, site / "cluster")
    finally:
        database.remove()
    (site / "path").write_text(done.stdout.strip())
    return site


@pytest.fixture(scope="module")
def forum():
    """(the thread's URL, the posts file written from the forum's database)."""
    python = engine_python(ENV, SITE / "requirements.txt")
    site = _seeded(python)
    database = Postgres()
    data = Path(tempfile.mkdtemp(prefix="modtool-misago-"))
    try:
        database.copy_of(site / "cluster")  # the server writes as it serves: it gets a copy
        environ = {"MISAGO_SITE_DATA": str(data), "MISAGO_DB_PORT": str(database.port)}
        with served(python, SITE, environ) as port:
            yield f"http://127.0.0.1:{port}{(site / 'path').read_text()}", site / "thread.jsonl"
    finally:
        database.remove()
        shutil.rmtree(data, ignore_errors=True)


def test_the_thread_read_by_url_equals_the_forums_own_record(forum):
    url, posts_file = forum
    live = read_alike(url, posts_file, ZONE)
    # what the comparison rests on: each page after the first opening with the last post of
    # the page before (read once), times across the clocks going back, a quote's
    # header and a Markdown quote left out of the poster's text
    assert [p.number for p in live] == list(range(1, 41))
    by_number = {p.number: p for p in live}
    assert by_number[14].time.astimezone(UTC).isoformat() == "2026-10-31T16:00:00+00:00"
    assert by_number[26].time.astimezone(UTC).isoformat() == "2026-11-01T14:00:00+00:00"  # EST
    assert by_number[4].text == "That is a bad reason."  # under "Bob_Builder has written:"
    assert by_number[9].text == "Welcome."
    assert by_number[40].text == "Day 1 is over. Bob_Builder was lynched."  # not the event


def test_a_game_counted_by_url_equals_the_game_counted_from_the_posts_file(forum, tmp_path):
    url, posts_file = forum
    counted_alike(url, posts_file, PLAYERS, tmp_path)
