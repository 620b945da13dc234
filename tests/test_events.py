"""Typed events: one frozen dataclass per kind with its own fields, read from a ledger line and
written back to one. Every ledger in the repository reads as it did, and writes back to lines
that read as the same events."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from modtool.core.ledger import (
    CORE_EVENTS,
    Event,
    EventKind,
    event_from_json,
    event_to_json,
    event_type_of,
    event_types,
)
from modtool.core.ledger.events import _read_ledger
from modtool.games import GAMES, load_game

from .conftest import ROOT

LEDGERS = sorted(
    p.parent
    for p in [*ROOT.glob("games/*/events.jsonl"), *ROOT.glob("tests/fixtures/games/*/events.jsonl")]
)


def test_every_core_kind_has_its_type_reader_and_writer():
    assert set(CORE_EVENTS) == {k.value for k in EventKind}
    for kind, how in CORE_EVENTS.items():
        assert how.kind.value == kind
        assert issubclass(how.cls, Event) and dataclasses.is_dataclass(how.cls), kind
        assert callable(how.read) and callable(how.write)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_s_own_kinds_are_new_kinds_of_its_own_classes(name):
    own = GAMES[name].events
    assert not {t.kind.value for t in own} & set(CORE_EVENTS)  # a game adds, never redefines
    core_classes = {t.cls for t in CORE_EVENTS.values()}
    for t in own:
        assert issubclass(t.cls, Event) and t.cls not in core_classes
        assert t.cls.__module__.startswith(f"modtool.games.{name}.")


def test_a_game_s_own_kind_is_unknown_to_another_game(tmp_path):
    """The Butler's master is Clocktower's: a Mafia ledger that holds one is refused."""
    mafia = load_game(ROOT / "games" / "example-mafia")
    player = mafia.slots[0].key
    line = {"kind": "master", "player": player, "master": mafia.slots[1].key, "day": 1}
    with pytest.raises(ValueError, match="unknown event kind 'master'"):
        event_from_json(line, 1, mafia)
    assert "master" in event_types(load_game(ROOT / "games" / "example-botc").variant)


def test_only_fields_with_one_meaning_are_shared():
    shared = {f.name for f in dataclasses.fields(Event)}
    assert shared == {"kind", "line", "at", "slot", "phase", "note"}


@pytest.mark.parametrize("folder", LEDGERS, ids=lambda p: p.name)
def test_every_ledger_reads_and_writes_back_the_same_events(folder: Path):
    assert LEDGERS  # the repository has ledgers to read
    game = load_game(folder)
    bare = dataclasses.replace(game, events=())  # every line, undone ones and undos too
    lines = list(_read_ledger(folder / "events.jsonl", bare))
    assert len(lines) >= len(game.events)
    for e in lines:
        how = event_type_of(e, game.variant.events)
        assert type(e) is how.cls and how.kind == e.kind
        line = event_to_json(e, game.variant.events)
        json.dumps(line)  # a line is JSON
        again = event_from_json(
            line, e.line, bare, [r for r in lines if r.kind is EventKind.REPLACEMENT]
        )
        assert again == e, (line, e, again)


def test_every_imported_archive_ledger_writes_back_the_same_events(shared, tmp_path):
    from modtool.host.importer import import_mafiascum_archive

    import_mafiascum_archive(shared / "fixtures" / "mafiascum-dev", tmp_path)
    folders = sorted(p for p in tmp_path.iterdir() if (p / "events.jsonl").is_file())
    assert len(folders) >= 50
    kinds = set()
    for folder in folders:
        game = load_game(folder)
        bare = dataclasses.replace(game, events=())
        lines = list(_read_ledger(folder / "events.jsonl", bare))
        for e in lines:
            kinds.add(e.kind)
            before = [r for r in lines if r.kind is EventKind.REPLACEMENT and r.line < e.line]
            assert event_from_json(event_to_json(e), e.line, bare, before) == e
    assert {EventKind.DEATH, EventKind.REPLACEMENT, EventKind.DAY_START} <= kinds


def test_a_forced_setup_keeps_its_mark_and_reason(tmp_path):
    import shutil

    from typer.testing import CliRunner

    from modtool.cli import app

    from .conftest import EXAMPLE

    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    args = ["setup", "draw", str(game), "--seed", "7", "--write", "--force"]
    assert CliRunner().invoke(app, args).exit_code == 0
    (drawn,) = load_game(game).events_of(EventKind.SETUP)
    assert drawn.forced and "Day 4" in drawn.note
    assert event_to_json(drawn)["forced"] is True
