"""Every command's --help, kept as golden files, and the README's command table kept in step
with them. Regenerate the goldens with MODTOOL_UPDATE_GOLDEN=1 after a deliberate change."""

from __future__ import annotations

import os
import re

import pytest
import typer
from typer.testing import CliRunner

import modtool
from modtool.cli import app
from modtool.cli.app import ENGINE_NAMES

from .conftest import ROOT

GOLDEN = ROOT / "tests" / "golden" / "help"
COMMANDS = [
    [],
    ["example"],
    ["docs"],
    ["posts"],
    ["count"],
    ["schedule"],
    ["end-day"],
    ["draft"],
    ["chats"],
    ["watch"],
    ["events"],
    ["activity"],
    ["init"],
    ["import"],
    ["import", "mafiascum-archive"],
    ["record"],
    ["record", "day-start"],
    ["record", "day-end"],
    ["record", "death"],
    ["record", "revival"],
    ["record", "replacement"],
    ["record", "vote-reset"],
    ["record", "correction"],
    ["record", "ghost-vote"],
    ["record", "undo"],
    ["record", "chat-correction"],
    ["record", "night-result"],
    ["record", "reminder"],
    ["record", "master"],
    ["record", "character"],
    ["record", "day-ability"],
    ["grimoire"],
    ["night"],
    ["record", "choice"],
    ["setup"],
    ["setup", "check"],
    ["setup", "draw"],
    ["setup", "commit"],
    ["setup", "verify"],
    ["picture"],
    ["picture", "square"],
    ["picture", "votes"],
    ["roles"],
    ["roles", "import"],
]
GROUPS = ("import", "record", "setup", "picture", "roles")
FETCH_OPTIONS = {"--offline", "--refresh", "--cookies", "--header", "--cache", "--concurrency"}
ROOT_ONLY = {"--install-completion", "--show-completion", "--debug", "--version", "-V"}


def _help(command: list[str], monkeypatch) -> str:
    monkeypatch.setenv("COLUMNS", "80")
    result = CliRunner().invoke(app, [*command, "--help"], prog_name="modtool")
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "modtool")
def test_help_matches_its_golden_file(command, monkeypatch):
    text = _help(command, monkeypatch)
    golden = GOLDEN / f"{'-'.join(command) or 'modtool'}.txt"
    if os.environ.get("MODTOOL_UPDATE_GOLDEN"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(text)
    assert text == golden.read_text()
    # switches are switches and choices are listed: no type tags, no braces
    assert "<bool>" not in text and "{" not in text.split("Options:")[0].split("Usage:")[1]
    assert "-h, --help" in text


def _options(text: str) -> set[str]:
    return set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", text))


def _readme_rows() -> dict[str, str]:
    readme = (ROOT / "README.md").read_text()
    rows = {}
    for cell in re.findall(r"^\| `modtool ([^`]+)` \|", readme, re.M):
        words = cell.replace("\\|", "|").split()
        names = [w for w in words[:2] if re.fullmatch(r"[a-z|-]+", w)]
        for first in names[0].split("|"):
            key = first
            if len(names) > 1 and first in GROUPS:
                for second in names[1].split("|"):
                    rows[f"{first} {second}"] = cell
            else:
                rows[key] = cell
    return rows


def test_the_readme_table_lists_every_command_and_option(monkeypatch):
    rows = _readme_rows()
    leaves = [c for c in COMMANDS if c and c[0] not in GROUPS or len(c) == 2]
    assert set(rows) == {" ".join(c) for c in leaves}
    for command in leaves:
        documented = _options(rows[" ".join(command)])
        shown = _options(_help(command, monkeypatch)) - {"--help"}
        assert documented <= shown, command
        assert shown - documented <= FETCH_OPTIONS, command


def test_the_readme_names_the_shared_fetch_options():
    readme = (ROOT / "README.md").read_text()
    for option in FETCH_OPTIONS:
        assert f"`{option}" in readme


def test_engine_choices_are_the_engines():
    from modtool.threads.forum import ENGINES

    assert sorted(ENGINES) == list(ENGINE_NAMES)


def test_short_help_and_version():
    runner = CliRunner()
    short = runner.invoke(app, ["-h"], prog_name="modtool").stdout
    assert short.startswith("Usage: modtool [OPTIONS] COMMAND")
    assert runner.invoke(app, ["-V"]).stdout == f"modtool {modtool.__version__}\n"


@pytest.mark.parametrize("command", [c for c in COMMANDS if c], ids=" ".join)
def test_each_example_is_a_line_of_its_own_even_on_a_wide_terminal(command):
    """Click rewraps a paragraph to the terminal's width: examples in one paragraph ran into
    one line at COLUMNS=200 (`draft -h`)."""
    result = CliRunner().invoke(app, [*command, "--help"], prog_name="modtool", terminal_width=200)
    node = typer.main.get_command(app)
    for name in command:
        node = node.commands[name]
    examples = [
        line.strip()
        for line in (node.help or "").splitlines()
        if line.strip().startswith("modtool ")
    ]
    shown = [line.strip() for line in result.stdout.splitlines()]
    for example in examples:
        assert example in shown, (command, example)


@pytest.mark.parametrize(
    ("words", "offered"),
    [
        ("modtool init x --preset ", ["botc-forum", "mafiascum", "vampire"]),
        ("modtool init x --preset m", ["mafiascum"]),
    ],
)
def test_the_shell_completes_the_preset_names(words, offered):
    from modtool.core.rules import preset_names

    env = {"_MODTOOL_COMPLETE": "complete_bash", "COMP_WORDS": words}
    env["COMP_CWORD"] = str(len(words.split()) - (0 if words.endswith(" ") else 1))
    result = CliRunner().invoke(app, [], env=env, prog_name="modtool")
    assert result.stdout.split() == offered
    assert set(offered) <= set(preset_names())


@pytest.mark.parametrize(
    ("words", "offered"),
    [
        ("modtool init x --script v", ["vampires"]),
        ("modtool init x --script trouble", ["trouble-brewing-forum"]),
    ],
)
def test_the_shell_completes_the_script_names(words, offered):
    from modtool.games import script_names

    env = {"_MODTOOL_COMPLETE": "complete_bash", "COMP_WORDS": words}
    env["COMP_CWORD"] = str(len(words.split()) - (0 if words.endswith(" ") else 1))
    result = CliRunner().invoke(app, [], env=env, prog_name="modtool")
    assert result.stdout.split() == offered
    assert set(offered) <= set(script_names())
    assert {"cheomseongdae", "crimson-moon"} <= set(script_names())
