"""Role PMs, night-result PMs and the night-end post: golden files per template, format and
language; what each player is told; names shown literally by real renderers."""

from __future__ import annotations

import json
import os
import re
import shutil

import pytest
from typer.testing import CliRunner

from modtool.cli import app
from modtool.errors import ModToolError
from modtool.games import load_game
from modtool.games.clocktower.drafts import evil_learn_each_other
from modtool.games.vampires.drafts import vampire_knowledge
from modtool.host.drafts import DraftKind, make_drafts

from .conftest import EXAMPLE, ROOT
from .test_render import NAMES, _text

GOLDEN = ROOT / "tests" / "golden"
GAMES = ROOT / "tests" / "fixtures" / "games"
runner = CliRunner()


def _joined(drafts) -> str:
    return "".join(f"==> {d.name} <==\n{d.text}" for d in drafts)


# (golden name, game folder, kind, language, night)
GOLDEN_CASES = [
    ("example-botc.rolepms.en", EXAMPLE, DraftKind.ROLEPMS, "en", None),
    ("crimson-moon.rolepms.ko", GAMES / "crimson-moon", DraftKind.ROLEPMS, "ko", None),
    ("vampires.rolepms.en", GAMES / "vampires", DraftKind.ROLEPMS, "en", None),
    ("example-botc.night0.en", EXAMPLE, DraftKind.NIGHT, "en", 0),
    ("example-botc.night1.ko", EXAMPLE, DraftKind.NIGHT, "ko", 1),
    ("example-botc.nightend.en", EXAMPLE, DraftKind.NIGHTEND, "en", None),
    ("example-botc.nightend.ko", EXAMPLE, DraftKind.NIGHTEND, "ko", None),
]


@pytest.mark.parametrize("markup", ["bbcode", "markdown"])
@pytest.mark.parametrize(("name", "folder", "kind", "lang", "night"), GOLDEN_CASES)
def test_drafts_match_golden(name, folder, kind, lang, night, markup):
    game = load_game(folder)
    if kind is DraftKind.NIGHTEND:  # every night the example ledger has, in one file
        drafts = [
            d
            for n in (0, 1, 2, 3)
            for d in make_drafts(game, kind, (), night=n, language=lang, markup=markup)
        ]
    else:
        drafts = make_drafts(game, kind, (), night=night, language=lang, markup=markup)
    drafted = _joined(drafts)
    golden = GOLDEN / f"{name}.{markup}"
    if os.environ.get("MODTOOL_UPDATE_GOLDEN"):
        golden.write_text(drafted)
    assert drafted == golden.read_text()


def _pms(folder=EXAMPLE, lang="en") -> dict[str, str]:
    return {
        d.name: d.text for d in make_drafts(load_game(folder), DraftKind.ROLEPMS, language=lang)
    }


def test_the_drunk_is_told_the_townsfolk_they_think_they_are():
    kohai = _pms()["role-Kohai.en.bbcode"]
    assert "you are the [b]Washerwoman[/b] (Townsfolk" in kohai
    assert "Drunk" not in kohai


def test_the_demon_learns_minions_and_bluffs_and_minions_learn_the_demon_only():
    pms = _pms()
    assert "Your Minions: [b]Neros, wylted[/b]." in pms["role-Banana.en.bbcode"]
    assert "[b]Chef[/b], [b]Soldier[/b], [b]Mayor[/b]" in pms["role-Banana.en.bbcode"]
    neros = pms["role-Neros.en.bbcode"]
    assert "Your Demon is [b]Banana[/b]." in neros
    assert "wylted" not in neros  # seed 003: a Minion is not told the other Minion
    assert "bluff" not in neros
    good = pms["role-awesome5000.en.bbcode"]
    assert "Your Demon" not in good and "Minions" not in good


