"""Posted vote counts: the layouts hosts use, and the voter-by-voter comparison."""

from __future__ import annotations

import pytest

from modtool.core.reconcile import check_counts, split_wagon_line

from .test_engine import DAY1, _game


@pytest.mark.parametrize(
    ("line", "parts"),
    [
        (
            "Oso (3) - Parama, Bud Bidderskins, [winger]",
            ("Oso", 3, ["Parama", "Bud Bidderskins", "[winger]"]),
        ),
        ("Formerfish - 2 (mnemonicdevice, Elyse)", ("Formerfish", 2, ["mnemonicdevice", "Elyse"])),
        (
            "(3) Whiskers: Friend, Substrike22, Tovarish [L-4]",
            ("Whiskers", 3, ["Friend", "Substrike22", "Tovarish"]),
        ),
        (
            "bubbajack8: Aj The Epic, Amrun, JKMatthews (3)",
            ("bubbajack8", 3, ["Aj The Epic", "Amrun", "JKMatthews"]),
        ),
        ("Kid A: TUNNELSNAKES, N64Lord [L-5]", ("Kid A", None, ["TUNNELSNAKES", "N64Lord"])),
        (
            "Timeater (3)- Elias_the_thief, Slandaar, Senjai",
            ("Timeater", 3, ["Elias_the_thief", "Slandaar", "Senjai"]),
        ),
        (">pitoli (L-5): bestwillcui | implosion", ("pitoli", None, ["bestwillcui", "implosion"])),
        ("3 Name (a, b, c) L-1", ("Name", 3, ["a", "b", "c"])),
        (
            "Not Voting (3) - Akira, sordros, Cecily",
            ("Not Voting", 3, ["Akira", "sordros", "Cecily"]),
        ),
        ("ann (2): bea (#12), cal (#15)", ("ann", 2, ["bea", "cal"])),
        (
            "[b]Name - 3[/b] (a, b, c)".replace("[b]", "").replace("[/b]", ""),
            ("Name", 3, ["a", "b", "c"]),
        ),
        ("With 13 alive it takes 7 to lynch.", None),
        ("Just a sentence with no list", None),
    ],
)
def test_split_wagon_line(line, parts):
    assert split_wagon_line(line) == parts


POSTS = [
    ("Host", "Day 1"),
    ("ann", "<b>VOTE: bea</b>"),
    ("cal", "<b>VOTE: bea</b>"),
    ("dee", "<b>VOTE: ann</b>"),
    # the host misses dee's vote and puts eve, who has not voted, on bea
    ("Host", "Vote count 1.1<br>bea (3) - ann, cal, eve<br>Not voting: dee, bea"),
    ("eve", "<b>VOTE: dee</b>"),
    # a player's count that agrees
    ("bea", "my count:<br>bea (2): ann, cal<br>ann (1): dee<br>dee (1): eve"),
    # a discussion line shaped like a count is not one: its names are no players
    ("cal", "Plan: lynch the scum<br>Later: maybe"),
]


def test_each_posted_count_is_compared_voter_by_voter(tmp_path):
    _game(tmp_path, POSTS, DAY1)
    from modtool.games import load_game
    from modtool.threads.sources import read_game_posts

    game = load_game(tmp_path)
    checks = check_counts(game, read_game_posts(game))
    assert [c.posted.post.number for c in checks] == [4, 6]
    host, player = checks
    got = [(d.voter, d.posted, [(v.target, v.post) for v in d.counted]) for d in host.differences]
    assert got == [("dee", (), [("ann", 3)]), ("eve", ("bea",), [])]
    assert host.notes == ()
    assert player.differences == ()


def test_count_check_prints_the_differences(tmp_path):
    from typer.testing import CliRunner

    from modtool.cli import app

    _game(tmp_path, POSTS, DAY1)
    result = CliRunner().invoke(app, ["count", str(tmp_path), "--check"])
    assert result.exit_code == 0, result.output
    tail = result.output.split("Posted counts:")[1]
    assert tail == (
        " 2 found, 1 differ from modtool's count.\n"
        "  post 4 by Host https://forum.example.invalid/t#4:\n"
        "    dee: posted not voting; modtool counts ann (#3)\n"
        "    eve: posted bea; modtool counts not voting\n"
    )
