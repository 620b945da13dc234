"""Blood on the Clocktower as forums play it (the forum voting of VTL and ghost votes): a
script of characters, the characters that change a count (the Butler, the Virgin, the Witch,
the Slayer), the grimoire, each night's information and resolution, setups, and wins."""

from __future__ import annotations

from pathlib import Path

from ...core.ledger import Game, Phase
from ...core.results import Outcome, OutcomeKind, Win, WinCheck
from ...core.setups import Draw
from ...core.variant import DayHooks, Variant
from . import drafts, output
from .character_rules import CharacterRules
from .choices import choice_problem
from .events import EVENTS, master_chosen_by_a_living_butler, master_day_reached
from .grimoire import REMINDER_LIFETIMES, ghost_votes, grimoire_for
from .night import win_at
from .role_import import import_roles
from .rules import ClocktowerRule
from .scripts import SHIPPED, Script, load_script
from .setups import SetupCheck, check_game, draw_game
from .wins import check_day

# Minions learn the whole evil team, or only the Demon (as the forum Clocktower game had it).
MINION_INFO = ("team", "demon")
DAY_ABILITIES = ("slayer", "damsel_guess", "goblin_claim", "juggle", "other")


class Clocktower(Variant):
    name = "clocktower"
    revivals = False  # its grimoire, nights and wins keep the dead dead: no revival
    templates = Path(__file__).parent / "templates"  # its character PMs and Korean words
    title = "Blood on the Clocktower (forum voting of VTL and ghost votes)"
    script_names = frozenset(SHIPPED)
    takes_script_files = True
    setup_keys = frozenset({"bluffs", "minion_info", "red_herring"})
    day_abilities = DAY_ABILITIES
    reminders = REMINDER_LIFETIMES
    has_nights = True
    outcome_rules = frozenset({ClocktowerRule.VIRGIN})
    example = "games/example-botc"
    preset = "botc-forum"
    events = EVENTS
    record_rules = (
        master_day_reached,
        master_chosen_by_a_living_butler,
        choice_problem,
    )
    eliminate = "execute"  # the Clocktower word: players are executed, never lynched
    no_elimination = "no execution"

    def __init__(self, script: Script, spec: str) -> None:
        self.script, self.spec = script, spec  # the script, and game.toml's name for it

    @classmethod
    def load(cls, script: str | None, folder: Path, fail) -> Clocktower:
        return cls(load_script(script, folder), script)

    def role_ids(self) -> tuple[str, ...]:
        return self.script.ids

    def find_role(self, name: str) -> str | None:
        found = self.script.find(name)
        return found.id if found else None

    def role_name(self, role_id: str) -> str:
        return self.script.characters[role_id].name

    def check_setup(self, table, slots, fail) -> None:
        if not isinstance(table.get("red_herring", ""), str):
            raise fail("[setup] red_herring must be a player's name in quotes", "red_herring")
        if table.get("minion_info", MINION_INFO[0]) not in MINION_INFO:
            raise fail('[setup] minion_info must be "team" or "demon"', "minion_info")
        bluffs = table.get("bluffs", [])
        if not isinstance(bluffs, list) or not all(isinstance(b, str) for b in bluffs):
            raise fail(
                '[setup] bluffs must be a list of characters, like ["Monk", "Chef"]', "bluffs"
            )
        for b in bluffs:
            if self.script.find(b) is None:
                raise fail(f"[setup] bluff {b!r} is not on the script {self.spec!r}", "bluffs")

    def role_pms(self, game: Game, language: str) -> list[dict]:
        return drafts.role_pm_contexts(game, language)

    def role_display(self, game: Game, slot: str, language: str):
        return drafts.role_display(game, slot, language)

    def revealed_ability(self, game: Game, slot: str, language: str) -> str | None:
        return drafts.revealed_ability(game, slot, language)

    # --- the town square -------------------------------------------------------------------

    def ghost_votes_before(self, game: Game, posts, phase: Phase) -> dict[str, int] | None:
        return ghost_votes(game, posts, phase) if game.rules.ghost_votes else None

    def is_traveller(self, game: Game, slot: str) -> bool:
        character = self.script.characters.get(game.role_at(slot) or "")
        return character is not None and character.team == "traveller"

    # --- the count ----------------------------------------------------------------------------

    def day_hooks(self, walk) -> DayHooks:
        return CharacterRules(walk, grimoire_for(walk.plan, walk.window.day), walk.used)

    def day_win(self, walk, outcome: Outcome, end_pos: int) -> WinCheck:
        """The day's win check, with the living now and the execution if the day ended."""
        game = walk.plan.game
        executed = None
        if outcome.kind is OutcomeKind.EXECUTION and not outcome.survives:
            executed = game.find_slot(outcome.player)
        today = [e for pos, e in walk.plan.day_abilities() if walk.start <= pos < end_pos]
        guesses = tuple(
            (e.slot, e.target) for e in today if e.ability == "damsel_guess" and e.target
        )
        claimed = frozenset(e.slot for e in today if e.ability == "goblin_claim")
        ended = outcome.kind is not OutcomeKind.PENDING
        grimoire = grimoire_for(walk.plan, walk.window.day)
        alive = set(walk.state.alive)
        return check_day(grimoire, alive, walk.window.day, executed, ended, guesses, claimed)

    def won_before(self, game: Game, phase: Phase) -> Win | None:
        return win_at(game, phase)

    # --- nights ----------------------------------------------------------------------------------

    def night(self, game: Game, night: int, posts, resolve: bool, confirm: bool):
        return output.night_report(game, night, posts, resolve, confirm)

    def grimoire(self, game: Game, posts, phase: Phase):
        return output.grimoire_view(game, posts, phase)

    def import_role_text(self, game: Game, source: Path, language: str, every: bool):
        return import_roles(game.folder, source, language, None if every else self.script)

    # --- setups -------------------------------------------------------------------------------

    def check_setup_legal(self, game: Game) -> SetupCheck:
        return check_game(game)

    def draw(self, game: Game, seed: int, shuffle_seats: bool = False) -> Draw:
        return draw_game(game, seed, shuffle_seats)

    def setup_name(self) -> str:
        return self.script.name
