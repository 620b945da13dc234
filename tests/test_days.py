"""Closing a day, the ledger as a table, activity, and a game folder from a thread."""

from __future__ import annotations

import json
import shutil
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from typer.testing import CliRunner

from modtool.cli import app
from modtool.games import load_game
from modtool.host.days import activity, end_day
from modtool.threads.sources import read_game_posts

from .conftest import EXAMPLE

SCHEDULE = '\n[schedule]\nstart = "2026-11-02T12:00"\nfirst_day = "96h"\nday = "72h"\n'
AFTER = datetime(2026, 11, 20, tzinfo=ZoneInfo("UTC"))


def _copy(tmp_path, schedule: bool = True):
    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    if schedule:
        setup = game / "game.toml"
        setup.write_text(setup.read_text() + SCHEDULE)
    return game


def test_end_day_records_once_and_refuses_the_second_time(tmp_path):
    folder = _copy(tmp_path)
    game = load_game(folder)
    before = (folder / "events.jsonl").read_text()
    closing = end_day(game, read_game_posts(game), now=AFTER)
    assert closing.written and closing.count.day == 4
    added = (folder / "events.jsonl").read_text()[len(before) :].splitlines()
    assert [json.loads(line) for line in added] == list(closing.lines)
    assert json.loads(added[0]) == {
        "kind": "day_end",
        "day": 4,
        "post": 41,
        "time": "2026-11-07T14:58:00-05:00",  # the deadline ended the day: the night runs from it
        "note": "tied at 1, below the 3 needed",
    }
    result = CliRunner().invoke(app, ["end-day", str(folder)])
    assert result.exit_code == 1
    line = len(before.splitlines()) + 1  # the day_end just written
    assert result.stderr == (
        f"Error: {folder / 'events.jsonl'}:{line}: Day 4 already ended (this line); to close it "
        f"again, first `modtool record undo {folder} {line}`\n"
    )


def test_end_day_dry_run_writes_nothing_and_an_execution_is_a_death(tmp_path):
    folder = _copy(tmp_path)
    ledger = folder / "events.jsonl"
    # Day 3 closed by hand is retracted, so end-day closes it again from the count
    lines = ledger.read_text().splitlines()
    day3_end = next(i for i, line in enumerate(lines, 1) if '"day_end", "day": 3' in line)
    death = next(i for i, line in enumerate(lines, 1) if '"wylted"' in line)
    ledger.write_text(
        ledger.read_text()
        + json.dumps({"kind": "undo", "line": day3_end})
        + "\n"
        + json.dumps({"kind": "undo", "line": death})
        + "\n"
    )
    game = load_game(folder)
    before = ledger.read_bytes()
    dry = end_day(game, read_game_posts(game), day=3, dry_run=True, now=AFTER)
    assert ledger.read_bytes() == before and not dry.written
    assert dry.lines[1] == {
        "kind": "death",
        "player": "wylted",
        "phase": "D3",
        "cause": "executed",
    }


def test_activity_counts_posts_and_prods(tmp_path):
    folder = _copy(tmp_path, schedule=False)
    game = load_game(folder)
    found = activity(game, read_game_posts(game), day=2, prod_after=timedelta(hours=4))
    assert found.day == 2 and len(found.players) == 8
    assert all(p.posts == 1 for p in found.players)
    # the day ended with post 26 at 13:25: a last post before 9:25 needs a prod
    prods = {p.player for p in found.players if p.needs_prod}
    assert prods == {"wylted", "Shining", "awesome5000"}


def test_events_lists_the_ledger_with_line_numbers(tmp_path):
    folder = _copy(tmp_path, schedule=False)
    result = CliRunner().invoke(app, ["events", str(folder), "--json"])
    rows = json.loads(result.stdout)
    assert rows[0] == {
        "line": 1,
        "event": {"kind": "day_start", "day": 1, "post": 0},
        "undone_by": None,
    }
    assert len(rows) == len((folder / "events.jsonl").read_text().splitlines())


