"""`modtool night --resolve` says what the choices do in sentences, built from the same ledger
lines its --json gives and --confirm writes."""

from __future__ import annotations

import json
import shutil

import pytest
from typer.testing import CliRunner

from modtool.cli import app
from modtool.games.clocktower.output import event_sentence

from .conftest import EXAMPLE

NAMES = {"poisoner": "Poisoner", "monk": "Monk", "imp": "Imp", "witch": "Witch"}


@pytest.mark.parametrize(
    ("event", "sentence"),
    [
        (
            {"kind": "death", "player": "Ann", "phase": "N2", "cause": "killed"},
            "Ann dies in Night 2 (killed by the Demon).",
        ),
        (
            {
                "kind": "reminder",
                "player": "Bo",
                "night": 2,
                "reminder": "poisoned",
                "by": "poisoner",
            },
            "Bo is poisoned in Night 2 until the end of Day 3 (the Poisoner).",
        ),
        (
            {"kind": "reminder", "player": "Cy", "night": 1, "reminder": "protected", "by": "monk"},
            "Cy is safe from the Demon in Night 1 until the end of Night 1 (the Monk).",
        ),
        (
            {
                "kind": "reminder",
                "player": "Di",
                "night": 1,
                "reminder": "lleech_host",
                "until": "game",
            },
            "Di is the Lleech's host in Night 1 for the rest of the game.",
        ),
        (
            {"kind": "master", "player": "Ed", "master": "Fay", "day": 3},
            "Ed's master for Day 3 is Fay.",
        ),
        (
            {
                "kind": "character_change",
                "player": "Gil",
                "phase": "N2",
                "character": "imp",
                "cause": "star-pass",
            },
            "Gil becomes Imp in Night 2 (star-pass).",
        ),
    ],
)
def test_each_resolution_event_is_a_sentence(event, sentence):
    assert event_sentence(event, NAMES) == sentence


def test_night_resolve_prints_sentences_and_json_keeps_the_events(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    ledger = game / "events.jsonl"
    lines = ledger.read_text().splitlines(keepends=True)
    kept = [x for x in lines if '"phase": "N2"' not in x]  # Night 2's kill not yet recorded
    kept.append('{"kind": "night_choice", "night": 2, "player": "Neros", "targets": ["Kohai"]}\n')
    ledger.write_text("".join(kept))
    runner = CliRunner()
    text = runner.invoke(app, ["night", str(game), "--night", "2", "--resolve"]).stdout
    data = json.loads(
        runner.invoke(app, ["night", str(game), "--night", "2", "--resolve", "--json"]).stdout
    )
    events = data["resolution"]["events"]
    assert {e["kind"] for e in events} == {"reminder", "death"}
    said = text.split("What the choices do:\n")[1].splitlines()
    for e in events:
        assert f"  {event_sentence(e, {'poisoner': 'Poisoner'})}" in said
    assert "Kohai is poisoned in Night 2 until the end of Day 3 (the Poisoner)." in text
    assert "awesome5000 dies in Night 2 (killed by the Demon)." in text
    assert "{" not in text.split("What the choices do:")[1]
