"""The Vampires game: the state of the village from the ledger, a night's
resolution in a documented order, and the win checks of each faction.

Every step of the night is one function; where the seed can be read two ways the step takes
the reading listed in docs/vampires.md and says so in the night's notes, so the host can
overrule it before confirming. Random choices (which Faithful Villager ascends) use the seed
of the recorded setup draw, or 0.

The order (docs/vampires.md):
 1. Distraction (the Treacherous Villager) cancels one player's night plan;
 2. the Paladin's protection, and the paranoia it gives a Priest or a Watcher;
 3. the Vampires' Drain, against protection and the Chosen One's resistance;
 4. the Apothecary's two outcomes;
 5. Guard observations;
 6. Priest results; 7. Watcher results, and a found Chosen One becomes the Slayer;
 8. the Slayer's kill;
 9. Faithful Villager ascension for each Priest, Paladin, Guard or Watcher who died;
10. the one-time Scion conversion when Vampires killed a Scion;
11. Ultimate Deception on the reveals; 12. Dark God's Favor thresholds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import StrEnum

from ...core.checks import already_recorded, refuse_when_won, require_reached
from ...core.count import EXECUTED_CAUSES
from ...core.ledger import (
    CharacterChange,
    Death,
    Event,
    EventKind,
    Game,
    NightResult,
    Phase,
    PhaseKind,
    ReminderEvent,
    append_computed,
)
from ...core.results import Win, WinCheck
from ...errors import ModToolError
from .roles import vampire_setup

PARANOIA_VULNERABLE = ("priest", "watcher")
ASCENDING = ("priest", "paladin", "guard", "watcher")
CAUSES = {  # cause -> (the faction that killed, whether the seed says it is obvious)
    "drained": ("vampires", False),
    "poisoned": ("village", True),  # "It will be clear that this Vampire died by poisoning"
    "slain": ("village", True),  # "It will be obvious that the death was caused by the Slayer"
    "lynched": ("village", False),
    "executed": ("village", False),
}


@dataclass
class Village:
    """Who is who at the start of a night (or the end of a day)."""

    roles: dict[str, str]  # slot -> role id
    alive: set[str]
    slayers: set[str]  # Chosen Ones who became the Slayer
    converted: bool  # the one-time Scion conversion has happened
    names: dict[str, str]  # slot -> the name holding it
    scions_killed: dict[str, int] = field(default_factory=dict)  # faction -> Scions killed
    scions_total: int = 0

    def faction(self, slot: str) -> str:
        return vampire_setup().by_id(self.roles[slot]).faction

    def living(self, role: str) -> list[str]:
        return [s for s in self.roles if self.roles[s] == role and s in self.alive]


def village_at(game: Game, phase: Phase) -> Village:
    """The village at the start of `phase`, from the setup and the ledger."""
    roles = {s.key: s.role for s in game.slots}
    if any(r is None for r in roles.values()):
        missing = next(k for k, r in roles.items() if r is None)
        raise ModToolError(f'{missing} has no role; give every player role = "..." or draw one')
    alive = set(roles)
    scions_total = sum(1 for r in roles.values() if r == "scion")
    killed: dict[str, int] = {}
    for e in game.deaths():
        died = game.death_phase(e)  # a death at a post (a modkill) falls in that post's phase
        if died is not None and died < phase:
            alive.discard(e.slot)
            if roles.get(e.slot) == "scion" or game.role_at(e.slot, died) == "scion":
                faction = CAUSES.get((e.cause or "").casefold(), ("village", False))[0]
                killed[faction] = killed.get(faction, 0) + 1
    converted = False
    for e in game.events_of(EventKind.CHARACTER_CHANGE):
        if e.phase is not None and e.phase < phase and e.character:
            roles[e.slot] = e.character
            if e.cause == "conversion":
                converted = True
                scions_total += 1
    slayers = {
        e.slot
        for e in game.events_of(EventKind.REMINDER)
        if e.reminder == "slayer" and e.phase is not None and e.phase < phase
    }
    names = {s.key: game.slot_names(s.key)[-1] for s in game.slots}
    return Village(roles, alive, slayers, converted, names, killed, scions_total)


# --- a night's plans ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Plan:
    actor: str
    ability: str  # drain, distraction, protection, observation, treatment, investigation,
    # search, slay, chat
    targets: tuple[str, ...]


class VampireWin(StrEnum):
    """The Vampires game's ways to win (the JSON names them by these member names)."""

    NO_VAMPIRES = "every Vampire is dead"
    VAMPIRES_HALF = "the Vampires are at least half of the village"
    CHOSEN_ONE_LAST = "The Chosen One and a single Vampire are the last survivors"


