"""Table tests for what a Clocktower character may choose at night (module `choices`): each rule
alone, then (character, night, chosen players) for every character of the shipped scripts that
wakes at night, then `modtool record choice` and `modtool night --resolve` on a game folder."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from modtool.cli import app
from modtool.games.clocktower.choices import (
    CHOOSES_NO_ONE,
    NIGHT_CHOICES,
    ChoiceRule,
    alive_refusal,
    character_refusal,
    choice_refusal,
    count_refusal,
    describe,
    night_refusal,
    self_refusal,
    star_pass_refusal,
)
from modtool.games.clocktower.scripts import SHIPPED, shipped_script

from .test_clocktower_answers import _folder

runner = CliRunner()

ONE = ChoiceRule()
TWO_ALIVE_NOT_SELF = ChoiceRule(players=(2,), self_allowed=False, alive_only=True)
PO = ChoiceRule(players=(0, 1, 3))
SUMMONER = ChoiceRule(first_night=False, only_night=2, names_character=True)


# --- each rule alone ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "words"),
    [
        (ONE, "chooses 1 player"),
        (ChoiceRule(self_allowed=False), "chooses 1 player, not themself"),
        (TWO_ALIVE_NOT_SELF, "chooses 2 alive players, not themself"),
        (PO, "chooses no one, 1 player or 3 players"),
        (SUMMONER, "chooses 1 player and a character"),
        (CHOOSES_NO_ONE, "chooses no one"),
    ],
)
def test_a_rule_in_words(rule, words):
    assert describe(rule) == words


WAKES_NOT = "does not wake at night (the night order); record no night choice for them"
NOT_FIRST = "wakes on other nights, not Night 0 (the first night); record it for Night 1 or later"
FIRST_ONLY = "wakes on the first night (Night 0) only; record no choice for later nights"


@pytest.mark.parametrize(
    ("rule", "first", "other", "night", "refusal"),
    [
        (ONE, None, None, 1, WAKES_NOT),  # the Slayer: no place in the night order
        (ONE, None, 39, 0, NOT_FIRST),  # the Imp on Night 0
        (ONE, None, 39, 1, None),
        (ONE, 32, 16, 0, None),  # the Poisoner, every night
        (CHOOSES_NO_ONE, 51, None, 2, FIRST_ONLY),  # the Washerwoman
        (None, None, 21, 0, NOT_FIRST),  # a character the table does not know: the order alone
        (None, 5, 21, 0, None),
        (
            ChoiceRule(first_night=False),
            37,
            56,
            0,
            "chooses no one on Night 0 (the first night), it only learns; record no choice",
        ),
        (ChoiceRule(first_night=False), 37, 56, 1, None),  # the Godfather after an Outsider died
        (SUMMONER, 22, 33, 1, "chooses on Night 2 only; record it for Night 2"),  # "3rd night"
        (SUMMONER, 22, 33, 2, None),
    ],
)
def test_whether_a_character_chooses_that_night(rule, first, other, night, refusal):
    assert night_refusal(rule, first, other, night) == refusal


@pytest.mark.parametrize(
    ("rule", "chosen", "refusal"),
    [
        (ONE, ["Ann"], None),
        (ONE, ["Ann", "Hal"], "chooses 1 player: not 2 (Ann, Hal); record one"),
        (ONE, [], "chooses 1 player: not 0; record one"),  # seed 003: "not optional"
        (
            ChoiceRule(players=(2,)),
            ["Ann", "Ann"],
            "chooses 2 players: Ann twice; record each player once",
        ),
        (PO, [], None),  # "you may choose a player"
        (PO, ["Ann", "Ben", "Cat"], None),
        (
            PO,
            ["Ann", "Ben"],
            "chooses no one, 1 player or 3 players: not 2 (Ann, Ben); record none, one or three",
        ),
        (CHOOSES_NO_ONE, [], None),
        (CHOOSES_NO_ONE, ["Ann"], "chooses no one: not 1 (Ann); record no choice for them"),
    ],
)
def test_how_many_players_a_character_chooses(rule, chosen, refusal):
    assert count_refusal(rule, chosen) == refusal


@pytest.mark.parametrize(
    ("rule", "chosen", "refusal"),
    [
        (ONE, ["Fay"], None),  # the Imp's star-pass, the Poisoner on themself
        (ChoiceRule(self_allowed=False), ["Ann"], None),
        (
            ChoiceRule(self_allowed=False),
            ["Fay"],
            "chooses 1 player, not themself: not Fay, themself; record another player",
        ),
        (
            TWO_ALIVE_NOT_SELF,
            ["Ann", "Fay"],
            "chooses 2 alive players, not themself: not Fay, themself; record another player",
        ),
    ],
)
def test_whether_a_character_may_choose_themself(rule, chosen, refusal):
    assert self_refusal(rule, "Fay", chosen) == refusal


@pytest.mark.parametrize(
    ("rule", "dead", "refusal"),
    [
        (ONE, ["Ben"], None),  # seed 003: "abilities can be used on both living and dead players"
        (TWO_ALIVE_NOT_SELF, [], None),
        (
            TWO_ALIVE_NOT_SELF,
            ["Ben"],
            "chooses 2 alive players, not themself: not Ben, who is dead; record two living "
            "players",
        ),
    ],
)
def test_whether_a_character_may_choose_the_dead(rule, dead, refusal):
    assert alive_refusal(rule, dead) == refusal


@pytest.mark.parametrize(
    ("rule", "character", "refusal"),
    [
        (ONE, None, None),
        (SUMMONER, "imp", None),
        (
            SUMMONER,
            None,
            "chooses 1 player and a character: no character given; add --character CHARACTER",
        ),
    ],
)
def test_whether_a_character_names_a_character(rule, character, refusal):
    assert character_refusal(rule, character) == refusal


# --- every character of the shipped scripts ----------------------------------------------------


def _facts(cid: str):
    return next(
        shipped_script(s).characters[cid] for s in SHIPPED if cid in shipped_script(s).characters
    )


def _shipped() -> set[str]:
    return {cid for s in SHIPPED for cid in shipped_script(s).characters}


def _wakes(cid: str) -> bool:
    facts = _facts(cid)
    return facts.first_night is not None or facts.other_night is not None


OK = None
SELF = "not Me, themself; record another player"
COUNT_1 = "record one"
COUNT_2 = "record two"
NO_ONE = "chooses no one: not 1 (Ann); record no choice for them"

# (character, night, chosen players, dead among them, --character) -> None or a part of the
# refusal; "Me" is the chooser. Nights as the forum game numbers them: Night 0 is the first.
CHOICE_TABLE = [
    ("fortuneteller", 0, ["Ann", "Ben"], [], None, OK),
    ("fortuneteller", 1, ["Me", "Ben"], ["Ben"], None, OK),  # "you can be the Red Herring"
    ("fortuneteller", 1, ["Ann"], [], None, "chooses 2 players: not 1 (Ann); record two"),
    ("fortuneteller", 1, ["Ann", "Ann"], [], None, "Ann twice"),
    ("monk", 0, ["Ann"], [], None, NOT_FIRST),  # "Each night other than Night 0"
    ("monk", 1, ["Ann"], [], None, OK),
    ("monk", 1, ["Me"], [], None, SELF),  # "a player other than yourself"
    ("ravenkeeper", 0, ["Ann"], [], None, NOT_FIRST),
    ("ravenkeeper", 2, ["Me"], [], None, OK),
    ("ravenkeeper", 2, [], [], None, COUNT_1),
    ("butler", 0, ["Ann"], [], None, OK),  # "Each night", Night 0 too
    ("butler", 1, ["Me"], [], None, SELF),  # the probe: "Fay's master for Day 2 is Fay"
    ("butler", 1, ["Ann", "Ben"], [], None, COUNT_1),
    ("poisoner", 0, ["Me"], [], None, OK),
    ("poisoner", 1, ["Ann", "Ben"], [], None, COUNT_1),
    ("imp", 0, ["Ann"], [], None, NOT_FIRST),
    ("imp", 1, ["Me"], [], None, OK),  # the star-pass
    ("imp", 1, ["Ann"], ["Ann"], None, OK),  # "you may kill a dead player"
    ("imp", 1, ["Ann", "Hal"], [], None, "chooses 1 player: not 2 (Ann, Hal); record one"),
    ("imp", 1, [], [], None, COUNT_1),  # "You must choose a kill target"
    ("witch", 0, ["Me"], [], None, OK),
    ("witch", 1, ["Ann", "Ben"], [], None, COUNT_1),
    ("nodashii", 0, ["Ann"], [], None, NOT_FIRST),
    ("nodashii", 1, ["Ann"], [], None, OK),
    ("vortox", 0, ["Ann"], [], None, NOT_FIRST),
    ("vortox", 1, ["Ann", "Ben"], [], None, COUNT_1),
    ("lleech", 0, ["Ann"], [], None, OK),  # its host
    ("lleech", 1, ["Ann"], [], None, OK),  # its kill
    ("lleech", 1, ["Ann", "Ben"], [], None, COUNT_1),
    ("chambermaid", 0, ["Ann", "Ben"], [], None, OK),
    ("chambermaid", 1, ["Me", "Ben"], [], None, SELF),
    ("chambermaid", 1, ["Ann", "Ben"], ["Ben"], None, "not Ben, who is dead"),
    ("chambermaid", 1, ["Ann"], [], None, COUNT_2),
    ("dreamer", 0, ["Ann"], ["Ann"], None, OK),
    ("dreamer", 1, ["Me"], [], None, SELF),
    ("innkeeper", 0, ["Ann", "Ben"], [], None, NOT_FIRST),
    ("innkeeper", 1, ["Me", "Ben"], [], None, OK),
    ("innkeeper", 1, ["Ann"], [], None, COUNT_2),
    ("gambler", 0, ["Ann"], [], "imp", NOT_FIRST),
    ("gambler", 1, ["Ann"], [], "imp", OK),
    ("gambler", 1, ["Ann"], [], None, "no character given; add --character"),
    ("huntsman", 0, ["Ann"], [], None, OK),
    ("huntsman", 1, ["Ann"], ["Ann"], None, "not Ann, who is dead; record a living player"),
    ("godfather", 0, ["Ann"], [], None, "chooses no one on Night 0"),
    ("godfather", 1, ["Ann"], [], None, OK),
    ("summoner", 0, ["Ann"], [], "imp", "chooses on Night 2 only"),
    ("summoner", 1, ["Ann"], [], "imp", "chooses on Night 2 only"),
    ("summoner", 2, ["Ann"], [], "imp", OK),  # "On the 3rd night"
    ("summoner", 2, ["Ann"], [], None, "no character given"),
    ("po", 1, [], [], None, OK),
    ("po", 1, ["Ann", "Ben", "Cat"], [], None, OK),
    ("po", 1, ["Ann", "Ben"], [], None, "record none, one or three"),
    ("po", 0, ["Ann"], [], None, NOT_FIRST),
    # they wake only to learn or to be shown something: no player to choose
    *((cid, 0, ["Ann"], [], None, NO_ONE) for cid in ("chef", "washerwoman", "investigator")),
    *((cid, 0, ["Ann"], [], None, NO_ONE) for cid in ("librarian", "pixie", "damsel")),
    *((cid, 1, ["Ann"], [], None, NO_ONE) for cid in ("empath", "undertaker", "juggler")),
    *((cid, 1, ["Ann"], [], None, NO_ONE) for cid in ("towncrier", "tinker", "yaggababble")),
    *((cid, 1, ["Ann"], [], None, NO_ONE) for cid in ("spy", "scarletwoman")),
    ("empath", 1, [], [], None, OK),
    ("chef", 1, ["Ann"], [], None, FIRST_ONLY),
    ("slayer", 1, ["Ann"], [], None, WAKES_NOT),  # the probe: a day ability
    *((cid, 1, ["Ann"], [], None, WAKES_NOT) for cid in ("mayor", "soldier", "virgin", "saint")),
]


@pytest.mark.parametrize(("cid", "night", "chosen", "dead", "character", "refusal"), CHOICE_TABLE)
def test_what_each_character_may_choose(cid, night, chosen, dead, character, refusal):
    facts = _facts(cid)
    found = choice_refusal(
        NIGHT_CHOICES.get(cid),
        facts.first_night,
        facts.other_night,
        night,
        "Me",
        chosen,
        dead,
        character,
    )
    if refusal is None:
        assert found is None
    else:
        assert found is not None and refusal in found, found


def test_the_table_covers_every_character_of_the_shipped_scripts_that_wakes():
    waking = {cid for cid in _shipped() if _wakes(cid)}
    assert waking == set(NIGHT_CHOICES)
    assert waking <= {row[0] for row in CHOICE_TABLE}
    for cid in _shipped() - waking:  # those that never wake refuse every choice
        for night in (0, 1):
            assert choice_refusal(None, None, None, night, "Me", ["Ann"], [], None) == WAKES_NOT
        assert cid not in NIGHT_CHOICES


# --- record choice and night --resolve on a game --------------------------------------------

TB = ["imp", "scarletwoman", "empath", "butler", "slayer", "monk", "chef", "poisoner"]
# Ann the Imp, Ben the Scarlet Woman, Cat the Empath, Dan the Butler, Eve the Slayer, ...


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (
            ["Dan", "Dan"],
            "Dan is the Butler, who chooses 1 player, not themself: not Dan, themself; record "
            "another player",
        ),
        (
            ["Ann", "Hal", "Gil"],
            "Ann is the Imp, who chooses 1 player: not 2 (Hal, Gil); record one",
        ),
        (["Eve", "Ann"], "Eve is the Slayer, who does not wake at night"),
        (["Fin", "Ann", "--night", "0"], "Fin is the Monk, who wakes on other nights, not Night 0"),
    ],
)
def test_record_choice_refuses_what_the_character_may_not_choose(tmp_path, args, problem):
    folder = _folder(tmp_path, TB, script="trouble-brewing-forum")
    before = (folder / "events.jsonl").read_text()
    night = [] if "--night" in args else ["--night", "1"]
    out = runner.invoke(app, ["record", "choice", str(folder), *args, *night])
    assert out.exit_code == 1 and problem in out.stderr, out.output
    assert len(out.stderr.strip().splitlines()) == 1
    assert (folder / "events.jsonl").read_text() == before  # nothing written


def test_resolve_refuses_a_choice_in_the_ledger_the_rules_forbid_and_names_its_undo(tmp_path):
    written = [  # recorded before the checks, or by hand
        {"kind": "night_choice", "player": "Dan", "night": 1, "targets": ["Dan"]},
        {"kind": "night_choice", "player": "Ann", "night": 1, "targets": ["Hal", "Gil"]},
    ]
    folder = _folder(tmp_path, TB, written, script="trouble-brewing-forum")
    for confirm in ([], ["--confirm"]):
        out = runner.invoke(app, ["night", str(folder), "--night", "1", "--resolve", *confirm])
        assert out.exit_code == 1, out.output
        assert "events.jsonl:3: night_choice: Dan is the Butler" in out.stderr, out.stderr
        assert f"(modtool record undo {folder} 3)" in out.stderr
    for line in ("3", "4"):
        assert runner.invoke(app, ["record", "undo", str(folder), line]).exit_code == 0
    out = runner.invoke(app, ["night", str(folder), "--night", "1", "--resolve"])
    assert out.exit_code == 0, out.output


def test_the_po_kills_each_of_its_three(tmp_path):
    """ "If your last choice was no-one, choose 3 players tonight": every one of them dies (the
    resolution used the first alone)."""
    roles = ["po", "spy", "empath", "chef", "librarian", "dreamer", "towncrier", "innkeeper"]
    chose = [
        {"kind": "night_choice", "player": "Ann", "night": 1, "targets": []},
        {"kind": "night_choice", "player": "Ann", "night": 2, "targets": ["Cat", "Dan", "Eve"]},
    ]
    days = [
        {"kind": "day_start", "day": 2, "time": "2026-11-03T10:00"},
        {"kind": "day_end", "day": 2, "time": "2026-11-03T20:00"},
    ]
    folder = _folder(tmp_path, roles, [chose[0], *days, chose[1]], script="crimson-moon")
    out = runner.invoke(app, ["night", str(folder), "--night", "2", "--resolve", "--json"])
    assert out.exit_code == 0, out.output
    deaths = json.loads(out.stdout)["resolution"]["deaths"]
    assert [d["player"] for d in deaths] == ["Cat", "Dan", "Eve"]


def test_a_choice_the_resolution_does_not_apply_gets_a_note(tmp_path):
    """The Innkeeper's two are safe, but --resolve does not apply it: a note says so rather than
    a kill that reads as final."""
    roles = ["imp", "spy", "innkeeper", "chef", "librarian", "dreamer", "towncrier", "empath"]
    chose = [
        {"kind": "night_choice", "player": "Cat", "night": 1, "targets": ["Dan", "Eve"]},
        {"kind": "night_choice", "player": "Ann", "night": 1, "targets": ["Dan"]},
    ]
    folder = _folder(tmp_path, roles, chose, script="crimson-moon")
    out = runner.invoke(app, ["night", str(folder), "--night", "1", "--resolve", "--json"])
    assert out.exit_code == 0, out.output
    notes = json.loads(out.stdout)["resolution"]["notes"]
    assert notes == [
        "Cat (Innkeeper) chose Dan, Eve: --resolve does not apply that ability; record what it "
        "does with modtool record"
    ]


def test_the_drunk_is_held_to_the_rules_of_the_townsfolk_they_were_told(tmp_path):
    roles = ["imp", "scarletwoman", "empath", "butler", "slayer", "drunk", "chef", "poisoner"]
    folder = _folder(tmp_path, roles, script="trouble-brewing-forum")
    toml = folder / "game.toml"
    toml.write_text(toml.read_text().replace('role = "drunk"', 'role = "drunk"\nshown = "monk"'))
    out = runner.invoke(app, ["record", "choice", str(folder), "Fin", "Fin", "--night", "1"])
    assert out.exit_code == 1, out.output
    assert "Fin is the Drunk (told they are the Monk), who chooses 1 player, not themself" in (
        out.stderr
    )
    out = runner.invoke(app, ["record", "choice", str(folder), "Fin", "Ann", "--night", "1"])
    assert out.exit_code == 0, out.output


NO_HEIR = (
    "may choose themself only with a living Minion, and none lives: not Ann; record another player"
)


@pytest.mark.parametrize(
    ("acting", "chosen", "minions", "refusal"),
    [
        (
            "imp",
            ["Ann"],
            1,
            None,
        ),  # "If you have at least one living Minion, you may kill yourself"
        ("imp", ["Ann"], 0, NO_HEIR),
        ("imp", ["Ben"], 0, None),  # another player: no star-pass
        ("nodashii", ["Ann"], 0, None),  # only the Imp's self-kill passes the Demon on
    ],
)
def test_the_imp_kills_itself_only_with_a_living_minion(acting, chosen, minions, refusal):
    assert star_pass_refusal(acting, "Ann", chosen, minions) == refusal


MINIONS_DEAD = [  # both Minions dead (the Scarlet Woman and the Poisoner)
    {"kind": "death", "player": "Ben", "phase": "D1", "cause": "executed"},
    {"kind": "death", "player": "Hal", "phase": "D1", "cause": "executed"},
]


def test_record_choice_refuses_a_star_pass_with_no_living_minion(tmp_path):
    folder = _folder(tmp_path, TB, MINIONS_DEAD, script="trouble-brewing-forum")
    out = runner.invoke(app, ["record", "choice", str(folder), "Ann", "Ann", "--night", "1"])
    assert out.exit_code == 1 and f"Ann is the Imp, who {NO_HEIR}" in out.stderr, out.output


def test_resolve_refuses_a_star_pass_with_no_living_minion_in_the_ledger(tmp_path):
    chose = {"kind": "night_choice", "player": "Ann", "night": 1, "targets": ["Ann"]}
    folder = _folder(tmp_path, TB, [*MINIONS_DEAD, chose], script="trouble-brewing-forum")
    out = runner.invoke(app, ["night", str(folder), "--night", "1", "--resolve", "--confirm"])
    assert out.exit_code == 1 and f"Ann is the Imp, who {NO_HEIR}" in out.stderr, out.output
    assert f"(modtool record undo {folder} 5)" in out.stderr
