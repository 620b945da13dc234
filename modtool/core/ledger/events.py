"""events.jsonl: each line read into an `Event`, its fields checked."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime, tzinfo
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from ...errors import GameFileError, json_problem
from ...threads.frozen import frozen
from ..names import NO_LYNCH_WORDS, UNVOTE_WORDS, did_you_mean, normalise
from ..votes import read_correction
from .model import (
    SETUP_FILE,
    ChatCorrection,
    Correction,
    DayBoundary,
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
    Undo,
    VoteReset,
)
from .setup import MAX_DAY

if TYPE_CHECKING:  # types only: the protocol's module names the ledger's types in turn
    from ..variant import Variant


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
        except (json.JSONDecodeError, RecursionError) as exc:
            raise GameFileError(path, json_problem(exc, line), i) from None
        try:
            event = event_from_json(obj, i, game, replaced)
        except ValueError as exc:
            raise GameFileError(path, str(exc), i) from None
        if event.kind is EventKind.REPLACEMENT:
            replaced.append(event)
        yield event


@frozen
class LedgerLine:
    """One ledger object as it is read: its fields, its line number and point in the thread, and
    the game it must agree with. A kind's reader asks it for the fields it needs, checked."""

    obj: dict
    line: int
    kind: StrEnum
    at: PostRef
    game: Game
    replaced: Sequence[Event] = ()

    @property
    def note(self) -> str | None:
        return self.obj.get("note")

    def whole(self, key: str) -> int | None:
        """A whole-number field, in its range, or None when absent."""
        return _int(self.obj, key)

    def slot(self, field_name: str, value: object = None) -> str:
        """The slot of the player a field names (`value` instead of the field, for a list's
        item); a name the game lacks is refused with the nearest names."""
        game, name = self.game, self.obj.get(field_name) if value is None else value
        if not isinstance(name, str):
            raise ValueError(f'{self.kind.value} needs "{field_name}": a player\'s name')
        key = game.find_slot(name)
        if key is None:
            for r in self.replaced:
                if normalise(r.by) == normalise(name):
                    return r.slot
            names = [n for s in game.slots for n in (*game.slot_names(s.key), *s.aliases)]
            raise ValueError(
                f"{self.kind.value}: no player named {name!r} in {SETUP_FILE}"
                f"{did_you_mean(name, names)}"
            )
        return key

    def role(self, key: str, what: str) -> str | None:
        """A character or role a field names, as the game's id (None when absent); `what`
        begins the error for a name the game lacks."""
        value = self.obj.get(key)
        found = self.game.variant.find_role(value) if isinstance(value, str) else None
        if value is not None and found is None:
            raise ValueError(f"{what} {value!r} is not on the script")
        return found

    def phase(self, what: str) -> Phase:
        """A phase given as "phase": "N2", or "night": 2, or "day": 2."""
        obj = self.obj
        if "phase" in obj:
            try:
                return Phase.parse(obj["phase"])
            except ValueError:
                raise ValueError(f'{what} "phase" must look like "N1" or "D2"') from None
        if "night" in obj:
            return Phase(self.whole("night"), PhaseKind.NIGHT)
        if "day" in obj:
            return Phase(self.whole("day"), PhaseKind.DAY)
        raise ValueError(f'{what} needs "night": N, "day": N or "phase": "N1"')

    def needs_roles(self) -> None:
        """Characters and the grimoire belong to a game whose players have roles."""
        if not self.game.variant.has_roles:
            raise ValueError(f'{self.kind.value} needs script = "..." in game.toml')


@frozen
class EventType:
    """One kind of ledger event: its class, how its line is read (`read`, refusing what is
    wrong with ValueError) and written back (`write`, its own fields), and, for an outcome a
    night or a day's end may confirm twice, what makes two of them the same one (`same`)."""

    kind: StrEnum
    cls: type[Event]
    read: Callable[[LedgerLine], Event]
    write: Callable[[Event], dict]
    same: Callable[[Event], tuple] | None = None


