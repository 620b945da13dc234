"""Clocktower setups: the official counts, each setup modifier, each rule of `setup check`
(from the seeds' rule texts), seeded draws, and the commitment."""

from __future__ import annotations

import json
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from modtool.cli import app
from modtool.core.setups import commitment_text, sha256
from modtool.games import load_game
from modtool.games.clocktower.scripts import shipped_script
from modtool.games.clocktower.setups import (
    Counts,
    base_counts,
    bluff_reasons,
    check_setup,
    count_reasons,
    draw_setup,
    duplicate_reasons,
    expected_counts,
    red_herring_reasons,
    required_reasons,
    shown_reasons,
)
from modtool.games.vampires.setup import vampire_reasons, vampires_won_at_start

from .conftest import EXAMPLE

runner = CliRunner()
TB = shipped_script("trouble-brewing-forum")
CRIMSON = shipped_script("crimson-moon")
ALMANAC = shipped_script("cheomseongdae")


@pytest.mark.parametrize(
    ("players", "counts"),
    [
        (5, (3, 0, 1, 1)),
        (7, (5, 0, 1, 1)),
        (10, (7, 0, 2, 1)),
        (12, (7, 2, 2, 1)),
        (15, (9, 2, 3, 1)),
    ],
)
def test_official_counts(players, counts):
    assert base_counts(players).as_tuple() == counts


@pytest.mark.parametrize("players", [4, 16])
def test_no_official_counts_outside_five_to_fifteen(players):
    assert base_counts(players) is None and expected_counts(players, set()) == []


# (players, characters in play, every legal count) — from the bracketed setup texts
MODIFIER_CASES = [
    (10, set(), [(7, 0, 2, 1)]),
    (10, {"baron"}, [(5, 2, 2, 1)]),  # seed 003: "two players who would be Townsfolk are Outsiders"
    (8, {"godfather"}, [(4, 2, 1, 1), (6, 0, 1, 1)]),  # [-1 or +1 Outsider]
    (8, {"summoner"}, [(6, 1, 1, 0)]),  # [No Demon]: a Townsfolk in the Demon's place
    (8, {"huntsman"}, [(4, 2, 1, 1), (5, 1, 1, 1)]),  # [+the Damsel], unless already in
    (12, {"baron", "godfather"}, [(4, 5, 2, 1), (6, 3, 2, 1)]),
    (7, {"drunk", "imp"}, [(5, 0, 1, 1)]),  # the Drunk changes no count
]


@pytest.mark.parametrize(("players", "in_play", "legal"), MODIFIER_CASES)
def test_setup_modifiers(players, in_play, legal):
    assert [c.as_tuple() for c in expected_counts(players, in_play)] == legal


NAMES = {c.id: c.name for c in TB.characters.values()} | {
    c.id: c.name for c in CRIMSON.characters.values()
}


@pytest.mark.parametrize(
    ("players", "counts", "in_play", "reasons"),
    [
        (10, (7, 0, 2, 1), set(), []),
        (
            10,
            (7, 0, 2, 1),
            {"baron"},
            [
                "Baron in play: expected 5 Townsfolk, got 7",
                "Baron in play: expected 2 Outsiders, got 0",
            ],
        ),
        (
            10,
            (6, 1, 2, 1),
            set(),
            [
                "10 players: expected 7 Townsfolk, got 6",
                "10 players: expected 0 Outsiders, got 1",
            ],
        ),
        (
            8,
            (5, 1, 1, 1),
            {"godfather"},
            [
                "Godfather in play: expected 4 or 6 Townsfolk, got 5",
                "Godfather in play: expected 0 or 2 Outsiders, got 1",
            ],
        ),
        (
            8,
            (5, 1, 1, 1),
            {"summoner"},
            [
                "Summoner in play: expected 6 Townsfolk, got 5",
                "Summoner in play: expected 0 Demons, got 1",
            ],
        ),
        (4, (2, 0, 1, 1), set(), ["4 players: the official setups are for 5 to 15 players"]),
    ],
)
def test_count_reasons_name_the_rule(players, counts, in_play, reasons):
    got, _ = count_reasons(players, Counts(*counts), in_play, NAMES)
    assert got == reasons


def test_duplicates_are_named():
    roles = {"a": "imp", "b": "imp", "c": "chef"}
    assert duplicate_reasons(roles, NAMES) == ["Imp is given to 2 players (a, b)"]


TEAMS = {c.id: c.team for c in TB.characters.values()} | {
    c.id: c.team for c in CRIMSON.characters.values()
}


