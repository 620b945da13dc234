"""What the live-forum tests share: a forum engine installed into an environment of its own,
served on 127.0.0.1, a PostgreSQL server of its own for an engine that needs one, and a game
counted by modtool's command line.

Each engine lives in tests/live/ENGINE/ (its pinned requirements.txt, settings, seed) and in
`.venv-ENGINE/` at the project's root, kept between runs and rebuilt when its requirements
change.
"""

from __future__ import annotations

import hashlib
import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import venv
from contextlib import contextmanager
from pathlib import Path

import pytest

from modtool.threads.sources import read_source

from .conftest import ROOT

LIVE = ROOT / "tests" / "live"


def digest(*files: Path) -> str:
    h = hashlib.sha256()
    for f in files:
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def engine_python(env: Path, requirements: Path) -> Path:
    """The forum's own Python, with its engine installed: made once per requirements file."""
    stamp = env / "installed"
    python = env / "bin" / "python"
    if stamp.is_file() and stamp.read_text() == digest(requirements) and python.exists():
        return python
    shutil.rmtree(env, ignore_errors=True)
    venv.EnvBuilder(with_pip=True).create(env)
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        + ["-r", requirements],
        check=True,
    )
    stamp.write_text(digest(requirements))
    return python


@contextmanager
def served(python: Path, site: Path, environ: dict[str, str]):
    """The forum's Django site served on 127.0.0.1 (tests/live/serve.py); yields the port."""
    server = subprocess.Popen(
        [python, LIVE / "serve.py", site],
        env={**os.environ, **environ},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        port = server.stdout.readline().strip()
        if not port.isdigit():
            server.kill()
            pytest.fail(f"the forum did not start: {server.stderr.read()[-2000:]}")
        yield int(port)
    finally:
        server.kill()
        server.communicate()  # reaps it and closes its pipes


# --- PostgreSQL ---------------------------------------------------------------------------------


def _postgres_bin() -> Path:
    """The folder of Debian's PostgreSQL server programs (the newest installed)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).resolve().parent
    pytest.fail("no PostgreSQL server: install Debian's postgresql (apt-get install postgresql)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Postgres:
    """A PostgreSQL server of its own, on 127.0.0.1 at a free port, its cluster in a fresh
    folder of /tmp. PostgreSQL refuses to run as root: run as root, the folder is given to the
    `postgres` user that Debian's package makes, and the server runs as that user."""

    USER = "misago"

    def __init__(self) -> None:
        self.bin = _postgres_bin()
        self.home = Path(tempfile.mkdtemp(prefix="modtool-postgres-"))
        self.cluster = self.home / "data"
        self.owner = None
        if os.geteuid() == 0:
            try:
                self.owner = pwd.getpwnam("postgres")
            except KeyError:
                pytest.fail(
                    "run as root, the test needs the postgres user: apt-get install postgresql"
                )
        self.port = 0

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if self.owner is not None:
            command = [
                shutil.which("runuser") or "/usr/sbin/runuser",
                "-u",
                "postgres",
                "--",
                *command,
            ]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode:
            pytest.fail(f"{program} failed: {(done.stderr or done.stdout)[-2000:]}")

    def _give(self) -> None:
        if self.owner is None:
            return
        for folder, _, files in os.walk(self.home):
            for path in [folder, *(os.path.join(folder, f) for f in files)]:
                os.chown(path, self.owner.pw_uid, self.owner.pw_gid)

    def create(self, database: str) -> None:
        """A new cluster with one database, owned by USER, who needs no password."""
        self._give()
        self._run(
            "initdb",
            "-D",
            str(self.cluster),
            "-U",
            self.USER,
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
            "--no-sync",
        )
        self.start()
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", self.USER, database)

    def copy_of(self, cluster: Path) -> None:
        """A copy of a stopped cluster (a seeded forum's), served as this server's."""
        shutil.copytree(cluster, self.cluster)
        self.cluster.chmod(0o700)
        self._give()
        self.start()

    def start(self) -> None:
        self.port = _free_port()
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.home} -c fsync=off"
        self._run(
            "pg_ctl",
            "-D",
            str(self.cluster),
            "-w",
            "-t",
            "60",
            "-l",
            str(self.home / "log"),
            "-o",
            options,
            "start",
        )

    def stop(self) -> None:
        """A clean stop: the cluster can be copied and started again."""
        self._run("pg_ctl", "-D", str(self.cluster), "-w", "-m", "fast", "stop")

    def remove(self) -> None:
        if (self.cluster / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self.cluster), "-w", "-m", "immediate", "stop")
        shutil.rmtree(self.home, ignore_errors=True)


# --- a game counted by modtool ------------------------------------------------------------------


def fields(posts):
    return [(p.post_id, p.number, p.author, p.time, p.text) for p in posts]


def read_alike(url: str, posts_file: Path, tz) -> list:
    """The game thread read by URL, which must equal the posts file written from the forum's
    database, field by field, and span the thread's three pages."""
    live = read_source(url, tz)
    recorded = read_source(str(posts_file), tz)
    assert len(recorded) == 40
    assert fields(live) == fields(recorded)
    assert len({p.url for p in live}) == 3
    return live


def game(folder: Path, source: str, players: list[str]) -> Path:
    folder.mkdir()
    listed = "".join(f'[[players]]\nname = "{p}"\n\n' for p in players)
    (folder / "game.toml").write_text(
        f'title = "Mafia 12"\ntimezone = "America/New_York"\nhosts = ["TheHost"]\n\n'
        f'[[sources]]\n{source}\n\n[rules]\npreset = "mafiascum"\n'
        f'syntaxes = ["bold", "bbcode", "vtl", "plain"]\n\n{listed}'
    )
    return folder


def _without_urls(found):
    """A count with its links to posts left out: the posts file has no page URLs."""
    if isinstance(found, dict):
        return {k: _without_urls(v) for k, v in found.items() if k != "url"}
    if isinstance(found, list):
        return [_without_urls(v) for v in found]
    return found


def count(folder: Path) -> list:
    """`modtool count GAME --json`, its links to posts left out."""
    done = subprocess.run(
        [sys.executable, "-m", "modtool", "count", str(folder), "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, "XDG_CACHE_HOME": str(folder / "cache")},
    )
    assert done.returncode == 0, done.stderr
    return _without_urls(json.loads(done.stdout))


def counted_alike(url: str, posts_file: Path, players: list[str], folder: Path) -> None:
    """The game thread's day counted by URL equals the day counted from the posts file, and
    is the thread's: gina's vote by nickname ("Bob", post 8), Alice's (16), carol's (25) and
    erin's at post 27 make four of seven, and the day ends there."""
    by_url = count(game(folder / "by-url", f'url = "{url}"', players))
    from_file = count(game(folder / "from-file", f'path = "{posts_file}"', players))
    assert by_url == from_file
    (day,) = by_url
    bob = players[1]
    assert day["outcome"]["kind"] == "execution"
    assert (day["outcome"]["player"], day["outcome"]["post"]) == (bob, 27)
    (wagon,) = [w for w in day["wagons"] if w["target"] == bob]
    assert [(v["player"], v["post"]) for v in wagon["voters"]] == [
        (players[6], 8),
        (players[0], 16),
        (players[2], 25),
        (players[4], 27),
    ]
