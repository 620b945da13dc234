"""A Vampires night as the host reads it: the text for the terminal and the JSON of
`modtool night`, and the hook that makes them."""

from __future__ import annotations

from ...core.ledger import Game, event_to_json
from ...threads.frozen import frozen
from .game import (
    confirm_vampire_night,
    night_events,
    resolve_vampire_night,
    winners_clause,
    wins_after_night,
)

# --- a Vampires night --------------------------------------------------------------------------


def _vampire_names(game) -> dict:
    return {s.key: game.slot_names(s.key)[-1] for s in game.slots}


def _death(names, outcome, slot, cause) -> dict:
    """A death of the night: who, the cause, who caused it and by which rule."""
    by, rule = outcome.killers.get(slot, (None, None))
    return {"player": names[slot], "cause": cause, "by": names.get(by), "rule": rule}


def _answer_json(names, a, sent: bool) -> dict:
    """An information step as data: the answer given, the true value, why they differ, and
    whether its PM line is sent (not to a player killed tonight, by the killed-tonight reading)."""

    def value(v):
        if isinstance(v, tuple):
            return {"kind": "players", "players": [names[x] for x in v]}
        return {"kind": "verdict", "value": v}

    return {
        "player": names[a.player],
        "ability": a.ability,
        "target": names[a.target],
        "said": value(a.said),
        "true": value(a.true),
        "because": a.because,
        "sent": sent,
    }


def vampire_night_json(game, night, plans, outcome, events, written, wins) -> dict:
    names = _vampire_names(game)
    unsent = outcome.unsent()
    return {
        "night": night,
        "plans": [
            {
                "player": names[p.actor],
                "ability": p.ability,
                "targets": [names[t] for t in p.targets],
            }
            for p in plans
        ],
        "deaths": [_death(names, outcome, s, c) for s, c in outcome.deaths],
        "answers": [_answer_json(names, a, a.player not in unsent) for a in outcome.answers],
        "effects": [
            {
                "kind": e.kind,
                "by": names[e.by],
                "target": names[e.target],
                **({"result": e.result} if e.result else {}),
            }
            for e in outcome.effects
        ],
        "readings": [t.as_json() for t in outcome.readings],
        "role_changes": [
            {"player": names[s], "role": r, "cause": "ascension", "phase": f"D{d}"}
            for s, r, d in outcome.day_role_changes
        ]
        + [
            {"player": names[s], "role": r, "cause": c, "phase": f"N{night}"}
            for s, r, c in outcome.role_changes
        ],
        "results": {names[s]: lines for s, lines in outcome.results.items()},
        "notes": list(outcome.notes),
        "warnings": list(outcome.warnings),
        "wins": {
            "winners": list(wins.winners),
            "game_over": wins.game_over,
            "reasons": list(wins.reasons),
            "readings": [t.as_json() for t in wins.readings],
        },
        "events": [event_to_json(e) for e in events],
        "written": written,
    }


def vampire_night_text(game, night, plans, outcome, events, written, wins) -> str:
    names = _vampire_names(game)
    lines = [f"Night {night}: plans, in the order they resolve", ""]
    for p in plans:
        lines.append(f"  {names[p.actor]}: {p.ability} {', '.join(names[t] for t in p.targets)}")
    if not plans:
        lines.append("  (no plans recorded: modtool record choice GAME PLAYER TARGET --night N)")
    lines.append("")
    lines.append("Deaths: " + (", ".join(f"{names[s]} ({c})" for s, c in outcome.deaths) or "none"))
    for s, r, d in outcome.day_role_changes:
        lines.append(f"Role change on Day {d}: {names[s]} becomes {r} (ascension)")
    for s, r, c in outcome.role_changes:
        lines.append(f"Role change: {names[s]} becomes {r} ({c})")
    lines.append("")
    lines.append("Results:")
    for s, said in outcome.results.items():
        for text in said:
            lines.append(f"  {names[s]}: {text}")
    for n in outcome.notes:
        lines.append(f"Note: {n}")
    for w in outcome.warnings:
        lines.append(f"Warning: {w}")
    if wins.winners:
        over = "Game over: " if wins.game_over else "Also: "
        lines.append(f"{over}{winners_clause(wins.winners)} (" + "; ".join(wins.reasons) + ")")
    if events:
        lines.append(
            "Written to events.jsonl."
            if written
            else f"{len(events)} events not written (add --resolve --confirm)."
        )
    return "\n".join(lines) + "\n"


@frozen(slots=False)
class VampireNightReport:
    game: Game
    night: int
    plans: tuple
    outcome: object
    events: tuple
    written: bool
    wins: object  # game.FactionWins after the night, found once by the game's rules

    def _parts(self) -> tuple:
        return (self.game, self.night, self.plans, self.outcome, list(self.events))

    def as_json(self) -> dict:
        return vampire_night_json(*self._parts(), self.written, self.wins)

    def text(self) -> str:
        return vampire_night_text(*self._parts(), self.written, self.wins)


def night_report(game: Game, night: int, posts, resolve: bool, confirm: bool):
    outcome, plans = resolve_vampire_night(game, night)
    events = night_events(game, outcome, night)
    if confirm and events:
        confirm_vampire_night(game, night)
    wins = wins_after_night(game, night, outcome)
    return VampireNightReport(game, night, tuple(plans), outcome, tuple(events), confirm, wins)
