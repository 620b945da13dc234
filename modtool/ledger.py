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
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, tzinfo
from enum import StrEnum
from pathlib import Path
from urllib.parse import urlparse

from .errors import GameFileError
from .names import normalise
from .rules import Rules, rules_from_table
from .times import zone
from .votes import read_correction

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
    UNDO = "undo"  # retracts the event on another line; history is never rewritten
    CHAT_CORRECTION = "chat_correction"  # how to read one post's chat announcements
    NIGHT_RESULT = "night_result"  # what one player learned in one night, as the host wrote it
    SETUP = "setup"  # the characters and seats drawn (modtool setup draw); overrides game.toml
    # the grimoire (Clocktower): what a Storyteller keeps track of
    REMINDER = "reminder"  # poisoned, drunk, protected, cursed, no ability, ... from a phase on
    MASTER = "master"  # the Butler's master for a day
    CHARACTER_CHANGE = "character_change"  # a new character and/or alignment from a point on
    DAY_ABILITY = "day_ability"  # a day ability the host announced at a post (Slayer, ...)
    NIGHT_CHOICE = "night_choice"  # the players (and character) a player chose in a night


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
    shown: str | None = None  # the character the player was told they are (the Drunk's)


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
    action: str | None = None  # corrections: "ignore", "target" or "actions"
    target: str | None = None  # corrections: the intended target (a name, or "no lynch")
    actions: str | None = None  # corrections: what the post does, in order ("unvote; vote Bob")
    note: str | None = None
    # setup: ((slot, seat, role, shown), ...), the bluffs, and the red herring's slot
    seats: tuple[tuple[str, int, str, str | None], ...] = ()
    bluffs: tuple[str, ...] = ()


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
    schedule: object = None  # schedule.Schedule: deadlines from game.toml's [schedule]
    drafts: dict = field(default_factory=dict)  # [drafts]: reveal = nothing|alignment|role
    script: str | None = None  # a shipped script's name, "vampires", or a script file's path
    clocktower: object = None  # scripts.Script: the characters of a Clocktower script
    setup: dict = field(default_factory=dict)  # [setup]: bluffs, minion_info
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

    def role_at(self, slot: str, phase: Phase | None = None) -> str | None:
        """A slot's character (or Vampires role): the setup's, then each recorded change up to
        `phase` (every one when None): a star-pass, an ascension, a conversion."""
        role = self.slot(slot).role
        for e in self.events_of(EventKind.CHARACTER_CHANGE):
            if e.slot == slot and e.target and (phase is None or (e.phase and e.phase <= phase)):
                role = e.target
        return role

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
    if ledger_path.exists() and not ledger_path.is_file():
        raise GameFileError(ledger_path, "is not a file; the ledger must be a text file")
    if ledger_path.is_file():
        events = effective(tuple(_read_ledger(ledger_path, game)), ledger_path)
        check_ledger(events, game, ledger_path)
    game = replace(game, events=events, _slot_by_name={})  # names now include replacements
    drawn = game.events_of(EventKind.SETUP)
    return with_setup(game, drawn[-1]) if drawn else game


