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
from functools import partial

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
from ...threads.frozen import frozen
from .readings import Taken, taken
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
    rules: object = None  # the game's Rules: its [rules] readings

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
    return Village(roles, alive, slayers, converted, names, killed, scions_total, game.rules)


# --- a night's plans ---------------------------------------------------------------------------


@frozen
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
    NOTHING_CAN_STOP = "nothing can stop the Vampires from reaching half of the village"


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


def same_vampire_plan(earlier: Event, later: Event) -> bool:
    """Every night ability is "Once per night": a later plan of the same player for the same
    night replaces the earlier (a host's correction). A Scion's Ultimate Deception ("At any
    time") is no night plan: it replaces only an earlier deception."""
    return (
        earlier.slot == later.slot
        and earlier.phase == later.phase
        and (earlier.ability == "deception") == (later.ability == "deception")
    )


def plans_of(game: Game, night: int, village: Village) -> list[Plan]:
    """The night's submitted plans (night_choice events) of living players, by their role's
    night ability (a Slayer's choice is a slay; a Scion's `deception` is not a plan), each
    player's latest only (`same_vampire_plan`), in the order recorded."""
    phase = Phase(night, PhaseKind.NIGHT)
    chosen = [e for e in game.events_of(EventKind.NIGHT_CHOICE) if e.phase == phase]
    latest = [
        e for i, e in enumerate(chosen) if not any(same_vampire_plan(e, f) for f in chosen[i + 1 :])
    ]
    plans = []
    for e in latest:
        if e.slot not in village.alive or e.ability == "deception":
            continue
        role = village.roles[e.slot]
        ability = e.ability or ("slay" if e.slot in village.slayers else ABILITY_OF.get(role))
        if ability is None:
            continue
        plans.append(Plan(e.slot, ability, tuple(e.targets)))
    return plans


def must_sentence(role: str) -> str | None:
    """The sentence of a role's ability that says its player must use it each night ("Once per
    night, you must protect one target player."), or None: a "may" is the player's choice."""
    for ability in vampire_setup().by_id(role).abilities:
        first = ability.text.split(". ")[0].rstrip(".") + "."
        if "you must" in first:
            return first
    return None


def unchosen_musts(village: Village, plans: list[Plan]) -> list[tuple[str, str]]:
    """The living players whose role must act each night and who have no plan with a target
    tonight: (player, the role's sentence), in seat order of the village."""
    chose = {p.actor for p in plans if p.targets}
    return [
        (s, said)
        for s in village.roles
        if s in village.alive and s not in chose and (said := must_sentence(village.roles[s]))
    ]


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


def watcher_contact(watcher: str, again: bool) -> str:
    """7. What a found Chosen One is told: "If your target is The Chosen One, they will learn
    that you contacted them, and they will become The Slayer in addition to their current
    role"; one who is already the Slayer learns of the contact again."""
    if again:
        return (
            f"The Watcher, {watcher}, has contacted you again: you are The Chosen One and "
            "already The Slayer, with a secret meeting with the Watcher."
        )
    return (
        f"The Watcher, {watcher}, has contacted you: you have always been The Chosen One, and "
        "you are now also The Slayer, with a secret meeting with the Watcher."
    )


def favor_factions(killed: dict[str, int], total: int) -> list[str]:
    """12. The factions that have killed at least half of the Scions of Death in the game."""
    if total == 0:
        return []
    return sorted(f for f, n in killed.items() if n * 2 >= total)


# --- the night ---------------------------------------------------------------------------------


@frozen
class Answer:
    """An information step: what the player is told of the target, the true value, and why
    they differ (paranoia)."""

    player: str
    ability: str  # investigation, search, observation
    target: str
    said: str | tuple[str, ...]  # a verdict, or the players the target targeted
    true: str | tuple[str, ...]
    because: str | None = None


