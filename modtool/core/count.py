"""The vote engine: replay a game's posts against its ledger and rules, day by day.

Its parts, each doing one job:
- `plan.GamePlan` prepares, once per game, everything that is the same for every day: where the
  ledger's events fall on the timeline, the hosts, the corrections, the name resolver;
- `DayState` holds a day's standing votes, the living, and when each wagon reached each level;
- `_DayWalk` walks a day's posts in order, applies the ledger's events where they happen, reads
  each post's actions, asks `rules` whether each one counts, and checks the threshold after
  every action (a post that hammers and then votes elsewhere has hammered);
- `ledger_contradictions` lists where the ledger disagrees with the count;
- `build_count` turns the final state into the `DayCount` (`results`) that every output prints.
Every action lands in the audit trail with the `Rule` that decided it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING

from ..errors import ModToolError
from ..threads.kept import post_clauses
from ..threads.posts import Post
from .ledger import DayWindow, Event, EventKind, Game, PostRef
from .names import (
    CONFIDENT,
    Resolution,
    TargetKind,
    did_you_mean,
    names_every_vote,
    normalise,
)
from .plan import GamePlan
from .results import (
    NO_LYNCH_LABEL,
    AuditEntry,
    DayCount,
    DayDeath,
    Notice,
    Outcome,
    OutcomeKind,
    Voter,
    Wagon,
    WagonStep,
)
from .rules import (
    ACCEPTING,
    NO_LYNCH_KEY,
    Rule,
    Rules,
    Standing,
    day_end_outcome,
    deadline_refusal,
    flag_edited_vote,
    ghost_vote_refusal,
    hammered,
    listed_name_counts,
    most_votes_win,
    no_lynch_available,
    no_lynch_needed,
    replaces_earlier_votes,
    split_shares,
    target_refusal,
    voter_refusal,
    votes_needed,
)
from .schedule import day_start
from .votes import ActionKind, VoteAction, read_correction, vote_reader

if TYPE_CHECKING:
    pass

EXECUTED_CAUSES = frozenset({"lynched", "executed", "lynch", "execution", "exiled"})
FIRST_BLOCK = 256  # posts whose vote actions are read at once when a day's walk starts


# --- a day's state ---------------------------------------------------------------------------


@dataclass
class _Vote:
    """A vote standing during the walk through a day's posts."""

    voter: str
    target: str
    post: Post
    weight: int
    ghost: bool = False


@dataclass
class DayState:
    """The standing votes of a day, the living, and when each wagon reached each level."""

    alive: set[str]
    votes: dict[str, dict[str, _Vote]] = field(default_factory=dict)  # voter -> target -> vote
    voted_by_living: set[str] = field(default_factory=set)  # targets voted today, even if undone
    reached: dict[str, dict[int, int]] = field(default_factory=dict)  # target -> level -> index

    def cast(self, vote: _Vote, replace: bool) -> None:
        mine = self.votes.setdefault(vote.voter, {})
        if replace:
            mine.clear()
        mine[vote.target] = vote
        if not vote.ghost and vote.target != NO_LYNCH_KEY:
            self.voted_by_living.add(vote.target)

    def withdraw(self, voter: str, target: str | None = None) -> int:
        """Remove one of the voter's votes (or all); how many were removed."""
        mine = self.votes.get(voter, {})
        if target is None:
            n = len(mine)
            mine.clear()
            return n
        return 1 if mine.pop(target, None) else 0

    def standing(self, voter: str) -> dict[str, _Vote]:
        return self.votes.get(voter, {})

    def kill(self, slot: str) -> None:
        """A death clears the player's votes and the votes on them."""
        self.alive.discard(slot)
        self.votes.pop(slot, None)
        for votes in self.votes.values():
            votes.pop(slot, None)

    def reset(self) -> None:
        self.votes.clear()
        self.reached.clear()

    def totals(self) -> dict[str, int]:
        totals: dict[str, int] = {}
        for votes in self.votes.values():
            for v in votes.values():
                totals[v.target] = totals.get(v.target, 0) + v.weight
        return totals

    def track_levels(self, totals: dict[str, int], pos: int) -> None:
        for target in set(totals) | set(self.reached):
            levels = self.reached.setdefault(target, {})
            now = totals.get(target, 0)
            for level in [lv for lv in levels if lv > now]:
                del levels[level]
            for level in range(1, now + 1):
                levels.setdefault(level, pos)

    def standings(self) -> list[Standing]:
        return [Standing(t, v, self.reached.get(t, {}).get(v, 0)) for t, v in self.totals().items()]


