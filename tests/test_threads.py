"""A game played over several threads: one timeline, post numbers per thread."""

from __future__ import annotations

import json

from modtool.core.count import count_days
from modtool.games import load_game
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
