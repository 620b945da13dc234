"""A scripted 13-player game of seed 004 (a synthetic thread), run as a host would: record the
nights' plans, resolve and confirm each night, record the days; the ledger, the counts, the
dawn posts and the night-result PMs are golden files. Then table tests for every interaction
pair the seed describes."""

from __future__ import annotations

import json
import os
import random
import shutil

import pytest
from typer.testing import CliRunner

from modtool.cli import app
from modtool.games.vampires.game import (
    Plan,
    Village,
    apothecary_result,
    cancelled_by_distraction,
    drain_result,
    favor_factions,
    paladin_effects,
    priest_result,
    resolve,
    vampire_wins,
    watcher_result,
)

from .conftest import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "games" / "vampires"
GOLDEN = ROOT / "tests" / "golden"
runner = CliRunner()

SCHEDULE = """
[schedule]
start = "2026-11-02"
turn = "09:00"
weekdays = { monday = "day", tuesday = "day", wednesday = "night", thursday = "day", \
friday = "day", saturday = "night", sunday = "night" }
"""

# The thread: (author, text); the plain "Vote: Name" of the vampire preset.
THREAD = [
    ("GM", "Day 1. Vote for a player to lynch, or for No-Lynch."),
    ("Ash", "Vote: Birch"),
    ("Grove", "Vote: Birch"),
    ("Cedar", "Vote: Linden"),
    ("Fern", "Vote: Linden"),
    ("Kale", "Vote: Linden"),
    ("Maple", "Vote: No-Lynch"),
    ("GM", "Day 1 is over. Linden is lynched."),
    ("GM", "Day 2. Birch and Ash died in the night; Ash clearly died by poisoning."),
    ("Maple", "Vote: No-Lynch"),
    ("Grove", "Vote: Dune"),
    ("Elm", "Vote: Grove"),
    ("Dune", "Vote: Grove"),
    ("Fern", "Vote: Dune"),
    ("GM", "Day 2 is over: a tie, and the vampires chose Dune."),
    ("GM", "Day 3. Hazel was slain by the Slayer."),
    ("Grove", "Vote: Cedar"),
    ("Fern", "Vote: Cedar"),
    ("Kale", "Vote: Grove"),
    ("Iris", "Vote: Cedar"),
    ("GM", "Day 3 is over. Cedar is lynched."),
    ("GM", "Day 4. Kale and Grove died in the night; Grove was slain by the Slayer."),
]

# The host's steps: ledger records and night resolutions, in the order a host makes them.
STEPS = [
    ["record", "day-start", "G", "1", "--post", "0"],
    ["record", "day-end", "G", "1", "--post", "7"],
    ["record", "death", "G", "Linden", "--phase", "D1", "--cause", "lynched"],
    ["record", "choice", "G", "Ash", "Birch", "--night", "1"],
    ["record", "choice", "G", "Dune", "Iris", "--night", "1"],
    ["record", "choice", "G", "Iris", "Birch", "--night", "1"],
    ["record", "choice", "G", "Birch", "Ash", "--night", "1"],
    ["record", "choice", "G", "Kale", "Elm", "--night", "1"],
    ["record", "choice", "G", "Fern", "Ash", "--night", "1"],
    ["record", "choice", "G", "Juniper", "Birch", "--night", "1"],
    ["night", "G", "--night", "1", "--resolve", "--confirm"],
    ["record", "day-start", "G", "2", "--post", "8"],
    ["record", "day-end", "G", "2", "--post", "14"],
    ["record", "death", "G", "Dune", "--phase", "D2", "--cause", "lynched"],
    ["record", "choice", "G", "Grove", "Elm", "--night", "2"],
    ["record", "choice", "G", "Elm", "Hazel", "--night", "2"],
    ["record", "choice", "G", "Iris", "Kale", "--night", "2"],
    ["record", "choice", "G", "Kale", "Maple", "--night", "2"],
    ["record", "choice", "G", "Fern", "Grove", "--night", "2"],
    ["record", "choice", "G", "Juniper", "Elm", "--night", "2"],
    ["night", "G", "--night", "2", "--resolve", "--confirm"],
    ["record", "day-start", "G", "3", "--post", "15"],
    ["record", "day-end", "G", "3", "--post", "20"],
    ["record", "death", "G", "Cedar", "--phase", "D3", "--cause", "lynched"],
    ["record", "choice", "G", "Grove", "Kale", "--night", "3"],
    ["record", "choice", "G", "Elm", "Grove", "--night", "3"],
    ["record", "choice", "G", "Maple", "Grove", "--night", "3"],
    ["night", "G", "--night", "3", "--resolve", "--confirm"],
    ["record", "day-start", "G", "4", "--post", "21"],
]


