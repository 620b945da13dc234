"""Importing a mafiascum archive folder: a small synthetic archive with the cases the dev games
lack (a day kill, a vote reset, a doublevoter, an undated replacement, a Night 0 death)."""

from __future__ import annotations

import json
import lzma

from modtool.core.count import count_days
from modtool.core.ledger import EventKind
from modtool.games import load_game
from modtool.host.importer import import_mafiascum_archive
from modtool.threads.sources import read_game_posts

VOTE = '<span class="bbvote" title="This is an official vote.">VOTE: {}</span>'


def _archive(tmp_path):
    posts = [
        ("Mod", "Day 1 begins"),  # 0
        ("ann", VOTE.format("cal")),  # 1
        ("bea", VOTE.format("cal")),  # 2
        ("Mod", "Votes are reset."),  # 3
        ("cal", VOTE.format("ann")),  # 4
        ("Mod", "dan was shot by the vigilante!"),  # 5: day kill, 4 alive -> majority 3
        ("ann", VOTE.format("cal")),  # 6
        ("eve", VOTE.format("cal")),  # 7: eve, who replaced zed, is a doublevoter
        ("Mod", "cal is lynched. Night 1."),  # 8
        ("Mod", "Day 2"),  # 9
        ("bea", VOTE.format("ann")),  # 10
    ]
    lines = [
        json.dumps(
            {
                "forum": "1",
                "thread": "900",
                "pagelink": "https://example.invalid/t=900",
                "number": str(n),
                "timestamp": "Fri Feb 25, 2011 11:00 am",
                "user": u,
                "content": c,
            }
        )
        for n, (u, c) in enumerate(posts)
    ]
    (tmp_path / "posts").mkdir(parents=True)
    with lzma.open(tmp_path / "posts" / "900.jsonl.xz", "wt") as fh:
        fh.write("\n".join(lines) + "\n")

    def slot(names, fate_kind, fate_phase, joined=None):
        return {
            "names": names,
            "forum_names": names,
            "aliases": [],
            "joined_post": joined or [0] * len(names),
            "role": "Town",
            "fate": "",
            "fate_kind": fate_kind,
            "fate_phase": fate_phase,
        }

    case = {
        "game": "9999",
        "title": "Mini 9999",
        "thread_url": "https://example.invalid/t=900",
        "thread_id": "900",
        "moderators": ["Mod"],
        "slots": [
            slot(["ann"], "survived", None),
            slot(["bea"], "survived", None),
            slot(["cal"], "lynched", "D1"),
            slot(["dan"], "killed", "D1"),
            slot(["zed", "eve"], "survived", None, [0, None]),  # eve's replacement post unknown
            slot(["fay"], "killed", "N0"),
        ],
        "doublevoters": [4],
        "less_one_for_no_lynch": False,
        "events": [
            {"post": 3, "kind": "votecount_reset", "player": None, "text": ""},
            {"post": 5, "kind": "day_kill", "player": "dan", "slot": 3, "text": ""},
        ],
        "days": [
            {"day": 1, "start_post": 0, "end_post": 8},
            {"day": 2, "start_post": 8, "end_post": None},
        ],
    }
    (tmp_path / "cases.jsonl").write_text(json.dumps(case) + "\n")
    return tmp_path


def test_import_writes_a_game_the_engine_can_count(tmp_path):
    archive = _archive(tmp_path / "archive")
    report = import_mafiascum_archive(archive, tmp_path / "games")
    assert report.games == ("9999",) and not report.skipped
    game = load_game(tmp_path / "games" / "9999")
    assert game.hosts == ("Mod",)
    assert game.slot("zed").weight == 2
    replacement = game.events_of(EventKind.REPLACEMENT)[0]
    assert (replacement.by, replacement.at.post) == ("eve", 7)  # dated by eve's first post
    day1, day2 = count_days(game, read_game_posts(game))
    # fay died in Night 0: 5 alive at the start of Day 1. The reset at post 3 clears ann's and
    # bea's votes on cal; dan's day kill at post 5 leaves 4 alive (majority 3); eve's vote is
    # worth 2, so ann + eve hammer cal at post 7, and bea's old vote is not among them.
    assert (day1.outcome.kind, day1.outcome.player, day1.outcome.post) == ("execution", "cal", 7)
    assert day1.alive == 4 and day1.threshold == 3
    [cal] = [w for w in day1.wagons if w.target == "cal"]
    assert (cal.votes, [(v.player, v.weight) for v in cal.voters]) == (3, [("ann", 1), ("eve", 2)])
    # Day 2 has no recorded end: it is still going, with cal and dan gone.
    assert day2.outcome.kind == "pending" and day2.alive == 3


