"""`modtool night --resolve` says what the choices do in sentences, built from the same ledger
lines its --json gives and --confirm writes."""

from __future__ import annotations

import json
import shutil

import pytest
from typer.testing import CliRunner

from modtool.cli import app
from modtool.core.ledger import (
    CharacterChange,
    Death,
    EventKind,
    Phase,
    PhaseKind,
    ReminderEvent,
    event_from_json,
)
from modtool.games import load_game
from modtool.games.clocktower.events import ClocktowerEventKind, Master
from modtool.games.clocktower.output import event_sentence

from .conftest import EXAMPLE

NAMES = {"poisoner": "Poisoner", "monk": "Monk", "imp": "Imp", "witch": "Witch"}


N1, N2 = Phase(1, PhaseKind.NIGHT), Phase(2, PhaseKind.NIGHT)
K = EventKind


@pytest.mark.parametrize(
    ("event", "sentence"),
    [
        (
            Death(K.DEATH, 0, slot="Ann", phase=N2, cause="killed"),
            "Ann dies in Night 2 (killed by the Demon).",
        ),
        (
            ReminderEvent(K.REMINDER, 0, slot="Bo", phase=N2, reminder="poisoned", by="poisoner"),
            "Bo is poisoned in Night 2 until the end of Day 3 (the Poisoner).",
        ),
        (
            ReminderEvent(K.REMINDER, 0, slot="Cy", phase=N1, reminder="protected", by="monk"),
            "Cy is safe from the Demon in Night 1 until the end of Night 1 (the Monk).",
        ),
        (
            ReminderEvent(K.REMINDER, 0, slot="Di", phase=N1, reminder="lleech_host", until="game"),
            "Di is the Lleech's host in Night 1 for the rest of the game.",
        ),
        (
            Master(ClocktowerEventKind.MASTER, 0, slot="Ed", master="Fay", day=3),
            "Ed's master for Day 3 is Fay.",
        ),
        (
            CharacterChange(
                K.CHARACTER_CHANGE, 0, slot="Gil", phase=N2, character="imp", cause="star-pass"
            ),
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
    for line in events:  # each line --json gives is said as the sentence of its event
        e = event_from_json(line, 0, load_game(game))
        assert f"  {event_sentence(e, {'poisoner': 'Poisoner'})}" in said
    assert "Kohai is poisoned in Night 2 until the end of Day 3 (the Poisoner)." in text
    assert "awesome5000 dies in Night 2 (killed by the Demon)." in text
    assert "{" not in text.split("What the choices do:")[1]


def test_a_night_already_confirmed_says_so_not_that_the_choices_did_nothing():
    # the example's Night 3: the Imp's kill of RexFavilla is on the ledger already
    text = CliRunner().invoke(app, ["night", str(EXAMPLE), "--night", "3", "--resolve"]).stdout
    assert text.endswith("What the choices do is in the ledger already; nothing new to write.\n")
    assert "The choices change nothing." not in text