@frozen
class Effect:
    """A plan's effect on another: a cancellation, a protection, paranoia, a Drain's result,
    a treatment, the Watcher's link to the Slayer."""

    kind: str  # cancelled, protected, paranoid, drain, treatment, link
    by: str
    target: str
    result: str = ""  # drain: dies, protected, resisted; treatment: its outcome


Record = Answer | Effect  # what a night did, each told (or not) by its own PM line


@dataclass
class NightOutcome:
    """What a night did, as data; the PM lines (`results`) are made from it (`night_pms`)."""

    deaths: list[tuple[str, str]] = field(default_factory=list)  # (slot, cause)
    role_changes: list[tuple[str, str, str]] = field(default_factory=list)  # slot, role, cause
    slayers: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # what the host should see to (no refusal)
    day_role_changes: list[tuple[str, str, int]] = field(default_factory=list)  # on the day
    records: list[Record] = field(default_factory=list)  # answers and effects, in night order
    killers: dict[str, tuple[str, str]] = field(default_factory=dict)  # slot -> (by, rule)
    readings: list[Taken] = field(default_factory=list)  # the readings the night rests on
    names: dict[str, str] = field(default_factory=dict)  # slot -> the name holding it

    @property
    def answers(self) -> list[Answer]:
        return [r for r in self.records if isinstance(r, Answer)]

    @property
    def effects(self) -> list[Effect]:
        return [r for r in self.records if isinstance(r, Effect)]

    @property
    def results(self) -> dict[str, list[str]]:
        """slot -> the PM lines of the night, made from the records (`night_pms`)."""
        return night_pms(self)

    def unsent(self) -> set[str]:
        """The players whose PM lines are not sent: killed tonight, with the reading
        killed-tonight = no-results."""
        if Taken("killed-tonight", "no-results") not in self.readings:
            return set()
        return {s for s, _ in self.deaths}

    def rests_on(self, reading: Taken, detail: str = "") -> None:
        """The night's answer rests on `reading`: the notes and the JSON name it."""
        if reading not in self.readings:
            self.readings.append(reading)
        self.notes.append(reading.note + (f" ({detail})" if detail else ""))

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


# The rule each death of a night follows (the JSON names it), by cause.
DEATH_RULES = {
    "drained": "the Vampires' Drain",
    "poisoned": "the Apothecary's Treatment: the Vampire who killed the treated player dies",
    "slain": "the Slayer's Slay",
    "apothecary": "the Apothecary's Treatment of a Vampire: 'you will die as if killed by the "
    "Drain ability'",
}


def answer_text(a: Answer, name) -> str:
    """The result PM line of an information step, from its data (`name`: slot -> name)."""
    if a.ability == "observation":
        if not a.said:
            return f"You followed {name(a.target)}: they did not target anyone."
        return f"You followed {name(a.target)}: they targeted {', '.join(map(name, a.said))}."
    what = "investigation" if a.ability == "investigation" else "search"
    return f"Your {what} of {name(a.target)}: {a.said}."


CANCELLED_PM = "Your night plan was cancelled."  # the reading distracted = told


def effect_pm(e: Effect, name) -> tuple[str, str] | None:
    """Whom an effect tells, and its PM line (`name`: slot -> name), or None: paranoia and a
    Drain's result tell nobody (a paranoid Priest or Watcher only hears the paranoid answer)."""
    if e.kind == "cancelled":
        return e.by, f"You distracted {name(e.target)}: their night plan is cancelled."
    if e.kind == "protected":
        return e.by, f"You protected {name(e.target)}."
    if e.kind == "treatment":
        return e.by, f"You treated {name(e.target)}."
    if e.kind == "link":
        return e.target, watcher_contact(name(e.by), e.result == "again")
    return None


def record_pm(r: Record, name) -> tuple[str, str] | None:
    """Whom a night's record tells, and its PM line, or None."""
    if isinstance(r, Answer):
        return r.player, answer_text(r, name)
    return effect_pm(r, name)


