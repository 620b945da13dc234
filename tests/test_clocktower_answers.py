"""The Clocktower rules an independent check found wrong (the No Dashii's first night, the Tea
Lady's protection on the sheet and in the grimoire, a Chambermaid's choice of a dead player),
and the night's answers as data: each a table test quoting the almanac's text (the forum
Clocktower game's rules post is silent on them; the publisher's wording)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from modtool.cli import app
from modtool.core.ledger import Phase, PhaseKind
from modtool.games import load_game
from modtool.games.clocktower.grimoire import grimoire_at
from modtool.games.clocktower.night import (
    CHOOSE_AGAIN,
    NO_OUTSIDERS,
    characters,
    night_sheet,
    number,
    pair,
    players,
    yes_no,
)

runner = CliRunner()
PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fin", "Gil", "Hal"]


def _folder(tmp_path, roles, events=(), script="cheomseongdae"):
    folder = tmp_path / "g"
    folder.mkdir()
    seated = "\n".join(
        f'[[players]]\nname = "{p}"\nseat = {i}\nrole = "{r}"\n'
        for i, (p, r) in enumerate(zip(PLAYERS, roles, strict=False), 1)
    )
    (folder / "game.toml").write_text(
        f'title = "t"\nscript = "{script}"\n[[sources]]\npath = "t.jsonl"\n\n{seated}'
    )
    post = {"post_id": "0", "number": 0, "author": "ST", "time": "2026-11-02T10:00:00+00:00"}
    (folder / "t.jsonl").write_text(json.dumps({**post, "html": "Day 1."}) + "\n")
    days = [{"kind": "day_start", "day": 1, "post": 0}, {"kind": "day_end", "day": 1, "post": 0}]
    (folder / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in [*days, *events]))
    return folder


# --- answers as data ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text", "data"),
    [
        (number(2), "2", {"kind": "number", "value": 2}),
        (yes_no(True), "Yes", {"kind": "yes_no", "value": True}),
        (
            pair("Cat", "Chef"),
            "Cat or another is the Chef",
            {"kind": "pair", "players": ["Cat", "another"], "character": "Chef"},
        ),
        (
            characters(["Imp", "Monk"], "Imp or Monk"),
            "Imp or Monk",
            {"kind": "characters", "characters": ["Imp", "Monk"]},
        ),
        (
            players(["Ann", "Cat"], "Ann and Cat"),
            "Ann and Cat",
            {"kind": "players", "players": ["Ann", "Cat"]},
        ),
        (NO_OUTSIDERS, "no Outsiders", {"kind": "no_outsiders"}),
        (CHOOSE_AGAIN, "choose again", {"kind": "choose_again"}),
    ],
)
def test_an_answer_is_data_and_its_words_are_made_from_it(value, text, data):
    assert (str(value), value.as_json()) == (text, data)


def test_the_night_json_gives_the_true_value_and_the_legal_answers_as_data(tmp_path):
    roles = ["empath", "imp", "slayer", "poisoner", "monk", "fortuneteller", "saint", "undertaker"]
    events = [{"kind": "reminder", "player": "Ann", "reminder": "poisoned", "night": 1}]
    folder = _folder(tmp_path, roles, events)
    out = runner.invoke(app, ["night", str(folder), "--night", "1", "--json"])
    step = next(s for s in json.loads(out.stdout)["steps"] if s["player"] == "Ann")
    info = step["info"]
    assert info["true"] == {"kind": "number", "value": 1}
    assert info["answers"] == [{"kind": "number", "value": n} for n in range(3)]  # poisoned
    assert info["allowed"] == ["0", "1", "2"] and info["true_value"] == "1"  # the same, as words


# --- the No Dashii on the first night -----------------------------------------------------------

NO_DASHII = (
    'almanac: "Your 2 Townsfolk neighbors are poisoned." ... "The No Dashii\'s closest '
    'clockwise and counterclockwise Townsfolk neighbors are poisoned"'
)


def test_the_no_dashii_poisons_from_the_first_night(tmp_path):
    roles = [
        "empath",
        "nodashii",
        "monk",
        "poisoner",
        "investigator",
        "undertaker",
        "saint",
        "slayer",
    ]
    folder = _folder(tmp_path, roles)
    game = load_game(folder)
    steps = night_sheet(game, 0)
    step = next(s for s in steps if s.character == "nodashii")
    assert step.player == "Ben" and step.info.true == players(["Cat", "Ann"], "Cat and Ann")
    assert "Mark the No Dashii's closest Townsfolk each way as poisoned (Cat, Ann)" in step.what
    order = [s.character for s in steps]
    assert order.index("nodashii") > order.index("demoninfo"), NO_DASHII
    seats = {s.slot: s for s in grimoire_at(game, Phase(0, PhaseKind.NIGHT)).seats}
    assert seats["Ann"].has("poisoned") and seats["Cat"].has("poisoned"), NO_DASHII
    empath = next(s for s in steps if s.player == "Ann").info
    assert empath.storyteller_choice and "Ann is poisoned" in empath.why


# --- the Tea Lady ---------------------------------------------------------------------------------

TEA_LADY = 'almanac: "If both your alive neighbors are good, they can\'t die."'


@pytest.mark.parametrize(
    ("roles", "protected"),
    [
        (
            ["empath", "tealady", "monk", "investigator", "imp", "poisoner", "saint", "slayer"],
            {"Ann", "Cat"},
        ),
        (
            ["empath", "tealady", "poisoner", "investigator", "imp", "monk", "saint", "slayer"],
            set(),
        ),
    ],
)
def test_the_tea_ladys_protection_is_on_the_sheet_and_in_the_grimoire(tmp_path, roles, protected):
    folder = _folder(tmp_path, roles)
    game = load_game(folder)
    seats = grimoire_at(game, Phase(1, PhaseKind.NIGHT)).seats
    assert {s.player for s in seats if s.has("cannot_die")} == protected, TEA_LADY
    steps = [s for s in night_sheet(game, 1) if s.character == "tealady"]
    if protected:
        (step,) = steps
        assert step.what.startswith("Ann and Cat cannot die tonight"), TEA_LADY
    else:
        assert steps == []
    out = runner.invoke(app, ["grimoire", str(folder), "--night", "1"])
    assert ("cannot die (Tea Lady)" in out.stdout) is bool(protected), out.output


# --- the Chambermaid's choice, refused when recorded -----------------------------------------

CHAMBERMAID = 'almanac: "Each night, choose 2 alive players (not yourself)"'
CHAMBER_ROLES = [
    *("chambermaid", "dreamer", "imp", "godfather"),
    *("gambler", "empath", "chef", "tinker"),
]


@pytest.mark.parametrize(
    ("targets", "problem"),
    [
        (["Cat", "Eve"], None),
        (["Ben", "Fin"], "not Ben, who is dead; record two living players"),
        (["Ann", "Cat"], "not themself"),
    ],
)
def test_a_chambermaids_choice_of_a_dead_player_is_refused(tmp_path, targets, problem):
    died = [{"kind": "death", "player": "Ben", "phase": "D1", "cause": "executed"}]
    folder = _folder(tmp_path, CHAMBER_ROLES, died, script="crimson-moon")
    before = (folder / "events.jsonl").read_text()
    out = runner.invoke(app, ["record", "choice", str(folder), "Ann", *targets, "--night", "1"])
    if problem is None:
        assert out.exit_code == 0, out.output
    else:
        assert out.exit_code == 1 and problem in out.output, (CHAMBERMAID, out.output)
        assert (folder / "events.jsonl").read_text() == before  # nothing half-written


# --- a resolved night as data -------------------------------------------------------------------


def test_the_resolved_night_gives_each_death_its_cause_and_rule_and_each_protection(tmp_path):
    roles = ["empath", "tealady", "monk", "investigator", "imp", "poisoner", "saint", "slayer"]
    choices = [("Eve", "Fin"), ("Cat", "Dan")]  # the Imp kills Fin; the Monk protects Dan
    folder = _folder(tmp_path, roles)
    for who, whom in choices:
        out = runner.invoke(app, ["record", "choice", str(folder), who, whom, "--night", "1"])
        assert out.exit_code == 0, out.output
    out = runner.invoke(app, ["night", str(folder), "--night", "1", "--resolve", "--json"])
    resolution = json.loads(out.stdout)["resolution"]
    assert resolution["deaths"] == [
        {
            "player": "Fin",
            "cause": "killed",
            "by": "Eve",
            "rule": "the Demon's kill: 'Each night*, choose a player: they die'",
        }
    ]
    assert resolution["attacks"] == [{"demon": "Eve", "target": "Fin", "result": "dies"}]
    protections = {(p["player"], p["by"]) for p in resolution["protections"]}
    assert protections == {("Dan", "Cat"), ("Ann", "Ben"), ("Cat", "Ben")}  # Monk; Tea Lady
