"""Clocktower setups: the official character-type counts, the setup modifiers of the characters
on the seed scripts, a check of the host's characters and a seeded draw of a legal set.

Each rule is one small function; `check_setup` runs them all and collects their reasons.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

from ...core.setups import Draw
from ...errors import ModToolError
from ...threads.frozen import frozen
from .roles import Character
from .scripts import script_of

TEAMS = ("townsfolk", "outsider", "minion", "demon")


@frozen
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


@frozen(slots=False)
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


def draw_setup(
    script, players: list[str], seed: int, attempts: int = 2000, shuffle_seats: bool = True
) -> Draw:
    """A legal set of characters for these players, and their seats, drawn with `seed` (the
    same seed gives the same draw): the Demon and Minions first, then the counts their
    modifiers allow, then Outsiders and Townsfolk; the Drunk's shown Townsfolk, three bluffs
    and a red herring. Without `shuffle_seats` the players keep their order as seats."""
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
        if shuffle_seats:
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


# --- on a game folder ----------------------------------------------------------------------------


def _script(game):
    script = script_of(game)
    if script is None:
        raise ModToolError(
            f"{game.folder / 'game.toml'}: setup needs a Clocktower script; add "
            'script = "trouble-brewing-forum" (or another script) to game.toml'
        )
    return script


def check_game(game) -> SetupCheck:
    """`modtool setup check`: the game's characters (game.toml, or the latest recorded draw)."""
    script = _script(game)
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


def draw_game(game, seed: int, shuffle_seats: bool = False) -> Draw:
    """`modtool setup draw`: a legal draw for the game's players (their first names). Players
    whose seats game.toml gives all keep them: the seats are the player list the thread
    shows, whose neighbours the Empath and the Chef read ("the player list loops around");
    the seats are drawn too where a seat is missing, or when `shuffle_seats` says so."""
    seated = all(s.seat is not None for s in game.slots)
    players = sorted(game.slots, key=lambda s: s.seat) if seated else list(game.slots)
    keys = [s.key for s in players]
    return draw_setup(_script(game), keys, seed, shuffle_seats=shuffle_seats or not seated)