def event_from_json(obj: object, line: int, game: Game, replaced: Sequence[Event] = ()) -> Event:
    """One ledger object as an Event; ValueError says what is wrong with it. Its kind is the
    core's or one the game registers (`Variant.events`)."""
    if not isinstance(obj, dict):
        raise ValueError("each line must be a JSON object")
    types = event_types(game.variant)
    kind = obj.get("kind")
    if not isinstance(kind, str) or kind not in types:
        allowed = ", ".join(types)
        raise ValueError(f"unknown event kind {kind!r}; use one of {allowed}")
    how = types[kind]
    at = PostRef(
        post=_int(obj, "post"),
        time=_time(obj, "time", game.timezone),
        thread=_thread(obj, game),
    )
    return how.read(LedgerLine(obj, line, how.kind, at, game, replaced))


def _thread(obj: dict, game: Game) -> str:
    """The thread an event's post is in, as its posts carry it: the one named, or the first
    source when none is (docs/game-folder.md). In a one-thread game any name is that thread."""
    threads = game.threads or ("",)
    named = obj.get("thread")
    if named is None or named == "" or len(threads) == 1:
        return threads[0]
    if named not in threads:
        raise ValueError(
            f'"thread": {named!r} is not one of the game\'s threads ({", ".join(threads)}, '
            "as game.toml's [[sources]] label them); name one of them"
        )
    return named


def event_types(variant: Variant | None = None) -> Mapping[str, EventType]:
    """Every kind a game's ledger may hold: the core's, then the game's own."""
    return _with(variant.events if variant is not None else ())


def _with(kinds: Sequence[EventType]) -> Mapping[str, EventType]:
    return {**CORE_EVENTS, **{t.kind.value: t for t in kinds}} if kinds else CORE_EVENTS


def event_type_of(e: Event, kinds: Sequence[EventType] = ()) -> EventType:
    """The kind of event `e` is, by its class: the core's, or one of a game's `kinds`."""
    for how in _with(kinds).values():
        if type(e) is how.cls and how.kind == e.kind:
            return how
    raise TypeError(f"{type(e).__name__} is not an event kind of this game")


# --- each core kind, read ------------------------------------------------------------------


def _day_boundary(ln: LedgerLine) -> Event:
    day = ln.whole("day")
    if day is None or day < 1:
        raise ValueError(f'{ln.kind.value} needs "day": 1, 2, ...')
    if ln.at.post is None and ln.at.time is None:
        raise ValueError(f'{ln.kind.value} needs "post" or "time"')
    closed = ln.obj.get("chats_closed", [])
    if not isinstance(closed, list) or not all(isinstance(c, str) for c in closed):
        raise ValueError('day_end "chats_closed" must be a list of chat names')
    return DayBoundary(ln.kind, ln.line, ln.at, day=day, note=ln.note, chats_closed=tuple(closed))


def _phase_or_point(ln: LedgerLine) -> Phase | None:
    """A death's or a revival's phase ("D2", "N1"), or None where a post or time places it;
    one of the two is needed."""
    phase = ln.obj.get("phase")
    if phase is not None:
        try:
            return Phase.parse(phase)
        except ValueError:
            raise ValueError(f'{ln.kind.value} "phase" must look like "D2" or "N1"') from None
    if ln.at.post is None and ln.at.time is None:
        raise ValueError(f'{ln.kind.value} needs "phase" ("D2", "N1") or "post" where it happened')
    return None


def _death(ln: LedgerLine) -> Event:
    phase = _phase_or_point(ln)
    return Death(
        ln.kind,
        ln.line,
        ln.at,
        slot=ln.slot("player"),
        phase=phase,
        cause=ln.obj.get("cause"),
        note=ln.note,
    )


def _revival(ln: LedgerLine) -> Event:
    variant = ln.game.variant
    if not variant.revivals:
        raise ValueError(
            f"revival: a {variant.name} game takes no revival (its grimoire, nights and wins "
            "keep the dead dead); if the death was a mistake, undo its line"
        )
    phase = _phase_or_point(ln)
    return Revival(ln.kind, ln.line, ln.at, slot=ln.slot("player"), phase=phase, note=ln.note)


