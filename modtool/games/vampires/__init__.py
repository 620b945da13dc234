"""The Vampires game of a forum setup: a village of factions, roles with night
abilities, ties the vampires settle, ascension, the Scion's deception, and its own wins."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ...core.ledger import Game, Phase
from ...core.results import Outcome, OutcomeKind, Win, WinCheck
from ...core.setups import Draw
from ...core.variant import Variant
from . import drafts, output
from .day import VampireDay, VampireRule
from .game import ability_of_role, day_win_check, faction_win, same_vampire_plan, wins_at
from .readings import readings_problem
from .roles import vampire_setup
from .setup import VampireCheck, check_vampires, draw_vampires


class Vampires(Variant):
    name = "vampires"
    revivals = False  # its grimoire, nights and wins keep the dead dead: no revival
    title = "the Vampires game (factions, night abilities, ties the vampires settle)"
    script_names = frozenset({"vampires"})
    setup_keys = frozenset({"roles", "shuffled"})
    has_nights = True
    record_rules = (ability_of_role,)
    example = "games/example-vampires"
    preset = "vampire"
    outcome_rules = frozenset({VampireRule.VAMPIRES_CHOSE})
    tie_chooser = {"en": "the vampires", "ko": "뱀파이어가"}
    templates = Path(__file__).parent / "templates"  # its role PMs

    @classmethod
    def load(cls, script: str | None, folder: Path, fail) -> Vampires:
        return cls()

    def same_plan(self, earlier, later) -> bool:
        return same_vampire_plan(earlier, later)

    def readings_problem(self, chosen) -> str | None:
        return readings_problem(chosen)

    def role_ids(self) -> tuple[str, ...]:
        return tuple(r.id for r in vampire_setup().roles)

    def find_role(self, name: str) -> str | None:
        found = vampire_setup().role(name)
        return found.id if found else None

    def role_name(self, role_id: str) -> str:
        return vampire_setup().by_id(role_id).name

    def check_setup(self, table, slots, fail) -> None:
        roles = table.get("roles", [])
        if not isinstance(roles, list) or not all(isinstance(r, str) for r in roles):
            raise fail('[setup] roles must be a list of roles, like ["Vampire", "Priest"]', "roles")
        for r in roles:
            if vampire_setup().role(r) is None:
                raise fail(f"[setup] role {r!r} is not a role of the Vampires setup", "roles")

    def role_pms(self, game: Game, language: str) -> list[dict]:
        return drafts.role_pm_contexts(game, language)

    def role_display(self, game: Game, slot: str, language: str):
        return drafts.role_display(game, slot, language)

    def always_revealed(self, game: Game, slot: str) -> bool:
        return drafts.always_revealed(game, slot)

    def revealed_ability(self, game: Game, slot: str, language: str) -> str | None:
        return drafts.revealed_ability(game, slot, language)

    def day_hooks(self, walk) -> VampireDay:
        return VampireDay(walk)

    def day_win(self, walk, outcome: Outcome, end_pos: int) -> WinCheck | None:
        game = walk.plan.game
        if not all(s.role for s in game.slots):
            return None
        executed = None
        if outcome.kind is OutcomeKind.EXECUTION:
            executed = game.find_slot(outcome.player)
        ended = outcome.kind is not OutcomeKind.PENDING
        alive = set(walk.state.alive)
        return day_win_check(game, walk.window.day, alive, executed if ended else None, ended)

    def won_before(self, game: Game, phase: Phase) -> Win | None:
        if not all(s.role for s in game.slots):
            return None
        wins = wins_at(game, phase)
        if not wins.game_over:
            return None
        return replace(faction_win(wins), reason="; ".join(wins.reasons))

    def night(self, game: Game, night: int, posts, resolve: bool, confirm: bool):
        return output.night_report(game, night, posts, resolve, confirm)

    def check_setup_legal(self, game: Game) -> VampireCheck:
        return check_vampires(game)

    def draw(self, game: Game, seed: int, shuffle_seats: bool = False) -> Draw:
        return draw_vampires(game, seed)  # its draw is a shuffle of the players: no seats

    def setup_name(self) -> str:
        return "Vampires"