def role_change_pm(role: str, cause: str) -> str:
    """The PM line of a Faithful Villager who took a role: by ascension, the dead player's
    role; by conversion, a Scion of Death of the Death Cult."""
    if cause == "conversion":
        return (
            "Conversion: you have left the Village; you are now a Scion of Death, of the Death "
            "Cult."
        )
    now = _the(vampire_setup().by_id(role).name)
    return f"Ascension: you are no longer a Faithful Villager; you are now {now}."


def _is_cancellation(r: Record) -> bool:
    return isinstance(r, Effect) and r.kind == "cancelled"


def night_pms(out: NightOutcome) -> dict[str, list[str]]:
    """The night's PM lines (slot -> lines), made only from its records, role changes and
    readings, in the order the night resolved them: the distractions (with the reading
    distracted = told, then each distracted player once), every other record that tells
    somebody, the night's role changes; a day's ascension is its heir's first line. Nobody
    in `out.unsent()` is told anything."""
    name = out.names.get
    cancelled = [r for r in out.records if _is_cancellation(r)]
    told = [record_pm(r, name) for r in cancelled]
    if Taken("distracted", "told") in out.readings:
        told += [(t, CANCELLED_PM) for t in sorted({e.target for e in cancelled})]
    told += [record_pm(r, name) for r in out.records if not _is_cancellation(r)]
    told += [(s, role_change_pm(r, c)) for s, r, c in out.role_changes]
    pms: dict[str, list[str]] = {}
    for slot, line in filter(None, told):
        pms.setdefault(slot, []).append(line)
    for heir, role, _ in out.day_role_changes:  # told first: it happened at the end of the day
        pms.setdefault(heir, []).insert(0, role_change_pm(role, "ascension"))
    unsent = out.unsent()
    return {s: lines for s, lines in pms.items() if s not in unsent}


def one_drain_a_night(plans: list[Plan]) -> list[Plan]:
    """The other reading of how many Drains a night: the Vampires' first recorded Drain counts,
    the others do not."""
    first = next((p for p in plans if p.ability == "drain" and p.targets), None)
    return [p for p in plans if p.ability != "drain" or p is first]


