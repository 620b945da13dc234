"""The night sheet of a Clocktower game and the information each character gets, computed from
the grimoire with the Storyteller's choices shown.

For every information character the answer is given three ways: the true value from the
grimoire; the answers the Storyteller may legally give (one when there is no choice; several
when the player is drunk or poisoned, when the Spy or the Recluse may register otherwise, or
when the Storyteller picks the decoy; under the Vortox every answer but the true one); and
one line saying why. Nights are numbered as in the forum Clocktower game: Night 0 is the first
night; deaths of the night count for the characters that act after the Demon.
"""

from __future__ import annotations

from dataclasses import fields as dataclass_fields
from dataclasses import replace
from itertools import product

from ...core.checks import already_recorded, refuse_when_won, require_reached
from ...core.count import EXECUTED_CAUSES, count_days
from ...core.ledger import (
    CharacterChange,
    Death,
    Event,
    EventKind,
    Game,
    Phase,
    PhaseKind,
    ReminderEvent,
    append_computed,
)
from ...core.rules import Rule
from ...errors import ModToolError
from ...threads.frozen import frozen
from .choices import broken_choice, refuse_broken_choices
from .events import ClocktowerEventKind, Master
from .events import masters as masters_of
from .grimoire import (
    Grimoire,
    SeatState,
    grimoire_at,
    living_neighbours,
    no_dashii_neighbours,
    post_days,
    reminder_of,
    tea_lady_guards,
)
from .roles import ROLEBOOKS, night_markers, role_text, rolebook
from .scripts import script_of
from .wins import Win, check_day

EVIL_TEAMS = ("minion", "demon")


@frozen
class Value:
    """One answer of an information step as data (`kind` and its fields) and as the words
    the sheet and the PMs print (`text`, made from the same fields by the constructors below)."""

    kind: str  # number, yes_no, pair, no_outsiders, character, characters, players, outcome,
    # choose_again, grimoire, any
    text: str
    fields: tuple[tuple[str, object], ...] = ()

    def __str__(self) -> str:
        return self.text

    def as_json(self) -> dict:
        return {"kind": self.kind, **{k: _field_json(v) for k, v in self.fields}}


def _field_json(v):
    if isinstance(v, tuple):
        return [_field_json(x) for x in v]
    return v.as_json() if hasattr(v, "as_json") else v


def number(n: int) -> Value:
    return Value("number", str(n), (("value", n),))


def yes_no(yes: bool) -> Value:
    return Value("yes_no", "Yes" if yes else "No", (("value", yes),))


def pair(player: str, character: str) -> Value:
    """One of two players is the character: the Storyteller picks the other player."""
    text = f"{player} or another is the {character}"
    return Value("pair", text, (("players", (player, "another")), ("character", character)))


def character(name: str) -> Value:
    return Value("character", name, (("character", name),))


def characters(names: list[str], one_of: bool = False) -> Value:
    """Characters shown together: all of them in play (the Godfather's Outsiders: "Tinker,
    Drunk"), or, `one_of`, two of which one is the chosen player's (the Dreamer's: "Imp or
    Monk")."""
    text = (" or " if one_of else ", ").join(names)
    return Value("characters", text, (("characters", tuple(names)), ("one_of", one_of)))


def players(names: list[str]) -> Value:
    """Players named together ("Ann and Cat": the No Dashii's poisoned Townsfolk)."""
    return Value("players", " and ".join(names), (("players", tuple(names)),))


@frozen
class SeenSeat:
    """One seat of the grimoire as the Spy sees it."""

    seat: int | None
    player: str
    character: str  # its name
    told: str | None  # the character the player was told they are, when another
    reminders: tuple[str, ...]  # reminder kinds: poisoned, no_ability, ...
    master: str | None = None  # the player the Butler chose as their Master tonight
    targeted: bool = False  # chosen by the Demon tonight (the Spy learns "who the kill targeted")

    def __str__(self) -> str:
        told = f" (told {self.told})" if self.told else ""
        marks = "".join(f", {r.replace('_', ' ')}" for r in self.reminders)
        master = f", master {self.master}" if self.master else ""
        targeted = ", the Demon's target" if self.targeted else ""
        return f"{self.seat or '?'} {self.player}: {self.character}{told}{marks}{master}{targeted}"

    def as_json(self) -> dict:
        return {f.name: _field_json(getattr(self, f.name)) for f in dataclass_fields(self)}


def grimoire_seen(seats: list[SeenSeat]) -> Value:
    """The grimoire the Spy sees, seat by seat ("1 Ann: Spy; 2 Ben: Imp, poisoned")."""
    text = "; ".join(map(str, seats))
    return Value("grimoire", text, (("text", text), ("seats", tuple(seats))))


def outcome_of(word: str) -> Value:
    return Value("outcome", word, (("value", word),))


def anything(text: str) -> Value:
    """A class of answers the sheet does not list one by one ("any character")."""
    return Value("any", text, (("text", text),))


NO_OUTSIDERS = Value("no_outsiders", "no Outsiders")
CHOOSE_AGAIN = Value("choose_again", "choose again")


@frozen
class Info:
    player: str
    character: str  # the character acting (the Drunk acts as the Townsfolk they were told)
    true: Value | None
    answers: tuple[Value, ...]  # the answers the Storyteller may legally give
    storyteller_choice: bool
    why: str

    @property
    def true_value(self) -> str | None:
        return None if self.true is None else str(self.true)

    @property
    def allowed(self) -> tuple[str, ...]:
        return tuple(str(a) for a in self.answers)

    def as_json(self) -> dict:
        return {
            "player": self.player,
            "character": self.character,
            "true_value": self.true_value,
            "allowed": list(self.allowed),
            "true": None if self.true is None else self.true.as_json(),
            "answers": [a.as_json() for a in self.answers],
            "storyteller_choice": self.storyteller_choice,
            "why": self.why,
        }


