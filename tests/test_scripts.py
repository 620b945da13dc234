"""Scripts in the official format: the three shipped seed scripts, the publisher's example
script, a host's script file in game.toml, and clear errors."""

from __future__ import annotations

import json
import shutil

import pytest

from modtool.errors import GameFileError
from modtool.games import load_game
from modtool.games.clocktower.scripts import parse_script, shipped_script

from .conftest import EXAMPLE, ROOT

SHARED = ROOT.parent / "shared"


@pytest.mark.parametrize(
    ("name", "title", "size", "teams"),
    [
        ("trouble-brewing-forum", "Trouble Brewing", 22, (13, 4, 4, 1)),
        ("cheomseongdae", "첨성대에 흐른 피", 24, (12, 4, 4, 4)),
        ("crimson-moon", "진홍색 달에 한 번", 25, (13, 4, 4, 4)),
    ],
)
def test_the_seed_scripts_ship(name, title, size, teams):
    script = shipped_script(name)
    assert (script.name, len(script.ids)) == (title, size)
    got = tuple(len(script.of_team(t)) for t in ("townsfolk", "outsider", "minion", "demon"))
    assert got == teams


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared is absent")
def test_the_publishers_example_script_imports_with_its_homebrew_character():
    path = SHARED / "botc-data/botc-release/wc25/stowedaway/script.json"
    script = parse_script(json.loads(path.read_text("utf-8")), str(path))
    assert script.name == "Stowed Away" and script.author == "CaffeineBoost"
    homebrew = script.characters["stowedaway-bonecollector"]
    assert (homebrew.name, homebrew.team) == ("Bone Collector", "townsfolk")
    assert script.texts["stowedaway-bonecollector"].ability.startswith("Once per game, at night*")
    assert script.find("Vigormortis").team == "demon"


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"id": "imp"}, "a script is a JSON array of character ids"),
        ([{"id": "_meta", "name": "x"}], "the script has no characters"),
        (
            ["imp", "chef", "impp"],
            "item 3: 'impp' is not an official character id (did you mean 'imp'?)",
        ),
        (["imp", "imp"], "item 2: 'imp' is on the script twice"),
        (["imp", {"id": "x", "name": "X"}], "item 2: a homebrew character needs team, ability"),
        (["imp", 7], "item 2: expected a character id or a character object"),
        (
            ["imp", {"id": "x", "name": "X", "team": "villain", "ability": "a"}],
            "item 2: team 'villain' is not one of townsfolk",
        ),
    ],
)
def test_a_bad_script_is_refused_with_the_item_and_the_fix(data, problem):
    with pytest.raises(GameFileError) as caught:
        parse_script(data, "s.json")
    assert str(caught.value).startswith(f"s.json: {problem}")


def test_older_id_spellings_are_read():
    script = parse_script(["fortune_teller", {"id": "scarlet_woman"}, "Imp"], "s.json")
    assert script.ids == ("fortuneteller", "scarletwoman", "imp")


def test_a_game_names_a_script_file(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    ids = list(shipped_script("trouble-brewing-forum").ids)
    (game / "mine.json").write_text(json.dumps([{"id": "_meta", "name": "Mine"}, *ids]))
    text = (game / "game.toml").read_text()
    (game / "game.toml").write_text(text.replace('"trouble-brewing-forum"', '"mine.json"'))
    loaded = load_game(game)
    assert loaded.variant.script.name == "Mine" and loaded.slot("Banana").role == "imp"
    (game / "game.toml").write_text(text.replace('"trouble-brewing-forum"', '"nope"'))
    with pytest.raises(GameFileError, match="script 'nope' is neither a shipped script"):
        load_game(game)