def resolve(
    village: Village,
    plans: list[Plan],
    rng: random.Random,
    day_role_changes: list[tuple[str, str, int]] | None = None,
) -> NightOutcome:
    """A night of the Vampires game, in the documented order (`day_role_changes`: the
    ascensions at the end of the day before, told with the night's results)."""
    out = NightOutcome(names=dict(village.names), day_role_changes=list(day_role_changes or ()))
    name = village.names.get
    role = village.roles.get
    for slot, said in unchosen_musts(village, plans):
        role_name = _the(vampire_setup().by_id(role(slot)).name)
        out.warnings.append(f'{name(slot)} ({role_name}) has not chosen tonight: "{said}"')
    reading = partial(taken, village.rules)
    drains = reading("drains")
    if sum(1 for p in plans if p.ability == "drain" and p.targets) > 1:
        out.rests_on(drains)
        if drains.choice == "one-a-night":
            plans = one_drain_a_night(plans)
    cancelled = cancelled_by_distraction(plans)
    for p in plans:
        if p.ability == "distraction" and p.targets:
            out.records.append(Effect("cancelled", p.actor, p.targets[0]))
    live = [p for p in plans if p.actor not in cancelled or p.ability == "distraction"]
    if cancelled:
        distracted = reading("distracted")
        out.rests_on(distracted, "a distracted Vampire's Drain is cancelled")
    protected, paranoid = paladin_effects(live, village.roles)
    for p in live:
        if p.ability == "protection" and p.targets:
            out.records.append(Effect("protected", p.actor, p.targets[0]))
            if p.targets[0] in paranoid:
                out.records.append(Effect("paranoid", p.actor, p.targets[0]))
    dead: dict[str, str] = {}
    drained_by: dict[str, str] = {}
    for p in live:
        if p.ability != "drain" or not p.targets or p.targets[0] not in village.alive:
            continue
        t = p.targets[0]
        if t in dead:
            continue
        result = drain_result(role(t), t in village.slayers, protected.get(t, 0))
        out.records.append(Effect("drain", p.actor, t, result))
        if result == "protected":
            protected[t] -= 1
        elif result == "dies":
            dead[t] = "drained"
            drained_by[t] = p.actor
            out.killers[t] = (p.actor, DEATH_RULES["drained"])
    for p in live:
        if p.ability != "treatment" or not p.targets:
            continue
        t = p.targets[0]
        result = apothecary_result(role(t), drained_by.get(t))
        out.records.append(Effect("treatment", p.actor, t, result))
        if result == "apothecary dies" and p.actor not in dead:
            saving = reading("protected-apothecary")
            if protected.get(p.actor, 0) > 0:
                out.rests_on(saving, name(p.actor))
            if protected.get(p.actor, 0) > 0 and saving.choice == "saved":
                protected[p.actor] -= 1
            else:
                dead[p.actor] = "drained"
                out.killers[p.actor] = (p.actor, DEATH_RULES["apothecary"])
        elif result == "poisons the vampire":
            if drained_by[t] not in dead:
                dead[drained_by[t]] = "poisoned"
                out.killers[drained_by[t]] = (p.actor, DEATH_RULES["poisoned"])
    for p in live:
        if p.ability == "observation" and p.targets:
            t = p.targets[0]
            # a cancelled plan has no targets to see (live holds only plans that stand)
            seen = tuple(dict.fromkeys(x for q in live if q.actor == t for x in q.targets))
            out.records.append(Answer(p.actor, "observation", t, seen, seen))
    for p in live:
        if p.ability == "investigation" and p.targets:
            t = p.targets[0]
            said = priest_result(role(t), p.actor in paranoid)
            true = priest_result(role(t), False)
            why = "paranoid" if p.actor in paranoid else None
            out.records.append(Answer(p.actor, "investigation", t, said, true, why))
    for p in live:
        if p.ability == "search" and p.targets:
            t = p.targets[0]
            said, found = watcher_result(role(t), p.actor in paranoid)
            true = watcher_result(role(t), False)[0]
            why = "paranoid" if p.actor in paranoid else None
            out.records.append(Answer(p.actor, "search", t, said, true, why))
            if p.actor in paranoid and role(t) == "chosen-one":
                contact = reading("paranoid-watcher")
                out.rests_on(contact, f"{name(p.actor)} searched {name(t)}")
                found = contact.choice == "contact"
            if found:
                again = t in village.slayers or t in out.slayers
                if not again:
                    out.slayers.append(t)
                out.records.append(Effect("link", p.actor, t, "again" if again else "new"))
    for p in live:
        if p.ability == "slay" and p.targets and p.actor in village.slayers:
            t = p.targets[0]
            if t in village.alive and t not in dead:
                dead[t] = "slain"
                out.killers[t] = (p.actor, DEATH_RULES["slain"])
    _ascend(village, dead, out, rng)
    _convert(village, dead, out, rng)
    out.deaths = list(dead.items())
    silenced = [s for s in dead if s in out.results]  # unsent() is empty until this reading
    if silenced:
        out.rests_on(reading("killed-tonight"), ", ".join(name(s) for s in silenced))
    return out


def heir_pool(village: Village, out_of: set[str], also_hidden: bool, converting: bool) -> list[str]:
    """Who may ascend or be converted: "one random Faithful Villager"; with the other reading
    (`heirs = "also-hidden"`) The Chosen One and the Shaman, who "think [they are] an ordinary
    Villager", too, except that The Chosen One is never converted ("Conversion Resistance: If
    you would be recruited to another faction, instead you are not")."""
    roles = ["faithful-villager"]
    if also_hidden:
        roles += ["shaman"] if converting else ["chosen-one", "shaman"]
    return sorted(s for r in roles for s in village.living(r) if s not in out_of)