def _play(tmp_path):
    game = tmp_path / "vampires"
    shutil.copytree(FIXTURE, game)
    (game / "game.toml").write_text(
        (game / "game.toml")
        .read_text()
        .replace('preset = "vampire"\n', 'preset = "vampire"\n' + SCHEDULE)
    )
    with (game / "thread.jsonl").open("w") as f:
        for n, (author, text) in enumerate(THREAD):
            day = 2 if n < 8 else 5 if n < 15 else 9 if n < 21 else 12  # Mon, Thu, Mon, Thu
            post = {
                "post_id": f"v{n}",
                "number": n,
                "author": author,
                "time": f"2026-11-{day:02d}T{10 + n % 8}:00:00+00:00",
                "url": f"https://example.invalid/vampires#{n}",
                "edited": False,
                "thread": "",
                "html": text,
            }
            f.write(json.dumps(post) + "\n")
    (game / "events.jsonl").write_text("")
    outputs = []
    for step in STEPS:
        args = [str(game) if a == "G" else a for a in step]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (step, result.output)
        if step[0] == "night":
            outputs.append(result.stdout)
    return game, outputs


def _golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("MODTOOL_UPDATE_GOLDEN"):
        path.write_text(text)
    assert text == path.read_text()


def test_the_scripted_game_matches_its_golden_files(tmp_path):
    game, nights = _play(tmp_path)
    _golden("vampires-game.events.jsonl", (game / "events.jsonl").read_text())
    _golden("vampires-game.nights.txt", "\n".join(nights))
    count = runner.invoke(app, ["count", str(game), "--day", "all"])
    assert count.exit_code == 0, count.output
    _golden("vampires-game.count.txt", count.stdout)
    posts = []
    for night in ("1", "2", "3"):
        dawn = runner.invoke(app, ["draft", "nightend", str(game), "--night", night, "--stdout"])
        pms = runner.invoke(app, ["draft", "night", str(game), "--night", night, "--stdout"])
        posts += [dawn.stdout, pms.stdout]
    _golden("vampires-game.drafts.bbcode", "\n".join(posts))


def test_what_the_scripted_game_shows(tmp_path):
    game, nights = _play(tmp_path)
    events = [json.loads(line) for line in (game / "events.jsonl").read_text().splitlines()]
    deaths = [(e["player"], e["phase"], e["cause"]) for e in events if e["kind"] == "death"]
    assert deaths == [
        ("Linden", "D1", "lynched"),
        ("Birch", "N1", "drained"),  # the Paladin was distracted: no protection
        ("Ash", "N1", "poisoned"),  # the Apothecary treated Birch, whom Ash drained
        ("Dune", "D2", "lynched"),
        ("Hazel", "N2", "slain"),  # the Slayer's kill
        ("Cedar", "D3", "lynched"),
        ("Kale", "N3", "drained"),
        ("Grove", "N3", "slain"),
    ]
    changes = [
        (e["player"], e["character"], e["phase"]) for e in events if e["kind"] == "character_change"
    ]
    # Birch (Priest) drained in Night 1: a Faithful Villager ascends; Cedar (that Priest)
    # lynched on Day 3: the last Faithful Villager ascends; no one is left for Kale (Watcher)
    assert changes == [("Cedar", "priest", "N1"), ("Maple", "priest", "D3")]
    assert "Game over: the Village and the Treacherous Villager win (" in nights[2]
    assert {
        "kind": "reminder",
        "player": "Elm",
        "reminder": "slayer",
        "night": 1,
        "until": "game",
    } in events
    assert "Game over: village, treacherous-villager win" not in nights[0]
    count = runner.invoke(app, ["count", str(game), "--day", "2", "--json"])
    day2 = json.loads(count.stdout)[0]
    # the tie the vampires settled: the ledger records their choice, so the count says it
    assert day2["outcome"]["kind"] == "execution" and day2["outcome"]["rule"] == "vampires-chose"
    assert day2["outcome"]["tied"] == ["Dune", "Grove"]
    assert any("no lynch, which is not available" in w["message"] for w in day2["warnings"])
    day3 = json.loads(runner.invoke(app, ["count", str(game), "--day", "3", "--json"]).stdout)[0]
    assert day3["win"] is None and day3["outcome"]["player"] == "Cedar"


