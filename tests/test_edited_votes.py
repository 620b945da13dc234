"""An edited post holding a vote is counted as it reads now, and flagged for the host
(conventions, rule 7: "Flag edited posts that contain votes")."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from modtool.cli import app

PLAYERS = ("Aster", "Birch_wood", "Cypress", "Dahlia", "Elmwood", "Fern", "Ginkgo")
POSTS = [
    ("Aster", "<b>VOTE: Fern</b>", False),
    ("Fern", "<b>VOTE: Aster</b>", False),
    ("Birch_wood", "<b>VOTE: Aster</b>", True),  # re-saved: it said "VOTE: Fern" before
    ("Cypress", "<b>VOTE: Fern</b>", False),
    ("Dahlia", "talk, edited for a typo", True),  # no vote: nothing to flag
]


def _game(tmp_path, events=()):
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "game.toml").write_text(
        'hosts = ["Mod"]\n[[sources]]\npath = "posts.jsonl"\n[rules]\npreset = "mafiascum"\n'
        + "".join(f'[[players]]\nname = "{n}"\n' for n in PLAYERS)
    )
    (folder / "posts.jsonl").write_text(
        "".join(
            json.dumps({"post_id": str(n), "number": n, "author": a, "html": h, "edited": edited})
            + "\n"
            for n, (a, h, edited) in enumerate(POSTS, 1)
        )
    )
    (folder / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    return folder


def _count(folder, *more):
    return CliRunner().invoke(app, ["count", str(folder), *more])


def test_an_edited_vote_post_is_counted_as_it_reads_and_flagged(tmp_path):
    """The probe's E2: the edit was read, and nothing said it had been edited."""
    shown = _count(_game(tmp_path), "--audit")
    assert shown.exit_code == 0, shown.output
    assert shown.stdout == (
        "Day 1 vote count (through post 5)\n"
        "Wagon      Votes  Needs    Voters\n"
        "-------  -------  -------  --------------------------\n"
        "Aster          2  L-2      Fern (#2), Birch_wood (#3)\n"
        "Fern           2  L-2      Aster (#1), Cypress (#4)\n"
        "Not voting (3): Dahlia, Elmwood, Ginkgo\n"
        "With 7 alive, it takes 4 to lynch.\n"
        "Outcome: Pending (Day 1 is in progress; leading: Aster (2)).\n"
        "Warnings:\n"
        "  post 3: Birch_wood's vote post was edited; counted as it reads now\n"
        "Audit (4 actions):\n"
        "  post 1 Aster: 'VOTE: Fern' -> Fern [exact 1.00]: counted (vote)\n"
        "  post 2 Fern: 'VOTE: Aster' -> Aster [exact 1.00]: counted (vote)\n"
        "  post 3 Birch_wood: 'VOTE: Aster' -> Aster [exact 1.00]: counted (vote)\n"
        "  post 4 Cypress: 'VOTE: Fern' -> Fern [exact 1.00]: counted (vote)\n"
    )


def test_a_correction_of_the_edited_post_is_the_hosts_reading_and_ends_the_flag(tmp_path):
    folder = _game(
        tmp_path, [{"kind": "correction", "post": 3, "action": "target", "target": "Fern"}]
    )
    shown = _count(folder)
    assert "Fern           3  L-1" in shown.stdout
    assert "Warnings" not in shown.stdout
