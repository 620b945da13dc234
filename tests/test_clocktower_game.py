"""A scripted ten-player game under seed 003's rules (tests/fixtures/games/tb-three-days, a
synthetic thread): over three days the Butler, the Virgin and the Slayer change what happens,
and the win check ends the game. Each character is also shown with its ability not working."""

from __future__ import annotations

import json
import os
import shutil

from typer.testing import CliRunner

from modtool.cli import app
from modtool.host.counting import count_game

from .conftest import ROOT

GAME = ROOT / "tests" / "fixtures" / "games" / "tb-three-days"
GOLDEN = ROOT / "tests" / "golden" / "tb-three-days.count.txt"


def test_the_three_days_match_the_golden_file():
    result = CliRunner().invoke(app, ["count", str(GAME), "--day", "all"])
    assert result.exit_code == 0, result.output
    if os.environ.get("MODTOOL_UPDATE_GOLDEN"):
        GOLDEN.write_text(result.stdout)
    assert result.stdout == GOLDEN.read_text()


def _outcomes(folder):
    days = count_game(folder)
    return [(d.outcome.kind, d.outcome.player, d.outcome.rule) for d in days], days


def _with(tmp_path, *events):
    game = tmp_path / "g"
    shutil.copytree(GAME, game)
    with (game / "events.jsonl").open("a") as f:
        for e in events:
            f.write(json.dumps(e) + "\n")
    return game


def test_what_the_characters_decide():
    outcomes, days = _outcomes(GAME)
    # Day 1: the Butler's vote on Gus went when his master unvoted: a 4-4 tie, nobody dies
    assert outcomes[0] == ("no_execution", None, "below-threshold")
    assert {w.target: w.votes for w in days[0].wagons} == {"Hal": 4, "Gus": 4}
    # Day 2: Dee, a Townsfolk, voted first for the Virgin: executed at that post
    assert outcomes[1] == ("execution", "Dee", "virgin")
    assert days[1].outcome.post == 16
    # Day 3: the sober Slayer shot the Imp: the Demon is dead, good wins
    assert days[2].win.win.winner == "good" and days[2].win.win.rule.name == "DEMON_DEAD"


def test_a_poisoned_butler_votes_freely_and_gus_is_executed(tmp_path):
    game = _with(tmp_path, {"kind": "reminder", "player": "Bo", "reminder": "poisoned", "night": 0})
    outcomes, days = _outcomes(game)
    assert outcomes[0][:2] == ("execution", "Gus")


def test_a_poisoned_virgin_loses_her_ability_and_nobody_is_executed(tmp_path):
    game = _with(tmp_path, {"kind": "reminder", "player": "Cy", "reminder": "poisoned", "night": 1})
    outcomes, _ = _outcomes(game)
    assert outcomes[1][:2] == ("no_execution", None)


def test_a_poisoned_slayer_shoots_and_nothing_happens(tmp_path):
    game = _with(
        tmp_path, {"kind": "reminder", "player": "Fay", "reminder": "poisoned", "night": 2}
    )
    _, days = _outcomes(game)
    assert days[2].win.win is None
    assert not any("dies" in n.message for n in days[2].warnings)


def test_the_grimoire_of_day_three(tmp_path):
    result = CliRunner().invoke(app, ["grimoire", str(GAME), "--day", "3", "--json"])
    seats = {s["player"]: s for s in json.loads(result.stdout)["seats"]}
    assert seats["Bo"]["master"] == "Ada"
    assert seats["Fay"]["reminders"] == []  # the poison of Night 1 ended with Day 2
    assert [p for p, s in seats.items() if not s["alive"]] == ["Dee", "Gus", "Jo"]
    assert seats["Dee"]["ghost_vote"] == "available"