@pytest.mark.parametrize(
    ("roles", "shown", "reasons"),
    [
        ({"k": "drunk", "w": "chef"}, {"k": "washerwoman"}, []),
        (
            {"k": "drunk", "w": "chef"},
            {"k": "chef"},
            ["the Drunk (k) is shown the Chef, who is in play"],
        ),
        (
            {"k": "drunk"},
            {"k": "saint"},
            ["the Drunk (k) must be shown a Townsfolk, not the Saint"],
        ),
        ({"k": "drunk"}, {}, ["the Drunk (k) needs shown = a Townsfolk not in play"]),
        ({"k": "chef"}, {"k": "monk"}, ["k is the Chef, who is told their own character"]),
    ],
)
def test_the_drunk_is_shown_a_townsfolk_not_in_play(roles, shown, reasons):
    assert shown_reasons(roles, shown, TEAMS, NAMES) == reasons


def test_the_huntsman_brings_the_damsel():
    assert required_reasons({"huntsman"}, NAMES) == ["Huntsman in play: the Damsel must be in play"]
    assert required_reasons({"huntsman", "damsel"}, NAMES) == []


@pytest.mark.parametrize(
    ("bluffs", "needed", "reasons"),
    [
        (["mayor", "soldier", "chef"], True, []),
        (["mayor", "soldier"], True, ["the Demon gets 3 bluffs, not 2"]),
        ([], False, []),
        (["mayor", "soldier", "imp"], True, ["bluff Imp is not a good character"]),
        (["mayor", "soldier", "empath"], True, ["bluff Empath is in play"]),
    ],
)
def test_bluffs_are_three_good_characters_not_in_play(bluffs, needed, reasons):
    assert bluff_reasons(bluffs, {"empath", "imp"}, TEAMS, NAMES, needed) == reasons


@pytest.mark.parametrize(
    ("herring", "roles", "reasons"),
    [
        ("a", {"a": "chef", "b": "fortuneteller"}, []),
        ("b", {"a": "chef", "b": "fortuneteller"}, []),  # the Fortune Teller may be their own
        ("c", {"a": "chef", "c": "imp", "b": "fortuneteller"}, ["red herring c is not good"]),
        (
            None,
            {"b": "fortuneteller"},
            ["the Fortune Teller is in play: choose a red herring (a good player)"],
        ),
        (None, {"a": "chef"}, []),
    ],
)
def test_the_red_herring_is_a_good_player(herring, roles, reasons):
    assert red_herring_reasons(herring, roles, TEAMS) == reasons


def test_the_example_game_is_a_legal_setup_and_check_says_why_when_not(tmp_path):
    ok = runner.invoke(app, ["setup", "check", str(EXAMPLE), "--json"])
    assert ok.exit_code == 0
    assert json.loads(ok.stdout) == {
        "valid": True,
        "reasons": [],
        "counts": {"townsfolk": 5, "outsider": 2, "minion": 2, "demon": 1},
        "expected": {"townsfolk": 5, "outsider": 2, "minion": 2, "demon": 1},
    }
    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    text = (game / "game.toml").read_text().replace('role = "Baron"', 'role = "Spy"')
    (game / "game.toml").write_text(text)
    bad = runner.invoke(app, ["setup", "check", str(game)])
    assert bad.exit_code == 1
    assert bad.stdout == (
        "Not a legal setup: 5 townsfolk, 2 outsider, 2 minion, 1 demon\n"
        "- 10 players: expected 7 Townsfolk, got 5\n"
        "- 10 players: expected 0 Outsiders, got 2\n"
    )


@settings(max_examples=60, deadline=None)
@given(
    script=st.sampled_from([TB, CRIMSON, ALMANAC]),
    players=st.integers(5, 15),
    seed=st.integers(0, 2**32),
)
def test_every_draw_is_legal_and_the_same_seed_draws_the_same(script, players, seed):
    names = [f"p{i}" for i in range(players)]
    drawn = draw_setup(script, names, seed)
    check = check_setup(script, drawn.roles, drawn.shown, list(drawn.bluffs), drawn.red_herring)
    assert check.valid, check.reasons
    assert sorted(drawn.seats) == sorted(names)
    assert draw_setup(script, names, seed) == drawn