def with_setup(game: Game, event: Event) -> Game:
    """The game with a recorded draw's seats and characters in place of game.toml's."""
    by_slot = {slot: (seat, role, shown) for slot, seat, role, shown in event.seats}
    slots = tuple(
        replace(s, seat=by_slot[s.key][0], role=by_slot[s.key][1], shown=by_slot[s.key][2])
        if s.key in by_slot
        else s
        for s in game.slots
    )
    setup = {**game.setup, "bluffs": list(event.bluffs)}
    if event.target:
        setup["red_herring"] = event.target
    return replace(game, slots=slots, setup=setup)


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

    known = {
        "title",
        "timezone",
        "hosts",
        "sources",
        "rules",
        "players",
        "language",
        "schedule",
        "drafts",
        "script",
        "setup",
    }
    for key in setup:
        if key not in known:
            raise fail(
                f"unknown setting {key!r}{did_you_mean(key, known)}; "
                f"known: {', '.join(sorted(known))}",
                key,
            )
    for key in ("title", "timezone", "language"):
        if key in setup and not isinstance(setup[key], str):
            raise fail(f'{key!r} must be text in quotes, like {key} = "..."', key)
    try:
        tz = zone(setup.get("timezone"))
    except Exception as exc:  # ModToolError from zone(): same message, with the file's line
        raise fail(str(exc), "timezone") from None
    hosts = setup.get("hosts", [])
    if not isinstance(hosts, list) or not all(isinstance(h, str) and h.strip() for h in hosts):
        raise fail("'hosts' must be a list of names, like hosts = [\"Thoth\"]", "hosts")
    sources = []
    for raw in setup.get("sources", []):
        if not isinstance(raw, dict) or not (raw.get("url") or raw.get("path")):
            raise fail('each [[sources]] needs url = "..." or path = "..."', "[[sources]]")
        location = raw.get("url") or raw.get("path")
        if not isinstance(location, str):
            raise fail("[[sources]]: url and path must be text in quotes", "[[sources]]")
        if "url" in raw:
            _check_url(location, fail)
        else:
            _check_path(location, folder, fail)
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
    if not isinstance(players, list):
        raise fail("players must be [[players]] tables, one per player", "players")
    if not players:
        raise fail('no [[players]]; list every player with name = "..."')
    slots = []
    seen: set[str] = set()
    seats: dict[int, str] = {}
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
            "shown",
        }
        if unknown:
            raise fail(f"player {name!r}: unknown field {sorted(unknown)[0]!r}", name)
        weight = raw.get("weight", 1)
        if isinstance(weight, bool) or not isinstance(weight, int) or not 0 <= weight <= MAX_WEIGHT:
            raise fail(
                f"player {name!r}: weight must be a whole number from 0 to {MAX_WEIGHT}", name
            )
        seat = raw.get("seat")
        if seat is not None:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= 100:
                raise fail(f"player {name!r}: seat must be a whole number from 1 to 100", name)
            if seat in seats:
                raise fail(f"players {seats[seat]!r} and {name!r} both have seat {seat}", name)
            seats[seat] = name
        voteless = raw.get("voteless", False)
        if not isinstance(voteless, bool):
            raise fail(f"player {name!r}: voteless must be true or false (no quotes)", name)
        names = {}
        for field_name in ("aliases", "accounts"):
            value = raw.get(field_name, [])
            if not isinstance(value, list) or not all(
                isinstance(v, str) and v.strip() for v in value
            ):
                example = json.dumps([value] if isinstance(value, str) else ["Ban"])
                raise fail(
                    f"player {name!r}: {field_name} must be a list of names, like "
                    f"{field_name} = {example}",
                    name,
                )
            names[field_name] = tuple(value)
        for field_name in ("role", "team", "shown"):
            if field_name in raw and not isinstance(raw[field_name], str):
                raise fail(f"player {name!r}: {field_name} must be text in quotes", name)
        for host in hosts:
            if normalise(host) in {normalise(n) for n in (name, *names["accounts"])}:
                raise fail(
                    f"{host!r} is both a host and a player; a host's posts are never votes, "
                    "so list them in one place only",
                    "hosts",
                )
        slots.append(
            Slot(
                key=name,
                aliases=names["aliases"],
                accounts=names["accounts"],
                seat=seat,
                weight=weight,
                voteless=voteless,
                role=raw.get("role"),
                team=raw.get("team"),
                shown=raw.get("shown"),
            )
        )
    schedule = None
    if "schedule" in setup:
        from .schedule import schedule_from_table

        if not isinstance(setup["schedule"], dict):
            raise fail("[schedule] must be a table", "schedule")
        try:
            schedule = schedule_from_table(setup["schedule"], tz)
        except ValueError as exc:
            raise fail(str(exc), "[schedule]") from None
    drafts = setup.get("drafts", {})
    if not isinstance(drafts, dict) or set(drafts) - {"reveal"}:
        raise fail('[drafts] takes reveal = "nothing", "alignment", "role" or "pm"', "drafts")
    if drafts.get("reveal", REVEALS[0]) not in REVEALS:
        raise fail('[drafts] reveal must be "nothing", "alignment", "role" or "pm"', "reveal")
    script = setup.get("script")
    setup_table = setup.get("setup", {})
    clocktower = None
    if script is not None:
        if not isinstance(script, str):
            raise fail('script must be text in quotes, like script = "trouble-brewing-forum"')
        if script != "vampires":
            from .scripts import load_script

            clocktower = load_script(script, folder)
        slots = _check_roles(script, clocktower, slots, fail)
    _check_setup_table(setup_table, script, clocktower, fail)
    return Game(
        folder,
        str(setup.get("title", folder.name)),
        tz,
        tuple(hosts),
        tuple(sources),
        rules,
        tuple(slots),
        schedule=schedule,
        drafts=drafts,
        script=script,
        clocktower=clocktower,
        setup=setup_table,
    )


