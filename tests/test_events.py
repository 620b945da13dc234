"""Typed events: one frozen dataclass per kind with its own fields, read from a ledger line and
written back to one. Every ledger in the repository reads as it did, and writes back to lines
that read as the same events."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from modtool.core.ledger import (
    EVENT_TYPES,
    WRITERS,
    Event,
    EventKind,
    event_from_json,
    event_to_json,
)
from modtool.core.ledger.events import _read_ledger
from modtool.games import load_game

from .conftest import ROOT

LEDGERS = sorted(
    p.parent
    for p in [*ROOT.glob("games/*/events.jsonl"), *ROOT.glob("tests/fixtures/games/*/events.jsonl")]
)


def test_every_kind_has_its_type_and_a_writer():
    assert set(EVENT_TYPES) == set(EventKind)
    assert set(EVENT_TYPES.values()) == set(WRITERS)
    for kind, cls in EVENT_TYPES.items():
        assert issubclass(cls, Event) and dataclasses.is_dataclass(cls), kind


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
        assert type(e) is EVENT_TYPES[e.kind]
        line = event_to_json(e)
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