# --- interaction pairs (seed 004) ------------------------------------------------------------


def test_protection_by_the_paladin_makes_a_priest_or_watcher_paranoid():
    roles = {"p": "priest", "w": "watcher", "g": "guard", "pal": "paladin"}
    plans = [Plan("pal", "protection", (t,)) for t in ("p", "w", "g")]
    protected, paranoid = paladin_effects(plans, roles)
    assert protected == {"p": 1, "w": 1, "g": 1} and paranoid == {"p", "w"}


@pytest.mark.parametrize(
    ("role", "paranoid", "said"),
    [
        ("vampire", False, "Vampire"),
        ("faithful-villager", False, "Not a Vampire"),
        ("faithful-villager", True, "Vampire"),
        ("scion", False, "Not a Vampire"),
        ("treacherous-villager", False, "Not a Vampire"),
    ],
)
def test_priest(role, paranoid, said):
    assert priest_result(role, paranoid) == said


@pytest.mark.parametrize(
    ("role", "paranoid", "said", "slayer"),
    [
        ("chosen-one", False, "The Chosen One", True),
        ("chosen-one", True, "Not The Chosen One", False),
        ("shaman", False, "Not The Chosen One", False),
    ],
)
def test_watcher(role, paranoid, said, slayer):
    assert watcher_result(role, paranoid) == (said, slayer)


@pytest.mark.parametrize(
    ("role", "slayer", "protected", "result"),
    [
        ("faithful-villager", False, 0, "dies"),
        ("faithful-villager", False, 1, "protected"),
        ("chosen-one", False, 0, "resisted"),
        ("faithful-villager", True, 0, "resisted"),
    ],
)
def test_drain_against_protection_and_resistance(role, slayer, protected, result):
    assert drain_result(role, slayer, protected) == result


@pytest.mark.parametrize(
    ("role", "drained_by", "result"),
    [
        ("vampire", None, "apothecary dies"),
        ("priest", "v", "poisons the vampire"),
        ("priest", None, "nothing"),
    ],
)
def test_apothecary_and_vampire(role, drained_by, result):
    assert apothecary_result(role, drained_by) == result


def test_distraction_cancels_a_plan():
    plans = [Plan("tv", "distraction", ("v",)), Plan("v", "drain", ("x",))]
    assert cancelled_by_distraction(plans) == {"v"}


def _village(roles, slayers=(), converted=False):
    return Village(dict(roles), set(roles), set(slayers), converted, {s: s for s in roles})


PALADIN_MUST = '"Once per night, you must protect one target player."'


@pytest.mark.parametrize(
    ("roles", "plans", "warned"),
    [
        ({"pal": "paladin", "v": "vampire"}, [Plan("v", "drain", ("x",))], ["pal"]),
        ({"pal": "paladin"}, [Plan("pal", "protection", ("x",))], []),
        ({"pal": "paladin"}, [Plan("pal", "protection", ())], ["pal"]),  # nobody named
        # every other ability is a "may": no plan is the player's choice
        ({"p": "priest", "g": "guard", "a": "apothecary", "tv": "treacherous-villager"}, [], []),
    ],
)
def test_a_paladin_without_a_plan_is_a_warning(roles, plans, warned):
    out = resolve(_village(roles), plans, random.Random(0))
    assert [w.split(" ")[0] for w in out.warnings] == warned, PALADIN_MUST
    assert all(PALADIN_MUST in w for w in out.warnings)


