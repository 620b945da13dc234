"""The grimoire: what a Storyteller keeps for each seat at a point of a Clocktower game, built
from the setup and the ledger (no posts needed): character and alignment (and their changes),
alive or dead, the reminders in force (poisoned, drunk, protected, cursed, no ability, the
Lleech's host, the red herring), the Butler's master for the day.

Phases are ordered N0 < D1 < N1 < D2 < ...: Night N follows Day N (the forum Clocktower game's
numbering).
"""

from __future__ import annotations

from dataclasses import replace

from ...core.checks import require_reached
from ...core.count import ghost_votes_spent
from ...core.ledger import EventKind, Game, Phase, PhaseKind
from ...core.plan import GamePlan
from ...errors import ModToolError
from ...threads.frozen import frozen
from .events import masters as masters_of
from .scripts import script_of


@frozen
class Reminder:
    kind: str  # poisoned, drunk, protected, cursed, no_ability, lleech_host, red_herring, ...
    start: Phase
    end: Phase | None  # None: for the rest of the game
    by: str | None = None  # the character that placed it
    line: int | None = None  # its ledger line (None: from the setup)

    def active(self, phase: Phase) -> bool:
        return self.start <= phase and (self.end is None or phase <= self.end)


# A reminder lasts, from the phase it is given: "night" (that night), "night+day" (that night
# and the following day: the forum Clocktower game's poisoning), "day", or "game".
REMINDER_LIFETIMES = {
    "poisoned": "night+day",
    "drunk": "night+day",
    "protected": "night",
    "cursed": "night+day",
    "no_ability": "game",
    "lleech_host": "game",
    "claimed": "day",
}


def reminder_end(start: Phase, lifetime: str) -> Phase | None:
    """Where a reminder given at `start` ends, for its lifetime (REMINDER_LIFETIMES)."""
    if lifetime == "game":
        return None
    if lifetime == "night+day" and start.is_night:
        return Phase(start.number + 1, PhaseKind.DAY)
    if lifetime == "night+day":  # given in the day: that day and the night after it
        return Phase(start.number, PhaseKind.NIGHT)
    return start  # "night", "day": that phase only


def reminder_of(e) -> Reminder:
    """The reminder a ledger reminder event places: until its `until`, else its lifetime's end."""
    lifetime = REMINDER_LIFETIMES.get(e.reminder, "night+day")
    end = (
        None
        if e.until == "game"
        else Phase.parse(e.until)
        if e.until
        else reminder_end(e.phase, lifetime)
    )
    return Reminder(e.reminder, e.phase, end, e.by, e.line)


@frozen
class SeatState:
    slot: str
    player: str  # the name holding the seat now
    seat: int | None
    character: str | None  # the character id (the Drunk is "drunk")
    shown: str | None  # what the player was told (the Drunk's Townsfolk)
    team: str | None  # townsfolk, outsider, minion, demon, ...
    alignment: str | None  # good or evil
    alive: bool
    died: Phase | None
    reminders: tuple[Reminder, ...]
    master: str | None  # the Butler's master for the day

    def has(self, kind: str) -> bool:
        return any(r.kind == kind for r in self.reminders)

    @property
    def drunk_or_poisoned(self) -> bool:
        """The ability does not work: the Drunk always; a poisoned or drunk reminder."""
        return self.character == "drunk" or self.has("poisoned") or self.has("drunk")


@frozen(slots=False)
class Grimoire:
    phase: Phase
    seats: tuple[SeatState, ...]
    bluffs: tuple[str, ...]

    def seat(self, slot: str) -> SeatState:
        return next(s for s in self.seats if s.slot == slot)

    def holding(self, character: str) -> list[SeatState]:
        return [s for s in self.seats if s.character == character]

    @property
    def alive(self) -> list[SeatState]:
        return [s for s in self.seats if s.alive]


def post_days(game: Game, posts) -> dict[int, int]:
    """For each ledger event placed at a post: its line -> the day that holds the post."""
    return post_days_in(game, GamePlan.build(game, posts))


def grimoire_for(plan: GamePlan, day: int) -> Grimoire:
    """The grimoire at the start of `day`, made once per prepared game (kept in its cache)."""
    if ("grimoire", day) not in plan.cache:
        if "post days" not in plan.cache:
            plan.cache["post days"] = post_days_in(plan.game, plan)
        phase = Phase(day, PhaseKind.DAY)
        plan.cache[("grimoire", day)] = grimoire_at(plan.game, phase, plan.cache["post days"])
    return plan.cache[("grimoire", day)]


