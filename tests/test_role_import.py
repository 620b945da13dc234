"""`modtool roles import`: role text from the publisher's per-language character file or a
script tool's JSON into GAME/roles.LANG.toml, read by the role PMs. The files under
tests/fixtures/roles are hand-made in the publisher's shapes; the publisher's own Korean file
is read from ../shared when it is there."""

from __future__ import annotations

import json
import shutil
import tomllib

import pytest
from typer.testing import CliRunner

from modtool.cli import app
from modtool.games import load_game
from modtool.games.clocktower.role_import import read_role_file
from modtool.host.drafts import DraftKind, make_drafts

from .conftest import EXAMPLE, ROOT

ROLES = ROOT / "tests" / "fixtures" / "roles"
runner = CliRunner()
# The characters of the example game whose Korean text no shipped book has.
NO_KOREAN = ("Baron", "Fortune Teller", "Monk", "Poisoner", "Ravenkeeper", "Saint", "Undertaker")


@pytest.fixture
def game(tmp_path):
    folder = tmp_path / "game"
    shutil.copytree(EXAMPLE, folder)
    return folder


def _pms(folder, lang="ko", markup="bbcode") -> dict[str, str]:
    drafts = make_drafts(load_game(folder), DraftKind.ROLEPMS, language=lang, markup=markup)
    return {d.name: d.text for d in drafts}


def _shown(markdown: str) -> str:
    """What a reader sees of a Markdown post: its rendered text, without the tags."""
    import re

    from markdown_it import MarkdownIt

    return re.sub(r"<[^>]+>", "", MarkdownIt().render(markdown)).replace("&quot;", '"')


@pytest.mark.parametrize(
    ("file", "expected_ids", "unknown"),
    [
        ("ko.json", ["baron", "monk", "washerwoman", "pixie"], ["자작 캐릭터"]),
        ("my-script.json", ["fortuneteller"], ["Lamplighter"]),
    ],
)
def test_both_shapes_are_read(file, expected_ids, unknown):
    data = json.loads((ROLES / file).read_text("utf-8"))
    found, skipped = read_role_file(data, file)
    assert [r.id for r in found] == expected_ids  # entries without an ability carry no text
    assert skipped == unknown


def test_reminders_are_kept_per_night():
    data = json.loads((ROLES / "my-script.json").read_text("utf-8"))
    (teller,) = read_role_file(data, "my-script.json")[0]
    assert teller.first_night.startswith("Test reminder: the Fortune Teller")
    assert teller.other_night == "Test reminder: again, 2 players."


@pytest.mark.parametrize("data", [{"editions": {}}, "text", 3, {"roles": ["baron"]}])
def test_a_file_of_another_shape_is_refused(data):
    from modtool.errors import GameFileError

    with pytest.raises(GameFileError, match="neither the publisher's character file"):
        read_role_file(data, "x.json")


@pytest.mark.parametrize("data", [[], {"roles": {}}, [{"id": "chef", "name": "Chef"}]])
def test_a_file_with_no_character_to_import_is_refused(data):
    from modtool.errors import GameFileError

    with pytest.raises(GameFileError, match="holds no character with an ability"):
        read_role_file(data, "x.json")


def test_the_missing_text_error_names_the_import_command(game):
    result = runner.invoke(app, ["draft", "rolepms", str(game), "--lang", "ko", "--stdout"])
    assert result.exit_code == 1
    assert f"`modtool roles import FILE {game} --lang ko`" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_import_writes_the_scripts_characters_and_the_pms_quote_them(game):
    result = runner.invoke(app, ["roles", "import", str(ROLES / "ko.json"), str(game)])
    assert result.exit_code == 0, result.output
    # Pixie is not on Trouble Brewing; the other characters of the script have no text there
    assert result.stdout.splitlines()[0] == f"Wrote 3 characters to {game / 'roles.ko.toml'}."
    assert "No text in ko.json for: " in result.stdout and "Pixie" not in result.stdout
    table = tomllib.loads((game / "roles.ko.toml").read_text("utf-8"))
    assert set(table) == {"script", "Baron", "Monk", "Washerwoman"}
    assert table["Monk"]["other_night"] == "시험용 알림: 수도사가 한 명을 고릅니다."
    assert "first_night" not in table["Monk"]
    assert "수도사 (시험)" in (game / "roles.ko.toml").read_text("utf-8")  # UTF-8, not \u escapes


def test_what_the_host_wrote_is_kept_and_a_second_import_adds_nothing(game):
    own = '# my own wording\n["Monk"]\nability = "내가 쓴 수도사 능력"\n'
    (game / "roles.ko.toml").write_text(own, "utf-8")
    args = ["roles", "import", str(ROLES / "ko.json"), str(game)]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert "Kept as written there: Monk." in first.stdout
    text = (game / "roles.ko.toml").read_text("utf-8")
    assert text.startswith(own)
    assert tomllib.loads(text)["Monk"] == {"ability": "내가 쓴 수도사 능력"}
    second = runner.invoke(app, args)
    assert second.stdout.startswith("Nothing new for ")
    assert (game / "roles.ko.toml").read_text("utf-8") == text


