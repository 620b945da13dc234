"""Clocktower's rules of a forum count, where a vote stands in for a nomination (the forum
Clocktower game):
one small pure function each, the rule names they give, and the character rules of
`character_rules` apply them at the exact post."""

from __future__ import annotations

from enum import StrEnum


class ClocktowerRule(StrEnum):
    """The game's rules in the audit and in outcomes (the core's own are `core.rules.Rule`)."""

    BUTLER = "a Butler's vote counts only while their master votes the same player"
    BUTLER_FOLLOWS = "the Butler's vote goes when their master's does"
    WITCH = "a cursed player who votes dies"
    VIRGIN = "virgin"  # a Townsfolk voted for the Virgin first: executed, the day ends


# --- Clocktower characters in the count (the forum Clocktower voting) ------------------------


def butler_refusal(
    able: bool, master: str | None, master_targets: set[str], target: str
) -> ClocktowerRule | None:
    """Why a Butler's vote cannot count now, or None. The forum Clocktower game: "you may only vote
    for a player if your Master is also voting for them". A drunk, poisoned or dead Butler votes
    freely, and
    so does one whose master for the day the host has not recorded (the count warns)."""
    if not able or master is None:
        return None
    return None if target in master_targets else ClocktowerRule.BUTLER


def butler_votes_to_drop(butler_targets: set[str], master_targets: set[str]) -> set[str]:
    """ "If your Master unvotes, your vote will also be removed": every Butler vote on a player
    the master no longer votes for."""
    return butler_targets - master_targets


class VirginResult(StrEnum):
    SPENT_BEFORE = "spent-before"  # the ability was used on an earlier vote
    SPENT = "spent"  # this first vote uses it up, and nothing happens
    EXECUTE = "execute"  # the voter is executed at once and the day ends
    STORYTELLER = "storyteller"  # the voter may register as a Townsfolk (the Spy): ST decides


def virgin_vote(
    spent_before: bool, virgin_works: bool, voter_team: str | None, voter: str | None
) -> VirginResult:
    """The first vote ever cast on the Virgin that counts (the forum Clocktower game: "The first
    time in the game that someone votes for you, if they are a Townsfolk, they are lynched and the
    day ends
    immediately"; the ability is lost "even though it does not trigger" when poisoned). A
    Drunk is an Outsider, not a Townsfolk; the Spy may register as one."""
    if spent_before:
        return VirginResult.SPENT_BEFORE
    if not virgin_works:
        return VirginResult.SPENT
    if voter_team == "townsfolk":
        return VirginResult.EXECUTE
    if voter == "spy":
        return VirginResult.STORYTELLER
    return VirginResult.SPENT


def witch_curse_kills(cursed: bool, witch_works: bool, alive: int) -> bool:
    """The Witch: "if they nominate tomorrow, they die. If just 3 players live, you lose this
    ability." In the forum variant a vote is the nomination."""
    return cursed and witch_works and alive > 3


class SlayerResult(StrEnum):
    KILLS = "kills"
    NOTHING = "nothing"
    STORYTELLER = "storyteller"  # the target may register as the Demon (the Recluse)


def slayer_shot(
    works: bool,
    used_before: bool,
    target_character: str | None,
    target_team: str | None,
    target_alive: bool,
) -> SlayerResult:
    """The forum Clocktower game's Slayer: "Once per game ... If your target was the Demon, they
    die."
    A drunk or poisoned Slayer, a second shot or a dead target: nothing happens."""
    if not works or used_before or not target_alive:
        return SlayerResult.NOTHING
    if target_team == "demon":
        return SlayerResult.KILLS
    if target_character == "recluse":
        return SlayerResult.STORYTELLER
    return SlayerResult.NOTHING