def test_a_recorded_draw_replaces_the_roles_of_game_toml(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    (game / "events.jsonl").write_text('{"kind": "day_start", "day": 1, "post": 0}\n')
    drawn = runner.invoke(app, ["setup", "draw", str(game), "--seed", "7", "--write", "--json"])
    assert drawn.exit_code == 0, drawn.output
    event = json.loads(drawn.stdout)
    loaded = load_game(game)
    by_name = {s.key: (s.seat, s.role, s.shown) for s in loaded.slots}
    for p in event["players"]:
        assert by_name[p["player"]] == (p["seat"], p["role"], p.get("shown"))
    assert loaded.setup["bluffs"] == event["bluffs"]
    assert runner.invoke(app, ["setup", "check", str(game)]).exit_code == 0


def test_a_draw_after_the_game_started_needs_force_and_records_it(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    refused = runner.invoke(app, ["setup", "draw", str(game), "--seed", "7", "--write"])
    assert refused.exit_code == 1 and "--force" in refused.stderr
    forced = runner.invoke(app, ["setup", "draw", str(game), "--seed", "7", "--write", "--force"])
    assert forced.exit_code == 0, forced.output
    last = json.loads((game / "events.jsonl").read_text().splitlines()[-1])
    assert last["kind"] == "setup" and last["forced"] is True and "Day 4" in last["note"]


def test_commit_and_verify(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    made = runner.invoke(app, ["setup", "commit", str(game), "--salt", "pepper"])
    assert made.exit_code == 0, made.output
    digest = made.stdout.split("Commitment (post it now): ")[1].split()[0]
    reveal = game / "drafts" / "setup-reveal.txt"
    text = reveal.read_text()
    assert "seat 4: Kohai = drunk (shown washerwoman)" in text and "salt: pepper" in text
    assert digest == sha256(text)
    assert runner.invoke(app, ["setup", "verify", str(reveal), digest]).exit_code == 0
    reveal.write_text(text.replace("Kohai = drunk", "Kohai = imp"))
    changed = runner.invoke(app, ["setup", "verify", str(reveal), digest])
    assert changed.exit_code == 1 and changed.stdout.startswith("It does not match")


def test_commit_again_keeps_the_reveal_of_the_hash_already_posted(tmp_path):
    """Run again, commit wrote a new salt over the reveal: the posted hash could never be
    verified."""
    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    reveal = game / "drafts" / "setup-reveal.txt"
    first = runner.invoke(app, ["setup", "commit", str(game)])
    digest = first.stdout.split("Commitment (post it now): ")[1].split()[0]
    kept = reveal.read_text()
    again = runner.invoke(app, ["setup", "commit", str(game)])
    assert (again.exit_code, again.stdout) == (
        0,
        f"Commitment (made before; post it if you have not): {digest}\n"
        f"Kept {reveal} (keep it secret; post it at the end)\n",
    )
    assert reveal.read_text() == kept
    assert runner.invoke(app, ["setup", "verify", str(reveal), digest]).exit_code == 0
    # another setup (or salt) is refused, and the reveal of the posted hash stays
    setup = game / "game.toml"
    setup.write_text(setup.read_text().replace('role = "Monk"', 'role = "Investigator"'))
    for args in ([], ["--salt", "pepper"]):
        refused = runner.invoke(app, ["setup", "commit", str(game), *args])
        assert (refused.exit_code, refused.stdout) == (1, "")
        assert refused.stderr == (
            f"Error: {reveal} already holds the reveal of commitment {digest}, for a setup or "
            "salt other than this one; to make a new commitment, pass --force or delete the "
            "file, and post the new hash\n"
        )
        assert reveal.read_text() == kept
    forced = runner.invoke(app, ["setup", "commit", str(game), "--force"])
    new = forced.stdout.split("Commitment (post it now): ")[1].split()[0]
    assert forced.exit_code == 0 and new != digest and sha256(reveal.read_text()) == new


def test_the_commitment_depends_on_the_salt():
    args = ("t", "s", ["a"], {"a": "imp"}, {}, [], None)
    assert sha256(commitment_text(*args, "x")) != sha256(commitment_text(*args, "y"))


@pytest.mark.parametrize(
    ("vampires", "players", "won"),
    [(1, 13, False), (6, 13, False), (7, 13, True), (8, 13, True), (5, 10, True), (4, 10, False)],
)
def test_vampires_at_half_the_village_have_won_before_the_start(vampires, players, won):
    # seed 004: "you win when your faction comprises at least half of the village"
    assert vampires_won_at_start(vampires, players) is won
    roles = ["Vampire"] * vampires + ["Faithful Villager"] * (players - vampires)
    reasons, _ = vampire_reasons(roles)
    assert any("won before the game starts" in r for r in reasons) is won