def _check_roles(script: str, clocktower, slots: list[Slot], fail) -> list[Slot]:
    """Each player's role (and shown character) is one of the script's, by any of its names;
    it is stored as the character's (or Vampires role's) id."""
    from .roles import vampire_setup

    lookup = clocktower if clocktower is not None else vampire_setup()
    ids = list(clocktower.ids) if clocktower is not None else [r.id for r in lookup.roles]

    def find(name: str) -> str | None:
        found = lookup.find(name)
        return found.id if found else None

    out = []
    for slot in slots:
        found = {}
        for field_name in ("role", "shown"):
            value = getattr(slot, field_name)
            if value is None:
                continue
            found[field_name] = find(value)
            if found[field_name] is None:
                raise fail(
                    f"player {slot.key!r}: {field_name} {value!r} is not on the script "
                    f"{script!r}{did_you_mean(value, ids)}",
                    slot.key,
                )
        out.append(replace(slot, **found))
    return out


MINION_INFO = ("team", "demon")  # minions learn the whole evil team, or only the Demon (seed 003)


def _check_setup_table(table: object, script: object, clocktower, fail) -> None:
    if not isinstance(table, dict) or set(table) - {
        "bluffs",
        "minion_info",
        "red_herring",
        "roles",
    }:
        raise fail(
            '[setup] takes bluffs = [...], red_herring = "player", minion_info = "team" or '
            '"demon", and (Vampires) roles = [...]',
            "[setup]",
        )
    roles = table.get("roles", [])
    if not isinstance(roles, list) or not all(isinstance(r, str) for r in roles):
        raise fail('[setup] roles must be a list of roles, like ["Vampire", "Priest"]', "roles")
    if roles and script == "vampires":
        from .roles import vampire_setup

        for r in roles:
            if vampire_setup().role(r) is None:
                raise fail(f"[setup] role {r!r} is not a role of the Vampires setup", "roles")
    if not isinstance(table.get("red_herring", ""), str):
        raise fail("[setup] red_herring must be a player's name in quotes", "red_herring")
    if table.get("minion_info", MINION_INFO[0]) not in MINION_INFO:
        raise fail('[setup] minion_info must be "team" or "demon"', "minion_info")
    bluffs = table.get("bluffs", [])
    if not isinstance(bluffs, list) or not all(isinstance(b, str) for b in bluffs):
        raise fail('[setup] bluffs must be a list of characters, like ["Monk", "Chef"]', "bluffs")
    if bluffs and script is None:
        raise fail("[setup] bluffs need script = ... to say whose characters they are", "bluffs")
    for b in bluffs if clocktower is not None else ():
        if clocktower.find(b) is None:
            raise fail(f"[setup] bluff {b!r} is not on the script {script!r}", "bluffs")


MAX_WEIGHT = 10
# What a day-end or night-end post shows of the dead: nothing, the alignment, the character
# (and alignment), or the character with its ability as the role PM gave it.
REVEALS = ("nothing", "alignment", "role", "pm")
MAX_DAY = 999


def did_you_mean(name: str, choices: Iterable[str]) -> str:
    """ "; did you mean 'Banana'?" for the closest choice, or "" when none is close."""
    from rapidfuzz import fuzz, process, utils

    found = process.extractOne(
        name, list(choices), scorer=fuzz.WRatio, processor=utils.default_process
    )
    return f" (did you mean {found[0]!r}?)" if found and found[1] >= 75 else ""


def _check_url(url: str, fail) -> None:
    parts = None
    try:
        parts = urlparse(url)
    except ValueError:
        pass
    if parts is None or parts.scheme not in ("http", "https") or not parts.netloc:
        raise fail(
            f"[[sources]] url {url!r} is not an http(s) address; give the thread's web address "
            'or use path = "..." for a saved copy',
            "url",
        )