def test_a_dead_paladin_is_not_warned():
    village = _village({"pal": "paladin", "v": "vampire"})
    village.alive.discard("pal")
    assert resolve(village, [], random.Random(0)).warnings == []


def test_conversion_when_the_vampires_kill_a_scion_and_resistance():
    roles = {"v": "vampire", "s": "scion", "f1": "faithful-villager", "co": "chosen-one"}
    out = resolve(_village(roles), [Plan("v", "drain", ("s",))], random.Random(0))
    assert out.deaths == [("s", "drained")]
    assert out.role_changes == [("f1", "scion", "conversion")]  # never The Chosen One
    again = resolve(_village(roles, converted=True), [Plan("v", "drain", ("s",))], random.Random(0))
    assert again.role_changes == []  # once per game


def test_ascension_when_a_priest_dies():
    roles = {"v": "vampire", "p": "priest", "f1": "faithful-villager", "sh": "shaman"}
    out = resolve(_village(roles), [Plan("v", "drain", ("p",))], random.Random(0))
    assert out.role_changes == [("f1", "priest", "ascension")]  # not the Shaman (a reading)


def test_deception_on_reveal(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(FIXTURE, game)
    (game / "events.jsonl").write_text(
        '{"kind": "day_start", "day": 1, "post": 0}\n{"kind": "day_end", "day": 1, "post": 0}\n'
        + json.dumps(
            {
                "kind": "night_choice",
                "player": "Linden",
                "night": 1,
                "targets": [],
                "ability": "deception",
                "character": "Priest",
            }
        )
        + "\n"
        + json.dumps({"kind": "death", "player": "Linden", "phase": "N1", "cause": "drained"})
        + "\n"
    )
    (game / "game.toml").write_text(
        (game / "game.toml").read_text() + '\n[drafts]\nreveal = "role"\n'
    )
    post = {"post_id": "0", "number": 0, "author": "GM", "time": "2026-11-02T10:00:00+00:00"}
    (game / "thread.jsonl").write_text(json.dumps(post) + "\n")
    dawn = runner.invoke(app, ["draft", "nightend", str(game), "--night", "1", "--stdout"])
    assert "Linden[/b] died (drained): they were the Priest" in dawn.stdout


@pytest.mark.parametrize(
    ("alive_roles", "winners", "over"),
    [
        ({"co": "chosen-one", "v": "vampire"}, ("village", "treacherous-villager"), True),
        ({"a": "priest", "b": "guard", "c": "scion"}, ("village", "treacherous-villager"), True),
        ({"v": "vampire", "w": "vampire", "a": "priest", "b": "guard"}, ("vampires",), True),
        ({"v": "vampire", "a": "priest", "b": "guard"}, (), False),
    ],
)
def test_faction_wins(alive_roles, winners, over):
    wins = vampire_wins(alive_roles, set(alive_roles))
    assert (wins.winners, wins.game_over) == (winners, over)


def test_the_slayers_extra_win_and_dark_gods_favor():
    roles = {"v": "vampire", "a": "priest", "b": "guard", "co": "chosen-one"}
    wins = vampire_wins(
        roles,
        {"v", "a", "b"},
        chosen_one_dead=True,
        scions_killed_by_village=2,
        scions_alive=1,
        slayers=frozenset({"co"}),
    )
    assert "slayer" in wins.winners
    assert favor_factions({"village": 1}, 2) == ["village"]
    assert favor_factions({"vampires": 1}, 3) == []


def test_the_calendar_of_the_scripted_game(tmp_path):
    game, _ = _play(tmp_path)
    rows = json.loads(runner.invoke(app, ["schedule", str(game), "--json"]).stdout)
    starts = {(r["phase"], r["start"][:16]) for r in rows[:5]}
    # seed 004: Monday and Tuesday a day, Wednesday a night, Thursday and Friday a day, the
    # weekend a night, turning at 09:00 in the game's zone; a day the ledger starts at a post
    # starts at that post's time (post 8, Thursday 10:00)
    assert ("D2", "2026-11-05T10:00") in starts and ("N2", "2026-11-07T09:00") in starts
    assert next(r for r in rows if r["phase"] == "D2")["recorded"]


def test_the_seeds_assignment_and_its_commitment(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(FIXTURE, game)
    roles = ", ".join(
        f'"{r}"'
        for r in [
            "Vampire",
            "Vampire",
            "Treacherous Villager",
            "Priest",
            "Overzealous Paladin",
            "Guard",
            "Apothecary",
            "The Watcher",
            "The Chosen One",
            "Shaman",
            "Scion of Death",
            "Faithful Villager",
            "Faithful Villager",
        ]
    )
    (game / "game.toml").write_text(
        (game / "game.toml").read_text() + f"\n[setup]\nroles = [{roles}]\n"
    )
    drawn = runner.invoke(app, ["setup", "draw", str(game), "--seed", "4", "--write", "--json"])
    assert drawn.exit_code == 0, drawn.output
    event = json.loads(drawn.stdout)
    import random as r

    shuffled = [
        f"{p}"
        for p in [
            "Ash",
            "Birch",
            "Cedar",
            "Dune",
            "Elm",
            "Fern",
            "Grove",
            "Hazel",
            "Iris",
            "Juniper",
            "Kale",
            "Linden",
            "Maple",
        ]
    ]
    r.Random(4).shuffle(shuffled)
    assert [p["player"] for p in event["players"]] == shuffled
    assert (
        event["players"][0]["role"] == "vampire"
        and event["players"][12]["role"] == "faithful-villager"
    )
    check = runner.invoke(app, ["setup", "check", str(game)])
    assert check.exit_code == 0 and check.stdout.startswith("Legal setup: ")
    made = runner.invoke(app, ["setup", "commit", str(game), "--salt", "s"])
    assert made.exit_code == 0 and "Commitment (post it now): " in made.stdout
    small = tmp_path / "small"
    shutil.copytree(FIXTURE, small)
    text = (small / "game.toml").read_text()
    (small / "game.toml").write_text(text.split('[[players]]\nname = "Maple"')[0])
    warned = runner.invoke(app, ["setup", "check", str(small)])
    assert "- warning: 12 players: the Vampires game recommends at least 13" in warned.stdout


@pytest.mark.parametrize(
    ("scion", "chosen", "wins"),
    [
        ("lynched", "lynched", True),
        ("lynched", None, False),
        ("slain", None, True),
        ("drained", "lynched", False),
    ],
)
def test_a_scions_own_win(scion, chosen, wins):
    from modtool.games.vampires.game import scion_wins

    assert scion_wins(scion, chosen) is wins


def test_a_vampire_modkilled_at_a_post_does_not_drain(tmp_path):
    from modtool.core.ledger import Phase, PhaseKind
    from modtool.games import load_game
    from modtool.games.vampires.game import resolve_vampire_night, village_at

    game = tmp_path / "g"
    shutil.copytree(FIXTURE, game)
    lines = [
        {"kind": "day_start", "day": 1, "post": 0},
        {"kind": "death", "player": "Ash", "post": 2, "cause": "modkilled"},
        {"kind": "day_end", "day": 1, "post": 3},
        {"kind": "night_choice", "player": "Ash", "night": 1, "targets": ["Birch"]},
    ]
    (game / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in lines))
    loaded = load_game(game)
    assert "Ash" not in village_at(loaded, Phase(1, PhaseKind.NIGHT)).alive
    outcome, plans = resolve_vampire_night(loaded, 1)
    assert plans == [] and not outcome.deaths
