"""The game folder: a human-edited setup file and the append-only event ledger modtool writes.

    games/<slug>/game.toml      title, timezone, hosts, sources, [rules], [[players]]
    games/<slug>/events.jsonl   one event a line: days, deaths, replacements, resets, corrections

`load_game` reads both into a `Game`; `append_event` validates an event against the game and
appends it durably. docs/game-folder.md is the reference for both formats.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from enum import StrEnum
from pathlib import Path

from .errors import GameFileError
from .names import normalise
from .rules import Rules, rules_from_table
from .times import zone

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


class EventKind(StrEnum):
    DAY_START = "day_start"
    DAY_END = "day_end"
    DEATH = "death"
    REPLACEMENT = "replacement"
    VOTE_RESET = "vote_reset"
    CORRECTION = "correction"
    GHOST_VOTE = "ghost_vote"


@dataclass(frozen=True, slots=True)
class Source:
    """Where a thread's posts come from: `location` is a URL or a path (relative to the folder)."""

    location: str
    thread: str = ""
    engine: str | None = None
    selectors: dict[str, str] | None = None  # the host's CSS selectors where detection fails


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class PostRef:
    """A point in the thread: a post number (in `thread`) and/or a time."""

    post: int | None = None
    time: datetime | None = None
    thread: str = ""


@dataclass(frozen=True, slots=True)
class Event:
    kind: EventKind
    line: int
    at: PostRef = PostRef()
    day: int | None = None
    slot: str | None = None  # the slot the event is about
    name: str | None = None  # the replacement's name
    phase: Phase | None = None  # deaths at a phase boundary: D2 (at the end of Day 2), N1
    cause: str | None = None
    action: str | None = None  # corrections: "ignore" or "target"
    target: str | None = None  # corrections: the intended target (a name, or "no lynch")
    note: str | None = None


@dataclass(frozen=True, slots=True)
class DayWindow:
    day: int
    start: PostRef | None  # posts after this belong to the day (None: from the thread's start)
    end: PostRef | None  # posts up to and including this (None: the day is still going)


@dataclass(frozen=True)
class Game:
    folder: Path
    title: str
    timezone: tzinfo
    hosts: tuple[str, ...]
    sources: tuple[Source, ...]
    rules: Rules
    slots: tuple[Slot, ...]
    events: tuple[Event, ...] = ()
    _slot_by_name: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    # --- names -----------------------------------------------------------------------------

    def slot_names(self, key: str) -> list[str]:
        """A slot's player names, oldest first."""
        names = [key]
        for e in self.events:
            if e.kind is EventKind.REPLACEMENT and e.slot == key and e.name not in names:
                names.append(e.name)
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

    def deaths(self) -> list[Event]:
        return [e for e in self.events if e.kind is EventKind.DEATH]

    def events_of(self, kind: EventKind) -> list[Event]:
        return [e for e in self.events if e.kind is kind]


# --- reading -----------------------------------------------------------------------------------


