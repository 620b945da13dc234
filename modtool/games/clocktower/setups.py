"""Clocktower setups: the official character-type counts, the setup modifiers of the characters
on the seed scripts, a check of the host's characters, a seeded draw of a legal set, and a
commitment hash the host posts at the start and reveals at the end.

Each rule is one small function; `check_setup` runs them all and collects their reasons.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import secrets
from collections import Counter
from dataclasses import dataclass

from ...core.ledger import EventKind, Game, Phase, PhaseKind, append_computed
from ...errors import ModToolError
from .roles import Character

TEAMS = ("townsfolk", "outsider", "minion", "demon")


@dataclass(frozen=True, slots=True)
class Counts:
    townsfolk: int
    outsider: int
    minion: int
    demon: int

    def __add__(self, other: Counts) -> Counts:
        return Counts(*(a + b for a, b in zip(self.as_tuple(), other.as_tuple(), strict=True)))

    def as_tuple(self) -> tuple[int, int, int, int]:
        return (self.townsfolk, self.outsider, self.minion, self.demon)

    def as_dict(self) -> dict[str, int]:
        return dict(zip(TEAMS, self.as_tuple(), strict=True))


# The official counts by number of players, Travellers not counted (5 to 15).
BASE_COUNTS = {
    5: Counts(3, 0, 1, 1),
    6: Counts(3, 1, 1, 1),
    7: Counts(5, 0, 1, 1),
    8: Counts(5, 1, 1, 1),
    9: Counts(5, 2, 1, 1),
    10: Counts(7, 0, 2, 1),
    11: Counts(7, 1, 2, 1),
    12: Counts(7, 2, 2, 1),
    13: Counts(9, 0, 3, 1),
    14: Counts(9, 1, 3, 1),
    15: Counts(9, 2, 3, 1),
}

# What a character in play does to the counts: one or more alternatives (the Storyteller picks).
# From the bracketed setup text of each character: Baron [+2 Outsiders], Godfather [-1 or +1
# Outsider], Summoner [No Demon] (a Townsfolk takes the Demon's place), Huntsman [+the Damsel]
# (the Damsel takes a Townsfolk's place unless already in), Fang Gu [+1 Outsider],
# Vigormortis [-1 Outsider], Balloonist [+0 or +1 Outsider].
SETUP_MODIFIERS: dict[str, tuple[Counts, ...]] = {
    "baron": (Counts(-2, 2, 0, 0),),
    "godfather": (Counts(1, -1, 0, 0), Counts(-1, 1, 0, 0)),
    "summoner": (Counts(1, 0, 0, -1),),
    "huntsman": (Counts(0, 0, 0, 0), Counts(-1, 1, 0, 0)),
    "fanggu": (Counts(-1, 1, 0, 0),),
    "vigormortis": (Counts(1, -1, 0, 0),),
    "balloonist": (Counts(0, 0, 0, 0), Counts(-1, 1, 0, 0)),
}
NO_DEMON = frozenset({"summoner"})  # in play, there is no Demon at the start
TOLD_ANOTHER = frozenset({"drunk", "lunatic", "marionette"})  # may be `shown` a character


def base_counts(players: int) -> Counts | None:
    return BASE_COUNTS.get(players)


def expected_counts(players: int, in_play: set[str]) -> list[Counts]:
    """Every legal count for this many players with these characters in play."""
    base = base_counts(players)
    if base is None:
        return []
    options = [SETUP_MODIFIERS[c] for c in sorted(in_play) if c in SETUP_MODIFIERS]
    return sorted({sum(combo, base) for combo in itertools.product(*options)}, key=Counts.as_tuple)


def modifiers_in_play(in_play: set[str]) -> list[str]:
    return sorted(c for c in in_play if c in SETUP_MODIFIERS)


# --- the rules -----------------------------------------------------------------------------------

_TEAM_WORD = {
    "townsfolk": ("Townsfolk", "Townsfolk"),
    "outsider": ("Outsider", "Outsiders"),
    "minion": ("Minion", "Minions"),
    "demon": ("Demon", "Demons"),
}


def count_reasons(
    players: int, counts: Counts, in_play: set[str], names: dict[str, str]
) -> tuple[list[str], Counts | None]:
    """Why the type counts are wrong (none when legal), and the legal count nearest to them."""
    legal = expected_counts(players, in_play)
    if not legal:
        return [f"{players} players: the official setups are for 5 to 15 players"], None
    if counts in legal:
        return [], counts
    nearest = min(
        legal,
        key=lambda c: sum(abs(a - b) for a, b in zip(c.as_tuple(), counts.as_tuple(), strict=True)),
    )
    mods = modifiers_in_play(in_play)
    who = " and ".join(names.get(m, m) for m in mods) + " in play" if mods else f"{players} players"
    reasons = []
    for team in TEAMS:
        got = getattr(counts, team)
        allowed = sorted({getattr(c, team) for c in legal})
        if got not in allowed or getattr(nearest, team) != got:
            word = _TEAM_WORD[team][1 if max(allowed) != 1 else 0]
            wanted = " or ".join(str(a) for a in allowed)
            reasons.append(f"{who}: expected {wanted} {word}, got {got}")
    if not reasons:  # each count is allowed alone but not together
        reasons.append(f"{who}: these counts do not go together ({_counts_text(counts)})")
    return reasons, nearest


def _counts_text(c: Counts) -> str:
    return ", ".join(f"{getattr(c, t)} {_TEAM_WORD[t][1]}" for t in TEAMS)


def duplicate_reasons(roles: dict[str, str], names: dict[str, str]) -> list[str]:
    """Each character is in play at most once."""
    seen = Counter(roles.values())
    return [
        f"{names[c]} is given to {n} players ({', '.join(p for p, r in roles.items() if r == c)})"
        for c, n in seen.items()
        if n > 1
    ]


def shown_reasons(
    roles: dict[str, str], shown: dict[str, str], teams: dict[str, str], names: dict[str, str]
) -> list[str]:
    """The Drunk is told a Townsfolk that is not in play; only the Drunk, Lunatic and Marionette
    are told another character."""
    reasons = []
    in_play = set(roles.values())
    for player, told in shown.items():
        role = roles[player]
        if role not in TOLD_ANOTHER:
            reasons.append(f"{player} is the {names[role]}, who is told their own character")
        elif role == "drunk" and teams.get(told) != "townsfolk":
            reasons.append(f"the Drunk ({player}) must be shown a Townsfolk, not the {names[told]}")
        elif role == "drunk" and told in in_play:
            reasons.append(f"the Drunk ({player}) is shown the {names[told]}, who is in play")
    for player, role in roles.items():
        if role == "drunk" and player not in shown:
            reasons.append(f"the Drunk ({player}) needs shown = a Townsfolk not in play")
    return reasons


def required_reasons(in_play: set[str], names: dict[str, str]) -> list[str]:
    """Characters that bring another: the Huntsman brings the Damsel."""
    if "huntsman" in in_play and "damsel" not in in_play:
        huntsman, damsel = names.get("huntsman", "Huntsman"), names.get("damsel", "Damsel")
        return [f"{huntsman} in play: the {damsel} must be in play"]
    return []


def bluff_reasons(
    bluffs: list[str], in_play: set[str], teams: dict[str, str], names: dict[str, str], needed: bool
) -> list[str]:
    """The Demon's (or Summoner's) three bluffs: good characters not in play."""
    reasons = []
    if needed and len(bluffs) != 3:
        reasons.append(f"the Demon gets 3 bluffs, not {len(bluffs)}")
    for b in bluffs:
        if teams.get(b) not in ("townsfolk", "outsider"):
            reasons.append(f"bluff {names[b]} is not a good character")
        elif b in in_play:
            reasons.append(f"bluff {names[b]} is in play")
    if len(set(bluffs)) != len(bluffs):
        reasons.append("a bluff is listed twice")
    return reasons


def red_herring_reasons(
    red_herring: str | None, roles: dict[str, str], teams: dict[str, str]
) -> list[str]:
    """The Fortune Teller's red herring: a good player, chosen when the Fortune Teller is in."""
    if red_herring is None:
        return (
            ["the Fortune Teller is in play: choose a red herring (a good player)"]
            if "fortuneteller" in roles.values()
            else []
        )
    if red_herring not in roles:
        return [f"red herring {red_herring!r} is not a player"]
    if teams[roles[red_herring]] not in ("townsfolk", "outsider"):
        return [f"red herring {red_herring} is not good"]
    return []


