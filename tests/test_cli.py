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
    line = len((game / "events.jsonl").read_text().splitlines()) + 1
    result = _run("record", "death", str(game), "Banan", "--phase", "N4", "--json")
    assert result.returncode == 1 and result.stdout == ""
    error = json.loads(result.stderr)
    assert error == {
        "error": f"{game / 'events.jsonl'}:{line}: death: no player named 'Banan' in game.toml "
        "(did you mean 'Banana'?)",
        "file": str(game / "events.jsonl"),
        "line": line,
    }
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