@frozen
class NightStep:
    position: int  # in the official order of this night
    character: str  # character id, or "minioninfo" / "demoninfo"
    name: str
    player: str | None
    what: str  # what the Storyteller does (the character's how-to-run text)
    choices: tuple[str, ...]  # what the player chose (recorded night_choice events)
    reminders: tuple[str, ...]
    info: Info | None


# --- registering -------------------------------------------------------------------------------


def may_register_evil(seat: SeatState) -> set[bool]:
    """Whether the seat can register as evil: the Spy may register good, the Recluse evil."""
    if seat.character == "spy":
        return {True, False}
    if seat.character == "recluse":
        return {True, False}
    return {seat.alignment == "evil"}


def may_register_as(seat: SeatState, team: str) -> bool:
    """Can the seat register as a character of `team`? (Spy: Townsfolk or Outsider; Recluse:
    Minion or Demon.)"""
    if seat.team == team:
        return True
    if seat.character == "spy" and team in ("townsfolk", "outsider"):
        return True
    return seat.character == "recluse" and team in EVIL_TEAMS


# --- the pure computations (each a rule with a table test) ---------------------------------------


def evil_count_options(seats: list[SeatState]) -> tuple[int, set[int]]:
    """How many of these seats are evil: the true number and every number they may register."""
    true = sum(1 for s in seats if s.alignment == "evil")
    options = {sum(combo) for combo in product(*(may_register_evil(s) for s in seats))}
    return true, options


def evil_pairs(ring: list[SeatState], evil: dict[str, bool]) -> int:
    """Chef: adjacent pairs of evil players round the whole circle (each player in two pairs)."""
    n = len(ring)
    if n < 2:
        return 0
    pairs = [(ring[i], ring[(i + 1) % n]) for i in range(n if n > 2 else 1)]
    return sum(1 for a, b in pairs if evil[a.slot] and evil[b.slot])


def chef_options(ring: list[SeatState]) -> tuple[int, set[int]]:
    true = evil_pairs(ring, {s.slot: s.alignment == "evil" for s in ring})
    unsure = [s for s in ring if len(may_register_evil(s)) > 1]
    options = set()
    for combo in product((True, False), repeat=len(unsure)):
        evil = {s.slot: s.alignment == "evil" for s in ring}
        evil.update({s.slot: c for s, c in zip(unsure, combo, strict=True)})
        options.add(evil_pairs(ring, evil))
    return true, options


def fortune_teller(chosen: list[SeatState], red_herring: str | None) -> tuple[bool, set[bool]]:
    """Yes if either chosen player is the Demon (a dead Demon too) or the red herring; the
    Recluse may register as the Demon."""
    true = any(s.team == "demon" or s.slot == red_herring for s in chosen)
    maybe = true or any(s.character == "recluse" for s in chosen)
    return true, {true, maybe}


def apply_vortox_and_poison(
    true: str, allowed: set[str], domain: list[str], poisoned: str | None, vortox: bool
) -> tuple[tuple[str, ...], bool, str]:
    """The answers the Storyteller may give, whether it is a choice, and why, after the Vortox
    ("Even if they are drunk or poisoned, it must be false") and drunkenness or poisoning."""
    if vortox:
        # every answer that could be true is out, not only the one the grimoire says
        false = tuple(v for v in domain if v not in allowed and v != true)
        false = false or tuple(v for v in domain if v != true)
        return false, True, "the Vortox lives: the answer is false"
    if poisoned:
        return tuple(domain), True, f"{poisoned}: any answer"
    ordered = tuple(v for v in domain if v in allowed) or (true,)
    return ordered, len(ordered) > 1, ""


# --- one night ---------------------------------------------------------------------------------


LAST = 10_000  # the night-order position of what comes after every step