def test_init_writes_a_game_from_a_thread(tmp_path):
    folder = tmp_path / "new"
    result = CliRunner().invoke(
        app,
        ["init", str(folder), "--thread", str(EXAMPLE / "thread.jsonl"), "--preset", "botc-forum"],
    )
    assert result.exit_code == 0, result.output
    game = load_game(folder)
    assert game.hosts == ("Thoth",)
    assert [s.key for s in game.slots][:3] == ["awesome5000", "Banana", "Kohai"] or len(
        game.slots
    ) == 10
    assert len(game.slots) == 10 and game.rules.multi_vote
    again = CliRunner().invoke(
        app, ["init", str(folder), "--thread", str(EXAMPLE / "thread.jsonl")]
    )
    assert again.exit_code == 1 and "already holds" in again.stderr


def test_watch_reports_what_is_new_and_alerts(tmp_path):
    from modtool.host.days import WatchState, watch_step

    folder = _copy(tmp_path, schedule=False)
    game = load_game(folder)
    posts = read_game_posts(game)
    upto = [p for p in posts if p.number <= 38]
    first, seen = watch_step(game, upto, WatchState())
    assert first == ["Watching Day 4: Day 4 is in progress"]
    later, seen = watch_step(game, posts, seen)
    assert later == [
        "post 39 Shining: 'VTL Banana' -> Banana (counted)",
        "post 40 Neros: 'VTL Shining' -> Shining (counted)",
    ]
    # a vote that brings a wagon to L-1 (3 needed of 5 alive) raises an alert once
    extra = json.loads((folder / "thread.jsonl").read_text().splitlines()[-1])
    extra.update(post_id="ex42", number=42, author="ILikePie5", html="VTL Banana")
    (folder / "thread.jsonl").write_text(
        (folder / "thread.jsonl").read_text() + json.dumps(extra) + "\n"
    )
    again, seen = watch_step(game, read_game_posts(game), seen)
    assert again == [
        "post 42 ILikePie5: 'VTL Banana' -> Banana (counted)",
        "ALERT: Banana is at L-1",
    ]
    quiet, _ = watch_step(game, read_game_posts(game), seen)
    assert quiet == []


def test_watch_shows_the_deadline_as_a_count_does(tmp_path):
    from modtool.host.days import WatchState, watch_step

    game = load_game(_copy(tmp_path))
    posts = read_game_posts(game)
    lines, _ = watch_step(game, posts, WatchState(), now=posts[-1].time + timedelta(hours=1))
    assert lines[-1] == "Deadline 2026-11-07 14:58 EST (2026-11-07 19:58 UTC): 2d 20h 32m left"


def test_watch_stops_after_its_looks_and_refuses_a_short_interval(tmp_path):
    folder = _copy(tmp_path, schedule=False)
    runner = CliRunner()
    done = runner.invoke(app, ["watch", str(folder), "--times", "1"])
    assert done.exit_code == 0 and done.stdout.startswith("Watching Day 4")
    rude = runner.invoke(app, ["watch", str(folder), "--every", "5s"])
    assert rude.exit_code == 2 and "at least one minute" in rude.stderr


def test_watch_keeps_watching_when_a_look_fails_with_back_off(tmp_path):
    from modtool.errors import FetchError
    from modtool.host.days import backoff, watch
    from modtool.threads.sources import read_game_posts

    folder = tmp_path / "g"
    shutil.copytree(EXAMPLE, folder)
    answers = iter(["down", "down", "down", "up", "down"])

    def read(game):
        if next(answers) == "down":
            raise FetchError("https://forum.invalid/t/1 answered 503; try again later")
        return read_game_posts(game)

    waits: list[float] = []
    lines = list(watch(folder, read, 600, times=5, sleep=waits.append))
    failed = [line.text for line in lines if line.failed]
    assert len(failed) == 4 and failed[0].startswith("look 1 failed: https://forum.invalid")
    assert "looking again in 10 min" in failed[0] and "in 40 min" in failed[2]
    assert any(not line.failed for line in lines)  # the look that worked printed the day
    assert waits == [600, 1200, 2400, 600]  # back-off, then the interval again after a good look
    assert backoff(600, 10) == 3600 and backoff(7200, 3) == 7200


