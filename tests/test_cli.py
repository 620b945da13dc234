"""The command line: exact output on the bundled example, exit codes, one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from modtool.cli import app

from .conftest import EXAMPLE, ROOT

runner = CliRunner()
GOLDEN = ROOT / "tests" / "golden"


def test_count_table_matches_golden():
    result = runner.invoke(app, ["count", str(EXAMPLE), "--day", "all"])
    assert result.exit_code == 0, result.output
    assert result.output == (GOLDEN / "example-botc.count.txt").read_text()


def test_count_json_matches_golden_and_is_stable():
    first = runner.invoke(app, ["count", str(EXAMPLE), "--day", "all", "--json"])
    second = runner.invoke(app, ["count", str(EXAMPLE), "--day", "all", "--json"])
    assert first.exit_code == 0
    assert first.output == second.output
    assert json.loads(first.output) == json.loads((GOLDEN / "example-botc.count.json").read_text())


def test_count_json_is_a_list_for_one_day_too():
    result = runner.invoke(app, ["count", str(EXAMPLE), "--day", "3", "--json"])
    (data,) = json.loads(result.output)
    assert data["day"] == 3 and data["outcome"]["kind"] == "execution"
    assert data["outcome"]["player"] == "wylted"
    assert [v["ghost"] for v in data["wagons"][0]["voters"]] == [False, False, False, True, True]


def test_as_of_stops_the_count_and_leaves_the_day_pending():
    result = runner.invoke(app, ["count", str(EXAMPLE), "--day", "1", "--as-of", "5", "--json"])
    (data,) = json.loads(result.output)
    assert data["last_post"] == 5
    assert data["outcome"]["kind"] == "pending"
    assert {w["target"]: w["votes"] for w in data["wagons"]}["Kohai"] == 2


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "modtool", *args], capture_output=True, text=True, cwd=ROOT
    )


def test_output_read_only_in_part_ends_quietly(tmp_path):
    """`modtool posts … | head`: the reader stops reading; no "Broken pipe" error."""
    posts = tmp_path / "posts.jsonl"
    line = {"author": "ann", "time": None, "url": None, "html": "Vote: bea. " + "x" * 200}
    posts.write_text(
        "".join(json.dumps({**line, "post_id": str(n), "number": n}) + "\n" for n in range(3000))
    )
    cmd = [sys.executable, "-m", "modtool", "posts", str(posts), "--json"]
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT) as run:
        assert run.stdout.read(100)
        run.stdout.close()  # as head does once it has its lines
        err = run.stderr.read()
    assert (run.returncode, err) == (1, b"")


def test_unknown_day_is_one_line_and_exit_1():
    result = _run("count", str(EXAMPLE), "--day", "9")
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == (
        "Error: Day 9 is not in the ledger (days known: 1, 2, 3, 4); "
        "record its start with `modtool record day-start`\n"
    )


def test_missing_game_folder_is_a_usage_error(tmp_path):
    result = _run("count", str(tmp_path / "nope"))
    assert result.returncode == 2
    assert result.stderr == (
        f"Error: Invalid value for '[GAME]': Directory '{tmp_path / 'nope'}' does not exist; "
        "'python -m modtool count -h' lists what it takes\n"
    )


def test_a_doc_that_does_not_exist_is_a_usage_error():
    result = _run("docs", "nosuch")
    assert result.returncode == 2
    assert result.stderr.startswith("Error: Invalid value for '[TOPIC]': no doc 'nosuch'; the ")
    assert _run("docs", "game-folder.md").returncode == 0  # a doc's file name names it too


def test_a_usage_error_is_one_line_naming_where_the_options_are_listed():
    result = _run("count", str(EXAMPLE), "--dya", "2")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        "Error: No such option: --dya Did you mean --day?; "
        "'python -m modtool count -h' lists what it takes\n"
    )
    result = _run("draft")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "Choose from: votecount, dayend," in result.stderr


def test_a_folder_without_game_toml_is_one_line_and_exit_1(tmp_path):
    result = _run("count", str(tmp_path))
    assert result.returncode == 1
    assert result.stderr == (
        f"Error: {tmp_path / 'game.toml'}: missing; a game folder "
        "needs a game.toml (see `modtool docs game-folder`)\n"
    )


def test_usage_error_exits_2():
    assert _run("count", str(EXAMPLE), "--day", "two").returncode == 2


def test_every_command_has_help():
    for name in ("posts", "count", "import", "record"):
        result = runner.invoke(app, [name, "--help"])
        assert result.exit_code == 0, name
        assert "Usage" in result.output


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("markup", ["bbcode", "markdown"])
def test_count_post_drafts_match_golden(markup, lang):
    """Every day of the example game in each markup and language (no schedule: no countdown)."""
    drafted = "".join(
        runner.invoke(
            app, ["count", str(EXAMPLE), "--day", str(d), "--post", markup, "--lang", lang]
        ).stdout
        for d in (1, 2, 3, 4)
    )
    golden = GOLDEN / f"example-botc.votecount.{lang}.{markup}"
    if os.environ.get("MODTOOL_UPDATE_GOLDEN"):
        golden.write_text(drafted)
    assert drafted == golden.read_text()


def test_count_post_rejects_unknown_markup():
    assert _run("count", str(EXAMPLE), "--post", "html").returncode == 2


def test_options_are_checked_before_any_page_is_fetched(tmp_path):
    # a live source that would fail if it were fetched: a usage error comes first
    game = tmp_path / "g"
    game.mkdir()
    (game / "game.toml").write_text(
        '[[sources]]\nurl = "https://forum.example.invalid/t/1"\n[[players]]\nname = "a"\n'
    )
    for bad in (["--post", "html"], ["--day", "two"], ["--as-of", "-1"], ["--concurrency", "9"]):
        result = _run("count", str(game), *bad)
        assert result.returncode == 2, bad
        assert "forum.example.invalid" not in result.stderr


def test_record_json_prints_the_event_it_appended(tmp_path):
    import shutil

    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    result = _run("record", "vote-reset", str(game), "--post", "40", "--json")
    assert result.returncode == 0
    assert json.loads(result.stdout) == {"kind": "vote_reset", "post": 40}


def test_an_error_under_json_is_a_json_object_with_the_same_exit_code(tmp_path):
    import shutil

    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    before = (game / "events.jsonl").read_bytes()
    result = _run("record", "death", str(game), "Banan", "--phase", "N4", "--json")
    assert result.returncode == 1 and result.stdout == ""
    error = json.loads(result.stderr)
    assert error == {  # the event refused has no line in the ledger: none is cited
        "error": f"{game / 'events.jsonl'}: not recorded: death: no player named 'Banan' in "
        "game.toml (did you mean 'Banana'?)",
        "file": str(game / "events.jsonl"),
        "line": None,
    }
    assert (game / "events.jsonl").read_bytes() == before
    usage = _run("count", str(game), "--day", "two", "--json")
    assert usage.returncode == 2
    assert json.loads(usage.stderr)["error"].startswith("Invalid value for '--day'")


def test_import_json_lists_the_folders_it_wrote(tmp_path):
    archive = tmp_path / "arch"
    (archive / "posts").mkdir(parents=True)
    (archive / "cases.jsonl").write_text('{"game": "1", "thread_id": "9"}\n')
    result = _run(
        "import", "mafiascum-archive", str(archive), "--out", str(tmp_path / "o"), "--json"
    )
    assert result.returncode == 0
    assert json.loads(result.stdout) == {
        "out": str(tmp_path / "o"),
        "games": [],
        "skipped": ["1: no posts file 9.jsonl.xz"],
        "guessed": [],
    }


@pytest.fixture
def example_game(tmp_path):
    """A copy of the bundled example, to record in."""
    import shutil

    shutil.copytree(EXAMPLE, tmp_path / "g")
    return tmp_path / "g"


@pytest.mark.parametrize(
    ("option", "value", "name"),
    [
        ("--target", "Banan", "'Banan' in game.toml (did you mean 'Banana'?)"),
        ("--target", "Zed", "'Zed' in game.toml"),
        ("--actions", "unvote; vote Magorth", "'Magorth' in game.toml (did you mean 'Magoroth'?)"),
        ("--actions", "unvote Zed", "'Zed' in game.toml"),
    ],
)
def test_record_correction_refuses_a_name_that_is_no_player(example_game, option, value, name):
    """--target Zed was recorded, and the count then dropped the vote with a warning."""
    game = example_game
    ledger = (game / "events.jsonl").read_text()
    result = runner.invoke(app, ["record", "correction", str(game), "40", option, value])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.startswith(f"Error: {game / 'events.jsonl'}:")
    assert result.stderr.endswith(
        f": correction: no player named {name}; a correction votes for a player, 'no lynch' "
        "or 'unvote'\n"
    )
    assert len(result.stderr.splitlines()) == 1
    assert (game / "events.jsonl").read_text() == ledger


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--target", "pie"),  # an alias
        ("--target", "no lynch"),
        ("--target", "No Execution"),
        ("--target", "unvote"),
        ("--actions", "unvote Rex; vote no lynch"),
    ],
)
def test_record_correction_takes_any_name_the_count_reads(example_game, option, value):
    result = runner.invoke(app, ["record", "correction", str(example_game), "40", option, value])
    assert result.exit_code == 0, result.output


def test_record_correction_takes_a_list_of_actions(tmp_path):
    import shutil

    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    args = ["record", "correction", str(game), "40", "--actions", "unvote; vote Banana", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {
        "kind": "correction",
        "post": 40,
        "action": "actions",
        "actions": "unvote; vote Banana",
    }
    both = runner.invoke(app, [*args[:4], "--target", "Banana", "--actions", "unvote"])
    assert both.exit_code == 2


def test_every_column_of_the_ledger_and_activity_tables_has_a_header():
    runner = CliRunner()
    events = runner.invoke(app, ["events", str(EXAMPLE)]).stdout.splitlines()
    assert events[0].split() == ["Line", "Kind", "Details", "Undone"]
    activity = runner.invoke(app, ["activity", str(EXAMPLE)]).stdout.splitlines()
    assert activity[1].split() == ["Player", "Posts", "Last", "post", "Time", "Prod"]


def _example_copy(tmp_path, *lines: dict):
    """The example game (Day 4 in progress, 27 ledger lines), with `lines` added to its ledger."""
    import shutil

    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    with (game / "events.jsonl").open("a") as ledger:
        ledger.writelines(json.dumps(line) + "\n" for line in lines)
    return game


# (the command after `record GAME`, the ledger lines added first, the error after the ledger's
# path): a refused event is not in the ledger, so no line of it is cited (the lines cited are
# lines the ledger has)
REFUSED = [
    (
        ["death", "Zed", "--phase", "N2"],
        [],
        "not recorded: death: no player named 'Zed' in game.toml",
    ),
    (
        ["night-result", "Banana", "x", "--night", "5"],
        [],
        "not recorded: night_result: Night 5 has not been reached: the game is in Day 4",
    ),
    (
        ["choice", "Magoroth", "Banana", "--night", "3"],
        [],
        "not recorded: night_choice: Magoroth is dead by then (ledger line 4); the dead do not "
        "act: check the player and the phase",
    ),
    (
        ["day-start", "2", "--post", "20"],
        [],
        "not recorded: Day 2 already starts at line 5; undo that line first (modtool record "
        "undo {g} 5)",
    ),
    (
        ["day-start", "5", "--post", "40"],
        [{"kind": "day_end", "day": 4, "post": 38}, {"kind": "day_end", "day": 5, "post": 39}],
        "not recorded: Day 5 starts after it ends (line 29); check the post",
    ),
]


@pytest.mark.parametrize(("args", "lines", "says"), REFUSED, ids=lambda x: str(x)[:30])
def test_a_refused_record_cites_no_line_of_its_own_and_writes_nothing(tmp_path, args, lines, says):
    """Errors said `events.jsonl:28: ...` of a 27-line ledger: the line the event would have."""
    game = _example_copy(tmp_path, *lines)
    before = (game / "events.jsonl").read_bytes()
    result = runner.invoke(app, ["record", args[0], str(game), *args[1:]])
    assert result.exit_code == 1
    assert result.stderr == f"Error: {game / 'events.jsonl'}: {says.format(g=game)}\n"
    assert (game / "events.jsonl").read_bytes() == before


def test_a_refused_night_confirmation_cites_the_choice_s_line_and_writes_nothing(tmp_path):
    # a Butler who chose themself (in a hand-edited ledger): the night is refused at that line
    game = _example_copy(
        tmp_path, {"kind": "night_choice", "night": 3, "player": "Shining", "targets": ["Shining"]}
    )
    setup = game / "game.toml"
    setup.write_text(setup.read_text().replace('role = "Saint"', 'role = "Butler"'))
    before = (game / "events.jsonl").read_bytes()
    args = ["night", str(game), "--night", "3", "--resolve", "--confirm", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 1
    assert json.loads(result.stderr) == {
        "error": f"{game / 'events.jsonl'}:28: night_choice: Shining is the Butler, who chooses "
        "1 player, not themself: not Shining, themself; record another player, after undoing "
        f"this line (modtool record undo {game} 28)",
        "file": str(game / "events.jsonl"),
        "line": 28,
    }
    assert len((game / "events.jsonl").read_text().splitlines()) == 28  # a line it has
    assert (game / "events.jsonl").read_bytes() == before


NIGHT_3_DAWN = (
    "[b]Night 3 is over.[/b]\n\n[b]RexFavilla[/b] died (killed).\n\n"
    "Day 4 begins. The host will post its deadline.\n"
)


def test_night_drafts_default_to_the_last_night_reached(tmp_path):
    """In Day 4 the default was Night 4, a night `--night 4` itself is refused for."""
    game = _example_copy(tmp_path)
    dawn = runner.invoke(app, ["draft", "nightend", str(game), "--stdout"])
    assert (dawn.exit_code, dawn.stdout) == (0, NIGHT_3_DAWN)
    named = runner.invoke(app, ["draft", "nightend", str(game), "--night", "3", "--stdout"])
    assert named.stdout == dawn.stdout
    pms = runner.invoke(app, ["draft", "night", str(game), "--stdout"])
    assert pms.exit_code == 1
    hint = f'modtool record night-result {game} PLAYER "text" --night 3'
    assert pms.stderr == f"Error: no night results recorded for Night 3; record them with {hint}\n"
    # the command the hint names works, and then so does the draft
    done = runner.invoke(app, ["record", "night-result", str(game), "Banana", "x", "--night", "3"])
    assert done.exit_code == 0, done.stderr
    pms = runner.invoke(app, ["draft", "night", str(game), "--stdout"])
    assert pms.exit_code == 0 and "Banana, this is what you learned in Night 3:" in pms.stdout


def test_in_a_night_the_night_drafts_default_to_that_night(tmp_path):
    game = _example_copy(tmp_path, {"kind": "day_end", "day": 4, "post": 38})
    dawn = runner.invoke(app, ["draft", "nightend", str(game), "--stdout"])
    assert dawn.exit_code == 0
    assert dawn.stdout.startswith("[b]Night 4 is over.[/b]\n")
    assert "Day 5 begins." in dawn.stdout


def test_in_day_1_a_night_draft_asks_which_night(tmp_path):
    game = _example_copy(tmp_path)
    (game / "events.jsonl").write_text(json.dumps({"kind": "day_start", "day": 1, "post": 0}))
    for kind in ("nightend", "night"):
        result = runner.invoke(app, ["draft", kind, str(game), "--stdout"])
        assert result.exit_code == 1
        assert result.stderr == (
            "Error: which night? The game is in Day 1, so no night has followed a day yet "
            f"(ledger {game / 'events.jsonl'}); give --night 0 for the night before Day 1, or "
            f"end Day 1 first (modtool end-day {game})\n"
        )
    first = runner.invoke(app, ["draft", "night", str(game), "--night", "0", "--stdout"])
    assert first.exit_code == 1 and "no night results recorded for Night 0" in first.stderr


def test_record_revival_brings_a_dead_player_back_at_its_post(tmp_path):
    import shutil

    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    before = runner.invoke(app, ["count", str(game), "--day", "4", "--json"])
    assert json.loads(before.output)[0]["alive"] == 5
    recorded = runner.invoke(app, ["record", "revival", str(game), "RexFavilla", "--post", "39"])
    assert recorded.exit_code == 0, recorded.output
    assert recorded.output == 'Recorded {"kind": "revival", "player": "RexFavilla", "post": 39}\n'
    (day4,) = json.loads(runner.invoke(app, ["count", str(game), "--day", "4", "--json"]).output)
    assert day4["alive"] == 6
    assert {"post": 39, "message": "RexFavilla is alive again, and may vote"} in day4["warnings"]
    (day3,) = json.loads(runner.invoke(app, ["count", str(game), "--day", "3", "--json"]).output)
    assert day3["alive"] == 7  # the day before stays as it was
    again = runner.invoke(app, ["record", "revival", str(game), "RexFavilla", "--post", "40"])
    assert again.exit_code == 1
    assert "RexFavilla is not dead at this line" in again.output