class NightContext:
    """What every computation of a night looks up; with `placed` (tonight's resolution), the
    night as its recorded choices leave it, step by step (`seat_at`)."""

    def __init__(self, game: Game, night: int, posts=None, placed: tuple[Placed, ...] = ()):
        if script_of(game) is None:
            raise ModToolError(
                f"{game.folder / 'game.toml'}: the night sheet needs a Clocktower script; add "
                'script = "trouble-brewing-forum" (or another) to game.toml'
            )
        self.game, self.night = game, night
        self.phase = Phase(night, PhaseKind.NIGHT)
        self.grimoire: Grimoire = grimoire_at(game, self.phase)
        self.script = script_of(game)
        self.ring = list(self.grimoire.seats)
        self.alive_at_dusk = {s.slot for s in self.ring if s.alive}
        self.placed = placed
        self.died_tonight = {e.slot for e in game.deaths() if e.phase == self.phase} | {
            p.event.slot for p in placed if p.event.kind is EventKind.DEATH
        }
        self.choices = {
            e.slot: e for e in game.events_of(EventKind.NIGHT_CHOICE) if e.phase == self.phase
        }
        key = "first_night" if night == 0 else "other_night"
        self.order = {cid: getattr(c, key) for cid, c in self.script.characters.items()}
        demons = [self.order[s.character] for s in self.ring if s.team == "demon"]
        self.demon_position = min((p for p in demons if p is not None), default=None)
        herring = game.setup.get("red_herring")
        self.red_herring = game.find_slot(herring) if herring else None
        self.vortox = any(
            s.character == "vortox" and s.alive and not s.drunk_or_poisoned for s in self.ring
        )
        self.posts = posts
        self._day_voters: set[str] | None = None
        self._at_day: dict[int, int] | None = None

    def day_events(self, ability: str) -> list:
        """Today's (Day N's) day abilities of one kind; none without the thread (which day
        holds a post is known from the thread)."""
        found = [e for e in self.game.events_of(EventKind.DAY_ABILITY) if e.ability == ability]
        if self.posts is None:
            return []
        if self._at_day is None:
            self._at_day = post_days(self.game, self.posts)
        return [e for e in found if self._at_day.get(e.line) == self.night]

    def voters_today(self) -> set[str] | None:
        """The slots whose votes counted on Day N (a vote is a nomination), or None without
        the thread."""
        if self.posts is None or self.night == 0:
            return None
        if self._day_voters is None:
            (count,) = count_days(self.game, self.posts, [self.night])
            self._day_voters = {
                self.game.find_slot(a.author)
                for a in count.audit
                if a.accepted and a.rule in (Rule.VOTE, Rule.SPLIT_VOTE)
            }
        return self._day_voters

    def position(self, cid: str | None) -> int:
        """The character's place in tonight's order (LAST when it has none tonight)."""
        found = self.order.get(cid)
        return LAST if found is None else found

    def seat_at(self, seat: SeatState, position: int | None) -> SeatState:
        """The seat as a character acting at `position` finds it: with the reminders tonight's
        earlier steps placed (the Poisoner's poison on a Chef who wakes after her)."""
        return as_resolved(seat, self.placed, LAST if position is None else position)

    def name(self, cid: str | None) -> str:
        return self.script.characters[cid].name if cid in self.script.characters else str(cid)

    def alive_for(self, position: int | None) -> set[str]:
        """The living as a character acting at `position` sees them: tonight's deaths count
        after the Demon has acted."""
        if position is not None and self.demon_position is not None:
            if position > self.demon_position:
                return self.alive_at_dusk - self.died_tonight
        return set(self.alive_at_dusk)

    def acting(self, seat: SeatState) -> str | None:
        """The character a seat acts as tonight: the Drunk as the Townsfolk they were told."""
        return seat.shown if seat.character == "drunk" and seat.shown else seat.character

    def chosen(self, seat: SeatState) -> list[SeatState]:
        e = self.choices.get(seat.slot)
        return [self.grimoire.seat(s) for s in e.targets] if e else []

    def impaired(self, seat: SeatState) -> str | None:
        if seat.character == "drunk":
            return f"{seat.player} is the Drunk"
        if seat.has("poisoned"):
            return f"{seat.player} is poisoned"
        if seat.has("drunk"):
            return f"{seat.player} is drunk"
        return None


def information(ctx: NightContext, seat: SeatState) -> Info | None:
    """The information the seat's character gets tonight, or None when it gets none."""
    cid = ctx.acting(seat)
    compute = INFORMATION.get(cid)
    if compute is None:
        return None
    found = compute(ctx, seat)
    if found is None:
        return None
    true, allowed, domain, why = found
    if cid in NOT_INFORMATION:  # what happens to the player, not what they are told
        return Info(seat.player, ctx.name(cid), true, (true,), False, why)
    townsfolk_info = ctx.script.characters[cid].team == "townsfolk"
    answers, choice, because = apply_vortox_and_poison(
        true, allowed, domain, ctx.impaired(seat), ctx.vortox and townsfolk_info
    )
    reason = "; ".join(x for x in (why, because) if x)
    return Info(seat.player, ctx.name(cid), true, answers, choice, reason)


def _empath(ctx: NightContext, seat: SeatState):
    alive = ctx.alive_for(ctx.order.get("empath"))
    neighbours = living_neighbours(ctx.ring, seat.slot, alive)
    true, options = evil_count_options(neighbours)
    names = " and ".join(n.player for n in neighbours)
    killed = neighbours != living_neighbours(ctx.ring, seat.slot, ctx.alive_at_dusk)
    why = f"living neighbours {names}" + (" after the night-kill" if killed else "")
    domain = [number(n) for n in range(3)]
    return number(true), {number(o) for o in options}, domain, why


def _chef(ctx: NightContext, seat: SeatState):
    true, options = chef_options(ctx.ring)
    evil = sum(1 for s in ctx.ring if s.alignment == "evil")
    domain = [number(n) for n in range(max(evil, 1) + 1)]
    return number(true), {number(o) for o in options}, domain, "adjacent pairs of evil players"


def _fortune_teller(ctx: NightContext, seat: SeatState):
    chosen = ctx.chosen(seat)
    if len(chosen) != 2:
        return None
    true, options = fortune_teller(chosen, ctx.red_herring)
    names = " and ".join(c.player for c in chosen)
    why = f"chose {names}" + (
        ", the red herring" if any(c.slot == ctx.red_herring for c in chosen) else ""
    )
    return yes_no(true), {yes_no(o) for o in options}, [yes_no(True), yes_no(False)], why


def _one_of_two(team: str):
    """Washerwoman (Townsfolk), Librarian (Outsider), Investigator (Minion): one of two
    players is a particular character; the Storyteller picks which and the decoy."""

    def compute(ctx: NightContext, seat: SeatState):
        holders = [s for s in ctx.ring if s.slot != seat.slot and may_register_as(s, team)]
        truths = [s for s in holders if s.team == team]
        if team == "outsider" and not holders:
            return (
                NO_OUTSIDERS,
                {NO_OUTSIDERS},
                [NO_OUTSIDERS, anything("one of two is an Outsider")],
                "no Outsiders in play",
            )
        shown = [] if truths or team != "outsider" else [NO_OUTSIDERS]
        for h in holders:
            ids = [h.character] if h.team == team else [c.id for c in ctx.script.of_team(team)]
            for c in ids:
                shown.append(pair(h.player, ctx.name(c)))
        true = (
            pair(truths[0].player, ctx.name(truths[0].character))
            if truths
            else shown[0]  # "no Outsiders" when none is in play, whoever may register as one
        )
        domain = shown + [anything(f"any two players and any {team} on the script")]
        why = "the Storyteller picks the character and the other player"
        return true, set(shown), domain, why

    return compute


