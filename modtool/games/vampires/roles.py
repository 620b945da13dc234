"""The roles and factions of the Vampires game, from modtool/data/vampires.json
(built by tools/build_data.py from the seed's text)."""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources

from ...core.names import normalise
from ...threads.frozen import frozen


def _data(path: str) -> dict:
    return json.loads(resources.files("modtool").joinpath("data", path).read_text("utf-8"))


@frozen
class Ability:
    name: str
    text: str


@frozen
class VampireRole:
    id: str
    name: str
    faction: str
    at_start: bool  # False: a role gained in play (the Slayer)
    told_as: str | None  # the role the player's PM shows, when they do not know their own
    description: str
    abilities: tuple[Ability, ...]
    win: str | None  # the role's own win, where the seed states one


@frozen(slots=False)
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
        """The role a name means: its id, its name, its name without "The", or the game's own
        heading for it ("The Slayer (none at start)": the note in brackets is dropped)."""
        found = self._named(name)
        if found is None and (bare := heading_name(name)) != name:
            found = self._named(bare)
        return found

    def _named(self, name: str) -> VampireRole | None:
        wanted = normalise(name)
        for r in self.roles:
            if wanted in (
                normalise(r.id),
                normalise(r.name),
                normalise(r.name.removeprefix("The ")),
            ):
                return r
        return None


_NOTE = re.compile(r"\s*\([^()]*\)\s*$")


def heading_name(text: str) -> str:
    """A role's heading without the note in brackets after it: the Vampires game heads the
    Slayer "The Slayer (none at start)"."""
    return _NOTE.sub("", text).strip()


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