def _ascend(village: Village, dead: dict[str, str], out: NightOutcome, rng: random.Random) -> None:
    """9. "Whenever a Priest, Paladin, Guard, or The Watcher dies, one random Faithful
    Villager will ... take on the role of that dead player" (who may: `heir_pool`)."""
    heirs = taken(village.rules, "heirs")
    pool = heir_pool(village, set(dead), heirs.choice == "also-hidden", False)
    for slot in sorted(dead):
        r = village.roles[slot]
        if r in ASCENDING and pool:
            heir = rng.choice(pool)
            pool.remove(heir)
            out.role_changes.append((heir, r, "ascension"))
            out.rests_on(heirs, f"{village.names[heir]} ascends")


def _convert(village: Village, dead: dict[str, str], out: NightOutcome, rng: random.Random) -> None:
    """10. "Once per game, when a Scion of Death is killed by Vampires, one random Faithful
    Villager will ... take on the Scion of Death role, and join the Death Cult faction"."""
    if village.converted:
        return
    scions_drained = [s for s, c in dead.items() if c == "drained" and village.roles[s] == "scion"]
    if not scions_drained:
        return
    heirs = taken(village.rules, "heirs")
    ascended = {s for s, _, _ in out.role_changes}
    pool = heir_pool(village, set(dead) | ascended, heirs.choice == "also-hidden", True)
    if not pool:
        out.notes.append(
            "a Scion was killed by the Vampires, but no Faithful Villager is left to convert"
        )
        return
    convert = rng.choice(pool)
    out.role_changes.append((convert, "scion", "conversion"))
    out.rests_on(heirs, f"{village.names[convert]} is converted")


def _the(name: str) -> str:
    return name if name.startswith("The ") else f"the {name}"


def day_ascensions(
    game: Game, day: int, village: Village, rng: random.Random, executed: str | None = None
) -> list[tuple[str, str]]:
    """Ascension for the Priests, Paladins, Guards and Watchers who died on Day `day` (a
    lynch is a death too; `executed`: one the ledger does not hold yet), unless the ledger
    already holds it: (heir, role) pairs."""
    phase = Phase(day, PhaseKind.DAY)
    done = any(
        e.phase == phase and e.cause == "ascension"
        for e in game.events_of(EventKind.CHARACTER_CHANGE)
    )
    if done or day < 1:
        return []
    dead = {e.slot: "lynched" for e in game.deaths() if e.phase == phase}
    dead.update({executed: "lynched"} if executed else {})
    before = village_at(game, phase)
    out = NightOutcome()
    _ascend(before, dead, out, rng)
    return [(heir, role) for heir, role, _ in out.role_changes]


def setup_seed(game: Game) -> int:
    """The seed of the recorded setup draw (or 0): every random choice of the game draws on it."""
    return next(
        (e.seed for e in reversed(game.events_of(EventKind.SETUP)) if e.seed is not None), 0
    )


def eve_roles(game: Game, day: int, executed: str | None = None) -> dict[str, str]:
    """The roles Night `day` starts with: the day's ascensions made, as the night will make
    them (a lynched Paladin's heir protects tonight)."""
    village = village_at(game, Phase(day, PhaseKind.NIGHT))
    rng = random.Random(f"{setup_seed(game)}:D{day}")
    return village.roles | dict(day_ascensions(game, day, village, rng, executed))


def resolve_vampire_night(game: Game, night: int) -> tuple[NightOutcome, list[Plan]]:
    """The night's plans, resolved, with the notes on favor and deception for the host. The
    day before it is settled first: ascension for a lynched Priest, Paladin, Guard or Watcher
    (written with the day's phase, so the heir acts as that role tonight)."""
    require_reached(game, Phase(night, PhaseKind.NIGHT), preview=True)
    refuse_when_won(game, Phase(night, PhaseKind.NIGHT))
    seed = setup_seed(game)
    village = village_at(game, Phase(night, PhaseKind.NIGHT))
    heirs = day_ascensions(game, night, village, random.Random(f"{seed}:D{night}"))
    for heir, role in heirs:
        village.roles[heir] = role
    plans = plans_of(game, night, village)
    day_changes = [(h, r, night) for h, r in heirs]
    outcome = resolve(village, plans, random.Random(f"{seed}:{night}"), day_changes)
    for heir, _ in heirs:
        outcome.rests_on(
            taken(game.rules, "heirs"), f"{village.names[heir]} ascends on Day {night}"
        )
    killed = dict(village.scions_killed)
    for slot, cause in outcome.deaths:
        if village.roles[slot] == "scion":
            faction = CAUSES[cause][0]
            killed[faction] = killed.get(faction, 0) + 1
    for faction in favor_factions(killed, village.scions_total):
        if faction not in favor_factions(village.scions_killed, village.scions_total):
            outcome.notes.append(
                f"{faction} have now killed at least half of the Scions of Death: they gain Dark "
                "God's Favor (the game defines no such ability for them; nobody is told)"
            )
    return outcome, plans


