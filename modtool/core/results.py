"""What a count is: the result types every output prints (table, JSON, drafted posts).

`count` builds them; `render` and `reconcile` read them. Nothing here decides anything.
"""

from __future__ import annotations

from dataclasses import field
from datetime import datetime
from enum import StrEnum

from ..threads.frozen import frozen

NO_LYNCH_LABEL = "No lynch"


@frozen
class Win:
    """A win a game's check found: who, by which of the game's win rules, and why."""

    winner: str  # good or evil; in a game of factions, the winning factions
    rule: StrEnum  # the game's own rule (each game has its enum of ways to win)
    reason: str
    # where the game's text can be read two ways and the win rests on a reading: (question,
    # the reading taken, what it says), as the JSON names them
    readings: tuple[tuple[str, str, str], ...] = ()
    named: str = ""  # the winners as a post names them ("the Wolves"); "": `winner` itself
    plural: bool = False  # `named` is a plural subject: "the Wolves win", not "wins"

    @property
    def who(self) -> str:
        return self.named or self.winner

    def wins(self) -> str:
        """The winners and the verb, agreeing: "good wins", "the Wolves win"."""
        return f"{self.who} {'win' if self.plural else 'wins'}"


@frozen
class WinCheck:
    """A game's win check at a point of the count: the win found, if any, and what the host
    must decide."""

    win: Win | None
    notes: tuple[str, ...] = ()  # what the host must decide or record (Scarlet Woman, Politician)


class OutcomeKind(StrEnum):
    EXECUTION = "execution"
    NO_EXECUTION = "no_execution"
    PENDING = "pending"
    TIE = "tie"  # the host must choose among the tied wagons


@frozen
class Voter:
    """One vote on a wagon: who cast it, at which post (and its link), with what weight."""

    player: str
    post: int | None
    url: str | None
    weight: int
    ghost: bool = False
    thread: str = ""  # which of the game's threads the vote is in ("" for a one-thread game)


@frozen
class Wagon:
    """The votes on one target at the end of the counted posts, and how many it needs."""

    target: str
    votes: int
    voters: tuple[Voter, ...]
    needed: int  # votes this wagon needs under the day's threshold

    @property
    def short(self) -> int:
        """Votes still missing (the "L-n" of a vote count); 0 once it has enough."""
        return max(self.needed - self.votes, 0)


@frozen
class Outcome:
    """What the day comes to: an execution, none, a tie or still pending, and the rule that
    says so."""

    kind: OutcomeKind
    player: str | None
    post: int | None
    reason: str
    rule: StrEnum  # a core.rules.Rule, or a rule of the game's own
    tied: tuple[str, ...] = ()
    # the figures behind the reason, so a post can say it in any language
    votes: int | None = None
    needed: int | None = None
    alive: int | None = None
    # an execution the game's rules keep from killing (the Tea Lady, the Fool), and why
    survives: str | None = None
    thread: str = ""  # the thread of `post` ("" for a one-thread game)


@frozen
class Notice:
    """A warning the count gives, at the post it is about."""

    post: int | None
    message: str


@frozen
class AuditEntry:
    """One vote action the count read, and the rule that decided what it did."""

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
    rule: StrEnum  # a core.rules.Rule, or a rule of the game's own
    evidence: str = ""  # why a learned nickname was read as this player


@frozen
class DayDeath:
    """A death a game's day rule caused in the count (a character's shot, a curse on voting),
    at its post: end-day records it unless the ledger already has the player dead."""

    player: str
    post: int | None
    cause: str  # as a host writes it in the ledger ("slain", "cursed")
    rule: str = ""  # the rule that killed, in the game's words
    thread: str = ""  # the thread of `post`


@frozen
class WagonStep:
    """The wagons after one vote action or ledger change of a day, as the count saw them: what
    a chart of the day draws, one step per change."""

    post: int | None
    time: datetime | None
    totals: tuple[tuple[str, int], ...]  # (wagon as printed, votes), every wagon with votes
    needed: int  # votes a wagon needed then (a death lowers it)


@frozen
class DayCount:
    """The count of one day: its wagons, who is not voting, its outcome, its warnings and audit."""

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
    checks: tuple = ()  # reconcile.CountCheck: the day's posted counts, with `count --check`
    win: WinCheck | None = None  # the game's win check at this point: who has won, and notes
    deaths: tuple[DayDeath, ...] = ()  # deaths the game's day rules caused, in post order
    terms: tuple[str, str] = ("lynch", "no lynch")  # the game's words (Variant.eliminate)
    # the most votes win when the day ends, however few (Threshold.PLURALITY): no number of
    # votes is needed, so none is shown (`threshold` is 1)
    most_votes_win: bool = False
    # who chooses among the tied, (language, words) (Variant.tie_chooser): for the drafts
    tie_chooser: tuple[tuple[str, str], ...] = ()
    last_thread: str = ""  # the thread of `last_post`
    # the time the day ended at when a time ended it, not a post (its deadline passed): the
    # next phases run from it, and end-day records it beside the day's last post
    ended_at: datetime | None = None
    # the players whose ghost vote the day spent, in the order cast: also a vote a death has
    # cleared since (it stays spent: "You may cast this ghost vote only once")
    ghost_votes_spent: tuple[str, ...] = ()
    # the wagons after each action, in order: a chart's data, not part of what a count equals
    steps: tuple[WagonStep, ...] = field(default=(), compare=False, repr=False)
