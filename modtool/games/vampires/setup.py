"""The Vampires setup: its role list checked, and the rules' own draw."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ...core.setups import Draw
from ...errors import ModToolError
from .roles import vampire_setup

VAMPIRES_MIN_PLAYERS = 13  # the Vampires game: "The minimum recommended number of players is 13."


@dataclass(frozen=True)
class VampireCheck:
    valid: bool
    reasons: tuple[str, ...]
    warnings: tuple[str, ...]
    factions: dict[str, int]

    def as_json(self) -> dict:
        return {
            "valid": self.valid,
            "reasons": list(self.reasons),
            "warnings": list(self.warnings),
            "factions": self.factions,
        }

    def summary(self) -> str:
        return ", ".join(f"{n} {f}" for f, n in self.factions.items())


def vampire_reasons(roles: list[str]) -> tuple[list[str], list[str]]:
    """What makes a Vampires role list illegal (reasons) or unwise (warnings): at least one
    Vampire; the Slayer is "none at start"; fewer than 13 players is below the seed's minimum."""

    setup = vampire_setup()
    reasons, warnings = [], []
    ids = [setup.role(r).id for r in roles]
    if "vampire" not in ids:
        reasons.append("no Vampire in the role list")
    if "slayer" in ids:
        reasons.append("the Slayer is not given at the start (the Watcher makes one)")
    vampires = ids.count("vampire")
    if vampires and vampires_won_at_start(vampires, len(ids)):
        reasons.append(
            f"{vampires} Vampires of {len(ids)} players have won before the game starts (the "
            'Vampires "win when your faction comprises at least half of the village"; "for '
            'now, the villagers outnumber you")'
        )
    if len(ids) < VAMPIRES_MIN_PLAYERS:
        warnings.append(
            f"{len(ids)} players: the Vampires game recommends at least {VAMPIRES_MIN_PLAYERS}"
        )
    return reasons, warnings


def vampires_won_at_start(vampires: int, players: int) -> bool:
    """The Vampires game: the Vampires win at half the village; the game starts with the villagers
    outnumbering them."""
    return 2 * vampires >= players


def check_vampires(game) -> VampireCheck:

    setup = vampire_setup()
    missing = [s.key for s in game.slots if s.role is None]
    if missing:
        return VampireCheck(False, tuple(f"{p} has no role" for p in missing), (), {})
    reasons, warnings = vampire_reasons([s.role for s in game.slots])
    factions: dict[str, int] = {}
    for s in game.slots:
        faction = setup.role(s.role).faction
        factions[faction] = factions.get(faction, 0) + 1
    return VampireCheck(not reasons, tuple(reasons), tuple(warnings), factions)


def draw_vampires(game, seed: int) -> Draw:
    """The Vampires game's way: "shuffle the list of players, then assign each player the role
    corresponding to their position in the shuffled list" (`[setup] roles`, in order), with
    a recorded seed."""

    roles = [vampire_setup().role(r).id for r in game.setup.get("roles", [])]
    players = [s.key for s in game.slots]
    if len(roles) != len(players):
        raise ModToolError(
            f"[setup] roles lists {len(roles)} roles for {len(players)} players; list one role "
            "per player, in order"
        )
    reasons, _ = vampire_reasons(roles)
    if reasons:
        raise ModToolError(f"[setup] roles: {reasons[0]}")
    shuffled = list(players)
    random.Random(seed).shuffle(shuffled)
    return Draw(seed, tuple(shuffled), dict(zip(shuffled, roles, strict=True)), {}, (), None)