def _replacement(ln: LedgerLine) -> Event:
    game, replaced, by = ln.game, ln.replaced, ln.obj.get("by")
    if not isinstance(by, str) or not by.strip():
        raise ValueError('replacement needs "by": the new player\'s name')
    if ln.at.post is None and ln.at.time is None:
        raise ValueError('replacement needs "post" (or "time") where the new player took over')
    slot = ln.slot("player")
    taken = game.find_slot(by) or next(
        (r.slot for r in replaced if normalise(r.by) == normalise(by)), None
    )
    holder = next((r.by for r in reversed(replaced) if r.slot == slot), slot)
    if taken is not None and taken != slot:
        raise ValueError(
            f"replacement: {by!r} is already in the game (the slot of {taken}); "
            "a replacement brings a player from outside the game"
        )
    if normalise(by) == normalise(holder):
        raise ValueError(
            f"replacement: {by} already holds the slot of {slot}; "
            "a replacement names the player who comes in"
        )
    if normalise(by) in {normalise(h) for h in game.hosts}:
        raise ValueError(f"replacement: {by!r} is a host")
    return Replacement(ln.kind, ln.line, ln.at, slot=slot, by=by, note=ln.note)


def _vote_reset(ln: LedgerLine) -> Event:
    if ln.at.post is None and ln.at.time is None:
        raise ValueError('vote_reset needs "post"')
    return VoteReset(ln.kind, ln.line, ln.at, note=ln.note)


def _correction(ln: LedgerLine) -> Event:
    obj = ln.obj
    if ln.at.post is None:
        raise ValueError('correction needs "post": the post number it corrects')
    action = obj.get("action", "target" if "target" in obj else None)
    if action not in ("ignore", "target", "actions"):
        raise ValueError(
            'correction needs "action": "ignore", "target" (a name) or "actions" '
            '(a list such as "unvote; vote Bob")'
        )
    target = obj.get("target")
    if action == "target":
        if not isinstance(target, str):
            raise ValueError('correction with action "target" needs "target": a name')
        _check_vote_target(ln, target)
    actions = obj.get("actions")
    if action == "actions":
        if not isinstance(actions, str):
            raise ValueError('correction with action "actions" needs "actions": "unvote; vote Bob"')
        for corrected in read_correction(actions):  # a list the count cannot read is refused
            _check_vote_target(ln, corrected.target)
    return Correction(
        ln.kind, ln.line, ln.at, action=action, target=target, actions=actions, note=ln.note
    )


# What a correction may name besides a player: the count reads these as no lynch or an unvote.
_NOT_PLAYERS = frozenset(normalise(w) for w in (*NO_LYNCH_WORDS, *UNVOTE_WORDS))


def _check_vote_target(ln: LedgerLine, target: str) -> None:
    """A correction's target is a player (any name of the slot), a no-lynch word or an unvote;
    any other name is refused with the nearest names, as a death's is (the count would drop
    the vote with a warning)."""
    norm = normalise(target)
    if not norm or norm in _NOT_PLAYERS:
        return
    try:
        ln.slot("target", target)
    except ValueError as exc:
        raise ValueError(
            f"{exc}; a correction votes for a player, 'no lynch' or 'unvote'"
        ) from None


def _chat_correction(ln: LedgerLine) -> Event:
    text = ln.obj.get("text")
    if ln.at.post is None or not isinstance(text, str):
        raise ValueError(
            'chat_correction needs "post" and "text": the announcement in the short form '
            '("CHAT CLOSE: Rex\'s chat with Rex, Neros"), or "" to ignore the post'
        )
    return ChatCorrection(ln.kind, ln.line, ln.at, text=text, note=ln.note)


def _night_result(ln: LedgerLine) -> Event:
    night, text = ln.whole("night"), ln.obj.get("text")
    if night is None or not isinstance(text, str) or not text.strip():
        raise ValueError('night_result needs "night": 0, 1, ... and "text": what they learned')
    phase = Phase(night, PhaseKind.NIGHT)
    plain = ln.obj.get("plain") is True
    return NightResult(
        ln.kind,
        ln.line,
        ln.at,
        phase=phase,
        slot=ln.slot("player"),
        text=text,
        plain=plain,
        note=ln.note,
    )


def _undo(ln: LedgerLine) -> Event:
    target, line = ln.obj.get("line"), ln.line
    if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target < line:
        raise ValueError(f'undo needs "line": the number of an earlier line (1 to {line - 1})')
    return Undo(ln.kind, line, ln.at, undone=target, note=ln.note)