def _check_path(location: str, folder: Path, fail) -> None:
    """A source path stays inside the game folder, unless the host wrote an absolute path
    (a deliberate choice: docs/game-folder.md)."""
    path = Path(location)
    if path.is_absolute():
        return
    inside = (folder / path).resolve()
    if not inside.is_relative_to(folder.resolve()):
        raise fail(
            f"[[sources]] path {location!r} is outside the game folder; move the file into "
            "the folder, or write its absolute path if you mean it",
            location,
        )


def _read_ledger(path: Path, game: Game) -> Iterable[Event]:
    replaced: list[Event] = []
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise GameFileError(path, "not UTF-8 text; save the ledger as UTF-8", line) from None
    for i, line in enumerate(text.splitlines(), 1):
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

    def slot_of(field_name: str, value: object = None) -> str:
        name = obj.get(field_name) if value is None else value
        if not isinstance(name, str):
            raise ValueError(f'{kind.value} needs "{field_name}": a player\'s name')
        key = game.find_slot(name)
        if key is None:
            for r in replaced:
                if normalise(r.name) == normalise(name):
                    return r.slot
            names = [n for s in game.slots for n in (*game.slot_names(s.key), *s.aliases)]
            raise ValueError(
                f"{kind.value}: no player named {name!r} in {SETUP_FILE}{did_you_mean(name, names)}"
            )
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
        slot = slot_of("player")
        taken = game.find_slot(by) or next(
            (r.slot for r in replaced if normalise(r.name) == normalise(by)), None
        )
        holder = next((r.name for r in reversed(replaced) if r.slot == slot), slot)
        if taken is not None and taken != slot:
            raise ValueError(
                f"replacement: {by!r} is already in the game (the slot of {taken}); "
                "a replacement brings a player from outside the game"
            )
        if normalise(by) == normalise(holder):
            raise ValueError(f"replacement: {by!r} already holds {slot!r}'s slot")
        if normalise(by) in {normalise(h) for h in game.hosts}:
            raise ValueError(f"replacement: {by!r} is a host")
        return Event(kind, line, at, slot=slot, name=by)
    if kind is EventKind.VOTE_RESET:
        if at.post is None and at.time is None:
            raise ValueError('vote_reset needs "post"')
        return Event(kind, line, at, note=obj.get("note"))
    if kind is EventKind.CORRECTION:
        if at.post is None:
            raise ValueError('correction needs "post": the post number it corrects')
        action = obj.get("action", "target" if "target" in obj else None)
        if action not in ("ignore", "target", "actions"):
            raise ValueError(
                'correction needs "action": "ignore", "target" (a name) or "actions" '
                '(a list such as "unvote; vote Bob")'
            )
        target = obj.get("target")
        if action == "target" and not isinstance(target, str):
            raise ValueError('correction with action "target" needs "target": a name')
        actions = obj.get("actions")
        if action == "actions":
            if not isinstance(actions, str):
                raise ValueError(
                    'correction with action "actions" needs "actions": "unvote; vote Bob"'
                )
            read_correction(actions)  # a list the count cannot read is refused here
        return Event(
            kind, line, at, action=action, target=target, actions=actions, note=obj.get("note")
        )
    if kind is EventKind.CHAT_CORRECTION:
        text = obj.get("text")
        if at.post is None or not isinstance(text, str):
            raise ValueError(
                'chat_correction needs "post" and "text": the announcement in the short form '
                '("CHAT CLOSE: Rex\'s chat with Rex, Neros"), or "" to ignore the post'
            )
        return Event(kind, line, at, note=text)
    if kind is EventKind.NIGHT_RESULT:
        night = _int(obj, "night")
        text = obj.get("text")
        if night is None or not isinstance(text, str) or not text.strip():
            raise ValueError('night_result needs "night": 0, 1, ... and "text": what they learned')
        phase = Phase(night, PhaseKind.NIGHT)
        return Event(kind, line, at, phase=phase, slot=slot_of("player"), note=text)
    if kind is EventKind.SETUP:
        return _setup_event(obj, line, at, game, slot_of)
    if kind in GRIMOIRE_KINDS:
        return _grimoire_event(kind, obj, line, at, game, slot_of)
    if kind is EventKind.UNDO:
        target = obj.get("line")
        if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target < line:
            raise ValueError(f'undo needs "line": the number of an earlier line (1 to {line - 1})')
        return Event(kind, line, at, day=target, note=obj.get("note"))
    # GHOST_VOTE: a ghost vote spent on a day the thread does not show
    if day is None:
        raise ValueError('ghost_vote needs "day"')
    return Event(kind, line, at, day=day, slot=slot_of("player"))


