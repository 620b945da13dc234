"""game.toml's [schedule]: when Day 1 starts and how long days and nights last, checked into a
`Schedule` (core.schedule lays it on the game's days)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime, time, timedelta, tzinfo

from ...threads.frozen import frozen
from ...threads.patterns import lazy

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_HOURS = lazy(r"^\s*(\d+(?:\.\d+)?)\s*h(?:ours?)?\s*$", re.I)
MAX_PHASES = 200


@frozen
class Schedule:
    """The `[schedule]` table, read."""

    start: datetime
    first_day: timedelta | None = None
    day: timedelta | None = None
    night: timedelta | None = None  # None: the host ends each night
    weekdays: tuple[str, ...] | None = None  # "day" or "night" for Monday..Sunday
    turn: time = time(0, 0)


def schedule_from_table(table: Mapping[str, object], tz: tzinfo) -> Schedule:
    """A Schedule from game.toml's [schedule]; ValueError names the bad key."""
    known = {"start", "first_day", "day", "night", "weekdays", "turn"}
    unknown = set(table) - known
    if unknown:
        raise ValueError(f"[schedule]: unknown key {sorted(unknown)[0]!r}; known: {sorted(known)}")
    raw_start = table.get("start")
    if not isinstance(raw_start, str | date):
        raise ValueError('[schedule] needs start = "2026-11-02T12:00" (when Day 1 starts)')
    turn = _clock(table.get("turn", "00:00"))
    start = _moment(raw_start, tz, turn)
    if not YEARS[0] <= start.year <= YEARS[1]:
        raise ValueError(
            f"[schedule] start {str(raw_start)!r} is not a date a game starts on (years "
            f"{YEARS[0]} to {YEARS[1]})"
        )
    weekdays = table.get("weekdays")
    if weekdays is not None:
        if not isinstance(weekdays, Mapping) or set(weekdays) != set(WEEKDAYS):
            raise ValueError('[schedule] weekdays must name all seven days, e.g. monday = "day"')
        kinds = tuple(str(weekdays[d]) for d in WEEKDAYS)
        if set(kinds) - {"day", "night"} or "day" not in kinds or "night" not in kinds:
            raise ValueError('[schedule] weekdays are each "day" or "night", with some of each')
        return Schedule(start=start, weekdays=kinds, turn=turn)
    day = _length(table.get("day"), "day")
    if day is None:
        raise ValueError('[schedule] needs day = "72h" (or weekdays = {...})')
    night = table.get("night", "host")
    return Schedule(
        start=start,
        first_day=_length(table.get("first_day"), "first_day") or day,
        day=day,
        night=None if night == "host" else _length(night, "night"),
        turn=turn,
    )


MAX_PHASE_HOURS = 24 * 366  # a phase longer than a year is a typo
YEARS = (2000, 2200)  # a game starts in these years; others are typos (and overflow dates)


def _length(value: object, key: str) -> timedelta | None:
    if value is None:
        return None
    m = _HOURS.match(str(value))
    if not m or float(m[1]) <= 0:
        raise ValueError(f'[schedule] {key} must be a length in hours, like {key} = "72h"')
    if float(m[1]) > MAX_PHASE_HOURS:
        raise ValueError(
            f"[schedule] {key} = {value!r} is longer than a year; give it in hours, like "
            f'{key} = "72h"'
        )
    return timedelta(hours=float(m[1]))


def _clock(value: object) -> time:
    try:
        return time.fromisoformat(str(value))
    except ValueError:
        raise ValueError(
            f'[schedule] turn must be a clock time like "00:00", not {value!r}'
        ) from None


def _moment(value: str | date, tz: tzinfo, turn: time) -> datetime:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=tz)
    if isinstance(value, date):
        return datetime.combine(value, turn, tzinfo=tz)
    try:
        if "T" in value or " " in value.strip():
            moment = datetime.fromisoformat(value)
            return moment if moment.tzinfo else moment.replace(tzinfo=tz)
        return datetime.combine(date.fromisoformat(value), turn, tzinfo=tz)
    except ValueError:
        raise ValueError(f"[schedule] start {value!r} is not a date or an ISO time") from None
