"""A ghost vote is spent once cast, also when a death clears it from its wagon: the count,
end-day, the grimoire, the town square and the day-end draft all say so (one function,
`count.ghost_votes_spent`, over the count's own record)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from modtool.cli import app
from modtool.core.count import ghost_votes_spent
from modtool.core.ledger import Phase, PhaseKind
from modtool.games import load_game
from modtool.host.pictures import GhostVote, town_square
from modtool.threads.sources import read_game_posts

ROLES = {
    "awesome5000": "Empath",
    "Banana": "Imp",
    "ILikePie5": "Fortune Teller",
    "Kohai": "Drunk",
    "Magoroth": "Monk",
    "Neros": "Poisoner",
    "RexFavilla": "Ravenkeeper",
    "Shining": "Saint",
    "whiteflame": "Undertaker",
    "wylted": "Baron",
}
POSTS = [
    ("Thoth", "<b>Day 1 begins.</b>"),
    *[(voter, "VTL wylted") for voter in ("awesome5000", "Banana", "ILikePie5", "Kohai", "Neros")],
    ("Thoth", "Day 1 is over. wylted is executed."),  # 6
    ("Thoth", "Night 1."),
    ("Thoth", "<b>Day 2.</b> Magoroth died in the night."),  # 8
    ("Shining", "VTL Banana"),
    ("Neros", "VTL Shining"),
    ("Banana", "VTL Shining"),
    ("wylted", "VTL Shining"),  # 12: wylted's ghost vote
    ("Thoth", "Shining has died."),  # 13: clears the votes on Shining, wylted's too
    ("Shining", "ghost vote: VTL Banana"),  # 14: Shining's ghost vote
    ("Thoth", "Day 2 is over."),  # 15
    ("Thoth", "<b>Day 3.</b>"),  # 16
    ("Neros", "VTL Kohai"),
    ("wylted", "VTL Kohai"),  # 18: refused, spent on Day 2
]
EVENTS = [
    {"kind": "day_start", "day": 1, "post": 0},
    {"kind": "day_end", "day": 1, "post": 6},
    {"kind": "death", "player": "wylted", "phase": "D1", "cause": "executed"},
    {"kind": "death", "player": "Magoroth", "phase": "N1", "cause": "killed"},
    {"kind": "day_start", "day": 2, "post": 8},
    {"kind": "death", "player": "Shining", "post": 13, "cause": "killed by the Storyteller"},
]


def _game(tmp_path, events=EVENTS):
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "game.toml").write_text(
        'timezone = "America/New_York"\nhosts = ["Thoth"]\nscript = "trouble-brewing-forum"\n'
        '[[sources]]\npath = "posts.jsonl"\n[rules]\npreset = "botc-forum"\n'
        '[setup]\nbluffs = ["Chef", "Soldier", "Mayor"]\nminion_info = "demon"\n'
        'red_herring = "Shining"\n'
        + "".join(
            f'[[players]]\nname = "{name}"\nseat = {seat}\nrole = "{role}"\n'
            + ('shown = "Washerwoman"\n' if role == "Drunk" else "")
            for seat, (name, role) in enumerate(ROLES.items(), 1)
        )
    )
    (folder / "posts.jsonl").write_text(
        "".join(
            json.dumps(
                {
                    "post_id": str(n),
                    "number": n,
                    "author": author,
                    "time": f"2026-11-09T{9 + n // 3:02d}:{20 * (n % 3):02d}:00-05:00",
                    "url": None,
                    "html": html,
                }
            )
            + "\n"
            for n, (author, html) in enumerate(POSTS)
        )
    )
    (folder / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    return folder


def _run(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def test_end_day_records_a_ghost_vote_a_death_cleared(tmp_path):
    """The probe's K2: end-day recorded Shining's ghost vote (on a wagon at the end) and not
    wylted's (cast at post 12 on Shining, cleared by Shining's death at post 13)."""
    folder = _game(tmp_path)
    closed = _run("end-day", folder, "--post", "15")
    assert closed.exit_code == 0, closed.output
    added = (folder / "events.jsonl").read_text().splitlines()[len(EVENTS) :]
    assert [json.loads(line) for line in added] == [
        {
            "kind": "day_end",
            "day": 2,
            "post": 15,
            "note": "the most votes (1) is below the 4 needed with 7 alive",
        },
        {"kind": "ghost_vote", "player": "wylted", "day": 2},
        {"kind": "ghost_vote", "player": "Shining", "day": 2},
    ]


# Day 2 closed by hand: the spent ghost votes come from the thread alone
CLOSED = [
    *EVENTS,
    {"kind": "day_end", "day": 2, "post": 15},
    {"kind": "day_start", "day": 3, "post": 16},
]


def test_every_place_that_shows_ghost_votes_agrees_with_the_count(tmp_path):
    folder = _game(tmp_path, CLOSED)
    game = load_game(folder)
    posts = read_game_posts(game)
    assert ghost_votes_spent(game, posts, 2) == {"wylted": 2, "Shining": 2}
    day3 = _run("count", folder, "--day", "3")
    assert "  post 18: wylted's ghost vote: ghost vote already spent" in day3.stdout
    grimoire = _run("grimoire", folder, "--night", "2")
    assert grimoire.exit_code == 0, grimoire.output
    dead = [line.rstrip() for line in grimoire.stdout.splitlines() if " dead " in line]
    assert dead == [
        "     5  Magoroth     Monk                      good         dead N1, ghost vote",
        "     8  Shining      Saint                     good         dead D2, ghost vote spent D2"
        "  red herring",
        "    10  wylted       Baron                     evil         dead D1, ghost vote spent D2",
    ]
    square = town_square(game, posts, Phase(2, PhaseKind.NIGHT))
    held = {s.player: s.ghost_vote for s in square.seats if s.ghost_vote is not None}
    assert held == {
        "Magoroth": GhostVote.HELD,
        "Shining": GhostVote.SPENT,
        "wylted": GhostVote.SPENT,
    }
    dayend = _run("draft", "dayend", folder, "--day", "2", "--stdout")
    assert "Ghost votes spent today: wylted, Shining." in dayend.stdout
