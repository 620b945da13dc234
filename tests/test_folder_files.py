"""A game folder's own files are data, never a way out of it: a symbolic link in the folder
(drafts/, events.jsonl, game.toml, a source folder's entries, roles text), a FIFO or a device
in place of a file, a preset named by a path, an archive's game names and thread ids, and a
compressed posts file that decompresses without end. Each case: exit code not 0, one line
naming the entry and the fix, nothing written (outside files are in the test's folder, which
`check_case` snapshots)."""

from __future__ import annotations

import gzip
import json
import lzma
import os
from pathlib import Path

import pytest

from modtool.core.rules import PRESETS
from modtool.errors import SourceError
from modtool.threads import sources

from .test_bad_inputs import Case, _toml, check_case
from .test_hostile_inputs import _both
from .test_importer import _archive


def _outside(name: str = "outside", text: str = "IMPORTANT HOST FILE\n"):
    """A folder beside the game, holding one file a link may point at."""

    def make(t: Path) -> Path:
        out = t / name
        out.mkdir(exist_ok=True)
        (out / "kept.txt").write_text(text)
        return out

    return make


def _link(entry: str, target, in_test_folder: bool = False):
    """`entry` in the game folder (or the test's folder) as a symbolic link to `target(g, t)`."""

    def setup(g: Path, t: Path) -> None:
        where = (t if in_test_folder else g) / entry
        points_at = target(g, t)
        where.parent.mkdir(parents=True, exist_ok=True)
        if where.is_dir() and not where.is_symlink():
            where.rmdir()
        elif where.exists() or where.is_symlink():
            where.unlink()
        os.symlink(points_at, where)

    return setup


def _outside_folder(g: Path, t: Path) -> Path:
    return _outside()(t)


def _outside_copy(name: str):
    """An outside copy of the game folder's own `name` (so only the link is wrong)."""

    def target(g: Path, t: Path) -> Path:
        out = _outside()(t)
        (out / name).write_bytes((g / name).read_bytes())
        return out / name

    return target


def _outside_missing(g: Path, t: Path) -> Path:
    return _outside()(t) / "new-ledger.jsonl"


RECORD = ["record", "vote-reset", "{g}", "--post", "12"]

CASES = [
    # --- 1. drafts/ must be the folder's own --------------------------------------------------
    Case(
        "drafts is a link to a folder outside",
        ["draft", "votecount", "{g}"],
        "drafts: is a symbolic link",
        _link("drafts", _outside_folder),
    ),
    Case(
        "a draft file is a link to a file outside",
        ["draft", "votecount", "{g}", "--day", "1"],
        "is a symbolic link",
        _link("drafts/day1-votecount.en.bbcode", lambda g, t: _outside()(t) / "kept.txt"),
    ),
    Case(
        "drafts/.written.json is a link to a file outside",
        ["draft", "votecount", "{g}"],
        ".written.json: is a symbolic link",
        _link("drafts/.written.json", lambda g, t: _outside()(t) / "kept.txt"),
    ),
    Case(
        "the secret setup reveal into a linked drafts folder",
        ["setup", "commit", "{g}"],
        "drafts: is a symbolic link",
        _link("drafts", _outside_folder),
    ),
    Case(
        "a picture into a linked drafts folder",
        ["picture", "square", "{g}"],
        "drafts: is a symbolic link",
        _link("drafts", _outside_folder),
    ),
    # --- 2. events.jsonl must be the folder's own ---------------------------------------------
    Case(
        "record with events.jsonl a link to an outside ledger",
        RECORD,
        "events.jsonl: is a symbolic link",
        _link("events.jsonl", _outside_copy("events.jsonl")),
    ),
    Case(
        "record with events.jsonl a dangling link",
        RECORD,
        "events.jsonl: is a symbolic link",
        _link("events.jsonl", _outside_missing),
    ),
    Case(
        "count with events.jsonl a link",
        ["count", "{g}"],
        "events.jsonl: is a symbolic link",
        _link("events.jsonl", _outside_copy("events.jsonl")),
    ),
]


