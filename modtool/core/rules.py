"""The game's rules as data, and each rule as one small function.

`Rules` is what a setup file's [rules] table becomes (a named preset plus overrides). The
functions below are the only places a vote is accepted or refused, and a threshold, a tie or a
ghost vote decided; the counting engine walks the posts and asks them, and templates print
what they return. `Rule` names every decision, so one grep finds where each is made.
"""

from __future__ import annotations

import random
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import fields, replace
from datetime import datetime
from enum import StrEnum
from pathlib import Path

from ..threads.frozen import frozen
from .results import Outcome, OutcomeKind
from .votes import VoteSyntax


class Threshold(StrEnum):
    MAJORITY = "majority"  # > alive/2; the hammer ends the day at once
    HALF_OF_LIVING = "half-of-living"  # at day end: the most votes, and votes >= alive/2
    PLURALITY = "plurality"  # at day end: the most votes


class TiePolicy(StrEnum):
    NONE = "none"  # nobody dies
    HOST_DECIDES = "host-decides"
    TEAM_CHOOSES = "team-chooses"  # a team the game names chooses (Variant.tie_chooser)
    EARLIEST_TO_REACH = "earliest-to-reach"
    RANDOM = "random"


class NoLynch(StrEnum):
    ALLOWED = "allowed"
    NOT_ALLOWED = "not-allowed"
    NOT_AFTER_NIGHT_KILL = "not-after-night-kill"  # except on Day 1


@frozen
class Rules:
    """How a game counts votes; every field can be set in the setup file's [rules]."""

    threshold: Threshold = Threshold.MAJORITY
    tie: TiePolicy = TiePolicy.NONE
    multi_vote: bool = False  # a living player may vote for several players at once
    no_lynch: NoLynch = NoLynch.ALLOWED
    less_one_for_no_lynch: bool = False  # a no lynch needs one vote fewer than a lynch
    ghost_votes: bool = False  # the dead keep one vote for the rest of the game
    self_vote: bool = True
    random_seed: int = 0  # for tie = "random"; printed with the outcome
    split_votes: bool = False  # a player whose vote is worth 2 may put them on two players
    syntaxes: tuple[VoteSyntax, ...] = (
        VoteSyntax.OFFICIAL,
        VoteSyntax.BOLD,
        VoteSyntax.BBCODE,
        VoteSyntax.HASH,
    )
    # where a game's text can be read two ways, the host's choice (question -> reading); the
    # game checks the names (Variant.readings_problem)
    readings: tuple[tuple[str, str], ...] = ()


_ENUMS = {"threshold": Threshold, "tie": TiePolicy, "no_lynch": NoLynch}
# values an older modtool wrote, still read from game.toml files and presets: rule -> old -> new
_OLD_VALUES = {"tie": {"vampires-choose": TiePolicy.TEAM_CHOOSES}}


# The presets' folder, beside the package's modules in a checkout and in an installed copy
# alike (a path, not importlib.resources: finding a package's reader cost a count 1%).
PRESETS = Path(__file__).resolve().parent.parent / "presets"


def load_preset(name: str) -> dict:
    """A named preset's settings (modtool/presets/NAME.toml): only modtool's own presets, so
    a name is never a path (KeyError for any other)."""
    if name not in preset_names():
        raise KeyError(name)
    try:
        text = (PRESETS / f"{name}.toml").read_text("utf-8")
    except FileNotFoundError:
        raise KeyError(name) from None
    return tomllib.loads(text)


def preset_names() -> list[str]:
    return sorted(
        p.name.removesuffix(".toml") for p in PRESETS.iterdir() if p.name.endswith(".toml")
    )