ABILITY_OF = {
    "vampire": "drain",
    "treacherous-villager": "distraction",
    "paladin": "protection",
    "guard": "observation",
    "apothecary": "treatment",
    "priest": "investigation",
    "watcher": "search",
    "scion": "chat",
}


ABILITIES = frozenset({*ABILITY_OF.values(), "slay", "deception"})
# beyond ABILITY_OF: the Chosen One who became the Slayer slays; a Scion may deceive at death
EXTRA_ABILITIES = {"chosen-one": ("slay",), "scion": ("deception",)}


def ability_of_role(game: Game, e: Event, last_post: int | None) -> str | None:
    """A night plan's ability is one of the game's, and one the player's role has."""
    if e.kind is not EventKind.NIGHT_CHOICE or e.ability is None or e.slot is None:
        return None
    if e.ability not in ABILITIES:
        known = ", ".join(sorted(ABILITIES))
        return f"no ability {e.ability!r} in the Vampires game; use one of {known}"
    role = game.role_at(e.slot, e.phase)
    own = {ABILITY_OF.get(role), *EXTRA_ABILITIES.get(role or "", ())}
    if e.ability in own:
        return None
    has = ", ".join(sorted(a for a in own if a)) or "none at night"
    return f"{e.slot} is the {role}: their ability is {has}, not {e.ability}"


VAMPIRE_RECORD_RULES = (ability_of_role,)


def plans_of(game: Game, night: int, village: Village) -> list[Plan]:
    """The night's submitted plans (night_choice events) of living players, by their role's
    night ability (a Slayer's choice is a slay; a Scion's `deception` is not a plan)."""
    phase = Phase(night, PhaseKind.NIGHT)
    plans = []
    for e in game.events_of(EventKind.NIGHT_CHOICE):
        if e.phase != phase or e.slot not in village.alive or e.ability == "deception":
            continue
        role = village.roles[e.slot]
        ability = e.ability or ("slay" if e.slot in village.slayers else ABILITY_OF.get(role))
        if ability is None:
            continue
        plans.append(Plan(e.slot, ability, tuple(e.targets)))
    return plans


# --- the steps (each one rule, table-tested) ---------------------------------------------------


def cancelled_by_distraction(plans: list[Plan]) -> set[str]:
    """1. The players whose plans are cancelled: every Distraction's target."""
    return {p.targets[0] for p in plans if p.ability == "distraction" and p.targets}


def paladin_effects(plans: list[Plan], roles: dict[str, str]) -> tuple[dict[str, int], set[str]]:
    """2. Protection (one Vampire kill per protecting Paladin) and paranoia: a protected
    Priest or Watcher is made paranoid ("Contagious Paranoia")."""
    protected: dict[str, int] = {}
    paranoid: set[str] = set()
    for p in plans:
        if p.ability == "protection" and p.targets:
            t = p.targets[0]
            protected[t] = protected.get(t, 0) + 1
            if roles.get(t) in PARANOIA_VULNERABLE:
                paranoid.add(t)
    return protected, paranoid


def drain_result(target_role: str, is_slayer: bool, protected: int) -> str:
    """3. A Vampire's Drain on a target: "resisted" (The Chosen One, and so the Slayer: "If
    you would be killed by a Vampire ability, instead you are not"), "protected" (the
    Paladin's protection, used up), or "dies"."""
    if target_role == "chosen-one" or is_slayer:
        return "resisted"
    if protected > 0:
        return "protected"
    return "dies"


def apothecary_result(target_role: str, target_drained_by: str | None) -> str:
    """4. "If the target is a non-Vampire and they are killed by a Vampire that night, then
    that Vampire will die by poisoning ... If the target is a Vampire, then you will die as if
    killed by the Drain ability": "poisons the vampire", "apothecary dies", or "nothing"."""
    if target_role == "vampire":
        return "apothecary dies"
    if target_drained_by is not None:
        return "poisons the vampire"
    return "nothing"