# --- the check -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SetupCheck:
    valid: bool
    reasons: tuple[str, ...]
    counts: Counts
    expected: Counts | None

    def as_json(self) -> dict:
        return {
            "valid": self.valid,
            "reasons": list(self.reasons),
            "counts": self.counts.as_dict(),
            "expected": self.expected.as_dict() if self.expected else None,
        }

    def summary(self) -> str:
        return ", ".join(f"{v} {k}" for k, v in self.counts.as_dict().items())


def check_setup(
    script,
    roles: dict[str, str],
    shown: dict[str, str] | None = None,
    bluffs: list[str] | None = None,
    red_herring: str | None = None,
) -> SetupCheck:
    """Is this a legal setup of the script? `roles`: player -> character id (Travellers are not
    counted); `shown`: player -> the character they are told; bluffs are character ids."""
    chars: dict[str, Character] = script.characters
    teams = {cid: c.team for cid, c in chars.items()}
    names = {cid: c.name for cid, c in chars.items()}
    counted = {p: r for p, r in roles.items() if teams[r] in TEAMS}
    in_play = set(counted.values())
    counts = Counts(*(sum(1 for r in counted.values() if teams[r] == t) for t in TEAMS))
    reasons, nearest = count_reasons(len(counted), counts, in_play, names)
    reasons += duplicate_reasons(counted, names)
    reasons += required_reasons(in_play, names)
    reasons += shown_reasons(counted, shown or {}, teams, names)
    has_demon = counts.demon > 0 or bool(in_play & NO_DEMON)
    reasons += bluff_reasons(
        bluffs or [], in_play, teams, names, needed=has_demon and len(counted) >= 7
    )
    reasons += red_herring_reasons(red_herring, counted, teams)
    return SetupCheck(not reasons, tuple(reasons), counts, nearest)


