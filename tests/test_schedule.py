"""Deadlines as data, exact across a change of clocks, for both seeds' schedules."""

from __future__ import annotations

import json
import shutil
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from modtool.core.count import count_days
from modtool.core.ledger import PhaseKind
from modtool.core.schedule import add_real_hours, phases
from modtool.games import load_game
from modtool.threads.sources import read_game_posts

NEW_YORK = ZoneInfo("America/New_York")
UTC = ZoneInfo("UTC")


def _real(later, earlier) -> timedelta:
    """Real time between two moments (Python subtracts same-zone times by their wall clocks)."""
    return later.astimezone(UTC) - earlier.astimezone(UTC)


LONDON = ZoneInfo("Europe/London")


def _folder(tmp_path, zone: str, schedule: str, events: list[dict] = (), posts: list = ()):
    (tmp_path / "game.toml").write_text(
        f'timezone = "{zone}"\nhosts = ["Host"]\n[[sources]]\npath = "p.jsonl"\n'
        f'[rules]\npreset = "botc-forum"\n[schedule]\n{schedule}\n'
        + "".join(f'[[players]]\nname = "{n}"\n' for n in ("ann", "bea", "cal", "dee"))
    )
    (tmp_path / "p.jsonl").write_text("".join(json.dumps(p) + "\n" for p in posts) or "\n")
    (tmp_path / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    return load_game(tmp_path)


SEED_003 = 'start = "2026-10-29T12:00"\nfirst_day = "96h"\nday = "72h"\nnight = "host"'


def test_seed_003_day_one_is_96_real_hours_across_the_end_of_summer_time(tmp_path):
    game = _folder(
        tmp_path,
        "America/New_York",
        SEED_003,
        [{"kind": "day_start", "day": 2, "time": "2026-11-03T12:00"}],
    )
    day1, night1, day2, night2 = phases(game, game.schedule, count=4)
    assert day1.start == datetime(2026, 10, 29, 12, 0, tzinfo=NEW_YORK)
    # New York left summer time on 1 November: 96 real hours end at 11:00 on the wall clock
    assert day1.deadline == datetime(2026, 11, 2, 11, 0, tzinfo=NEW_YORK)
    assert day1.deadline.astimezone(ZoneInfo("UTC")).hour == 16
    assert _real(day1.deadline, day1.start) == timedelta(hours=96)
    # the night ends when the host starts Day 2, which then lasts 72 hours
    assert night1.deadline == day2.start == datetime(2026, 11, 3, 12, 0, tzinfo=NEW_YORK)
    assert day2.recorded and day2.deadline == datetime(2026, 11, 6, 12, 0, tzinfo=NEW_YORK)
    assert night2.deadline is None  # the host decides


SEED_004 = (
    'start = "2026-10-19"\nturn = "00:00"\nweekdays = { monday = "day", tuesday = "day", '
    'wednesday = "night", thursday = "day", friday = "day", saturday = "night", '
    'sunday = "night" }'
)


def test_seed_004_weekday_calendar_keeps_the_wall_clock_across_the_change(tmp_path):
    game = _folder(tmp_path, "Europe/London", SEED_004)
    found = phases(game, game.schedule, count=6)
    names = [
        (str(p.phase), p.start.strftime("%a %H:%M"), p.deadline.strftime("%a %H:%M")) for p in found
    ]
    assert names == [
        ("D1", "Mon 00:00", "Wed 00:00"),
        ("N1", "Wed 00:00", "Thu 00:00"),
        ("D2", "Thu 00:00", "Sat 00:00"),
        ("N2", "Sat 00:00", "Mon 00:00"),  # clocks went back on Sunday 25 October
        ("D3", "Mon 00:00", "Wed 00:00"),
        ("N3", "Wed 00:00", "Thu 00:00"),
    ]
    night2 = found[3]
    assert night2.deadline == datetime(2026, 10, 26, 0, 0, tzinfo=LONDON)
    assert _real(night2.deadline, night2.start) == timedelta(hours=49)  # an hour more than it reads
    assert [p.phase.kind for p in found[:2]] == [PhaseKind.DAY, PhaseKind.NIGHT]


def test_a_calendar_must_start_on_a_day(tmp_path):
    game = _folder(tmp_path, "Europe/London", SEED_004.replace("2026-10-19", "2026-10-21"))
    with pytest.raises(ValueError, match="is a night"):
        phases(game, game.schedule)


def test_real_hours_are_real():
    start = datetime(2026, 3, 7, 12, 0, tzinfo=NEW_YORK)  # summer time begins on 8 March
    assert add_real_hours(start, timedelta(hours=24)) == datetime(
        2026, 3, 8, 13, 0, tzinfo=NEW_YORK
    )


def _post(n, author, hour, html):
    return {
        "post_id": str(n),
        "number": n,
        "author": author,
        "time": f"2026-10-{hour[0]:02d}T{hour[1]:02d}:00:00-04:00",
        "url": None,
        "html": html,
    }


def test_a_day_without_a_recorded_end_ends_at_its_deadline(tmp_path):
    posts = [
        _post(0, "Host", (29, 12), "Day 1"),
        _post(1, "ann", (30, 9), "VTL bea"),
        _post(2, "cal", (30, 10), "VTL bea"),
        _post(3, "dee", (31, 9), "VTL cal"),  # before the deadline (2 November 11:00)
    ]
    game = _folder(
        tmp_path,
        "America/New_York",
        SEED_003,
        [{"kind": "day_start", "day": 1, "post": 0}],
        posts
        + [
            {**_post(4, "bea", (31, 9), "VTL cal"), "time": "2026-11-02T11:30:00-05:00"},
        ],
    )
    after = datetime(2026, 11, 2, 12, 0, tzinfo=NEW_YORK)
    (day,) = count_days(game, read_game_posts(game), now=after)
    assert (
        day.outcome.kind == "execution" and day.outcome.player == "bea"
    )  # 2 of 2, bea's late vote void
    assert day.last_post == 3
    before = datetime(2026, 11, 1, 12, 0, tzinfo=NEW_YORK)
    (going,) = count_days(game, read_game_posts(game), now=before)
    assert going.outcome.kind == "pending"


def test_a_day_started_at_a_post_takes_its_time_and_the_schedules_length(tmp_path):
    """`record day-start GAME 4 --post 37` with `day = "48h"`: Day 4 starts at post 37's time
    and ends 48 hours later (it said "when the host says" when `schedule` did not read the
    thread for the post's time)."""
    from typer.testing import CliRunner

    from modtool.cli import app
    from tests.conftest import EXAMPLE

    folder = tmp_path / "game"
    shutil.copytree(EXAMPLE, folder)
    with (folder / "game.toml").open("a") as f:
        f.write('\n[schedule]\nstart = "2026-11-02T12:00"\nday = "48h"\nnight = "host"\n')
    ledger = folder / "events.jsonl"
    lines = ledger.read_text().splitlines(keepends=True)
    ledger.write_text("".join(x for x in lines if '"day": 4, "post": 37' not in x))
    runner = CliRunner()
    recorded = runner.invoke(app, ["record", "day-start", str(folder), "4", "--post", "37"])
    assert recorded.exit_code == 0, recorded.output
    shown = runner.invoke(app, ["schedule", str(folder), "--phases", "8", "--json"])
    assert shown.exit_code == 0, shown.output
    day4 = next(p for p in json.loads(shown.stdout) if p["phase"] == "D4")
    post37 = next(p for p in read_game_posts(load_game(folder)) if p.number == 37)
    assert datetime.fromisoformat(day4["start"]) == post37.time
    assert _real(datetime.fromisoformat(day4["deadline"]), post37.time) == timedelta(hours=48)
    assert day4["recorded"] is True
