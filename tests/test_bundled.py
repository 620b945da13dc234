"""What ships inside the package: `modtool example` writes each game's example folder, and
`modtool docs` shows the docs; every text that points at a doc names a topic that exists."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from modtool.cli import app
from modtool.cli.folders import EXAMPLE_GAMES
from modtool.games import GAMES, load_game
from modtool.host.bundled import doc_text, doc_topics, example_names

from .conftest import ROOT


def test_the_command_line_offers_every_game_with_an_example():
    assert sorted(EXAMPLE_GAMES) == sorted(example_names())


@pytest.mark.parametrize("name", example_names())
def test_example_writes_a_game_every_command_reads(tmp_path, name):
    folder = tmp_path / "demo"
    runner = CliRunner()
    wrote = runner.invoke(app, ["example", str(folder), "--game", name])
    assert wrote.exit_code == 0, wrote.output
    assert wrote.stdout.startswith(f"Wrote the example {name} game to {folder}")
    game = load_game(folder)
    assert isinstance(game.variant, GAMES[name])
    source = ROOT / GAMES[name].example
    for file in ("game.toml", "events.jsonl", "thread.jsonl"):
        assert (folder / file).read_text("utf-8") == (source / file).read_text("utf-8")
    counted = runner.invoke(app, ["count", str(folder), "--day", "all"])
    assert counted.exit_code == 0 and "Day 1 vote count" in counted.stdout
    again = runner.invoke(app, ["example", str(folder), "--game", name])
    assert again.exit_code == 1 and "already holds game.toml" in again.stderr


def test_example_refuses_an_unknown_game(tmp_path):
    result = CliRunner().invoke(app, ["example", str(tmp_path / "x"), "--game", "chess"])
    assert result.exit_code == 2 and not (tmp_path / "x").exists()


def test_docs_lists_every_doc_of_the_repository_and_prints_one():
    runner = CliRunner()
    listed = runner.invoke(app, ["docs"])
    assert listed.exit_code == 0
    names = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))
    assert [t.name for t in doc_topics()] == names
    for name in names:
        assert re.search(rf"^  {re.escape(name)} +\S", listed.stdout, re.M), name
    shown = runner.invoke(app, ["docs", "game-folder"])  # not a terminal: plain, no pager
    assert shown.exit_code == 0 and shown.stdout.startswith("# The game folder")
    missing = runner.invoke(app, ["docs", "nope"])
    assert missing.exit_code == 2 and "the topics are clocktower" in missing.stderr


def test_a_doc_names_the_command_that_shows_the_doc_it_links_to():
    text = doc_text("clocktower")
    assert "docs/drafts.md" in (ROOT / "docs" / "clocktower.md").read_text("utf-8")
    assert "`modtool docs drafts`" in text and "docs/drafts.md" not in text


def test_every_text_that_points_at_a_doc_names_a_topic():
    """Errors and help say `modtool docs TOPIC` (an installed copy has no docs/ folder)."""
    topics = {t.name for t in doc_topics()}
    named = set()
    for path in (ROOT / "modtool").rglob("*.py"):
        text = path.read_text("utf-8")
        assert "see docs/" not in text, path
        named |= set(re.findall(r"`modtool docs ([\w-]+)`", text))
    assert named and named <= topics


def test_docs_on_a_terminal_go_through_the_pager(monkeypatch):
    from modtool.cli import folders

    paged: list[str] = []
    monkeypatch.setattr(folders, "_on_terminal", lambda: True)
    monkeypatch.setattr(folders.click, "echo_via_pager", paged.append)
    result = CliRunner().invoke(app, ["docs", "drafts"])
    assert result.exit_code == 0 and result.stdout == ""
    assert paged == [doc_text("drafts")]


def test_no_help_suggests_a_path_of_the_repository():
    """An installed copy has no games/ or ../shared beside it: help examples use folders that
    `modtool example` or the host makes."""
    helps = sorted((ROOT / "tests" / "golden" / "help").glob("*.txt"))  # = --help (test_help)
    assert len(helps) > 30
    for path in helps:
        text = path.read_text("utf-8")
        assert "games/example" not in text and "../shared" not in text, path.name


def test_no_shipped_doc_points_at_the_repository_s_data_or_tools():
    """The docs an installed copy shows are a host's; the developers' (docs/dev/) stay home."""
    from modtool.host.bundled import doc_topics

    for topic in doc_topics():
        text = doc_text(topic.name)
        assert "../shared" not in text and "tools/" not in text, topic.name