GRIMOIRE_KINDS = (
    EventKind.NIGHT_CHOICE,
    EventKind.REMINDER,
    EventKind.MASTER,
    EventKind.CHARACTER_CHANGE,
    EventKind.DAY_ABILITY,
)
# A reminder lasts, from the phase it is given: "night" (that night), "night+day" (that night
# and the following day: seed 003's poisoning), "day", or "game".
REMINDER_LIFETIMES = {
    "poisoned": "night+day",
    "drunk": "night+day",
    "protected": "night",
    "cursed": "night+day",
    "no_ability": "game",
    "lleech_host": "game",
    "claimed": "day",
}
DAY_ABILITIES = ("slayer", "damsel_guess", "goblin_claim", "juggle", "other")


def _phase_of(obj: dict, what: str) -> Phase:
    """A phase given as "phase": "N2", or "night": 2, or "day": 2."""
    if "phase" in obj:
        try:
            return Phase.parse(obj["phase"])
        except ValueError:
            raise ValueError(f'{what} "phase" must look like "N1" or "D2"') from None
    if "night" in obj:
        return Phase(_int(obj, "night"), PhaseKind.NIGHT)
    if "day" in obj:
        return Phase(_int(obj, "day"), PhaseKind.DAY)
    raise ValueError(f'{what} needs "night": N, "day": N or "phase": "N1"')


def _roles_of(game: Game):
    """What a role name is looked up in: the Clocktower script, or the Vampires roles."""
    if game.clocktower is not None:
        return game.clocktower
    if game.script == "vampires":
        from .roles import vampire_setup

        return vampire_setup()
    return None


def _grimoire_event(kind, obj: dict, line: int, at: PostRef, game: Game, slot_of) -> Event:
    script = _roles_of(game)
    if script is None:
        raise ValueError(f'{kind.value} needs script = "..." in game.toml')
    slot = slot_of("player")
    note = obj.get("note")
    if kind is EventKind.MASTER:
        day = _int(obj, "day")
        if day is None:
            raise ValueError('master needs "day": the day the master counts for')
        master = slot_of("master")
        if master == slot:
            raise ValueError("master: the Butler cannot choose themself")
        return Event(kind, line, at, day=day, slot=slot, target=master, note=note)
    if kind is EventKind.NIGHT_CHOICE:
        night = _int(obj, "night")
        targets = obj.get("targets", [])
        if night is None or not isinstance(targets, list):
            raise ValueError('night_choice needs "night" and "targets": [player, ...]')
        chosen = tuple(slot_of("targets", t) for t in targets)
        character = obj.get("character")
        found = script.find(character) if isinstance(character, str) else None
        if character is not None and found is None:
            raise ValueError(f"night_choice: {character!r} is not on the script")
        ability = obj.get("ability")
        if ability is not None and not isinstance(ability, str):
            raise ValueError('night_choice "ability" must be text, like "drain"')
        return Event(
            kind,
            line,
            at,
            slot=slot,
            phase=Phase(night, PhaseKind.NIGHT),
            target=found.id if found else None,
            bluffs=chosen,  # the chosen players' slots, in order
            action=ability,
            note=note,
        )
    if kind is EventKind.REMINDER:
        reminder = obj.get("reminder")
        if not isinstance(reminder, str) or not reminder.strip():
            known = ", ".join(REMINDER_LIFETIMES)
            raise ValueError(f'reminder needs "reminder": {known}, or your own word')
        until = obj.get("until")
        if until is not None and until != "game":
            try:
                Phase.parse(until)
            except ValueError:
                raise ValueError('reminder "until" must look like "D3", "N2" or "game"') from None
        by = obj.get("by")
        found = script.find(by) if isinstance(by, str) else None
        if by is not None and found is None:
            raise ValueError(f"reminder: 'by' {by!r} is not on the script")
        return Event(
            kind,
            line,
            at,
            slot=slot,
            phase=_phase_of(obj, "reminder"),
            target=reminder.strip().lower().replace(" ", "_"),
            name=found.id if found else None,
            cause=until,
            note=note,
        )
    if kind is EventKind.CHARACTER_CHANGE:
        character, alignment = obj.get("character"), obj.get("alignment")
        if character is None and alignment is None:
            raise ValueError('character_change needs "character" and/or "alignment"')
        found = script.find(character) if isinstance(character, str) else None
        if character is not None and found is None:
            raise ValueError(f"character_change: {character!r} is not on the script")
        if alignment not in (None, "good", "evil"):
            raise ValueError('character_change "alignment" must be "good" or "evil"')
        if at.post is None and "phase" not in obj:
            raise ValueError('character_change needs "phase" ("N2") or "post" where it happened')
        phase = _phase_of(obj, "character_change") if "phase" in obj else None
        return Event(
            kind,
            line,
            at,
            slot=slot,
            phase=phase,
            target=found.id if found else None,
            name=alignment,
            cause=obj.get("cause"),
            note=note,
        )
    # DAY_ABILITY: announced by the host at a post
    ability = obj.get("ability")
    if ability not in DAY_ABILITIES:
        raise ValueError(f'day_ability "ability" must be one of {", ".join(DAY_ABILITIES)}')
    if at.post is None:
        raise ValueError('day_ability needs "post": where the host announced it')
    target = slot_of("target") if obj.get("target") is not None else None
    guess = obj.get("character")
    found = script.find(guess) if isinstance(guess, str) else None
    if guess is not None and found is None:
        raise ValueError(f"day_ability: character {guess!r} is not on the script")
    if ability == "juggle" and (target is None or found is None):
        raise ValueError('a juggle needs "target" and "character": one guess per event')
    return Event(
        kind,
        line,
        at,
        slot=slot,
        target=target,
        action=ability,
        name=found.id if found else None,
        note=note,
    )