# --- the draw ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Draw:
    seed: int
    seats: tuple[str, ...]  # players in seat order (seat 1 first)
    roles: dict[str, str]
    shown: dict[str, str]
    bluffs: tuple[str, ...]
    red_herring: str | None

    def as_event(self) -> dict:
        return {
            "kind": "setup",
            "seed": self.seed,
            "players": [
                {
                    "player": p,
                    "seat": i,
                    "role": self.roles[p],
                    **({"shown": self.shown[p]} if p in self.shown else {}),
                }
                for i, p in enumerate(self.seats, 1)
            ],
            "bluffs": list(self.bluffs),
            **({"red_herring": self.red_herring} if self.red_herring else {}),
        }


def draw_setup(script, players: list[str], seed: int, attempts: int = 2000) -> Draw:
    """A legal set of characters and seats for these players, drawn with `seed` (the same seed
    gives the same draw): the Demon and Minions first, then the counts their modifiers allow,
    then Outsiders and Townsfolk; the Drunk's shown Townsfolk, three bluffs and a red herring."""
    rng = random.Random(seed)
    n = len(players)
    if base_counts(n) is None:
        raise ModToolError(f"{n} players: the official setups are for 5 to 15 players")
    pool = {t: [c.id for c in script.of_team(t)] for t in TEAMS}
    for _ in range(attempts):
        base = base_counts(n)
        minions = _sample(rng, pool["minion"], base.minion)
        demons = [] if set(minions) & NO_DEMON else _sample(rng, pool["demon"], base.demon)
        if minions is None or demons is None:
            continue
        chosen = set(minions) | set(demons)
        counts = rng.choice(expected_counts(n, chosen))
        outsiders = _sample(rng, pool["outsider"], counts.outsider)
        townsfolk = _sample(rng, pool["townsfolk"], counts.townsfolk)
        if outsiders is None or townsfolk is None:
            continue
        in_play = [*townsfolk, *outsiders, *minions, *demons]
        if counts not in expected_counts(n, set(in_play)):
            continue  # a Townsfolk drawn (the Huntsman) changed what is legal: draw again
        if required_reasons(set(in_play), {}):
            continue
        rng.shuffle(in_play)
        seats = list(players)
        rng.shuffle(seats)
        roles = dict(zip(seats, in_play, strict=True))
        unused_good = [c for c in pool["townsfolk"] + pool["outsider"] if c not in in_play]
        shown = {}
        for p, r in roles.items():
            if r == "drunk":
                spare = [c for c in pool["townsfolk"] if c not in in_play]
                if not spare:
                    break
                shown[p] = rng.choice(spare)
        else:
            spare = [c for c in unused_good if c not in shown.values()]
            if len(spare) < 3:
                continue
            bluffs = tuple(rng.sample(spare, 3))
            good = [
                p for p in seats if script.characters[roles[p]].team in ("townsfolk", "outsider")
            ]
            herring = rng.choice(good) if "fortuneteller" in in_play else None
            draw = Draw(seed, tuple(seats), roles, shown, bluffs, herring)
            if check_setup(script, roles, shown, list(bluffs), herring).valid:
                return draw
    raise ModToolError(
        f"no legal setup of {script.name} for {n} players was found in {attempts} draws; the "
        "script may lack enough characters of a type"
    )


