"""The Clocktower night and grimoire as a Storyteller reads them: the text for the terminal
and the JSON of `modtool night` and `modtool grimoire`, and the hooks that make them."""

from __future__ import annotations

import json
from dataclasses import field

from ...core.ledger import (
    CharacterChange,
    Death,
    Event,
    EventKind,
    Game,
    Phase,
    ReminderEvent,
    event_to_json,
)
from ...core.table import text_table
from ...threads.frozen import frozen
from .events import EVENTS, Master
from .grimoire import REMINDER_LIFETIMES, grimoire_report, reminder_end
from .night import DEMON_KILLS, STAR_PASS, confirm_night, night_sheet, resolve_night
from .scripts import script_of

# --- the grimoire ------------------------------------------------------------------------------


def grimoire_to_json(grimoire, ghosts: dict, names: dict) -> dict:
    return {
        "phase": str(grimoire.phase),
        "seats": [
            {
                "seat": s.seat,
                "player": s.player,
                "character": s.character,
                "shown": s.shown,
                "team": s.team,
                "alignment": s.alignment,
                "alive": s.alive,
                "died": str(s.died) if s.died and not s.alive else None,
                "ghost_vote": None if s.alive else ("spent" if s.slot in ghosts else "available"),
                "reminders": [
                    {"kind": r.kind, "by": r.by, "until": str(r.end) if r.end else "game"}
                    for r in s.reminders
                ],
                "master": s.master,
            }
            for s in grimoire.seats
        ],
        "bluffs": list(grimoire.bluffs),
    }


def grimoire_table(grimoire, ghosts: dict, names: dict) -> str:
    """The grimoire as a table: seat, player, character (what they were told), alignment,
    life and ghost vote, reminders in force."""
    rows = []
    for s in grimoire.seats:
        character = names.get(s.character, s.character or "?")
        if s.shown:
            character += f" (told {names.get(s.shown, s.shown)})"
        if s.alive:
            life = "alive"
        else:
            vote = f"ghost vote spent D{ghosts[s.slot]}" if s.slot in ghosts else "ghost vote"
            life = f"dead {s.died}, {vote}"
        notes = [
            r.kind.replace("_", " ") + (f" ({names.get(r.by, r.by)})" if r.by else "")
            for r in s.reminders
        ]
        if s.master:
            notes.append(f"master: {s.master}")
        rows.append([s.seat or "", s.player, character, s.alignment or "", life, "; ".join(notes)])
    head = f"Grimoire at the start of {grimoire.phase.title}"
    table = text_table(rows, ["seat", "player", "character", "alignment", "life", "reminders"])
    bluffs = ", ".join(names.get(b, b) for b in grimoire.bluffs)
    return f"{head}\n\n{table}\n" + (f"\nBluffs: {bluffs}\n" if bluffs else "")


# --- the night sheet ---------------------------------------------------------------------------


def night_step_json(step) -> dict:
    return {
        "position": step.position,
        "character": step.character,
        "name": step.name,
        "player": step.player,
        "what": step.what,
        "choices": list(step.choices),
        "reminders": list(step.reminders),
        "info": step.info.as_json() if step.info else None,
    }


REMINDER_WORDS = {
    "poisoned": "is poisoned",
    "drunk": "is drunk",
    "protected": "is safe from the Demon",
    "cursed": "is cursed",
    "no_ability": "has no ability",
    "lleech_host": "is the Lleech's host",
    "claimed": "is claimed",
}


def _until_words(until: str | None) -> str:
    """A reminder's end as the ledger writes it ("D3", "game") in words."""
    if until == "game":
        return " for the rest of the game"
    return f" until the end of {Phase.parse(until).title}" if until else ""


def _own_end(e: ReminderEvent) -> str | None:
    """Where a reminder without an `until` ends by its own lifetime ("D3"; "game")."""
    lifetime = REMINDER_LIFETIMES.get(e.reminder)
    if lifetime is None or e.phase is None:
        return None
    end = reminder_end(e.phase, lifetime)
    return str(end) if end is not None else "game"


def event_sentence(e: Event, names: dict | None = None) -> str:
    """One event of a night's resolution as a sentence for the Storyteller: the same typed
    event `--json` gives as a ledger line and `--confirm` writes."""
    names = names or {}
    who, tonight = e.slot or "?", e.phase.title if e.phase else ""
    if isinstance(e, Death):
        cause = {"killed": "killed by the Demon", "star-pass": "the Imp kills themself"}.get(
            e.cause, e.cause
        )
        return f"{who} dies in {tonight}" + (f" ({cause})." if cause else ".")
    if isinstance(e, ReminderEvent):
        by = names.get(e.by, e.by)
        what = REMINDER_WORDS.get(e.reminder, f"gets the {e.reminder} reminder")
        span = _until_words(e.until or _own_end(e))
        return f"{who} {what} in {tonight}{span}" + (f" (the {by})." if by else ".")
    if isinstance(e, Master):
        return f"{who}'s master for Day {e.day} is {e.master}."
    if isinstance(e, CharacterChange):
        becomes = [names.get(e.character, e.character), e.alignment]
        said = " and ".join(b for b in becomes if b)
        cause = f" ({e.cause})" if e.cause else ""
        return f"{who} becomes {said} in {tonight}{cause}."
    return json.dumps(event_to_json(e, EVENTS), ensure_ascii=False)  # a kind prose lacks


