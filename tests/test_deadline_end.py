"""A day its deadline ends: it ends at the deadline (not at its last post), for the count, the
ledger, the schedule and the drafts; and the votes posted after it are reported, not counted."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from modtool.cli import app

PLAYERS = ("Aster", "Birch_wood", "Cypress", "Dahlia", "Elmwood", "Fern", "Ginkgo")
# Day 1 runs 09:00-11:00 (New York), Night 1 11:00-12:00, Day 2 12:00-14:00
SCHEDULE = '[schedule]\nstart = "2026-11-09T09:00"\nday = "2h"\nnight = "1h"\n'
POSTS = [
    ("Mod", "09:00", "<b>Day 1 begins.</b>"),
    ("Aster", "09:20", "<b>VOTE: Fern</b>"),
    ("Fern", "09:40", "<b>VOTE: Aster</b>"),
    ("Birch_wood", "10:00", "<b>VOTE: Fern</b>"),
    ("Cypress", "10:20", "talk"),
    ("Elmwood", "10:40", "<b>VOTE: Fern</b>"),  # the day's last post: Fern 3 of the 4 needed
    ("Dahlia", "11:20", "<b>VOTE: Fern</b>"),  # after the deadline: would have hammered
    ("Mod", "12:05", "<b>Day 2 begins.</b>"),
    ("Ginkgo", "12:10", "<b>VOTE: Aster</b>"),  # Day 2's, by the schedule
]


def _game(tmp_path, posts=POSTS):
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "game.toml").write_text(
        'timezone = "America/New_York"\nhosts = ["Mod"]\n[[sources]]\npath = "posts.jsonl"\n'
        f'[rules]\npreset = "mafiascum"\n{SCHEDULE}'
        + "".join(f'[[players]]\nname = "{n}"\n' for n in PLAYERS)
    )
    (folder / "posts.jsonl").write_text(
        "".join(
            json.dumps(
                {
                    "post_id": str(n),
                    "number": n,
                    "author": author,
                    "time": f"2026-11-09T{hour}:00-05:00",
                    "url": None,
                    "html": html,
                    **extra,
                }
            )
            + "\n"
            for n, (author, hour, html, *more) in enumerate(posts)
            for extra in [more[0] if more else {}]
        )
    )
    (folder / "events.jsonl").write_text('{"kind": "day_start", "day": 1, "post": 0}\n')
    return folder


def _run(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


DAY1_COUNT = """\
Day 1 vote count (through post 5)
Wagon      Votes  Needs    Voters
-------  -------  -------  -----------------------------------------
Fern           3  L-1      Aster (#1), Birch_wood (#3), Elmwood (#5)
Aster          1  L-3      Fern (#2)
Not voting (3): Cypress, Dahlia, Ginkgo
With 7 alive, it takes 4 to lynch.
Outcome: No execution at post 5 (nobody reached a majority by day end).
Warnings:
  post 6: Dahlia voted after the deadline (2026-11-09 11:00 EST); not counted
"""


# the night and Day 2 run from Day 1's deadline, not from its last post (10:40)
SCHEDULED = """\
Phase    Starts                    Deadline                  Deadline (UTC)        Left
-------  ------------------------  ------------------------  --------------------  ------
Day 1    Mon 2026-11-09 09:00 EST  Mon 2026-11-09 11:00 EST  2026-11-09 16:00 UTC  past
Night 1  Mon 2026-11-09 11:00 EST  Mon 2026-11-09 12:00 EST  2026-11-09 17:00 UTC  past
Day 2    Mon 2026-11-09 12:00 EST  Mon 2026-11-09 14:00 EST  2026-11-09 19:00 UTC  past
"""


def test_end_day_at_a_passed_deadline_records_the_deadline_beside_the_last_post(tmp_path):
    """The probe's N1: the day's end was recorded at its last post (10:40) alone, so the night
    and Day 2 ran 20 minutes early in `schedule` and in the deadlines the drafts announce."""
    folder = _game(tmp_path)
    closed = _run("end-day", folder, "--day", "1")
    assert closed.exit_code == 0, closed.output
    recorded = (
        '{"kind": "day_end", "day": 1, "post": 5, "time": "2026-11-09T11:00:00-05:00", '
        '"note": "nobody reached a majority by day end"}'
    )
    assert closed.stdout == DAY1_COUNT + f"Recorded {recorded}\n"
    assert (folder / "events.jsonl").read_text().splitlines()[-1] == recorded
    # the count is the same once closed: post 6, after the deadline, does not count
    assert _run("count", folder, "--day", "1").stdout == DAY1_COUNT
    shown = _run("schedule", folder, "--phases", "3")
    assert shown.stdout == SCHEDULED
    dayend = _run("draft", "dayend", folder, "--day", "1", "--stdout")
    assert dayend.stdout.splitlines()[-1] == "Night 1 begins. Day 2 ends 2026-11-09 14:00 EST."
    nightend = _run("draft", "nightend", folder, "--night", "1", "--stdout")
    assert "Day 2 begins. It ends 2026-11-09 14:00 EST." in nightend.stdout


def test_a_day_the_host_ends_at_a_post_ends_at_that_post(tmp_path):
    """`end-day --post`: the host's post ends the day, so no time is recorded beside it."""
    folder = _game(tmp_path)
    closed = _run("end-day", folder, "--day", "1", "--post", "4")
    assert closed.exit_code == 0, closed.output
    last = json.loads((folder / "events.jsonl").read_text().splitlines()[-1])
    assert last == {
        "kind": "day_end",
        "day": 1,
        "post": 4,
        "note": "nobody reached a majority by day end",
    }


AUDIT = """\
Audit (5 actions):
  post 1 Aster: 'VOTE: Fern' -> Fern [exact 1.00]: counted (vote)
  post 2 Fern: 'VOTE: Aster' -> Aster [exact 1.00]: counted (vote)
  post 3 Birch_wood: 'VOTE: Fern' -> Fern [exact 1.00]: counted (vote)
  post 5 Elmwood: 'VOTE: Fern' -> Fern [exact 1.00]: counted (vote)
  post 6 Dahlia: 'VOTE: Fern' -> Fern [exact 1.00]: not counted (posted after the deadline)
"""


def test_a_vote_after_the_deadline_is_reported_not_counted(tmp_path):
    """The probe's T2: Dahlia's vote at 11:20 would have hammered at 4 of 4; it is left out,
    and said so, in the warnings and the audit, before and after the day is closed. The host's
    post and Day 2's vote (12:10, after the night's scheduled end) are not Day 1's late votes."""
    folder = _game(tmp_path)
    before = _run("count", folder, "--day", "1", "--audit")
    assert before.exit_code == 0, before.output
    assert before.stdout == DAY1_COUNT + AUDIT
    assert _run("end-day", folder, "--day", "1").exit_code == 0
    assert _run("count", folder, "--day", "1", "--audit").stdout == DAY1_COUNT + AUDIT
    (shown,) = json.loads(_run("count", folder, "--day", "1", "--json", "--audit").stdout)
    assert shown["warnings"] == [
        {
            "post": 6,
            "message": "Dahlia voted after the deadline (2026-11-09 11:00 EST); not counted",
        }
    ]
    assert [(a["post"], a["accepted"], a["rule"]) for a in shown["audit"]][-1] == (
        6,
        False,
        "posted after the deadline",
    )


def test_a_vote_at_the_deadline_itself_counts_and_no_late_vote_is_no_warning(tmp_path):
    posts = [
        *POSTS[:6],
        ("Dahlia", "11:00", "<b>VOTE: Fern</b>"),
        ("Cypress", "11:20", "late talk"),
    ]
    folder = _game(tmp_path, posts)
    shown = _run("count", folder, "--day", "1")
    assert "Fern is executed at post 6 (reached majority: 4 of 4 needed" in shown.stdout
    assert "Warnings" not in shown.stdout
