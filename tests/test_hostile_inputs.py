"""The bad-input corpus, II: the host commands tried as a hostile or careless world would
(setup, night, grimoire, draft, chats, schedule, end-day, watch, init, events, activity, every
`record`, the Vampires game). Each case: exit code not 0, one clear line that names the input
or the fix, no traceback, no file changed (see `check_case`)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from typer.testing import CliRunner

from modtool.cli import app
from modtool.threads.cache import PageCache

from .conftest import ROOT
from .test_bad_inputs import PAGE, Case, _events, _file, _post, _toml, check_case

VAMPIRES = ROOT / "tests" / "fixtures" / "games" / "vampires"


def _vampires(*lines: dict):
    """The 13-player Vampires test game in place of the example, Day 1 ended at post 3."""

    def setup(g: Path, t: Path) -> None:
        shutil.rmtree(g)
        shutil.copytree(VAMPIRES, g)
        events = [{"kind": "day_start", "day": 1, "post": 0}]
        events.append({"kind": "day_end", "day": 1, "post": 3})
        events += list(lines)
        (g / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))

    return setup


def _edited_draft(name: str):
    """A draft modtool wrote (in its record) that the host has since edited."""

    def setup(g: Path, t: Path) -> None:
        drafts = g / "drafts"
        drafts.mkdir(exist_ok=True)
        (drafts / name).write_text("the host's own words\n")
        (drafts / ".written.json").write_text(json.dumps({name: "0" * 64}))

    return setup


def _both(*setups):
    def setup(g: Path, t: Path) -> None:
        for s in setups:
            s(g, t)

    return setup


def _script(items: object, name: str = "home.json"):
    """A script file in the game folder, and game.toml pointing at it."""
    text = items if isinstance(items, str) else json.dumps(items)
    return _both(
        _file(f"g/{name}", text),
        _toml('script = "trouble-brewing-forum"', f'script = "{name}"'),
    )


def _homebrew(**fields) -> list:
    """The example's characters as a script, with one homebrew character."""
    ids = ["empath", "imp", "fortune_teller", "drunk", "monk", "poisoner", "ravenkeeper"]
    ids += ["washerwoman", "baron", "undertaker", "chef", "soldier", "mayor", "butler"]
    ids += ["virgin", "slayer", "saint", "recluse", "spy", "scarlet_woman", "investigator"]
    ids += ["librarian"]
    brew = {"id": "brewer", "name": "Brewer", "team": "townsfolk", "ability": "You brew."}
    brew.update(fields)
    return [*ids, brew]


def _template(name: str, data: bytes | str):
    return _file(f"g/templates/{name}", data)


def _sqlite(name: str, script: str):
    """A SQLite file made by `script` (another program's file, or a cache)."""

    def setup(g: Path, t: Path) -> None:
        with closing(sqlite3.connect(t / name)) as db:
            db.executescript(script)

    return setup


def _two_threads(label: str = "day2"):
    """The example read from two threads: its own (day1) and a copy of it (`label`), so that
    every post number is in both."""

    def setup(g: Path, t: Path) -> None:
        shutil.copy(g / "thread.jsonl", g / "day2.jsonl")
        sources = '[[sources]]\npath = "thread.jsonl"\n'
        text = (g / "game.toml").read_text()
        assert sources in text
        two = f'{sources}thread = "day1"\n\n[[sources]]\npath = "day2.jsonl"\nthread = "{label}"\n'
        (g / "game.toml").write_text(text.replace(sources, two, 1))

    return setup


OTHER_PROGRAM = """CREATE TABLE readings (sensor TEXT, value REAL, at TEXT);
CREATE TABLE notes (body TEXT); INSERT INTO readings VALUES ('kitchen', 21.5, '2026-12-01');
INSERT INTO notes VALUES ('mine');"""
OTHER_PAGES = """CREATE TABLE pages (id INTEGER PRIMARY KEY, title TEXT, html TEXT);
INSERT INTO pages VALUES (1, 'home', '<p>hi</p>');"""


