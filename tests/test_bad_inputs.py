"""A corpus of bad inputs through the command line, as a new user would try them.

For each: the exit code is not 0, stderr is one line (a short block at most) that names the
input, no traceback reaches the user, and no file of the game changed.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from modtool.cli import app

from .conftest import EXAMPLE


@dataclass(frozen=True)
class Case:
    name: str
    args: list[str]  # "{g}" is the game folder, "{t}" the test's folder
    says: str  # a part of the message that names the input or the fix
    setup: object = None  # a function (game folder, test folder) -> None
    exit_code: int | None = None  # when a particular one is required


def _toml(old: str, new: str):
    def setup(g: Path, t: Path) -> None:
        setup_file = g / "game.toml"
        text = setup_file.read_text()
        assert old in text, old
        setup_file.write_text(text.replace(old, new, 1))

    return setup


def _events(*lines: dict | str, keep: bool = True):
    def setup(g: Path, t: Path) -> None:
        ledger = g / "events.jsonl"
        text = ledger.read_text() if keep else ""
        extra = "".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines)
        ledger.write_text(text + extra)

    return setup


def _file(name: str, data: bytes | str):
    def setup(g: Path, t: Path) -> None:
        path = t / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data if isinstance(data, bytes) else data.encode())

    return setup


def _post(html: object = "hi") -> str:
    return json.dumps(
        {"post_id": "1", "number": 0, "author": "a", "time": None, "url": None, "html": html}
    )


PAGE = (Path(__file__).parent / "fixtures" / "synthetic" / "unseen" / "mybb.html").read_bytes()

CASES = [
    # --- game.toml: types and values ----------------------------------------------------------
    Case(
        "aliases a string",
        ["count", "{g}"],
        "aliases",
        _toml('aliases = ["Pie"]', 'aliases = "Pie"'),
    ),
    Case(
        "aliases a number", ["count", "{g}"], "aliases", _toml('aliases = ["Pie"]', "aliases = [5]")
    ),
    Case(
        "timezone a number",
        ["count", "{g}"],
        "timezone",
        _toml('timezone = "America/New_York"', "timezone = 5"),
    ),
    Case(
        "voteless a string",
        ["count", "{g}"],
        "voteless",
        _toml("seat = 1\n", 'seat = 1\nvoteless = "no"\n'),
    ),
    Case(
        "weight a fraction",
        ["count", "{g}"],
        "weight",
        _toml("seat = 1\n", "seat = 1\nweight = 2.5\n"),
    ),
    Case(
        "weight too large",
        ["count", "{g}"],
        "weight",
        _toml("seat = 1\n", "seat = 1\nweight = 1000\n"),
    ),
    Case("seat a word", ["count", "{g}"], "seat", _toml("seat = 1\n", 'seat = "one"\n')),
    Case("seat twice", ["count", "{g}"], "seat 1", _toml("seat = 2\n", "seat = 1\n")),
    Case(
        "hosts a string", ["count", "{g}"], "hosts", _toml('hosts = ["Thoth"]', 'hosts = "Thoth"')
    ),
    Case(
        "a host who plays",
        ["count", "{g}"],
        "Banana",
        _toml('hosts = ["Thoth"]', 'hosts = ["Banana"]'),
    ),
    Case(
        "source outside the folder",
        ["count", "{g}"],
        "outside the game folder",
        _toml('path = "thread.jsonl"', 'path = "../../../etc/passwd.jsonl"'),
    ),
    Case(
        "source ftp url",
        ["count", "{g}"],
        "http",
        _toml('path = "thread.jsonl"', 'url = "ftp://forum.example.invalid/t/1"'),
    ),
    Case(
        "source url without host",
        ["count", "{g}"],
        "http",
        _toml('path = "thread.jsonl"', 'url = "http//forum.example.invalid"'),
    ),
    Case(
        "unknown rule value",
        ["count", "{g}"],
        "threshold",
        _toml('preset = "botc-forum"', 'preset = "botc-forum"\nthreshold = "mostly"'),
    ),
    Case(
        "rule bool as string",
        ["count", "{g}"],
        "multi_vote",
        _toml('preset = "botc-forum"', 'preset = "botc-forum"\nmulti_vote = "yes"'),
    ),
    Case(
        "unknown setting",
        ["count", "{g}"],
        "plyers",
        _toml("[[players]]", "[[plyers]]\nname = 'x'\n[[players]]"),
    ),
    Case(
        "binary game.toml",
        ["count", "{g}"],
        "game.toml",
        _file("g/game.toml", b"\x00\xff\xfe\x00binary"),
    ),
    Case("no game.toml", ["count", "{t}"], "game.toml"),
    Case("no such folder", ["count", "{t}/nowhere"], "nowhere"),
    # --- events.jsonl: what cannot be true ----------------------------------------------------
    Case(
        "ledger is a folder",
        ["count", "{g}"],
        "events.jsonl",
        lambda g, t: ((g / "events.jsonl").unlink(), (g / "events.jsonl").mkdir()),
    ),
    Case(
        "ledger not UTF-8",
        ["count", "{g}"],
        "events.jsonl",
        _file("g/events.jsonl", b'{"kind": "day_start", "day": 1, "post": 0}\n\xff\xfe\n'),
    ),
    Case(
        "day ends before it starts",
        ["count", "{g}"],
        "before",
        _events(
            {"kind": "day_start", "day": 5, "post": 40}, {"kind": "day_end", "day": 5, "post": 38}
        ),
    ),
    Case(
        "a player dies twice",
        ["count", "{g}"],
        "Kohai",
        _events({"kind": "death", "player": "Kohai", "phase": "N4"}),
    ),
    Case(
        "replacement by a player",
        ["count", "{g}"],
        "Shining",
        _events({"kind": "replacement", "player": "Banana", "by": "Shining", "post": 38}),
    ),
    Case(
        "ghost vote by the living",
        ["count", "{g}"],
        "Banana",
        _events({"kind": "ghost_vote", "player": "Banana", "day": 2}),
    ),
    Case(
        "reset at a negative post",
        ["count", "{g}"],
        "post",
        _events({"kind": "vote_reset", "post": -3}),
    ),
    Case(
        "a day far away",
        ["count", "{g}"],
        "day",
        _events({"kind": "day_start", "day": 20000000, "post": 41}),
    ),
    Case(
        "a day ended twice",
        ["count", "{g}"],
        "Day 1",
        _events({"kind": "day_end", "day": 1, "post": 14}),
    ),
    Case(
        "a post past the thread",
        ["count", "{g}"],
        "41",
        _events({"kind": "vote_reset", "post": 900}),
    ),
    Case(
        "a death by an unknown name",
        ["count", "{g}"],
        "did you mean 'Banana'",
        _events({"kind": "death", "player": "Banan", "phase": "N4"}),
    ),
    Case(
        "a death in a phase that does not exist",
        ["count", "{g}"],
        "N9",
        _events({"kind": "death", "player": "Banana", "phase": "N9"}),
    ),
    # --- record -------------------------------------------------------------------------------
    Case(
        "record a day far away", ["record", "day-start", "{g}", "20000000", "--post", "41"], "day"
    ),
    Case(
        "record a mistyped player",
        ["record", "death", "{g}", "Banan", "--phase", "N4"],
        "did you mean 'Banana'",
    ),
    Case("record a bad phase", ["record", "death", "{g}", "Banana", "--phase", "X9"], "phase"),
    Case(
        "record a replacement by a player",
        ["record", "replacement", "{g}", "Banana", "Shining", "--post", "38"],
        "Shining",
    ),
    Case("record a second day end", ["record", "day-end", "{g}", "1", "--post", "14"], "Day 1"),
    Case("record a negative post", ["record", "vote-reset", "{g}", "--post", "-3"], "post"),
    Case(
        "record a living ghost", ["record", "ghost-vote", "{g}", "Banana", "--day", "2"], "Banana"
    ),
    # --- posts and sources --------------------------------------------------------------------
    Case("html not a string", ["posts", "{t}/p.jsonl"], "p.jsonl", _file("p.jsonl", _post(["x"]))),
    Case(
        "binary posts file",
        ["posts", "{t}/p.jsonl"],
        "p.jsonl",
        _file("p.jsonl", bytes(range(256)) * 4),
    ),
    Case(
        "posts not UTF-8",
        ["posts", "{t}/p.jsonl"],
        "p.jsonl",
        _file(
            "p.jsonl",
            '{"post_id": "1", "number": 0, "author": "a", "html": "caf\xe9"}\n'.encode("latin-1"),
        ),
    ),
    Case("empty posts file", ["posts", "{t}/p.jsonl"], "no posts", _file("p.jsonl", "")),
    Case("empty posts source of a game", ["count", "{g}"], "no posts", _file("g/thread.jsonl", "")),
    Case("ftp source", ["posts", "ftp://forum.example.invalid/t/1"], "ftp://"),
    Case("unparseable url", ["posts", "http://[forum"], "http://[forum"),
    Case(
        "a saved page cut short",
        ["posts", "{t}/page.html"],
        "page.html",
        _file("page.html", PAGE[: len(PAGE) // 2]),
    ),
    Case(
        "a page too large",
        ["posts", "{t}/big.html"],
        "big.html",
        _file("big.html", b"<html><body>" + b"x" * 21_000_000),
    ),
    Case(
        "cache is a folder",
        ["posts", "https://forum.example.invalid/t/1", "--cache", "{t}", "--offline"],
        "cache",
    ),
    Case(
        "cache not SQLite",
        ["posts", "https://forum.example.invalid/t/1", "--cache", "{t}/c.sqlite", "--offline"],
        "c.sqlite",
        _file("c.sqlite", "not a database at all" * 100),
    ),
    Case(
        "header without a colon",
        ["posts", "{g}/thread.jsonl", "--header", "Cookie sid=s3cret"],
        "--header",
        exit_code=2,
    ),
    Case(
        "header not ASCII",
        ["posts", "{g}/thread.jsonl", "--header", "Cookie: 세션=s3cret"],
        "Cookie",
        exit_code=2,
    ),
    Case(
        "cookies not a cookie file",
        ["posts", "{g}/thread.jsonl", "--cookies", "{g}/game.toml"],
        "cookies",
    ),
    # --- import and count options -------------------------------------------------------------
    Case(
        "import --out a file",
        ["import", "mafiascum-archive", "{t}/arch", "--out", "{g}/game.toml"],
        "--out",
        _file("arch/cases.jsonl", ""),
    ),
    Case(
        "import a folder without cases",
        ["import", "mafiascum-archive", "{t}", "--out", "{t}/out"],
        "cases.jsonl",
    ),
    Case("as-of past the thread", ["count", "{g}", "--as-of", "9999"], "9999"),
    Case("as-of before the day", ["count", "{g}", "--day", "3", "--as-of", "5"], "before Day 3"),
    Case("a day not in the ledger", ["count", "{g}", "--day", "9"], "Day 9"),
    Case("a day that is a word", ["count", "{g}", "--day", "two"], "two", exit_code=2),
]


def _snapshot(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_bad_input_is_one_clear_line(case, tmp_path):
    check_case(case, tmp_path)


def check_case(case: Case, tmp_path: Path, max_lines: int = 4) -> None:
    """Exit code not 0, one clear line naming the input, no traceback, no file changed."""
    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    if case.setup:
        case.setup(game, tmp_path)
    before = _snapshot(tmp_path)
    args = [a.replace("{g}", str(game)).replace("{t}", str(tmp_path)) for a in case.args]
    result = CliRunner().invoke(app, args)
    err = result.stderr
    assert result.exit_code != 0, result.output
    if case.exit_code is not None:
        assert result.exit_code == case.exit_code, err
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = [line for line in err.splitlines() if line.strip()]
    assert 1 <= len(lines) <= (1 if result.exit_code == 2 else max_lines), err
    assert case.says.casefold() in err.casefold(), err
    assert "s3cret" not in err
    assert _snapshot(tmp_path) == before


def test_the_corpus_is_large():
    assert len(CASES) >= 40