# --- counting ----------------------------------------------------------------------------------


def day_holding(game: Game, posts: Sequence[Post], post: int | PostRef) -> int:
    """The day whose window holds post `post` (a number: of the first thread), the latest day
    for a post after all."""
    plan = GamePlan.build(game, posts)
    index = plan.timeline.after(_ref(post)) - 1
    for day, (start, end) in sorted(plan.bounds.items()):
        if start <= index < end:
            return day
    return max(plan.bounds)


def count_days(
    game: Game,
    posts: Sequence[Post],
    days: Iterable[int] | None = None,
    as_of: int | PostRef | None = None,
    now: datetime | None = None,
) -> list[DayCount]:
    """Counts of the given days (all days when None), oldest first, up to post `as_of` if
    given (a number alone: of the first thread; `places.place_post` names the thread).

    Days are replayed in order from Day 1 because ghost votes spent on one day stay spent.
    """
    windows = game.days()
    wanted = set(days) if days is not None else {w.day for w in windows}
    unknown = wanted - {w.day for w in windows}
    if unknown:
        known = ", ".join(str(w.day) for w in windows)
        raise ModToolError(
            f"Day {min(unknown)} is not in the ledger (days known: {known}); "
            "record its start with `modtool record day-start`"
        )
    plan = GamePlan.build(game, posts, now)
    at = _ref(as_of) if as_of is not None else None
    if at is not None:
        _check_as_of(plan, at, wanted if days is not None else None)
    return count_with_plan(plan, wanted, at)


def ghost_votes_spent(game: Game, posts: Sequence[Post], through_day: int) -> dict[str, int]:
    """Each ghost vote spent by the end of Day `through_day`: slot -> the day it was spent, from
    the thread (each day's count, which keeps a ghost vote spent when a death cleared it) and
    the ledger's `ghost_vote` events. What end-day, the grimoire, the town square and the
    drafts show is this, so none of them can disagree with the count."""
    spent = {e.slot: e.day for e in game.events_of(EventKind.GHOST_VOTE) if e.day <= through_day}
    days = [w.day for w in game.days() if w.day <= through_day]
    if days and game.rules.ghost_votes:
        for count in count_days(game, posts, days):
            for name in count.ghost_votes_spent:
                spent.setdefault(game.find_slot(name), count.day)
    return spent


def _ref(post: int | PostRef) -> PostRef:
    return post if isinstance(post, PostRef) else PostRef(post=post)


def _check_as_of(plan: GamePlan, as_of: PostRef, days: set[int] | None) -> None:
    numbers = [
        p.number
        for p in plan.timeline.posts
        if p.number is not None and (not as_of.thread or p.thread == as_of.thread)
    ]
    if numbers and as_of.post > max(numbers):
        raise ModToolError(
            f"--as-of {as_of.post} is past the thread's last post ({max(numbers)}); "
            "give a post the thread has"
        )
    cutoff = plan.timeline.after(as_of)
    for day in sorted(days or ()):
        start = plan.bounds[day][0]
        if cutoff <= start:
            first = plan.timeline.posts[start].number if start < len(plan.timeline.posts) else None
            raise ModToolError(
                f"--as-of {as_of.post} is before Day {day} starts (its first post is {first}); "
                "give a later post, or leave out --day to count the day that holds it"
            )


def count_with_plan(
    plan: GamePlan,
    wanted: Iterable[int],
    as_of: PostRef | None = None,
    end_index: int | None = None,
) -> list[DayCount]:
    """`count_days` on a prepared game; `end_index` stops the last wanted day before that
    timeline index (what a count posted there could have seen)."""
    wanted = set(wanted)
    spent: dict[str, int] = {}  # slot -> day its ghost vote was spent in the thread
    used: dict[str, int] = {}  # slot -> day its once-per-game day ability was used
    results = []
    for window in sorted(plan.windows.values(), key=lambda w: w.day):
        if window.day > max(wanted):
            break
        stop = end_index if window.day == max(wanted) else None
        walk = _DayWalk(plan, window, as_of, spent, stop, used=used)
        result = walk.run()
        for slot in walk.ghosts_spent:
            spent.setdefault(slot, window.day)
        if walk.hooks is not None:
            for slot in walk.hooks.used_today:
                used.setdefault(slot, window.day)
        if window.day in wanted:
            results.append(result)
    return results


