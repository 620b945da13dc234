"""The roles and factions of the Vampires game, from modtool/data/vampires.json
(built by tools/build_data.py from the seed's text)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from ...core.names import normalise


def _data(path: str) -> dict:
    return json.loads(resources.files("modtool").joinpath("data", path).read_text("utf-8"))


@dataclass(frozen=True, slots=True)
class Ability:
    name: str
    text: str


@dataclass(frozen=True, slots=True)
class VampireRole:
    id: str
    name: str
    faction: str
    at_start: bool  # False: a role gained in play (the Slayer)
    told_as: str | None  # the role the player's PM shows, when they do not know their own
    description: str
    abilities: tuple[Ability, ...]
    win: str | None  # the role's own win, where the seed states one


@dataclass(frozen=True)
class VampireSetup:
    title: str
    source: str
    intro: tuple[str, ...]
    factions: dict  # id -> {"name", "win"}
    assignment: tuple[str, ...]
    roles: tuple[VampireRole, ...]

    def by_id(self, rid: str) -> VampireRole:
        return next(r for r in self.roles if r.id == rid)

    def find(self, name: str) -> VampireRole | None:
        return self.role(name)

    def role(self, name: str) -> VampireRole | None:
        wanted = normalise(name)
        for r in self.roles:
            if wanted in (
                normalise(r.id),
                normalise(r.name),
                normalise(r.name.removeprefix("The ")),
            ):
                return r
        return None


@cache
def vampire_setup() -> VampireSetup:
    raw = _data("vampires.json")
    roles = tuple(
        VampireRole(
            r["id"],
            r["name"],
            r["faction"],
            r["at_start"],
            r["told_as"],
            r["description"],
            tuple(Ability(a["name"], a["text"]) for a in r["abilities"]),
            r["win"],
        )
        for r in raw["roles"]
    )
    return VampireSetup(
        raw["title"],
        raw["source"],
        tuple(raw["intro"]),
        raw["factions"],
        tuple(raw["assignment"]),
        roles,
    )
