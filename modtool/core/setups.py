"""Setups in any game: a seeded draw (`Draw`), the commitment a host posts at the start and
reveals at the end, and recording a draw in the ledger (refused once the game has started,
unless forced). Each game checks and draws its own (`Variant.check_setup_legal`, `.draw`).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import replace

from ..errors import ModToolError
from ..threads.frozen import frozen
from .ledger import EventKind, Game, Phase, PhaseKind, Setup, append_computed


@frozen(slots=False)
class Draw:
    seed: int
    seats: tuple[str, ...]  # players in seat order (seat 1 first)
    roles: dict[str, str]
    shown: dict[str, str]
    bluffs: tuple[str, ...]
    red_herring: str | None

    def as_event(self) -> Setup:
        seats = tuple((p, i, self.roles[p], self.shown.get(p)) for i, p in enumerate(self.seats, 1))
        return Setup(
            EventKind.SETUP,
            0,
            seed=self.seed,
            seats=seats,
            bluffs=self.bluffs,
            red_herring=self.red_herring or None,
        )


# --- the commitment ------------------------------------------------------------------------------


def commitment_text(
    title: str, script_name: str, seats, roles, shown, bluffs, red_herring, salt: str
) -> str:
    """The setup as text the host reveals at the end; its SHA-256 is posted at the start."""
    lines = ["modtool setup commitment v1", f"game: {title}", f"script: {script_name}"]
    for i, p in enumerate(seats, 1):
        told = f" (shown {shown[p]})" if p in shown else ""
        lines.append(f"seat {i}: {p} = {roles[p]}{told}")
    lines.append(f"bluffs: {', '.join(bluffs)}")
    lines.append(f"red herring: {red_herring or '-'}")
    lines.append(f"salt: {salt}")
    return "\n".join(lines) + "\n"


def new_salt() -> str:
    return secrets.token_hex(16)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def commit_game(game: Game, salt: str) -> tuple[str, str]:
    """The commitment hash and the text it hashes (to reveal at the end)."""
    check = game.variant.check_setup_legal(game)
    if not check.valid:
        raise ModToolError(f"the setup is not legal ({check.reasons[0]}); see modtool setup check")
    slots = sorted(game.slots, key=lambda s: (s.seat is None, s.seat or 0))
    seats = [s.key for s in slots]
    roles = {s.key: s.role for s in slots}
    shown = {s.key: s.shown for s in slots if s.shown}
    bluffs = [game.variant.find_role(b) for b in game.setup.get("bluffs", [])]
    herring = game.setup.get("red_herring")
    name = game.variant.setup_name()
    text = commitment_text(game.title, name, seats, roles, shown, bluffs, herring, salt)
    return sha256(text), text


def reveal_salt(reveal: str) -> str | None:
    """The salt a reveal `commitment_text` wrote ends with, or None for any other text."""
    lines = reveal.splitlines()
    if (
        not lines
        or not lines[0].startswith("modtool setup commitment")
        or not reveal.endswith("\n")
    ):
        return None
    return lines[-1].removeprefix("salt: ") if lines[-1].startswith("salt: ") else None


def reveals_the_setup(game: Game, reveal: str, salt: str | None = None) -> bool:
    """Whether a reveal already written is of the game's setup as it is now (and, when `salt`
    is given, with that salt): committing again would then give the same hash."""
    kept = reveal_salt(reveal)
    if kept is None or salt not in (None, kept):
        return False
    return commit_game(game, kept)[1] == reveal


# --- recording a draw --------------------------------------------------------------------------

PLAY_KINDS = (
    EventKind.DEATH,
    EventKind.NIGHT_CHOICE,
    EventKind.NIGHT_RESULT,
    EventKind.REMINDER,
    EventKind.CHARACTER_CHANGE,
    EventKind.DAY_ABILITY,
)


def game_started(game: Game) -> str | None:
    """How the ledger shows the game under way (past Day 1, or play recorded), or None."""
    now = game.current_phase()
    if now > Phase(1, PhaseKind.DAY):
        return f"it is in {now.title}"
    played = next((e for e in game.events if e.kind in PLAY_KINDS), None)
    if played is not None:
        return f"ledger line {played.line} records play ({played.kind.value})"
    return None


def record_setup(game: Game, event: Setup, force: bool = False) -> Setup:
    """Append a drawn setup. After the game has started a new setup would replace every
    character for the whole game, so it is refused unless `force`, which the line records."""

    written: list[Setup] = []

    def checked(current: Game) -> list[Setup]:
        started = game_started(current)
        if started is not None and not force:
            raise ModToolError(
                f"the game has started ({started}): a new setup would replace every character "
                "for the whole game; add --force if you mean it (the line records it)"
            )
        line = event if started is None else replace(event, forced=True, note=started)
        written[:] = [line]
        return written

    append_computed(game, checked)
    return written[0]
