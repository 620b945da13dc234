"""What a Vampires role PM tells each player (the Vampires game), and what a death reveals."""

from __future__ import annotations

from ...core.ledger import Game
from ...errors import ModToolError
from .game import deceived_role, revealed_role
from .readings import taken
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
    hidden = taken(game.rules, "hidden-role-pm")
    knowing = taken(game.rules, "vampires-know")
    out = []
    for s in slots:
        real = role_of[s.key]
        told = real.told_as and hidden.choice == "faithful-villager"
        role = setup.by_id(real.told_as) if told else real  # what they are told
        faction = setup.factions[role.faction]
        others = {holder[k]: r.id for k, r in role_of.items() if k != s.key}
        knows = vampire_knowledge(real.id, others, knowing.choice == "each-other")
        readings = [hidden] if real.told_as else []
        readings += [knowing] if real.id == "vampire" else []
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
                "readings": [t.as_json() for t in readings],
            }
        )
    return out


def vampire_knowledge(
    role: str, roles_by_player: dict[str, str], vampires_know: bool = True
) -> list[tuple[str, str]]:
    """Who a role is told about at the start: the Treacherous Villager knows the Vampires
    ("Awareness"); the Scions of Death know The Chosen One ("The Scions of Death already know
    your identity"); a Vampire knows the other Vampires (they share "Vampire factional
    abilities"; the reading `vampires-know`, whose other choice tells them nobody)."""
    wanted = {
        "treacherous-villager": ("vampire", "a Vampire"),
        "scion": ("chosen-one", "The Chosen One"),
        "vampire": ("vampire", "a Vampire") if vampires_know else None,
    }.get(role)
    if wanted is None:
        return []
    return [(p, wanted[1]) for p, r in roles_by_player.items() if r == wanted[0]]


def role_display(game: Game, slot_key: str, language: str) -> tuple[str | None, str | None]:
    """A dead player's role as the game reveals it, and its faction: a Scion's Ultimate
    Deception shows the chosen role and that role's faction, never the Death Cult ("your role
    will be revealed as the chosen role instead of the truth")."""
    role, team = game.role_at(slot_key), game.slot(slot_key).team
    if role is None:
        return None, team
    shown = deceived_role(game, slot_key)
    if shown is not None:
        return revealed_role(game, slot_key, role), _faction_name(shown)
    return revealed_role(game, slot_key, role), team or _faction_name(role)


def _faction_name(role: str) -> str:
    setup = vampire_setup()
    return setup.factions[setup.by_id(role).faction]["name"]


def always_revealed(game: Game, slot_key: str) -> bool:
    """Deaths the game itself announces whatever `[drafts] reveal` says: The Chosen One and
    the Shaman ("If you die, everyone will learn that you were ..."), and a Scion who chose a
    role by Ultimate Deception ("If you die, then your role will be revealed as the chosen
    role")."""
    return game.role_at(slot_key) in ALWAYS_REVEALED or deceived_role(game, slot_key) is not None


def revealed_ability(game: Game, slot_key: str, language: str) -> str | None:
    """The revealed role's text (a deceiving Scion's is the chosen role's)."""
    role = deceived_role(game, slot_key) or game.role_at(slot_key)
    if role is None:
        return None
    found = vampire_setup().by_id(role)
    return " ".join([found.description, *(f"{a.name}: {a.text}" for a in found.abilities)])