def test_minions_learn_each_other_when_the_game_says_so(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    setup = (game / "game.toml").read_text().replace('minion_info = "demon"', "")
    (game / "game.toml").write_text(setup)
    assert "The other Minions: [b]wylted[/b]." in _pms(game)["role-Neros.en.bbcode"]


@pytest.mark.parametrize(("players", "told"), [(5, False), (6, False), (7, True), (15, True)])
def test_evil_learn_each_other_from_seven_players(players, told):
    assert evil_learn_each_other(players) is told


def test_a_game_of_six_tells_nobody_their_team(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    text = (game / "game.toml").read_text()
    for name in ("Magoroth", "RexFavilla", "Shining", "whiteflame"):
        text = re.sub(rf'\[\[players\]\]\nname = "{name}"\n(?:.*\n)*?\n', "", text)
    (game / "game.toml").write_text(text)
    (game / "events.jsonl").write_text("")
    pms = _pms(game)
    assert len(pms) == 6
    assert not any("Minions" in t or "Your Demon" in t or "bluffs" in t for t in pms.values())


def test_korean_pms_on_a_script_without_korean_text_name_what_is_missing(tmp_path):
    with pytest.raises(ModToolError) as caught:
        _pms(EXAMPLE, "ko")
    message = str(caught.value)
    assert message.startswith("no Korean role text for Baron, Fortune Teller, Monk, Poisoner,")
    assert "roles.ko.toml" in message
    # the host writes their own text, and it is used
    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    own = "\n".join(
        f'["{c}"]\nability = "{c} 능력"\n'
        for c in (
            "Baron",
            "Fortune Teller",
            "Monk",
            "Poisoner",
            "Ravenkeeper",
            "Saint",
            "Undertaker",
            "Washerwoman",
        )
    )
    (game / "roles.ko.toml").write_text(own)
    pms = _pms(game, "ko")
    assert "[b]능력:[/b] Monk 능력" in pms["role-Magoroth.ko.bbcode"]
    assert "당신은 [b]수도사[/b]입니다" in pms["role-Magoroth.ko.bbcode"]  # the official name
    # the Empath's text still comes from the Korean almanac (seed 002)
    assert "이웃 생존자 2명 중" in pms["role-awesome5000.ko.bbcode"]


def test_roles_are_found_by_community_names_and_a_typo_is_refused(tmp_path):
    game = load_game(GAMES / "crimson-moon")
    assert {s.key: s.role for s in game.slots}["바다"] == "empath"  # 초민감자
    assert {s.key: s.role for s in game.slots}["Moonlight"] == "spy"  # 스파이
    broken = tmp_path / "g"
    shutil.copytree(EXAMPLE, broken)
    text = (broken / "game.toml").read_text().replace('role = "Imp"', 'role = "Impp"')
    (broken / "game.toml").write_text(text)
    result = runner.invoke(app, ["draft", "rolepms", str(broken), "--stdout"])
    assert result.exit_code == 1
    assert "role 'Impp' is not on the script 'trouble-brewing-forum' (did you mean 'imp'?)" in (
        result.stderr
    )


VAMPIRE_ROLES = {
    "Ash": "vampire",
    "Dune": "treacherous-villager",
    "Elm": "chosen-one",
    "Grove": "vampire",
    "Linden": "scion",
    "Maple": "faithful-villager",
}


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        ("treacherous-villager", [("Ash", "a Vampire"), ("Grove", "a Vampire")]),
        ("scion", [("Elm", "The Chosen One")]),
        ("vampire", [("Ash", "a Vampire"), ("Grove", "a Vampire")]),
        ("faithful-villager", []),
        ("chosen-one", []),
    ],
)
def test_what_each_vampires_role_is_told(role, expected):
    assert vampire_knowledge(role, VAMPIRE_ROLES) == expected


def test_the_chosen_one_and_the_shaman_are_told_they_are_faithful_villagers():
    pms = _pms(GAMES / "vampires")
    for player in ("Elm", "Hazel"):  # The Chosen One, the Shaman
        text = pms[f"role-{player}.en.bbcode"]
        assert "your role is [b]Faithful Villager[/b]" in text
        assert "Chosen One[/b]" not in text and "Shaman[/b]" not in text
    assert "Ash is a Vampire." not in pms["role-Ash.en.bbcode"]  # not told about themself
    assert "Grove is a Vampire." in pms["role-Ash.en.bbcode"]
    with pytest.raises(ModToolError, match="English role text only"):
        _pms(GAMES / "vampires", "ko")


