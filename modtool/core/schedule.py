"""Deadlines: when each phase starts and ends, from the `[schedule]` of game.toml and the
ledger, in the game's timezone.

Two shapes, both data:

    [schedule]                      # fixed lengths
    start = "2026-11-02T12:00"      # Day 1 starts (game timezone)
    first_day = "96h"               # Day 1 lasts four days
    day = "72h"                     # later days
    night = "host"                  # a night ends when the host starts the next day

    [schedule]                      # or a weekday calendar
    start = "2026-11-02"            # the date Day 1 starts
    turn = "00:00"                  # the wall-clock time at which a weekday begins
    weekdays = { monday = "day", tuesday = "day", wednesday = "night", thursday = "day",
                 friday = "day", saturday = "night", sunday = "night" }

A length in hours is that many real hours, across a change of clocks; a calendar boundary is
a wall-clock time, and stays at that time when the clocks change. What the ledger records
(a day's start or end with a time, or a post whose time is known) wins over the schedule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from ..errors import GameFileError
from ..threads.frozen import frozen
from ..threads.posts import Post
from ..threads.times import UTC
from .ledger import EventKind, Game, Phase, PhaseKind
from .ledger.schedule_table import MAX_PHASES, Schedule


@frozen
class ScheduledPhase:
    """A phase with its start and deadline, from the ledger or the schedule."""

    phase: Phase
    start: datetime | None
    deadline: datetime | None  # None: ends when the host says
    recorded: bool = False  # the start comes from the ledger, not the schedule
    over: str | None = None  # the game was won before this phase, which never comes: who, why


def add_real_hours(moment: datetime, length: timedelta) -> datetime:
    """`length` of real time later, shown in the same zone: 72 hours across a change of clocks
    is 72 hours, though the wall clock then reads an hour off."""
    return (moment.astimezone(UTC) + length).astimezone(moment.tzinfo)


# --- the phases --------------------------------------------------------------------------------


def phases(
    game: Game, schedule: Schedule, posts: Sequence[Post] = (), count: int = 10
) -> list[ScheduledPhase]:
    """Day 1, Night 1, Day 2, ... as far as `count` phases, each with its start and deadline;
    the ledger's recorded times win over the schedule's."""
    recorded = _recorded_times(game, posts)
    if schedule.weekdays is not None:
        planned = _calendar(schedule, count)
    else:
        planned = None
    out: list[ScheduledPhase] = []
    cursor = schedule.start
    for i in range(min(count, MAX_PHASES)):
        number, kind = i // 2 + 1, PhaseKind.DAY if i % 2 == 0 else PhaseKind.NIGHT
        phase = Phase(number, kind)
        if planned is not None:
            start, deadline = planned[i]
        else:
            start = cursor
            if kind is PhaseKind.DAY:
                length = schedule.first_day if number == 1 else schedule.day
                deadline = add_real_hours(start, length) if start else None
            else:
                deadline = (
                    add_real_hours(start, schedule.night) if start and schedule.night else None
                )
        mark = False
        if kind is PhaseKind.DAY and ("start", number) in recorded:
            start, mark = recorded[("start", number)], True
            if planned is None:
                length = schedule.first_day if number == 1 else schedule.day
                deadline = add_real_hours(start, length)
        if kind is PhaseKind.DAY and ("end", number) in recorded:
            deadline = recorded[("end", number)]
        if kind is PhaseKind.NIGHT and ("start", number + 1) in recorded and planned is None:
            deadline = recorded[("start", number + 1)]
        out.append(ScheduledPhase(phase, start, deadline, mark))
        cursor = deadline
    return out


def _calendar(schedule: Schedule, count: int) -> list[tuple[datetime, datetime]]:
    """Runs of weekdays of one kind, from the start date: each run is one phase, from the
    `turn` of its first weekday to the `turn` after its last, in wall-clock time."""
    kinds = schedule.weekdays
    day0 = schedule.start.date()
    if kinds[day0.weekday()] != "day":
        raise ValueError(f"[schedule] start {day0} is a {kinds[day0.weekday()]} by the weekdays")
    tz = schedule.start.tzinfo
    out: list[tuple[datetime, datetime]] = []
    current = day0
    while len(out) < count:
        kind = kinds[current.weekday()]
        end = current
        while kinds[end.weekday()] == kind:
            end += timedelta(days=1)
        start_at = schedule.start if not out else datetime.combine(current, schedule.turn, tz)
        out.append((start_at, datetime.combine(end, schedule.turn, tzinfo=tz)))
        current = end
    return out


def _recorded_times(game: Game, posts: Sequence[Post]) -> dict[tuple[str, int], datetime]:
    times: dict[tuple[str, int], datetime] = {}
    by_number = {(p.thread, p.number): p.time for p in posts if p.time is not None}
    for e in game.events:
        if e.kind not in (EventKind.DAY_START, EventKind.DAY_END):
            continue
        moment = e.at.time or by_number.get((e.at.thread, e.at.post))
        if moment is not None:
            times[("start" if e.kind is EventKind.DAY_START else "end", e.day)] = moment
    return times


def day_deadlines(
    game: Game, posts: Sequence[Post], now: datetime | None = None
) -> dict[int, datetime]:
    """The deadline of each day that has passed by `now` (default: the clock): a day with no
    recorded end ends there, and posts after it do not count for it."""
    if game.schedule is None:
        return {}
    now = now or datetime.now(UTC)
    days = max((w.day for w in game.days()), default=1)
    found = {}
    for p in phases(game, game.schedule, posts, count=2 * days):
        if p.phase.kind is PhaseKind.DAY and p.deadline is not None and p.deadline <= now:
            found[p.phase.number] = p.deadline
    return found


def game_phases(game: Game, count: int = 10, posts: Sequence[Post] = ()) -> list[ScheduledPhase]:
    """The phases of a game folder's schedule (ModToolError when it has none)."""
    if game.schedule is None:
        raise GameFileError(
            game.folder / "game.toml",
            "no [schedule]; add one with start and day lengths or weekdays "
            "(see `modtool docs game-folder`)",
        )
    try:
        found = phases(game, game.schedule, posts, count)
    except ValueError as exc:
        raise GameFileError(game.folder / "game.toml", str(exc)) from None
    return until_over(game, found)