def _setup_event(obj: dict, line: int, at: PostRef, game: Game, slot_of) -> Event:
    script = _roles_of(game)
    if script is None:
        raise ValueError('setup needs script = "..." in game.toml')
    players = obj.get("players")
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
        raise ValueError('setup needs "players": [{"player", "seat", "role"}, ...]')
    seats = []
    for p in players:
        slot = slot_of("player", p.get("player"))
        seat = p.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= 100:
            raise ValueError(f"setup: {slot}'s seat must be a whole number from 1 to 100")
        found = {}
        for key in ("role", "shown"):
            value = p.get(key)
            if value is None and key == "shown":
                found[key] = None
                continue
            char = script.find(value) if isinstance(value, str) else None
            if char is None:
                raise ValueError(f"setup: {slot}'s {key} {value!r} is not on the script")
            found[key] = char.id
        seats.append((slot, seat, found["role"], found["shown"]))
    bluffs = []
    for b in obj.get("bluffs", []):
        char = script.find(b) if isinstance(b, str) else None
        if char is None:
            raise ValueError(f"setup: bluff {b!r} is not on the script")
        bluffs.append(char.id)
    herring = obj.get("red_herring")
    herring = slot_of("red_herring", herring) if herring is not None else None
    return Event(
        EventKind.SETUP,
        line,
        at,
        day=_int(obj, "seed"),
        target=herring,
        seats=tuple(seats),
        bluffs=tuple(bluffs),
    )


_RANGES = {
    "post": (0, 10_000_000),
    "day": (1, MAX_DAY),
    "night": (0, MAX_DAY),
    "seed": (0, 2**63),
}


def _int(obj: dict, key: str) -> int | None:
    value = obj.get(key)
    if value is None:
        return None
    low, high = _RANGES[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f'"{key}" must be a whole number from {low} to {high:,}, not {value!r}')
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
    """Validate one event against the game and its whole ledger, then append it and fsync."""
    return append_events(game, [obj])[0]


def append_events(game: Game, objs: Sequence[dict]) -> list[Event]:
    """Validate events against the game and its whole ledger, then append them in one write
    and fsync: all of them or none. Two writers never interleave (a lock on the game folder);
    a hand-edited file that lacks its final newline gets one first."""
    path = game.folder / LEDGER_FILE
    if path.exists() and not path.is_file():
        raise GameFileError(path, "is not a file; the ledger must be a text file")
    with _locked(path):
        current = load_game(game.folder)  # what is on disk now, under the lock
        existing = path.read_bytes() if path.exists() else b""
        first = existing.count(b"\n") + (0 if existing.endswith(b"\n") or not existing else 1) + 1
        bare = replace(current, events=(), _slot_by_name={})  # as load_game reads the lines
        everything = list(_read_ledger(path, bare)) if existing else []
        added = []
        for i, obj in enumerate(objs):
            replaced = [e for e in (*everything, *added) if e.kind is EventKind.REPLACEMENT]
            try:
                added.append(event_from_json(obj, first + i, current, replaced))
            except ValueError as exc:
                raise GameFileError(path, str(exc), first + i) from None
        check_ledger(effective((*everything, *added), path), current, path)
        data = "".join(json.dumps(obj, ensure_ascii=False) + "\n" for obj in objs)
        if existing and not existing.endswith(b"\n"):
            data = "\n" + data
        with path.open("a", encoding="utf-8") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    return added