def test_night_results_are_recorded_and_drafted_one_file_per_player(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    recorded = runner.invoke(
        app, ["record", "night-result", str(game), "Pie", "You learn: No.", "--night", "2"]
    )
    assert recorded.exit_code == 0, recorded.output
    wrote = runner.invoke(app, ["draft", "night", str(game), "--night", "2"])
    assert wrote.stdout == f"Wrote {game / 'drafts' / 'night2-ILikePie5.en.bbcode'}\n"
    text = (game / "drafts" / "night2-ILikePie5.en.bbcode").read_text()
    assert text.endswith("this is what you learned in Night 2:\n\nYou learn: No.\n")
    none = runner.invoke(app, ["draft", "night", str(game), "--night", "3"])
    assert none.exit_code == 1
    assert none.stderr.startswith("Error: no night results recorded for Night 3; record them")
    line = json.loads((game / "events.jsonl").read_text().splitlines()[-1])
    assert line == {"kind": "night_result", "night": 2, "player": "Pie", "text": "You learn: No."}


def _injection_game(tmp_path):
    """Eight players named with markup and template syntax, on Trouble Brewing."""
    game = tmp_path / "inj"
    game.mkdir()
    roles = ["Imp", "Poisoner", "Empath", "Chef", "Monk", "Soldier", "Saint", "Drunk"]
    players = "\n".join(
        f"[[players]]\nname = {json.dumps(n)}\nseat = {i}\nrole = {json.dumps(r)}\n"
        + ('shown = "Mayor"\n' if r == "Drunk" else "")
        for i, (n, r) in enumerate(zip(NAMES, roles, strict=False), 1)
    )
    (game / "game.toml").write_text(
        'title = "t"\nscript = "trouble-brewing-forum"\n[[sources]]\npath = "t.jsonl"\n'
        f'[drafts]\nreveal = "role"\n[setup]\nbluffs = ["Chef"]\n\n{players}'
    )
    (game / "t.jsonl").write_text("")
    events = [
        {"kind": "day_start", "day": 1, "time": "2026-11-01T12:00"},
        {"kind": "day_end", "day": 1, "time": "2026-11-02T12:00"},
        {"kind": "death", "player": NAMES[2], "phase": "N1", "cause": NAMES[5]},
        # as modtool's night work writes it (plain text; the host's own is the host's markup)
        {"kind": "night_result", "night": 1, "player": NAMES[3], "text": " ".join(NAMES)}
        | {"plain": True},
    ]
    (game / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    return load_game(game)


@pytest.mark.parametrize("kind", [DraftKind.ROLEPMS, DraftKind.NIGHT, DraftKind.NIGHTEND])
@pytest.mark.parametrize("markup", ["bbcode", "markdown"])
def test_names_show_literally_in_every_pm_and_post(tmp_path, kind, markup):
    game = _injection_game(tmp_path)
    drafts = make_drafts(game, kind, (), night=1, markup=markup)
    if markup == "bbcode":
        import bbcode

        rendered = "".join(bbcode.render_html(d.text) for d in drafts)
    else:
        from markdown_it import MarkdownIt

        rendered = "".join(MarkdownIt("commonmark").render(d.text) for d in drafts)
    shown = _text(rendered)
    expected = {
        DraftKind.ROLEPMS: NAMES[:2],  # the Imp and the Poisoner are named to each other
        DraftKind.NIGHT: NAMES,
        DraftKind.NIGHTEND: [NAMES[2], NAMES[5]],
    }[kind]
    for name in expected:
        assert name in shown, (name, shown)
    assert "49" not in shown
    assert "<script" not in rendered and "<b>" not in rendered and "<em>" not in rendered
    assert not re.search(r"<a [^>]*>(click|link)</a>", rendered)


@pytest.mark.parametrize(
    ("reveal", "line"),
    [
        ("nothing", "[b]Magoroth[/b] died (killed).\n"),
        ("alignment", "[b]Magoroth[/b] died (killed): they were good.\n"),
        ("role", "[b]Magoroth[/b] died (killed): they were the Monk (good).\n"),
        ("pm", "[b]Magoroth[/b] died (killed): they were the Monk (good).\n[quote]Each night"),
    ],
)
def test_a_death_shows_what_the_game_reveals(tmp_path, reveal, line):
    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    (game / "game.toml").write_text(
        (game / "game.toml").read_text() + f'\n[drafts]\nreveal = "{reveal}"\n'
    )
    (drafted,) = make_drafts(load_game(game), DraftKind.NIGHTEND, night=1)
    assert line in drafted.text
    assert ("[quote]" in drafted.text) is (reveal == "pm")


def test_a_death_reveals_the_character_after_a_star_pass(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    (game / "game.toml").write_text(
        (game / "game.toml").read_text() + '\n[drafts]\nreveal = "role"\n'
    )
    with (game / "events.jsonl").open("a") as f:
        f.write(
            '{"kind": "character_change", "player": "Neros", "character": "Imp", "phase": "N3"}\n'
        )
        f.write('{"kind": "death", "player": "Neros", "phase": "N3", "cause": "killed"}\n')
    (drafted,) = make_drafts(load_game(game), DraftKind.NIGHTEND, night=3)
    assert "[b]Neros[/b] died (killed): they were the Imp (evil)." in drafted.text


def test_the_command_lines_draft_kinds_are_the_librarys():
    # cli keeps its own copy so that `--help` needs neither the ledger nor Jinja (0.2 s)
    from modtool.cli import drafting
    from modtool.host import drafts

    assert [k.value for k in drafting.DraftKind] == [k.value for k in drafts.DraftKind]


def test_draft_file_names_are_unique_safe_and_short():
    from modtool.host.drafts import FILE_STEM_BYTES, player_file_stems

    korean = "가" * 100  # 300 bytes of UTF-8: over the 255 a file name may have
    stems = player_file_stems(["★", "player", "Bob!", "Bob?", "bob", korean, korean + "나"])
    assert stems[:5] == ["player", "player-2", "Bob", "Bob-2", "bob-3"]
    assert len(set(s.casefold() for s in stems)) == len(stems)
    assert all(len(s.encode()) <= FILE_STEM_BYTES + 3 for s in stems)
    assert stems[5].startswith("가") and stems[6] == stems[5] + "-2"


def test_draft_json_gives_each_drafts_name_path_and_text(tmp_path):
    game = shutil.copytree(EXAMPLE, tmp_path / "g")
    args = ["draft", "night", str(game), "--night", "1", "--json"]
    drafts = json.loads(runner.invoke(app, [*args, "--stdout"]).stdout)
    assert drafts and all(d["path"] is None for d in drafts)
    assert not (game / "drafts").exists()
    written = json.loads(runner.invoke(app, args).stdout)
    assert [d["name"] for d in written] == [d["name"] for d in drafts]
    for d in written:
        assert (game / "drafts" / d["name"]).read_text() == d["text"] and d["path"].endswith(
            d["name"]
        )


def test_drafting_again_keeps_a_draft_the_host_edited(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    runner = CliRunner()

    def rolepms(*more: str):
        return runner.invoke(app, ["draft", "rolepms", str(game), *more])

    assert rolepms().exit_code == 0
    drafts = sorted((game / "drafts").glob("role-*"))
    assert rolepms().exit_code == 0  # unchanged since written: replaced without a word
    edited = drafts[3]
    edited.write_text(edited.read_text() + "\nGood luck!\n")
    before = {p: p.read_bytes() for p in drafts}
    again = rolepms()
    assert again.exit_code == 1
    assert again.stderr == (
        f"Error: {edited}: edited since modtool wrote it; move it aside to keep it, or pass "
        "--force to replace it\n"
    )
    assert {p: p.read_bytes() for p in drafts} == before  # none written, not only the edited one
    assert rolepms("--force").exit_code == 0
    assert "Good luck!" not in edited.read_text()


def test_a_file_modtool_did_not_write_is_not_replaced_by_a_draft(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    assert CliRunner().invoke(app, ["draft", "rolepms", str(game)]).exit_code == 0
    mine = game / "drafts" / "day4-votecount.en.bbcode"
    mine.write_text("my own count\n")
    refused = CliRunner().invoke(app, ["draft", "votecount", str(game)])
    assert refused.exit_code == 1 and "a file modtool did not write" in refused.stderr
    assert mine.read_text() == "my own count\n"


def test_drafts_an_older_modtool_wrote_are_taken_as_modtool_s(tmp_path):
    """A drafts folder with no record of what modtool wrote (an older modtool's): drafting
    again replaces its drafts, as it did, and keeps a record from then on."""
    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    old = game / "drafts" / "day4-votecount.en.bbcode"
    old.parent.mkdir()
    old.write_text("an older modtool's count\n")
    assert CliRunner().invoke(app, ["draft", "votecount", str(game)]).exit_code == 0
    assert old.read_text() != "an older modtool's count\n"
    assert (game / "drafts" / ".written.json").exists()


def test_a_picture_modtool_wrote_in_drafts_is_modtool_s(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    runner = CliRunner()
    assert runner.invoke(app, ["draft", "votecount", str(game), "--day", "3"]).exit_code == 0
    drawn = runner.invoke(app, ["picture", "votes", str(game), "--offline", "--day", "3"])
    assert drawn.exit_code == 0, drawn.output
    written = json.loads((game / "drafts" / ".written.json").read_text())
    assert {"day3-votecount.en.bbcode", "day3-votes.en.png"} <= set(written), written
    elsewhere = runner.invoke(
        app, ["picture", "votes", str(game), "--out", str(tmp_path / "v.png")]
    )
    assert elsewhere.exit_code == 0 and "v.png" not in json.dumps(written)
