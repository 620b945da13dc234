"""Checking posted vote counts: find the counts hosts and players post in the thread, and list
where each differs from modtool's count at that post, voter by voter.

It never changes a count: a posted count can be wrong too, and this is how a host finds out
which one is. A posted count is recognised by its shape, not by who posted it:

    Oso (3) - Parama, Bud, [winger]          Name (n) - voters
    Formerfish - 2 (mnemonicdevice, Elyse)   Name - n (voters)
    (3) Whiskers: Friend, Tovarish [L-4]     (n) Name: voters [L-x]
    bubbajack8: Aj, Amrun, JKMatthews (4)    Name: voters (n)
    Kid A: TUNNELSNAKES, N64Lord [L-5]       Name: voters
    Not Voting (3) - Akira, sordros          the players not voting

A post holds a count when at least two of its own lines read as wagons whose target and most
voters are players of the game (or one wagon and a "not voting" line).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import replace

from ..threads.frozen import frozen
from ..threads.patterns import lazy
from ..threads.posts import Post
from .count import count_with_plan
from .ledger import Game, PostRef
from .names import Resolution, Resolver, TargetKind, normalise
from .plan import GamePlan
from .results import NO_LYNCH_LABEL, DayCount

NOT_VOTING = "\x00not-voting"
_NOT_VOTING_WORDS = {"notvoting", "notvoted", "novote", "novotes", "abstaining", "abstain"}
_LEVEL = lazy(r"[\[(]?\s*\bL\s*-\s*\d+\s*[\])]?", re.I)
_LEAD = lazy(r"^[>*•·\-–—\s]+")
_LEAD_NUMBER = lazy(r"^[(\[]?\s*(\d{1,2})\s*[)\]]?\s*[-:.]?\s*(?=\D)")
_TRAILING_NUMBER = lazy(r"\s*[(\[]\s*(\d{1,2})\s*(?:votes?)?\s*[)\]]\s*$", re.I)
_TRAILING_LIST = lazy(r"\(([^()]*[^\W\d_][^()]*)\)\s*$")
_SPLIT = lazy(r"\s*(?::|\s[-–—]+\s?|(?<=[)\]])\s*[-–—]+)\s*")
_HEAD_NUMBER = lazy(r"[(\[]?\s*\b(\d{1,2})\b\s*(?:votes?)?\s*[)\]]?", re.I)
_VOTER_SPLIT = lazy(r"\s*(?:,|;|\||&|\+|\band\b)\s*", re.I)
_POST_REF = lazy(r"\s*[(\[][^()\[\]]*[)\]]\s*$")


@frozen
class PostedWagon:
    """One wagon of a vote count someone posted in the thread, as read."""

    target: str  # a slot key, NO_LYNCH_LABEL, or NOT_VOTING
    number: int | None  # the number the poster wrote, if any
    voters: tuple[str, ...]  # slot keys
    unread: tuple[str, ...]  # voter names that name no player


@frozen
class PostedCount:
    """A vote count posted in the thread: its post, its day and its wagons."""

    post: Post
    day: int
    wagons: tuple[PostedWagon, ...]


@frozen
class CountedVote:
    """Whom modtool counts a player voting at a posted count, and at which post."""

    target: str
    post: int | None  # the post of the vote modtool counts
    url: str | None


@frozen
class Difference:
    """A player whose vote a posted count and modtool's count give differently."""

    voter: str  # the player's name at the post
    posted: tuple[str, ...]  # whom the posted count has them voting (empty: not voting)
    counted: tuple[CountedVote, ...]  # whom modtool counts them voting


@frozen
class CountCheck:
    """A posted count compared with modtool's at its post: the differences and notes."""

    posted: PostedCount
    differences: tuple[Difference, ...]
    notes: tuple[str, ...]  # posted numbers that do not match their own lists, unread names


def split_wagon_line(line: str) -> tuple[str, int | None, list[str]] | None:
    """A count line's target text, the number written and the voter names; None when the line
    is not shaped like one."""
    s = _LEVEL.sub(" ", _LEAD.sub("", line.strip())).strip()
    if not s or len(s) > 400:
        return None
    number = None
    m = _LEAD_NUMBER.match(s)
    if m:
        number, s = int(m[1]), s[m.end() :]
    m = _TRAILING_NUMBER.search(s)
    if m and number is None:
        number, s = int(m[1]), s[: m.start()]
    m = _TRAILING_LIST.search(s)
    if m and _SPLIT.search(s[: m.start()]) is None or (m and "," in m[1]):
        head, rest = s[: m.start()], m[1]
    else:
        parts = _SPLIT.split(s, maxsplit=1)
        if len(parts) != 2:
            return None
        head, rest = parts
    head = head.strip()
    m = _HEAD_NUMBER.search(head)
    if m and number is None and m[0].strip() != head:
        number = int(m[1])
    head = _HEAD_NUMBER.sub(" ", head).strip(" -–—:()[]")
    if not head:
        return None
    voters = [_without_note(v) for v in _VOTER_SPLIT.split(rest.strip())]
    return head, number, [v for v in voters if v]


def _without_note(name: str) -> str:
    """ "Oso (#33)" is Oso; "[winger]" is a name, not a note."""
    bare = _POST_REF.sub("", name).strip(" .")
    return bare or name.strip(" .")