def night_sheet_text(
    night: int, steps, resolution=None, written: bool = False, names: dict | None = None
) -> str:
    """The night sheet as a host reads it: one block per step, in order."""
    kind = "first night" if night == 0 else "other nights"
    lines = [f"Night {night} (the {kind} order)", ""]
    for step in steps:
        who = f" - {step.player}" if step.player else ""
        lines.append(f"{step.name}{who}")
        if step.choices:
            lines.append(f"  Chose: {', '.join(step.choices)}")
        if step.reminders:
            lines.append(f"  Reminders: {', '.join(step.reminders)}")
        if step.info is not None:
            i = step.info
            allowed = " | ".join(i.allowed)
            lines.append(f"  True: {i.true_value}")
            lines.append(
                f"  May answer: {allowed}" + (" (your choice)" if i.storyteller_choice else "")
            )
            lines.append(f"  Why: {i.why}")
        if step.what:
            lines.append(f"  Do: {step.what}")
        lines.append("")
    if resolution is not None:
        if resolution.events:
            lines.append("What the choices do:")
        elif resolution.attacks or resolution.protections:
            # the choices did something, and the ledger holds it already (confirmed before)
            lines.append("What the choices do is in the ledger already; nothing new to write.")
        else:
            lines.append("The choices change nothing.")
        lines.extend(f"  {event_sentence(e, names)}" for e in resolution.events)
        lines.extend(f"  Note: {n}" for n in resolution.notes)
        if resolution.events:
            lines.append("Written to events.jsonl." if written else "Not written (add --confirm).")
    return "\n".join(lines).rstrip("\n") + "\n"


def resolution_deaths(resolution) -> list[dict]:
    """The night's deaths, each with its cause and the rule that caused it (the Demon's kill;
    the Demon's own death when it chose itself, the star-pass)."""
    killed = {a.slots[1]: a for a in resolution.attacks if a.result in ("dies", "mayor")}
    passed = {a.slots[0]: a for a in resolution.attacks if a.result == "star-pass"}
    out = []
    for e in resolution.events:
        if e.kind is not EventKind.DEATH:
            continue
        by = killed.get(e.slot) or passed.get(e.slot)
        player = (by.target if by.result != "star-pass" else by.demon) if by else e.slot
        out.append(
            {
                "player": player,
                "cause": e.cause,
                "by": by.demon if by else None,
                "rule": DEMON_KILLS
                if by and by.result != "star-pass"
                else STAR_PASS
                if by
                else None,
            }
        )
    return out


@frozen(slots=False)
class NightReport:
    """`modtool night` of a Clocktower game: the sheet, and what the choices do."""

    night: int
    steps: tuple
    resolution: object  # night.NightResolution, or None without --resolve
    written: bool
    names: dict = field(default_factory=dict)  # character id -> name, for the text

    def as_json(self) -> dict:
        out = {"night": self.night, "steps": [night_step_json(s) for s in self.steps]}
        if self.resolution is not None:
            r = self.resolution
            out["resolution"] = {
                "events": [event_to_json(e, EVENTS) for e in r.events],
                "notes": list(r.notes),
                "deaths": resolution_deaths(r),
                "attacks": [
                    {"demon": a.demon, "target": a.target, "result": a.result} for a in r.attacks
                ],
                "protections": [
                    {"player": p.player, "by": p.by, "rule": p.rule} for p in r.protections
                ],
                "written": self.written,
            }
        return out

    def text(self) -> str:
        return night_sheet_text(self.night, self.steps, self.resolution, self.written, self.names)


def night_report(game: Game, night: int, posts, resolve: bool, confirm: bool) -> NightReport:
    steps = night_sheet(game, night, posts)
    resolution = resolve_night(game, night) if resolve else None
    if confirm and resolution.events:
        confirm_night(game, night)
    names = {cid: c.name for cid, c in script_of(game).characters.items()}
    return NightReport(night, tuple(steps), resolution, confirm, names)


@frozen(slots=False)
class GrimoireReport:
    grimoire: object
    ghosts: dict
    names: dict
    over: str | None = None  # who won, when the game was over before this phase

    def as_json(self) -> dict:
        return {**grimoire_to_json(self.grimoire, self.ghosts, self.names), "game_over": self.over}

    def text(self) -> str:
        table = grimoire_table(self.grimoire, self.ghosts, self.names)
        return table + (f"\nThe game is over: {self.over}.\n" if self.over else "")


def grimoire_view(game: Game, posts, phase: Phase) -> GrimoireReport:
    found, ghosts = grimoire_report(game, posts, phase)
    names = {cid: c.name for cid, c in script_of(game).characters.items()}
    return GrimoireReport(found, ghosts, names, game.variant.win_before(game, phase))