@dataclass
class _DayWalk:
    """The state of the walk through one day's posts: the plan, the window, ghost votes spent."""

    plan: GamePlan
    window: DayWindow
    as_of: PostRef | None
    spent_before: dict[str, int]
    end_index: int | None = None
    used: dict[str, int] = field(default_factory=dict)
    # the slots whose ghost vote the day spent, in the order cast (a dict as an ordered set)
    ghosts_spent: dict[str, None] = field(default_factory=dict)
    newcomers: set[str] = field(default_factory=set)
    audit: list[AuditEntry] = field(default_factory=list)
    warnings: list[Notice] = field(default_factory=list)
    deaths: list[DayDeath] = field(default_factory=list)  # what the game's hooks killed
    steps: list[WagonStep] = field(default_factory=list)  # the wagons after each change
    actions: list[Sequence[VoteAction]] = field(default_factory=list)  # of the posts read

    def __post_init__(self) -> None:
        plan, day = self.plan, self.window.day
        self.rules: Rules = plan.game.rules
        self.start, self.end = plan.bounds[day]
        self.ended = self.window.end is not None
        if self.as_of is not None:
            cutoff = plan.timeline.after(self.as_of)
            if cutoff < self.end:
                self.end, self.ended = max(cutoff, self.start), False
        if self.end_index is not None and self.end_index < self.end:
            self.end, self.ended = max(self.end_index, self.start), False
        alive = {s.key for s in plan.game.slots if plan.alive_at(s.key, self.start)}
        self.state = DayState(alive)
        self.no_lynch_open = no_lynch_available(self.rules, day, plan.night_kill_before(day))
        self.hooks = plan.game.variant.day_hooks(self)  # the game's rules of a day

    def kill(self, slot: str, post: Post, cause: str, rule: str = "") -> None:
        """A death a game's day rule causes at `post`: the player dies now, and the count
        carries it (with the rule that killed) so that end-day records it."""
        self.state.kill(slot)
        holder = self.plan.holder(slot, self.end)
        self.deaths.append(DayDeath(holder, post.number, cause, rule, thread=post.thread))

    def display(self, target: str, pos: int) -> str:
        return NO_LYNCH_LABEL if target == NO_LYNCH_KEY else self.plan.holder(target, pos)

    # --- the walk ---------------------------------------------------------------------------

    def run(self) -> DayCount:
        posts = self.plan.timeline.posts
        changes = self._changes()
        outcome: Outcome | None = None
        last_post: int | None = None
        last_thread = ""
        pos = self.start
        for pos in range(self.start, self.end):
            post = posts[pos]
            for change in changes.get(pos, ()):
                self._apply_change(change, pos, post)
            if pos in changes:
                outcome = self._hammer(post, pos)  # a death can lower the threshold
                if outcome:
                    last_post, last_thread = post.number, post.thread  # counted through it
                    break
            outcome = self._read_post(post, pos)
            last_post, last_thread = post.number, post.thread
            if outcome:
                break
        end_pos = pos if outcome else self.end
        # a count stopped at a post (a day going on, --as-of) names each slot as it was at
        # that post, not at the index after it (a replacement there is not yet made)
        named_at = (
            end_pos - 1 if outcome is None and not self.ended and end_pos > self.start else end_pos
        )
        ended_at = None
        if outcome is None:
            outcome = self._day_end_outcome(named_at)
            if self.ended and self.window.end is not None:
                ended_at = self.window.end.time  # a deadline, not a post, ended the day
        if ended_at is not None:
            self._late_votes(ended_at)
        if outcome.kind is OutcomeKind.TIE and self.hooks is not None:
            outcome = self.hooks.settle_tie(outcome, end_pos)
        outcome = self._spared(outcome)
        self.warnings.extend(ledger_contradictions(self.plan, self.window, outcome, end_pos))
        return build_count(self, outcome, last_post, end_pos, last_thread, ended_at, named_at)

    def _late_votes(self, deadline: datetime) -> None:
        """The votes players posted after the deadline that ended the day, before the next day
        started: not counted, each in the audit and a warning (a late hammer is argued about)."""
        plan, day = self.plan, self.window.day
        posts = plan.timeline.posts
        stop = plan.bounds[day + 1][0] if day + 1 in plan.bounds else len(posts)
        if self.as_of is not None:  # a count as of a post knows nothing posted after it
            stop = min(stop, plan.timeline.after(self.as_of))
        next_day = day_start(plan.game, day + 1, posts)
        late = [
            p
            for p in posts[self.end : stop]
            if deadline_refusal(p.time, deadline, next_day)
            and plan.game.find_slot(p.author) is not None
            and normalise(p.author) not in plan.hosts
        ]
        when = deadline.astimezone(plan.game.timezone).strftime("%Y-%m-%d %H:%M %Z")
        read = post_clauses(late, vote_reader(self.rules.syntaxes))
        for post, actions in zip(late, read, strict=True):
            for a in actions:
                res = self._resolve(a.target) if a.kind is ActionKind.VOTE else None
                self._log(post, a, res, False, Rule.AFTER_DEADLINE)
            if actions:
                self.warn(post, f"{post.author} voted after the deadline ({when}); not counted")

    def _spared(self, outcome: Outcome) -> Outcome:
        """An execution the game's rules keep from killing says why (the Tea Lady, the Fool)."""
        if outcome.kind is not OutcomeKind.EXECUTION or self.hooks is None:
            return outcome
        slot = self.plan.game.find_slot(outcome.player)
        reason = self.hooks.execution_spared(slot) if slot else None
        return replace(outcome, survives=reason) if reason else outcome

    def _changes(self) -> dict[int, list[tuple[str, str | None]]]:
        """Ledger changes keyed by the timeline index at which they take effect."""
        changes: dict[int, list] = {}
        for pos, revived, slot in self.plan.life:
            # a change at the day's first post is in the living counted from it already
            if self.start < pos < self.end:
                changes.setdefault(pos, []).append(("revival" if revived else "death", slot))
        for pos in self.plan.resets:
            if self.start <= pos < self.end:
                changes.setdefault(pos, []).append(("reset", None))
        if self.hooks is not None:
            for pos, event in self.plan.day_abilities():
                if self.start <= pos < self.end:
                    changes.setdefault(pos, []).append(("ability", event))
        return changes

    def _apply_change(self, change: tuple[str, str | None], pos: int, post: Post) -> None:
        kind, slot = change
        if kind == "death" and slot in self.state.alive:
            self.state.kill(slot)
            self.warn(
                post,
                f"{self.plan.holder(slot, pos)} died; "
                "their votes and the votes on them are cleared",
            )
        elif kind == "revival" and slot not in self.state.alive:
            self.state.alive.add(slot)
            self.warn(post, f"{self.plan.holder(slot, pos)} is alive again, and may vote")
        elif kind == "reset":
            self.state.reset()
            self.warn(post, "the host reset the votes")
        elif kind == "ability":
            self.hooks.day_ability(slot, post, pos)
        if self.hooks is not None:
            self.hooks.after_action(post, pos)  # a master who died votes no more

    def _read_post(self, post: Post, pos: int) -> Outcome | None:
        """Apply the post's actions in order; the outcome if one of them ends the day."""
        actions = self._actions(pos)
        correction = self.plan.correction(post)
        if correction is not None:
            actions = self._corrected(correction, actions, post)
        if any(a.listed for a in actions):
            actions = self._named_in_lists(post, actions)
        if not actions:
            return None
        game = self.plan.game
        slot = game.find_slot(post.author)
        holds = False
        if slot is not None:
            holder = self.plan.holder(slot, pos)
            holds = (
                normalise(holder) == normalise(post.author)
                or normalise(post.author) in self.plan.accounts[slot]
            )
        refusal = voter_refusal(
            is_host=normalise(post.author) in self.plan.hosts,
            is_player=slot is not None,
            holds_slot=holds,
            alive=slot in self.state.alive,
            voteless=slot is not None and (game.slot(slot).voteless or game.slot(slot).weight == 0),
            rules=self.rules,
        )
        if refusal is not None:
            for a in actions:
                self._log(post, a, None, False, refusal)
            if refusal is Rule.NOT_A_PLAYER:
                if post.author not in self.newcomers:  # one warning each; the audit has all
                    self.newcomers.add(post.author)
                    hint = self._newcomer_hint(post, pos)
                    self.warn(
                        post, f"{post.author} is not a player; their votes are ignored; {hint}"
                    )
            elif refusal is Rule.NOT_THE_HOLDER:
                self.warn(
                    post,
                    f"{post.author} does not hold the slot now ({self.plan.holder(slot, pos)} "
                    "does); their vote is ignored",
                )
            elif refusal is Rule.DEAD_VOTER:  # the dead do not post, in most games: a host looks
                self.warn(post, f"{post.author} is dead; their vote is not counted")
            return None
        if flag_edited_vote(post.edited, correction is not None):
            self.warn(post, f"{post.author}'s vote post was edited; counted as it reads now")
        if slot not in self.state.alive:
            return self._ghost_actions(slot, post, pos, actions)
        weight = game.slot(slot).weight
        votes_here = sum(1 for a in actions if a.kind is ActionKind.VOTE)
        shares = split_shares(self.rules, weight, votes_here)
        splitting = iter(shares) if shares else None
        split_started = False
        for a in actions:
            share = None
            if splitting is not None and a.kind is ActionKind.VOTE:
                share = next(splitting, None)
                if share is None:  # more votes than the voter has: the rest are read as usual
                    splitting = None
            outcome = self._living_action(slot, weight, post, pos, a, share, not split_started)
            split_started = split_started or share is not None
            if self.hooks is not None:
                self.hooks.after_action(post, pos)
            outcome = outcome or self._hammer(post, pos)
            if outcome:
                return outcome
            if slot not in self.state.alive:
                break  # the voter died at this post (the Witch's curse)
        return None

    def _actions(self, pos: int) -> Sequence[VoteAction]:
        """The vote actions of the post at `pos`, read (or kept from an earlier run) in blocks
        that double as the walk goes on: a day that ends at a hammer reads few posts past it."""
        while pos >= self.start + len(self.actions):
            begin = self.start + len(self.actions)
            stop = min(self.end, begin + max(FIRST_BLOCK, len(self.actions)))
            block = self.plan.timeline.posts[begin:stop]
            self.actions.extend(post_clauses(block, vote_reader(self.rules.syntaxes)))
        return self.actions[pos - self.start]

    def _named_in_lists(self, post: Post, actions: Sequence[VoteAction]) -> list[VoteAction]:
        """The actions less the listed words ("VTL Ann, she lies") that name no player for
        sure, or in a game of one vote each: talk, kept in the audit only."""
        kept = []
        for a in actions:
            if a.listed:  # the whole piece a name, not an opening of it ("Bo is town")
                res = self.plan.resolver.resolve(a.target, frozenset(self.state.alive), True)
                player = res.kind is TargetKind.PLAYER
                if not listed_name_counts(
                    self.rules.multi_vote, player, res.confidence >= CONFIDENT
                ):
                    self._log(post, a, res, False, Rule.LISTED_TALK)
                    continue
            kept.append(a)
        return kept

    def _corrected(
        self, correction: Event, actions: list[VoteAction], post: Post
    ) -> list[VoteAction]:
        if correction.action == "ignore":
            for a in actions:
                self._log(post, a, None, False, Rule.IGNORED)
            return []
        if correction.action == "actions":
            return read_correction(correction.actions or "")
        raw = f"[host correction] {correction.target}"
        return [VoteAction(ActionKind.VOTE, correction.target or "", raw, None)]

    def _newcomer_hint(self, post: Post, pos: int) -> str:
        """What the host most likely needs: an account of a player (a name that looks like
        one), or a replacement of the living player who has been quiet the longest."""

        names = [n for s in self.plan.game.slots for n in self.plan.game.slot_names(s.key)]
        close = did_you_mean(post.author, names)
        if close:
            return f"if it is a player's other account{close}, add it to their accounts"
        last_seen: dict[str, int] = {}
        for i, p in enumerate(self.plan.timeline.posts[:pos]):
            slot = self.plan.game.find_slot(p.author)
            if slot is not None:
                last_seen[slot] = i
        quiet = min(self.state.alive, key=lambda s: (last_seen.get(s, -1), s), default=None)
        if quiet is None:
            return "add them to game.toml if they play"
        holder = self.plan.holder(quiet, pos)
        return (
            f"if they replaced {holder} (the quietest living player): `modtool record "
            f"replacement {self.plan.game.folder} {holder!r} {post.author!r} --post {post.number}`"
        )

    def _resolve(self, text: str) -> Resolution:
        return self.plan.resolver.resolve(text, frozenset(self.state.alive))

    def _living_action(
        self,
        slot: str,
        weight: int,
        post: Post,
        pos: int,
        a: VoteAction,
        share: int | None = None,
        first_split: bool = False,
    ) -> Outcome | None:
        state = self.state
        if a.kind is ActionKind.UNVOTE:
            if self.rules.multi_vote and a.target:
                res = self._resolve(a.target)
                if res.kind is TargetKind.PLAYER and not names_every_vote(a.target, res):
                    # "Unvote Bo" from a player voting only Ann leaves Ann's vote standing
                    removed = state.withdraw(slot, res.slot)
                    self._log(
                        post, a, res, bool(removed), Rule.UNVOTE if removed else Rule.NO_SUCH_VOTE
                    )
                    return
            if self.rules.multi_vote and len(state.standing(slot)) > 1:
                self.warn(
                    post, f"{post.author} unvoted without a name; all their votes are removed"
                )
            state.withdraw(slot)
            self._log(post, a, None, True, Rule.UNVOTE)
            return
        res = self._resolve(a.target)
        if res.kind is TargetKind.UNVOTE:
            state.withdraw(slot)
            self._log(post, a, res, True, Rule.EMPTY_VOTE)
            return
        if res.kind in (TargetKind.AMBIGUOUS, TargetKind.UNRESOLVED):
            self._unresolved(post, pos, a, res)
            return
        target = NO_LYNCH_KEY if res.kind is TargetKind.NO_LYNCH else res.slot
        refusal = target_refusal(
            self.rules,
            voter=slot,
            target=target,
            target_alive=target in state.alive,
            no_lynch_open=self.no_lynch_open,
        )
        if refusal is not None:
            self._log(post, a, res, False, refusal)
            if refusal is Rule.NO_LYNCH_UNAVAILABLE:
                self.warn(
                    post,
                    f"{post.author} voted no lynch, which is not available today; not counted",
                )
            elif refusal is Rule.DEAD_TARGET:
                self.warn(
                    post,
                    f"{post.author} voted for {self.plan.holder(target, pos)}, who is dead; "
                    "not counted",
                )
            return None
        if self.hooks is not None:
            refusal = self.hooks.refusal(slot, target, post, pos)  # the hook says why
            if refusal is not None:
                self._log(post, a, res, False, refusal)
                return None
            stopped = self.hooks.before_vote(slot, post, pos)  # the voter died of voting
            if stopped is not None:
                self._log(post, a, res, False, stopped)
                return None
        if share is not None:
            # A split: the post's first vote clears the voter's old votes, each takes a share.
            state.cast(_Vote(slot, target, post, share), replace=first_split)
            self._log(post, a, res, True, Rule.SPLIT_VOTE)
        else:
            state.cast(
                _Vote(slot, target, post, weight), replace=replaces_earlier_votes(self.rules)
            )
            self._log(post, a, res, True, Rule.VOTE)
        if res.method is not None and res.confidence < CONFIDENT:
            why = f"; {res.evidence}" if res.evidence else ""
            self.warn(
                post,
                f"{post.author}: read {a.raw!r} as {self.display(target, pos)} "
                f"({res.method.value}, confidence {res.confidence:.2f}{why})",
            )
        if self.hooks is not None:
            return self.hooks.after_vote(slot, target, post, pos)
        return None

    def _unresolved(self, post: Post, pos: int, a: VoteAction, res: Resolution) -> None:
        if res.kind is TargetKind.UNRESOLVED:
            why = "could not tell who"
            rule = Rule.UNRESOLVED
        else:
            names = ", ".join(self.plan.holder(c, pos) for c in res.candidates)
            why = f"ambiguous between {names}:"
            rule = Rule.AMBIGUOUS
        self._log(post, a, res, False, rule)
        self.warn(post, f"{post.author}: {why} {a.raw!r} means; not counted")

    def _ghost_actions(
        self, slot: str, post: Post, pos: int, actions: list[VoteAction]
    ) -> Outcome | None:
        day = self.window.day
        for a in actions:
            if a.kind is ActionKind.UNVOTE:
                self._log(post, a, None, False, Rule.GHOST_UNDO)
                continue
            res = self._resolve(a.target)
            if res.kind is not TargetKind.PLAYER and res.kind is not TargetKind.NO_LYNCH:
                rule = Rule.AMBIGUOUS if res.kind is TargetKind.AMBIGUOUS else Rule.UNRESOLVED
                self._log(post, a, res, False, rule)
                continue
            target = NO_LYNCH_KEY if res.kind is TargetKind.NO_LYNCH else res.slot
            recorded = self.plan.ghosts_recorded.get(slot)
            spent = (
                slot in self.spent_before
                or (recorded is not None and recorded < day)
                or slot in self.ghosts_spent
            )
            refusal = ghost_vote_refusal(
                target, self.state.voted_by_living, spent, target in self.state.alive
            )
            if refusal:
                self._log(post, a, res, False, refusal)
                self.warn(post, f"{post.author}'s ghost vote: {refusal}")
                continue
            self.state.cast(_Vote(slot, target, post, 1, ghost=True), replace=False)
            self.ghosts_spent[slot] = None
            self._log(post, a, res, True, Rule.GHOST_VOTE)
            outcome = self._hammer(post, pos)
            if outcome:
                return outcome
        return None

    # --- outcomes ------------------------------------------------------------------------------

    def _hammer(self, post: Post, pos: int) -> Outcome | None:
        totals = self.state.totals()
        self.state.track_levels(totals, pos)
        alive = len(self.state.alive)
        self._step(post, totals, alive)
        hit = hammered(self.rules, totals, alive)
        if hit is None:
            return None
        if hit.target == NO_LYNCH_KEY:
            return Outcome(
                OutcomeKind.NO_EXECUTION,
                None,
                post.number,
                f"no lynch reached {hit.needed} of {alive} alive",
                Rule.NO_LYNCH_MAJORITY,
                votes=hit.votes,
                needed=hit.needed,
                alive=alive,
                thread=post.thread,
            )
        return Outcome(
            OutcomeKind.EXECUTION,
            self.plan.holder(hit.target, self.end),
            post.number,
            f"reached majority: {hit.votes} of {hit.needed} needed with {alive} alive",
            Rule.HAMMER,
            votes=hit.votes,
            needed=hit.needed,
            alive=alive,
            thread=post.thread,
        )

    def _step(self, post: Post, totals: dict[str, int], alive: int) -> None:
        """What the wagons stand at after this change (`DayCount.steps`); nothing is decided."""
        shown = tuple((self.display(t, self.end), n) for t, n in totals.items() if n)
        self.steps.append(
            WagonStep(post.number, post.time, shown, votes_needed(self.rules.threshold, alive))
        )

    def _day_end_outcome(self, named_at: int) -> Outcome:
        """The outcome when the day's posts run out; names as the slots were at `named_at`."""
        end_pos = named_at
        standings = self.state.standings()
        if not self.ended:
            leader = max(standings, key=lambda s: (s.votes, -s.reached_at), default=None)
            lead = (
                f"; leading: {self.display(leader.target, end_pos)} ({leader.votes})"
                if leader and leader.votes
                else ""
            )
            return Outcome(
                OutcomeKind.PENDING,
                None,
                None,
                f"Day {self.window.day} is in progress{lead}",
                Rule.IN_PROGRESS,
            )
        posts = self.plan.timeline.posts
        end_post = posts[self.end - 1].number if self.end > 0 else None
        end_thread = posts[self.end - 1].thread if self.end > 0 else ""
        chooser = self.plan.game.variant.tie_chooser.get("en")
        ended = day_end_outcome(self.rules, standings, len(self.state.alive), chooser)
        player = self.display(ended.player, end_pos) if ended.player is not None else None
        tied = tuple(self.display(t, end_pos) for t in ended.tied)
        return replace(ended, player=player, post=end_post, tied=tied, thread=end_thread)

    # --- the record -----------------------------------------------------------------------------

    def warn(self, post: Post, message: str) -> None:
        """A notice for the host at `post` (a game's day rules warn through it too)."""
        self.warnings.append(Notice(post.number, message))

    def _log(
        self, post: Post, a: VoteAction, res: Resolution | None, accepted: bool, rule: StrEnum
    ) -> None:
        assert accepted == (rule in ACCEPTING), rule
        target = None
        if res is not None:
            if res.kind is TargetKind.PLAYER:
                target = self.plan.holder(res.slot, self.end)
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
                evidence=res.evidence if res else "",
            )
        )


