"""A game played over several threads: one timeline, post numbers per thread."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from modtool.cli import app
from modtool.core.count import count_days
from modtool.games import load_game
from modtool.host.counting import count_game
from modtool.threads.sources import read_game_posts


def _thread(path, label, posts):
    lines = []
    for number, (author, hour, html) in enumerate(posts):
        lines.append(
            json.dumps(
                {
                    "post_id": f"{label}-{number}",
                    "number": number,
                    "author": author,
                    "time": f"2026-11-0{2 if label == 'day1' else 3}T{hour:02d}:00:00+00:00",
                    "url": f"https://forum.example.invalid/{label}#{number}",
                    "html": html,
                }
            )
        )
    path.write_text("\n".join(lines) + "\n")


def test_two_day_threads_make_one_timeline(tmp_path):
    _thread(
        tmp_path / "day1.jsonl",
        "day1",
        [
            ("Host", 9, "Day 1 begins"),
            ("ann", 10, "<b>VOTE: bea</b>"),
            ("bea", 11, "<b>VOTE: cal</b>"),
            ("cal", 12, "<b>VOTE: bea</b>"),  # 2 of 2 needed with 3 alive: the hammer
            ("Host", 13, "bea is lynched"),
        ],
    )
    _thread(
        tmp_path / "day2.jsonl",
        "day2",
        [
            ("Host", 9, "Day 2 begins"),
            ("ann", 10, "<b>VOTE: cal</b>"),
            ("cal", 11, "<b>VOTE: ann</b>"),
        ],
    )
    (tmp_path / "game.toml").write_text(
        'hosts = ["Host"]\n'
        '[[sources]]\npath = "day1.jsonl"\nthread = "day1"\n'
        '[[sources]]\npath = "day2.jsonl"\nthread = "day2"\n'
        '[rules]\npreset = "mafiascum"\n'
        '[[players]]\nname = "ann"\n[[players]]\nname = "bea"\n[[players]]\nname = "cal"\n'
    )
    (tmp_path / "events.jsonl").write_text(
        '{"kind": "day_start", "day": 1, "thread": "day1", "post": 0}\n'
        '{"kind": "day_end", "day": 1, "thread": "day1", "post": 4}\n'
        '{"kind": "death", "player": "bea", "phase": "D1", "cause": "lynched"}\n'
        '{"kind": "day_start", "day": 2, "thread": "day2", "post": 0}\n'
    )
    game = load_game(tmp_path)
    day1, day2 = count_days(game, read_game_posts(game))
    assert (day1.outcome.kind, day1.outcome.player, day1.outcome.post) == ("execution", "bea", 3)
    assert day2.alive == 2
    votes = {w.target: [(v.player, v.thread, v.post) for v in w.voters] for w in day2.wagons}
    assert votes == {"cal": [("ann", "day2", 1)], "ann": [("cal", "day2", 2)]}
    assert {a.thread for a in day2.audit} == {"day2"}


# --- a post number names a post only with its thread ------------------------------------------

runner = CliRunner()

DAY1 = [  # (author, time, html); post 7 is written on Day 2, in the old thread
    ("Host", "2026-11-02T09:00", "Day 1 begins"),
    ("ann", "2026-11-02T10:00", "<b>VOTE: bea</b>"),
    ("bea", "2026-11-02T11:00", "<b>VOTE: cal</b>"),
    ("cal", "2026-11-02T12:00", "<b>VOTE: bea</b>"),
    ("dan", "2026-11-02T13:00", "<b>VOTE: bea</b>"),  # 3 of 3 needed with 5 alive: the hammer
    ("Host", "2026-11-02T14:00", "bea is lynched"),
    ("Host", "2026-11-02T15:00", "Night 1 begins"),
    ("eve", "2026-11-03T10:30", "<b>VOTE: cal</b>"),
]
DAY2 = [
    ("Host", "2026-11-03T09:00", "Day 2 begins"),
    ("ann", "2026-11-03T10:00", "<b>VOTE: cal</b>"),
    ("cal", "2026-11-03T11:00", "<b>VOTE: ann</b>"),
    ("dan", "2026-11-03T12:00", "<b>VOTE: ann</b>"),
    ("eve", "2026-11-03T13:00", "hello"),
    ("ann", "2026-11-03T14:00", "hmm"),
    ("Host", "2026-11-03T15:00", "Day 2 is over"),
]
LEDGER = [
    {"kind": "day_start", "day": 1, "thread": "day1", "post": 0},
    {"kind": "day_end", "day": 1, "thread": "day1", "post": 5},
    {"kind": "death", "player": "bea", "phase": "D1", "cause": "lynched"},
    {"kind": "day_start", "day": 2, "thread": "day2", "post": 0},
]


def _posts_file(path, label, posts):
    lines = [
        json.dumps(
            {
                "post_id": f"{label}-{n}",
                "number": n,
                "author": author,
                "time": f"{time}:00+00:00",
                "url": f"https://forum.example.invalid/{label}#{n}",
                "html": html,
            }
        )
        for n, (author, time, html) in enumerate(posts)
    ]
    path.write_text("\n".join(lines) + "\n")


@pytest.fixture
def two(tmp_path):
    """A Mafia game read from two threads that both number their posts 0 to 6; the old thread
    has a post 7, written on Day 2 (10:30, after day2's post 1)."""
    folder = tmp_path / "g"
    folder.mkdir()
    _posts_file(folder / "day1.jsonl", "day1", DAY1)
    _posts_file(folder / "day2.jsonl", "day2", DAY2)
    players = "".join(f'[[players]]\nname = "{n}"\n' for n in ("ann", "bea", "cal", "dan", "eve"))
    (folder / "game.toml").write_text(
        'hosts = ["Host"]\n'
        '[[sources]]\npath = "day1.jsonl"\nthread = "day1"\n'
        '[[sources]]\npath = "day2.jsonl"\nthread = "day2"\n'
        '[rules]\npreset = "mafiascum"\n' + players
    )
    _ledger(folder, LEDGER)
    return folder


def _ledger(folder, lines):
    (folder / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in lines))