def rules_from_table(table: Mapping[str, object]) -> Rules:
    """Rules from a [rules] table: `preset = "..."` first, then the table's own keys.

    Raises ValueError with a message naming the bad key or value.
    """
    settings: dict[str, object] = {}
    preset = table.get("preset")
    if preset is not None:
        try:
            settings.update(load_preset(str(preset)))
        except KeyError:
            raise ValueError(
                f"unknown rules preset {preset!r}; use one of {', '.join(preset_names())}"
            ) from None
    settings.update({k: v for k, v in table.items() if k != "preset"})
    known = {f.name for f in fields(Rules)}
    values: dict[str, object] = {}
    for key, value in settings.items():
        attr = key.replace("-", "_")
        if attr not in known:
            raise ValueError(f"unknown rule {key!r}; known rules: {', '.join(sorted(known))}")
        values[attr] = _convert(attr, value)
    return replace(Rules(), **values)


def _convert(attr: str, value: object) -> object:
    if attr in _ENUMS:
        enum = _ENUMS[attr]
        if isinstance(value, str):
            value = _OLD_VALUES.get(attr, {}).get(value, value)
        try:
            return enum(value)
        except ValueError:
            allowed = ", ".join(e.value for e in enum)
            raise ValueError(f"rule {attr!r} cannot be {value!r}; use one of {allowed}") from None
    if attr == "syntaxes":
        try:
            return tuple(VoteSyntax(v) for v in value)  # type: ignore[union-attr]
        except (ValueError, TypeError):
            allowed = ", ".join(s.value for s in VoteSyntax)
            raise ValueError(f"rule 'syntaxes' must be a list of: {allowed}") from None
    if attr == "readings":
        if not isinstance(value, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in value.items()
        ):
            raise ValueError(
                "rule 'readings' must be a table, like readings = { drains = \"...\" }"
            )
        return tuple(sorted(value.items()))
    if attr == "random_seed":
        if not isinstance(value, int):
            raise ValueError("rule 'random_seed' must be a whole number")
        return value
    if not isinstance(value, bool):
        raise ValueError(f"rule {attr!r} must be true or false")
    return value


# --- every decision, by name ------------------------------------------------------------------


class Rule(StrEnum):
    """What decided an action or a day: the audit and the outcome carry one of these."""

    # an action that counts
    VOTE = "vote"
    UNVOTE = "unvote"
    EMPTY_VOTE = "a vote for nobody is an unvote"
    SPLIT_VOTE = "split vote"
    GHOST_VOTE = "ghost vote"
    # an action that does not
    HOST = "a host's post is never a vote"
    NOT_A_PLAYER = "not a player"
    NOT_THE_HOLDER = "does not hold the slot"
    VOTELESS = "voteless player"
    DEAD_VOTER = "dead players cannot vote"
    GHOST_UNDO = "a ghost vote cannot be taken back"
    GHOST_SPENT = "ghost vote already spent"
    GHOST_NOT_A_PLAYER = "a ghost vote must be for a player"
    GHOST_UNVOTED = "a ghost vote may only go to a player some living player voted for today"
    UNRESOLVED = "unresolved"
    AMBIGUOUS = "ambiguous"
    NO_LYNCH_UNAVAILABLE = "no lynch is not available today"
    DEAD_TARGET = "vote for a dead player"
    SELF_VOTE = "self-votes are not allowed"
    IGNORED = "ignored by host correction"
    NO_SUCH_VOTE = "an unvote of a player the voter does not vote for"
    LISTED_TALK = "words listed after a vote that name no player (or one vote each)"
    AFTER_DEADLINE = "posted after the deadline"
    # how a day ended
    HAMMER = "hammer"
    NO_LYNCH_MAJORITY = "no-lynch-majority"
    MOST_VOTES = "most-votes"
    BELOW_THRESHOLD = "below-threshold"
    NO_MAJORITY = "no-majority"
    NO_VOTES = "no-votes"
    TIE = "tie"
    TIE_BREAK = "tie-break"
    IN_PROGRESS = "in-progress"
    TEAM_CHOOSES = "team-chooses"  # a tie a team of players settles (TiePolicy.TEAM_CHOOSES)