# --- reveals and wins --------------------------------------------------------------------------


def deceived_role(game: Game, slot: str) -> str | None:
    """The role a Scion chose by Ultimate Deception (the last chosen), or None: "At any time,
    you may choose any role in the game. If you die, then your role will be revealed as the
    chosen role instead of the truth." """
    if game.role_at(slot) != "scion":
        return None
    chosen = [
        e.character
        for e in game.events_of(EventKind.NIGHT_CHOICE)
        if e.slot == slot and e.ability == "deception" and e.character
    ]
    return chosen[-1] if chosen else None


def revealed_role(game: Game, slot: str, role: str) -> str:
    """What a death reveals: The Chosen One and the Shaman as themselves ("everyone will learn
    that you were ..."), a Scion as the role chosen by Ultimate Deception, else the role."""
    if role == "scion":
        chosen = deceived_role(game, slot)
        if chosen:
            return vampire_setup().by_id(chosen).name
    return vampire_setup().by_id(role).name


@frozen(slots=False)
class FactionWins:
    winners: tuple[str, ...]  # factions (and roles) that win now
    game_over: bool
    reasons: tuple[str, ...]
    readings: tuple[Taken, ...] = ()  # the readings the wins rest on


def vampire_wins(
    roles: dict[str, str],
    alive: set[str],
    chosen_one_dead: bool = False,
    scions_killed_by_village: int = 0,
    scions_alive: int = 0,
    slayers: frozenset[str] = frozenset(),
    before_night: bool = False,
    drains: Taken | None = None,
    village_win: Taken | None = None,
    eve: dict[str, str] | None = None,
) -> FactionWins:
    """The win checks after a phase (the Vampires game): the Chosen One and a single Vampire as
    the last survivors (the village and the Treacherous Villager win, the Vampires lose); the
    Vampires at least half of the village, "or if nothing can stop this from happening"
    (`vampires_unstoppable`, before a night); no Vampire left (the Treacherous Villager wins;
    the village too, a reading); the Slayer's extra win, which does not end the game and needs
    somebody to have become the Slayer. `eve`: the roles the night starts with (the day's
    ascensions made), for the foresight; None: `roles`."""
    setup = vampire_setup()
    living = [s for s in alive]
    factions = [setup.by_id(roles[s]).faction for s in living]
    vampires = factions.count("vampires")
    winners, reasons, readings = [], [], []
    over = False
    if chosen_one_and_one_vampire_last(roles, living):
        winners += ["village", "treacherous-villager"]
        reasons.append("the last survivors are The Chosen One and a single Vampire")
        over = True
    elif vampires == 0:
        said = village_win or Taken("village-win", "no-vampires-left")
        readings.append(said)
        winners += (
            ["village", "treacherous-villager"]
            if said.choice == "no-vampires-left"
            else ["treacherous-villager"]
        )
        reasons.append(f"every Vampire is dead; {said.note}")
        over = True
    elif vampires * 2 >= len(living):
        winners.append("vampires")
        reasons.append(f"the Vampires are {vampires} of {len(living)} alive: at least half")
        over = True
    elif before_night and (
        why := vampires_unstoppable(eve or roles, alive, slayers, _drains_a_night(drains))
    ):
        winners.append("vampires")
        reasons.append(why + (f"; {drains.note}" if drains else ""))
        readings += [drains] if drains else []
        over = True
    if slayer_won(bool(slayers), chosen_one_dead, scions_killed_by_village, scions_alive):
        winners.append("slayer")
        reasons.append("The Chosen One is dead and the village has killed more Scions than live")
    return FactionWins(tuple(winners), over, tuple(reasons), tuple(readings))