def test_all_takes_every_official_character_of_the_file(game):
    args = ["roles", "import", str(ROLES / "ko.json"), str(game), "--all", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert found["written"] == ["baron", "monk", "washerwoman", "pixie"]
    assert found["not_official"] == ["자작 캐릭터"]


def test_a_script_file_needs_its_language_said(game):
    bare = runner.invoke(app, ["roles", "import", str(ROLES / "my-script.json"), str(game)])
    assert bare.exit_code == 2
    assert "does not say its language; give it with --lang" in bare.stderr
    args = ["roles", "import", str(ROLES / "my-script.json"), str(game), "--lang", "en"]
    assert runner.invoke(app, args).exit_code == 0
    assert "Fortune Teller" in tomllib.loads((game / "roles.en.toml").read_text("utf-8"))


def test_a_broken_file_writes_nothing(game, tmp_path):
    broken = tmp_path / "ko.json"
    broken.write_text('{"roles": {', "utf-8")
    result = runner.invoke(app, ["roles", "import", str(broken), str(game)])
    assert result.exit_code == 1
    assert "is not UTF-8 JSON" in result.stderr
    assert not (game / "roles.ko.toml").exists()


def test_the_publishers_korean_file_gives_every_trouble_brewing_pm(game, shared):
    """The publisher's own Korean character file (../shared): after the import, every Korean
    role PM of the example game drafts, quoting the file's ability text."""
    source = shared / "botc-data" / "botc-translations" / "game" / "ko.json"
    if not source.is_file():
        pytest.skip("the publisher's Korean character file is not in ../shared")
    result = runner.invoke(app, ["roles", "import", str(source), str(game)])
    assert result.exit_code == 0, result.output
    assert "No text in" not in result.stdout
    roles = json.loads(source.read_text("utf-8"))["roles"]
    pms = {name: _shown(text) for name, text in _pms(game, markup="markdown").items()}
    assert len(pms) == 10
    assert f"당신은 {roles['monk']['name']}입니다" in pms["role-Magoroth.ko.md"]
    assert roles["monk"]["ability"] in pms["role-Magoroth.ko.md"]  # "매일 밤*," as written
    assert roles["baron"]["ability"] in pms["role-wylted.ko.md"]  # "[외지인 +2명]" too
    written = tomllib.loads((game / "roles.ko.toml").read_text("utf-8"))
    assert {n for n in NO_KOREAN} <= set(written)


def _covered(name: str, language: str) -> tuple[int, int]:
    from modtool.games.clocktower.roles import role_text
    from modtool.games.clocktower.scripts import shipped_script

    script = shipped_script(name)
    have = [c for c in script.ids if script.texts.get(c) or role_text(c, language, script.book)]
    return len(have), len(script.ids)


def test_the_docs_say_which_scripts_ship_text_in_which_language():
    import re

    docs = (ROOT / "docs" / "drafts.md").read_text("utf-8")
    for name in ("trouble-brewing-forum", "cheomseongdae", "crimson-moon"):
        row = re.search(rf"^\| `{name}` \| (.+?) \| (.+?) \|$", docs, re.M)
        for cell, language in zip(row.groups(), ("en", "ko"), strict=True):
            have, total = _covered(name, language)
            said = re.match(r"all (\d+)|(\d+) of (\d+)", cell)
            assert said, cell
            if said[1]:
                assert have == total == int(said[1]), (name, language)
            else:
                assert (have, total) == (int(said[2]), int(said[3])), (name, language)


def test_the_scripts_name_in_the_language_comes_with_the_import(game):
    result = runner.invoke(app, ["roles", "import", str(ROLES / "ko.json"), str(game)])
    assert "The script's name: 시험판." in result.stdout  # the edition all of its characters share
    assert tomllib.loads((game / "roles.ko.toml").read_text("utf-8"))["script"] == {
        "name": "시험판"
    }
    (game / "roles.ko.toml").write_text(
        (game / "roles.ko.toml").read_text("utf-8").replace("시험판", "내 이름"), "utf-8"
    )
    again = runner.invoke(app, ["roles", "import", str(ROLES / "ko.json"), str(game), "--json"])
    assert json.loads(again.stdout)["script_name"] is None  # the host's own name stays
    assert "내 이름" in (game / "roles.ko.toml").read_text("utf-8")


def test_a_script_tool_export_of_the_games_script_names_it(game, tmp_path):
    from modtool.games.clocktower.scripts import shipped_script

    ids = shipped_script("trouble-brewing-forum").ids
    export = [{"id": "_meta", "name": "손으로 만든 대본"}]
    export += [{"id": cid, "name": cid, "ability": f"{cid} 시험 능력"} for cid in ids]
    path = tmp_path / "script-ko.json"
    path.write_text(json.dumps(export, ensure_ascii=False), "utf-8")
    result = runner.invoke(app, ["roles", "import", str(path), str(game)])
    assert result.exit_code == 0, result.output
    pms = _pms(game)
    assert "(하수인, 손으로 만든 대본)" in pms["role-wylted.ko.bbcode"]
    assert "baron 시험 능력" in pms["role-wylted.ko.bbcode"]


def test_a_script_table_takes_only_a_name(game):
    (game / "roles.ko.toml").write_text('[script]\nname = "x"\nauthor = "y"\n', "utf-8")
    result = runner.invoke(app, ["draft", "rolepms", str(game), "--lang", "ko", "--stdout"])
    assert result.exit_code == 1
    assert '[script] takes name = "..." only' in result.stderr
