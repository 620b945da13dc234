"""The same checks on every registered game, the way PettingZoo's api_test runs on every
environment: load its example folder, count every day, end the open day (a dry run), draft
every kind, and, where the game has nights, resolve one. A fourth game passes these by
having a package, a line in the registry and an example folder."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from modtool.core.count import count_days
from modtool.core.results import DayCount, OutcomeKind
from modtool.core.variant import Variant
from modtool.errors import ModToolError
from modtool.games import GAMES, find_game, load_game
from modtool.host.days import DayClosing, end_day
from modtool.host.drafts import DraftKind, make_drafts
from modtool.threads.sources import read_game_posts

from .conftest import ROOT


def _files(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(params=sorted(GAMES), ids=str)
def example(request, tmp_path):
    """A copy of the game's example folder, and the game class."""
    game_class = GAMES[request.param]
    assert game_class.example, f"{game_class.name} names no example folder"
    folder = tmp_path / "example"
    shutil.copytree(ROOT / game_class.example, folder)
    return game_class, folder


def _one_line(exc: ModToolError) -> None:
    assert str(exc) and "\n" not in str(exc)


def test_the_registry_names_each_game_once_and_finds_it():
    assert len({g.name for g in GAMES.values()}) == len(GAMES)
    assert all(issubclass(g, Variant) and GAMES[g.name] is g for g in GAMES.values())
    assert find_game(None).name == "mafia"
    for game in GAMES.values():
        for script in game.script_names:
            assert find_game(script) is game
    files = [g for g in GAMES.values() if g.takes_script_files]
    assert len(files) == 1 and find_game("my-script.json") is files[0]


def test_the_example_loads_as_its_game(example):
    game_class, folder = example
    game = load_game(folder)
    assert isinstance(game.variant, game_class)
    for role in game.variant.role_ids():
        assert game.variant.find_role(role) == role
        assert isinstance(game.variant.role_name(role), str)


def test_every_day_counts(example):
    _, folder = example
    game = load_game(folder)
    posts = read_game_posts(game)
    counts = count_days(game, posts)
    assert [c.day for c in counts] == [w.day for w in game.days()]
    for c in counts:
        assert isinstance(c, DayCount) and c.outcome.kind in OutcomeKind
        assert c.alive > 0 and c.threshold > 0


def test_the_open_day_ends_in_a_dry_run_or_says_why(example):
    _, folder = example
    before = _files(folder)
    game = load_game(folder)
    try:
        closing = end_day(game, read_game_posts(game), dry_run=True)
    except ModToolError as exc:
        _one_line(exc)
    else:
        assert isinstance(closing, DayClosing) and not closing.written
        assert closing.lines[0]["kind"] == "day_end"
    assert _files(folder) == before


@pytest.mark.parametrize("kind", list(DraftKind), ids=str)
def test_every_kind_of_draft_is_made_or_refused_in_one_line(example, kind):
    _, folder = example
    game = load_game(folder)
    posts = read_game_posts(game) if kind.reads_thread else ()
    try:
        drafts = make_drafts(game, kind, posts)
    except ModToolError as exc:
        _one_line(exc)
        assert kind is not DraftKind.VOTECOUNT  # every game can post a vote count
        return
    assert drafts and all(d.text.strip() and d.name for d in drafts)
    assert len({d.name for d in drafts}) == len(drafts)


def test_a_night_resolves_where_the_game_has_nights(example):
    game_class, folder = example
    before = _files(folder)
    game = load_game(folder)
    night = game.current_phase().number  # the coming night, or the one going on
    posts = read_game_posts(game)
    if not game_class.has_nights:
        with pytest.raises(ModToolError) as refused:
            game.variant.night(game, night, posts, resolve=True, confirm=False)
        _one_line(refused.value)
        return
    report = game.variant.night(game, night, posts, resolve=True, confirm=False)
    assert isinstance(report.as_json(), dict) and report.text().strip()
    assert _files(folder) == before  # resolving without --confirm writes nothing


def test_the_game_says_whether_it_is_already_won(example):
    _, folder = example
    game = load_game(folder)
    won = game.variant.win_before(game, game.current_phase())
    assert won is None or (isinstance(won, str) and won)