def post_days_in(game: Game, plan) -> dict[int, int]:
    out = {}
    for e in game.events:
        if e.at.post is None:
            continue
        index = plan.timeline.after(e.at) - 1
        for day, (start, end) in plan.bounds.items():
            if start <= index < end:
                out[e.line] = day
    return out


def grimoire_at(game: Game, phase: Phase, at_day: dict[int, int] | None = None) -> Grimoire:
    """The grimoire at the start of `phase`. Events placed at a post (a death or a character
    change during a day) count from the day `at_day` gives them (ledger line -> day, from
    `post_days`); without it, from the phase the ledger's days place the post in (so a death
    end-day recorded at the Slayer's post counts without the thread)."""
    script = script_of(game)
    chars = script.characters if script is not None else {}
    at_day = at_day or {}

    def when(e) -> Phase | None:
        if e.phase is not None:
            return e.phase
        day = at_day.get(e.line)
        return Phase(day, PhaseKind.DAY) if day is not None else game.phase_at(e.at)

    character = {s.key: s.role for s in game.slots}
    alignment = {
        s.key: s.team or (chars[s.role].alignment if s.role in chars else None) for s in game.slots
    }
    died: dict[str, Phase] = {}
    for e in game.deaths():
        at = when(e)
        if at is not None:
            died.setdefault(e.slot, at)
    for e in game.events_of(EventKind.CHARACTER_CHANGE):
        at = when(e)
        if at is not None and at < phase:
            if e.character:
                character[e.slot] = e.character
                if e.alignment is None and e.character in chars:
                    alignment[e.slot] = chars[e.character].alignment
            if e.alignment:
                alignment[e.slot] = e.alignment
    for lleech, died_at in lleech_deaths(game, character, died).items():
        died.setdefault(lleech, died_at)
    reminders: dict[str, list[Reminder]] = {s.key: [] for s in game.slots}
    herring = game.setup.get("red_herring")
    herring = game.find_slot(herring) if herring else None
    if herring:
        reminders[herring].append(Reminder("red_herring", Phase(0, PhaseKind.NIGHT), None))
    for e in game.events_of(EventKind.REMINDER):
        reminders[e.slot].append(reminder_of(e))
    masters = {
        e.slot: e.master for e in masters_of(game) if not phase.is_night and e.day == phase.number
    }
    seats = []
    for s in sorted(game.slots, key=lambda s: (s.seat is None, s.seat or 0)):
        c = character[s.key]
        dead_at = died.get(s.key)
        alive = dead_at is None or phase <= dead_at  # dead from the phase after
        seats.append(
            SeatState(
                slot=s.key,
                player=game.slot_names(s.key)[-1],
                seat=s.seat,
                character=c,
                shown=s.shown,
                team=chars[c].team if c in chars else None,
                alignment=alignment[s.key],
                alive=alive,
                died=dead_at,
                reminders=tuple(r for r in reminders[s.key] if r.active(phase)),
                master=masters.get(s.key),
            )
        )
    ever = {s.role for s in game.slots} | {
        e.character for e in game.events_of(EventKind.CHARACTER_CHANGE) if e.character
    }
    poisoned = grimoire_poisons(seats, ever)
    seats = [
        replace(s, reminders=(*s.reminders, Reminder("poisoned", phase, phase, poisoned[s.slot])))
        if s.slot in poisoned and not s.has("poisoned")
        else s
        for s in seats
    ]
    guards = tea_lady_guards(seats, {s.slot for s in seats if s.alive})
    seats = [
        replace(s, reminders=(*s.reminders, Reminder("cannot_die", phase, phase, "tealady")))
        if s.slot in guards
        else s
        for s in seats
    ]
    return Grimoire(phase, tuple(seats), tuple(game.setup.get("bluffs", ())))


def lleech_deaths(game: Game, character: dict[str, str], died: dict[str, Phase]) -> dict:
    """The almanac: "If the player that the Lleech chose dies, the Lleech dies as well": each
    living Lleech whose host died, with the phase the host died in."""
    hosts = [e.slot for e in game.events_of(EventKind.REMINDER) if e.reminder == "lleech_host"]
    host_died = min((died[h] for h in hosts if h in died), default=None)
    if host_died is None:
        return {}
    return {s: host_died for s, c in character.items() if c == "lleech" and s not in died}