# The rules an outcome can carry (a post says why the day ended by one of these).
DAY_END_RULES = frozenset(
    {
        Rule.HAMMER,
        Rule.NO_LYNCH_MAJORITY,
        Rule.MOST_VOTES,
        Rule.BELOW_THRESHOLD,
        Rule.NO_MAJORITY,
        Rule.NO_VOTES,
        Rule.TIE,
        Rule.TIE_BREAK,
        Rule.IN_PROGRESS,
        Rule.TEAM_CHOOSES,
    }
)

ACCEPTING = frozenset({Rule.VOTE, Rule.UNVOTE, Rule.EMPTY_VOTE, Rule.SPLIT_VOTE, Rule.GHOST_VOTE})


# --- who may vote ---------------------------------------------------------------------------


def voter_refusal(
    *,
    is_host: bool = False,
    is_player: bool,
    holds_slot: bool,
    alive: bool,
    voteless: bool,
    rules: Rules,
) -> Rule | None:
    """Why a post's author cannot vote, or None. Dead players go on to the ghost-vote rules
    when the game has them."""
    if is_host:
        return Rule.HOST  # a host quoting a vote, or showing the syntax, is not voting
    if not is_player:
        return Rule.NOT_A_PLAYER
    if not holds_slot:
        return Rule.NOT_THE_HOLDER  # a replaced player posting after the replacement
    if not alive:
        return None if rules.ghost_votes else Rule.DEAD_VOTER
    if voteless:
        return Rule.VOTELESS
    return None


def flag_edited_vote(edited: bool, corrected: bool) -> bool:
    """Whether a post holding votes is flagged for the host as edited: the forum marks it
    edited, and the host has not recorded how to read it (a `correction`). It is counted as it
    reads now either way ("Flag edited posts that contain votes. Count the visible text")."""
    return edited and not corrected


def listed_name_counts(multi_vote: bool, names_a_player: bool, sure: bool) -> bool:
    """A name listed after a vote ("VTL Ann, Bo and Cy") is a vote of its own where one may
    vote for several players at once ("Living players can vote to lynch any number of players
    at once"), and only when it names a player for sure: "VTL Ann, she lies" is talk."""
    return multi_vote and names_a_player and sure


def target_refusal(
    rules: Rules, *, voter: str, target: str, target_alive: bool, no_lynch_open: bool
) -> Rule | None:
    """Why a living player's vote for `target` (a slot, or NO_LYNCH_KEY) does not count."""
    if target == NO_LYNCH_KEY:
        return None if no_lynch_open else Rule.NO_LYNCH_UNAVAILABLE
    if not target_alive:
        return Rule.DEAD_TARGET
    if target == voter and not rules.self_vote:
        return Rule.SELF_VOTE
    return None


def replaces_earlier_votes(rules: Rules) -> bool:
    """In a one-vote game a new vote moves the voter's vote; in a multi-vote game it adds one."""
    return not rules.multi_vote


def split_shares(rules: Rules, weight: int, votes_in_post: int) -> list[int] | None:
    """How a voter worth `weight` votes shares them among the votes of one post, or None when
    the post's votes are read one after another (the last standing). Each vote takes one; the
    last takes what is left."""
    if not rules.split_votes or weight < 2 or votes_in_post < 2 or rules.multi_vote:
        return None
    used = min(votes_in_post, weight)
    return [1] * (used - 1) + [weight - used + 1]


# --- thresholds ------------------------------------------------------------


def votes_needed(threshold: Threshold, alive: int) -> int:
    """Votes a wagon needs: majority floor(n/2)+1; half-of-living ceil(n/2); plurality 1."""
    if threshold is Threshold.MAJORITY:
        return alive // 2 + 1
    if threshold is Threshold.HALF_OF_LIVING:
        return (alive + 1) // 2
    return 1