def until_over(game: Game, found: Sequence[ScheduledPhase]) -> list[ScheduledPhase]:
    """The phases up to the game's end: the first phase the game was won before (the game's
    own win check, as every command asks it) is the last listed, without times, saying who
    won."""
    for i, p in enumerate(found):
        won = game.variant.win_before(game, p.phase)
        if won:
            return [*found[:i], replace(p, start=None, deadline=None, recorded=False, over=won)]
    return list(found)


def _scheduled_day(game: Game, day: int, posts: Sequence[Post]):
    """Day `day` as the schedule and the ledger place it, or None without a schedule."""
    if game.schedule is None:
        return None
    wanted = Phase(day, PhaseKind.DAY)
    return next(
        (p for p in phases(game, game.schedule, posts, count=2 * day) if p.phase == wanted), None
    )


def day_deadline(game: Game, day: int, posts: Sequence[Post] = ()) -> datetime | None:
    """Day `day`'s deadline by the schedule and the ledger, or None (no schedule, or the host
    decides)."""
    found = _scheduled_day(game, day, posts)
    return found.deadline if found else None


def day_start(game: Game, day: int, posts: Sequence[Post] = ()) -> datetime | None:
    """When Day `day` starts by the schedule and the ledger, or None (no schedule, or a night
    the host ends and the ledger has not started the day yet)."""
    found = _scheduled_day(game, day, posts)
    return found.start if found else None


def time_left(delta: timedelta) -> str:
    """ "2d 3h 5m", "4h 0m"; "" once the moment has passed."""
    if delta.total_seconds() <= 0:
        return ""
    minutes = int(delta.total_seconds()) // 60
    days, rest = divmod(minutes, 24 * 60)
    return f"{days}d {rest // 60}h {rest % 60}m" if days else f"{rest // 60}h {rest % 60}m"