def _sample(rng: random.Random, pool: list[str], k: int) -> list[str] | None:
    if k < 0 or k > len(pool):
        return None
    return rng.sample(pool, k)


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


# --- on a game folder ----------------------------------------------------------------------------


def _clocktower(game):
    if game.clocktower is None:
        raise ModToolError(
            f"{game.folder / 'game.toml'}: setup needs a Clocktower script; add "
            'script = "trouble-brewing-forum" (or another script) to game.toml'
        )
    return game.clocktower


def check_game(game):
    """`modtool setup check`: the game's characters (game.toml, or the latest recorded draw)."""
    if game.script == "vampires":
        return check_vampires(game)
    script = _clocktower(game)
    missing = [s.key for s in game.slots if s.role is None]
    if missing:
        counts = Counts(0, 0, 0, 0)
        return SetupCheck(False, tuple(f"{p} has no role" for p in missing), counts, None)
    roles = {s.key: s.role for s in game.slots}
    shown = {s.key: s.shown for s in game.slots if s.shown}
    bluffs = [script.find(b).id for b in game.setup.get("bluffs", [])]
    herring = game.setup.get("red_herring")
    if herring is not None:
        herring = game.find_slot(herring) or herring
    return check_setup(script, roles, shown, bluffs, herring)


def draw_game(game, seed: int) -> Draw:
    """`modtool setup draw`: a legal draw for the game's players (their first names)."""
    if game.script == "vampires":
        return draw_vampires(game, seed)
    return draw_setup(_clocktower(game), [s.key for s in game.slots], seed)


def commit_game(game, salt: str) -> tuple[str, str]:
    """The commitment hash and the text it hashes (to reveal at the end)."""
    script = None if game.script == "vampires" else _clocktower(game)
    check = check_game(game)
    if not check.valid:
        raise ModToolError(f"the setup is not legal ({check.reasons[0]}); see modtool setup check")
    slots = sorted(game.slots, key=lambda s: (s.seat is None, s.seat or 0))
    seats = [s.key for s in slots]
    roles = {s.key: s.role for s in slots}
    shown = {s.key: s.shown for s in slots if s.shown}
    bluffs = [script.find(b).id for b in game.setup.get("bluffs", [])] if script else []
    herring = game.setup.get("red_herring")
    name = script.name if script else "Vampires (seed 004)"
    text = commitment_text(game.title, name, seats, roles, shown, bluffs, herring, salt)
    return sha256(text), text


# --- the Vampires setup (seed 004) ---------------------------------------------------------------

VAMPIRES_MIN_PLAYERS = 13  # seed 004: "The minimum recommended number of players is 13."