def _ghost_vote(ln: LedgerLine) -> Event:
    """A ghost vote spent on a day the thread does not show."""
    day = ln.whole("day")
    if day is None:
        raise ValueError('ghost_vote needs "day"')
    return GhostVote(ln.kind, ln.line, ln.at, day=day, slot=ln.slot("player"), note=ln.note)


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


# --- writing: each kind's fields back to its ledger line -------------------------------------


def _point(e: Event) -> dict:
    out: dict = {}
    if e.at.thread and e.at.post is not None:
        out["thread"] = e.at.thread  # before the post it places, as the docs write it
    if e.at.post is not None:
        out["post"] = e.at.post
    if e.at.time is not None:
        out["time"] = e.at.time.isoformat()
    return out


def phase_field(phase: Phase | None) -> dict:
    """A phase as a ledger line writes it ("phase": "D2"), or nothing."""
    return {"phase": str(phase)} if phase is not None else {}


def night_field(phase: Phase | None) -> dict:
    """A night as a ledger line writes it ("night": 2), another phase as "phase"."""
    return {"night": phase.number} if phase is not None and phase.is_night else phase_field(phase)


def _boundary_fields(e: DayBoundary) -> dict:
    return {"day": e.day, "chats_closed": list(e.chats_closed) or None}


K = EventKind
# the core's kinds read here: class, reader, writer, and what makes two confirmed outcomes one
_READ_HERE: dict[str, EventType] = {
    t.kind.value: t
    for t in (
        EventType(K.DAY_START, DayBoundary, _day_boundary, _boundary_fields),
        EventType(K.DAY_END, DayBoundary, _day_boundary, _boundary_fields),
        EventType(
            K.DEATH,
            Death,
            _death,
            lambda e: {"player": e.slot, **phase_field(e.phase), "cause": e.cause},
            same=lambda e: (e.slot,),
        ),
        EventType(
            K.REVIVAL,
            Revival,
            _revival,
            lambda e: {"player": e.slot, **phase_field(e.phase)},
        ),
        EventType(
            K.REPLACEMENT, Replacement, _replacement, lambda e: {"player": e.slot, "by": e.by}
        ),
        EventType(K.VOTE_RESET, VoteReset, _vote_reset, lambda e: {}),
        EventType(
            K.CORRECTION,
            Correction,
            _correction,
            lambda e: {"action": e.action, "target": e.target, "actions": e.actions},
        ),
        EventType(K.GHOST_VOTE, GhostVote, _ghost_vote, lambda e: {"player": e.slot, "day": e.day}),
        EventType(K.UNDO, Undo, _undo, lambda e: {"line": e.undone}),
        EventType(K.CHAT_CORRECTION, ChatCorrection, _chat_correction, lambda e: {"text": e.text}),
        EventType(
            K.NIGHT_RESULT,
            NightResult,
            _night_result,
            lambda e: {
                "player": e.slot,
                **night_field(e.phase),
                "text": e.text,
                "plain": e.plain or None,
            },
            same=lambda e: (e.slot, e.phase, e.text),
        ),
    )
}


class _CoreKinds(Mapping):
    """Every core kind, in EventKind's order: those read here, and those only a game whose
    players have roles records (`role_events`, loaded when first asked for, as the games are)."""

    def __getitem__(self, kind: str) -> EventType:
        if kind in _READ_HERE:
            return _READ_HERE[kind]
        if kind not in _ORDER:
            raise KeyError(kind)
        return importlib.import_module(f"{__package__}.role_events").ROLE_EVENTS[kind]

    def __iter__(self) -> Iterator[str]:
        return iter(_ORDER)

    def __len__(self) -> int:
        return len(_ORDER)


_ORDER = tuple(k.value for k in EventKind)
CORE_EVENTS: Mapping[str, EventType] = _CoreKinds()


def event_to_json(e: Event, kinds: Sequence[EventType] = ()) -> dict:
    """The ledger line of an event, as `event_from_json` reads it back (fields left out when
    empty); a game's own kinds of event are written by the game's `kinds` (`Variant.events`)."""
    out = {"kind": e.kind.value, **event_type_of(e, kinds).write(e), **_point(e)}
    if e.note is not None:
        out["note"] = e.note
    return {k: v for k, v in out.items() if v is not None}