def read_posted_count(
    post: Post, resolver: Resolver, day: int, multi_vote: bool = False
) -> PostedCount | None:
    """The vote count a post holds, if it holds one."""
    wagons: list[PostedWagon] = []
    for line in post.body.lines:
        parts = split_wagon_line("".join(run.text for run in line))
        if parts is None:
            continue
        head, number, names = parts
        if normalise(head) in _NOT_VOTING_WORDS:
            target = NOT_VOTING
        else:
            res = _resolve_whole(resolver, head)
            if res.kind is TargetKind.NO_LYNCH:
                target = NO_LYNCH_LABEL
            elif res.kind is TargetKind.PLAYER:
                target = res.slot
            else:
                continue
        voters, unread = [], []
        for name in names:
            res = _resolve_whole(resolver, name)
            if res.kind is TargetKind.PLAYER:
                voters.append(res.slot)
            else:
                unread.append(name)
        if target != NOT_VOTING and (not voters or len(unread) > len(voters)):
            if names or number not in (0, None):
                continue
        wagons.append(PostedWagon(target, number, tuple(voters), tuple(unread)))
    real = [w for w in wagons if w.target != NOT_VOTING and w.voters]
    if not multi_vote:
        # a voter on two wagons of a one-vote game is a host's slip; several are a history
        listed = [v for w in real for v in w.voters]
        if len(listed) - len(set(listed)) > 1:
            return None
    if len(real) >= 2 or (real and any(w.target == NOT_VOTING for w in wagons)):
        return PostedCount(post, day, tuple(wagons))
    return None


def _resolve_whole(resolver: Resolver, text: str) -> Resolution:
    """A name in a count is the whole text: "xvart flips town" is not a wagon on xvart."""
    return resolver.resolve(text, whole=True)


def find_posted_counts(
    game: Game,
    posts: Sequence[Post],
    days: Collection[int] | None = None,
    as_of: int | PostRef | None = None,
) -> tuple[GamePlan, list[PostedCount]]:
    """Every posted count in the game's days (or those given, up to post `as_of`), in order."""
    plan = GamePlan.build(game, posts)
    if isinstance(as_of, int):
        as_of = PostRef(post=as_of)
    cutoff = plan.timeline.after(as_of) if as_of is not None else len(plan.timeline.posts)
    found = []
    for day, (start, end) in sorted(plan.bounds.items()):
        if days is not None and day not in days and day - 1 not in days:
            continue
        for post in plan.timeline.posts[start : min(end, cutoff)]:
            posted = read_posted_count(post, plan.resolver, day, game.rules.multi_vote)
            if posted is not None:
                found.append(posted)
    return plan, found


def check_counts(
    game: Game,
    posts: Sequence[Post],
    days: Collection[int] | None = None,
    as_of: int | PostRef | None = None,
) -> list[CountCheck]:
    """Each posted count compared with modtool's count just before that post."""
    plan, found = find_posted_counts(game, posts, days, as_of)
    checks = []
    for posted in found:
        post = posted.post
        before = plan.timeline.after(PostRef(post=post.number, thread=post.thread)) - 1
        (count,) = count_with_plan(plan, [posted.day], end_index=before)
        check = _compare(plan, posted, count, before)
        if not count.wagons and posted.day - 1 in plan.bounds:
            # Nobody has voted today yet: a count posted now may be the previous day's final
            # one (night posts open the next day's window); it is read as the closer of the two.
            (final,) = count_with_plan(plan, [posted.day - 1])
            earlier = _compare(plan, replace(posted, day=posted.day - 1), final, before)
            if len(earlier.differences) < len(check.differences):
                check = earlier
        checks.append(check)
    return checks


def _compare(plan: GamePlan, posted: PostedCount, count: DayCount, pos: int) -> CountCheck:
    slot_of = {n: s.key for s in plan.game.slots for n in plan.game.slot_names(s.key)}
    counted: dict[str, dict[str, CountedVote]] = {}
    for wagon in count.wagons:
        target = slot_of.get(wagon.target, wagon.target)
        for v in wagon.voters:
            if not v.ghost:
                vote = CountedVote(_shown(plan, target, pos), v.post, v.url)
                counted.setdefault(slot_of.get(v.player, v.player), {})[target] = vote
    listed: dict[str, set[str]] = {}
    notes = []
    for w in posted.wagons:
        if w.target != NOT_VOTING:
            for voter in w.voters:
                listed.setdefault(voter, set()).add(w.target)
            weights = sum(plan.game.slot(v).weight for v in w.voters)
            if w.number is not None and w.number not in (len(w.voters), weights):
                notes.append(
                    f"{_shown(plan, w.target, pos)}: the post says {w.number} "
                    f"but lists {len(w.voters)}"
                )
        if w.unread:
            notes.append(f"not players: {', '.join(w.unread)}")
    # A count with a "not voting" line claims to be whole; one without it may show only the
    # main wagons, and is compared on those wagons alone.
    whole = any(w.target == NOT_VOTING for w in posted.wagons)
    shown_targets = {w.target for w in posted.wagons}
    differences = []
    for voter in sorted(set(listed) | set(counted), key=lambda s: plan.holder(s, pos).casefold()):
        mine = {t: v for t, v in counted.get(voter, {}).items() if whole or t in shown_targets}
        theirs = listed.get(voter, set())
        if set(mine) != theirs:
            differences.append(
                Difference(
                    plan.holder(voter, pos),
                    tuple(sorted(_shown(plan, t, pos) for t in theirs)),
                    tuple(mine[t] for t in sorted(mine)),
                )
            )
    return CountCheck(posted, tuple(differences), tuple(notes))


def _shown(plan: GamePlan, target: str, pos: int) -> str:
    if target in (NO_LYNCH_LABEL, NOT_VOTING):
        return "No lynch" if target == NO_LYNCH_LABEL else "not voting"
    return plan.holder(target, pos)
