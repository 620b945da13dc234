"""What a game is: its phases, slots, events and the `Game` read from its folder."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from ...threads.frozen import frozen
from ..names import normalise
from ..rules import Rules
from .schedule_table import Schedule

if TYPE_CHECKING:  # the protocol's module names these types in turn
    from ..variant import Variant

SETUP_FILE = "game.toml"
LEDGER_FILE = "events.jsonl"


class PhaseKind(StrEnum):
    DAY = "D"
    NIGHT = "N"


@dataclass(frozen=True, slots=True, order=True)
class Phase:
    """A phase of the game as hosts write it: "D2" is Day 2, "N0" the night before Day 1."""

    number: int
    kind: PhaseKind

    @classmethod
    def parse(cls, text: object) -> Phase:
        """ "D2", "n1", "Day 3", "Night 0"; ValueError for anything else."""
        m = re.fullmatch(r"\s*(?:(D)(?:ay)?|(N)(?:ight)?)\s*(\d{1,4})\s*", str(text), re.I)
        if not m:
            raise ValueError(f"{text!r} is not a phase; write it like D2 (Day 2) or N1 (Night 1)")
        kind = PhaseKind.DAY if m[1] else PhaseKind.NIGHT
        return cls(int(m[3]), kind)

    @property
    def is_night(self) -> bool:
        return self.kind is PhaseKind.NIGHT

    def __str__(self) -> str:
        return f"{self.kind.value}{self.number}"

    @property
    def title(self) -> str:
        """ "Day 2", "Night 0": the phase as a sentence names it."""
        return f"{'Night' if self.is_night else 'Day'} {self.number}"


class EventKind(StrEnum):
    DAY_START = "day_start"
    DAY_END = "day_end"
    DEATH = "death"
    REVIVAL = "revival"  # a dead player alive again (a resurrection), from a post or phase on
    REPLACEMENT = "replacement"
    VOTE_RESET = "vote_reset"
    CORRECTION = "correction"
    GHOST_VOTE = "ghost_vote"
    UNDO = "undo"  # retracts the event on another line; history is never rewritten
    CHAT_CORRECTION = "chat_correction"  # how to read one post's chat announcements
    NIGHT_RESULT = "night_result"  # what one player learned in one night, as the host wrote it
    SETUP = "setup"  # the characters and seats drawn (modtool setup draw); overrides game.toml
    # what a game with characters and nights keeps track of (a grimoire); a game registers
    # kinds of its own beside these (`Variant.events`)
    REMINDER = "reminder"  # poisoned, drunk, protected, cursed, no ability, ... from a phase on
    CHARACTER_CHANGE = "character_change"  # a new character and/or alignment from a point on
    DAY_ABILITY = "day_ability"  # a day ability the host announced at a post (a shot, a guess)
    NIGHT_CHOICE = "night_choice"  # the players (and character) a player chose in a night


@frozen
class Source:
    """Where a thread's posts come from: `location` is a URL or a path (relative to the folder)."""

    location: str
    thread: str = ""
    engine: str | None = None
    selectors: dict[str, str] | None = None  # the host's CSS selectors where detection fails


@frozen
class Slot:
    """A seat in the game: its first player, who may be replaced later."""

    key: str  # the first player's name; events and votes refer to the slot by any of its names
    aliases: tuple[str, ...] = ()
    accounts: tuple[str, ...] = ()  # other forum accounts that post for the slot
    seat: int | None = None
    weight: int = 1
    voteless: bool = False
    role: str | None = None
    team: str | None = None
    shown: str | None = None  # the character the player was told they are (the Drunk's)


@frozen
class PostRef:
    """A point in the thread: a post number (in `thread`) and/or a time."""

    post: int | None = None
    time: datetime | None = None
    thread: str = ""


@frozen
class Event:
    """A ledger line: its kind, line number and point in the thread, and the fields every kind
    means the same by. Each kind is a subclass below with its own fields (those only a game
    whose players have roles records are in `role_events`)."""

    kind: StrEnum  # an EventKind, or a kind a game registers
    line: int
    at: PostRef = PostRef()
    slot: str | None = None  # the slot (player) the event is about
    phase: Phase | None = None  # the phase it happens in (a death: D2 at the end of Day 2, N1)
    note: str | None = None  # the host's own note