def most_votes_win(threshold: Threshold) -> bool:
    """Whether the most votes win when the day ends however few they are (plurality): a
    count then shows no number of votes needed."""
    return threshold is Threshold.PLURALITY


def no_lynch_needed(rules: Rules, alive: int) -> int:
    """Votes a no-lynch wagon needs; one fewer with "less one for no lynch"."""
    needed = votes_needed(rules.threshold, alive)
    return max(1, needed - 1) if rules.less_one_for_no_lynch else needed


def hammer_ends_day(rules: Rules) -> bool:
    """Only a majority rule ends the day the moment a wagon reaches it."""
    return rules.threshold is Threshold.MAJORITY


def no_lynch_available(rules: Rules, day: int, night_kill_before: bool) -> bool:
    """Whether a no-lynch vote counts today."""
    if rules.no_lynch is NoLynch.ALLOWED:
        return True
    if rules.no_lynch is NoLynch.NOT_ALLOWED:
        return False
    return day == 1 or not night_kill_before


# --- the end of the day ------------------------------------------------------------


@frozen
class Standing:
    """A wagon as the day-end rules see it."""

    target: str  # a slot key, or NO_LYNCH_KEY
    votes: int
    reached_at: int  # timeline index at which the wagon last reached `votes`


NO_LYNCH_KEY = "\x00no-lynch"  # a key no player name can take (names are printable)


@frozen
class Hammer:
    """A wagon that reached its threshold under a rule where that ends the day at once."""

    target: str  # a slot key, or NO_LYNCH_KEY
    votes: int
    needed: int


def hammered(rules: Rules, totals: Mapping[str, int], alive: int) -> Hammer | None:
    """The wagon that ends the day now, if any (only majority rules end a day early)."""
    if not hammer_ends_day(rules):
        return None
    for target, votes in sorted(totals.items(), key=lambda kv: (-kv[1], kv[0])):
        if target == NO_LYNCH_KEY:
            needed = no_lynch_needed(rules, alive)
        else:
            needed = votes_needed(rules.threshold, alive)
        if votes >= needed:
            return Hammer(target, votes, needed)
    return None


def day_end_outcome(
    rules: Rules, standings: Sequence[Standing], alive: int, chooser: str | None = None
) -> Outcome:
    """Who dies when the day ends without a hammer; `chooser` names the team that settles a
    tie under `tie = "team-chooses"` (the game's words, `Variant.tie_chooser`)."""
    if rules.threshold is Threshold.MAJORITY:
        return Outcome(
            OutcomeKind.NO_EXECUTION,
            None,
            None,
            "nobody reached a majority by day end",
            Rule.NO_MAJORITY,
        )
    live = [s for s in standings if s.votes > 0]
    if not live:
        return Outcome(OutcomeKind.NO_EXECUTION, None, None, "no votes", Rule.NO_VOTES)
    top = max(s.votes for s in live)
    leaders = [s for s in live if s.votes == top]
    needed = votes_needed(rules.threshold, alive)
    if len(leaders) > 1:
        return replace(break_tie(rules, leaders, needed, chooser), alive=alive)
    leader = leaders[0]
    if leader.target == NO_LYNCH_KEY:
        return Outcome(
            OutcomeKind.NO_EXECUTION, None, None, "no lynch has the most votes", Rule.MOST_VOTES
        )
    if top < needed:
        return Outcome(
            OutcomeKind.NO_EXECUTION,
            None,
            None,
            f"the most votes ({top}) is below the {needed} needed with {alive} alive",
            Rule.BELOW_THRESHOLD,
            votes=top,
            needed=needed,
            alive=alive,
        )
    of = "" if most_votes_win(rules.threshold) else f", with {needed} needed of {alive} alive"
    return Outcome(
        OutcomeKind.EXECUTION,
        leader.target,
        None,
        f"the most votes: {top}{of}",
        Rule.MOST_VOTES,
        votes=top,
        needed=needed,
        alive=alive,
    )


