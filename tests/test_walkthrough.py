"""docs/first-game.md and the README's walkthrough, every command run as the doc shows it
(offline: the example games' saved posts), and its output compared with the doc's."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from modtool.cli import app

from .conftest import ROOT
from .walkthrough import check, steps

DOCS = [ROOT / "docs" / "first-game.md", ROOT / "README.md"]


def _in_process(args: list[str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, args, prog_name="modtool")
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_the_walkthrough_runs_as_written(doc, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "100")
    assert check(doc, _in_process) == len(steps(doc.read_text("utf-8")))


def test_the_walkthrough_covers_a_first_game():
    """From the thread to the first count, the day's end, the posts and the night's PMs, for a
    Mafia and a Clocktower game."""
    commands = [s.command for s in steps((ROOT / "docs" / "first-game.md").read_text("utf-8"))]
    for game in ("mafia", "botc"):
        mine = [c.split()[1:3] for c in commands if f" {game} " in f"{c} "]
        for wanted in (["init", game], ["draft", "dayend"], ["draft", "nightend"]):
            assert wanted in mine, (game, wanted)
        assert any(c[0] == "count" for c in mine)
    assert any(c.startswith("modtool draft rolepms botc") for c in commands)
    assert any(c.startswith("modtool draft night botc") for c in commands)
