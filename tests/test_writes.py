"""Every write is whole or absent: a full disk (a file-size limit, and a real full tmpfs where
the machine lets the tests mount one), a read-only folder, and twenty writers at once."""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from modtool.core.ledger import append_computed, event_to_json, store
from modtool.errors import GameFileError
from modtool.games import load_game
from modtool.games.clocktower.night import resolve_night

from .conftest import EXAMPLE

MODTOOL = [sys.executable, "-m", "modtool"]


def _game(folder: Path) -> Path:
    game = folder / "g"
    shutil.copytree(EXAMPLE, game)
    return game


def _run(args: list[str], env_home: Path, preexec=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, XDG_CACHE_HOME=str(env_home / "cache"), COLUMNS="200")
    return subprocess.run(
        [*MODTOOL, *args], capture_output=True, text=True, env=env, preexec_fn=preexec, timeout=120
    )


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_a_write_past_the_file_size_limit_leaves_the_ledger_as_it_was(tmp_path):
    game = _game(tmp_path)
    before = (game / "events.jsonl").read_bytes()
    limit = len(before) + 20  # room for part of the line, never all of it

    def small_disk():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    args = [
        "record",
        "death",
        str(game),
        "Shining",
        "--phase",
        "D4",
        "--cause",
        "a long cause " * 9,
    ]
    result = _run(args, tmp_path, small_disk)
    assert result.returncode == 1, result.stderr
    assert "nothing was recorded" in result.stderr and len(result.stderr.splitlines()) == 1
    assert (game / "events.jsonl").read_bytes() == before
    assert load_game(game).events  # and every command still reads it


def test_a_failing_write_is_cut_back_to_its_size(tmp_path, monkeypatch):
    """The same at the library, with a write that stops half-way as a full disk makes it."""
    game = _game(tmp_path)
    before = (game / "events.jsonl").read_bytes()
    real_write = os.write

    def half_then_full(fd, data):
        if len(data) > 10:
            return real_write(fd, bytes(data[: len(data) // 2]))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store.os, "write", half_then_full)
    with pytest.raises(GameFileError, match="No space left on device"):
        store.append_event(load_game(game), {"kind": "vote_reset", "post": 40})
    monkeypatch.undo()
    assert (game / "events.jsonl").read_bytes() == before


def _mount_tmpfs(where: Path, size: str) -> bool:
    where.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True
    )
    return done.returncode == 0


@pytest.fixture
def small_disk(tmp_path):
    """A real 512 KiB tmpfs, filled up to its last few hundred bytes (needs mount: root)."""
    disk = tmp_path / "disk"
    if os.geteuid() != 0 or not shutil.which("mount") or not _mount_tmpfs(disk, "512k"):
        pytest.skip("mounting a tmpfs needs root")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def _fill(disk: Path) -> None:
    """Write zeros until the disk says it is full."""
    fd = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError:
        pass
    finally:
        os.close(fd)


def test_a_full_disk_leaves_the_ledger_drafts_and_init_whole(small_disk, tmp_path):
    game = small_disk / "g"
    shutil.copytree(EXAMPLE, game)
    ledger_file = game / "events.jsonl"
    with ledger_file.open("a") as fh:  # blank lines (read as nothing) up to a page's end, so
        fh.write("\n" * (-(ledger_file.stat().st_size + 6) % 4096))  # a new line needs a page
    _fill(small_disk)  # not a page left
    before = _files(game)
    record = _run(["record", "vote-reset", str(game), "--post", "40"], tmp_path)
    assert record.returncode == 1 and "nothing was recorded" in record.stderr, record.stderr
    drafts = _run(["draft", "rolepms", str(game)], tmp_path)
    assert drafts.returncode == 1 and "Traceback" not in drafts.stderr, drafts.stderr
    assert len(drafts.stderr.strip().splitlines()) == 1
    init = _run(["init", str(small_disk / "new"), "--thread", str(game / "thread.jsonl")], tmp_path)
    assert init.returncode == 1 and "Traceback" not in init.stderr, init.stderr
    assert _files(game) == before  # no half line, no half draft, no temporary file left
    assert not (small_disk / "new" / "game.toml").exists()
    assert not (small_disk / "new" / "events.jsonl").exists()


def test_a_read_only_folder_is_one_line_and_unchanged(small_disk, tmp_path):
    game = small_disk / "g"
    shutil.copytree(EXAMPLE, game)
    before = _files(game)
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    for args in (
        ["record", "vote-reset", str(game), "--post", "40"],
        ["draft", "votecount", str(game)],
        ["end-day", str(game), "--day", "4"],
    ):
        result = _run(args, tmp_path)
        assert result.returncode == 1, (args, result.stderr)
        assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert (
        "Read-only file system"
        in _run(["record", "vote-reset", str(game), "--post", "40"], tmp_path).stderr
    )
    assert _files(game) == before


def test_twenty_night_confirmations_at_once_write_once(tmp_path, monkeypatch):
    """Twenty writers start while the lock is held and all wait for it; then each makes its
    events again under the lock: the night's reminder is written once."""
    game = _game(tmp_path)
    waiting: set[int] = set()
    real_sleep = time.sleep

    def sleep(seconds: float) -> None:
        waiting.add(threading.get_ident())
        real_sleep(seconds)

    monkeypatch.setattr(time, "sleep", sleep)
    errors: list[BaseException] = []

    def confirm() -> None:
        try:
            loaded = load_game(game)
            append_computed(
                loaded, lambda now: [event_to_json(e) for e in resolve_night(now, 1).events]
            )
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=confirm) for _ in range(20)]
    with store._locked(game / "events.jsonl"):
        for t in threads:
            t.start()
        deadline = time.monotonic() + 30
        while len(waiting) < 20 and time.monotonic() < deadline:
            real_sleep(0.01)
        assert len(waiting) == 20  # every writer is waiting for the lock
    for t in threads:
        t.join()
    assert not errors
    alone = load_game(_game(tmp_path / "alone"))
    expected = [event_to_json(e) for e in resolve_night(alone, 1).events]
    lines = [json.loads(x) for x in (game / "events.jsonl").read_text().splitlines()]
    reminders = [e for e in lines if e["kind"] == "reminder" and e["night"] == 1]
    assert len(expected) == 2 and reminders == list(expected)  # once each, not twenty times


def test_twenty_end_days_at_once_close_the_day_once(tmp_path, monkeypatch):
    from modtool.errors import ModToolError
    from modtool.host.days import end_day
    from modtool.threads.sources import read_game_posts

    from .test_days import AFTER, _copy

    game = _copy(tmp_path)  # with a schedule whose Day 4 deadline has passed by AFTER
    loaded = load_game(game)
    posts = read_game_posts(loaded)
    outcomes: list[str] = []

    def close() -> None:
        try:
            end_day(loaded, posts, 4, now=AFTER)
            outcomes.append("closed")
        except ModToolError as exc:
            outcomes.append(str(exc))

    threads = [threading.Thread(target=close) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes.count("closed") == 1
    assert all("already ended" in o for o in outcomes if o != "closed")
    text = (game / "events.jsonl").read_text()
    assert text.count('"kind": "day_end", "day": 4') == 1