def _works(seat: SeatState) -> bool:
    return seat.alive and not seat.drunk_or_poisoned


def no_dashii_neighbours(ring: list[SeatState], index: int) -> list[SeatState]:
    """Almanac: "The No Dashii's closest clockwise and counterclockwise Townsfolk neighbors are
    poisoned, regardless of whether they are alive or dead"; other types are skipped. Clockwise
    first; one seat when a single Townsfolk is closest both ways."""
    found: dict[str, SeatState] = {}
    for step in (1, -1):
        for k in range(1, len(ring)):
            seat = ring[(index + step * k) % len(ring)]
            if seat.team == "townsfolk":
                found.setdefault(seat.slot, seat)
                break
    return list(found.values())


def living_neighbours(ring: list[SeatState], slot: str, alive: set[str]) -> list[SeatState]:
    """The nearest living player each way round the circle (the forum Clocktower game: "Dead players
    are skipped"); one when only one other lives."""
    seats = [s for s in ring if s.slot in alive or s.slot == slot]
    if len(seats) < 2:
        return []
    i = next(n for n, s in enumerate(seats) if s.slot == slot)
    left, right = seats[i - 1], seats[(i + 1) % len(seats)]
    return [left] if left.slot == right.slot else [left, right]


def tea_lady_guards(ring: list[SeatState], alive: set[str]) -> dict[str, str]:
    """The almanac's Tea Lady: "If both your alive neighbors are good, they can't die": each
    protected neighbour -> the Tea Lady (alive, sober and healthy) protecting them."""
    out: dict[str, str] = {}
    for seat in ring:
        if seat.character != "tealady" or seat.slot not in alive or seat.drunk_or_poisoned:
            continue
        neighbours = living_neighbours(ring, seat.slot, alive)
        if len(neighbours) == 2 and all(n.alignment == "good" for n in neighbours):
            out.update({n.slot: seat.slot for n in neighbours})
    return out


def spy_damsel_jinx(characters_ever: set[str]) -> bool:
    """The publisher's jinx: a Spy or a Widow in play, now or before, poisons the Damsel."""
    return bool(characters_ever & {"spy", "widow"})


def grimoire_poisons(seats: list[SeatState], characters_ever: set[str]) -> dict[str, str]:
    """The poisoning that follows from the grimoire itself (no reminder is recorded for it),
    slot -> the character that causes it: the No Dashii's two Townsfolk while it lives with its
    ability; the Lleech's host while the Lleech lives ("poisoned for the rest of the game");
    the Damsel under the Spy and Widow jinx."""
    out: dict[str, str] = {}
    for i, seat in enumerate(seats):
        if seat.character == "nodashii" and _works(seat):
            out.update({n.slot: "nodashii" for n in no_dashii_neighbours(seats, i)})
    if any(s.character == "lleech" and s.alive for s in seats):
        out.update({s.slot: "lleech" for s in seats if s.has("lleech_host")})
    if spy_damsel_jinx(characters_ever):
        out.update({s.slot: "spy" for s in seats if s.character == "damsel"})
    return out


def ghost_votes(game: Game, posts, phase: Phase) -> dict[str, int | None]:
    """Each dead player's ghost vote before `phase`: the day it was spent, or None (unspent).
    Spent votes come from replaying the thread's days and from `ghost_vote` events."""

    last = phase.number if phase.is_night else phase.number - 1
    return ghost_votes_spent(game, posts, max(last, 0))


def grimoire_report(game: Game, posts, phase: Phase) -> tuple[Grimoire, dict[str, int]]:
    """`modtool grimoire`: the grimoire at `phase` and the ghost votes spent before it."""

    if script_of(game) is None:
        raise ModToolError(
            f"{game.folder / 'game.toml'}: the grimoire needs a Clocktower script; add "
            'script = "trouble-brewing-forum" (or another) to game.toml'
        )
    require_reached(game, phase)
    return grimoire_at(game, phase, post_days(game, posts)), ghost_votes(game, posts, phase)


def current_phase(game: Game) -> Phase:
    """The latest phase the ledger knows: the last day, or the night after it once it ended."""
    return game.current_phase()
