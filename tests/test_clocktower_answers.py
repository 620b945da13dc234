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
    SeenSeat,
    characters,
    grimoire_seen,
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
        (  # the Dreamer's two, one of them the chosen player's
            characters(["Imp", "Monk"], one_of=True),
            "Imp or Monk",
            {"kind": "characters", "characters": ["Imp", "Monk"], "one_of": True},
        ),
        (  # the Godfather's Outsiders in play
            characters(["Tinker", "Drunk"]),
            "Tinker, Drunk",
            {"kind": "characters", "characters": ["Tinker", "Drunk"], "one_of": False},
        ),
        (
            players(["Ann", "Cat"]),
            "Ann and Cat",
            {"kind": "players", "players": ["Ann", "Cat"]},
        ),
        (
            grimoire_seen(
                [
                    SeenSeat(1, "Ann", "Spy", None, ()),
                    SeenSeat(2, "Ben", "Drunk", "Chef", ("poisoned", "no_ability")),
                    SeenSeat(None, "Cat", "Imp", None, ()),
                ]
            ),
            "1 Ann: Spy; 2 Ben: Drunk (told Chef), poisoned, no ability; ? Cat: Imp",
            {
                "kind": "grimoire",
                "text": "1 Ann: Spy; 2 Ben: Drunk (told Chef), poisoned, no ability; ? Cat: Imp",
                "seats": [
                    {
                        "seat": 1,
                        "player": "Ann",
                        "character": "Spy",
                        "told": None,
                        "reminders": [],
                        "master": None,
                        "targeted": False,
                    },
                    {
                        "seat": 2,
                        "player": "Ben",
                        "character": "Drunk",
                        "told": "Chef",
                        "reminders": ["poisoned", "no_ability"],
                        "master": None,
                        "targeted": False,
                    },
                    {
                        "seat": None,
                        "player": "Cat",
                        "character": "Imp",
                        "told": None,
                        "reminders": [],
                        "master": None,
                        "targeted": False,
                    },
                ],
            },
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
    assert step.player == "Ben" and step.info.true == players(["Cat", "Ann"])
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


def _words(v: dict) -> str:
    """The words of an answer, from its JSON data alone (docs/clocktower.md's table)."""
    kind = v["kind"]
    if kind in ("number", "outcome"):
        return str(v["value"])
    if kind == "yes_no":
        return "Yes" if v["value"] else "No"
    if kind == "pair":
        return f"{v['players'][0]} or another is the {v['character']}"
    if kind == "character":
        return v["character"]
    if kind == "characters":
        return (" or " if v["one_of"] else ", ").join(v["characters"])
    if kind == "players":
        return " and ".join(v["players"])
    if kind == "grimoire":
        return "; ".join(
            f"{s['seat'] or '?'} {s['player']}: {s['character']}"
            + (f" (told {s['told']})" if s["told"] else "")
            + "".join(f", {r.replace('_', ' ')}" for r in s["reminders"])
            for s in v["seats"]
        )
    return {"no_outsiders": "no Outsiders", "choose_again": "choose again"}.get(kind) or v["text"]


@pytest.mark.parametrize(
    ("script", "roles", "events", "kinds"),
    [
        (
            "trouble-brewing-forum",
            ["spy", "imp", "washerwoman", "empath", "chef", "librarian", "investigator", "drunk"],
            [{"kind": "reminder", "player": "Cat", "reminder": "poisoned", "night": 0}],
            {"grimoire", "pair", "number", "any"},  # the poisoned Washerwoman: any
        ),
        (
            "crimson-moon",
            ["godfather", "imp", "dreamer", "tinker", "spy", "chef", "pixie", "chambermaid"],
            [{"kind": "night_choice", "player": "Cat", "targets": ["Ben"], "night": 0}],
            {"characters", "character", "grimoire", "number"},
        ),
        (
            "cheomseongdae",
            [
                "nodashii",
                "washerwoman",
                "empath",
                "librarian",
                "saint",
                "poisoner",
                "investigator",
                "fool",
            ],
            [],
            {"players", "pair", "number", "any"},
        ),
    ],
)
def test_every_answer_on_the_night_sheet_is_worded_from_its_data(
    tmp_path, script, roles, events, kinds
):
    """The sheet's "True:" and "May answer:" words and the JSON's `true_value` and `allowed` are
    made from `true` and `answers`: the data alone gives the words, kind by kind."""
    folder = _folder(tmp_path, roles, events, script)
    out = runner.invoke(app, ["night", str(folder), "--night", "0", "--json"])
    assert out.exit_code == 0, out.output
    infos = [s["info"] for s in json.loads(out.stdout)["steps"] if s["info"]]
    seen = set()
    for info in infos:
        assert _words(info["true"]) == info["true_value"], info
        assert [_words(a) for a in info["answers"]] == info["allowed"], info
        seen |= {a["kind"] for a in [info["true"], *info["answers"]]}
    assert kinds <= seen, seen  # the case shows the kinds it is for
    sheet = runner.invoke(app, ["night", str(folder), "--night", "0"]).stdout
    for info in infos:
        assert f"  True: {_words(info['true'])}\n" in sheet