def ledger_contradictions(
    plan: GamePlan, window: DayWindow, outcome: Outcome, end_pos: int
) -> list[Notice]:
    """A recorded execution or day end that disagrees with the count is shown, never silently
    believed or silently overruled."""
    day = window.day
    found = []
    recorded = [
        e
        for e in plan.game.deaths()
        if e.phase is not None
        and not e.phase.is_night
        and e.phase.number == day
        and (e.cause or "").casefold() in EXECUTED_CAUSES
    ]
    counted = outcome.player if outcome.kind is OutcomeKind.EXECUTION else None
    for e in recorded:
        name = plan.holder(e.slot, end_pos)
        if outcome.kind is OutcomeKind.PENDING or name in outcome.tied:
            continue  # not decided yet, or the host's choice in a tie
        if counted is None:
            found.append(
                Notice(
                    outcome.post,
                    f"the ledger records {name}'s execution on Day {day} (line {e.line}), "
                    f"but the count executes nobody ({outcome.reason})",
                )
            )
        elif normalise(counted) != normalise(name):
            found.append(
                Notice(
                    outcome.post,
                    f"the ledger records {name}'s execution on Day {day} (line {e.line}), "
                    f"but the count executes {counted} at post {outcome.post}",
                )
            )
    if outcome.rule is Rule.HAMMER and window.end is not None:
        rules = plan.game.rules
        players = [
            p
            for p in plan.timeline.posts[end_pos + 1 : plan.bounds[day][1]]
            if normalise(p.author) not in plan.hosts
        ]
        actions = post_clauses(players, vote_reader(rules.syntaxes))
        later = [p.number for p, found in zip(players, actions, strict=True) if found]
        if later:
            shown = ", ".join(str(n) for n in later[:5]) + (" …" if len(later) > 5 else "")
            found.append(
                Notice(
                    outcome.post,
                    f"the ledger ends Day {day} at post {window.end.post}, after the "
                    f"hammer at post {outcome.post}; votes in posts {shown} are not counted",
                )
            )
    return found


