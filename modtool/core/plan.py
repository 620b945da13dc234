"""What is prepared once per game before any day is counted: the posts in order (`Timeline`)
and the ledger laid on them (`GamePlan`): where each day starts and ends, who is dead from
which post, who holds each slot, the resets, hosts, corrections and the name resolver.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from ..errors import GameFileError
from ..threads.posts import Post
from .ledger import LEDGER_FILE, DayWindow, Event, EventKind, Game, PostRef
from .names import Resolver, ThreadWords, normalise
from .schedule import day_deadlines


class Timeline:
    """The game's posts in order, with positions for ledger references."""

    def __init__(self, posts: Sequence[Post]) -> None:
        self.posts = sorted(posts, key=_post_order)
        self._numbers: dict[str, list[int]] = {}
        for post in self.posts:
            self._numbers.setdefault(post.thread, []).append(
                post.number if post.number is not None else -1
            )
        self._times = [p.time for p in self.posts]

    def after(self, ref: PostRef | None, default: int = 0) -> int:
        """How many posts come at or before `ref`: the index of the first post after it."""
        if ref is None:
            return default
        if ref.post is not None:
            thread = ref.thread if ref.thread in self._numbers else next(iter(self._numbers), "")
            if len(self._numbers) <= 1:
                numbers = self._numbers.get(thread, [])
                return bisect.bisect_right(numbers, ref.post)
            # Several threads: a post of another thread counts as before the referenced post
            # when it was written no later than it (a number the thread lacks is placed at its
            # post before; one before the thread's first post, just before that post).
            upto = [p for p in self.posts if p.thread == thread and (p.number or 0) <= ref.post]
            if upto:
                anchor = max(upto, key=lambda p: p.number or 0).time
                return len(upto) + sum(
                    1
                    for p in self.posts
                    if p.thread != thread and anchor and p.time and p.time <= anchor
                )
            first = next((p.time for p in self.posts if p.thread == thread), None)
            return sum(
                1 for p in self.posts if p.thread != thread and first and p.time and p.time < first
            )
        if ref.time is not None:
            return sum(1 for t in self._times if t is not None and t <= ref.time)
        return default


def _post_order(post: Post):
    return (post.time is None, post.time, post.number or 0) if post.thread else (post.number or 0,)


@dataclass
class GamePlan:
    """The ledger laid on the timeline, and what every day's walk looks up."""

    game: Game
    timeline: Timeline
    resolver: Resolver
    windows: dict[int, DayWindow]
    bounds: dict[int, tuple[int, int]]  # day -> (first index, index after its last post)
    death_at: dict[str, int]  # slot -> index from which it is dead (its first death)
    # (index, alive again, slot) for every death and revival, in timeline order
    life: tuple[tuple[int, bool, str], ...]
    joined: dict[str, list[tuple[int, str]]]  # slot -> (index from which a name holds it, name)
    resets: tuple[int, ...]
    hosts: frozenset[str]
    corrections: dict[tuple[str, int | None], Event]
    ghosts_recorded: dict[str, int]  # slot -> the day the ledger says its ghost vote was spent
    accounts: dict[str, frozenset[str]]  # slot -> normalised accounts and aliases
    cache: dict = field(default_factory=dict)  # what a game's hooks make once per game

    def day_abilities(self) -> list[tuple[int, Event]]:
        """The host-announced day abilities, with the timeline index they take effect at."""
        return [
            (self.timeline.after(e.at) - 1, e) for e in self.game.events_of(EventKind.DAY_ABILITY)
        ]

    @classmethod
    def build(cls, game: Game, posts: Sequence[Post], now: datetime | None = None) -> GamePlan:
        """`now` decides which deadlines have passed (default: the clock)."""
        timeline = Timeline(posts)
        check_posts_exist(game, timeline)
        after = timeline.after
        beyond = len(timeline.posts) + 1  # "not yet": past the last post
        deadlines = day_deadlines(game, posts, now)
        windows = {
            w.day: replace(w, end=PostRef(time=deadlines[w.day]))
            if w.end is None and w.day in deadlines
            else w
            for w in game.days()
        }
        bounds = {
            d: (after(w.start, 0), after(w.end) if w.end else len(timeline.posts))
            for d, w in windows.items()
        }

        def day_start(day: int) -> int:
            if day in bounds:
                return bounds[day][0]
            prev = windows.get(day - 1)
            return after(prev.end) if prev and prev.end else beyond

        def effective(e: Event) -> int:
            """Where a death or a revival takes effect on the timeline."""
            if e.at.post is not None or e.at.time is not None:
                return max(after(e.at) - 1, 0)  # from the announcing post on
            if e.phase.is_night:  # N n: from the start of Day n+1
                return day_start(e.phase.number + 1)
            n = e.phase.number  # D n: from the end of Day n
            return bounds[n][1] if n in bounds and windows[n].end else beyond

        death_at: dict[str, int] = {}
        for e in game.deaths():
            pos = effective(e)
            death_at[e.slot] = min(death_at.get(e.slot, pos), pos)
        # every death and revival of a slot that has one, in timeline order (a death before a
        # revival at one point: dead, then alive again)
        life = sorted(
            (effective(e), e.kind is EventKind.REVIVAL, e.slot)
            for e in game.events
            if e.kind in (EventKind.DEATH, EventKind.REVIVAL)
        )

        joined = {s.key: [(0, s.key)] for s in game.slots}
        for e in game.events_of(EventKind.REPLACEMENT):
            joined[e.slot].append((after(e.at) - 1, e.by))
        for history in joined.values():
            history.sort(key=lambda pair: pair[0])

        resolver = Resolver.from_slots(
            {s.key: game.slot_names(s.key) for s in game.slots},
            {s.key: (*s.aliases, *s.accounts) for s in game.slots},
        )
        resolver.thread_words = ThreadWords((p.number, p.text) for p in timeline.posts)
        return cls(
            game=game,
            timeline=timeline,
            resolver=resolver,
            windows=windows,
            bounds=bounds,
            death_at=death_at,
            life=tuple(life),
            joined=joined,
            resets=tuple(after(e.at) - 1 for e in game.events_of(EventKind.VOTE_RESET)),
            hosts=frozenset(normalise(h) for h in game.hosts),
            corrections={(e.at.thread, e.at.post): e for e in game.events_of(EventKind.CORRECTION)},
            ghosts_recorded={
                e.slot: e.day for e in game.events_of(EventKind.GHOST_VOTE) if e.day is not None
            },
            accounts={
                s.key: frozenset(normalise(a) for a in (*s.accounts, *s.aliases))
                for s in game.slots
            },
        )

    def alive_at(self, slot: str, pos: int) -> bool:
        """Whether the slot is alive at timeline index `pos`: dead from each death's index on,
        alive again from a revival's."""
        alive = True
        for at, revived, who in self.life:
            if at > pos:
                break
            if who == slot:
                alive = revived
        return alive

    def holder(self, slot: str, pos: int) -> str:
        """The name holding `slot` at timeline index `pos`."""
        name = slot
        for start, n in self.joined[slot]:
            if start <= pos:
                name = n
        return name

    def correction(self, post: Post) -> Event | None:
        """The host's reading of this post: a correction of its number in its own thread (an
        event that names no thread is in the first source, as the ledger reads it)."""
        return self.corrections.get((post.thread, post.number))

    def night_kill_before(self, day: int) -> bool:
        """Whether someone died in the night before `day` (no_lynch = "not-after-night-kill")."""
        prev = self.windows.get(day - 1)
        night_start = self.bounds[prev.day][1] if prev and prev.end else None
        start = self.bounds[day][0]
        for e in self.game.deaths():
            if e.phase is not None:
                if e.phase.is_night and e.phase.number == day - 1:
                    return True
            elif night_start is not None:
                pos = self.death_at.get(e.slot)
                if pos is not None and night_start <= pos < start:
                    return True
        return False


