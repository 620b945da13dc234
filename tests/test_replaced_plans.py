"""A second night choice of the same player for the same night replaces the first (a host's
correction), in every game with nights: `record choice` says which line it replaces, and the
night uses the latest only."""

from __future__ import annotations

import json
import shutil

import pytest
from typer.testing import CliRunner

from modtool.cli import app

from .conftest import ROOT

runner = CliRunner()
ONCE_PER_NIGHT = '"Once per night, you may investigate one target player."'
DAYS = [{"kind": "day_start", "day": 1, "post": 0}, {"kind": "day_end", "day": 1, "post": 0}]
POST = {"post_id": "0", "number": 0, "author": "GM", "time": "2026-11-02T10:00:00+00:00"}


def _vampires(tmp_path):
    game = tmp_path / "v"
    shutil.copytree(ROOT / "tests" / "fixtures" / "games" / "vampires", game)
    (game / "thread.jsonl").write_text(json.dumps({**POST, "html": "Day 1."}) + "\n")
    (game / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in DAYS))
    return game


def _clocktower(tmp_path):
    game = tmp_path / "c"
    game.mkdir()
    roles = ["empath", "tealady", "monk", "investigator", "imp", "poisoner", "saint", "slayer"]
    players = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fin", "Gil", "Hal"]
    seated = "".join(
        f'[[players]]\nname = "{p}"\nseat = {i}\nrole = "{r}"\n\n'
        for i, (p, r) in enumerate(zip(players, roles, strict=True), 1)
    )
    (game / "game.toml").write_text(
        f'title = "t"\nscript = "cheomseongdae"\n[[sources]]\npath = "t.jsonl"\n\n{seated}'
    )
    (game / "t.jsonl").write_text(json.dumps({**POST, "html": "Day 1."}) + "\n")
    (game / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in DAYS))
    return game


def _choose(game, who, whom):
    out = runner.invoke(app, ["record", "choice", str(game), who, whom, "--night", "1"])
    assert out.exit_code == 0, out.output
    return out.stdout


# (the game, the killer, the first and the corrected target)
GAMES = [(_vampires, "Ash", "Maple", "Cedar"), (_clocktower, "Eve", "Fin", "Dan")]


@pytest.mark.parametrize(("make", "killer", "first", "then"), GAMES, ids=["vampires", "botc"])
def test_a_second_kill_of_the_same_night_replaces_the_first(tmp_path, make, killer, first, then):
    game = make(tmp_path)
    assert "replaces" not in _choose(game, killer, first)
    said = _choose(game, killer, then)
    assert "This replaces the plan of line 3: a player's latest plan for a night" in said, said
    night = runner.invoke(app, ["night", str(game), "--night", "1", "--resolve", "--json"])
    assert night.exit_code == 0, night.output
    found = json.loads(night.stdout)
    deaths = found.get("deaths") or found["resolution"]["deaths"]
    assert [d["player"] for d in deaths] == [then]


def test_a_vampire_priest_who_investigates_twice_gets_one_answer(tmp_path):
    game = _vampires(tmp_path)
    _choose(game, "Birch", "Cedar")
    assert "replaces the plan of line 3" in _choose(game, "Birch", "Ash")
    night = runner.invoke(app, ["night", str(game), "--night", "1", "--resolve", "--json"])
    answers = json.loads(night.stdout)["answers"]
    assert [(a["target"], a["said"]["value"]) for a in answers] == [("Ash", "Vampire")], (
        ONCE_PER_NIGHT
    )


def test_a_scions_deception_is_no_night_plan_and_does_not_replace_her_chat(tmp_path):
    game = _vampires(tmp_path)
    _choose(game, "Linden", "Maple")
    out = runner.invoke(
        app,
        ["record", "choice", str(game), "Linden", "--night", "1"]
        + ["--ability", "deception", "--character", "Priest"],
    )
    assert out.exit_code == 0 and "replaces" not in out.stdout, out.output
    night = runner.invoke(app, ["night", str(game), "--night", "1", "--resolve", "--json"])
    assert [p["ability"] for p in json.loads(night.stdout)["plans"]] == ["chat"]
