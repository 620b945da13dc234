"""events.jsonl: each line read into an `Event`, its fields checked."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, tzinfo
from pathlib import Path

from ...errors import GameFileError
from ..names import did_you_mean, normalise
from ..votes import read_correction
from .model import (
    SETUP_FILE,
    CharacterChange,
    ChatCorrection,
    Correction,
    DayAbility,
    DayBoundary,
    Death,
    Event,
    EventKind,
    Game,
    GhostVote,
    Master,
    NightChoice,
    NightResult,
    Phase,
    PhaseKind,
    PostRef,
    ReminderEvent,
    Replacement,
    Setup,
    Undo,
    VoteReset,
)
from .setup import MAX_DAY


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
                if normalise(r.by) == normalise(name):
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
        return DayBoundary(kind, line, at, day=day)
    if kind is EventKind.DEATH:
        phase = obj.get("phase")
        if phase is not None:
            try:
                phase = Phase.parse(phase)
            except ValueError:
                raise ValueError('death "phase" must look like "D2" or "N1"') from None
        if phase is None and at.post is None and at.time is None:
            raise ValueError('death needs "phase" ("D2", "N1") or "post" where it happened')
        return Death(
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
            (r.slot for r in replaced if normalise(r.by) == normalise(by)), None
        )
        holder = next((r.by for r in reversed(replaced) if r.slot == slot), slot)
        if taken is not None and taken != slot:
            raise ValueError(
                f"replacement: {by!r} is already in the game (the slot of {taken}); "
                "a replacement brings a player from outside the game"
            )
        if normalise(by) == normalise(holder):
            raise ValueError(f"replacement: {by!r} already holds {slot!r}'s slot")
        if normalise(by) in {normalise(h) for h in game.hosts}:
            raise ValueError(f"replacement: {by!r} is a host")
        return Replacement(kind, line, at, slot=slot, by=by)
    if kind is EventKind.VOTE_RESET:
        if at.post is None and at.time is None:
            raise ValueError('vote_reset needs "post"')
        return VoteReset(kind, line, at, note=obj.get("note"))
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
        return Correction(
            kind, line, at, action=action, target=target, actions=actions, note=obj.get("note")
        )
    if kind is EventKind.CHAT_CORRECTION:
        text = obj.get("text")
        if at.post is None or not isinstance(text, str):
            raise ValueError(
                'chat_correction needs "post" and "text": the announcement in the short form '
                '("CHAT CLOSE: Rex\'s chat with Rex, Neros"), or "" to ignore the post'
            )
        return ChatCorrection(kind, line, at, text=text)
    if kind is EventKind.NIGHT_RESULT:
        night = _int(obj, "night")
        text = obj.get("text")
        if night is None or not isinstance(text, str) or not text.strip():
            raise ValueError('night_result needs "night": 0, 1, ... and "text": what they learned')
        phase = Phase(night, PhaseKind.NIGHT)
        plain = obj.get("plain") is True
        return NightResult(
            kind, line, at, phase=phase, slot=slot_of("player"), text=text, plain=plain
        )
    if kind is EventKind.SETUP:
        return _setup_event(obj, line, at, game, slot_of)
    if kind in GRIMOIRE_KINDS:
        return _grimoire_event(kind, obj, line, at, game, slot_of)
    if kind is EventKind.UNDO:
        target = obj.get("line")
        if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target < line:
            raise ValueError(f'undo needs "line": the number of an earlier line (1 to {line - 1})')
        return Undo(kind, line, at, undone=target, note=obj.get("note"))
    # GHOST_VOTE: a ghost vote spent on a day the thread does not show
    if day is None:
        raise ValueError('ghost_vote needs "day"')
    return GhostVote(kind, line, at, day=day, slot=slot_of("player"))


GRIMOIRE_KINDS = (
    EventKind.NIGHT_CHOICE,
    EventKind.REMINDER,
    EventKind.MASTER,
    EventKind.CHARACTER_CHANGE,
    EventKind.DAY_ABILITY,
)


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


def _grimoire_event(kind, obj: dict, line: int, at: PostRef, game: Game, slot_of) -> Event:
    if not game.variant.has_roles:
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
        return Master(kind, line, at, day=day, slot=slot, master=master, note=note)
    if kind is EventKind.NIGHT_CHOICE:
        night = _int(obj, "night")
        targets = obj.get("targets", [])
        if night is None or not isinstance(targets, list):
            raise ValueError('night_choice needs "night" and "targets": [player, ...]')
        chosen = tuple(slot_of("targets", t) for t in targets)
        character = obj.get("character")
        found = game.variant.find_role(character) if isinstance(character, str) else None
        if character is not None and found is None:
            raise ValueError(f"night_choice: {character!r} is not on the script")
        ability = obj.get("ability")
        if ability is not None and not isinstance(ability, str):
            raise ValueError('night_choice "ability" must be text, like "drain"')
        return NightChoice(
            kind,
            line,
            at,
            slot=slot,
            phase=Phase(night, PhaseKind.NIGHT),
            targets=chosen,
            character=found,
            ability=ability,
            note=note,
        )
    if kind is EventKind.REMINDER:
        reminder = obj.get("reminder")
        if not isinstance(reminder, str) or not reminder.strip():
            known = ", ".join(game.variant.reminders)
            raise ValueError(f'reminder needs "reminder": {known}, or your own word')
        until = obj.get("until")
        if until is not None and until != "game":
            try:
                Phase.parse(until)
            except ValueError:
                raise ValueError('reminder "until" must look like "D3", "N2" or "game"') from None
        by = obj.get("by")
        found = game.variant.find_role(by) if isinstance(by, str) else None
        if by is not None and found is None:
            raise ValueError(f"reminder: 'by' {by!r} is not on the script")
        return ReminderEvent(
            kind,
            line,
            at,
            slot=slot,
            phase=_phase_of(obj, "reminder"),
            reminder=reminder.strip().lower().replace(" ", "_"),
            by=found,
            until=until,
            note=note,
        )
    if kind is EventKind.CHARACTER_CHANGE:
        character, alignment = obj.get("character"), obj.get("alignment")
        if character is None and alignment is None:
            raise ValueError('character_change needs "character" and/or "alignment"')
        found = game.variant.find_role(character) if isinstance(character, str) else None
        if character is not None and found is None:
            raise ValueError(f"character_change: {character!r} is not on the script")
        if alignment not in (None, "good", "evil"):
            raise ValueError('character_change "alignment" must be "good" or "evil"')
        if at.post is None and "phase" not in obj:
            raise ValueError('character_change needs "phase" ("N2") or "post" where it happened')
        phase = _phase_of(obj, "character_change") if "phase" in obj else None
        return CharacterChange(
            kind,
            line,
            at,
            slot=slot,
            phase=phase,
            character=found,
            alignment=alignment,
            cause=obj.get("cause"),
            note=note,
        )
    # DAY_ABILITY: announced by the host at a post
    ability = obj.get("ability")
    if ability not in game.variant.day_abilities:
        known = ", ".join(game.variant.day_abilities) or "none in this game"
        raise ValueError(f'day_ability "ability" must be one of: {known}')
    if at.post is None:
        raise ValueError('day_ability needs "post": where the host announced it')
    target = slot_of("target") if obj.get("target") is not None else None
    guess = obj.get("character")
    found = game.variant.find_role(guess) if isinstance(guess, str) else None
    if guess is not None and found is None:
        raise ValueError(f"day_ability: character {guess!r} is not on the script")
    if ability == "juggle" and (target is None or found is None):
        raise ValueError('a juggle needs "target" and "character": one guess per event')
    return DayAbility(
        kind,
        line,
        at,
        slot=slot,
        ability=ability,
        target=target,
        guess=found,
        note=note,
    )


def _setup_event(obj: dict, line: int, at: PostRef, game: Game, slot_of) -> Event:
    if not game.variant.has_roles:
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
            char = game.variant.find_role(value) if isinstance(value, str) else None
            if char is None:
                raise ValueError(f"setup: {slot}'s {key} {value!r} is not on the script")
            found[key] = char
        seats.append((slot, seat, found["role"], found["shown"]))
    bluffs = []
    for b in obj.get("bluffs", []):
        char = game.variant.find_role(b) if isinstance(b, str) else None
        if char is None:
            raise ValueError(f"setup: bluff {b!r} is not on the script")
        bluffs.append(char)
    herring = obj.get("red_herring")
    herring = slot_of("red_herring", herring) if herring is not None else None
    return Setup(
        EventKind.SETUP,
        line,
        at,
        seed=_int(obj, "seed"),
        red_herring=herring,
        seats=tuple(seats),
        bluffs=tuple(bluffs),
        forced=obj.get("forced") is True,
        note=obj.get("note"),
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


# --- writing: each kind's fields back to its ledger line -------------------------------------


def _point(e: Event) -> dict:
    out: dict = {}
    if e.at.post is not None:
        out["post"] = e.at.post
    if e.at.time is not None:
        out["time"] = e.at.time.isoformat()
    if e.at.thread:
        out["thread"] = e.at.thread
    return out


def _phase_field(phase: Phase | None) -> dict:
    return {"phase": str(phase)} if phase is not None else {}


def _night(phase: Phase | None) -> dict:
    return {"night": phase.number} if phase is not None and phase.is_night else _phase_field(phase)


WRITERS: dict[type[Event], Callable[[Event], dict]] = {
    DayBoundary: lambda e: {"day": e.day},
    Death: lambda e: {"player": e.slot, **_phase_field(e.phase), "cause": e.cause},
    Replacement: lambda e: {"player": e.slot, "by": e.by},
    VoteReset: lambda e: {},
    Correction: lambda e: {"action": e.action, "target": e.target, "actions": e.actions},
    ChatCorrection: lambda e: {"text": e.text},
    NightResult: lambda e: {"player": e.slot, **_night(e.phase), "text": e.text},
    Setup: lambda e: {
        "seed": e.seed,
        "players": [
            {"player": p, "seat": seat, "role": role, **({"shown": shown} if shown else {})}
            for p, seat, role, shown in e.seats
        ],
        "bluffs": list(e.bluffs),
        "red_herring": e.red_herring,
        "forced": e.forced or None,
    },
    Undo: lambda e: {"line": e.undone},
    GhostVote: lambda e: {"player": e.slot, "day": e.day},
    NightChoice: lambda e: {
        "player": e.slot,
        **_night(e.phase),
        "targets": list(e.targets),
        "character": e.character,
        "ability": e.ability,
    },
    ReminderEvent: lambda e: {
        "player": e.slot,
        **_night(e.phase),
        "reminder": e.reminder,
        "by": e.by,
        "until": e.until,
    },
    Master: lambda e: {"player": e.slot, "master": e.master, "day": e.day},
    CharacterChange: lambda e: {
        "player": e.slot,
        **_phase_field(e.phase),
        "character": e.character,
        "alignment": e.alignment,
        "cause": e.cause,
    },
    DayAbility: lambda e: {
        "player": e.slot,
        "ability": e.ability,
        "target": e.target,
        "character": e.guess,
    },
}


def event_to_json(e: Event) -> dict:
    """The ledger line of an event, as `event_from_json` reads it back (fields left out when
    empty); the table above holds each kind's writer."""
    out = {"kind": e.kind.value, **WRITERS[type(e)](e), **_point(e)}
    if e.note is not None:
        out["note"] = e.note
    return {k: v for k, v in out.items() if v is not None}