def chosen_one_and_one_vampire_last(roles: dict[str, str], living) -> bool:
    """ "If the last survivors are The Chosen One and a single Vampire, you lose" (the Vampires;
    the Village and the Treacherous Villager win)."""
    last = sorted(roles[s] for s in living)
    return last == ["chosen-one", "vampire"]


def _drains_a_night(drains: Taken | None) -> int | None:
    return 1 if drains is not None and drains.choice == "one-a-night" else None


def slayer_won(made: bool, chosen_one_dead: bool, scions_killed: int, scions_alive: int) -> bool:
    """The Slayer's "You win when The Chosen One is eliminated and more Scions of Death have
    been killed by the village than the number of Scions of Death currently alive": a win of
    the Slayer, so only when somebody became the Slayer (the role is "none at start")."""
    return made and chosen_one_dead and scions_killed > scions_alive


STOPPERS = ("paladin", "apothecary", "treacherous-villager")  # protect, poison, distract


def vampires_unstoppable(
    roles: dict[str, str],
    alive: set[str],
    slayers: frozenset[str] = frozenset(),
    drains: int | None = None,
) -> str | None:
    """Before a night, "nothing can stop" the Vampires from reaching half of the village: no
    living non-Vampire can prevent a Drain or kill a Vampire at night (no Paladin to protect,
    Apothecary to poison, Treacherous Villager to distract, Slayer to slay), and the night's
    Drains on the non-Vampires who can die (not The Chosen One: "you cannot be killed by
    Vampires") leave the Vampires at least half, and not as the last two survivors with The
    Chosen One ("If the last survivors are The Chosen One and a single Vampire, you lose"): the
    Vampires choose how many to drain, up to one each. `drains`: how many a night (None: one
    per living Vampire, the reading taken). The reason, or None."""
    vampires = [s for s in alive if roles[s] == "vampire"]
    others = [s for s in alive if roles[s] != "vampire"]
    if not vampires or any(roles[s] in STOPPERS or s in slayers for s in others):
        return None
    can_die = sorted(s for s in others if roles[s] != "chosen-one")
    most = min(len(vampires) if drains is None else drains, len(can_die))
    kills = next((k for k in range(most, 0, -1) if _drains_win(roles, alive, can_die[:k])), 0)
    if kills == 0:
        return None
    left = len(others) - kills
    return (
        f"nothing can stop the Vampires: tonight's {kills} Drain(s) leave them {len(vampires)} "
        f"of {len(vampires) + left}, and no living player can protect, poison, distract or slay"
    )


def _drains_win(roles: dict[str, str], alive: set[str], drained: list[str]) -> bool:
    """Whether the Vampires win at dawn once `drained` die: at least half of the living, and
    not the Chosen One's last stand against a single Vampire."""
    living = alive - set(drained)
    vampires = sum(1 for s in living if roles[s] == "vampire")
    return vampires * 2 >= len(living) and not chosen_one_and_one_vampire_last(roles, living)


def night_events(game: Game, outcome: NightOutcome, night: int) -> list[Event]:
    """The outcome's ledger events that the ledger does not hold yet (confirming twice adds
    nothing)."""
    return [e for e in outcome.events(night) if not already_recorded(game, e)]


def wins_after_night(game: Game, night: int, outcome: NightOutcome) -> FactionWins:
    village = village_at(game, Phase(night, PhaseKind.NIGHT))
    alive = village.alive - {s for s, _ in outcome.deaths}
    roles = dict(village.roles)
    roles.update({s: r for s, r, _ in outcome.role_changes})
    slayers = frozenset(village.slayers | set(outcome.slayers))
    return _wins(game, village, roles, alive, dict(outcome.deaths), slayers)


