"""The registry of the games modtool runs, the way python-chess lists its variants: a game is a
package here with a `Variant` subclass, and one line below. Nothing outside this package
names a game; the engine asks `find_game` which one a game folder is, and its hooks the rest.

    GAMES = {"mafia": Mafia, "clocktower": Clocktower, "vampires": Vampires}

Adding a game: a package beside these (its variant, rules, events, night, wins, setup and
drafts), its line in GAMES, and an example folder; tests/test_games.py runs the same checks
on every registered game.
"""

from __future__ import annotations

from pathlib import Path

from ..core.ledger import Game
from ..core.ledger import load_game as _load_game
from ..core.variant import Variant
from .clocktower import Clocktower
from .mafia import Mafia
from .vampires import Vampires

GAMES: dict[str, type[Variant]] = {g.name: g for g in (Mafia, Clocktower, Vampires)}


def find_game(script: str | None) -> type[Variant]:
    """The game a game.toml's `script` makes it: a game that names it, else the game that
    reads script files (Clocktower); no script, Mafia."""
    if script is None:
        return Mafia
    for game in GAMES.values():
        if script in game.script_names:
            return game
    return next(g for g in GAMES.values() if g.takes_script_files)


def load_game(folder: str | Path) -> Game:
    """Read a game folder (game.toml and events.jsonl) as the game it is."""
    return _load_game(folder, find_game)
