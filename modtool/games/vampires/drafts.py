"""What a Vampires role PM tells each player (the Vampires game), and what a death reveals."""

from __future__ import annotations

from ...core.ledger import Game
from ...errors import ModToolError
from .game import revealed_role
from .roles import vampire_setup

# The Vampires game: The Chosen One and the Shaman: "If you die, everyone will learn that you were
# ..."
ALWAYS_REVEALED = ("chosen-one", "shaman")


def role_pm_contexts(game: Game, language: str) -> list[dict]:
    """One context per player, in seat order: the role they are told, its faction, whom they
    know."""
    if language != "en":
        raise ModToolError("the Vampires game has English role text only; draft with --lang en")
    setup = vampire_setup()
    slots = sorted(game.slots, key=lambda s: (s.seat is None, s.seat or 0))
    holder = {s.key: game.slot_names(s.key)[-1] for s in slots}
    role_of = {s.key: setup.role(s.role) for s in slots}
    out = []
    for s in slots:
        real = role_of[s.key]
        role = setup.by_id(real.told_as) if real.told_as else real  # what they are told
        faction = setup.factions[role.faction]
        others = {holder[k]: r.id for k, r in role_of.items() if k != s.key}
        knows = vampire_knowledge(real.id, others)
        out.append(
            {
                "kind": "vampires",
                "game": {"title": game.title, "script": setup.title},
                "player": holder[s.key],
                "role": {
                    "name": role.name,
                    "description": role.description,
                    "abilities": [{"name": a.name, "text": a.text} for a in role.abilities],
                    "win": role.win,
                },
                "faction": {"name": faction["name"], "win": faction["win"]},
                "knows": [{"player": p, "as": what} for p, what in knows],
            }
        )
    return out


def vampire_knowledge(role: str, roles_by_player: dict[str, str]) -> list[tuple[str, str]]:
    """Who a role is told about at the start (the Vampires game): the Treacherous Villager knows the
    Vampires ("Awareness"); the Scions of Death know The Chosen One ("The Scions of Death
    already know your identity"); a Vampire knows the other Vampires (they share "Vampire
    factional abilities"; docs/vampires.md lists this as a reading)."""
    wanted = {
        "treacherous-villager": ("vampire", "a Vampire"),
        "scion": ("chosen-one", "The Chosen One"),
        "vampire": ("vampire", "a Vampire"),
    }.get(role)
    if wanted is None:
        return []
    return [(p, wanted[1]) for p, r in roles_by_player.items() if r == wanted[0]]


def role_display(game: Game, slot_key: str, language: str) -> tuple[str | None, str | None]:
    """A dead player's role as the game reveals it (a Scion's deception shows the role they
    chose), and their faction."""
    role, team = game.role_at(slot_key), game.slot(slot_key).team
    if role is None:
        return None, team
    faction = vampire_setup().factions[vampire_setup().by_id(role).faction]["name"]
    return revealed_role(game, slot_key, role), team or faction


def always_revealed(game: Game, slot_key: str) -> bool:
    return game.role_at(slot_key) in ALWAYS_REVEALED


def revealed_ability(game: Game, slot_key: str, language: str) -> str | None:
    role = game.role_at(slot_key)
    if role is None:
        return None
    found = vampire_setup().by_id(role)
    return " ".join([found.description, *(f"{a.name}: {a.text}" for a in found.abilities)])