def _lines(folder):
    return [json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines()]


def _counts(folder):
    game = load_game(folder)
    return count_days(game, read_game_posts(game))


def _voters(count, target):
    return [v.post for w in count.wagons if w.target == target for v in w.voters]


def _refused_in_one_line(result, *says):
    assert result.exit_code == 1, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    for words in says:
        assert words in lines[0], lines[0]


def test_the_fixture_is_two_threads_with_the_same_numbers(two):
    day1, day2 = _counts(two)
    assert (day1.outcome.player, day1.outcome.post, day1.alive) == ("bea", 4, 5)
    voters = {w.target: [(v.thread, v.post) for v in w.voters] for w in day2.wagons}
    assert voters == {"cal": [("day2", 1), ("day1", 7)], "ann": [("day2", 2), ("day2", 3)]}


@pytest.mark.parametrize(
    "args",
    [
        ["end-day", "{g}", "--post", "6"],
        ["end-day", "{g}", "--post", "6", "--dry-run"],
        ["record", "day-end", "{g}", "2", "--post", "6"],
        ["record", "death", "{g}", "dan", "--post", "4", "--cause", "modkilled"],
        ["record", "correction", "{g}", "3", "--ignore"],
        ["record", "chat-correction", "{g}", "3", ""],
        ["record", "vote-reset", "{g}", "--post", "2"],
        ["record", "replacement", "{g}", "dan", "fay", "--post", "2"],
        ["count", "{g}", "--as-of", "3"],
        ["count", "{g}", "--as-of", "3", "--check"],
    ],
    ids=lambda a: " ".join(a[:2]),
)
def test_a_post_number_two_threads_have_is_refused_without_its_thread(two, args):
    before = (two / "events.jsonl").read_text()
    result = runner.invoke(app, [a.replace("{g}", str(two)) for a in args])
    number = args[args.index("--post") + 1] if "--post" in args else None
    number = number or (args[args.index("--as-of") + 1] if "--as-of" in args else args[3])
    _refused_in_one_line(
        result, f"post {number} is in 2 threads (day1, day2)", "--thread day1 or --thread day2"
    )
    assert (two / "events.jsonl").read_text() == before