def _undertaker(ctx: NightContext, seat: SeatState):
    executed = [
        e.slot
        for e in ctx.game.deaths()
        if e.phase == Phase(ctx.night, PhaseKind.DAY)
        and (e.cause or "").casefold() in EXECUTED_CAUSES
    ]
    if not executed:
        return None
    dead = ctx.grimoire.seat(executed[0])
    drunk = " (the Drunk shows as the Drunk)" if dead.character == "drunk" else ""
    return _character_of(ctx, dead, f"{dead.player} was executed today{drunk}")


def _ravenkeeper(ctx: NightContext, seat: SeatState):
    if seat.slot not in ctx.died_tonight:
        return None
    chosen = ctx.chosen(seat)
    if not chosen:
        return None
    target = chosen[0]
    return _character_of(ctx, target, f"died tonight and chose {target.player}")


def _character_of(ctx: NightContext, seat: SeatState, why: str):
    """A player's character as information gives it (Undertaker, Ravenkeeper)."""
    shows = [character(n) for n in _shows_as(ctx, seat)]
    return character(ctx.name(seat.character)), set(shows), [*shows, anything("any character")], why


def _shows_as(ctx: NightContext, seat: SeatState) -> list[str]:
    """The characters a seat may show as (the Spy as any good one, the Recluse as any evil one)."""
    names = [ctx.name(seat.character)]
    if seat.character == "spy":
        names += [c.name for t in ("townsfolk", "outsider") for c in ctx.script.of_team(t)]
    if seat.character == "recluse":
        names += [c.name for t in EVIL_TEAMS for c in ctx.script.of_team(t)]
    return list(dict.fromkeys(names))


def _dreamer(ctx: NightContext, seat: SeatState):
    chosen = ctx.chosen(seat)
    if not chosen:
        return None
    target = chosen[0]
    other = EVIL_TEAMS if target.alignment == "good" else ("townsfolk", "outsider")
    decoys = [c.name for t in other for c in ctx.script.of_team(t)]
    true = ctx.name(target.character)
    shown = [characters([true, d], one_of=True) for d in decoys]
    return (
        shown[0],
        set(shown),
        [*shown, anything("two characters, neither of them theirs (one good, one evil)")],
        f"chose {target.player} ({true}); the Storyteller picks the other",
    )


def _gambler(ctx: NightContext, seat: SeatState):
    e = ctx.choices.get(seat.slot)
    chosen = ctx.chosen(seat)
    if e is None or not chosen or e.character is None:
        return None
    guess = f"guessed {chosen[0].player} is the {ctx.name(e.character)}"
    impaired = ctx.impaired(seat)
    outcome = outcome_of(gambler_outcome(chosen[0].character == e.character, impaired is not None))
    why = f"{guess}; {impaired}: the guess does nothing" if impaired else guess
    return outcome, {outcome}, [outcome_of("lives"), outcome_of("dies")], why


def _chambermaid(ctx: NightContext, seat: SeatState):
    chosen = ctx.chosen(seat)
    if len(chosen) != 2:
        return None
    if any(not c.alive or c.slot == seat.slot for c in chosen):
        return (
            CHOOSE_AGAIN,
            {CHOOSE_AGAIN},
            [CHOOSE_AGAIN],
            "the Chambermaid chooses 2 alive players, not themself",
        )
    woke = sum(1 for c in chosen if wakes_tonight(ctx, c))
    return (
        number(woke),
        {number(woke)},
        [number(n) for n in range(3)],
        "how many of the two woke tonight for their ability",
    )


def gambler_outcome(right: bool, impaired: bool) -> str:
    """Almanac: the Gambler "dies" on a wrong guess; drunk or poisoned, nothing happens."""
    return "lives" if right or impaired else "dies"


def wakes_tonight(ctx: NightContext, seat: SeatState) -> bool:
    """Whether a player woke tonight for their ability (what the Chambermaid learns): a
    character of tonight's order, alive, and, for those that wake only on a condition, with
    it met: the Godfather after an Outsider died today, the Undertaker after an execution,
    the Ravenkeeper when killed tonight."""
    cid = ctx.acting(seat)
    if ctx.order.get(cid) is None:
        return False
    if cid == "ravenkeeper":
        return seat.slot in ctx.died_tonight
    if not seat.alive:
        return False
    today = Phase(ctx.night, PhaseKind.DAY)
    died_today = [e for e in ctx.game.deaths() if ctx.game.death_phase(e) == today]
    if cid == "godfather" and ctx.night > 0:
        return any(ctx.grimoire.seat(e.slot).team == "outsider" for e in died_today)
    if cid == "undertaker":
        return any((e.cause or "").casefold() in EXECUTED_CAUSES for e in died_today)
    return True


def _no_dashii(ctx: NightContext, seat: SeatState):
    found = no_dashii_neighbours(ctx.ring, ctx.ring.index(seat))
    poisoned = players([s.player for s in found])
    return poisoned, {poisoned}, [poisoned], "the closest Townsfolk each way are poisoned"


def _juggler(ctx: NightContext, seat: SeatState):
    guesses = [e for e in ctx.day_events("juggle") if e.slot == seat.slot]
    if not guesses:
        return None
    right, maybe = 0, 0
    for e in guesses:
        target = ctx.grimoire.seat(e.target)
        if target.character == e.guess:
            right += 1
        elif ctx.name(e.guess) in _shows_as(ctx, target):
            maybe += 1  # the Spy or the Recluse may register as the guessed character
    options = {number(n) for n in range(right, right + maybe + 1)}
    domain = [number(n) for n in range(len(guesses) + 1)]
    return number(right), options, domain, f"{len(guesses)} guesses today, {right} right"


