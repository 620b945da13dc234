"""A scripted ten-player game under seed 003's rules (tests/fixtures/games/tb-three-days, a
synthetic thread): over three days the Butler, the Virgin and the Slayer change what happens,
and the win check ends the game. Each character is also shown with its ability not working."""

from __future__ import annotations

import json
import os
import shutil

import pytest
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


# --- characters that keep an execution from killing, and the Lleech's host -----------------------


def _tb_variant(tmp_path, roles, events=()):
    import json

    from modtool.games import load_game

    players = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fin", "Gil", "Hal"]
    folder = tmp_path / "g"
    folder.mkdir()
    body = "\n".join(
        f'[[players]]\nname = "{p}"\nseat = {i}\nrole = "{r}"\n'
        for i, (p, r) in enumerate(zip(players, roles, strict=False), 1)
    )
    (folder / "game.toml").write_text(
        'title = "t"\nscript = "cheomseongdae"\n[[sources]]\npath = "t.jsonl"\n'
        f'[rules]\npreset = "botc-forum"\n\n{body}'
    )
    posts = [("Host", "Day 1")] + [(p, "<b>VTL Cat</b>") for p in players if p != "Cat"][:5]
    (folder / "t.jsonl").write_text(
        "".join(
            json.dumps(
                {"post_id": str(n), "number": n, "author": a, "time": None, "url": None, "html": h}
            )
            + "\n"
            for n, (a, h) in enumerate(posts)
        )
    )
    lines = [{"kind": "day_start", "day": 1, "post": 0}, {"kind": "day_end", "day": 1, "post": 5}]
    (folder / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in [*lines, *events]))
    return load_game(folder)


@pytest.mark.parametrize(
    ("roles", "survives"),
    [
        # Cat (seat 3) sits between Ben and Dan; the Tea Lady's good neighbours cannot die
        (["empath", "tealady", "monk", "investigator", "imp", "poisoner", "saint", "slayer"], True),
        # Dan is the Tea Lady, but Eve beside her is the Imp: no protection; Cat is the Fool
        (["empath", "monk", "fool", "tealady", "imp", "poisoner", "saint", "slayer"], True),
        # the same, and the Fool sits elsewhere: Cat dies
        (["empath", "monk", "slayer", "tealady", "imp", "poisoner", "saint", "fool"], False),
        # Dan is the Tea Lady with Cat and Eve both good: Cat is protected
        (["empath", "imp", "monk", "tealady", "investigator", "poisoner", "saint", "fool"], True),
    ],
)
def test_an_execution_the_rules_keep_from_killing(tmp_path, roles, survives):
    from modtool.core.count import count_days
    from modtool.threads.sources import read_game_posts

    game = _tb_variant(tmp_path, roles)
    (day,) = count_days(game, read_game_posts(game), [1])
    assert day.outcome.kind == "execution" and day.outcome.player == "Cat"
    assert bool(day.outcome.survives) is survives, day.outcome


def test_the_fool_survives_only_the_first_time(tmp_path):
    import json

    from modtool.core.count import count_days
    from modtool.threads.sources import read_game_posts

    roles = ["empath", "monk", "fool", "investigator", "imp", "poisoner", "saint", "slayer"]
    game = _tb_variant(tmp_path, roles)
    voters = ["Ann", "Ben", "Dan", "Eve", "Fin"]
    posts = [("Host", "Day 1"), *((p, "<b>VTL Cat</b>") for p in voters)]
    posts += [("Host", "Day 2"), *((p, "<b>VTL Cat</b>") for p in voters)]
    (game.folder / "t.jsonl").write_text(
        "".join(
            json.dumps(
                {"post_id": str(n), "number": n, "author": a, "time": None, "url": None, "html": h}
            )
            + "\n"
            for n, (a, h) in enumerate(posts)
        )
    )
    ledger = game.folder / "events.jsonl"
    ledger.write_text(
        ledger.read_text()
        + '{"kind": "day_start", "day": 2, "post": 6}\n{"kind": "day_end", "day": 2, "post": 11}\n'
    )
    from modtool.games import load_game

    game = load_game(game.folder)
    one, two = count_days(game, read_game_posts(game), [1, 2])
    assert one.outcome.survives == "the Fool's first death: they do not die"
    assert two.outcome.kind == "execution" and two.outcome.survives is None


def test_the_lleech_dies_with_its_host(tmp_path):
    from modtool.core.ledger import Phase, PhaseKind
    from modtool.games.clocktower.grimoire import grimoire_at
    from modtool.games.clocktower.night import win_at

    roles = ["empath", "lleech", "monk", "investigator", "saint", "poisoner", "slayer", "fool"]
    events = [
        {"kind": "reminder", "player": "Cat", "reminder": "lleech_host", "night": 0},
        {"kind": "death", "player": "Cat", "phase": "D1", "cause": "executed"},
    ]
    game = _tb_variant(tmp_path, roles, events)
    seats = {s.slot: s for s in grimoire_at(game, Phase(1, PhaseKind.NIGHT)).seats}
    assert not seats["Ben"].alive and seats["Ben"].died == Phase(1, PhaseKind.DAY)
    won = win_at(game, Phase(1, PhaseKind.NIGHT))
    assert won is not None and won.winner == "good"


def test_the_day_end_post_says_the_executed_player_does_not_die(tmp_path):
    from modtool.host.drafts import DraftKind, make_drafts
    from modtool.threads.sources import read_game_posts

    roles = ["empath", "tealady", "monk", "investigator", "imp", "poisoner", "saint", "slayer"]
    game = _tb_variant(tmp_path, roles)
    (draft,) = make_drafts(game, DraftKind.DAYEND, read_game_posts(game), day=1)
    assert "[b]Cat[/b] was executed" in draft.text
    assert "but does not die (the Tea Lady's good neighbours cannot die)" in draft.text