@frozen
class DayBoundary(Event):
    """day_start and day_end."""

    day: int = 0
    chats_closed: tuple[str, ...] = ()  # a day_end: the chats that closed with the day


@frozen
class Death(Event):
    """A player died, with the cause the host gave."""

    cause: str | None = None


@frozen
class Revival(Event):
    """A dead player brought back to life: alive, with a vote, from its point on."""


@frozen
class Replacement(Event):
    """A new player took over the slot."""

    by: str = ""  # the new player's name


@frozen
class VoteReset(Event):
    """The host reset the day's votes at this point."""


@frozen
class Correction(Event):
    """How the host says one post's votes are to be read (ignored, another target, actions)."""

    action: str = "target"  # "ignore", "target" or "actions"
    target: str | None = None  # with "target": the intended target (a name, or "no lynch")
    actions: str | None = None  # with "actions": what the post does, in order ("unvote; vote Bob")


@frozen
class ChatCorrection(Event):
    """How the host says one post's chat announcements are to be read."""

    text: str = ""  # the post's announcements in the short form, or "" to ignore them


@frozen
class NightResult(Event):
    """What one player learned in one night, as the host wrote it."""

    text: str = ""  # what the player learned, in the host's markup (drafts pass it through)
    plain: bool = False  # written by modtool's night resolution: plain text, escaped in drafts


@frozen
class Undo(Event):
    """Retracts the event on another ledger line."""

    undone: int = 0  # the ledger line it retracts


@frozen
class GhostVote(Event):
    """A dead player spent their ghost vote on a day."""

    day: int = 0


@frozen
class DayWindow:
    """The posts that belong to one day: after `start`, up to and including `end`."""

    day: int
    start: PostRef | None  # posts after this belong to the day (None: from the thread's start)
    end: PostRef | None  # posts up to and including this (None: the day is still going)