def _town_crier(ctx: NightContext, seat: SeatState):
    voters = ctx.voters_today()
    if voters is None:
        return None
    minions = [ctx.grimoire.seat(v) for v in voters if v is not None]
    true = any(m.team == "minion" for m in minions)
    maybe = {true}
    if any(m.character == "spy" for m in minions):
        maybe.add(False)
    if any(m.character == "recluse" for m in minions):
        maybe.add(True)
    why = "a Minion voted (nominated) today" if true else "no Minion voted today"
    return yes_no(true), {yes_no(m) for m in maybe}, [yes_no(True), yes_no(False)], why


def _godfather(ctx: NightContext, seat: SeatState):
    if ctx.night != 0:
        return None
    outsiders = [s for s in ctx.ring if s.team == "outsider"]
    found = [ctx.name(s.character) for s in outsiders]
    told = characters(found) if found else NO_OUTSIDERS
    return told, {told}, [told], "the Outsiders in play (the Drunk shows as the Drunk)"


def _pixie(ctx: NightContext, seat: SeatState):
    if ctx.night != 0:
        return None
    townsfolk = [
        ctx.name(s.character) for s in ctx.ring if s.team == "townsfolk" and s.slot != seat.slot
    ]
    if not townsfolk:
        return None
    shown = [character(t) for t in townsfolk]
    return (shown[0], set(shown), shown, "a Townsfolk in play, of the Storyteller's choice")


def _spy(ctx: NightContext, seat: SeatState):
    """The grimoire as tonight's steps before the Spy left it, with the house rule's "who the
    Demon's kill targeted ... and who the Butler chose as their Master"."""
    position = ctx.position("spy")
    masters = butler_masters(ctx, position)
    targeted = demon_targets(ctx, position)
    seats = [
        SeenSeat(
            s.seat,
            s.player,
            ctx.name(s.character),
            ctx.name(s.shown) if s.shown else None,
            tuple(r.kind for r in ctx.seat_at(s, position).reminders),
            ctx.grimoire.seat(masters[s.slot]).player if s.slot in masters else None,
            s.slot in targeted,
        )
        for s in ctx.ring
    ]
    seen = grimoire_seen(seats)
    return seen, {seen}, [seen], "the Spy sees the grimoire"


def butler_masters(ctx: NightContext, before: int) -> dict[str, str]:
    """Butler slot -> the master chosen tonight (for the next day), in the ledger or by a step
    of tonight's resolution before position `before`."""
    day = ctx.night + 1
    found = {e.slot: e.master for e in masters_of(ctx.game) if e.day == day}
    for p in ctx.placed:
        if isinstance(p.event, Master) and p.position < before and p.event.day == day:
            found[p.event.slot] = p.event.master
    return found


def demon_targets(ctx: NightContext, before: int) -> set[str]:
    """The players a living Demon who acts before position `before` chose tonight."""
    if ctx.night == 0:
        return set()
    demons = [
        s for s in ctx.ring if s.team == "demon" and s.alive and ctx.position(s.character) < before
    ]
    return {t.slot for d in demons for t in ctx.chosen(d)}


NOT_INFORMATION = frozenset({"gambler"})  # their step says what happens to them

INFORMATION = {
    "juggler": _juggler,
    "towncrier": _town_crier,
    "godfather": _godfather,
    "pixie": _pixie,
    "spy": _spy,
    "empath": _empath,
    "chef": _chef,
    "fortuneteller": _fortune_teller,
    "washerwoman": _one_of_two("townsfolk"),
    "librarian": _one_of_two("outsider"),
    "investigator": _one_of_two("minion"),
    "undertaker": _undertaker,
    "ravenkeeper": _ravenkeeper,
    "dreamer": _dreamer,
    "gambler": _gambler,
    "chambermaid": _chambermaid,
    "nodashii": _no_dashii,
}


def win_at(game: Game, phase: Phase) -> Win | None:
    """A win the game reached before `phase` starts: at the end of a day the ledger closed (the
    Saint executed, the Mayor's day without an execution), or the Demon dead with no Scarlet
    Woman to take over, or two players alive with an evil one (the day's win check, on the
    grimoire)."""
    grimoire = grimoire_at(game, phase)
    if not any(s.character for s in grimoire.seats):
        return None  # a game counted without characters: no Demon to find dead
    for window in game.days():
        if window.end is not None and Phase(window.day, PhaseKind.NIGHT) <= phase:
            won = day_end_win(game, window.day)
            if won:
                return won
    return check_day(grimoire, {s.slot for s in grimoire.alive}, phase.number).win


def day_end_win(game: Game, day: int) -> Win | None:
    """The win check at the end of a closed day as the ledger records it (its execution, the
    day's Damsel guesses and Goblin claims): what the count found when end-day closed it."""
    today = Phase(day, PhaseKind.DAY)
    executed = next(
        (
            e.slot
            for e in game.deaths()
            if e.phase == today and (e.cause or "").casefold() in EXECUTED_CAUSES
        ),
        None,
    )
    alive = {s.slot for s in grimoire_at(game, Phase(day, PhaseKind.NIGHT)).alive}
    if executed is not None:
        alive.add(executed)  # the check takes the executed player as alive until executed
    abilities = [e for e in game.events_of(EventKind.DAY_ABILITY) if game.phase_at(e.at) == today]
    guesses = tuple(
        (e.slot, e.target) for e in abilities if e.ability == "damsel_guess" and e.target
    )
    claimed = frozenset(e.slot for e in abilities if e.ability == "goblin_claim")
    grimoire = grimoire_at(game, today)
    return check_day(grimoire, alive, day, executed, True, guesses, claimed).win