def _damaged_cache(g: Path, t: Path) -> None:
    """A real cache of many pages, one page of the file then overwritten with zeros."""
    cache = PageCache(t / "c.sqlite")
    for n in range(40):
        cache.store(f"https://forum.example.invalid/t/1?page={n}", f"<p>{n}</p>" * 400, None, None)
    cache.store_thread(["https://forum.example.invalid/t/1"], ["https://forum.example.invalid/t/1"])
    cache.close()
    data = (t / "c.sqlite").read_bytes()  # pages 2 to 5: the tables' first pages
    (t / "c.sqlite").write_bytes(data[:4096] + b"\0" * 4 * 4096 + data[5 * 4096 :])


DEAD_DEMON = {"kind": "death", "player": "Banana", "phase": "D4", "cause": "executed"}
DAY4_END = {"kind": "day_end", "day": 4, "post": 41}
DAY_1 = _events({"kind": "day_start", "day": 1, "post": 0}, keep=False)  # Day 1 alone
SKIP_A_DAY = ("record", "day-start", "{g}", "6", "--post", "41")  # in Day 4, or after it


def _mafia(g: Path, t: Path) -> None:
    """The Mafia example in place of the Clocktower one (a game that takes revivals)."""
    shutil.rmtree(g)
    shutil.copytree(ROOT / "games" / "example-mafia", g)


