"""The vote engine: replay a game's posts against its ledger and rules, day by day.

For every day it walks the posts of the day's window in thread order, applies the ledger's
events where they happen (replacements, deaths, vote resets, host corrections), reads each
post's vote actions, resolves their targets, and asks `rules` whether each action counts and
whether the day is over. Every action lands in the audit trail with the rule that decided it.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field

from .ledger import DayWindow, Event, EventKind, Game, PostRef
from .names import CONFIDENT, Resolution, Resolver, TargetKind, ThreadWords, normalise
from .posts import Post
from .rules import (
    NO_LYNCH_KEY,
    Rules,
    Standing,
    Verdict,
    day_end_outcome,
    ghost_vote_refusal,
    hammered,
    no_lynch_available,
    no_lynch_needed,
    votes_needed,
)
from .votes import ActionKind, VoteAction, find_votes

NO_LYNCH_LABEL = "No lynch"


@dataclass(frozen=True, slots=True)
class Voter:
    player: str
    post: int | None
    url: str | None
    weight: int
    ghost: bool = False
    thread: str = ""  # which of the game's threads the vote is in ("" for a one-thread game)


@dataclass(frozen=True, slots=True)
class Wagon:
    target: str
    votes: int
    voters: tuple[Voter, ...]
    needed: int  # votes this wagon needs under the day's threshold

    @property
    def short(self) -> int:
        """Votes still missing (the "L-n" of a vote count); 0 once it has enough."""
        return max(self.needed - self.votes, 0)


@dataclass(frozen=True, slots=True)
class Outcome:
    kind: str  # execution | no_execution | pending | tie
    player: str | None
    post: int | None
    reason: str
    rule: str  # the rule that decided: hammer, no-lynch-majority, day-end, in-progress, ...
    tied: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Notice:
    post: int | None
    message: str


@dataclass(frozen=True, slots=True)
class AuditEntry:
    post: int | None
    thread: str
    url: str | None
    author: str
    raw: str
    action: str
    target: str | None
    method: str | None
    confidence: float | None
    accepted: bool
    rule: str


@dataclass(frozen=True, slots=True)
class DayCount:
    day: int
    alive: int
    threshold: int
    no_lynch_threshold: int | None
    wagons: tuple[Wagon, ...]
    not_voting: tuple[str, ...]
    outcome: Outcome
    warnings: tuple[Notice, ...]
    audit: tuple[AuditEntry, ...]
    last_post: int | None


# --- the timeline ---------------------------------------------------------------------------------


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
            # when it was written no later than it.
            anchor = next(
                (p.time for p in self.posts if p.thread == thread and p.number == ref.post), None
            )
            return sum(
                1
                for p in self.posts
                if (p.thread == thread and (p.number or 0) <= ref.post)
                or (p.thread != thread and anchor and p.time and p.time <= anchor)
            )
        if ref.time is not None:
            return sum(1 for t in self._times if t is not None and t <= ref.time)
        return default


@dataclass(frozen=True)
class _LedgerPositions:
    """Where the ledger's events fall on the timeline; the same for every day, so built once."""

    windows: dict[int, DayWindow]
    bounds: dict[int, tuple[int, int]]  # day -> (first index, index after its last post)
    death_at: dict[str, int]  # slot -> index from which it is dead
    joined: dict[str, list[tuple[int, str]]]  # slot -> (index from which a name holds it, name)
    resets: tuple[int, ...]

    @classmethod
    def build(cls, game: Game, timeline: Timeline) -> _LedgerPositions:
        after = timeline.after
        beyond = len(timeline.posts) + 1  # "not yet": past the last post
        windows = {w.day: w for w in game.days()}
        bounds = {
            d: (after(w.start, 0), after(w.end) if w.end else len(timeline.posts))
            for d, w in windows.items()
        }

        def day_start(day: int) -> int:
            if day in bounds:
                return bounds[day][0]
            prev = windows.get(day - 1)
            return after(prev.end) if prev and prev.end else beyond

        death_at: dict[str, int] = {}
        for e in game.deaths():
            if e.at.post is not None or e.at.time is not None:
                pos = max(after(e.at) - 1, 0)  # dead from the announcing post on
            else:
                n = int(e.phase[1:])
                # D n: dead from the end of Day n; N n: dead from the start of Day n+1.
                pos = (
                    day_start(n + 1)
                    if e.phase[0] == "N"
                    else (bounds[n][1] if n in bounds and windows[n].end else beyond)
                )
            death_at[e.slot] = min(death_at.get(e.slot, pos), pos)

        joined = {s.key: [(0, s.key)] for s in game.slots}
        for e in game.events_of(EventKind.REPLACEMENT):
            joined[e.slot].append((after(e.at) - 1, e.name))
        for history in joined.values():
            history.sort(key=lambda pair: pair[0])
        resets = tuple(after(e.at) - 1 for e in game.events_of(EventKind.VOTE_RESET))
        return cls(windows, bounds, death_at, joined, resets)


