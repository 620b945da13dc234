"""The kinds of ledger event only a game whose players have roles records: the setup drawn,
the players chosen in a night, reminders, character changes and day abilities.

They are core kinds (`CORE_EVENTS` lists them, and a ledger of a game without roles that
holds one is told it needs a script), but their classes and readers are here, loaded when a
ledger first holds one: a count of a game without roles never loads them.
"""

from __future__ import annotations

from ...threads.frozen import frozen
from .events import EventType, LedgerLine, night_field, phase_field
from .model import Event, EventKind, Phase, PhaseKind


@frozen
class Setup(Event):
    """The characters and seats drawn (modtool setup draw); overrides game.toml."""

    seed: int | None = None
    seats: tuple[tuple[str, int, str, str | None], ...] = ()  # (slot, seat, role, shown)
    bluffs: tuple[str, ...] = ()
    red_herring: str | None = None  # a slot
    forced: bool = False  # drawn with --force after the game had started (the note says why)


@frozen
class NightChoice(Event):
    """The players (and character or ability) a player chose in a night."""

    targets: tuple[str, ...] = ()  # the chosen players' slots, in order
    character: str | None = None  # a character chosen or guessed (the Gambler's)
    ability: str | None = None  # which ability, for a role that has several


@frozen
class ReminderEvent(Event):
    """A reminder placed on a player from a phase on (poisoned, drunk, protected, ...)."""

    reminder: str = ""  # poisoned, drunk, protected, ... or the host's own word
    by: str | None = None  # the character that placed it
    until: str | None = None  # "D3", "N2", "game", or None: the reminder's own lifetime


@frozen
class CharacterChange(Event):
    """A new character and/or alignment for a player from a point on."""

    character: str | None = None
    alignment: str | None = None
    cause: str | None = None  # star-pass, ascension, conversion, ...


@frozen
class DayAbility(Event):
    """A day ability the host announced at a post (a shot at a player, a guess, ...)."""

    ability: str = ""  # the ability's name, as the game lists it (Variant.day_abilities)
    target: str | None = None  # the slot it is used on
    guess: str | None = None  # a character guessed (the Juggler's)


# --- each kind, read ------------------------------------------------------------


def _night_choice(ln: LedgerLine) -> Event:
    ln.needs_roles()
    slot, night, targets = ln.slot("player"), ln.whole("night"), ln.obj.get("targets", [])
    if night is None or not isinstance(targets, list):
        raise ValueError('night_choice needs "night" and "targets": [player, ...]')
    chosen = tuple(ln.slot("targets", t) for t in targets)
    character = ln.role("character", "night_choice:")
    ability = ln.obj.get("ability")
    if ability is not None and not isinstance(ability, str):
        raise ValueError('night_choice "ability" must be text, like "drain"')
    return NightChoice(
        ln.kind,
        ln.line,
        ln.at,
        slot=slot,
        phase=Phase(night, PhaseKind.NIGHT),
        targets=chosen,
        character=character,
        ability=ability,
        note=ln.note,
    )


def _reminder(ln: LedgerLine) -> Event:
    ln.needs_roles()
    slot, reminder = ln.slot("player"), ln.obj.get("reminder")
    if not isinstance(reminder, str) or not reminder.strip():
        known = ", ".join(ln.game.variant.reminders)
        raise ValueError(f'reminder needs "reminder": {known}, or your own word')
    until = ln.obj.get("until")
    if until is not None and until != "game":
        try:
            Phase.parse(until)
        except ValueError:
            raise ValueError('reminder "until" must look like "D3", "N2" or "game"') from None
    return ReminderEvent(
        ln.kind,
        ln.line,
        ln.at,
        slot=slot,
        phase=ln.phase("reminder"),
        reminder=reminder.strip().lower().replace(" ", "_"),
        by=ln.role("by", "reminder: 'by'"),
        until=until,
        note=ln.note,
    )