def test_a_missing_posts_file_is_reported_not_fatal(tmp_path):
    archive = _archive(tmp_path / "archive")
    (archive / "posts" / "900.jsonl.xz").unlink()
    report = import_mafiascum_archive(archive, tmp_path / "games")
    assert report.games == () and report.skipped == ("9999: no posts file 900.jsonl.xz",)


def _case_with(tmp_path, **changes):
    archive = _archive(tmp_path / "archive")
    case = json.loads((archive / "cases.jsonl").read_text())
    for key, value in changes.items():
        changes[key] = value(case) if callable(value) else value
    case.update(changes)
    (archive / "cases.jsonl").write_text(json.dumps(case) + "\n")
    report = import_mafiascum_archive(archive, tmp_path / "games")
    assert report.games == ("9999",), report.skipped
    game = load_game(tmp_path / "games" / "9999")
    return game, count_days(game, read_game_posts(game)), report.guessed


def _slots(case, index, **fields):
    slots = [dict(s) for s in case["slots"]]
    slots[index].update(fields)
    return slots


def test_a_death_in_a_day_the_archive_has_no_start_for_gets_that_day(tmp_path):
    # bea dies in D3; the archive records Day 2's start and nothing of Day 3
    game, days, guessed = _case_with(
        tmp_path, slots=lambda c: _slots(c, 1, fate_kind="killed", fate_phase="D3")
    )
    [start] = [e for e in game.events_of(EventKind.DAY_START) if e.day == 3]
    assert start.at.post == 8  # where the last recorded day (Day 2, from post 8) stopped
    assert [d.day for d in days] == [1, 2, 3]
    note = "Day 3 start guessed at post 8 (a death in D3 shows the game reached Day 3)"
    assert start.note == note and guessed == (f"9999: {note}",)


def test_days_between_a_guessed_start_and_the_last_recorded_day_are_named(tmp_path):
    game, days, guessed = _case_with(
        tmp_path, slots=lambda c: _slots(c, 1, fate_kind="killed", fate_phase="D5")
    )
    assert guessed == (
        "9999: Day 5 start guessed at post 8 (a death in D5 shows the game reached Day 5); "
        "Days 3-4 hold no posts",
    )
    assert [d.day for d in days] == [1, 2, 3, 4, 5]


def test_a_replacement_by_the_slots_own_name_is_a_rename(tmp_path):
    game, _, guessed = _case_with(tmp_path, slots=lambda c: _slots(c, 0, names=["ann", "Ann"]))
    assert not [e for e in game.events_of(EventKind.REPLACEMENT) if e.slot == "ann"]


def test_a_replacement_by_another_slots_nickname_takes_the_name_from_it(tmp_path):
    game, _, guessed = _case_with(tmp_path, slots=lambda c: _slots(c, 1, aliases=["eve"]))
    assert game.find_slot("eve") == "zed" and "eve" not in game.slot("bea").accounts


def test_a_replacement_by_another_slots_player_is_left_out(tmp_path):
    game, _, guessed = _case_with(tmp_path, slots=lambda c: _slots(c, 4, names=["zed", "bea"]))
    assert not game.events_of(EventKind.REPLACEMENT) and game.find_slot("bea") == "bea"
    (note,) = guessed
    assert note.startswith("9999: replacement of zed by bea at post ")
    assert note.endswith(": bea already plays bea's slot")


def test_every_dev_game_imports_and_counts_without_an_error(shared, tmp_path):
    archive = shared / "fixtures" / "mafiascum-dev"
    report = import_mafiascum_archive(archive, tmp_path)
    assert not report.skipped and len(report.games) == 60
    for name in report.games:
        game = load_game(tmp_path / name)
        assert count_days(game, read_game_posts(game)), name
