"""modtool's role data: what tools/build_data.py makes of the seeds and the publisher's facts,
every text copied from its seed as written, and names that find their character."""

from __future__ import annotations

import importlib.util
import json

import pytest

from modtool.games.clocktower.roles import (
    ROLEBOOKS,
    characters,
    find_character,
    rolebook,
)
from modtool.games.vampires.roles import vampire_setup

from .conftest import ROOT

SHARED = ROOT.parent / "shared"
needs_shared = pytest.mark.skipif(not (SHARED / "seeds").is_dir(), reason="../shared is absent")


def _builder():
    spec = importlib.util.spec_from_file_location("build_data", ROOT / "tools" / "build_data.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@needs_shared
def test_the_data_files_are_exactly_what_the_builder_makes_of_the_seeds():
    built = _builder().build(SHARED)
    for path, text in built.items():
        assert (ROOT / "modtool" / "data" / path).read_text("utf-8") == text, path


@needs_shared
@pytest.mark.parametrize("book", ROLEBOOKS)
def test_every_text_is_copied_from_its_seed(book):
    data = rolebook(book)
    seed = " ".join((SHARED / data.source).read_text("utf-8").split())
    for c in data.characters:
        for text in (c.name, c.ability, c.how_to_play, c.flavor, *c.how_to_run, *c.notes):
            assert " ".join(text.split()) in seed, (c.id, text[:60])
    for text in data.win.values():
        assert text in seed


@needs_shared
def test_the_vampires_roles_are_copied_from_seed_004():
    setup = vampire_setup()
    seed = (SHARED / setup.source).read_text("utf-8")
    for role in setup.roles:
        assert role.description in " ".join(seed.split())
        for ability in role.abilities:
            assert f"- {ability.name}: {ability.text}" in seed
        if role.win:
            assert role.win in seed


@needs_shared
def test_ids_and_teams_agree_with_the_publisher():
    roles = json.loads(
        (SHARED / "botc-data/botc-release/resources/data/roles.json").read_text("utf-8")
    )
    teams = {r["id"]: r["team"] for r in roles}
    for book in ROLEBOOKS:
        for c in rolebook(book).characters:
            assert teams[c.id] == c.team, (book, c.id)


@pytest.mark.parametrize(
    ("book", "count", "language"),
    [("cheomseongdae", 24, "en"), ("crimson-moon", 25, "ko"), ("trouble-brewing-forum", 22, "en")],
)
def test_each_seed_script_has_all_its_characters(book, count, language):
    data = rolebook(book)
    assert len(data.characters) == len(set(data.ids)) == count
    assert data.language == language
    assert all(c.ability for c in data.characters)


def test_seed_003s_host_wording_and_win_conditions():
    tb = rolebook("trouble-brewing-forum")
    assert tb.text("butler").ability.startswith("Each night, you must choose a player other than")
    assert tb.win["good"] == "Good wins when the Demon is eliminated."
    assert [c.team for c in tb.characters].count("outsider") == 4


def test_the_vampires_setup_has_twelve_roles_in_four_factions():
    setup = vampire_setup()
    assert len(setup.roles) == 12
    assert {r.faction for r in setup.roles} == set(setup.factions)
    assert [r.id for r in setup.roles if not r.at_start] == ["slayer"]
    assert setup.roles[0].id == "vampire"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Scarlet Woman", "scarletwoman"),
        ("scarletwoman", "scarletwoman"),
        ("탕녀", "scarletwoman"),  # official Korean
        ("진홍의 여인", "scarletwoman"),  # community Korean
        ("초민감자", "empath"),
        ("스파이", "spy"),
        ("FORTUNE-TELLER", "fortuneteller"),
        ("Nobody", None),
        ("", None),
    ],
)
def test_a_character_is_found_by_any_of_its_names(name, expected):
    found = find_character(name)
    assert (found.id if found else None) == expected


def test_a_name_is_looked_up_on_the_game_script_only():
    from modtool.games.clocktower.scripts import shipped_script

    tb = shipped_script("trouble-brewing-forum")
    assert tb.find("Empath").id == "empath" and tb.find("초공감자").id == "empath"
    assert tb.find("Pixie") is None


def test_character_facts_carry_no_ability_text():
    empath = characters()["empath"]
    assert (empath.team, empath.alignment, empath.name_ko) == ("townsfolk", "good", "초공감자")
    assert empath.first_night is not None and empath.other_night is not None
    assert not hasattr(empath, "ability")