def test_init_writes_toml_that_reads_back_for_any_name(tmp_path):
    import tomllib

    from modtool.host.starting import init_game
    from modtool.threads.posts import Post

    names = ["Host", "🎲Dice", "Banana", "banana", "하나", 'quo"te', "back\\slash", "Banana"]
    posts = [Post(str(i), i, n, None, None, "<p>hi</p>") for i, n in enumerate(names)]
    source = tmp_path / "t.jsonl"
    source.write_text("")
    folder = tmp_path / "new"
    init_game(folder, str(source), posts, title='🎲 Dice game "III"')
    text = (folder / "game.toml").read_text("utf-8")
    setup = tomllib.loads(text)
    assert "하나" in text and "\\ud" not in text  # readable UTF-8, not JSON escapes
    assert setup["title"] == '🎲 Dice game "III"'
    players = {p["name"]: p.get("aliases", []) for p in setup["players"]}
    assert players == {
        "🎲Dice": [],
        "Banana": ["banana"],
        "하나": [],
        'quo"te': [],
        "back\\slash": [],
    }
    game = load_game(folder)
    assert game.find_slot("banana") == "Banana"


def test_init_leaves_nothing_when_what_it_wrote_does_not_read_back(tmp_path, monkeypatch):
    from modtool.errors import GameFileError
    from modtool.host import starting as days
    from modtool.threads.posts import Post

    def refuse(folder):
        raise GameFileError(folder / "game.toml", "does not read back")

    monkeypatch.setattr(days, "load_game", refuse)
    posts = [Post("1", 1, "Host", None, None, ""), Post("2", 2, "Ann", None, None, "")]
    folder = tmp_path / "new"
    with pytest.raises(GameFileError):
        days.init_game(folder, str(tmp_path / "t.jsonl"), posts)
    assert not folder.exists()  # neither file, and not the folder it made


def test_watch_goes_on_when_the_count_itself_fails_or_the_disk_does(tmp_path):
    from modtool.host.days import watch
    from modtool.threads.sources import read_game_posts

    folder = tmp_path / "g"
    shutil.copytree(EXAMPLE, folder)
    ledger = folder / "events.jsonl"
    good = ledger.read_text()
    # the host recorded a post the thread does not have yet: the count of that look fails
    ledger.write_text(good + '{"kind": "vote_reset", "post": 9999}\n')
    calls = iter(["past the thread", "disk", "fine"])

    def read(game):
        what = next(calls)
        ledger.write_text(good)  # mended for the next look
        if what == "disk":
            raise OSError(5, "Input/output error")
        return read_game_posts(game)

    lines = list(watch(folder, read, 600, times=3, sleep=lambda s: None))
    failed = [line.text for line in lines if line.failed]
    assert len(failed) == 2 and "Input/output error" in failed[1]
    assert any(not line.failed for line in lines)


def test_end_day_at_the_hosts_post_records_the_day_end_count(tmp_path):
    """A day with no deadline and no hammer ends when the host says: `end-day --post N` counts
    it as ended there and records the execution with the end; a post past the thread is
    refused and nothing is written."""
    folder = tmp_path / "g"
    shutil.copytree(EXAMPLE, folder)
    lines = (folder / "events.jsonl").read_text().splitlines()
    (folder / "events.jsonl").write_text(lines[0] + "\n")  # Day 1 started, nothing else
    runner = CliRunner()
    pending = runner.invoke(app, ["end-day", str(folder)])
    assert pending.exit_code == 1 and "give the post that ended it with --post" in pending.stderr
    past = runner.invoke(app, ["end-day", str(folder), "--day", "1", "--post", "999"])
    assert past.exit_code == 1 and "past the thread's last post" in past.stderr
    assert (folder / "events.jsonl").read_text() == lines[0] + "\n"
    done = runner.invoke(app, ["end-day", str(folder), "--day", "1", "--post", "15", "--json"])
    assert done.exit_code == 0, done.output
    written = [json.loads(x) for x in (folder / "events.jsonl").read_text().splitlines()[1:]]
    assert [(e["kind"], e.get("post"), e.get("player")) for e in written] == [
        ("day_end", 15, None),
        ("death", None, "Kohai"),
    ]
    assert load_game(folder).days()[0].end.post == 15