def priest_result(target_role: str, paranoid: bool) -> str:
    """6. "Vampire"/"Not a Vampire"; a paranoid Priest gets "Vampire" no matter what. A living
    Scion's Ultimate Deception does not change it."""
    return "Vampire" if paranoid or target_role == "vampire" else "Not a Vampire"


def watcher_result(target_role: str, paranoid: bool) -> tuple[str, bool]:
    """7. "The Chosen One"/"Not The Chosen One", and whether the target becomes the Slayer.
    A paranoid Watcher gets "Not The Chosen One"; reading taken: then nobody is contacted."""
    if paranoid:
        return "Not The Chosen One", False
    found = target_role == "chosen-one"
    return ("The Chosen One" if found else "Not The Chosen One"), found


def favor_factions(killed: dict[str, int], total: int) -> list[str]:
    """12. The factions that have killed at least half of the Scions of Death in the game."""
    if total == 0:
        return []
    return sorted(f for f, n in killed.items() if n * 2 >= total)


# --- the night ---------------------------------------------------------------------------------


@dataclass
class NightOutcome:
    deaths: list[tuple[str, str]] = field(default_factory=list)  # (slot, cause)
    role_changes: list[tuple[str, str, str]] = field(default_factory=list)  # slot, role, cause
    slayers: list[str] = field(default_factory=list)
    results: dict[str, list[str]] = field(default_factory=dict)  # slot -> PM lines
    notes: list[str] = field(default_factory=list)
    day_role_changes: list[tuple[str, str, int]] = field(default_factory=list)  # on the day

    def tell(self, slot: str, text: str) -> None:
        self.results.setdefault(slot, []).append(text)

    def events(self, night: int) -> list[Event]:
        """The ledger events the host confirms: deaths, role changes, the Slayer, results."""
        n = Phase(night, PhaseKind.NIGHT)
        out: list[Event] = [
            Death(EventKind.DEATH, 0, slot=s, phase=n, cause=c) for s, c in self.deaths
        ]
        out += [
            CharacterChange(
                EventKind.CHARACTER_CHANGE,
                0,
                slot=s,
                phase=Phase(d, PhaseKind.DAY),
                character=r,
                cause="ascension",
            )
            for s, r, d in self.day_role_changes
        ]
        out += [
            CharacterChange(EventKind.CHARACTER_CHANGE, 0, slot=s, phase=n, character=r, cause=c)
            for s, r, c in self.role_changes
        ]
        out += [
            ReminderEvent(EventKind.REMINDER, 0, slot=s, phase=n, reminder="slayer", until="game")
            for s in self.slayers
        ]
        out += [
            NightResult(EventKind.NIGHT_RESULT, 0, slot=s, phase=n, text=text, plain=True)
            for s, lines in self.results.items()
            for text in lines
        ]
        return out