def test_end_day_at_a_post_of_the_thread_named(two):
    result = runner.invoke(app, ["end-day", str(two), "--post", "6", "--thread", "day2"])
    assert result.exit_code == 0, result.stderr
    end, *_ = _lines(two)[len(LEDGER) :]
    assert {k: end[k] for k in ("kind", "day", "thread", "post")} == {
        "kind": "day_end",
        "day": 2,
        "thread": "day2",
        "post": 6,
    }
    day1, day2 = _counts(two)
    assert (day1.outcome.player, day1.alive) == ("bea", 5)  # Day 1 untouched
    assert day2.alive == 4 and day2.outcome.kind == "no_execution"


def test_a_thread_is_named_by_its_number_too(two):
    result = runner.invoke(
        app, ["record", "death", str(two), "dan", "--post", "4", "--thread", "2", "--json"]
    )
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["thread"] == "day2"
    assert _lines(two)[-1] == {"kind": "death", "player": "dan", "thread": "day2", "post": 4}
    day1, day2 = _counts(two)
    assert (day1.outcome.player, day1.alive) == ("bea", 5)  # the death is not Day 1's
    assert day2.alive == 3  # dan died at day2's post 4: his vote on ann (day2 #3) is cleared
    assert _voters(day2, "ann") == [2]


def test_the_hammer_end_day_finds_is_written_with_its_thread(two):
    # dan votes cal at day2 #3 (12:00), and eve's vote at day1 #7, moved to 12:30, makes
    # cal's wagon 3 of 3 with 4 alive: Day 2 is hammered at day1's post 7
    dan = ("dan", "2026-11-03T12:00", "<b>VOTE: cal</b>")
    _posts_file(two / "day2.jsonl", "day2", [*DAY2[:3], dan, *DAY2[4:]])
    eve = ("eve", "2026-11-03T12:30", "<b>VOTE: cal</b>")
    _posts_file(two / "day1.jsonl", "day1", [*DAY1[:7], eve])
    result = runner.invoke(app, ["end-day", str(two)])
    assert result.exit_code == 0, result.stderr
    end, death = _lines(two)[len(LEDGER) :]
    assert (end["thread"], end["post"], death["player"]) == ("day1", 7, "cal")


def test_a_number_only_one_thread_has_is_taken_from_it(two):
    (day2,) = count_game(two, "latest", 7)  # day1's post 7, written on Day 2 at 10:30
    assert (day2.day, day2.last_post, day2.last_thread) == (2, 7, "day1")
    assert {w.target: w.votes for w in day2.wagons} == {"cal": 2}  # ann (day2 #1), eve
    result = runner.invoke(app, ["record", "vote-reset", str(two), "--post", "7"])
    assert result.exit_code == 0, result.stderr
    assert _lines(two)[-1] == {"kind": "vote_reset", "thread": "day1", "post": 7}


def test_count_as_of_a_post_of_the_thread_named(two):
    result = runner.invoke(app, ["count", str(two), "--as-of", "3", "--thread", "day2", "--json"])
    assert result.exit_code == 0, result.stderr
    (day2,) = json.loads(result.stdout)
    assert day2["day"] == 2 and day2["last_post"] == 3
    assert {w["target"]: w["votes"] for w in day2["wagons"]} == {"cal": 2, "ann": 2}


def test_a_correction_with_a_thread_reads_that_thread_only(two):
    result = runner.invoke(
        app, ["record", "correction", str(two), "3", "--ignore", "--thread", "day2"]
    )
    assert result.exit_code == 0, result.stderr
    assert _lines(two)[-1] == {
        "kind": "correction",
        "thread": "day2",
        "post": 3,
        "action": "ignore",
    }
    day1, day2 = _counts(two)
    assert day1.outcome.player == "bea" and day1.outcome.post == 4  # cal's day1 #3 counts
    assert _voters(day2, "ann") == [2]  # dan's day2 #3 is ignored