def night_sheet(game: Game, night: int, posts=None) -> list[NightStep]:
    """The characters in play that act tonight, in the official order, with what to do, the
    choices recorded, the reminders in force and the information computed. With the thread's
    `posts`, the Town Crier and the Juggler are computed too."""
    require_reached(game, Phase(night, PhaseKind.NIGHT), preview=True)
    refuse_when_won(game, Phase(night, PhaseKind.NIGHT))
    ctx = resolved_context(game, night, posts)
    waiting = waiting_on(ctx)
    steps = []
    for dusk_seat in ctx.ring:
        cid = ctx.acting(dusk_seat)
        position = ctx.order.get(cid)
        seat = ctx.seat_at(dusk_seat, position)
        dying_raven = cid == "ravenkeeper" and seat.slot in ctx.died_tonight
        if position is None and not dying_raven:
            continue
        if not seat.alive and not dying_raven:
            continue
        killed_before = seat.slot in ctx.died_tonight and seat.slot not in ctx.alive_for(position)
        if killed_before and not dying_raven:
            continue  # killed tonight by a Demon that acts first
        if cid == "ravenkeeper" and not dying_raven:
            continue
        if cid == "undertaker" and _undertaker(ctx, seat) is None:
            continue
        text = role_text(cid, "en", ctx.script.book)
        guide = next((t for b in ROLEBOOKS if (t := rolebook(b).text(cid)) and t.how_to_run), None)
        choices = tuple(s.player for s in ctx.chosen(seat))
        e = ctx.choices.get(seat.slot)
        if e is not None and e.character:
            choices += (ctx.name(e.character),)
        steps.append(
            NightStep(
                position if position is not None else LAST,
                cid,
                ctx.name(cid) + (" (the Drunk)" if seat.character == "drunk" else ""),
                seat.player,
                " ".join(guide.how_to_run) if guide else (text.ability if text else ""),
                choices,
                tuple(r.kind.replace("_", " ") for r in seat.reminders),
                pending(information(ctx, seat), waiting, ctx.position(cid)),
            )
        )
    steps += first_night_poisoners(ctx) + tea_lady_step(ctx)
    if night == 0 and len(ctx.ring) >= 7:
        markers = night_markers()["first_night"]
        evil = [s for s in ctx.ring if s.team in EVIL_TEAMS]
        minions = ", ".join(s.player for s in evil if s.team == "minion")
        demon = ", ".join(s.player for s in evil if s.team == "demon")
        bluffs = ", ".join(ctx.name(b) for b in ctx.grimoire.bluffs)
        steps.append(
            NightStep(
                markers["minioninfo"],
                "minioninfo",
                "Minion info",
                None,
                f"Show the Minions their Demon ({demon}).",
                (),
                (),
                None,
            )
        )
        steps.append(
            NightStep(
                markers["demoninfo"],
                "demoninfo",
                "Demon info",
                None,
                f"Show the Demon their Minions ({minions}) and three bluffs ({bluffs}).",
                (),
                (),
                None,
            )
        )
    return sorted(steps, key=lambda s: (s.position, s.player or ""))


def resolved_context(game: Game, night: int, posts=None) -> NightContext:
    """The night as its recorded choices leave it, step by step (the resolution `--resolve`
    shows): a Chef poisoned tonight wakes poisoned, an Empath after the Demon skips its
    victim. A choice the rules forbid resolves nothing here (`--resolve` says which)."""
    ctx = NightContext(game, night, posts)
    if broken_choice(game, ctx.grimoire) is not None:
        return ctx
    return NightContext(game, night, posts, resolve_choices(ctx).placed)


def waiting_on(ctx: NightContext) -> list[tuple[int, str]]:
    """The living Poisoner and Demon (not on Night 0) who act tonight with neither a choice
    nor what it did (tonight's poison, tonight's death) recorded yet: their place in the
    order and their name."""
    poisoned = any(
        r.by == "poisoner" and r.start == ctx.phase for s in ctx.ring for r in s.reminders
    )
    out = []
    for seat in ctx.ring:
        cid = seat.character
        awaited = (cid == "poisoner" and not poisoned) or (
            seat.team == "demon" and ctx.night > 0 and not ctx.died_tonight
        )
        position = ctx.order.get(cid)
        if awaited and seat.alive and position is not None and seat.slot not in ctx.choices:
            out.append((position, ctx.name(cid)))
    return sorted(out)


def pending(info: Info | None, waiting: list[tuple[int, str]], position: int) -> Info | None:
    """The information, saying which earlier choices of the night it waits on ("the Imp's
    choice is not recorded yet"): they may poison the player or kill a neighbour."""
    before = [name for at, name in waiting if at < position]
    if info is None or not before:
        return info
    said = "; ".join(f"the {name}'s choice is not recorded yet" for name in before)
    return replace(info, why="; ".join(x for x in (info.why, said) if x))


def first_night_poisoners(ctx: NightContext) -> list[NightStep]:
    """The No Dashii has no step of its own on the first night, yet "The No Dashii's closest
    clockwise and counterclockwise Townsfolk neighbors are poisoned" from the start: a step
    after the Demon's information marks them (the grimoire shows the reminders)."""
    if ctx.night != 0:
        return []
    after = night_markers()["first_night"]["demoninfo"]
    steps = []
    for seat in ctx.ring:
        if seat.character != "nodashii" or not seat.alive or seat.drunk_or_poisoned:
            continue
        found = _no_dashii(ctx, seat)
        true, _, _, why = found
        names = ", ".join(n for n in dict(true.fields)["players"])
        steps.append(
            NightStep(
                after,
                "nodashii",
                ctx.name("nodashii"),
                seat.player,
                f"Mark the No Dashii's closest Townsfolk each way as poisoned ({names}).",
                (),
                tuple(r.kind.replace("_", " ") for r in seat.reminders),
                Info(seat.player, ctx.name("nodashii"), true, (true,), False, why),
            )
        )
    return steps


def protections_tonight(ctx: NightContext) -> list[tuple[str, str, str]]:
    """Who cannot die tonight, the Tea Lady protecting them, and the rule's text: "If both your
    alive neighbors are good, they can't die" (a Tea Lady poisoned tonight protects no one)."""
    ring = [ctx.seat_at(s, ctx.demon_position) for s in ctx.ring]
    return protections_in(ring, ctx.alive_at_dusk)