@frozen(slots=False)
class Game:
    """A game folder as read: its setup (game.toml), ledger events, rules and variant."""

    folder: Path
    title: str
    timezone: tzinfo
    hosts: tuple[str, ...]
    sources: tuple[Source, ...]
    rules: Rules
    slots: tuple[Slot, ...]
    events: tuple[Event, ...] = ()
    schedule: Schedule | None = None  # deadlines from game.toml's [schedule]
    drafts: dict = field(default_factory=dict)  # [drafts]: reveal = nothing|alignment|role
    script: str | None = None  # game.toml's `script`, as written (a name, or a file's path)
    # the game this is (a `core.variant.Variant`, of the registry in modtool.games), with
    # what it read of game.toml (a script of characters); and how it was found, to read it again
    variant: Variant = field(default=None, compare=False)
    find_variant: Callable[[str | None], type[Variant]] = field(
        default=None, compare=False, repr=False
    )
    setup: dict = field(default_factory=dict)  # [setup]: bluffs, minion_info
    _slot_by_name: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    # --- names -----------------------------------------------------------------------------

    def slot_names(self, key: str) -> list[str]:
        """A slot's player names, oldest first."""
        names = [key]
        for e in self.events:
            if e.kind is EventKind.REPLACEMENT and e.slot == key and e.by not in names:
                names.append(e.by)
        return names

    def find_slot(self, name: str) -> str | None:
        """The slot any of whose names, aliases or accounts is `name` (case and spacing ignored)."""
        if not self._slot_by_name:
            table = self._slot_by_name
            for slot in self.slots:
                for n in (*self.slot_names(slot.key), *slot.accounts, *slot.aliases):
                    table.setdefault(normalise(n), slot.key)
        return self._slot_by_name.get(normalise(name))

    def slot(self, key: str) -> Slot:
        return next(s for s in self.slots if s.key == key)

    # --- threads -------------------------------------------------------------------------------

    @property
    def threads(self) -> tuple[str, ...]:
        """Each source's thread label, in game.toml's order, as its posts carry it: its
        `thread`, or "thread2" for an unlabelled one of several ("" for a lone one)."""
        return thread_labels(self.sources)

    # --- phases --------------------------------------------------------------------------------

    def days(self) -> list[DayWindow]:
        """Every day the ledger knows of, in order; a day starts where the previous one ended,
        and ends where the next one starts when its own end is not recorded."""
        starts: dict[int, PostRef] = {}
        ends: dict[int, PostRef] = {}
        for e in self.events:
            if e.kind is EventKind.DAY_START:
                starts[e.day] = e.at
            elif e.kind is EventKind.DAY_END:
                ends[e.day] = e.at
        numbers = sorted(set(starts) | set(ends))
        if not numbers:
            return [DayWindow(1, None, None)]
        windows = []
        for n in range(1, numbers[-1] + 1):
            start = starts.get(n) or ends.get(n - 1)
            # A day with no recorded end ended when the next one started, if it has.
            windows.append(DayWindow(n, start, ends.get(n) or starts.get(n + 1)))
        return windows

    def current_phase(self) -> Phase:
        """The latest phase the ledger knows: the last day, or the night after it once it ended."""
        last = self.days()[-1]
        return Phase(last.day, PhaseKind.NIGHT if last.end is not None else PhaseKind.DAY)

    def phase_at(self, at: PostRef) -> Phase | None:
        """The phase a point in the thread falls in: the day whose posts hold it, or the night
        after a day that had ended by then; None where the ledger cannot tell."""
        if at.post is None and at.time is None:
            return None
        for window in reversed(self.days()):
            if window.start is None or _before(window.start, at):
                if window.end is not None and _before(window.end, at):
                    return Phase(window.day, PhaseKind.NIGHT)
                return Phase(window.day, PhaseKind.DAY)
        first = self.days()[0].start
        if first is not None and (_before(at, first) or at == first):
            return Phase(0, PhaseKind.NIGHT)  # before Day 1 starts
        return None  # a point the ledger's days cannot place (another thread's post)

    def death_phase(self, death: Event) -> Phase | None:
        """The phase of a death: as recorded, or the phase of the post it happened at."""
        return death.phase or self.phase_at(death.at)

    def dead_before(self, slot: str, phase: Phase) -> Event | None:
        """The slot's death, if it came in an earlier phase than `phase` and no revival has
        brought the player back since (before `phase`)."""
        found = None
        for e in self.events:
            if e.slot != slot or e.kind not in (EventKind.DEATH, EventKind.REVIVAL):
                continue
            at = self.death_phase(e)
            if e.kind is EventKind.DEATH and found is None:
                if at is None or not at < phase:
                    return None
                found = e
            elif e.kind is EventKind.REVIVAL and found is not None and at is not None:
                if at < phase:
                    found = None  # alive again before the phase: a later death counts anew
        return found

    def deaths(self) -> list[Event]:
        return [e for e in self.events if e.kind is EventKind.DEATH]

    def dead_slots(self) -> set[str]:
        """The slots the ledger has dead now: a death not followed by a revival."""
        dead: set[str] = set()
        for e in self.events:
            if e.kind is EventKind.DEATH:
                dead.add(e.slot)
            elif e.kind is EventKind.REVIVAL:
                dead.discard(e.slot)
        return dead

    def role_at(self, slot: str, phase: Phase | None = None) -> str | None:
        """A slot's character (or role): the setup's, then each recorded change up to
        `phase` (every one when None): a star-pass, an ascension, a conversion."""
        role = self.slot(slot).role
        for e in self.events_of(EventKind.CHARACTER_CHANGE):
            if e.slot == slot and e.character and (phase is None or (e.phase and e.phase <= phase)):
                role = e.character
        return role

    def events_of(self, kind: EventKind) -> list[Event]:
        return [e for e in self.events if e.kind is kind]


def thread_labels(sources: Sequence[Source]) -> tuple[str, ...]:
    """The label each source's posts carry (`Game.threads`)."""
    several = len(sources) > 1
    return tuple(s.thread or (f"thread{i + 1}" if several else "") for i, s in enumerate(sources))


def _before(a: PostRef, b: PostRef) -> bool:
    if a.post is not None and b.post is not None and a.thread == b.thread:
        return a.post < b.post
    if a.time is not None and b.time is not None:
        return a.time < b.time
    return False
