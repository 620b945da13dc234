"""What a new ledger event must agree with before it is written: the thread, the phases the
game has reached, who is alive and what they hold.

`event_from_json` checks an event's own fields and `check_ledger` the ledger's lines together;
these rules check a new event against the state of the game, which a hand-edited ledger line
is not held to (the host may write history out of order). Each rule is one small function
that returns the problem in words, or None; `check_new_events` runs them all and raises the
first problem as a one-line error naming the fix.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ..errors import ModToolError
from .ledger import (
    LEDGER_FILE,
    Event,
    EventKind,
    Game,
    Phase,
    PhaseKind,
    event_from_json,
    event_type_of,
)
from .ledger.store import not_recorded

# (game, event, the thread's last post number or None when the thread could not be read)
Rule = Callable[[Game, Event, int | None], str | None]

# the kinds whose phase is the moment they happen
_PHASED = (EventKind.NIGHT_CHOICE, EventKind.NIGHT_RESULT, EventKind.REMINDER)


def _event_phase(game: Game, e: Event) -> Phase | None:
    if e.kind is EventKind.CHARACTER_CHANGE:
        return e.phase or game.phase_at(e.at)
    if e.kind is EventKind.DAY_ABILITY:
        return game.phase_at(e.at)
    if e.kind in _PHASED:
        return e.phase
    return None


def post_in_thread(game: Game, e: Event, last_post: int | None) -> str | None:
    """An event at a post must be at a post the thread has (else every later count refuses)."""
    if e.at.post is None or last_post is None or e.at.post <= last_post:
        return None
    return (
        f"post {e.at.post} is past the thread's last post ({last_post}); give a post the thread "
        "has, or read the thread again first if it has grown (modtool count --refresh)"
    )


def phase_reached(game: Game, e: Event, last_post: int | None) -> str | None:
    """A choice, reminder, night result or change of character belongs to a phase the game has
    reached: the current day, the night after a day that ended, or an earlier phase."""
    phase = _event_phase(game, e)
    now = game.current_phase()
    if phase is None or phase <= now:
        return None
    fix = (
        f"close Day {now.number} first (modtool end-day {game.folder})"
        if phase == Phase(now.number, PhaseKind.NIGHT)
        else f"the game is in {now.title}"
    )
    return f"{phase.title} has not been reached: {fix}"


def actor_alive(game: Game, e: Event, last_post: int | None) -> str | None:
    """A player acts while alive: no night choice by a player who died before that night (one
    who dies in the night, such as the Ravenkeeper, still chooses), no day ability the engine
    applies (a shot, a guess, a claim) by a player who died before the post where it was
    announced."""
    if e.kind not in (EventKind.NIGHT_CHOICE, EventKind.DAY_ABILITY) or e.slot is None:
        return None
    if e.kind is EventKind.DAY_ABILITY and e.ability == "other":
        return None  # an ability the engine does not know may be a dead player's (the Klutz)
    phase = _event_phase(game, e)
    if phase is None:
        return None
    death = game.dead_before(e.slot, phase)
    if death is None and e.kind is EventKind.DAY_ABILITY:
        death = next(
            (
                d
                for d in game.deaths()
                if d.slot == e.slot
                and d.phase is None
                and d.at.post is not None
                and e.at.post is not None
                and d.at.post < e.at.post
            ),
            None,
        )
    if death is None:
        return None
    return (
        f"{e.slot} is dead by then (ledger line {death.line}); the dead do not act: check the "
        "player and the phase"
    )


def day_starts_in_turn(game: Game, e: Event, last_post: int | None) -> str | None:
    """A day-start is for the next day at most: one further on would leave the days between
    never played, yet counted (a day already started is check_ledger's to refuse)."""
    if e.kind is not EventKind.DAY_START:
        return None
    latest = game.days()[-1].day
    if e.day <= latest + 1:
        return None
    at = f"--post {e.at.post}" if e.at.post is not None else "--post POST"
    return (
        f"Day {e.day} is not the next day: the ledger's latest is Day {latest}, so Day "
        f"{latest + 1} comes next; record its start (modtool record day-start {game.folder} "
        f"{latest + 1} {at})"
    )


def day_ends_a_day_begun(game: Game, e: Event, last_post: int | None) -> str | None:
    """A day-end is for a day the ledger has begun: one further on would make the days
    between out of nothing (Day 6 ended while Day 4 is open)."""
    if e.kind is not EventKind.DAY_END:
        return None
    latest = game.days()[-1]
    if e.day <= latest.day:
        return None
    then = (
        f"end Day {latest.day} first (modtool end-day {game.folder})"
        if latest.end is None
        else f"record Day {latest.day + 1}'s start first (modtool record day-start "
        f"{game.folder} {latest.day + 1} --post POST)"
    )
    return f"Day {e.day} has not begun: the ledger's latest is Day {latest.day}; {then}"


def reminder_ends_after_it_starts(game: Game, e: Event, last_post: int | None) -> str | None:
    if e.kind is not EventKind.REMINDER or not e.until or e.until == "game" or e.phase is None:
        return None
    until = Phase.parse(e.until)
    if until >= e.phase:
        return None
    return f"a reminder given in {e.phase.title} cannot end in {until.title}, before it starts"


RULES: tuple[Rule, ...] = (
    post_in_thread,
    phase_reached,
    actor_alive,
    day_starts_in_turn,
    day_ends_a_day_begun,
    reminder_ends_after_it_starts,
)


def check_new_events(
    game: Game,
    objs: Sequence[dict],
    last_post: int | None,
    extra: Sequence[Rule] = (),
) -> None:
    """Raise the first problem any rule finds with the new events (GameFileError, naming the
    ledger: an event refused is not in it, so no line of it is cited)."""
    path = game.folder / LEDGER_FILE
    written = path.read_bytes().count(b"\n") if path.is_file() else 0
    line = written + 1  # the line each event would have: an undo's target comes before it
    for i, obj in enumerate(objs):
        try:
            event = event_from_json(obj, line + i, game)
        except ValueError as exc:
            raise not_recorded(path, str(exc)) from None
        for rule in (*RULES, *extra):
            problem = rule(game, event, last_post)
            if problem:
                raise not_recorded(path, f"{obj.get('kind')}: {problem}")


def require_reached(game: Game, phase: Phase, preview: bool = False) -> None:
    """A phase asked about (a grimoire, a night sheet, a draft) is one the game has reached;
    with `preview`, also the night after the current day (a sheet to prepare it with)."""
    now = game.current_phase()
    upcoming = Phase(now.number, PhaseKind.NIGHT)
    if phase > now and not (preview and phase == upcoming):
        raise ModToolError(
            f"{phase.title} has not been reached: the game is in {now.title} (ledger "
            f"{game.folder / LEDGER_FILE}); give a phase up to {now.title}"
        )


def refuse_when_won(game: Game, phase: Phase) -> None:
    """Nothing runs after the game was won (the game's own win check says who and why)."""
    won = game.variant.win_before(game, phase)
    if won:
        raise ModToolError(
            f"the game is over: {won} before {phase.title}; there is nothing more to run "
            "(undo the death in the ledger if it was a mistake)"
        )


def already_recorded(game: Game, event: Event) -> bool:
    """Whether the ledger already holds this outcome (so confirming twice adds nothing): an
    event of the same kind that its kind's `same` calls the same one (the slot's death; its
    master for that day; the same reminder in the same phase; a change of character in the
    same phase)."""
    how = event_type_of(event, game.variant.events)
    if how.same is None:
        return False
    key = how.same(event)
    return any(type(e) is type(event) and how.same(e) == key for e in game.events)


def last_post_of(posts: Sequence | None) -> int | None:
    """The highest post number of the thread's posts, or None."""
    numbers = [p.number for p in posts or () if p.number is not None]
    return max(numbers) if numbers else None


def rules_by_name() -> Mapping[str, Rule]:
    return {rule.__name__: rule for rule in RULES}