def load_game(folder: str | Path) -> Game:
    """Read a game folder; a malformed file raises GameFileError naming file, line and problem."""
    folder = Path(folder)
    setup_path = folder / SETUP_FILE
    if not setup_path.is_file():
        raise GameFileError(
            setup_path, f"missing; a game folder needs a {SETUP_FILE} (see docs/game-folder.md)"
        )
    try:
        setup = tomllib.loads(setup_path.read_text("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        line = _toml_line(str(exc))
        raise GameFileError(
            setup_path, f"not valid TOML ({_toml_problem(str(exc))})", line
        ) from None
    except UnicodeDecodeError:
        raise GameFileError(setup_path, "not UTF-8 text; save it as UTF-8") from None
    game = _game_from_setup(setup, setup_path, folder)
    ledger_path = folder / LEDGER_FILE
    events: tuple[Event, ...] = ()
    if ledger_path.is_file():
        events = tuple(_read_ledger(ledger_path, game))
    return Game(
        game.folder,
        game.title,
        game.timezone,
        game.hosts,
        game.sources,
        game.rules,
        game.slots,
        events,
    )


def _toml_line(message: str) -> int | None:
    m = re.search(r"line (\d+)", message)
    return int(m[1]) if m else None


def _toml_problem(message: str) -> str:
    return re.sub(r"\s*\(at line \d+, column \d+\)", "", message)


def _setup_line(text: str, needle: str) -> int | None:
    for i, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return i
    return None


def _game_from_setup(setup: dict, path: Path, folder: Path) -> Game:
    text = path.read_text("utf-8")

    def fail(problem: str, needle: str | None = None) -> GameFileError:
        return GameFileError(path, problem, _setup_line(text, needle) if needle else None)

    known = {"title", "timezone", "hosts", "sources", "rules", "players", "language"}
    for key in setup:
        if key not in known:
            raise fail(f"unknown setting {key!r}; known: {', '.join(sorted(known))}", key)
    try:
        tz = zone(setup.get("timezone"))
    except Exception as exc:  # ModToolError from zone(): same message, with the file's line
        raise fail(str(exc), "timezone") from None
    hosts = setup.get("hosts", [])
    if not isinstance(hosts, list) or not all(isinstance(h, str) for h in hosts):
        raise fail("'hosts' must be a list of names", "hosts")
    sources = []
    for raw in setup.get("sources", []):
        if not isinstance(raw, dict) or not (raw.get("url") or raw.get("path")):
            raise fail('each [[sources]] needs url = "..." or path = "..."', "[[sources]]")
        location = raw.get("url") or raw.get("path")
        unknown = set(raw) - {"url", "path", "thread", "engine", "selectors"}
        if unknown:
            raise fail(
                f"[[sources]]: unknown field {sorted(unknown)[0]!r}; use url or path, "
                "thread, engine, selectors",
                "[[sources]]",
            )
        selectors = raw.get("selectors")
        if selectors is not None:
            from .forum.custom import KEYS

            if (
                not isinstance(selectors, dict)
                or set(selectors) - set(KEYS)
                or not all(isinstance(v, str) for v in selectors.values())
            ):
                raise fail(
                    f"[[sources]] selectors must be a table of CSS selectors with keys "
                    f"{', '.join(KEYS)}",
                    "selectors",
                )
        sources.append(
            Source(str(location), str(raw.get("thread", "")), raw.get("engine"), selectors)
        )
    try:
        rules = rules_from_table(setup.get("rules", {}))
    except ValueError as exc:
        raise fail(f"[rules]: {exc}", "[rules]") from None
    players = setup.get("players", [])
    if not players:
        raise fail('no [[players]]; list every player with name = "..."')
    slots = []
    seen: set[str] = set()
    for raw in players:
        name = raw.get("name") if isinstance(raw, dict) else None
        if not isinstance(name, str) or not name.strip():
            raise fail('every [[players]] entry needs name = "..."', "[[players]]")
        if normalise(name) in seen:
            raise fail(f"player {name!r} is listed twice", name)
        seen.add(normalise(name))
        unknown = set(raw) - {
            "name",
            "aliases",
            "accounts",
            "seat",
            "weight",
            "voteless",
            "role",
            "team",
        }
        if unknown:
            raise fail(f"player {name!r}: unknown field {sorted(unknown)[0]!r}", name)
        weight = raw.get("weight", 1)
        if not isinstance(weight, int) or weight < 0:
            raise fail(f"player {name!r}: weight must be a whole number >= 0", name)
        slots.append(
            Slot(
                key=name,
                aliases=tuple(raw.get("aliases", ())),
                accounts=tuple(raw.get("accounts", ())),
                seat=raw.get("seat"),
                weight=weight,
                voteless=bool(raw.get("voteless", False)),
                role=raw.get("role"),
                team=raw.get("team"),
            )
        )
    return Game(
        folder,
        str(setup.get("title", folder.name)),
        tz,
        tuple(hosts),
        tuple(sources),
        rules,
        tuple(slots),
    )


def _read_ledger(path: Path, game: Game) -> Iterable[Event]:
    replaced: list[Event] = []
    for i, line in enumerate(path.read_text("utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise GameFileError(path, f"not valid JSON ({exc.msg})", i) from None
        try:
            event = event_from_json(obj, i, game, replaced)
        except ValueError as exc:
            raise GameFileError(path, str(exc), i) from None
        if event.kind is EventKind.REPLACEMENT:
            replaced.append(event)
        yield event


def event_from_json(obj: object, line: int, game: Game, replaced: Sequence[Event] = ()) -> Event:
    """One ledger object as an Event; ValueError says what is wrong with it."""
    if not isinstance(obj, dict):
        raise ValueError("each line must be a JSON object")
    try:
        kind = EventKind(obj.get("kind"))
    except ValueError:
        allowed = ", ".join(k.value for k in EventKind)
        raise ValueError(f"unknown event kind {obj.get('kind')!r}; use one of {allowed}") from None
    at = PostRef(
        post=_int(obj, "post"),
        time=_time(obj, "time", game.timezone),
        thread=str(obj.get("thread", "")),
    )
    day = _int(obj, "day")

    def slot_of(field_name: str) -> str:
        name = obj.get(field_name)
        if not isinstance(name, str):
            raise ValueError(f'{kind.value} needs "{field_name}": a player\'s name')
        key = game.find_slot(name)
        if key is None:
            for r in replaced:
                if normalise(r.name) == normalise(name):
                    return r.slot
            raise ValueError(f"{kind.value}: no player named {name!r} in {SETUP_FILE}")
        return key

    if kind in (EventKind.DAY_START, EventKind.DAY_END):
        if day is None or day < 1:
            raise ValueError(f'{kind.value} needs "day": 1, 2, ...')
        if at.post is None and at.time is None:
            raise ValueError(f'{kind.value} needs "post" or "time"')
        return Event(kind, line, at, day=day)
    if kind is EventKind.DEATH:
        phase = obj.get("phase")
        if phase is not None:
            try:
                phase = Phase.parse(phase)
            except ValueError:
                raise ValueError('death "phase" must look like "D2" or "N1"') from None
        if phase is None and at.post is None and at.time is None:
            raise ValueError('death needs "phase" ("D2", "N1") or "post" where it happened')
        return Event(
            kind,
            line,
            at,
            slot=slot_of("player"),
            phase=phase,
            cause=obj.get("cause"),
            note=obj.get("note"),
        )
    if kind is EventKind.REPLACEMENT:
        by = obj.get("by")
        if not isinstance(by, str) or not by.strip():
            raise ValueError('replacement needs "by": the new player\'s name')
        if at.post is None and at.time is None:
            raise ValueError('replacement needs "post" (or "time") where the new player took over')
        return Event(kind, line, at, slot=slot_of("player"), name=by)
    if kind is EventKind.VOTE_RESET:
        if at.post is None and at.time is None:
            raise ValueError('vote_reset needs "post"')
        return Event(kind, line, at, note=obj.get("note"))
    if kind is EventKind.CORRECTION:
        if at.post is None:
            raise ValueError('correction needs "post": the post number it corrects')
        action = obj.get("action", "target" if "target" in obj else None)
        if action not in ("ignore", "target"):
            raise ValueError('correction needs "action": "ignore", or "target": a name')
        target = obj.get("target")
        if action == "target" and not isinstance(target, str):
            raise ValueError('correction with action "target" needs "target": a name')
        return Event(kind, line, at, action=action, target=target, note=obj.get("note"))
    # GHOST_VOTE: a ghost vote spent on a day the thread does not show
    if day is None:
        raise ValueError('ghost_vote needs "day"')
    return Event(kind, line, at, day=day, slot=slot_of("player"))


def _int(obj: dict, key: str) -> int | None:
    value = obj.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f'"{key}" must be a whole number')
    return value


def _time(obj: dict, key: str, tz: tzinfo) -> datetime | None:
    value = obj.get(key)
    if value is None:
        return None
    try:
        dt = datetime.fromisoformat(str(value))
    except ValueError:
        raise ValueError(f'"{key}" must be an ISO time like 2026-11-29T18:00') from None
    return dt if dt.tzinfo else dt.replace(tzinfo=tz)


# --- writing -----------------------------------------------------------------------------------


def write_atomic(path: Path, text: str) -> None:
    """Write a whole file so that readers see the old file or the new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def append_event(game: Game, obj: dict) -> Event:
    """Validate one event against the game, then append it to the ledger and fsync."""
    path = game.folder / LEDGER_FILE
    line = 1
    if path.exists():
        with path.open(encoding="utf-8") as fh:
            line += sum(1 for _ in fh)
    replaced = game.events_of(EventKind.REPLACEMENT)
    try:
        event = event_from_json(obj, line, game, replaced)
    except ValueError as exc:
        raise GameFileError(path, str(exc), line) from None
    data = json.dumps(obj, ensure_ascii=False) + "\n"
    with path.open("a", encoding="utf-8") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    return event