def test_a_correction_without_a_thread_is_of_the_first_source(two):
    _ledger(two, [*LEDGER, {"kind": "correction", "post": 3, "action": "ignore"}])
    day1, day2 = _counts(two)
    assert day1.outcome.kind == "no_execution"  # cal's vote at day1 #3 ignored: bea has 2
    assert _voters(day2, "ann") == [2, 3]  # dan's day2 #3 counts


@pytest.mark.parametrize(
    "line, says",
    [
        # no thread: day1's post 6, which comes before Day 2 starts in day2
        (
            {"kind": "day_end", "day": 2, "post": 6},
            "Day 2 ends at day1 post 6, before it starts at day2 post 0 (line 4)",
        ),
        (
            {"kind": "vote_reset", "thread": "day2", "post": 9},
            "post 9 is past the last post of thread 'day2' (6)",
        ),
        ({"kind": "vote_reset", "thread": "day3", "post": 2}, "'day3' is not one of the game's"),
    ],
)
def test_the_ledger_refuses_a_post_its_thread_cannot_hold(two, line, says):
    _ledger(two, [*LEDGER, line])
    result = runner.invoke(app, ["count", str(two)])
    _refused_in_one_line(result, f"events.jsonl:{len(LEDGER) + 1}", says)


def test_the_ledger_refuses_a_number_missing_from_its_thread(two):
    kept = [
        line for line in (two / "day2.jsonl").read_text().splitlines() if '"number": 4' not in line
    ]
    (two / "day2.jsonl").write_text("\n".join(kept) + "\n")
    _ledger(two, [*LEDGER, {"kind": "vote_reset", "thread": "day2", "post": 4}])
    result = runner.invoke(app, ["count", str(two)])
    _refused_in_one_line(result, "events.jsonl:5", "post 4 is not in thread 'day2'")
    _ledger(two, LEDGER)
    recorded = runner.invoke(
        app, ["record", "vote-reset", str(two), "--post", "4", "--thread", "day2"]
    )
    _refused_in_one_line(recorded, "post 4 is not in thread 'day2'")


def test_a_thread_that_is_none_of_the_games_is_refused(two):
    result = runner.invoke(
        app, ["record", "correction", str(two), "3", "--ignore", "--thread", "day9"]
    )
    _refused_in_one_line(result, "'day9' is not one of the game's threads (1 'day1', 2 'day2')")
    alone = runner.invoke(app, ["end-day", str(two), "--thread", "day2"])
    _refused_in_one_line(alone, "--thread names the thread of --post")


def test_two_sources_with_one_label_are_refused(two):
    text = (two / "game.toml").read_text().replace('thread = "day2"', 'thread = "day1"')
    (two / "game.toml").write_text(text)
    result = runner.invoke(app, ["count", str(two)])
    _refused_in_one_line(result, "two threads are labelled 'day1'")


@pytest.mark.parametrize(
    "args, says",
    [
        (
            ["record", "day-end", "{g}", "2", "--post", "6", "--thread", "day1"],
            "not recorded: Day 2 ends at day1 post 6, before it starts at day2 post 0 (line 4)",
        ),
        (
            ["end-day", "{g}", "--post", "6", "--thread", "day1"],
            "--post 6 of thread day1 is not in Day 2, which starts after post 0 of thread day2",
        ),
    ],
    ids=["record day-end", "end-day"],
)
def test_a_day_end_before_the_days_start_in_the_threads_order_is_not_written(two, args, says):
    before = (two / "events.jsonl").read_text()
    result = runner.invoke(app, [a.replace("{g}", str(two)) for a in args])
    _refused_in_one_line(result, says)
    assert (two / "events.jsonl").read_text() == before