def protections_in(ring: list[SeatState], alive: set[str]) -> list[tuple[str, str, str]]:
    guards = tea_lady_guards(ring, alive)
    return [(slot, guards[slot], TEA_LADY_RULE) for slot in sorted(guards)]


TEA_LADY_RULE = "If both your alive neighbors are good, they can't die."


def tea_lady_step(ctx: NightContext) -> list[NightStep]:
    """The Tea Lady does not wake, but her protection holds tonight: the sheet shows it."""
    found = protections_tonight(ctx)
    if not found:
        return []
    by = ctx.grimoire.seat(found[0][1])
    names = " and ".join(ctx.grimoire.seat(slot).player for slot, _, _ in found)
    return [
        NightStep(
            LAST,
            "tealady",
            ctx.name("tealady"),
            by.player,
            f"{names} cannot die tonight (the Tea Lady's good living neighbours).",
            (),
            tuple(r.kind.replace("_", " ") for r in by.reminders),
            None,
        )
    ]


# --- what the night's choices do ----------------------------------------------------------------


def demon_kill(
    target: SeatState,
    demon_works: bool,
    protected_by_monk: bool,
    tea_lady_protects: bool,
) -> str:
    """What the Demon's choice does: "dies", or why the target lives ("no kill", "dead
    already", "protected", "soldier", "tea lady"), or "mayor" (the Storyteller may have
    another player die instead), or "star-pass" (the Demon chose themself)."""
    if not demon_works:
        return "no kill"
    if target.team == "demon":
        return "star-pass"
    if not target.alive:
        return "dead already"
    if protected_by_monk:
        return "protected"
    if target.character == "soldier" and not target.drunk_or_poisoned:
        return "soldier"
    if tea_lady_protects:
        return "tea lady"
    if target.character == "mayor" and not target.drunk_or_poisoned:
        return "mayor"
    return "dies"


def star_pass_heir(minions: list[SeatState]) -> SeatState | None:
    """Who becomes the Imp: a living Scarlet Woman must; else the Storyteller picks (None)."""
    living = [m for m in minions if m.alive]
    scarlet = [m for m in living if m.character == "scarletwoman"]
    if scarlet:
        return scarlet[0]
    return living[0] if len(living) == 1 else None


def tea_lady_protected(ring: list[SeatState], alive: set[str]) -> set[str]:
    """The Tea Lady's living neighbours, when both are good: they cannot die."""
    return set(tea_lady_guards(ring, alive))


@frozen
class Attack:
    """The Demon's choice tonight and what it did (`demon_kill`'s result)."""

    demon: str  # players' names
    target: str
    result: str  # dies, no kill, star-pass, dead already, protected, soldier, tea lady, mayor
    slots: tuple[str, str] = ("", "")  # the demon's and the target's


@frozen
class Protection:
    player: str
    by: str
    rule: str  # the protecting character's words


@frozen
class Placed:
    """An event of tonight's resolution, with the night-order position of the step making it."""

    position: int
    event: Event


@frozen(slots=False)
class NightResolution:
    events: tuple[Event, ...]  # what to append to the ledger when the host confirms (line 0)
    notes: tuple[str, ...]  # what the host must decide
    attacks: tuple[Attack, ...] = ()
    protections: tuple[Protection, ...] = ()
    placed: tuple[Placed, ...] = ()  # every event the steps made, those in the ledger too


# The choices resolve_night turns into ledger events (the Demons' too, and the information
# characters' are on the sheet); another character's choice (the Innkeeper's, the Godfather's)
# gets a note rather than nothing.
RESOLVED_HERE = frozenset({"poisoner", "monk", "witch", "lleech", "butler"})
MONK_RULE = "Each night*, choose a player (not yourself): they are safe from the Demon tonight."
DEMON_KILLS = "the Demon's kill: 'Each night*, choose a player: they die'"
STAR_PASS = "the Imp: 'If you kill yourself this way, a Minion becomes the Imp'"


def resolve_night(game: Game, night: int) -> NightResolution:
    """The ledger events the night's recorded choices lead to: the Poisoner's poison, the
    Monk's protection, the Witch's curse, the Butler's master, the Lleech's host, and the
    Demon's kill (or why nobody dies, or the star-pass). Nothing is written here; the night
    after the current day may be previewed (`confirm_night` writes only a reached night)."""
    require_reached(game, Phase(night, PhaseKind.NIGHT), preview=True)
    refuse_when_won(game, Phase(night, PhaseKind.NIGHT))
    ctx = NightContext(game, night)
    refuse_broken_choices(game, ctx.grimoire)
    found = resolve_choices(ctx)
    return replace(found, events=tuple(e for e in found.events if not already_recorded(game, e)))


def as_resolved(seat: SeatState, placed: tuple[Placed, ...], before: int) -> SeatState:
    """The seat as tonight's steps before night-order position `before` left it: with the
    reminders they placed (the Poisoner wakes before the Monk, so a Monk she poisons tonight
    has no ability when he wakes)."""
    held = {(r.kind, r.start, r.by) for r in seat.reminders}  # confirmed already: the ledger's
    added = tuple(
        reminder_of(p.event)
        for p in placed
        if p.position < before and isinstance(p.event, ReminderEvent) and p.event.slot == seat.slot
        if (p.event.reminder, p.event.phase, p.event.by) not in held
    )
    return replace(seat, reminders=(*seat.reminders, *added)) if added else seat


