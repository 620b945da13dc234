"""A Vampires day in the count: a tie the vampires settle.

The Vampires game: "If the day ends when there is a tie for most lynch votes, then the vampires
will use their subtle influence to determine which of the tied players gets lynched." The
count names the living Vampires who decide; their choice is a death the ledger records, or
failing that the first post after the day's end by a living Vampire naming exactly one of the
tied players. Anyone else's post naming a tied player is ignored, with a warning.
"""

from __future__ import annotations

import re
from dataclasses import replace
from enum import StrEnum

from ...core.count import EXECUTED_CAUSES
from ...core.names import normalise
from ...core.results import Notice, Outcome, OutcomeKind
from ...core.variant import DayHooks


class VampireRule(StrEnum):
    """The game's rules in outcomes (the core's own are `core.rules.Rule`)."""

    VAMPIRES_CHOSE = "vampires-chose"  # a tie the living Vampires settled


def tie_deciders(roles: dict[str, str | None], alive: set[str]) -> list[str]:
    """Who settles a tie: the living Vampires ("the vampires will use their subtle influence
    to determine which of the tied players gets lynched")."""
    return sorted(s for s in alive if roles.get(s) == "vampire")


def names_in(text: str, names: list[str]) -> list[str]:
    """The names (of `names`) a post's text names as whole words, in the order given."""
    words = _words(text)
    found = []
    for name in names:
        want = _words(name)
        if want and any(words[i : i + len(want)] == want for i in range(len(words))):
            found.append(name)
    return found


def _words(text: str) -> list[str]:
    return [w for w in (normalise(w) for w in re.findall(r"\w+", text)) if w]


def vampires_choice(
    posts: list[tuple[int | None, str | None, str]], deciders: set[str], tied: list[str]
) -> tuple[tuple[int | None, str] | None, list[tuple[int | None, str]]]:
    """The vampires' choice among `tied`, from the posts after the day's end ((number, slot of
    the author or None, text), in order): the first post by one of `deciders` naming exactly
    one tied player, as (post, name); and the posts by anyone else that name one, ignored."""
    ignored = []
    for number, slot, text in posts:
        named = names_in(text, tied)
        if not named:
            continue
        if slot not in deciders:
            ignored.append((number, named[0]))
            continue
        if len(named) == 1:
            return (number, named[0]), ignored
    return None, ignored


class VampireDay(DayHooks):
    """The day hooks of the Vampires game (`core.variant.DayHooks`)."""

    def __init__(self, walk) -> None:
        self.walk = walk

    def settle_tie(self, outcome: Outcome, end_pos: int) -> Outcome:
        walk = self.walk
        plan, game, day = walk.plan, walk.plan.game, walk.window.day
        roles = {s.key: game.role_at(s.key, None) for s in game.slots}
        deciders = tie_deciders(roles, set(walk.state.alive))
        who = ", ".join(plan.holder(s, end_pos) for s in deciders) or "none alive"
        # the reason goes into public posts: the Vampires are named only to the host
        tie = f"tie for the most votes ({outcome.votes}): the vampires"
        post = outcome.post
        tied = list(outcome.tied)
        slots = {n: game.find_slot(n) for n in tied}
        for e in game.deaths():
            if (
                e.phase is not None
                and not e.phase.is_night
                and e.phase.number == day
                and (e.cause or "").casefold() in EXECUTED_CAUSES
                and e.slot in slots.values()
            ):
                name = next(n for n, s in slots.items() if s == e.slot)
                said = f"the living Vampires ({who}) chose {name} (ledger line {e.line})"
                walk.warnings.append(Notice(post, f"{said}; host only"))
                return _chosen(outcome, name, f"{tie} chose {name}")
        start = plan.bounds[day][1]
        nxt = plan.bounds.get(day + 1)
        stop = nxt[0] if nxt else len(plan.timeline.posts)
        posts = [
            (p.number, game.find_slot(p.author), p.text) for p in plan.timeline.posts[start:stop]
        ]
        choice, ignored = vampires_choice(posts, set(deciders), tied)
        for number, name in ignored:
            said = f"post {number} names {name}, but its author is not a living Vampire"
            walk.warnings.append(Notice(number, f"{said}: it does not settle the tie"))
        if choice is not None:
            number, name = choice
            said = f"the living Vampires ({who}) chose {name} at post {number}"
            walk.warnings.append(Notice(post, f"{said}; host only"))
            return _chosen(outcome, name, f"{tie} chose {name}")
        walk.warnings.append(
            Notice(
                post,
                f"the tie is the living Vampires' to settle ({who}; host only): a post by one "
                "of them after the day's end naming one of the tied, or record the death",
            )
        )
        return replace(outcome, reason=f"{tie} choose which is lynched")


def _chosen(outcome: Outcome, name: str, why: str) -> Outcome:
    return replace(
        outcome,
        kind=OutcomeKind.EXECUTION,
        player=name,
        reason=why,
        rule=VampireRule.VAMPIRES_CHOSE,
    )
