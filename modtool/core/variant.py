"""The protocol a game implements to run on the engine, the way a chess variant or a PettingZoo
environment does: the core never names a game, it asks the game's hooks.

A game is a subclass of `Variant` in its own package under modtool/games/, listed in the
registry there (`modtool.games.GAMES`). Every hook has a default that changes nothing, so a
game overrides only what it adds: a game of votes alone overrides nothing; a game of
characters reads its script or roles, checks votes against its characters, runs its nights and
checks its own wins.

What the engine asks, and where:

    load / find_role / role_ids / check_setup      reading game.toml (core.ledger.setup)
    setup_keys, day_abilities, reminders          what its [setup] table and events may hold
    events                                        its own kinds of ledger event (core.ledger)
    day_hooks                                     a day's count, at each vote (core.count)
    day_win                                       the win check at a day's end (core.count)
    tie_chooser                                   who chooses among the tied (core.rules, drafts)
    won_before                                    whether the game is already won (host, games)
    record_rules                                  extra checks of a recorded event (core.checks)
    ghost_votes_before, is_traveller              what the town square shows (host.pictures)
    templates, role_pms, role_display, ...        what the drafts say (host.drafts)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from ..errors import ModToolError

if TYPE_CHECKING:  # types only: the ledger's model imports this module
    from .ledger.events import EventType
    from .ledger.model import Event, Game, Phase
    from .results import Outcome, Win, WinCheck

# the core names no game: its hints point to the doc that lists the games' scripts
_SCRIPTS = "`modtool docs game-folder` lists the scripts"
_NO_SETUPS = (
    "{folder}/game.toml: this game has no setups to check or draw; give it the script of a "
    f"game that has them ({_SCRIPTS})"
)
Fail = Callable[..., Exception]  # fail(problem, needle) -> the error to raise, at its line


class DayHooks:
    """What a game does to a day's count as it is walked post by post. The walk calls each
    hook at its moment; the defaults change nothing. A hook that kills calls `walk.kill`, so
    the death is in the count (`DayCount.deaths`) and end-day records it."""

    used_today: frozenset[str] = frozenset()  # slots whose once-per-game ability was used today

    def refusal(self, voter: str, target: str, post, pos: int) -> StrEnum | None:
        """The game's rule that refuses this living player's vote (a character bound to vote
        with another), or None; the
        hook warns the host itself."""
        return None

    def before_vote(self, voter: str, post, pos: int) -> StrEnum | None:
        """Before a vote counts: the rule by which the voter died of it (a curse on voting)."""
        return None

    def after_vote(self, voter: str, target: str, post, pos: int) -> Outcome | None:
        """After a vote counted: an outcome that ends the day at once (a character whose
        first voter is executed), or None."""
        return None

    def after_action(self, post, pos: int) -> None:
        """After any action of a post (a vote bound to follow another's)."""

    def day_ability(self, event, post, pos: int) -> None:
        """A host-announced day ability, at its post (a shot at a player)."""

    def execution_spared(self, slot: str) -> str | None:
        """Why the player executed today does not die (the Tea Lady, the Fool), or None."""
        return None

    def settle_tie(self, outcome: Outcome, end_pos: int) -> Outcome:
        """A tie at the day's end as the game settles it (a team's choice), or as it is."""
        return outcome


class Variant:
    """A game modtool runs. Subclasses set `name` and override the hooks they need."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    # the values game.toml's `script` may take for this game (a game without scripts: empty)
    script_names: ClassVar[frozenset[str]] = frozenset()
    takes_script_files: ClassVar[bool] = False  # a script = "file.json" is this game's
    setup_keys: ClassVar[frozenset[str]] = frozenset()  # what its [setup] table may hold
    day_abilities: ClassVar[tuple[str, ...]] = ()  # what record day-ability may name
    reminders: ClassVar[Mapping[str, str]] = {}  # reminder word -> how long it lasts
    has_nights: ClassVar[bool] = False  # nights the engine resolves (`modtool night`)
    # whether its ledger takes a revival (a dead player alive again): a game whose nights and
    # wins read its own record of the dead takes none until they follow it
    revivals: ClassVar[bool] = True
    outcome_rules: ClassVar[frozenset[StrEnum]] = frozenset()  # rules that can end its days
    record_rules: ClassVar[tuple[Callable, ...]] = ()  # (game, event, last_post) -> problem
    events: ClassVar[tuple[EventType, ...]] = ()  # the game's own kinds of ledger event
    example: ClassVar[str | None] = None  # an example folder, relative to the repository
    preset: ClassVar[str] = "mafiascum"  # the rules preset `init` writes for it
    # how its posts say a day's elimination: "it takes 5 to lynch", "and 4 to no lynch"
    eliminate: ClassVar[str] = "lynch"
    no_elimination: ClassVar[str] = "no lynch"
    # the game's own draft templates (a folder in its package), read before modtool's shared
    # ones and after the game folder's templates/; None: the shared ones only
    templates: ClassVar[Path | None] = None
    # who chooses among the tied under `tie = "team-chooses"`, per language: the subject of
    # "choose" ("the wolves choose among them"; in Korean with its particle). A game without
    # one cannot take that policy.
    tie_chooser: ClassVar[Mapping[str, str]] = {}

    @classmethod
    def load(cls, script: str | None, folder: Path, fail: Fail) -> Variant:
        """The game as game.toml sets it up (its script read, where it has one)."""
        return cls()

    # --- roles --------------------------------------------------------------------------------

    @property
    def has_roles(self) -> bool:
        """Whether players' roles are checked against a list (a script, the game's roles)."""
        return bool(self.role_ids())

    def role_ids(self) -> tuple[str, ...]:
        return ()

    def find_role(self, name: str) -> str | None:
        """The id of the role or character called `name`, or None when the game has none."""
        return None

    def check_setup(self, table: Mapping, slots: tuple, fail: Fail) -> None:
        """Check the game's own keys of game.toml's [setup] table."""

    def readings_problem(self, chosen: Mapping[str, str]) -> str | None:
        """Why `[rules] readings` (where the game's text can be read two ways, the host's
        choice) is not one of the game's, or None."""
        if chosen:
            return "this game has no readings to choose; leave readings out of [rules]"
        return None

    def role_name(self, role_id: str) -> str:
        return role_id

    # --- what drafts say (host.drafts) ----------------------------------------------------------

    def role_pms(self, game: Game, language: str) -> list[dict]:
        """One role-PM context per player, in seat order (the game's templates format it)."""
        raise ModToolError(
            f'{game.folder}/game.toml: role PMs need script = "..." and a role for each player'
        )

    def role_display(self, game: Game, slot: str, language: str) -> tuple[str | None, str | None]:
        """A dead player's role and alignment (or faction) as a post names them."""
        return game.role_at(slot), game.slot(slot).team

    def always_revealed(self, game: Game, slot: str) -> bool:
        """Whether the game announces this player's role at death whatever [drafts] says."""
        return False

    def revealed_ability(self, game: Game, slot: str, language: str) -> str | None:
        """The ability a full-PM reveal quotes."""
        return None

    def import_role_text(self, game: Game, source: Path, language: str, every: bool):
        """Add the role text of a publisher's file to the game's own (`modtool roles import`):
        an object with `as_json()` and `text()`."""
        raise ModToolError(
            f"{game.folder}/game.toml: this game has no role text to import; give it the script "
            f"of a game whose characters have it ({_SCRIPTS})"
        )

    # --- setups (`modtool setup`) ---------------------------------------------------------------

    def check_setup_legal(self, game: Game):
        """Whether the game's roles make a legal setup: an object with `valid`, `reasons`,
        `warnings`, `summary()` and `as_json()`."""
        raise ModToolError(_NO_SETUPS.format(folder=game.folder))

    def draw(self, game: Game, seed: int, shuffle_seats: bool = False):
        """A legal setup drawn with `seed` (a `core.setups.Draw`); the players keep the seats
        game.toml gives them unless `shuffle_seats`, where the game has seats."""
        raise ModToolError(_NO_SETUPS.format(folder=game.folder))

    def setup_name(self) -> str:
        return self.title

    # --- the count ----------------------------------------------------------------------------

    def day_hooks(self, walk) -> DayHooks | None:
        """The game's hooks for one day's walk (core.count), or None."""
        return None

    def day_win(self, walk, outcome: Outcome, end_pos: int) -> WinCheck | None:
        """The win check of a day's count, with the living now and its outcome."""
        return None

    # --- nights and the grimoire (`modtool night`, `modtool grimoire`) --------------------------

    def same_plan(self, earlier: Event, later: Event) -> bool:
        """Whether a later night choice replaces an earlier one (a host's correction): the same
        player's in the same night. The night uses the latest only."""
        return earlier.slot == later.slot and earlier.phase == later.phase

    def night(self, game: Game, night: int, posts, resolve: bool, confirm: bool):
        """The night sheet (and with `resolve`, what the choices do; `confirm` writes it): an
        object with `as_json()` and `text()`."""
        raise ModToolError(
            f"{game.folder}/game.toml: this game has no nights for modtool to run; give it the "
            f"script of a game that has them ({_SCRIPTS})"
        )

    def grimoire(self, game: Game, posts, phase: Phase):
        """The grimoire at the start of `phase`: an object with `as_json()` and `text()`."""
        raise ModToolError(
            f"{game.folder}/game.toml: this game keeps no grimoire; give it the script of a game "
            f"that has one ({_SCRIPTS})"
        )

    # --- the town square (`modtool picture square`) ----------------------------------------

    def ghost_votes_before(self, game: Game, posts, phase: Phase) -> dict[str, int] | None:
        """The ghost votes spent before `phase` (slot -> the day it was spent), or None when the
        game has no ghost votes to show."""
        return None

    def is_traveller(self, game: Game, slot: str) -> bool:
        """Whether the player is a Traveller, shown apart from the seats of the game."""
        return False

    # --- the state ----------------------------------------------------------------------------

    def won_before(self, game: Game, phase: Phase) -> Win | None:
        """The win, if the game was already won before `phase` starts; else None."""
        return None

    def win_before(self, game: Game, phase: Phase) -> str | None:
        """Who won, and why, in a sentence (what a refusal says), or None."""
        win = self.won_before(game, phase)
        return f"{win.who} won ({win.reason})" if win else None
