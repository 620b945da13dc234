"""A scripted game per family of rules (issue 24), played as a host would: the game folder is
built only through game.toml, the thread and the ledger's `record` commands, and every
command's output is one golden transcript (tests/golden/scripted-*.txt; regenerate with
MODTOOL_UPDATE_GOLDEN=1 and read the diff).

- the No Dashii over two nights: its first-night step, its poisoned Townsfolk in the grimoire,
  a poisoned Monk who protects nobody;
- a Tea Lady and Fool day: two executions the rules keep from killing;
- a Lleech game to the end: the Lleech survives its execution, then dies with its host;
- the Vampires game: a tie the vampires settle by post, a Scion's deception at death, and a
  win that nothing can prevent.
"""

from __future__ import annotations

import json
import os
import shlex

from typer.testing import CliRunner

from modtool.cli import app

from .conftest import ROOT

GOLDEN = ROOT / "tests" / "golden"
runner = CliRunner()
SEATED = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fin", "Gil", "Hal"]


def _folder(tmp_path, head: str, roles: list[tuple[str, str]], posts: list[tuple]) -> object:
    """game.toml (its head, then one [[players]] per (name, role)) and the thread: posts as
    (author, text) or (author, text, time)."""
    folder = tmp_path / "game"
    folder.mkdir()
    players = "\n".join(
        f'[[players]]\nname = "{p}"\nseat = {i}\nrole = "{r}"\n'
        for i, (p, r) in enumerate(roles, 1)
    )
    (folder / "game.toml").write_text(f'{head}\n[[sources]]\npath = "thread.jsonl"\n\n{players}')
    with (folder / "thread.jsonl").open("w") as f:
        for n, post in enumerate(posts):
            author, text, time = (*post, None)[:3]
            f.write(
                json.dumps(
                    {
                        "post_id": f"p{n}",
                        "number": n,
                        "author": author,
                        "time": time,
                        "url": f"https://example.invalid/t#{n}",
                        "html": text,
                    }
                )
                + "\n"
            )
    (folder / "events.jsonl").write_text("")
    return folder


def _play(folder, steps: list[str]) -> str:
    """Run each step (`modtool` arguments, G for the game folder); the transcript of them all."""
    out = []
    for step in steps:
        args = [str(folder) if a == "G" else a for a in shlex.split(step)]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (step, result.output)
        text = result.stdout.replace(str(folder), "G")
        out.append(f"$ modtool {step}\n{text}")
    return "\n".join(out)


def _golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("MODTOOL_UPDATE_GOLDEN"):
        path.write_text(text)
    assert text == path.read_text()


def _events(folder) -> list[dict]:
    return [json.loads(x) for x in (folder / "events.jsonl").read_text().splitlines()]


BOTC = 'title = "t"\nscript = "cheomseongdae"\n[rules]\npreset = "botc-forum"'


def _votes(day: int, target: str, voters: list[str]) -> list[tuple]:
    return [("ST", f"Day {day}."), *((v, f"<b>VTL {target}</b>") for v in voters)]


def test_the_no_dashii_over_two_nights(tmp_path):
    roles = ["empath", "nodashii", "monk", "poisoner", "investigator", "undertaker", "saint"]
    seats = list(zip(SEATED, [*roles, "slayer"], strict=True))
    posts = [*_votes(1, "Eve", ["Ann", "Ben", "Cat", "Dan", "Fin"]), ("ST", "Day 2.")]
    folder = _folder(tmp_path, BOTC, seats, posts)
    transcript = _play(
        folder,
        [
            "night G --night 0",
            "grimoire G --night 0",
            "record day-start G 1 --post 0",
            "record day-end G 1 --post 5",
            "count G --day 1",
            "record death G Eve --phase D1 --cause executed",
            "record choice G Ben Hal --night 1",
            "record choice G Cat Hal --night 1",
            "night G --night 1",
            "night G --night 1 --resolve --json",
            "night G --night 1 --resolve --confirm",
            "record day-start G 2 --post 6",
            "grimoire G --day 2",
        ],
    )
    _golden("scripted-no-dashii.txt", transcript)
    # the Monk (Cat) is the No Dashii's neighbour: poisoned, the protection does nothing
    assert {"kind": "death", "player": "Hal", "phase": "N1", "cause": "killed"} in _events(folder)
    assert "Mark the No Dashii's closest Townsfolk each way as poisoned (Cat, Ann)" in transcript