def check_posts_exist(game: Game, timeline: Timeline) -> None:
    """A ledger event at a post the thread does not have is a typo, or a stale copy of the
    thread: either way no count can be right. In a game of several threads the post must be
    one its thread has (a number it lacks has no time to place it among the other threads'
    posts by; one before the thread's first post is its start), and a day must not end before
    it starts in the order of the posts (which the ledger alone cannot tell across threads)."""
    numbers: dict[str, set[int]] = {}
    for post in timeline.posts:
        if post.number is not None:
            numbers.setdefault(post.thread, set()).add(post.number)
    several = len(game.threads) > 1
    first_thread = next(iter(numbers), "")
    for e in game.events:
        if e.at.post is None:
            continue
        thread = e.at.thread if e.at.thread in numbers else first_thread
        if thread not in numbers:
            continue
        held = numbers[thread]
        where = f"the last post of thread {thread!r}" if several else "the thread's last post"
        if e.at.post > max(held):
            raise GameFileError(
                game.folder / LEDGER_FILE,
                f"post {e.at.post} is past {where} ({max(held)}); fix the "
                "number, or read the thread again if it has grown (--refresh)",
                e.line,
            )
        if several and e.at.post not in held and e.at.post > min(held):
            raise GameFileError(
                game.folder / LEDGER_FILE,
                f"post {e.at.post} is not in thread {thread!r} (it has no post {e.at.post}); "
                'fix the number, or the "thread" the line names',
                e.line,
            )
    if several:
        _check_days_in_order(game, timeline)


def _check_days_in_order(game: Game, timeline: Timeline) -> None:
    """Each day ends after it starts, in the order of the posts of every thread."""
    starts = {e.day: e for e in game.events_of(EventKind.DAY_START)}
    ends = {e.day: e for e in game.events_of(EventKind.DAY_END)}
    for day, end in sorted(ends.items()):
        start = starts.get(day) or ends.get(day - 1)
        if start is None or end.at.post is None or start.at.post is None:
            continue
        if timeline.after(end.at) < timeline.after(start.at):
            late, other = (start, end) if start.line > end.line else (end, start)
            raise GameFileError(
                game.folder / LEDGER_FILE,
                f"Day {day} ends at {_named(end.at)}, before it starts at {_named(start.at)} "
                f"(line {other.line}); check the post and its thread",
                late.line,
            )


def _named(at: PostRef) -> str:
    return f"{at.thread} post {at.post}" if at.thread else f"post {at.post}"
