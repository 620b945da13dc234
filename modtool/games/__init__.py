"""The registry of the games modtool runs, the way python-chess lists its variants: a game is a
package here with a `Variant` subclass, and one line below. Nothing outside this package
names a game; the engine asks `find_game` which one a game folder is, and its hooks the rest.

    GAME_CLASSES = {"mafia": "mafia:Mafia", "clocktower": "clocktower:Clocktower", ...}

A game's package is loaded when first asked for (as the forum engines are), so counting a
Mafia game never loads Clocktower's scripts and grimoire.

Adding a game: a package beside these (its variant, rules, events, night, wins, setup and
drafts), its line in GAME_CLASSES, and an example folder; tests/test_games.py runs the same
checks on every registered game.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from pathlib import Path

from ..core.ledger import Game
from ..core.ledger import load_game as _load_game
from ..core.variant import Variant

# Each game's name and where its Variant class is ("package:Class"); the first is the default.
GAME_CLASSES = {
    "mafia": "mafia:Mafia",
    "clocktower": "clocktower:Clocktower",
    "vampires": "vampires:Vampires",
}
DEFAULT = "mafia"  # a game.toml that names no script


class _Games(Mapping):
    """The registry: name -> Variant class, each game's package loaded when first asked for."""

    def __getitem__(self, name: str) -> type[Variant]:
        package, cls = GAME_CLASSES[name].split(":")
        return getattr(importlib.import_module(f"{__name__}.{package}"), cls)

    def __iter__(self) -> Iterator[str]:
        return iter(GAME_CLASSES)

    def __len__(self) -> int:
        return len(GAME_CLASSES)


GAMES: Mapping[str, type[Variant]] = _Games()


def find_game(script: str | None) -> type[Variant]:
    """The game a game.toml's `script` makes it: a game that names it, else the game that
    reads script files (Clocktower); no script, Mafia."""
    if script is None:
        return GAMES[DEFAULT]
    for game in GAMES.values():
        if script in game.script_names:
            return game
    return next(g for g in GAMES.values() if g.takes_script_files)


def script_names() -> list[str]:
    """Every `script` name a game ships (a script file's path is Clocktower's too)."""
    return sorted(name for game in GAMES.values() for name in game.script_names)


def load_game(folder: str | Path) -> Game:
    """Read a game folder (game.toml and events.jsonl) as the game it is."""
    return _load_game(folder, find_game)