def tie_settler(policy: TiePolicy, chooser: str | None = None) -> tuple[str, Rule] | None:
    """Who settles a tie under a policy that leaves it to somebody, as the outcome says it, and
    the rule it names; None when the policy settles it by itself. `chooser` is the team the game
    names, as the subject of "choose" ("the wolves"); without one, "a team"."""
    if policy is TiePolicy.HOST_DECIDES:
        return "the host decides", Rule.TIE
    if policy is TiePolicy.TEAM_CHOOSES:
        if chooser is None:
            return "a team chooses which is lynched", Rule.TEAM_CHOOSES
        return f"{chooser} choose which is lynched", Rule.TEAM_CHOOSES
    return None


def break_tie(
    rules: Rules, leaders: Sequence[Standing], needed: int, chooser: str | None = None
) -> Outcome:
    """A tie for the most votes, under the game's tie policy (`chooser`: see tie_settler)."""
    tied = tuple(sorted(s.target for s in leaders))
    votes = leaders[0].votes
    if votes < needed:
        return Outcome(
            OutcomeKind.NO_EXECUTION,
            None,
            None,
            f"tied at {votes}, below the {needed} needed",
            Rule.BELOW_THRESHOLD,
            tied,
            votes,
            needed,
        )
    if rules.tie is TiePolicy.NONE:
        return Outcome(
            OutcomeKind.NO_EXECUTION,
            None,
            None,
            f"tie for the most votes ({votes})",
            Rule.TIE,
            tied,
            votes,
        )
    if (settler := tie_settler(rules.tie, chooser)) is not None:  # the count names who picks
        who, rule = settler
        why = f"tie for the most votes ({votes}): {who}"
        return Outcome(OutcomeKind.TIE, None, None, why, rule, tied, votes)
    if rules.tie is TiePolicy.EARLIEST_TO_REACH:
        first = min(leaders, key=lambda s: (s.reached_at, s.target))
        return _verdict_for(first.target, f"tie at {votes}: reached it first", tied, votes)
    pick = random.Random(rules.random_seed).choice(sorted(tied))
    why = f"tie at {votes}: drawn at random (seed {rules.random_seed})"
    return _verdict_for(pick, why, tied, votes)


def _verdict_for(target: str, reason: str, tied: tuple[str, ...], votes: int) -> Outcome:
    if target == NO_LYNCH_KEY:
        return Outcome(OutcomeKind.NO_EXECUTION, None, None, reason, Rule.TIE_BREAK, tied, votes)
    return Outcome(OutcomeKind.EXECUTION, target, None, reason, Rule.TIE_BREAK, tied, votes)


# --- after the deadline ------------------------------------------------------------------


def deadline_refusal(
    posted: datetime | None, deadline: datetime, next_day: datetime | None
) -> Rule | None:
    """Why a vote posted after its day is not counted: it came after the deadline that ended
    the day and before the next day started (`next_day`; None: not known yet). A vote at the
    deadline itself counts ("if you vote at 03:00:01 your vote will be excluded")."""
    if posted is None or posted <= deadline:
        return None
    if next_day is not None and posted >= next_day:
        return None  # the next day's
    return Rule.AFTER_DEADLINE


# --- ghost votes ----------------------------------------------------------------


def ghost_vote_refusal(
    target: str, voted_by_living_today: set[str], spent: bool, target_alive: bool = True
) -> Rule | None:
    """Why a dead player's ghost vote cannot be cast, or None when it can (once
    per game, for a player some living player voted for today, even if that vote was
    withdrawn)."""
    if spent:
        return Rule.GHOST_SPENT
    if target == NO_LYNCH_KEY:
        return Rule.GHOST_NOT_A_PLAYER
    if target not in voted_by_living_today:
        return Rule.GHOST_UNVOTED
    if not target_alive:
        return Rule.DEAD_TARGET
    return None