# --- 3. an archive's game names and thread ids are plain names -------------------------------


def _hostile_archive(**changes):
    """The importer tests' one-game archive in {t}/archive, its case changed; a victim game
    folder with its own ledger and a private posts file wait outside."""

    def setup(g: Path, t: Path) -> None:
        archive = _archive(t / "archive")
        case = json.loads((archive / "cases.jsonl").read_text())
        case.update({k: v(t) if callable(v) else v for k, v in changes.items()})
        (archive / "cases.jsonl").write_text(json.dumps(case) + "\n")
        victim = t / "outside" / "victim-game"
        victim.mkdir(parents=True)
        (victim / "events.jsonl").write_text('{"kind": "day_start", "day": 1, "post": 0}\n')
        (t / "outside" / "private.jsonl.xz").write_bytes(
            (archive / "posts" / "900.jsonl.xz").read_bytes()
        )

    return setup


IMPORT = ["import", "mafiascum-archive", "{t}/archive", "--out", "{t}/out"]

CASES += [
    Case(
        "an archive game name that climbs out of --out",
        IMPORT,
        "game '../outside/escaped' is not a plain name",
        _hostile_archive(game="../outside/escaped"),
    ),
    Case(
        "an archive game name that is an absolute path",
        IMPORT,
        "is not a plain name",
        _hostile_archive(game=lambda t: str(t / "outside" / "victim-game")),
    ),
    Case(
        "an archive thread id that climbs out of posts/",
        IMPORT,
        "thread_id '../../outside/private' is not a plain name",
        _hostile_archive(thread_id="../../outside/private"),
    ),
    Case(
        "an archive game whose folder in --out is a link",
        IMPORT,
        "9999: is a symbolic link",
        _both(
            _hostile_archive(),
            _link("out/9999", lambda g, t: t / "outside" / "victim-game", in_test_folder=True),
        ),
    ),
    Case(
        "an archive posts file that is a link",
        IMPORT,
        "900.jsonl.xz: is a symbolic link",
        _both(
            _hostile_archive(),
            _link(
                "archive/posts/900.jsonl.xz",
                lambda g, t: t / "outside" / "private.jsonl.xz",
                in_test_folder=True,
            ),
        ),
    ),
]


# --- 4. links inside the folder, and presets by name only -------------------------------------


def _source_folder(entry: str, make):
    """The thread moved into a source folder thread/, with `entry` in it made by make(f, t)."""

    def setup(g: Path, t: Path) -> None:
        (g / "thread").mkdir()
        (g / "thread.jsonl").rename(g / "thread" / "a.jsonl")
        text = (g / "game.toml").read_text()
        (g / "game.toml").write_text(text.replace('path = "thread.jsonl"', 'path = "thread"', 1))
        make(g / "thread" / entry, t)

    return setup


def _to_outside_posts(where: Path, t: Path) -> None:
    out = _outside()(t)
    (out / "secret.jsonl").write_text(
        (where.parent / "a.jsonl").read_text().replace("https://", "https://OUTSIDE-SECRET.")
    )
    os.symlink(out / "secret.jsonl", where)


def _climb(t: Path) -> str:
    """The outside evil.toml as a preset name: a path from modtool's presets folder."""
    return os.path.relpath(t / "outside" / "evil", PRESETS)


