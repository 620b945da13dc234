"""What cannot be true of a ledger's events together: undone lines left out, each day
starting and ending once, each player dying once."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ...errors import GameFileError
from .model import Event, EventKind, Game, _before

# --- what cannot be true ----------------------------------------------------------------------


def effective(events: Sequence[Event], path: Path) -> tuple[Event, ...]:
    """The events that stand: every line an `undo` retracts is left out (an undo's `undone`
    line)."""
    kinds = {e.line: e for e in events}
    undone: dict[int, Event] = {}
    for e in events:
        if e.kind is EventKind.UNDO:
            target = kinds.get(e.undone)
            if target is None:
                raise GameFileError(path, f"undo: line {e.undone} holds no event", e.line)
            if target.kind is EventKind.UNDO:
                raise GameFileError(
                    path,
                    f"undo: line {e.undone} is an undo; record the event again instead",
                    e.line,
                )
            if e.undone in undone:
                raise GameFileError(
                    path,
                    f"undo: line {e.undone} was already undone at line {undone[e.undone].line}",
                    e.line,
                )
            undone[e.undone] = e
    return tuple(e for e in events if e.kind is not EventKind.UNDO and e.line not in undone)


def check_ledger(events: Sequence[Event], game: Game, path: Path) -> None:
    """The ledger's events together: each day starts and ends once, and ends after it starts;
    each player dies once; a ghost vote is spent by a dead player. GameFileError names the line."""

    def fail(event: Event, problem: str) -> GameFileError:
        return GameFileError(path, problem, event.line)

    starts: dict[int, Event] = {}
    ends: dict[int, Event] = {}
    deaths: dict[str, Event] = {}  # each slot's last death
    revived: dict[str, Event] = {}  # slots a revival brought back since their last death
    for e in events:
        if e.kind in (EventKind.DAY_START, EventKind.DAY_END):
            seen = starts if e.kind is EventKind.DAY_START else ends
            if e.day in seen:
                verb = "starts" if e.kind is EventKind.DAY_START else "ends"
                raise fail(
                    e,
                    f"Day {e.day} already {verb} at line {seen[e.day].line}; undo that line "
                    f"first (modtool record undo {path.parent} {seen[e.day].line})",
                )
            seen[e.day] = e
        elif e.kind is EventKind.DEATH:
            if e.slot in deaths and e.slot not in revived:
                raise fail(
                    e,
                    f"{e.slot} already died at line {deaths[e.slot].line}; a player dies once "
                    "(unless a revival brings them back): undo that line first (modtool record "
                    f"undo {path.parent} {deaths[e.slot].line})",
                )
            deaths[e.slot] = e
            revived.pop(e.slot, None)
        elif e.kind is EventKind.REVIVAL:
            if e.slot not in deaths or e.slot in revived:
                raise fail(
                    e,
                    f"{e.slot} is not dead at this line: a revival brings back a dead player; "
                    "record their death first",
                )
            revived[e.slot] = e
    last_day = max([*starts, *ends], default=1)
    for slot, e in deaths.items():
        if e.phase is not None and e.phase.number > last_day:
            raise fail(
                e,
                f"{slot} dies in {e.phase}, but the ledger's last day is Day {last_day}; "
                "record that day first, or fix the phase",
            )
    for day, end in ends.items():
        start = starts.get(day) or ends.get(day - 1)
        if start is not None and _before(end.at, start.at):
            if start.line > end.line:  # the line written later is the one at fault
                raise fail(
                    start, f"Day {day} starts after it ends (line {end.line}); check the post"
                )
            raise fail(end, f"Day {day} ends before it starts (line {start.line}); check the post")
    for e in events:
        if e.kind is EventKind.GHOST_VOTE:
            death = deaths.get(e.slot)
            if death is None or not _dead_by(death, e.day, ends):
                raise fail(
                    e,
                    f"{e.slot} is alive on Day {e.day}: a ghost vote is a dead player's; "
                    "record their death first",
                )


def _dead_by(death: Event, day: int, ends: dict[int, Event]) -> bool:
    """Whether a death falls before or during `day`."""
    if death.phase is not None:
        return death.phase.number < day or (death.phase.number == day and not death.phase.is_night)
    end = ends.get(day)
    return end is None or not _before(end.at, death.at)