TWO_DAYS = [
    "record day-start G 1 --post 0",
    "record day-end G 1 --post 5",
    "record day-start G 2 --post 6",
    "record day-end G 2 --post 11",
]


def _two_days(tmp_path, roles, voters, executed, before=(), between=(), after=()):
    """A Clocktower game of two days, each executing one player (`executed`), with the host's
    steps before the first, after Day 1 ends and after Day 2 ends."""
    posts = [p for day, who in enumerate(executed, 1) for p in _votes(day, who, voters)]
    folder = _folder(tmp_path, BOTC, list(zip(SEATED, roles, strict=True)), posts)
    steps = [*before, *TWO_DAYS[:2], *between, *TWO_DAYS[2:], *after]
    return folder, _play(folder, steps)


def test_a_tea_lady_and_fool_day(tmp_path):
    roles = ["empath", "tealady", "monk", "investigator", "imp", "poisoner", "saint", "fool"]
    folder, transcript = _two_days(
        tmp_path,
        roles,
        ["Ann", "Ben", "Dan", "Eve", "Fin"],
        ["Cat", "Hal"],
        between=["draft dayend G --day 1 --stdout"],
        after=["count G --day all", "grimoire G --night 2"],
    )
    _golden("scripted-tea-lady-fool.txt", transcript)
    assert "the Tea Lady's good neighbours cannot die" in transcript
    assert "the Fool's first death" in transcript
    assert not any(e["kind"] == "death" for e in _events(folder))


def test_a_lleech_game_to_the_end(tmp_path):
    roles = ["empath", "lleech", "monk", "investigator", "saint", "poisoner", "slayer", "fool"]
    _, transcript = _two_days(
        tmp_path,
        roles,
        ["Ann", "Dan", "Eve", "Fin", "Gil"],
        ["Ben", "Cat"],
        before=[
            "record choice G Ben Cat --night 0",
            "night G --night 0 --resolve --confirm",
            "grimoire G --day 1",
        ],
        after=[
            "record death G Cat --phase D2 --cause executed",
            "count G --day all",
            "grimoire G --night 2",
        ],
    )
    _golden("scripted-lleech.txt", transcript)
    assert "The game is over: good won" in transcript


VAMPIRES = "\n".join(
    ['title = "v"', 'script = "vampires"', 'timezone = "UTC"', 'hosts = ["GM"]', "[rules]"]
    + ['preset = "vampire"']
)
VAMPIRE_ROLES = [
    ("Ash", "Vampire"),
    ("Birch", "Vampire"),
    ("Cedar", "Priest"),
    ("Dune", "Scion of Death"),
    ("Elm", "Guard"),
    ("Fern", "Faithful Villager"),
    ("Grove", "The Chosen One"),
]


def test_a_vampires_game_a_tie_settled_by_post_a_deception_and_a_win_nothing_can_prevent(
    tmp_path,
):
    posts = [
        ("GM", "Day 1. Vote for a player to lynch, or for No-Lynch."),
        ("Ash", "Vote: Cedar"),
        ("Birch", "Vote: Cedar"),
        ("Elm", "Vote: Dune"),
        ("Fern", "Vote: Dune"),
        ("GM", "Day 1 is over: a tie between Cedar and Dune."),
        ("Elm", "The vampires had better take Cedar."),  # not a Vampire: ignored
        ("Birch", "We choose Dune."),
    ]
    folder = _folder(tmp_path, VAMPIRES, VAMPIRE_ROLES, posts)
    transcript = _play(
        folder,
        [
            "record choice G Dune --night 0 --ability deception --character Priest",
            "record day-start G 1 --post 0",
            "record day-end G 1 --post 5",
            "count G --day 1",
            "count G --day 1 --json",
            "record death G Dune --phase D1 --cause lynched",
            "count G --day 1",
            "draft dayend G --day 1 --stdout",
        ],
    )
    _golden("scripted-vampires.txt", transcript)
    assert "the living Vampires (Ash, Birch) chose Dune at post 7; host only" in transcript
    post = transcript.split("draft dayend")[1]
    assert "Ash" not in post and "Birch" not in post  # the public post names no Vampire
    assert "post 6 names Cedar, but its author is not a living Vampire" in transcript
    assert "nothing can stop the Vampires" in transcript
    assert "Death Cult" not in transcript.split("draft dayend")[1]