CASES += [
    Case(
        "a source folder entry that is a link to an outside posts file",
        ["count", "{g}", "--json"],
        "b.jsonl: is a symbolic link",
        _source_folder("b.jsonl", _to_outside_posts),
    ),
    Case(
        "roles text that is a link to an outside file",
        ["draft", "rolepms", "{g}", "--stdout"],
        "roles.en.toml: is a symbolic link",
        _link(
            "roles.en.toml",
            lambda g, t: _outside(text='[roles.imp]\nname = "LEAK"\n')(t) / "kept.txt",
        ),
    ),
    Case(
        "game.toml that is a link to an outside game.toml",
        ["count", "{g}"],
        "game.toml: is a symbolic link",
        _link("game.toml", _outside_copy("game.toml")),
    ),
    Case(
        "a preset named by a path that climbs out",
        ["count", "{g}"],
        "unknown rules preset '../",
        _both(
            lambda g, t: (_outside()(t) / "evil.toml").write_text('tie = "OUTSIDE-VALUE-LEAK"\n'),
            lambda g, t: _toml('preset = "botc-forum"', f'preset = "{_climb(t)}"')(g, t),
        ),
    ),
    Case(
        "a preset named by an absolute path",
        ["count", "{g}"],
        "unknown rules preset",
        _both(
            lambda g, t: (_outside()(t) / "cfg.toml").write_text('api_token = "s3cret"\n'),
            lambda g, t: _toml('preset = "botc-forum"', f'preset = "{t}/outside/cfg"')(g, t),
        ),
    ),
]


# --- 5. no FIFO or device for a file, and compressed posts within bounds ----------------------


def _fifo(where: Path, t: Path) -> None:
    os.mkfifo(where)


def _source_path(path: str):
    return _toml('path = "thread.jsonl"', f'path = "{path}"')


def _bomb(name: str, opener):
    """A compressed posts file of one line longer than any post (25 MB of "0", a few KB)."""

    def setup(g: Path, t: Path) -> None:
        with opener(g / name, "wb") as fh:
            for _ in range(25):
                fh.write(b"0" * 1_000_000)
        _source_path(name)(g, t)

    return setup


CASES += [
    Case(
        "a source folder entry that is a FIFO",
        ["count", "{g}"],
        "b.jsonl: is not a regular file",
        _source_folder("b.jsonl", _fifo),
    ),
    Case(
        "a source folder entry that is a link to /dev/zero",
        ["count", "{g}"],
        "zero.jsonl: is a symbolic link",
        _source_folder("zero.jsonl", lambda where, t: os.symlink("/dev/zero", where)),
    ),
    Case(
        "the thread file is a FIFO",
        ["count", "{g}"],
        "not a regular file (a FIFO or a device)",
        lambda g, t: ((g / "thread.jsonl").unlink(), os.mkfifo(g / "thread.jsonl")),
    ),
    Case(
        "the source is /dev/zero by its absolute path",
        ["count", "{g}"],
        "/dev/zero: not a regular file",
        _source_path("/dev/zero"),
    ),
    Case(
        "a .jsonl.xz that decompresses to one endless line",
        ["count", "{g}"],
        "a line longer than 20 million characters",
        _bomb("posts.jsonl.xz", lzma.open),
    ),
    Case(
        "a .jsonl.gz that decompresses to one endless line",
        ["count", "{g}"],
        "a line longer than 20 million characters",
        _bomb("posts.jsonl.gz", gzip.open),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_a_folder_file_stays_in_the_folder(case, tmp_path):
    check_case(case, tmp_path, max_lines=1)


def test_the_dangling_ledger_link_creates_nothing(tmp_path):
    [case] = [c for c in CASES if c.name == "record with events.jsonl a dangling link"]
    check_case(case, tmp_path, max_lines=1)
    assert not (tmp_path / "outside" / "new-ledger.jsonl").exists()


def test_a_posts_file_with_more_text_than_any_thread_stops(tmp_path, monkeypatch):
    monkeypatch.setattr(sources, "MAX_POSTS_FILE_CHARS", 1000)
    path = tmp_path / "posts.jsonl.gz"
    with gzip.open(path, "wt") as fh:
        fh.write('{"number": 1, "user": "a", "content": "x"}\n' + (" " * 99 + "\n") * 11)
    with pytest.raises(SourceError, match="characters of posts, more than any thread"):
        sources.read_source(str(path))
