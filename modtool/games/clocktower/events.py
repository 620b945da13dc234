"""The ledger events only Clocktower has, registered with the engine through
`Clocktower.events`: the Butler's master for a day."""

from __future__ import annotations

from enum import StrEnum

from ...core.ledger import Event, EventType, Game, LedgerLine, Phase, PhaseKind
from ...threads.frozen import frozen


class ClocktowerEventKind(StrEnum):
    MASTER = "master"  # the Butler's master for a day


@frozen
class Master(Event):
    day: int = 0
    master: str = ""  # the Butler's master's slot


def read_master(ln: LedgerLine) -> Master:
    ln.needs_roles()
    slot, day = ln.slot("player"), ln.whole("day")
    if day is None:
        raise ValueError('master needs "day": the day the master counts for')
    master = ln.slot("master")
    if master == slot:
        raise ValueError("master: the Butler cannot choose themself")
    return Master(ln.kind, ln.line, ln.at, day=day, slot=slot, master=master, note=ln.note)


EVENTS = (
    EventType(
        ClocktowerEventKind.MASTER,
        Master,
        read_master,
        lambda e: {"player": e.slot, "master": e.master, "day": e.day},
        same=lambda e: (e.slot, e.day),
    ),
)


def master_day_reached(game: Game, e: Event, last_post: int | None) -> str | None:
    """The Butler chooses a master at night for the next day: at most the day after the
    current phase's night."""
    if not isinstance(e, Master):
        return None
    now = game.current_phase()
    latest = now.number + 1 if now.kind is PhaseKind.NIGHT else now.number
    if e.day <= latest:
        return None
    return f"Day {e.day} has not been reached (the game is in {now.title}); give --day {latest}"


def master_chosen_by_a_living_butler(game: Game, e: Event, last_post: int | None) -> str | None:
    """ "Each night, choose a player (not yourself): tomorrow, you may only vote if they are
    voting too" (the almanac): the master is chosen by the Butler, alive in the night before
    the day it counts for."""
    if not isinstance(e, Master):
        return None
    night = Phase(e.day - 1, PhaseKind.NIGHT)
    role = game.role_at(e.slot, night)
    if role != "butler":
        shown = game.variant.role_name(role) if role else "no character"
        return f"{e.slot} is not the Butler ({shown} in {night.title}); give the Butler's name"
    death = game.dead_before(e.slot, night)
    if death is not None:
        line = death.line
        return f"{e.slot} is dead by {night.title} (ledger line {line}); the dead choose no master"
    return None


def masters(game: Game) -> list[Master]:
    """The Butler's masters the ledger holds."""
    return [e for e in game.events if isinstance(e, Master)]