@dataclass(frozen=True)
class VampireCheck:
    valid: bool
    reasons: tuple[str, ...]
    warnings: tuple[str, ...]
    factions: dict[str, int]

    def as_json(self) -> dict:
        return {
            "valid": self.valid,
            "reasons": list(self.reasons),
            "warnings": list(self.warnings),
            "factions": self.factions,
        }

    def summary(self) -> str:
        return ", ".join(f"{n} {f}" for f, n in self.factions.items())


def vampire_reasons(roles: list[str]) -> tuple[list[str], list[str]]:
    """What makes a Vampires role list illegal (reasons) or unwise (warnings): at least one
    Vampire; the Slayer is "none at start"; fewer than 13 players is below the seed's minimum."""
    from .roles import vampire_setup

    setup = vampire_setup()
    reasons, warnings = [], []
    ids = [setup.role(r).id for r in roles]
    if "vampire" not in ids:
        reasons.append("no Vampire in the role list")
    if "slayer" in ids:
        reasons.append("the Slayer is not given at the start (the Watcher makes one)")
    vampires = ids.count("vampire")
    if vampires and vampires_won_at_start(vampires, len(ids)):
        reasons.append(
            f"{vampires} Vampires of {len(ids)} players have won before the game starts (the "
            'Vampires "win when your faction comprises at least half of the village"; "for '
            'now, the villagers outnumber you")'
        )
    if len(ids) < VAMPIRES_MIN_PLAYERS:
        warnings.append(f"{len(ids)} players: seed 004 recommends at least {VAMPIRES_MIN_PLAYERS}")
    return reasons, warnings


def vampires_won_at_start(vampires: int, players: int) -> bool:
    """Seed 004: the Vampires win at half the village; the game starts with the villagers
    outnumbering them."""
    return 2 * vampires >= players


def check_vampires(game) -> VampireCheck:
    from .roles import vampire_setup

    setup = vampire_setup()
    missing = [s.key for s in game.slots if s.role is None]
    if missing:
        return VampireCheck(False, tuple(f"{p} has no role" for p in missing), (), {})
    reasons, warnings = vampire_reasons([s.role for s in game.slots])
    factions: dict[str, int] = {}
    for s in game.slots:
        faction = setup.role(s.role).faction
        factions[faction] = factions.get(faction, 0) + 1
    return VampireCheck(not reasons, tuple(reasons), tuple(warnings), factions)


def draw_vampires(game, seed: int) -> Draw:
    """Seed 004's way: "shuffle the list of players, then assign each player the role
    corresponding to their position in the shuffled list" (`[setup] roles`, in order), with
    a recorded seed."""
    from .roles import vampire_setup

    roles = [vampire_setup().role(r).id for r in game.setup.get("roles", [])]
    players = [s.key for s in game.slots]
    if len(roles) != len(players):
        raise ModToolError(
            f"[setup] roles lists {len(roles)} roles for {len(players)} players; list one role "
            "per player, in order"
        )
    reasons, _ = vampire_reasons(roles)
    if reasons:
        raise ModToolError(f"[setup] roles: {reasons[0]}")
    shuffled = list(players)
    random.Random(seed).shuffle(shuffled)
    return Draw(seed, tuple(shuffled), dict(zip(shuffled, roles, strict=True)), {}, (), None)


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
        return f"it is in {'Night' if now.is_night else 'Day'} {now.number}"
    played = next((e for e in game.events if e.kind in PLAY_KINDS), None)
    if played is not None:
        return f"ledger line {played.line} records play ({played.kind.value})"
    return None


def record_setup(game: Game, event: dict, force: bool = False) -> dict:
    """Append a drawn setup. After the game has started a new setup would replace every
    character for the whole game, so it is refused unless `force`, which the line records."""

    written: list[dict] = []

    def checked(current: Game) -> list[dict]:
        started = game_started(current)
        if started is not None and not force:
            raise ModToolError(
                f"the game has started ({started}): a new setup would replace every character "
                "for the whole game; add --force if you mean it (the line records it)"
            )
        line = event if started is None else {**event, "forced": True, "note": started}
        written[:] = [line]
        return written

    append_computed(game, checked)
    return written[0]