# --- results -----------------------------------------------------------------------------------


def grouped(warnings: Sequence[Notice]) -> tuple[Notice, ...]:
    """The same warning on several posts is one line that lists the later posts."""
    first: dict[str, Notice] = {}
    later: dict[str, list[int | None]] = {}
    for n in warnings:
        if n.message in first:
            later[n.message].append(n.post)
        else:
            first[n.message] = n
            later[n.message] = []
    out = []
    for message, n in first.items():
        more = later[message]
        if more:
            shown = ", ".join(str(p) for p in more[:8]) + (" …" if len(more) > 8 else "")
            message = f"{message} (also posts {shown})"
        out.append(Notice(n.post, message))
    return tuple(out)


def build_count(
    walk: _DayWalk,
    outcome: Outcome,
    last_post: int | None,
    end_pos: int,
    last_thread: str = "",
    ended_at: datetime | None = None,
    named_at: int | None = None,
) -> DayCount:
    """The day's count as every output prints it: wagons biggest first (ties by who got there
    first), the living who are not voting in seat order, the thresholds; `ended_at`: the
    deadline that ended the day, when a time ended it."""
    plan, state, rules = walk.plan, walk.state, walk.rules
    named = end_pos if named_at is None else named_at  # where slots are named; the win at end_pos
    alive = len(state.alive)
    needed = votes_needed(rules.threshold, alive)
    nl_needed = no_lynch_needed(rules, alive) if walk.no_lynch_open else None
    wagons: dict[str, list[_Vote]] = {}
    for votes in state.votes.values():
        for v in votes.values():
            wagons.setdefault(v.target, []).append(v)
    built = []
    for target, votes in wagons.items():
        votes.sort(key=lambda v: v.post.number or 0)
        total = sum(v.weight for v in votes)
        voters = tuple(
            Voter(
                plan.holder(v.voter, named),
                v.post.number,
                v.post.url,
                v.weight,
                v.ghost,
                v.post.thread,
            )
            for v in votes
        )
        reached = state.reached.get(target, {}).get(total, 0)
        wagon_needs = nl_needed if target == NO_LYNCH_KEY and nl_needed else needed
        wagon = Wagon(walk.display(target, named), total, voters, wagon_needs)
        built.append((-total, reached, wagon))
    built.sort(key=lambda t: (t[0], t[1], t[2].target.casefold()))
    voting = {
        slot
        for slot, votes in state.votes.items()
        if votes and slot in state.alive and not all(v.ghost for v in votes.values())
    }
    order = {
        s.key: (s.seat if s.seat is not None else 10_000, i) for i, s in enumerate(plan.game.slots)
    }
    not_voting = tuple(
        plan.holder(s, named)
        for s in sorted(state.alive - voting, key=order.__getitem__)
        if not plan.game.slot(s).voteless
    )
    return DayCount(
        day=walk.window.day,
        alive=alive,
        threshold=needed,
        no_lynch_threshold=nl_needed,
        most_votes_win=most_votes_win(plan.game.rules.threshold),
        wagons=tuple(w for _, _, w in built),
        not_voting=not_voting,
        outcome=outcome,
        warnings=grouped(walk.warnings),
        audit=tuple(walk.audit),
        last_post=last_post,
        last_thread=last_thread,
        win=_win_check(walk, outcome, end_pos),
        deaths=tuple(walk.deaths),
        terms=(plan.game.variant.eliminate, plan.game.variant.no_elimination),
        tie_chooser=tuple(plan.game.variant.tie_chooser.items()),
        steps=tuple(walk.steps),
        ended_at=ended_at,
        ghost_votes_spent=tuple(plan.holder(s, named) for s in walk.ghosts_spent),
    )


def _win_check(walk: _DayWalk, outcome: Outcome, end_pos: int):
    """The game's win check of the day, with the living now and the day's outcome."""
    return walk.plan.game.variant.day_win(walk, outcome, end_pos)
