"""The Vampires setup: its role list checked, and the rules' own draw."""

from __future__ import annotations

import random

from ...core.setups import Draw
from ...errors import ModToolError
from ...threads.frozen import frozen
from .roles import vampire_setup

VAMPIRES_MIN_PLAYERS = 13  # the Vampires game: "The minimum recommended number of players is 13."


@frozen(slots=False)
class VampireCheck:
    valid: bool
    reasons: tuple[str, ...]
    warnings: tuple[str, ...]
    factions: dict[str, int]
    checked: str = ""  # what was checked, when not the players' own roles (before a draw)

    def as_json(self) -> dict:
        return {
            "valid": self.valid,
            "reasons": list(self.reasons),
            "warnings": list(self.warnings),
            "factions": self.factions,
            **({"checked": self.checked} if self.checked else {}),
        }

    def summary(self) -> str:
        counted = ", ".join(f"{n} {f}" for f, n in self.factions.items())
        return "; ".join(part for part in (self.checked, counted) if part)


def vampire_reasons(roles: list[str]) -> tuple[list[str], list[str]]:
    """What makes a Vampires role list illegal (reasons) or unwise (warnings): at least one
    Vampire; the Slayer is "none at start"; "The minimum recommended number of players is
    13."."""

    setup = vampire_setup()
    reasons, warnings = [], []
    ids = [setup.role(r).id for r in roles]
    if "vampire" not in ids:
        reasons.append("no Vampire in the role list")
    if "slayer" in ids:
        reasons.append(
            'the Slayer is not dealt at the start ("The Slayer (none at start)"; the Watcher '
            "makes one)"
        )
    vampires = ids.count("vampire")
    if vampires and vampires_won_at_start(vampires, len(ids)):
        reasons.append(
            f"{vampires} Vampires of {len(ids)} players have won before the game starts (the "
            'Vampires "win when your faction comprises at least half of the village"; "for '
            'now, the villagers outnumber you")'
        )
    if (few := too_few_players(len(ids))) is not None:
        warnings.append(few)
    return reasons, warnings


def too_few_players(players: int) -> str | None:
    """The warning for fewer players than "The minimum recommended number of players is 13"."""
    if players >= VAMPIRES_MIN_PLAYERS:
        return None
    return f"{players} players: the Vampires game recommends at least {VAMPIRES_MIN_PLAYERS}"


def vampires_won_at_start(vampires: int, players: int) -> bool:
    """The Vampires game: the Vampires win at half the village; the game starts with the villagers
    outnumbering them."""
    return 2 * vampires >= players


def check_vampires(game) -> VampireCheck:
    """`modtool setup check`: the players' roles (game.toml's, or the recorded draw's); before
    a draw, when no player has one, the `[setup] roles` list against the players."""
    players = [s.key for s in game.slots]
    missing = [s.key for s in game.slots if s.role is None]
    listed = game.setup.get("roles")
    if listed and len(missing) == len(players):
        reasons, warnings = role_list_reasons(listed, len(players))
        checked = f"before a draw, [setup] roles ({len(listed)}) against the {len(players)} players"
        return VampireCheck(
            not reasons, tuple(reasons), tuple(warnings), _factions(listed), checked
        )
    if missing:
        few = too_few_players(len(players))
        return VampireCheck(
            False,
            tuple(f"{p} has no role" for p in missing),
            (few,) if few else (),
            {},
            f"{len(missing)} of {len(players)} players have no role: give each one role = "
            '"...", or list [setup] roles and draw',
        )
    roles = [s.role for s in game.slots]
    reasons, warnings = vampire_reasons(roles)
    return VampireCheck(not reasons, tuple(reasons), tuple(warnings), _factions(roles))


def _factions(roles: list[str]) -> dict[str, int]:
    """How many of each faction a role list deals."""
    factions: dict[str, int] = {}
    for r in roles:
        faction = vampire_setup().role(r).faction
        factions[faction] = factions.get(faction, 0) + 1
    return factions


def role_list_reasons(roles: list[str], players: int) -> tuple[list[str], list[str]]:
    """What stops `[setup] roles` from being drawn onto the players (one role per player, then
    `vampire_reasons`), and the warning for fewer than 13 players."""
    reasons, _ = vampire_reasons(roles)
    warnings = [w for w in (too_few_players(players),) if w]
    if len(roles) != players:
        reasons.insert(
            0,
            f"[setup] roles lists {len(roles)} roles for {players} players; list one role "
            "per player, in order",
        )
    return reasons, warnings


def draw_vampires(game, seed: int) -> Draw:
    """The Vampires game's way: "shuffle the list of players, then assign each player the role
    corresponding to their position in the shuffled list" (`[setup] roles`, in order). The
    shuffle is the host's own when `[setup] shuffled` lists it (checked as an order of the
    players), else drawn with the recorded seed. An error that stops the draw keeps the
    warnings (fewer than 13 players)."""

    roles = [vampire_setup().role(r).id for r in game.setup.get("roles", [])]
    players = [s.key for s in game.slots]
    reasons, warnings = role_list_reasons(roles, len(players))
    own = game.setup.get("shuffled")
    if own is not None:
        reasons += shuffle_reasons(own, players, game.find_slot)
    if reasons:
        first = reasons[0] if reasons[0].startswith("[setup]") else f"[setup] roles: {reasons[0]}"
        raise ModToolError(first + "".join(f" (warning: {w})" for w in warnings))
    if own is not None:
        shuffled = [game.find_slot(p) for p in own]
    else:
        shuffled = list(players)
        random.Random(seed).shuffle(shuffled)
    return Draw(seed, tuple(shuffled), dict(zip(shuffled, roles, strict=True)), {}, (), None)


def shuffle_reasons(order, players: list[str], find_slot) -> list[str]:
    """Why a host's own shuffle is not an order of the players: each player once, nobody
    else ("shuffle the list of players")."""
    if not isinstance(order, list) or not all(isinstance(p, str) for p in order):
        return ['[setup] shuffled must be a list of the players\' names, like ["Kale", "Ash"]']
    slots = [find_slot(p) for p in order]
    unknown = [p for p, s in zip(order, slots, strict=True) if s is None]
    if unknown:
        return [f"[setup] shuffled names {unknown[0]!r}, who is not a player"]
    twice = sorted({p for p, s in zip(order, slots, strict=True) if slots.count(s) > 1})
    if twice:
        return [f"[setup] shuffled lists {twice[0]!r} more than once; list each player once"]
    missing = [p for p in players if p not in slots]
    if missing:
        return [f"[setup] shuffled leaves out {', '.join(missing)}; list every player once"]
    return []