def wins_at(game: Game, phase: Phase) -> FactionWins:
    """The win checks at the start of a phase (after the deaths before it)."""
    village = village_at(game, phase)
    slayers = frozenset(village.slayers)
    eve = eve_roles(game, phase.number) if phase.is_night else None
    return _wins(game, village, village.roles, village.alive, None, slayers, eve)


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
    slayers: frozenset[str] = frozenset(),
    eve: dict[str, str] | None = None,
) -> FactionWins:
    """The wins with the Scions' own; `eve`: the roles the coming night starts with, to
    foresee it by (None: no night to foresee)."""
    chosen_dead = any(r == "chosen-one" and s not in alive for s, r in roles.items())
    scions_alive = sum(1 for s in alive if roles[s] == "scion")
    found = vampire_wins(
        roles,
        alive,
        chosen_dead,
        village.scions_killed.get("village", 0),
        scions_alive,
        slayers,
        eve is not None,
        taken(game.rules, "drains"),
        taken(game.rules, "village-win"),
        eve,
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
        found.readings,
    )


def day_win_check(game: Game, day: int, alive: set[str], executed: str | None, ended: bool = False):
    """The count's win check at the end of a Vampires day (`wins.WinCheck`); a day that has
    ended is checked as the night's eve too ("nothing can stop this")."""

    village = village_at(game, Phase(day, PhaseKind.DAY))
    living = set(alive) - ({executed} if executed else set())
    deaths = {executed: "lynched"} if executed else {}
    eve = eve_roles(game, day, executed) if ended else None
    found = _wins(game, village, village.roles, living, deaths, frozenset(village.slayers), eve)
    if not found.winners:
        return WinCheck(None)
    if not found.game_over:
        return WinCheck(None, found.reasons)
    return WinCheck(faction_win(found), found.reasons[1:])


def faction_win(found: FactionWins) -> Win:
    """The game's win as every game names one (`core.results.Win`), with its readings."""
    readings = tuple((t.key, t.choice, t.text) for t in found.readings)
    named, plural = winners_named(found.winners)
    return Win(", ".join(found.winners), win_rule(found), found.reasons[0], readings, named, plural)


PLURAL_FACTIONS = frozenset({"vampires"})  # named for their members: "the Vampires win"


def winner_name(winner: str) -> str:
    """A winner as a post names it: a faction by its name ("the Vampires"), the Slayer, a
    Scion by the player ("Linden (a Scion of Death)")."""
    factions = vampire_setup().factions
    if winner in factions:
        return factions[winner]["name"]
    if winner == "slayer":
        return "the Slayer"
    if winner.startswith("scion (") and winner.endswith(")"):
        return f"{winner.removeprefix('scion (').removesuffix(')')} (a Scion of Death)"
    return winner


def winners_named(winners: tuple[str, ...]) -> tuple[str, bool]:
    """The winners as a post names them ("the Village and the Treacherous Villager"), and
    whether they are a plural subject ("win", not "wins")."""
    names = [winner_name(w) for w in winners]
    said = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return said, len(names) > 1 or winners[0] in PLURAL_FACTIONS


def winners_clause(winners: tuple[str, ...]) -> str:
    """The winners and the verb, agreeing: "the Vampires win", "the Slayer wins"."""
    said, plural = winners_named(winners)
    return f"{said} {'win' if plural else 'wins'}"


def win_rule(found: FactionWins) -> VampireWin:
    """Which of the Vampires game's ways to win ended the game (its first reason says)."""
    if "Chosen One" in found.reasons[0]:
        return VampireWin.CHOSEN_ONE_LAST
    if found.reasons[0].startswith("nothing can stop"):
        return VampireWin.NOTHING_CAN_STOP
    return VampireWin.VAMPIRES_HALF if "vampires" in found.winners else VampireWin.NO_VAMPIRES