def _post_order(post: Post):
    return (post.time is None, post.time, post.number or 0) if post.thread else (post.number or 0,)


# --- counting ----------------------------------------------------------------------


def count_days(
    game: Game, posts: Sequence[Post], days: Sequence[int] | None = None, as_of: int | None = None
) -> list[DayCount]:
    """Counts of the given days (all days when None), oldest first.

    Days are replayed in order from Day 1 because ghost votes spent on one day stay spent.
    """
    timeline = Timeline(posts)
    windows = game.days()
    wanted = set(days) if days is not None else {w.day for w in windows}
    unknown = wanted - {w.day for w in windows}
    if unknown:
        from .errors import ModToolError

        known = ", ".join(str(w.day) for w in windows)
        raise ModToolError(
            f"Day {min(unknown)} is not in the ledger (days known: {known}); "
            "record its start with `modtool record day-start`"
        )
    resolver = _resolver(game, timeline.posts)
    positions = _LedgerPositions.build(game, timeline)
    spent: set[str] = set()
    results = []
    for window in windows:
        if window.day > max(wanted):
            break
        counter = _DayCounter(game, timeline, positions, window, resolver, as_of, spent)
        result = counter.run()
        spent |= counter.ghosts_spent
        if window.day in wanted:
            results.append(result)
    return results


def _resolver(game: Game, posts: Sequence[Post]) -> Resolver:
    resolver = Resolver.from_slots(
        {s.key: game.slot_names(s.key) for s in game.slots},
        {s.key: (*s.aliases, *s.accounts) for s in game.slots},
    )
    resolver.thread_words = ThreadWords((p.number, p.text) for p in posts)
    return resolver


@dataclass
class _Vote:
    voter: str
    target: str
    post: Post
    weight: int
    ghost: bool = False


