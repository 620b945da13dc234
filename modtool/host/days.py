"""Running the game day by day: closing a day into the ledger, who has been posting, and
watching the thread (a new game folder is started in starting.py).

Each is one library call that the command line makes: `end_day`, `activity`, `watch`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

from ..core.checks import check_new_events, last_post_of, refuse_when_won
from ..core.count import count_days
from ..core.ledger import (
    LEDGER_FILE,
    DayBoundary,
    Death,
    Event,
    EventKind,
    Game,
    GhostVote,
    Phase,
    PhaseKind,
    PostRef,
    append_computed,
    event_from_json,
    event_to_json,
)
from ..core.ledger.store import not_recorded
from ..core.places import place_post
from ..core.plan import GamePlan, Timeline, check_posts_exist
from ..core.results import DayCount, OutcomeKind
from ..core.schedule import day_deadline, time_left
from ..errors import GameFileError, ModToolError
from ..games import load_game
from ..threads.frozen import frozen
from ..threads.posts import Post
from ..threads.times import UTC
from .chats import chat_log

# --- closing a day ------------------------------------------------------------------------


@frozen
class DayClosing:
    count: DayCount
    events: tuple[Event, ...]  # what was (or, on a dry run, would be) appended
    written: bool

    @property
    def lines(self) -> tuple[dict, ...]:
        """The events as their ledger lines."""
        return tuple(event_to_json(e) for e in self.events)


def end_day(
    game: Game,
    posts: Sequence[Post],
    day: int | None = None,
    dry_run: bool = False,
    now: datetime | None = None,
    at_post: int | None = None,
    thread: str | None = None,
) -> DayClosing:
    """Close a day: its count at the deadline or the hammer, appended to the ledger in one
    write (the day's end, the deaths the game's day rules caused, the execution or why there
    was none, the ghost votes spent). A day whose count finds the game won (the Slayer shot
    the Demon) closes at once, at the post that won it. `at_post`: the host ended the day
    with that post (of the thread `thread` names, in a game of several: `places.place_post`),
    and the count is the day's end count there. Refuses a day already closed, naming the
    ledger line, and a day still going."""
    day = day or game.days()[-1].day
    _refuse_closed_day(game, day)
    refuse_when_won(game, Phase(day, PhaseKind.DAY))
    counted = game
    if at_post is None and thread is not None:
        raise ModToolError("--thread names the thread of --post; give --post too")
    if at_post is not None:
        at = place_post(game, posts, at_post, thread, "--post")
        window = next((w for w in game.days() if w.day == day), None)
        start = window.start if window is not None and window.start else None
        if start is not None and start.post is not None and not _later(game, posts, at, start):
            raise ModToolError(
                f"--post {_named(game, at)} is not in Day {day}, which starts after post "
                f"{_named(game, start)}; give the post the host ended the day with"
            )
        check_new_events(game, [_line(game, day, at)], last_post_of(posts))
        said = DayBoundary(EventKind.DAY_END, 0, at, day=day)
        counted = replace(game, events=(*game.events, said))
    (count,) = count_days(counted, posts, [day], now=now)
    outcome = count.outcome
    won = count.win.win if count.win is not None else None
    if outcome.kind is OutcomeKind.PENDING and won is None:
        raise ModToolError(
            f"Day {day} has neither reached its deadline nor a hammer ({outcome.reason}); "
            f"wait for the deadline, or give the post that ended it with --post"
        )
    today = Phase(day, PhaseKind.DAY)
    if outcome.kind is OutcomeKind.PENDING:
        # the game ended during the day: the day ends where it was won
        post = count.deaths[-1].post if count.deaths else count.last_post
        thread = count.deaths[-1].thread if count.deaths else count.last_thread
        note = f"the game is over: {won.wins()} ({won.reason})"
    else:
        post, thread, note = outcome.post, outcome.thread, outcome.reason
    # a day its deadline ended ends at the deadline, not at its last post: the night and the
    # days after it run from there (`schedule`, the drafts' deadlines)
    ended_at = count.ended_at if at_post is None else None
    executed: list[Event] = []
    if outcome.kind is OutcomeKind.EXECUTION and outcome.survives:
        note = f"{note}; {outcome.player} is executed but does not die: {outcome.survives}"
    elif outcome.kind is OutcomeKind.EXECUTION:
        slot = game.find_slot(outcome.player)
        executed.append(Death(EventKind.DEATH, 0, slot=slot, phase=today, cause="executed"))
    elif outcome.kind is OutcomeKind.TIE:
        tied = ", ".join(outcome.tied)
        note = f"{outcome.reason}; tied: {tied}; record the host's choice as a death"
    at = replace(_point(game, post, thread), time=ended_at)
    end = DayBoundary(EventKind.DAY_END, 0, at, day=day, note=note)
    ended = replace(game, events=(*game.events, end))  # the chats open at its end close with it
    closed = tuple(
        c.id
        for entry in chat_log(ended, posts, [day])
        for c in entry.chats
        if c.closed and c.closed["how"] == "day_end"
    )
    end = replace(end, chats_closed=closed)
    events: list[Event] = [end, *day_deaths(game, count), *executed]
    recorded_ghosts = {e.slot for e in game.events if e.kind is EventKind.GHOST_VOTE}
    for player in count.ghost_votes_spent:  # also one a death cleared from its wagon
        slot = game.find_slot(player)
        if slot not in recorded_ghosts:
            events.append(GhostVote(EventKind.GHOST_VOTE, 0, slot=slot, day=day))
    if not dry_run:

        def unless_closed(current: Game) -> list[Event]:
            _refuse_closed_day(current, day)  # again under the lock: another end-day may have won
            return events

        append_computed(game, unless_closed)
    return DayClosing(count, tuple(events), not dry_run)


def day_deaths(game: Game, count: DayCount) -> list[Death]:
    """The deaths the day's count found (the Slayer's shot, the Witch's curse) as ledger
    events at their posts, leaving out a player the ledger already has dead."""
    dead = game.dead_slots()
    found = [(game.find_slot(d.player), d) for d in count.deaths]
    return [
        Death(EventKind.DEATH, 0, _point(game, d.post, d.thread), slot=slot, cause=d.cause)
        for slot, d in found
        if slot not in dead
    ]


def _point(game: Game, post: int | None, thread: str) -> PostRef:
    """A post the count found, as a ledger point: with its thread in a game of several (a
    one-thread game's lines stay as they always were)."""
    return PostRef(post, thread=thread if len(game.threads) > 1 else "")


def _line(game: Game, day: int, at: PostRef) -> dict:
    line = {"kind": "day_end", "day": day, "post": at.post}
    return line | ({"thread": at.thread} if at.thread else {})


def _later(game: Game, posts: Sequence[Post], at: PostRef, start: PostRef) -> bool:
    """Whether post `at` comes after `start`: by number in one thread, by the order of the
    posts across threads."""
    if len(game.threads) <= 1 or at.thread == start.thread:
        return at.post > start.post
    timeline = Timeline(posts)
    return timeline.after(at) > timeline.after(start)


def _named(game: Game, at: PostRef) -> str:
    return f"{at.post} of thread {at.thread}" if len(game.threads) > 1 else str(at.post)


def _refuse_closed_day(game: Game, day: int) -> None:
    """A closed day is refused, with the command that reopens it: undoing the day's end and what
    closing it recorded (the execution, the ghost votes spent), so end-day can write them anew."""
    for event in game.events:
        if event.kind is EventKind.DAY_END and event.day == day:
            closing = [event.line] + [
                e.line
                for e in game.events
                if (
                    e.kind is EventKind.DEATH
                    and e.phase == Phase(day, PhaseKind.DAY)
                    and e.cause == "executed"
                )
                or (e.kind is EventKind.GHOST_VOTE and e.day == day)
            ]
            lines = " ".join(str(n) for n in sorted(closing))
            raise GameFileError(
                game.folder / LEDGER_FILE,
                f"Day {day} already ended (this line); to close it again, first "
                f"`modtool record undo {game.folder} {lines}`",
                event.line,
            )


@frozen
class Recorded:
    events: tuple[Event, ...]  # as the ledger reads them
    lines: tuple[dict, ...]  # as they were written


def record_events(
    game: Game, objs: Sequence[dict], posts: Sequence[Post] | None = None
) -> Recorded:
    """Append events the host records, each checked first against the game as it is on disk
    (under the ledger's lock): the thread (`posts`, when it could be read), the phases reached,
    who is alive and what they hold (`modtool.checks`), and the game's own rules. An event's
    post is placed in its thread first (`placed`): a "thread" given as its label or number
    is written as the label, and in a game of several threads one is always written."""
    lines = [placed(game, obj, posts) for obj in objs]
    last_post = last_post_of(posts)

    def checked(current: Game) -> Sequence[dict]:
        check_new_events(current, lines, last_post, current.variant.record_rules)
        if posts is not None and len(current.threads) > 1:
            _check_on_the_threads(current, lines, posts)
        return lines

    return Recorded(tuple(append_computed(game, checked)), tuple(lines))


def _check_on_the_threads(game: Game, lines: Sequence[dict], posts: Sequence[Post]) -> None:
    """New events of a game of several threads, laid on the threads' posts with the ledger:
    what the ledger alone cannot tell (a day's end before its start in the order of the
    posts, `plan.check_posts_exist`) is refused before it is written, not by the next count."""
    path = game.folder / LEDGER_FILE
    first = (path.read_bytes().count(b"\n") if path.is_file() else 0) + 1
    new = [event_from_json(line, first + i, game) for i, line in enumerate(lines)]
    try:
        check_posts_exist(replace(game, events=(*game.events, *new)), Timeline(posts))
    except GameFileError as exc:
        clash = exc.line if exc.line is not None and exc.line < first else None
        raise not_recorded(path, exc.problem, clash) from None


def placed(game: Game, obj: dict, posts: Sequence[Post] | None = None) -> dict:
    """An event line whose "post" is placed in its thread (`places.place_post`): the thread
    named (a label, or a number in game.toml's [[sources]]) or the only one holding that
    number, written before the post; a game of one thread writes none, as always."""
    thread = obj.get("thread")
    if obj.get("post") is None:
        if thread is not None:
            raise ModToolError("--thread names the thread of the post; give the post too")
        return obj
    at = place_post(game, posts, obj["post"], None if thread is None else str(thread), "post")
    line = {}
    for key, value in obj.items():
        if key == "post" and at.thread:
            line["thread"] = at.thread
        if key != "thread":
            line[key] = value
    return line


def replaced_plan(game: Game, new: Event) -> Event | None:
    """The night choice in the ledger before `new` that `new` replaces, or None: the same
    player's plan for the same night, as the game says (`Variant.same_plan`)."""
    earlier = [
        e
        for e in game.events_of(EventKind.NIGHT_CHOICE)
        if e.line < new.line and game.variant.same_plan(e, new)
    ]
    return earlier[-1] if earlier else None


# --- activity -----------------------------------------------------------------------------


@frozen
class PlayerActivity:
    player: str
    posts: int
    last_post: int | None
    last_time: datetime | None
    needs_prod: bool  # no post for longer than the prod timer


@frozen
class DayActivity:
    day: int
    as_of: datetime
    prod_after: timedelta
    players: tuple[PlayerActivity, ...]  # the living, most posts first

    @property
    def never_posted(self) -> tuple[str, ...]:
        return tuple(p.player for p in self.players if p.posts == 0)


def activity(
    game: Game,
    posts: Sequence[Post],
    day: int | None = None,
    prod_after: timedelta = timedelta(hours=48),
    now: datetime | None = None,
) -> DayActivity:
    """Posts per living player in a day, their last post, and who is past the prod timer."""

    plan = GamePlan.build(game, posts, now)
    day = day or max(plan.bounds)
    if day not in plan.bounds:
        raise ModToolError(f"Day {day} is not in the ledger; days known: {sorted(plan.bounds)}")
    start, end = plan.bounds[day]
    window = plan.timeline.posts[start:end]
    ended = plan.windows[day].end is not None
    as_of = now or datetime.now(UTC)
    if ended and window and window[-1].time is not None:
        as_of = window[-1].time
    alive = [s.key for s in game.slots if plan.alive_at(s.key, start)]
    rows = []
    for slot in alive:
        mine = [p for p in window if game.find_slot(p.author) == slot]
        last = mine[-1] if mine else None
        last_time = last.time if last else None
        since = last_time or (window[0].time if window else None)
        rows.append(
            PlayerActivity(
                plan.holder(slot, end - 1 if end else 0),
                len(mine),
                last.number if last else None,
                last_time,
                since is not None and as_of - since > prod_after,
            )
        )
    rows.sort(key=lambda r: (-r.posts, r.player.casefold()))
    return DayActivity(day, as_of, prod_after, tuple(rows))


# --- watching the thread -----------------------------------------------------------------------


@frozen
class WatchState:
    """What the last look saw: the last post read, each wagon's L-n, and the threshold."""

    day: int | None = None
    last_post: int | None = None
    short: tuple[tuple[str, int], ...] = ()
    threshold: int | None = None
    chat_events: int = 0
    won: bool = False  # the count found the game won (said once)


MAX_BACKOFF = 3600.0  # seconds: a forum that is down is looked at again at least hourly


@frozen
class WatchLine:
    text: str
    failed: bool = False  # a look that failed (said on stderr; the watch goes on)


def watch(
    folder: Path,
    read_posts: Callable[[Game], Sequence[Post]],
    every: float,
    times: int | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> Iterator[WatchLine]:
    """Look at the thread every `every` seconds, `times` times (or until interrupted). A look
    that fails (the forum down, the ledger mid-edit) is reported and tried again at the next
    interval, the wait doubling with each failure in a row up to an hour (or `every`, if
    longer); the watch never stops on its own for it."""
    seen = WatchState()
    looks = failures = 0
    while True:
        try:
            loaded = load_game(folder)  # the host may record events while watching
            lines, seen = watch_step(loaded, read_posts(loaded), seen)
        except (ModToolError, OSError) as exc:
            failures += 1
            wait = backoff(every, failures)
            why = exc if isinstance(exc, ModToolError) else f"{exc.strerror or exc}"
            yield WatchLine(f"look {looks + 1} failed: {why}; looking again in {_span(wait)}", True)
        else:
            failures, wait = 0, every
            yield from (WatchLine(line) for line in lines)
        looks += 1
        if times is not None and looks >= times:
            return
        sleep(wait)


def backoff(every: float, failures: int) -> float:
    """The wait after `failures` failed looks in a row: `every`, then doubling, capped."""
    return min(every * 2 ** (failures - 1), max(every, MAX_BACKOFF))


def _span(seconds: float) -> str:
    minutes = round(seconds / 60)
    return f"{minutes // 60} h {minutes % 60} min" if minutes >= 60 else f"{minutes} min"


def watch_step(
    game: Game, posts: Sequence[Post], seen: WatchState, now: datetime | None = None
) -> tuple[list[str], WatchState]:
    """One look at the thread: the lines to print since the last look (new votes, chat events,
    a wagon reaching L-1, a lower threshold, the time left) and what this look saw."""

    day = game.days()[-1].day
    (count,) = count_days(game, posts, [day], now=now)
    lines: list[str] = []
    fresh = seen.day != day
    if fresh:
        lines.append(f"Watching Day {day}: {count.outcome.reason}")
    for a in count.audit:
        if fresh or seen.last_post is None or (a.post is not None and a.post > seen.last_post):
            if not fresh:
                verdict = "counted" if a.accepted else f"not counted: {a.rule}"
                target = f" -> {a.target}" if a.target else ""
                lines.append(f"post {a.post} {a.author}: {a.raw!r}{target} ({verdict})")
    short = tuple((w.target, w.short) for w in count.wagons)
    before = dict(seen.short)
    for wagon in count.wagons:
        if wagon.short == 1 and before.get(wagon.target) != 1:
            lines.append(f"ALERT: {wagon.target} is at L-1")
        if wagon.short == 0 and before.get(wagon.target, 1) != 0:
            lines.append(f"ALERT: {wagon.target} has {wagon.votes} votes, enough to die")
    if seen.threshold is not None and not fresh and count.threshold < seen.threshold:
        lines.append(f"ALERT: the threshold fell from {seen.threshold} to {count.threshold}")
    chat_events = 0
    for entry in chat_log(game, posts, [day]):
        events = [(c, e) for c in entry.chats for e in c.events]
        chat_events = len(events)
        if not fresh:
            for chat, event in events[seen.chat_events :]:
                lines.append(f"post {event.post} {event.by}: chat {chat.id} {event.kind}")
    won = count.win.win if count.win is not None else None
    if won is not None and not seen.won:
        lines.append(
            f"ALERT: the game is over: {won.wins()} ({won.reason}); "
            f"record it with `modtool end-day {game.folder}`"
        )
    if count.outcome.kind is not OutcomeKind.PENDING:
        lines.append(f"Day {day} is decided: {count.outcome.reason}")
    else:
        deadline = day_deadline(game, day, posts)
        if deadline is not None:
            left = time_left(deadline - (now or datetime.now(UTC))) or "none"
            local = deadline.astimezone(game.timezone).strftime("%Y-%m-%d %H:%M %Z")
            utc = deadline.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
            lines.append(f"Deadline {local} ({utc}): {left} left")
    state = WatchState(day, count.last_post, short, count.threshold, chat_events, won is not None)
    return lines, state
