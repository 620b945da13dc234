"""Rule tables: every threshold, tie policy, no-lynch policy and ghost-vote case."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from modtool.core.results import OutcomeKind
from modtool.core.rules import (
    ACCEPTING,
    NO_LYNCH_KEY,
    NoLynch,
    Rule,
    Rules,
    Standing,
    Threshold,
    TiePolicy,
    day_end_outcome,
    deadline_refusal,
    flag_edited_vote,
    ghost_vote_refusal,
    hammer_ends_day,
    hammered,
    listed_name_counts,
    most_votes_win,
    no_lynch_available,
    no_lynch_needed,
    replaces_earlier_votes,
    rules_from_table,
    split_shares,
    target_refusal,
    tie_settler,
    voter_refusal,
    votes_needed,
)


@pytest.mark.parametrize(
    ("threshold", "alive", "needed"),
    [
        (Threshold.MAJORITY, 13, 7),
        (Threshold.MAJORITY, 12, 7),
        (Threshold.MAJORITY, 11, 6),
        (Threshold.MAJORITY, 10, 6),
        (Threshold.MAJORITY, 9, 5),
        (Threshold.MAJORITY, 3, 2),
        (Threshold.MAJORITY, 2, 2),
        # Seed 003: "if 6 players are alive ... someone with 2 or fewer votes lives".
        (Threshold.HALF_OF_LIVING, 6, 3),
        (Threshold.HALF_OF_LIVING, 7, 4),
        (Threshold.HALF_OF_LIVING, 10, 5),
        (Threshold.HALF_OF_LIVING, 3, 2),
        (Threshold.PLURALITY, 13, 1),
    ],
)
def test_votes_needed(threshold, alive, needed):
    assert votes_needed(threshold, alive) == needed


@pytest.mark.parametrize(
    ("less_one", "alive", "needed"),
    [(False, 13, 7), (True, 13, 6), (True, 6, 3), (True, 4, 2), (True, 3, 1), (False, 4, 3)],
)
def test_no_lynch_needed_one_less(less_one, alive, needed):
    rules = Rules(threshold=Threshold.MAJORITY, less_one_for_no_lynch=less_one)
    assert no_lynch_needed(rules, alive) == needed


@pytest.mark.parametrize(
    ("threshold", "ends"),
    [(Threshold.MAJORITY, True), (Threshold.HALF_OF_LIVING, False), (Threshold.PLURALITY, False)],
)
def test_only_majority_hammers(threshold, ends):
    assert hammer_ends_day(Rules(threshold=threshold)) is ends


@pytest.mark.parametrize(
    ("policy", "day", "night_kill", "available"),
    [
        (NoLynch.ALLOWED, 3, True, True),
        (NoLynch.NOT_ALLOWED, 1, False, False),
        (NoLynch.NOT_AFTER_NIGHT_KILL, 1, True, True),  # seed 004: Day 1 always has No-Lynch
        (NoLynch.NOT_AFTER_NIGHT_KILL, 2, True, False),
        (NoLynch.NOT_AFTER_NIGHT_KILL, 2, False, True),
    ],
)
def test_no_lynch_available(policy, day, night_kill, available):
    assert no_lynch_available(Rules(no_lynch=policy), day, night_kill) is available


def _s(target, votes, reached=0):
    return Standing(target, votes, reached)


HALF = Rules(threshold=Threshold.HALF_OF_LIVING, multi_vote=True, ghost_votes=True)


@pytest.mark.parametrize(
    ("rules", "standings", "alive", "verdict", "target"),
    [
        # Seed 003 worked example: 6 alive, 3 votes needed; 2 or fewer lives.
        (HALF, [_s("a", 3), _s("b", 2)], 6, OutcomeKind.EXECUTION, "a"),
        (HALF, [_s("a", 2), _s("b", 1)], 6, OutcomeKind.NO_EXECUTION, None),
        # A tie for the most votes: nobody dies, even above the threshold.
        (HALF, [_s("a", 4), _s("b", 4)], 8, OutcomeKind.NO_EXECUTION, None),
        (HALF, [], 8, OutcomeKind.NO_EXECUTION, None),
        (
            Rules(threshold=Threshold.PLURALITY),
            [_s("a", 2), _s("b", 1)],
            9,
            OutcomeKind.EXECUTION,
            "a",
        ),
        (
            Rules(threshold=Threshold.PLURALITY),
            [_s(NO_LYNCH_KEY, 3), _s("b", 1)],
            9,
            OutcomeKind.NO_EXECUTION,
            None,
        ),
        (
            Rules(threshold=Threshold.PLURALITY, tie=TiePolicy.HOST_DECIDES),
            [_s("a", 2), _s("b", 2)],
            9,
            OutcomeKind.TIE,
            None,
        ),
        (
            Rules(threshold=Threshold.PLURALITY, tie=TiePolicy.EARLIEST_TO_REACH),
            [_s("a", 2, reached=40), _s("b", 2, reached=12)],
            9,
            OutcomeKind.EXECUTION,
            "b",
        ),
        (Rules(threshold=Threshold.MAJORITY), [_s("a", 5)], 9, OutcomeKind.NO_EXECUTION, None),
    ],
)
def test_day_end_outcome(rules, standings, alive, verdict, target):
    result = day_end_outcome(rules, standings, alive)
    assert (result.kind, result.player) == (verdict, target)


@pytest.mark.parametrize(
    ("threshold", "wins", "reason"),
    [
        (Threshold.PLURALITY, True, "the most votes: 2"),  # however few: no number needed
        (Threshold.HALF_OF_LIVING, False, "the most votes: 2, with 2 needed of 3 alive"),
    ],
)
def test_the_most_votes_win_only_under_plurality(threshold, wins, reason):
    assert most_votes_win(threshold) is wins
    outcome = day_end_outcome(Rules(threshold=threshold), [_s("a", 2), _s("b", 1)], 3)
    assert (outcome.kind, outcome.reason) == (OutcomeKind.EXECUTION, reason)


# Who settles a tie under each policy, as the outcome says it, and the rule it names: a team
# chooses in the game's own words; the policies that settle a tie themselves name nobody.
@pytest.mark.parametrize(
    ("policy", "chooser", "expected"),
    [
        (TiePolicy.HOST_DECIDES, None, ("the host decides", Rule.TIE)),
        (TiePolicy.HOST_DECIDES, "the wolves", ("the host decides", Rule.TIE)),
        (
            TiePolicy.TEAM_CHOOSES,
            "the wolves",
            ("the wolves choose which is lynched", Rule.TEAM_CHOOSES),
        ),
        (TiePolicy.TEAM_CHOOSES, None, ("a team chooses which is lynched", Rule.TEAM_CHOOSES)),
        (TiePolicy.NONE, "the wolves", None),
        (TiePolicy.EARLIEST_TO_REACH, "the wolves", None),
        (TiePolicy.RANDOM, "the wolves", None),
    ],
)
def test_who_settles_a_tie(policy, chooser, expected):
    assert tie_settler(policy, chooser) == expected


def test_a_tie_a_team_chooses_names_the_team_and_waits_for_its_choice():
    rules = Rules(threshold=Threshold.PLURALITY, tie=TiePolicy.TEAM_CHOOSES)
    out = day_end_outcome(rules, [_s("b", 2), _s("a", 2), _s("c", 1)], 9, "the wolves")
    assert (out.kind, out.player, out.tied, out.rule) == (
        OutcomeKind.TIE,
        None,
        ("a", "b"),
        Rule.TEAM_CHOOSES,
    )
    assert out.reason == "tie for the most votes (2): the wolves choose which is lynched"


@pytest.mark.parametrize("old", ["vampires-choose", "team-chooses"])
def test_the_older_name_of_a_team_s_choice_is_still_read(old):
    assert rules_from_table({"tie": old}).tie is TiePolicy.TEAM_CHOOSES
    assert rules_from_table({"preset": "vampire"}).tie is TiePolicy.TEAM_CHOOSES


def test_random_tie_is_seeded_and_says_its_seed():
    rules = Rules(threshold=Threshold.PLURALITY, tie=TiePolicy.RANDOM, random_seed=7)
    standings = [_s("a", 2), _s("b", 2), _s("c", 2)]
    first = day_end_outcome(rules, standings, 9)
    assert first == day_end_outcome(rules, list(reversed(standings)), 9)
    assert first.kind is OutcomeKind.EXECUTION and first.player in {"a", "b", "c"}
    assert "seed 7" in first.reason


@pytest.mark.parametrize(
    ("target", "voted_today", "spent", "refusal"),
    [
        ("a", {"a"}, False, None),
        ("a", {"a"}, True, "ghost vote already spent"),
        (
            "b",
            {"a"},
            False,
            "a ghost vote may only go to a player some living player voted for today",
        ),
        (NO_LYNCH_KEY, {"a"}, False, "a ghost vote must be for a player"),
    ],
)
def test_ghost_vote_refusal(target, voted_today, spent, refusal):
    assert ghost_vote_refusal(target, voted_today, spent) == refusal


DEADLINE = datetime(2026, 11, 9, 11, 0, tzinfo=ZoneInfo("America/New_York"))
NEXT_DAY = DEADLINE + timedelta(hours=1)


@pytest.mark.parametrize(
    ("posted", "next_day", "refusal"),
    [
        (DEADLINE - timedelta(minutes=20), NEXT_DAY, None),  # in the day: counted as usual
        (DEADLINE, NEXT_DAY, None),  # at the deadline itself: counts
        (DEADLINE + timedelta(seconds=1), NEXT_DAY, "posted after the deadline"),
        (DEADLINE + timedelta(minutes=20), None, "posted after the deadline"),  # next day unknown
        (NEXT_DAY, NEXT_DAY, None),  # the next day's vote, not a late one
        (NEXT_DAY + timedelta(minutes=10), NEXT_DAY, None),
        (None, NEXT_DAY, None),  # a post without a time cannot be placed
    ],
)
def test_deadline_refusal(posted, next_day, refusal):
    assert deadline_refusal(posted, DEADLINE, next_day) == refusal


@pytest.mark.parametrize(
    ("edited", "corrected", "flagged"),
    [
        (False, False, False),
        (True, False, True),  # counted as it reads now, and the host is told
        (True, True, False),  # the host recorded how to read it
        (False, True, False),
    ],
)
def test_flag_edited_vote(edited, corrected, flagged):
    assert flag_edited_vote(edited, corrected) is flagged


def test_preset_with_overrides():
    rules = rules_from_table({"preset": "botc-forum", "tie": "random", "random_seed": 3})
    assert rules.threshold is Threshold.HALF_OF_LIVING and rules.multi_vote
    assert rules.tie is TiePolicy.RANDOM and rules.random_seed == 3


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (
            {"preset": "nope"},
            "unknown rules preset 'nope'; use one of botc-forum, mafiascum, vampire",
        ),
        (
            {"tie": "coin"},
            "rule 'tie' cannot be 'coin'; use one of none, host-decides, team-chooses, "
            "earliest-to-reach, random",
        ),
        ({"tie": ["none"]}, "rule 'tie' cannot be ['none']; use one of none, "),
        ({"hammer": True}, "unknown rule 'hammer'"),
        ({"multi_vote": "yes"}, "rule 'multi_vote' must be true or false"),
    ],
)
def test_bad_rules_say_what_to_use(table, message):
    with pytest.raises(ValueError) as err:
        rules_from_table(table)
    assert str(err.value).startswith(message)


MAJ = Rules(threshold=Threshold.MAJORITY)
MAJ_LESS_ONE = Rules(threshold=Threshold.MAJORITY, less_one_for_no_lynch=True)


@pytest.mark.parametrize(
    ("rules", "totals", "alive", "expected"),
    [
        (MAJ, {"a": 6, "b": 3}, 11, ("a", 6, 6)),
        (MAJ, {"a": 5, "b": 3}, 11, None),
        (MAJ, {"a": 5, "b": 3}, 10, None),  # half is not a majority
        (MAJ, {NO_LYNCH_KEY: 6}, 13, None),
        (MAJ_LESS_ONE, {NO_LYNCH_KEY: 6}, 13, (NO_LYNCH_KEY, 6, 6)),  # one less for no lynch
        (MAJ, {"a": 2}, 3, ("a", 2, 2)),
        (HALF, {"a": 9}, 10, None),  # end-of-day rules never hammer
    ],
)
def test_hammered(rules, totals, alive, expected):
    hit = hammered(rules, totals, alive)
    assert (None if hit is None else (hit.target, hit.votes, hit.needed)) == expected


@pytest.mark.parametrize(
    ("rules", "standings", "alive", "rule"),
    [
        (MAJ, [_s("a", 5)], 9, "no-majority"),
        (HALF, [], 6, "no-votes"),
        (HALF, [_s("a", 2)], 6, "below-threshold"),
        (HALF, [_s("a", 3), _s("b", 3)], 6, "tie"),
        (HALF, [_s("a", 3)], 6, "most-votes"),
    ],
)
def test_day_end_names_the_rule_that_decided(rules, standings, alive, rule):
    assert day_end_outcome(rules, standings, alive).rule == rule


# --- whether a vote counts -----------------------------------------------------------------

MAFIA = rules_from_table({"preset": "mafiascum"})
BOTC = rules_from_table({"preset": "botc-forum"})


@pytest.mark.parametrize(
    ("facts", "rules", "refusal"),
    [
        (
            dict(is_player=False, holds_slot=False, alive=False, voteless=False),
            MAFIA,
            "not a player",
        ),
        (
            dict(is_player=True, holds_slot=False, alive=True, voteless=False),
            MAFIA,
            "does not hold the slot",
        ),
        (
            dict(is_player=True, holds_slot=True, alive=False, voteless=False),
            MAFIA,
            "dead players cannot vote",
        ),
        (dict(is_player=True, holds_slot=True, alive=False, voteless=False), BOTC, None),  # ghost
        (
            dict(is_player=True, holds_slot=True, alive=True, voteless=True),
            MAFIA,
            "voteless player",
        ),
        (dict(is_player=True, holds_slot=True, alive=True, voteless=False), MAFIA, None),
    ],
)
def test_voter_refusal(facts, rules, refusal):
    assert voter_refusal(**facts, rules=rules) == refusal


NO_SELF = rules_from_table({"preset": "mafiascum", "self_vote": False})


@pytest.mark.parametrize(
    ("rules", "voter", "target", "alive", "no_lynch_open", "refusal"),
    [
        (MAFIA, "a", "b", True, True, None),
        (MAFIA, "a", "b", False, True, Rule.DEAD_TARGET),
        (MAFIA, "a", "a", True, True, None),
        (NO_SELF, "a", "a", True, True, Rule.SELF_VOTE),
        (MAFIA, "a", NO_LYNCH_KEY, False, True, None),
        (MAFIA, "a", NO_LYNCH_KEY, False, False, Rule.NO_LYNCH_UNAVAILABLE),
    ],
)
def test_target_refusal(rules, voter, target, alive, no_lynch_open, refusal):
    got = target_refusal(
        rules, voter=voter, target=target, target_alive=alive, no_lynch_open=no_lynch_open
    )
    assert got == refusal


SPLIT = rules_from_table({"preset": "mafiascum", "split_votes": True})


@pytest.mark.parametrize(
    ("rules", "weight", "votes", "shares"),
    [
        (SPLIT, 2, 2, [1, 1]),
        (SPLIT, 3, 2, [1, 2]),
        (SPLIT, 2, 3, [1, 1]),  # the third vote is read as usual: it moves the last share
        (SPLIT, 1, 2, None),
        (SPLIT, 2, 1, None),
        (MAFIA, 2, 2, None),
        (rules_from_table({"preset": "botc-forum", "split_votes": True}), 2, 2, None),
    ],
)
def test_split_shares(rules, weight, votes, shares):
    assert split_shares(rules, weight, votes) == shares


def test_one_vote_games_move_the_vote_and_multi_vote_games_add_one():
    assert replaces_earlier_votes(MAFIA) and not replaces_earlier_votes(BOTC)


def test_every_rule_is_an_enum_member_and_accepting_ones_are_marked():
    assert Rule.VOTE in ACCEPTING and Rule.DEAD_TARGET not in ACCEPTING
    assert len({r.value for r in Rule}) == len(Rule)


@pytest.mark.parametrize(
    ("multi_vote", "names_a_player", "sure", "counts"),
    [
        (True, True, True, True),  # "VTL Ann, Bo": Bo is a vote too
        (True, True, False, False),  # a guess at a name is not a vote
        (True, False, False, False),  # "VTL Ann, she lies"
        (False, True, True, False),  # one vote each: the first name is the vote
    ],
)
def test_a_listed_name_counts_where_one_votes_for_several_and_it_names_a_player(
    multi_vote, names_a_player, sure, counts
):
    assert listed_name_counts(multi_vote, names_a_player, sure) is counts