def ledger_lines(game: Game) -> list[tuple[int, dict]]:
    """Every line of the ledger as written, with its number (blank lines left out)."""
    path = game.folder / LEDGER_FILE
    if not path.is_file():
        return []
    return [
        (i, json.loads(line))
        for i, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if line.strip()
    ]


LOCK_WAIT = 10.0  # seconds a writer waits for another before it gives up


@contextmanager
def _locked(ledger: Path):
    """An exclusive lock on the game folder itself, for one write: no file is created."""
    import fcntl
    import time

    fd = os.open(ledger.parent, os.O_RDONLY)
    try:
        deadline = time.monotonic() + LOCK_WAIT
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise GameFileError(
                        ledger,
                        f"another modtool has been writing it for over {LOCK_WAIT:.0f} s; "
                        "try again when it has finished",
                    ) from None
                time.sleep(0.05)
        yield
    finally:
        os.close(fd)  # closing releases the lock


# --- what cannot be true ----------------------------------------------------------------------


def effective(events: Sequence[Event], path: Path) -> tuple[Event, ...]:
    """The events that stand: every line an `undo` retracts is left out (an undo's `line` is
    kept in its `day` field)."""
    kinds = {e.line: e for e in events}
    undone: dict[int, Event] = {}
    for e in events:
        if e.kind is EventKind.UNDO:
            target = kinds.get(e.day)
            if target is None:
                raise GameFileError(path, f"undo: line {e.day} holds no event", e.line)
            if target.kind is EventKind.UNDO:
                raise GameFileError(
                    path, f"undo: line {e.day} is an undo; record the event again instead", e.line
                )
            if e.day in undone:
                raise GameFileError(
                    path,
                    f"undo: line {e.day} was already undone at line {undone[e.day].line}",
                    e.line,
                )
            undone[e.day] = e
    return tuple(e for e in events if e.kind is not EventKind.UNDO and e.line not in undone)


def check_ledger(events: Sequence[Event], game: Game, path: Path) -> None:
    """The ledger's events together: each day starts and ends once, and ends after it starts;
    each player dies once; a ghost vote is spent by a dead player. GameFileError names the line."""

    def fail(event: Event, problem: str) -> GameFileError:
        return GameFileError(path, problem, event.line)

    starts: dict[int, Event] = {}
    ends: dict[int, Event] = {}
    deaths: dict[str, Event] = {}
    for e in events:
        if e.kind in (EventKind.DAY_START, EventKind.DAY_END):
            seen = starts if e.kind is EventKind.DAY_START else ends
            if e.day in seen:
                verb = "starts" if e.kind is EventKind.DAY_START else "ends"
                raise fail(
                    e,
                    f"Day {e.day} already {verb} at line {seen[e.day].line}; "
                    "remove one of the two lines",
                )
            seen[e.day] = e
        elif e.kind is EventKind.DEATH:
            if e.slot in deaths:
                raise fail(
                    e,
                    f"{e.slot} already died at line {deaths[e.slot].line}; "
                    "a player dies once (remove one of the two lines)",
                )
            deaths[e.slot] = e
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


def _before(a: PostRef, b: PostRef) -> bool:
    if a.post is not None and b.post is not None and a.thread == b.thread:
        return a.post < b.post
    if a.time is not None and b.time is not None:
        return a.time < b.time
    return False


def _dead_by(death: Event, day: int, ends: dict[int, Event]) -> bool:
    """Whether a death falls before or during `day`."""
    if death.phase is not None:
        return death.phase.number < day or (death.phase.number == day and not death.phase.is_night)
    end = ends.get(day)
    return end is None or not _before(end.at, death.at)