def resolve(village: Village, plans: list[Plan], rng: random.Random) -> NightOutcome:
    """A night of the Vampires game, in the documented order."""
    out = NightOutcome()
    name = village.names.get
    role = village.roles.get
    cancelled = cancelled_by_distraction(plans)
    for p in plans:
        if p.ability == "distraction" and p.targets:
            out.tell(
                p.actor, f"You distracted {name(p.targets[0])}: their night plan is cancelled."
            )
    live = [p for p in plans if p.actor not in cancelled or p.ability == "distraction"]
    if cancelled:
        out.notes.append(
            "reading: a distracted player learns nothing and is not told their plan was "
            "cancelled; a distracted Vampire's Drain is cancelled"
        )
    protected, paranoid = paladin_effects(live, village.roles)
    for p in live:
        if p.ability == "protection" and p.targets:
            out.tell(p.actor, f"You protected {name(p.targets[0])}.")
    dead: dict[str, str] = {}
    drained_by: dict[str, str] = {}
    for p in live:
        if p.ability != "drain" or not p.targets or p.targets[0] not in village.alive:
            continue
        t = p.targets[0]
        if t in dead:
            continue
        result = drain_result(role(t), t in village.slayers, protected.get(t, 0))
        if result == "protected":
            protected[t] -= 1
        elif result == "dies":
            dead[t] = "drained"
            drained_by[t] = p.actor
    for p in live:
        if p.ability != "treatment" or not p.targets:
            continue
        t = p.targets[0]
        out.tell(p.actor, f"You treated {name(t)}.")
        result = apothecary_result(role(t), drained_by.get(t))
        if result == "apothecary dies" and p.actor not in dead:
            if protected.get(p.actor, 0) > 0:
                protected[p.actor] -= 1
                out.notes.append(
                    f"reading: the Paladin's protection saved {name(p.actor)} from dying "
                    "as if drained (the seed says 'as if killed by the Drain ability')"
                )
            else:
                dead[p.actor] = "drained"
        elif result == "poisons the vampire":
            dead.setdefault(drained_by[t], "poisoned")
    for p in live:
        if p.ability == "observation" and p.targets:
            t = p.targets[0]
            # a cancelled plan has no targets to see (live holds only plans that stand)
            seen = list(dict.fromkeys(name(x) for q in live if q.actor == t for x in q.targets))
            out.tell(
                p.actor,
                f"You followed {name(t)}: they targeted {', '.join(seen)}."
                if seen
                else f"You followed {name(t)}: they did not target anyone.",
            )
    for p in live:
        if p.ability == "investigation" and p.targets:
            t = p.targets[0]
            out.tell(
                p.actor,
                f"Your investigation of {name(t)}: {priest_result(role(t), p.actor in paranoid)}.",
            )
    for p in live:
        if p.ability == "search" and p.targets:
            t = p.targets[0]
            said, found = watcher_result(role(t), p.actor in paranoid)
            out.tell(p.actor, f"Your search of {name(t)}: {said}.")
            if p.actor in paranoid and role(t) == "chosen-one":
                out.notes.append(
                    f"reading: the paranoid Watcher ({name(p.actor)}) searched The Chosen One "
                    f"({name(t)}), who is not contacted and does not become the Slayer"
                )
            if found and t not in village.slayers:
                out.slayers.append(t)
                out.tell(
                    t,
                    f"The Watcher, {name(p.actor)}, has contacted you: you have always been "
                    "The Chosen One, and you are now also The Slayer, with a secret meeting "
                    "with the Watcher.",
                )
    for p in live:
        if p.ability == "slay" and p.targets and p.actor in village.slayers:
            t = p.targets[0]
            if t in village.alive and t not in dead:
                dead[t] = "slain"
    _ascend(village, dead, out, rng)
    _convert(village, dead, out, rng)
    out.deaths = list(dead.items())
    silenced = [s for s in dead if s in out.results]
    for slot in silenced:  # reading: a player killed in the night learns nothing from it
        del out.results[slot]
    if silenced:
        out.notes.append(
            "reading: players killed tonight get no results ("
            + ", ".join(name(s) for s in silenced)
            + ")"
        )
    return out


def _ascend(village: Village, dead: dict[str, str], out: NightOutcome, rng: random.Random) -> None:
    """9. "Whenever a Priest, Paladin, Guard, or The Watcher dies, one random Faithful
    Villager will ... take on the role of that dead player" (reading: only players whose role
    is the Faithful Villager, not The Chosen One or the Shaman who think they are one)."""
    pool = sorted(s for s in village.living("faithful-villager") if s not in dead)
    for slot in sorted(dead):
        r = village.roles[slot]
        if r in ASCENDING and pool:
            heir = rng.choice(pool)
            pool.remove(heir)
            role = vampire_setup().by_id(r)
            out.role_changes.append((heir, r, "ascension"))
            out.tell(
                heir,
                f"Ascension: you are no longer a Faithful Villager; you are now {_the(role.name)}.",
            )


def _convert(village: Village, dead: dict[str, str], out: NightOutcome, rng: random.Random) -> None:
    """10. "Once per game, when a Scion of Death is killed by Vampires, one random Faithful
    Villager will ... take on the Scion of Death role, and join the Death Cult faction"."""
    if village.converted:
        return
    scions_drained = [s for s, c in dead.items() if c == "drained" and village.roles[s] == "scion"]
    if not scions_drained:
        return
    taken = {s for s, _, _ in out.role_changes}
    pool = sorted(
        s for s in village.living("faithful-villager") if s not in dead and s not in taken
    )
    if not pool:
        out.notes.append(
            "a Scion was killed by the Vampires, but no Faithful Villager is left to convert"
        )
        return
    convert = rng.choice(pool)
    out.role_changes.append((convert, "scion", "conversion"))
    out.tell(
        convert,
        "Conversion: you have left the Village; you are now a Scion of Death, of the Death Cult.",
    )