def _character_change(ln: LedgerLine) -> Event:
    ln.needs_roles()
    obj, slot = ln.obj, ln.slot("player")
    character, alignment = obj.get("character"), obj.get("alignment")
    if character is None and alignment is None:
        raise ValueError('character_change needs "character" and/or "alignment"')
    found = ln.role("character", "character_change:")
    if alignment not in (None, "good", "evil"):
        raise ValueError('character_change "alignment" must be "good" or "evil"')
    if ln.at.post is None and "phase" not in obj:
        raise ValueError('character_change needs "phase" ("N2") or "post" where it happened')
    phase = ln.phase("character_change") if "phase" in obj else None
    return CharacterChange(
        ln.kind,
        ln.line,
        ln.at,
        slot=slot,
        phase=phase,
        character=found,
        alignment=alignment,
        cause=obj.get("cause"),
        note=ln.note,
    )


def _day_ability(ln: LedgerLine) -> Event:
    """A day ability announced by the host at a post."""
    ln.needs_roles()
    slot, variant, ability = ln.slot("player"), ln.game.variant, ln.obj.get("ability")
    if ability not in variant.day_abilities:
        known = ", ".join(variant.day_abilities) or "none in this game"
        raise ValueError(f'day_ability "ability" must be one of: {known}')
    if ln.at.post is None:
        raise ValueError('day_ability needs "post": where the host announced it')
    target = ln.slot("target") if ln.obj.get("target") is not None else None
    guess = ln.role("character", "day_ability: character")
    if ability == "juggle" and (target is None or guess is None):
        raise ValueError('a juggle needs "target" and "character": one guess per event')
    return DayAbility(
        ln.kind,
        ln.line,
        ln.at,
        slot=slot,
        ability=ability,
        target=target,
        guess=guess,
        note=ln.note,
    )


def _setup(ln: LedgerLine) -> Event:
    game, obj = ln.game, ln.obj
    if not game.variant.has_roles:
        raise ValueError('setup needs script = "..." in game.toml')
    players = obj.get("players")
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
        raise ValueError('setup needs "players": [{"player", "seat", "role"}, ...]')
    seats = []
    for p in players:
        slot = ln.slot("player", p.get("player"))
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
    herring = ln.slot("red_herring", herring) if herring is not None else None
    return Setup(
        ln.kind,
        ln.line,
        ln.at,
        seed=ln.whole("seed"),
        red_herring=herring,
        seats=tuple(seats),
        bluffs=tuple(bluffs),
        forced=obj.get("forced") is True,
        note=ln.note,
    )


# --- and written back ----------------------------------------------------------


def _setup_fields(e: Setup) -> dict:
    players = [
        {"player": p, "seat": seat, "role": role, **({"shown": shown} if shown else {})}
        for p, seat, role, shown in e.seats
    ]
    return {
        "seed": e.seed,
        "players": players,
        "bluffs": list(e.bluffs),
        "red_herring": e.red_herring,
        "forced": e.forced or None,
    }


def _choice_fields(e: NightChoice) -> dict:
    return {
        "player": e.slot,
        **night_field(e.phase),
        "targets": list(e.targets),
        "character": e.character,
        "ability": e.ability,
    }


def _reminder_fields(e: ReminderEvent) -> dict:
    return {
        "player": e.slot,
        **night_field(e.phase),
        "reminder": e.reminder,
        "by": e.by,
        "until": e.until,
    }


def _change_fields(e: CharacterChange) -> dict:
    return {
        "player": e.slot,
        **phase_field(e.phase),
        "character": e.character,
        "alignment": e.alignment,
        "cause": e.cause,
    }


def _ability_fields(e: DayAbility) -> dict:
    return {"player": e.slot, "ability": e.ability, "target": e.target, "character": e.guess}


K = EventKind
# each kind's class, reader and writer, and what makes two confirmed outcomes one
ROLE_EVENTS: dict[str, EventType] = {
    t.kind.value: t
    for t in (
        EventType(K.SETUP, Setup, _setup, _setup_fields),
        EventType(
            K.REMINDER,
            ReminderEvent,
            _reminder,
            _reminder_fields,
            same=lambda e: (e.slot, e.reminder, e.phase),
        ),
        EventType(
            K.CHARACTER_CHANGE,
            CharacterChange,
            _character_change,
            _change_fields,
            same=lambda e: (e.slot, e.phase),
        ),
        EventType(K.DAY_ABILITY, DayAbility, _day_ability, _ability_fields),
        EventType(K.NIGHT_CHOICE, NightChoice, _night_choice, _choice_fields),
    )
}
