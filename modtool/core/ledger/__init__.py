"""The game folder: a human-edited setup file (game.toml) and the append-only event ledger
(events.jsonl) modtool writes. docs/game-folder.md is the reference for both formats.

    model        what a game is: phases, slots, events, `Game`
    setup        game.toml read and checked
    events       each ledger line read and checked
    role_events  the kinds only a game whose players have roles records (loaded when first used)
    consistency  what cannot be true of the events together
    store        `load_game`, and appends that are whole or absent, under a lock
"""

import importlib

from .consistency import check_ledger, effective
from .events import (
    CORE_EVENTS,
    EventType,
    LedgerLine,
    event_from_json,
    event_to_json,
    event_type_of,
    event_types,
    night_field,
    phase_field,
)
from .model import (
    LEDGER_FILE,
    SETUP_FILE,
    ChatCorrection,
    Correction,
    DayBoundary,
    DayWindow,
    Death,
    Event,
    EventKind,
    Game,
    GhostVote,
    NightResult,
    Phase,
    PhaseKind,
    PostRef,
    Replacement,
    Revival,
    Slot,
    Source,
    Undo,
    VoteReset,
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
    "CharacterChange",
    "ChatCorrection",
    "Correction",
    "DayAbility",
    "DayBoundary",
    "DayWindow",
    "Death",
    "CORE_EVENTS",
    "Event",
    "EventKind",
    "EventType",
    "Game",
    "GhostVote",
    "LEDGER_FILE",
    "LOCK_WAIT",
    "MAX_DAY",
    "MAX_WEIGHT",
    "LedgerLine",
    "NightChoice",
    "NightResult",
    "Phase",
    "PhaseKind",
    "PostRef",
    "REVEALS",
    "ReminderEvent",
    "Replacement",
    "Revival",
    "SETUP_FILE",
    "Setup",
    "Slot",
    "Source",
    "Undo",
    "VoteReset",
    "_before",
    "_locked",
    "append_computed",
    "append_event",
    "append_events",
    "check_ledger",
    "effective",
    "event_from_json",
    "event_to_json",
    "event_type_of",
    "event_types",
    "night_field",
    "phase_field",
    "ledger_lines",
    "load_game",
    "reload",
    "with_setup",
    "write_atomic",
]

# The classes of `role_events`, loaded when first asked for (a count of a game without roles
# never is): the names the package has always given them.
_ROLE_EVENT_CLASSES = ("CharacterChange", "DayAbility", "NightChoice", "ReminderEvent", "Setup")


def __getattr__(name: str):
    if name not in _ROLE_EVENT_CLASSES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.role_events"), name)