def _the(name: str) -> str:
    return name if name.startswith("The ") else f"the {name}"


def day_ascensions(
    game: Game, day: int, village: Village, rng: random.Random
) -> list[tuple[str, str]]:
    """Ascension for the Priests, Paladins, Guards and Watchers who died on Day `day` (a
    lynch is a death too), unless the ledger already holds it: (heir, role) pairs."""
    phase = Phase(day, PhaseKind.DAY)
    done = any(
        e.phase == phase and e.cause == "ascension"
        for e in game.events_of(EventKind.CHARACTER_CHANGE)
    )
    if done or day < 1:
        return []
    dead = {e.slot: "lynched" for e in game.deaths() if e.phase == phase}
    before = village_at(game, phase)
    out = NightOutcome()
    _ascend(before, dead, out, rng)
    return [(heir, role) for heir, role, _ in out.role_changes]


def resolve_vampire_night(game: Game, night: int) -> tuple[NightOutcome, list[Plan]]:
    """The night's plans, resolved, with the notes on favor and deception for the host. The
    day before it is settled first: ascension for a lynched Priest, Paladin, Guard or Watcher
    (written with the day's phase, so the heir acts as that role tonight)."""
    require_reached(game, Phase(night, PhaseKind.NIGHT), preview=True)
    refuse_when_won(game, Phase(night, PhaseKind.NIGHT))
    seed = next(
        (e.seed for e in reversed(game.events_of(EventKind.SETUP)) if e.seed is not None), 0
    )
    village = village_at(game, Phase(night, PhaseKind.NIGHT))
    heirs = day_ascensions(game, night, village, random.Random(f"{seed}:D{night}"))
    for heir, role in heirs:
        village.roles[heir] = role
    plans = plans_of(game, night, village)
    outcome = resolve(village, plans, random.Random(f"{seed}:{night}"))
    outcome.day_role_changes = [(h, r, night) for h, r in heirs]
    for heir, role in heirs:  # told first: it happened at the end of the day
        now = _the(vampire_setup().by_id(role).name)
        told = f"Ascension: you are no longer a Faithful Villager; you are now {now}."
        outcome.results.setdefault(heir, []).insert(0, told)
    killed = dict(village.scions_killed)
    for slot, cause in outcome.deaths:
        if village.roles[slot] == "scion":
            faction = CAUSES[cause][0]
            killed[faction] = killed.get(faction, 0) + 1
    for faction in favor_factions(killed, village.scions_total):
        if faction not in favor_factions(village.scions_killed, village.scions_total):
            outcome.notes.append(
                f"{faction} have now killed at least half of the Scions of Death: they gain Dark "
                "God's Favor (the seed defines no such ability for them; nobody is told)"
            )
    return outcome, plans


# --- reveals and wins --------------------------------------------------------------------------


def revealed_role(game: Game, slot: str, role: str) -> str:
    """What a death reveals: The Chosen One and the Shaman as themselves ("everyone will learn
    that you were ..."), a Scion as the role chosen by Ultimate Deception, else the role."""
    if role == "scion":
        chosen = [
            e.character
            for e in game.events_of(EventKind.NIGHT_CHOICE)
            if e.slot == slot and e.ability == "deception" and e.character
        ]
        if chosen:
            return vampire_setup().by_id(chosen[-1]).name
    return vampire_setup().by_id(role).name


@dataclass(frozen=True)
class FactionWins:
    winners: tuple[str, ...]  # factions (and roles) that win now
    game_over: bool
    reasons: tuple[str, ...]


def vampire_wins(
    roles: dict[str, str],
    alive: set[str],
    chosen_one_dead: bool = False,
    scions_killed_by_village: int = 0,
    scions_alive: int = 0,
) -> FactionWins:
    """The win checks after a phase (the Vampires game): the Chosen One and a single Vampire as the
    last survivors (the village and the Treacherous Villager win, the Vampires lose); the Vampires
    at least half of the village; no Vampire left (the Treacherous Villager wins; the village
    too, a reading); the Slayer's extra win, which does not end the game."""
    setup = vampire_setup()
    living = [s for s in alive]
    factions = [setup.by_id(roles[s]).faction for s in living]
    vampires = factions.count("vampires")
    winners, reasons = [], []
    over = False
    if len(living) == 2 and vampires == 1 and any(roles[s] == "chosen-one" for s in living):
        winners += ["village", "treacherous-villager"]
        reasons.append("the last survivors are The Chosen One and a single Vampire")
        over = True
    elif vampires == 0:
        winners += ["village", "treacherous-villager"]
        reasons.append("every Vampire is dead; the village's win is a reading")
        over = True
    elif vampires * 2 >= len(living):
        winners.append("vampires")
        reasons.append(f"the Vampires are {vampires} of {len(living)} alive: at least half")
        over = True
    if chosen_one_dead and scions_killed_by_village > scions_alive:
        winners.append("slayer")
        reasons.append("The Chosen One is dead and the village has killed more Scions than live")
    return FactionWins(tuple(winners), over, tuple(reasons))


