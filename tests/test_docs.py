"""The README and docs stay true to the commands that exist."""

from __future__ import annotations

import re

import typer

from modtool.cli import app

from .conftest import ROOT

README = (ROOT / "README.md").read_text()


def _commands() -> list[str]:
    group = typer.main.get_group(app)
    names = []
    for name, command in group.commands.items():
        sub = getattr(command, "commands", None)
        names.extend(f"{name} {s}" for s in sub) if sub else names.append(name)
    return names


def test_every_command_is_in_the_readme_and_has_help():
    for name in _commands():
        top = name.split()[0]
        assert f"modtool {top}" in README, name
    group = typer.main.get_group(app)
    for command in group.commands.values():
        assert command.help, command.name


def test_quick_start_is_two_commands():
    block = README.split("## Quick start", 1)[1].split("```", 2)[1]
    commands = [line for line in block.splitlines() if line.strip()]
    assert [re.split(r"\s+#", c)[0].strip() for c in commands] == ["make demo", "make test"]


def test_record_subcommands_are_documented():
    docs = (ROOT / "docs" / "game-folder.md").read_text()
    for name in _commands():
        if name.startswith("record "):
            kind = name.split()[1].replace("-", "_")
            assert f"`{kind}`" in docs, kind
