"""The game folder: a human-edited setup file (game.toml) and the append-only event ledger
(events.jsonl) modtool writes. docs/game-folder.md is the reference for both formats.

    model        what a game is: phases, slots, events, `Game`
    setup        game.toml read and checked
    events       each ledger line read and checked
    consistency  what cannot be true of the events together
    store        `load_game`, and appends that are whole or absent, under a lock
"""

from .consistency import check_ledger, effective
from .events import GRIMOIRE_KINDS, event_from_json
from .model import (
    LEDGER_FILE,
    SETUP_FILE,
    DayWindow,
    Event,
    EventKind,
    Game,
    Phase,
    PhaseKind,
    PostRef,
    Slot,
    Source,
    _before,
)
from .setup import ALIGNMENTS, MAX_DAY, MAX_WEIGHT, REVEALS
from .store import (
    LOCK_WAIT,
    _locked,
    append_computed,
    append_event,
    append_events,
    ledger_lines,
    load_game,
    reload,
    with_setup,
    write_atomic,
)

__all__ = [
    "ALIGNMENTS",
    "DayWindow",
    "Event",
    "EventKind",
    "GRIMOIRE_KINDS",
    "Game",
    "LEDGER_FILE",
    "LOCK_WAIT",
    "MAX_DAY",
    "MAX_WEIGHT",
    "Phase",
    "PhaseKind",
    "PostRef",
    "REVEALS",
    "SETUP_FILE",
    "Slot",
    "Source",
    "_before",
    "_locked",
    "append_computed",
    "append_event",
    "append_events",
    "check_ledger",
    "effective",
    "event_from_json",
    "ledger_lines",
    "load_game",
    "reload",
    "with_setup",
    "write_atomic",
]