def night_events(game: Game, outcome: NightOutcome, night: int) -> list[Event]:
    """The outcome's ledger events that the ledger does not hold yet (confirming twice adds
    nothing)."""
    return [e for e in outcome.events(night) if not already_recorded(game, e)]


def wins_after_night(game: Game, night: int, outcome: NightOutcome) -> FactionWins:
    village = village_at(game, Phase(night, PhaseKind.NIGHT))
    alive = village.alive - {s for s, _ in outcome.deaths}
    roles = dict(village.roles)
    roles.update({s: r for s, r, _ in outcome.role_changes})
    return _wins(game, village, roles, alive, dict(outcome.deaths))


def wins_at(game: Game, phase: Phase) -> FactionWins:
    """The win checks at the start of a phase (after the deaths before it)."""
    village = village_at(game, phase)
    return _wins(game, village, village.roles, village.alive)


def confirm_vampire_night(game: Game, night: int) -> list:
    """Write the night's outcome, made again under the ledger's lock (see `night.confirm_night`)."""
    require_reached(game, Phase(night, PhaseKind.NIGHT))
    return append_computed(
        game, lambda now: night_events(now, resolve_vampire_night(now, night)[0], night)
    )


def scion_wins(scion_cause: str | None, chosen_one_cause: str | None) -> bool:
    """A Scion of Death wins (the game goes on): "you need the village to lynch The Chosen
    One… AND yourself!", or "if the Slayer kills you at night"."""

    if scion_cause == "slain":
        return True
    return scion_cause in EXECUTED_CAUSES and chosen_one_cause in EXECUTED_CAUSES


def _wins(
    game: Game,
    village: Village,
    roles: dict[str, str],
    alive: set[str],
    more_deaths: dict[str, str] | None = None,
) -> FactionWins:
    chosen_dead = any(r == "chosen-one" and s not in alive for s, r in roles.items())
    scions_alive = sum(1 for s in alive if roles[s] == "scion")
    found = vampire_wins(
        roles, alive, chosen_dead, village.scions_killed.get("village", 0), scions_alive
    )
    causes = {e.slot: (e.cause or "").casefold() for e in game.deaths()}
    causes.update(more_deaths or {})
    chosen = next((causes.get(s) for s, r in roles.items() if r == "chosen-one"), None)
    scions = [
        village.names[s]
        for s, r in sorted(roles.items())
        if r == "scion" and scion_wins(causes.get(s), chosen)
    ]
    if not scions:
        return found
    return FactionWins(
        found.winners + tuple(f"scion ({n})" for n in scions),
        found.game_over,
        found.reasons + ("a Scion's own win, which does not end the game",),
    )


def day_win_check(game: Game, day: int, alive: set[str], executed: str | None):
    """The count's win check at the end of a Vampires day (`wins.WinCheck`)."""

    village = village_at(game, Phase(day, PhaseKind.DAY))
    living = set(alive) - ({executed} if executed else set())
    found = _wins(game, village, village.roles, living, {executed: "lynched"} if executed else {})
    if not found.winners:
        return WinCheck(None)
    if not found.game_over:
        return WinCheck(None, found.reasons)
    reason = found.reasons[0]
    return WinCheck(Win(", ".join(found.winners), win_rule(found), reason), found.reasons[1:])


def win_rule(found: FactionWins) -> VampireWin:
    """Which of the Vampires game's ways to win ended the game (its first reason says)."""
    if "Chosen One" in found.reasons[0]:
        return VampireWin.CHOSEN_ONE_LAST
    return VampireWin.VAMPIRES_HALF if "vampires" in found.winners else VampireWin.NO_VAMPIRES