def test_end_day_at_a_post_before_the_day_starts_is_refused(tmp_path):
    """Day 4 of the example starts after post 37: a day cannot end before it starts (a dry run
    had counted nobody alive and announced a win)."""
    folder = tmp_path / "g"
    shutil.copytree(EXAMPLE, folder)
    before = (folder / "events.jsonl").read_text()
    for dry in ([], ["--dry-run"]):
        done = CliRunner().invoke(app, ["end-day", str(folder), "--post", "30", *dry])
        assert done.exit_code == 1 and done.stdout == ""
        assert done.stderr == (
            "Error: --post 30 is not in Day 4, which starts after post 37; give the post the "
            "host ended the day with\n"
        )
    assert (folder / "events.jsonl").read_text() == before


def _day_start(folder, day: int, post: int):
    return CliRunner().invoke(
        app, ["record", "day-start", str(folder), str(day), "--post", str(post)]
    )


@pytest.mark.parametrize("ended", [False, True], ids=["day 4 open", "day 4 ended"])
def test_a_day_start_must_be_the_next_day(tmp_path, ended):
    """Day 6 after Day 4 was accepted: a Day 5 nobody played then counted Day 4's votes."""
    folder = _copy(tmp_path, schedule=False)
    ledger = folder / "events.jsonl"
    if ended:
        ledger.write_text(
            ledger.read_text() + json.dumps({"kind": "day_end", "day": 4, "post": 39}) + "\n"
        )
    before = ledger.read_bytes()
    skipped = _day_start(folder, 6, 40)
    assert skipped.exit_code == 1
    assert skipped.stderr == (
        f"Error: {ledger}: not recorded: day_start: Day 6 is not the next day: the ledger's "
        f"latest is Day 4, so Day 5 comes next; record its start (modtool record day-start "
        f"{folder} 5 --post 40)\n"
    )
    assert ledger.read_bytes() == before
    assert [w.day for w in load_game(folder).days()] == [1, 2, 3, 4]
    # what the error says to run is accepted; a day already started is refused as before
    assert _day_start(folder, 5, 40).exit_code == 0
    again = _day_start(folder, 5, 41)
    assert again.exit_code == 1 and "Day 5 already starts at line" in again.stderr


def test_a_day_end_must_be_of_a_day_begun(tmp_path):
    """Day 6 ended while Day 4 was open was accepted, and made Days 5 and 6 of nothing."""
    folder = _copy(tmp_path, schedule=False)
    ledger = folder / "events.jsonl"
    before = ledger.read_bytes()
    ended = CliRunner().invoke(app, ["record", "day-end", str(folder), "6", "--post", "40"])
    assert ended.exit_code == 1
    assert ended.stderr == (
        f"Error: {ledger}: not recorded: day_end: Day 6 has not begun: the ledger's latest is "
        f"Day 4; end Day 4 first (modtool end-day {folder})\n"
    )
    assert ledger.read_bytes() == before
    assert [w.day for w in load_game(folder).days()] == [1, 2, 3, 4]
    assert (
        CliRunner().invoke(app, ["record", "day-end", str(folder), "4", "--post", "40"]).exit_code
        == 0
    )
    next_one = CliRunner().invoke(app, ["record", "day-end", str(folder), "5", "--post", "41"])
    assert next_one.exit_code == 1 and "record Day 5's start first" in next_one.stderr