CASES = [
    # --- record revival ---------------------------------------------------------------------
    Case(
        "a revival of one alive",
        ["record", "revival", "{g}", "Fern", "--post", "12"],
        "not dead",
        _mafia,
    ),
    Case(
        "a revival at no point",
        ["record", "revival", "{g}", "Cypress"],
        '"phase"',
        _mafia,
    ),
    Case(
        "a revival of no player",
        ["record", "revival", "{g}", "Nobody", "--post", "12"],
        "no player named",
        _mafia,
    ),
    Case(
        "a revival before the death",
        ["record", "revival", "{g}", "Cypress", "--phase", "N0"],
        "revived before they die",
        _mafia,
    ),
    Case(
        "a revival in a game whose nights keep the dead dead",
        ["record", "revival", "{g}", "RexFavilla", "--post", "39"],
        "takes no revival",
    ),
    # --- schedule and dates ---------------------------------------------------------------
    Case(
        "a day of 10^11 hours",
        ["schedule", "{g}"],
        "day",
        _toml("[rules]", '[schedule]\nstart = "2026-10-29T12:00"\nday = "99999999999h"\n\n[rules]'),
    ),
    Case(
        "a start in the year 9999",
        ["count", "{g}"],
        "9999",
        _toml("[rules]", '[schedule]\nstart = "9999-12-31T23:00"\nday = "72h"\n\n[rules]'),
    ),
    Case(
        "a start in the year 1",
        ["schedule", "{g}"],
        "0001",
        _toml("[rules]", '[schedule]\nstart = "0001-01-01"\nday = "72h"\n\n[rules]'),
    ),
    Case(
        "a night of a million hours",
        ["schedule", "{g}"],
        "night",
        _toml(
            "[rules]",
            '[schedule]\nstart = "2026-10-29T12:00"\nday = "72h"\nnight = "1000000h"\n\n[rules]',
        ),
    ),
    Case("watch every 10^14 hours", ["watch", "{g}", "--every", "99999999999999h"], "--every"),
    Case("watch every 200 hours", ["watch", "{g}", "--every", "200h"], "week"),
    # --- templates --------------------------------------------------------------------------
    Case(
        "a template with a syntax error",
        ["draft", "votecount", "{g}", "--stdout"],
        "votecount.en.bbcode.j2:2",
        _template("votecount.en.bbcode.j2", "Day\n{% if count %}\n"),
    ),
    Case(
        "a template that includes itself",
        ["draft", "votecount", "{g}", "--stdout"],
        "itself",
        _template("votecount.en.bbcode.j2", "{% include 'votecount.en.bbcode.j2' %}"),
    ),
    Case(
        "a template not UTF-8",
        ["draft", "votecount", "{g}", "--stdout"],
        "UTF-8",
        _template("votecount.en.bbcode.j2", b"Day \xff\xfe {{ count.day }}"),
    ),
    Case(
        "a template that runs a command",
        ["draft", "votecount", "{g}", "--stdout"],
        "unsafe",
        _template(
            "votecount.en.bbcode.j2", "{{ self.__init__.__globals__.os.popen('id').read() }}"
        ),
    ),
    Case(
        "a template that reads a file",
        ["draft", "dayend", "{g}", "--day", "3", "--stdout"],
        "lipsum",
        _template("dayend.en.bbcode.j2", "{{ lipsum.__globals__.__builtins__.open('x') }}"),
    ),
    Case(
        "a template that includes an absolute path",
        ["count", "{g}", "--post", "bbcode"],
        "/etc/passwd",
        _template("votecount.en.bbcode.j2", "{% include '/etc/passwd' %}"),
    ),
    Case(
        "a template that includes the game's toml",
        ["draft", "votecount", "{g}", "--stdout"],
        "..",
        _template("votecount.en.bbcode.j2", "{% include '../game.toml' %}"),
    ),
    Case(
        "a template that writes forever",
        ["draft", "votecount", "{g}", "--stdout"],
        "more than",
        _template(
            "votecount.en.bbcode.j2",
            "{% for i in range(99999) %}{% for j in range(99) %}xxxxxxxx{% endfor %}{% endfor %}",
        ),
    ),
    Case(
        "--template not UTF-8",
        ["count", "{g}", "--post", "bbcode", "--template", "{t}/t.j2"],
        "UTF-8",
        _file("t.j2", b"\xff\xfe"),
    ),
    Case(
        "--template with a missing include",
        ["count", "{g}", "--post", "bbcode", "--template", "{t}/t.j2"],
        "nowhere.j2",
        _file("t.j2", "{% include 'nowhere.j2' %}"),
    ),
    # --- scripts ----------------------------------------------------------------------------
    Case(
        "a script nested 100,000 deep",
        ["count", "{g}"],
        "nested",
        _script("[" * 100_000 + "]" * 100_000),
    ),
    Case(
        "a homebrew with reminders = 5",
        ["count", "{g}"],
        "reminders",
        _script(_homebrew(reminders=5)),
    ),
    Case(
        "a homebrew with firstNight soon",
        ["count", "{g}"],
        "firstNight",
        _script(_homebrew(firstNight="soon")),
    ),
    Case(
        "a homebrew of team purple", ["count", "{g}"], "purple", _script(_homebrew(team="purple"))
    ),
    Case("a homebrew whose name is a number", ["count", "{g}"], "name", _script(_homebrew(name=7))),
    Case(
        "a script outside the folder",
        ["count", "{g}"],
        "outside the game folder",
        _both(
            _file("outside.json", '["imp"]'), _toml('"trouble-brewing-forum"', '"../outside.json"')
        ),
    ),
    Case(
        "a script that is not JSON",
        ["count", "{g}"],
        "home.json",
        _script("not json at all"),
    ),
    # --- game.toml --------------------------------------------------------------------------
    Case(
        "a player name with a newline",
        ["count", "{g}"],
        "name",
        _toml('name = "Kohai"', 'name = "Ko\\nhai"'),
    ),
    Case(
        "a player name of control characters",
        ["count", "{g}"],
        "name",
        _toml('name = "Kohai"', 'name = "Ko\\u0007hai"'),
    ),
    Case(
        "a player name of blanks",
        ["count", "{g}"],
        "name",
        _toml('name = "Kohai"', 'name = "   "'),
    ),
    Case(
        "a player of team purple",
        ["count", "{g}"],
        "purple",
        _toml('role = "Empath"', 'role = "Empath"\nteam = "purple"'),
    ),
    Case(
        "an account that is another player",
        ["count", "{g}"],
        "'Kohai' in its accounts is the name of player 'Kohai'",
        _toml('name = "Banana"\n', 'name = "Banana"\naccounts = ["Kohai"]\n'),
    ),
    Case(
        "an alias that is another player's alias",
        ["count", "{g}"],
        "'rex' in its aliases is an alias of player 'RexFavilla'",
        _toml('name = "wylted"\n', 'name = "wylted"\naliases = ["rex"]\n'),
    ),
    Case(
        "a player entry whose name is misspelt",
        ["count", "{g}"],
        "[[players]] entry 5, which has no name = \"...\": unknown field 'nam'",
        _toml('name = "Magoroth"', 'nam = "Magoroth"'),
    ),
    # --- record: posts the thread does not have -----------------------------------------------
    Case(
        "record character at post 5000",
        ["record", "character", "{g}", "Neros", "--character", "Imp", "--post", "5000"],
        "5000",
    ),
    Case(
        "record day-ability at post 5000",
        [
            "record",
            "day-ability",
            "{g}",
            "Shining",
            "slayer",
            "--post",
            "5000",
            "--target",
            "Banana",
        ],
        "5000",
    ),
    Case(
        "record chat-correction at post 5000",
        ["record", "chat-correction", "{g}", "5000", "CHAT CLOSE: Rex's chat"],
        "5000",
    ),
    Case(
        "record vote-reset at post 5000", ["record", "vote-reset", "{g}", "--post", "5000"], "5000"
    ),
    Case(
        "record correction at post 5000",
        ["record", "correction", "{g}", "5000", "--ignore"],
        "5000",
    ),
    Case(
        "record a death at post 5000",
        ["record", "death", "{g}", "Shining", "--post", "5000"],
        "5000",
    ),
    Case(
        "a replacement by the player who holds the slot",
        ["record", "replacement", "{g}", "Shining", "Shining", "--post", "5"],
        "replacement: Shining already holds the slot of Shining; a replacement names the player",
    ),
    Case(
        "record a replacement at post 5000",
        ["record", "replacement", "{g}", "Shining", "Newcomer", "--post", "5000"],
        "5000",
    ),
    # --- a game of two threads: a post number names a post only with its thread ----------------
    Case(
        "end-day at a post two threads have",
        ["end-day", "{g}", "--post", "40"],
        "post 40 is in 2 threads (day1, day2): say which with --thread day1 or --thread day2",
        _two_threads(),
    ),
    Case(
        "record a death at a post two threads have",
        ["record", "death", "{g}", "Neros", "--post", "38", "--cause", "modkilled"],
        "--thread day2",
        _two_threads(),
    ),
    Case(
        "record a correction of a post two threads have",
        ["record", "correction", "{g}", "38", "--ignore"],
        "post 38 is in 2 threads",
        _two_threads(),
    ),
    Case(
        "count as of a post two threads have",
        ["count", "{g}", "--as-of", "38"],
        "post 38 is in 2 threads",
        _two_threads(),
    ),
    Case(
        "record a correction in a thread the game lacks",
        ["record", "correction", "{g}", "38", "--ignore", "--thread", "day9"],
        "'day9' is not one of the game's threads",
        _two_threads(),
    ),
    Case(
        "record a correction in thread number 3 of 2",
        ["record", "correction", "{g}", "38", "--ignore", "--thread", "3"],
        "'3' is not one of the game's threads",
        _two_threads(),
    ),
    Case(
        "record a death at a post past the last of its thread",
        ["record", "death", "{g}", "Neros", "--post", "400", "--thread", "day2"],
        "past the last post of thread 'day2'",
        _two_threads(),
    ),
    Case(
        "a ledger line in a thread the game lacks",
        ["count", "{g}"],
        "'day9' is not one of the game's threads",
        _both(_two_threads(), _events({"kind": "vote_reset", "thread": "day9", "post": 3})),
    ),
    Case(
        "a day that ends, in the threads' order, before it starts",
        ["count", "{g}"],
        "Day 5 ends at day1 post 40, before it starts at day2 post 41",
        _both(
            _two_threads(),
            _events(
                {"kind": "day_end", "day": 4, "thread": "day2", "post": 40},
                {"kind": "day_start", "day": 5, "thread": "day2", "post": 41},
                {"kind": "day_end", "day": 5, "thread": "day1", "post": 40},
            ),
        ),
    ),
    Case(
        "two threads with one label",
        ["count", "{g}"],
        "two threads are labelled 'day1'",
        _two_threads("day1"),
    ),
    Case(
        "--thread without the post it places",
        ["end-day", "{g}", "--thread", "day2"],
        "--thread names the thread of --post",
        _two_threads(),
    ),
    # --- record: phases the game has not reached -----------------------------------------------
    Case(
        "a choice in Night 500",
        ["record", "choice", "{g}", "Banana", "Shining", "--night", "500"],
        "Night 500",
    ),
    Case(
        "a choice for tonight before the day ends",
        ["record", "choice", "{g}", "Banana", "Shining", "--night", "4"],
        "end-day",
    ),
    Case(
        "a reminder in Night 500",
        ["record", "reminder", "{g}", "Shining", "poisoned", "--night", "500"],
        "Night 500",
    ),
    Case(
        "a night result for Night 500",
        ["record", "night-result", "{g}", "Shining", "You learn 0.", "--night", "500"],
        "Night 500",
    ),
    Case(
        "a change of character in Night 500",
        ["record", "character", "{g}", "Neros", "--character", "Imp", "--phase", "N500"],
        "Night 500",
    ),
    Case(
        "a master for Day 900",
        ["record", "master", "{g}", "Shining", "Neros", "--day", "900"],
        "Day 900",
    ),
    Case(
        "a reminder that ends before it starts",
        ["record", "reminder", "{g}", "Shining", "poisoned", "--night", "3", "--until", "D1"],
        "before it starts",
    ),
    # --- record: who is alive and what they hold ----------------------------------------------
    Case(
        "a choice by a player dead since Day 1",
        ["record", "choice", "{g}", "Kohai", "Shining", "--night", "2"],
        "dead",
    ),
    Case(
        "a choice by a player dead since Night 1",
        ["record", "choice", "{g}", "Magoroth", "Shining", "--night", "3"],
        "dead",
    ),
    Case(
        "a day ability by a dead player",
        ["record", "day-ability", "{g}", "wylted", "slayer", "--post", "40", "--target", "Banana"],
        "dead",
    ),
    Case(
        "a Vampires choice with a fireball",
        ["record", "choice", "{g}", "Ash", "Birch", "--night", "1", "--ability", "fireball"],
        "fireball",
        _vampires(),
    ),
    Case(
        "a Vampires choice with another role's ability",
        ["record", "choice", "{g}", "Ash", "Birch", "--night", "1", "--ability", "protection"],
        "drain",
        _vampires(),
    ),
    # --- this session's options: --preview, several undo lines, a list of actions ----------
    Case("a preview of role PMs", ["draft", "rolepms", "{g}", "--preview"], "leave it out"),
    Case("undo a line past the ledger", ["record", "undo", "{g}", "9999"], "earlier line"),
    Case("undo one line twice at once", ["record", "undo", "{g}", "3", "3"], "named twice"),
    Case(
        "a correction whose actions are not actions",
        ["record", "correction", "{g}", "20", "--actions", "please count this"],
        "not an action",
    ),
    Case(
        "a correction to no player",
        ["record", "correction", "{g}", "20", "--target", "Banan"],
        "no player named 'Banan' in game.toml (did you mean 'Banana'?)",
    ),
    Case(
        "a correction whose actions vote for no player",
        ["record", "correction", "{g}", "20", "--actions", "unvote; vote Zed"],
        "no player named 'Zed'",
    ),
    # --- phases that do not exist ---------------------------------------------------------------
    Case("grimoire of Day 50", ["grimoire", "{g}", "--day", "50"], "Day 50"),
    Case("grimoire of Night 500", ["grimoire", "{g}", "--night", "500"], "Night 500"),
    Case("night sheet of Night 500", ["night", "{g}", "--night", "500"], "Night 500"),
    Case(
        "resolve Night 500",
        ["night", "{g}", "--night", "500", "--resolve", "--confirm"],
        "Night 500",
    ),
    Case(
        "draft nightend of Night 500", ["draft", "nightend", "{g}", "--night", "500"], "Night 500"
    ),
    Case("draft night of Night 500", ["draft", "night", "{g}", "--night", "500"], "Night 500"),
    Case("draft dayend of Day 50", ["draft", "dayend", "{g}", "--day", "50"], "Day 50"),
    *(
        Case(f"draft {kind} in Day 1, no night named", ["draft", kind, "{g}"], "--night 0", DAY_1)
        for kind in ("nightend", "night")
    ),
    Case("a day-start with no post or time", ["record", "day-start", "{g}", "5"], "--post N"),
    Case("a day-end with no post or time", ["record", "day-end", "{g}", "4"], "--post N"),
    Case(
        "a draft over one the host edited",
        ["draft", "votecount", "{g}"],
        "edited since modtool wrote it; move it aside to keep it, or pass --force",
        _edited_draft("day4-votecount.en.bbcode"),
    ),
    Case(
        "record the end of a day not begun",
        ["record", "day-end", "{g}", "6", "--post", "40"],
        "Day 6 has not begun",
    ),
    Case("record a day-start that skips a day", [*SKIP_A_DAY], "Day 5 comes next"),
    Case(
        "record a day-start that skips an ended day",
        [*SKIP_A_DAY],
        "Day 5 comes next",
        _events(DAY4_END),
    ),
    Case(
        "count --template without --post",
        ["count", "{g}", "--template", "{t}/t.j2"],
        "--template goes with --post",
        _file("t.j2", "{{ nosuch.x }}"),
        exit_code=2,
    ),
    Case("count --number, no --post", ["count", "{g}", "--number", "2"], "--number", exit_code=2),
    Case("chats of Day 50 as JSON", ["chats", "{g}", "--day", "50", "--json"], "Day 50"),
    Case("activity of Day 50", ["activity", "{g}", "--day", "50"], "Day 50"),
    Case("activity with a prod of inf", ["activity", "{g}", "--prod", "inf"], "--prod"),
    Case("activity with a prod of nan", ["activity", "{g}", "--prod", "nan"], "--prod"),
    Case("end-day of Day 50", ["end-day", "{g}", "--day", "50"], "Day 50"),
    # --- a game that is over ----------------------------------------------------------------------
    Case(
        "resolve a night after the Demon was executed",
        ["night", "{g}", "--night", "4", "--resolve", "--confirm"],
        "good",
        _events(DAY4_END, DEAD_DEMON),
    ),
    Case(
        "end-day after the game was won",
        ["end-day", "{g}", "--day", "5"],
        "good",
        _events(DAY4_END, DEAD_DEMON, {"kind": "day_start", "day": 5, "post": 41}),
    ),
    # --- setups -----------------------------------------------------------------------------------
    Case(
        "setup draw --write after the game started",
        ["setup", "draw", "{g}", "--seed", "7", "--write"],
        "--force",
    ),
    Case(
        "setup commit over the reveal of another setup",
        ["setup", "commit", "{g}"],
        "pass --force or delete the file",
        _file("g/drafts/setup-reveal.txt", "modtool setup commitment v1\nsalt: pepper\n"),
    ),
    Case(
        "setup verify of a reveal not UTF-8",
        ["setup", "verify", "{t}/r.txt", "ab" * 32],
        "r.txt",
        _file("r.txt", b"\xff\xfe\xfd"),
    ),
    Case(
        "setup verify of a commitment not hex",
        ["setup", "verify", "{g}/game.toml", "zz-not-hex"],
        "SHA-256",
    ),
    # --- init ---------------------------------------------------------------------------------
    Case(
        "init into a folder holding a ledger",
        ["init", "{t}/new", "--thread", "{g}/thread.jsonl"],
        "events.jsonl",
        _file("new/events.jsonl", '{"kind": "day_start", "day": 1, "post": 0}\n'),
    ),
    Case(
        "init with a password in the URL",
        ["init", "{t}/new", "--thread", "https://bob:s3cret@127.0.0.1:9/t/1", "--offline"],
        "127.0.0.1",
    ),
    # --- this stop's commands: example, docs, roles import, picture, end-day --post -----------
    Case("example into a game folder", ["example", "{g}"], "already holds"),
    Case("docs of a topic there is not", ["docs", "nothing"], "the topics are"),
    Case(
        "roles import of a file that is not JSON",
        ["roles", "import", "{t}/ko.json", "{g}"],
        "not UTF-8 JSON",
        _file("ko.json", "nope"),
    ),
    Case(
        "roles import of a file with no characters",
        ["roles", "import", "{t}/ko.json", "{g}"],
        "no character",
        _file("ko.json", "[]"),
    ),
    Case("picture of a day not reached", ["picture", "square", "{g}", "--day", "99"], "Day 99"),
    Case("picture to a .gif", ["picture", "square", "{g}", "--out", "{t}/x.gif"], ".png or .svg"),
    Case(
        "votes picture of a day not reached", ["picture", "votes", "{g}", "--day", "99"], "Day 99"
    ),
    Case("end-day at a post before the day", ["end-day", "{g}", "--post", "30"], "not in Day 4"),
    Case("end-day at a post past the thread", ["end-day", "{g}", "--post", "9999"], "past"),
    Case(
        "record master of a player who is not the Butler",
        ["record", "master", "{g}", "Neros", "Banana", "--day", "4"],
        "not the Butler",
    ),
    Case(
        "posts of an empty page",
        ["posts", "{t}/blank.html"],
        "the page is empty",
        _file("blank.html", b""),
    ),
    Case(
        "posts of a page of bytes that decode to nothing",
        ["posts", "{t}/noise.html"],
        "not a forum thread page",
        _file("noise.html", bytes(range(128, 256)) * 3),
    ),
    Case(
        "posts with another program's SQLite file as the cache",
        ["posts", "https://forum.example.invalid/t/1", "--cache", "{t}/theirs.db", "--offline"],
        "another program's SQLite file (tables: notes, readings)",
        _sqlite("theirs.db", OTHER_PROGRAM),
    ),
    Case(
        "count with another program's SQLite file as the cache",
        ["count", "{g}", "--cache", "{t}/theirs.db"],
        "theirs.db: not a modtool page cache",
        _sqlite("theirs.db", OTHER_PROGRAM),
    ),
    Case(
        "posts with another program's table named pages as the cache",
        ["posts", "https://forum.example.invalid/t/1", "--cache", "{t}/site.db", "--offline"],
        "site.db: not a modtool page cache",
        _sqlite("site.db", OTHER_PAGES),
    ),
    Case(
        "posts from a damaged cache",
        ["posts", "https://forum.example.invalid/t/1", "--cache", "{t}/c.sqlite", "--offline"],
        "the cache is damaged",
        _damaged_cache,
    ),
    Case(
        "posts with a password in the URL",
        ["posts", "https://bob:s3cret@127.0.0.1:9/viewtopic.php?t=1&sid=s3cret", "--offline"],
        "127.0.0.1",
    ),
    Case(
        "a ledger line nested 100,000 deep",
        ["count", "{g}"],
        "events.jsonl:",
        _events("[" * 100_000 + "]" * 100_000),
    ),
    Case(
        "game.toml arrays nested 100,000 deep",
        ["count", "{g}"],
        "game.toml: nested too deeply",
        _toml("title = ", "deep = " + "[" * 100_000 + "]" * 100_000 + "\ntitle = "),
    ),
    Case(
        "game.toml inline tables nested 100,000 deep",
        ["count", "{g}"],
        "game.toml: nested too deeply",
        _toml("title = ", "deep = " + "{a = " * 100_000 + "1" + "}" * 100_000 + "\ntitle = "),
    ),
    Case(
        "a selector nested 500 deep",
        ["count", "{g}"],
        "selector in game.toml is nested too deeply",
        _both(
            _file("g/page.html", PAGE),
            _toml(
                'path = "thread.jsonl"',
                'path = "page.html"\nselectors = { post = "'
                + ":is(" * 500
                + "div"
                + ")" * 500
                + '", body = "div", author = "a" }',
            ),
        ),
    ),
    Case(
        "a raw NUL inside a post",
        ["posts", "{t}/p.jsonl"],
        "p.jsonl:1: not valid JSON (a raw control character U+0000 inside a string at column",
        _file("p.jsonl", _post("a\x00b").replace("\\u0000", "\x00")),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_a_hostile_input_is_one_clear_line(case, tmp_path):
    check_case(case, tmp_path, max_lines=1)


def test_the_corpus_has_sixty_cases_more():
    assert len(CASES) >= 60
    assert len({c.name for c in CASES}) == len(CASES)


MAFIA = ROOT / "games" / "example-mafia"
ESCAPE = "\x1b]2;pwned\x07\x1b[2J\x9b31m\x7f"  # set the title, clear the screen, C1 CSI, DEL


@pytest.fixture
def escaping_game(tmp_path):
    """The Mafia example with a ledger note and a post (its author and its text) holding
    terminal escape sequences, as a shared folder or a saved thread may."""
    game = tmp_path / "g"
    shutil.copytree(MAFIA, game)
    with open(game / "events.jsonl", "a") as ledger:
        ledger.write(json.dumps({"kind": "vote_reset", "post": 12, "note": ESCAPE + "x"}) + "\n")
    post = {"post_id": "m99", "number": 15, "author": "Evil" + ESCAPE, "time": None}
    post |= {"url": None, "edited": False, "thread": "", "html": f"hi {ESCAPE}<b>VOTE: Fern</b>"}
    with open(game / "thread.jsonl", "a") as thread:
        thread.write(json.dumps(post) + "\n")
    return game


@pytest.mark.parametrize(
    "args",
    [["events", "{g}"], ["count", "{g}", "--audit"], ["activity", "{g}"], ["count", "{g}"]],
    ids=" ".join,
)
def test_control_characters_reach_the_terminal_harmlessly(args, escaping_game):
    """A note, a name or a post holding ESC [2J or ESC ] 2; … BEL is shown as "␛[2J", never
    sent to the terminal as it is, and never stops the command."""
    args = [a.replace("{g}", str(escaping_game)) for a in args]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    for control in ("\x1b", "\x07", "\x9b", "\x7f"):
        assert control not in result.output
    if args[0] == "events":
        assert "␛]2;pwned␇" in result.stdout  # click itself drops the ESC [2J off a terminal


def test_a_posts_file_written_with_controls_reads_back_exact(tmp_path):
    """`posts --json` escapes DEL and C1 (json leaves them raw): the terminal gets none, and the
    output guard has nothing to turn into a sign, so the lines read back to the same posts."""
    source = tmp_path / "in.jsonl"
    post = {"post_id": "m1", "number": 1, "author": "Ev\x7fil", "time": None, "url": None}
    post |= {"edited": False, "thread": "", "html": "a\x85b \x9b<b>VOTE: Fern</b>"}
    source.write_text(json.dumps(post) + "\n")
    result = CliRunner().invoke(app, ["posts", str(source), "--json"])
    assert result.exit_code == 0, result.output
    assert not any(c in result.stdout for c in "\x7f\x85\x9b\u2421\ufffd")
    again = tmp_path / "out.jsonl"
    again.write_text(result.stdout)
    back = CliRunner().invoke(app, ["posts", str(again), "--json"])
    assert back.stdout == result.stdout
    assert json.loads(result.stdout)["author"] == "Ev\x7fil"


def test_an_error_naming_a_control_character_is_harmless_too(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(MAFIA, game)
    setup = game / "game.toml"
    setup.write_text(setup.read_text().replace('"thread.jsonl"', '"no\\u001b[2J.jsonl"'))
    result = CliRunner().invoke(app, ["count", str(game)])
    assert result.exit_code == 1 and "\x1b" not in result.stderr and "␛[2J" in result.stderr


def test_an_unreadable_record_of_drafts_counts_as_empty(tmp_path):
    """docs: an unreadable drafts/.written.json is empty (every draft counts as the host's);
    one nested 100,000 deep is unreadable too, not a crash."""
    game = tmp_path / "g"
    shutil.copytree(MAFIA, game)
    (game / "drafts").mkdir(exist_ok=True)
    (game / "drafts" / ".written.json").write_text("[" * 100_000 + "]" * 100_000)
    result = CliRunner().invoke(app, ["draft", "votecount", str(game)])
    assert result.exit_code == 0, result.output
    assert "Wrote" in result.output