@dataclass
class _DayCounter:
    game: Game
    timeline: Timeline
    positions: _LedgerPositions
    window: DayWindow
    resolver: Resolver
    as_of: int | None
    spent_before: set[str]
    ghosts_spent: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        g, w, p = self.game, self.window, self.positions
        self.rules: Rules = g.rules
        self.start, self.end = p.bounds[w.day]
        self.ended = w.end is not None
        if self.as_of is not None:
            cutoff = self.timeline.after(PostRef(post=self.as_of))
            if cutoff < self.end:
                self.end, self.ended = max(cutoff, self.start), False
        self.death_at = p.death_at
        self.joined = p.joined
        self.alive = {s.key for s in g.slots if self.death_at.get(s.key, self.end + 1) > self.start}
        self.night_kill_before = self._night_kill_before()
        self.votes: dict[str, dict[str, _Vote]] = {}
        self.voted_by_living: set[str] = set()
        self.reached: dict[str, dict[int, int]] = {}
        self.audit: list[AuditEntry] = []
        self.warnings: list[Notice] = []
        self.hosts = {normalise(h) for h in g.hosts}
        self.corrections = {(e.at.thread, e.at.post): e for e in g.events_of(EventKind.CORRECTION)}
        self.ghost_events = {
            e.slot for e in g.events_of(EventKind.GHOST_VOTE) if e.day is not None and e.day < w.day
        }

    def _night_kill_before(self) -> bool:
        """Whether someone died in the night before this day (No-Lynch rules of seed 004)."""
        night = f"N{self.window.day - 1}"
        prev = self.positions.windows.get(self.window.day - 1)
        night_start = self.positions.bounds[prev.day][1] if prev and prev.end else None
        for e in self.game.deaths():
            if e.phase == night:
                return True
            if e.phase is None and night_start is not None:
                pos = self.death_at.get(e.slot)
                if pos is not None and night_start <= pos < self.start:
                    return True
        return False

    def holder(self, slot: str, pos: int) -> str:
        name = slot
        for start, n in self.joined[slot]:
            if start <= pos:
                name = n
        return name

    def display(self, target: str, pos: int) -> str:
        return NO_LYNCH_LABEL if target == NO_LYNCH_KEY else self.holder(target, pos)

    # --- the walk -------------------------------------------------------------------------------

    def run(self) -> DayCount:
        posts = self.timeline.posts
        changes = self._changes()
        outcome: Outcome | None = None
        pos = self.start
        last_post: int | None = None
        for pos in range(self.start, self.end):
            post = posts[pos]
            if pos in changes:
                for event in changes[pos]:
                    self._apply_event(event, pos, post)
                hammer = self._check_hammer(post, pos)  # a death can lower the threshold
                if hammer:
                    outcome = hammer
                    break
            self._read_post(post, pos)
            last_post = post.number
            hammer = self._check_hammer(post, pos)
            if hammer:
                outcome = hammer
                break
        end_pos = pos if outcome else self.end
        if outcome is None:
            outcome = self._final_outcome(last_post, end_pos)
        return self._result(outcome, last_post, end_pos)

    def _changes(self) -> dict[int, list]:
        """Ledger changes keyed by the timeline index at which they take effect."""
        changes: dict[int, list] = {}
        for slot, pos in self.death_at.items():
            if self.start < pos < self.end or (
                pos == self.start and slot in self.alive and pos < self.end
            ):
                changes.setdefault(pos, []).append(("death", slot))
        for pos in self.positions.resets:
            if self.start <= pos < self.end:
                changes.setdefault(pos, []).append(("reset", None))
        return changes

    def _apply_event(self, change, pos: int, post: Post) -> None:
        kind, value = change
        if kind == "death" and value in self.alive:
            self.alive.discard(value)
            self.votes.pop(value, None)
            for votes in self.votes.values():
                votes.pop(value, None)
            self.warnings.append(
                Notice(
                    post.number,
                    f"{self.holder(value, pos)} died; "
                    "their votes and the votes on them are cleared",
                )
            )
        elif kind == "reset":
            self.votes.clear()
            self.reached.clear()
            self.warnings.append(Notice(post.number, "the host reset the votes"))

    def _read_post(self, post: Post, pos: int) -> None:
        author_key = normalise(post.author)
        if author_key in self.hosts:
            return  # hosts' posts are never votes
        correction = self.corrections.get((post.thread, post.number)) or (
            self.corrections.get(("", post.number)) if post.thread else None
        )
        actions = find_votes(post.body, self.rules.syntaxes)
        if correction is not None:
            actions = self._corrected(correction, actions, post)
        if not actions:
            return
        slot = self.game.find_slot(post.author)
        if slot is None:
            for a in actions:
                self._log(post, a, None, False, "not a player")
            self.warnings.append(
                Notice(
                    post.number,
                    f"{post.author} is not a player; "
                    "their vote is ignored (add them as an account or alias "
                    "if they play)",
                )
            )
            return
        holder = self.holder(slot, pos)
        s = self.game.slot(slot)
        is_account = normalise(post.author) in {normalise(a) for a in (*s.accounts, *s.aliases)}
        if normalise(holder) != author_key and not is_account:
            for a in actions:
                self._log(
                    post,
                    a,
                    None,
                    False,
                    f"{post.author} does not hold the slot now ({holder} does)",
                )
            return
        if slot not in self.alive:
            self._dead_actions(slot, post, pos, actions)
            return
        if s.voteless or s.weight == 0:
            for a in actions:
                self._log(post, a, None, False, "voteless player")
            return
        for a in actions:
            self._living_action(slot, s.weight, post, pos, a)

    def _corrected(self, correction: Event, actions: list[VoteAction], post: Post):
        if correction.action == "ignore":
            for a in actions:
                self._log(post, a, None, False, "ignored by host correction")
            return []
        return [
            VoteAction(
                ActionKind.VOTE,
                correction.target or "",
                f"[host correction] {correction.target}",
                None,
            )
        ]

    def _resolve(self, text: str) -> Resolution:
        return self.resolver.resolve(text, frozenset(self.alive))

    def _living_action(self, slot: str, weight: int, post: Post, pos: int, a: VoteAction) -> None:
        mine = self.votes.setdefault(slot, {})
        if a.kind is ActionKind.UNVOTE:
            if self.rules.multi_vote and a.target:
                res = self._resolve(a.target)
                if res.kind is TargetKind.PLAYER and res.slot in mine:
                    del mine[res.slot]
                    self._log(post, a, res, True, "unvote")
                    return
            if self.rules.multi_vote and len(mine) > 1:
                self.warnings.append(
                    Notice(
                        post.number,
                        f"{post.author} unvoted without a name; all their votes are removed",
                    )
                )
            mine.clear()
            self._log(post, a, None, True, "unvote")
            return
        res = self._resolve(a.target)
        if res.kind is TargetKind.UNVOTE:
            mine.clear()
            self._log(post, a, res, True, "a vote for nobody is an unvote")
            return
        if res.kind in (TargetKind.AMBIGUOUS, TargetKind.UNRESOLVED):
            why = (
                "could not tell who"
                if res.kind is TargetKind.UNRESOLVED
                else "ambiguous between "
                + ", ".join(self.holder(c, pos) for c in res.candidates)
                + ":"
            )
            self._log(post, a, res, False, res.kind.value)
            self.warnings.append(
                Notice(post.number, f"{post.author}: {why} {a.raw!r} means; not counted")
            )
            return
        if res.kind is TargetKind.NO_LYNCH:
            if not no_lynch_available(self.rules, self.window.day, self.night_kill_before):
                self._log(post, a, res, False, "no lynch is not available today")
                self.warnings.append(
                    Notice(
                        post.number,
                        f"{post.author} voted no lynch, which is not available today; not counted",
                    )
                )
                return
            target = NO_LYNCH_KEY
        else:
            target = res.slot
            if target not in self.alive:
                self._log(post, a, res, False, "vote for a dead player")
                self.warnings.append(
                    Notice(
                        post.number,
                        f"{post.author} voted for "
                        f"{self.holder(target, pos)}, who is dead; not counted",
                    )
                )
                return
            if target == slot and not self.rules.self_vote:
                self._log(post, a, res, False, "self-votes are not allowed")
                return
        if not self.rules.multi_vote:
            mine.clear()
        mine[target] = _Vote(slot, target, post, weight)
        if target != NO_LYNCH_KEY:
            self.voted_by_living.add(target)
        rule = "vote" if res.method is None else f"vote ({res.method.value})"
        self._log(post, a, res, True, rule)
        if res.method is not None and res.confidence < CONFIDENT:
            self.warnings.append(
                Notice(
                    post.number,
                    f"{post.author}: read {a.raw!r} as "
                    f"{self.display(target, pos)} ({res.method.value}, "
                    f"confidence {res.confidence:.2f})",
                )
            )

    def _dead_actions(self, slot: str, post: Post, pos: int, actions: list[VoteAction]) -> None:
        if not self.rules.ghost_votes:
            for a in actions:
                self._log(post, a, None, False, "dead players cannot vote")
            return
        for a in actions:
            if a.kind is ActionKind.UNVOTE:
                self._log(post, a, None, False, "a ghost vote cannot be taken back")
                continue
            res = self._resolve(a.target)
            if res.kind is not TargetKind.PLAYER and res.kind is not TargetKind.NO_LYNCH:
                self._log(post, a, res, False, res.kind.value)
                continue
            target = NO_LYNCH_KEY if res.kind is TargetKind.NO_LYNCH else res.slot
            spent = (
                slot in self.spent_before or slot in self.ghost_events or slot in self.ghosts_spent
            )
            refusal = ghost_vote_refusal(target, self.voted_by_living, spent)
            if refusal is None and target not in self.alive:
                refusal = "vote for a dead player"
            if refusal:
                self._log(post, a, res, False, refusal)
                self.warnings.append(Notice(post.number, f"{post.author}'s ghost vote: {refusal}"))
                continue
            self.votes.setdefault(slot, {})[target] = _Vote(slot, target, post, 1, ghost=True)
            self.ghosts_spent.add(slot)
            self._log(post, a, res, True, "ghost vote")

    # --- tallies and outcomes -----------------------------------------------------------------

    def _totals(self) -> dict[str, int]:
        totals: dict[str, int] = {}
        for votes in self.votes.values():
            for v in votes.values():
                totals[v.target] = totals.get(v.target, 0) + v.weight
        return totals

    def _track_levels(self, totals: dict[str, int], pos: int) -> None:
        for target in set(totals) | set(self.reached):
            levels = self.reached.setdefault(target, {})
            now = totals.get(target, 0)
            for level in [lv for lv in levels if lv > now]:
                del levels[level]
            for level in range(1, now + 1):
                levels.setdefault(level, pos)

    def _check_hammer(self, post: Post, pos: int) -> Outcome | None:
        totals = self._totals()
        self._track_levels(totals, pos)
        alive = len(self.alive)
        hit = hammered(self.rules, totals, alive)
        if hit is None:
            return None
        if hit.target == NO_LYNCH_KEY:
            return Outcome(
                "no_execution",
                None,
                post.number,
                f"no lynch reached {hit.needed} of {alive} alive",
                "no-lynch-majority",
            )
        return Outcome(
            "execution",
            self.holder(hit.target, self.end),
            post.number,
            f"reached majority: {hit.votes} of {hit.needed} needed with {alive} alive",
            "hammer",
        )

    def _final_outcome(self, last_post: int | None, end_pos: int) -> Outcome:
        totals = self._totals()
        alive = len(self.alive)
        standings = [Standing(t, v, self.reached.get(t, {}).get(v, 0)) for t, v in totals.items()]
        if not self.ended:
            leader = max(standings, key=lambda s: (s.votes, -s.reached_at), default=None)
            lead = (
                f"; leading: {self.display(leader.target, end_pos)} ({leader.votes})"
                if leader and leader.votes
                else ""
            )
            return Outcome(
                "pending", None, None, f"Day {self.window.day} is in progress{lead}", "in-progress"
            )
        end_post = self.timeline.posts[self.end - 1].number if self.end > 0 else None
        verdict = day_end_outcome(self.rules, standings, alive)
        tied = tuple(self.display(t, end_pos) for t in verdict.tied)
        if verdict.verdict is Verdict.EXECUTION:
            return Outcome(
                "execution",
                self.display(verdict.target, end_pos),
                end_post,
                verdict.reason,
                verdict.rule,
                tied,
            )
        kind = "tie" if verdict.verdict is Verdict.TIE else "no_execution"
        return Outcome(kind, None, end_post, verdict.reason, verdict.rule, tied)

    def _result(self, outcome: Outcome, last_post: int | None, end_pos: int) -> DayCount:
        alive = len(self.alive)
        needed = votes_needed(self.rules.threshold, alive)
        nl_needed = (
            no_lynch_needed(self.rules, alive)
            if no_lynch_available(self.rules, self.window.day, self.night_kill_before)
            else None
        )
        wagons: dict[str, list[_Vote]] = {}
        for votes in self.votes.values():
            for v in votes.values():
                wagons.setdefault(v.target, []).append(v)
        built = []
        for target, votes in wagons.items():
            votes.sort(key=lambda v: v.post.number or 0)
            total = sum(v.weight for v in votes)
            voters = tuple(
                Voter(
                    self.holder(v.voter, end_pos),
                    v.post.number,
                    v.post.url,
                    v.weight,
                    v.ghost,
                    v.post.thread,
                )
                for v in votes
            )
            reached = self.reached.get(target, {}).get(total, 0)
            built.append(
                (
                    -total,
                    reached,
                    Wagon(
                        self.display(target, end_pos),
                        total,
                        voters,
                        nl_needed if target == NO_LYNCH_KEY and nl_needed else needed,
                    ),
                )
            )
        built.sort(key=lambda t: (t[0], t[1], t[2].target.casefold()))
        voting = {
            slot
            for slot, votes in self.votes.items()
            if votes and slot in self.alive and not all(v.ghost for v in votes.values())
        }
        order = {
            s.key: (s.seat if s.seat is not None else 10_000, i)
            for i, s in enumerate(self.game.slots)
        }
        not_voting = tuple(
            self.holder(s, end_pos)
            for s in sorted(self.alive - voting, key=order.__getitem__)
            if not self.game.slot(s).voteless
        )
        return DayCount(
            day=self.window.day,
            alive=alive,
            threshold=needed,
            no_lynch_threshold=nl_needed,
            wagons=tuple(w for _, _, w in built),
            not_voting=not_voting,
            outcome=outcome,
            warnings=tuple(self.warnings),
            audit=tuple(self.audit),
            last_post=last_post,
        )

    def _log(
        self, post: Post, a: VoteAction, res: Resolution | None, accepted: bool, rule: str
    ) -> None:
        target = None
        if res is not None:
            if res.kind is TargetKind.PLAYER:
                target = self.holder(res.slot, self.end)
            elif res.kind is TargetKind.NO_LYNCH:
                target = NO_LYNCH_LABEL
        self.audit.append(
            AuditEntry(
                post=post.number,
                thread=post.thread,
                url=post.url,
                author=post.author,
                raw=a.raw,
                action=a.kind.value,
                target=target,
                method=res.method.value if res and res.method else None,
                confidence=res.confidence if res and res.kind is TargetKind.PLAYER else None,
                accepted=accepted,
                rule=rule,
            )
        )