def resolve_choices(ctx: NightContext) -> NightResolution:
    """`resolve_night` on its context, every event kept (those in the ledger already too): the
    night's steps applied in night order, each on the grimoire as the earlier ones left it."""
    tonight = ctx.phase
    placed: list[Placed] = []
    notes: list[str] = []
    by_character = {}
    for seat in ctx.ring:
        if ctx.choices.get(seat.slot) is not None and (seat.alive or seat.slot in ctx.died_tonight):
            by_character.setdefault(ctx.acting(seat), seat)

    def target(cid: str) -> SeatState | None:
        seat = by_character.get(cid)
        chosen = ctx.chosen(seat) if seat else []
        return chosen[0] if chosen else None

    def now(seat: SeatState, position: int) -> SeatState:
        return as_resolved(seat, tuple(placed), position)

    def works(cid: str) -> bool:
        seat = by_character.get(cid)
        if seat is None or seat.character != cid:
            return False
        return not now(seat, ctx.position(cid)).drunk_or_poisoned

    placing = (("poisoner", "poisoned"), ("monk", "protected"), ("witch", "cursed"))
    for cid, reminder in sorted(placing, key=lambda c: ctx.position(c[0])):
        t = target(cid)
        if t is not None and works(cid):
            placed.append(
                Placed(
                    ctx.position(cid),
                    ReminderEvent(
                        EventKind.REMINDER, 0, slot=t.slot, phase=tonight, reminder=reminder, by=cid
                    ),
                )
            )
    if ctx.night == 0 and (t := target("lleech")) is not None:
        host = ReminderEvent(
            EventKind.REMINDER, 0, slot=t.slot, phase=tonight, reminder="lleech_host"
        )
        placed.append(Placed(ctx.position("lleech"), replace(host, by="lleech", until="game")))
    if (t := target("butler")) is not None:
        butler = by_character["butler"]
        master = Master(ClocktowerEventKind.MASTER, 0, slot=butler.slot, day=ctx.night + 1)
        placed.append(Placed(ctx.position("butler"), replace(master, master=t.slot)))
    protected = {
        p.event.slot
        for p in placed
        if isinstance(p.event, ReminderEvent) and p.event.reminder == "protected"
    }
    # the Demon, the Soldier and the Tea Lady as the steps before the Demon's left them
    at = ctx.demon_position if ctx.demon_position is not None else LAST
    ring = [now(s, at) for s in ctx.ring]
    guards = [
        Protection(ctx.grimoire.seat(slot).player, by_character["monk"].player, MONK_RULE)
        for slot in [s.slot for s in ctx.ring if s.slot in protected]
    ] + [
        Protection(ctx.grimoire.seat(p).player, ctx.grimoire.seat(by).player, rule)
        for p, by, rule in protections_in(ring, ctx.alive_at_dusk)
    ]
    notes += [
        f"{seat.player} ({ctx.name(cid)}) chose {', '.join(c.player for c in ctx.chosen(seat))}: "
        "--resolve does not apply that ability; record what it does with modtool record"
        for cid, seat in by_character.items()
        if cid not in RESOLVED_HERE | INFORMATION.keys() and seat.team != "demon"
        if ctx.chosen(seat)
    ]
    attacks: list[Attack] = []
    demons = [s for s in ctx.ring if s.team == "demon" and s.alive and ctx.choices.get(s.slot)]
    for demon in demons if ctx.night > 0 else []:
        for t in ctx.chosen(demon):  # the Po's three, else one
            attack = _attack(ctx, ring, now(demon, at), now(t, at), protected)
            attacks.append(attack.attack)
            placed += [Placed(at, e) for e in attack.events]
            notes += attack.notes
    return NightResolution(
        tuple(p.event for p in placed),
        tuple(notes),
        tuple(attacks),
        tuple(guards),
        tuple(placed),
    )


@frozen
class AttackOutcome:
    attack: Attack
    events: tuple[Event, ...]
    notes: tuple[str, ...]


def _attack(
    ctx: NightContext,
    ring: list[SeatState],
    demon: SeatState,
    t: SeatState,
    protected: set[str],
) -> AttackOutcome:
    """One player the Demon chose tonight: what it does (`demon_kill`), with the events and
    notes it adds; `ring`, `demon` and `t` as the night's earlier steps left them."""
    tonight = ctx.phase
    result = demon_kill(
        t,
        not demon.drunk_or_poisoned,
        t.slot in protected,
        t.slot in tea_lady_protected(ring, ctx.alive_at_dusk),
    )
    events: list[Event] = []
    notes: list[str] = []
    if result == "dies":
        events.append(Death(EventKind.DEATH, 0, slot=t.slot, phase=tonight, cause="killed"))
    elif result == "star-pass":
        events.append(Death(EventKind.DEATH, 0, slot=demon.slot, phase=tonight, cause="killed"))
        heir = star_pass_heir([s for s in ring if s.team == "minion"])
        if heir is None:
            notes.append(
                "the Demon killed themself: the Storyteller picks the Minion who becomes "
                "the Demon (modtool record character)"
            )
        else:
            events.append(
                CharacterChange(
                    EventKind.CHARACTER_CHANGE,
                    0,
                    slot=heir.slot,
                    phase=tonight,
                    character=demon.character,
                    cause="star-pass",
                )
            )
    elif result == "mayor":
        events.append(Death(EventKind.DEATH, 0, slot=t.slot, phase=tonight, cause="killed"))
        notes.append(
            f"{t.player} is the Mayor: the Storyteller may have another player die instead; "
            "to do so, do not confirm, and record the deaths with modtool record"
        )
    else:
        notes.append(f"the Demon chose {t.player}: nobody dies ({result})")
    attack = Attack(demon.player, t.player, result, (demon.slot, t.slot))
    return AttackOutcome(attack, tuple(events), tuple(notes))


def confirm_night(game: Game, night: int) -> list:
    """Write what the night's choices lead to, made again from the ledger under its lock (so a
    second confirmation, or twenty at once, add nothing). Only a night the game has reached."""
    require_reached(game, Phase(night, PhaseKind.NIGHT))
    return append_computed(game, lambda now: resolve_night(now, night).events)
