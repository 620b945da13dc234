"""What a Clocktower character may choose at night: how many players, whether themself, whether
only living players, and whether it chooses that night at all (its place in the night order of
modtool/data/characters.json or the script; Night 0 is the first night). `modtool record
choice` refuses a choice against these rules when it is recorded, and `modtool night --resolve`
refuses one already in the ledger (recorded before, or by hand) rather than use part of it.

Each rule is a small pure function of the `ChoiceRule` and the names chosen (or, for a rule of
the game's state such as the Imp's star-pass, of what the grimoire holds); `choice_problem`
applies them to a recorded choice with the grimoire of its night.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...core.ledger import LEDGER_FILE, Event, EventKind, Game, NightChoice
from ...errors import GameFileError
from ...threads.frozen import frozen
from .grimoire import Grimoire, grimoire_at
from .scripts import Script, script_of


@frozen
class ChoiceRule:
    """The players a character chooses when it wakes, from its ability's words."""

    players: tuple[int, ...] = (1,)  # how many it may choose ((0,): it only learns or acts)
    self_allowed: bool = True  # False: "(not yourself)"
    alive_only: bool = False  # "choose 2 alive players"
    first_night: bool = True  # False: its first-night wake only teaches it (the Godfather)
    only_night: int | None = None  # the Summoner: "On the 3rd night" (Night 2)
    names_character: bool = False  # the Gambler's guess, the Summoner's Demon (--character)


CHOOSES_NO_ONE = ChoiceRule(players=(0,))

# Every character of the shipped scripts that wakes at night. Trouble Brewing in the forum game's
# words ("all roles have a Night 0; ... abilities can be used on both living and dead players"),
# the others in the almanac's.
NIGHT_CHOICES: dict[str, ChoiceRule] = {
    "fortuneteller": ChoiceRule(players=(2,)),  # "choose two players"; may be the Red Herring
    "monk": ChoiceRule(self_allowed=False),  # "choose a player other than yourself"
    "ravenkeeper": ChoiceRule(),  # "If you die at night, choose a player"
    "butler": ChoiceRule(self_allowed=False),  # "choose a player other than yourself"
    "poisoner": ChoiceRule(),
    "imp": ChoiceRule(),  # "you may kill yourself": the star-pass
    "witch": ChoiceRule(),
    "nodashii": ChoiceRule(),
    "vortox": ChoiceRule(),
    "lleech": ChoiceRule(),  # "You start by choosing a player", then "choose a player: they die"
    "chambermaid": ChoiceRule(players=(2,), self_allowed=False, alive_only=True),
    "dreamer": ChoiceRule(self_allowed=False),  # "(not yourself or Travellers)"
    "innkeeper": ChoiceRule(players=(2,)),
    "gambler": ChoiceRule(names_character=True),  # "choose a player & guess their character"
    "huntsman": ChoiceRule(alive_only=True),  # "choose a living player"
    "godfather": ChoiceRule(first_night=False),  # "If 1 died today, choose a player tonight"
    "summoner": ChoiceRule(first_night=False, only_night=2, names_character=True),
    "po": ChoiceRule(players=(0, 1, 3)),  # "you may choose a player ... choose 3 players"
    **dict.fromkeys(
        (
            *("chef", "empath", "investigator", "librarian", "undertaker", "washerwoman"),
            *("scarletwoman", "spy", "juggler", "pixie", "towncrier", "tinker", "damsel"),
            "yaggababble",
        ),
        CHOOSES_NO_ONE,
    ),
}

_COUNTED = {0: "no one", 1: "1 player", 2: "2 players", 3: "3 players"}
_RECORD = {0: "none", 1: "one", 2: "two", 3: "three"}


def _or(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def describe(rule: ChoiceRule) -> str:
    """The rule in words: "chooses 2 alive players, not themself"."""
    counted = _or([_COUNTED.get(n, f"{n} players") for n in rule.players])
    if rule.alive_only:
        counted = counted.replace("player", "alive player")
    return (
        "chooses "
        + counted
        + (" and a character" if rule.names_character else "")
        + ("" if rule.self_allowed else ", not themself")
    )


def night_refusal(
    rule: ChoiceRule | None, first_night: int | None, other_night: int | None, night: int
) -> str | None:
    """Why the character chooses nothing in Night `night`, or None: it has no place in the night
    order (the Slayer), or none on this kind of night (the Imp on Night 0), or it wakes then only
    to learn (the Godfather on Night 0), or chooses on one night alone (the Summoner)."""
    if first_night is None and other_night is None:
        return "does not wake at night (the night order); record no night choice for them"
    if night == 0 and first_night is None:
        return (
            "wakes on other nights, not Night 0 (the first night); record it for Night 1 or later"
        )
    if night > 0 and other_night is None:
        return "wakes on the first night (Night 0) only; record no choice for later nights"
    if rule is not None and rule.only_night is not None and night != rule.only_night:
        return f"chooses on Night {rule.only_night} only; record it for Night {rule.only_night}"
    if rule is not None and night == 0 and not rule.first_night:
        return "chooses no one on Night 0 (the first night), it only learns; record no choice"
    return None


def count_refusal(rule: ChoiceRule, chosen: Sequence[str]) -> str | None:
    """A choice of as many different players as the ability says ("choose 2 players")."""
    twice = next((c for i, c in enumerate(chosen) if c in chosen[:i]), None)
    if twice is not None:
        return f"{describe(rule)}: {twice} twice; record each player once"
    if len(chosen) in rule.players:
        return None
    named = f" ({', '.join(chosen)})" if chosen else ""
    fix = (
        "record no choice for them"
        if rule.players == (0,)
        else "record " + _or([_RECORD.get(n, str(n)) for n in rule.players])
    )
    return f"{describe(rule)}: not {len(chosen)}{named}; {fix}"


def self_refusal(rule: ChoiceRule, chooser: str, chosen: Sequence[str]) -> str | None:
    """ "(not yourself)": the chooser is not among the chosen."""
    if rule.self_allowed or chooser not in chosen:
        return None
    return f"{describe(rule)}: not {chooser}, themself; record another player"


def alive_refusal(rule: ChoiceRule, dead: Sequence[str]) -> str | None:
    """ "choose 2 alive players": none of the chosen is dead (other abilities may choose the
    dead: the forum game's "abilities can be used on both living and dead players")."""
    if not rule.alive_only or not dead:
        return None
    wanted = _or([_RECORD.get(n, str(n)) for n in rule.players if n])
    players = "a living player" if wanted == "one" else f"{wanted} living players"
    return f"{describe(rule)}: not {dead[0]}, who is dead; record {players}"


def character_refusal(rule: ChoiceRule, character: str | None) -> str | None:
    """The Gambler guesses a character and the Summoner names a Demon: --character."""
    if not rule.names_character or character is not None:
        return None
    return f"{describe(rule)}: no character given; add --character CHARACTER"


def choice_refusal(
    rule: ChoiceRule | None,
    first_night: int | None,
    other_night: int | None,
    night: int,
    chooser: str,
    chosen: Sequence[str],
    dead: Sequence[str],
    character: str | None,
) -> str | None:
    """The first rule the choice breaks, in words after "who" ("chooses 1 player: not 2 ..."),
    or None. A character the table does not know (another script's) is held to the night
    order alone."""
    found = night_refusal(rule, first_night, other_night, night)
    if found or rule is None:
        return found
    return (
        count_refusal(rule, chosen)
        or self_refusal(rule, chooser, chosen)
        or alive_refusal(rule, dead)
        or character_refusal(rule, character)
    )


def star_pass_refusal(
    acting: str, chooser: str, chosen: Sequence[str], living_minions: int
) -> str | None:
    """The Imp: "If you have at least one living Minion, you may kill yourself": a rule of the
    game's state, so it is checked with the night's grimoire."""
    if acting != "imp" or chooser not in chosen or living_minions > 0:
        return None
    return (
        f"may choose themself only with a living Minion, and none lives: not {chooser}; "
        "record another player"
    )


def choice_problem(game: Game, e: Event, last_post: int | None = None) -> str | None:
    """A recorded night choice against its character's rules, in one line, or None: the
    character acting that night (the Drunk as the Townsfolk they were told), with the night
    order of the game's script. A seat without a character (or a Drunk not told one) is not
    checked."""
    if e.kind is not EventKind.NIGHT_CHOICE or e.slot is None or e.phase is None:
        return None
    script = script_of(game)
    if script is None:
        return None
    return _problem_in(script, grimoire_at(game, e.phase), e)


def _problem_in(script: Script, grimoire: Grimoire, e: NightChoice) -> str | None:
    """`choice_problem` with the night's grimoire at hand (a night's choices share it)."""
    me = grimoire.seat(e.slot)
    acting = me.shown if me.character == "drunk" else me.character
    if acting is None or acting not in script.characters:
        return None
    facts = script.characters[acting]
    chosen = [grimoire.seat(t) for t in e.targets]
    found = choice_refusal(
        NIGHT_CHOICES.get(acting),
        facts.first_night,
        facts.other_night,
        e.phase.number,
        me.player,
        [c.player for c in chosen],
        [c.player for c in chosen if not c.alive],
        e.character,
    ) or star_pass_refusal(
        acting,
        me.player,
        [c.player for c in chosen],
        sum(1 for s in grimoire.seats if s.team == "minion" and s.alive),
    )
    if found is None:
        return None
    drunk = me.character == "drunk"
    who = f"the Drunk (told they are the {facts.name})" if drunk else f"the {facts.name}"
    return f"{me.player} is {who}, who {found}"


def refuse_broken_choices(game: Game, grimoire: Grimoire) -> None:
    """Raise on the first night choice of the grimoire's night in the ledger that its
    character's rules forbid (recorded before these checks, or written by hand), naming its line
    and the undo: the night's resolution uses every part of a choice, or none of the night."""
    found = broken_choice(game, grimoire)
    if found is not None:
        e, problem = found
        raise GameFileError(
            game.folder / LEDGER_FILE,
            f"night_choice: {problem}, after undoing this line "
            f"(modtool record undo {game.folder} {e.line})",
            e.line,
        )


def broken_choice(game: Game, grimoire: Grimoire) -> tuple[NightChoice, str] | None:
    """The first night choice of the grimoire's night that its character's rules forbid, with
    the rule it breaks, or None."""
    script = script_of(game)
    for e in game.events_of(EventKind.NIGHT_CHOICE):
        if e.phase != grimoire.phase or script is None:
            continue
        if (problem := _problem_in(script, grimoire, e)) is not None:
            return e, problem
    return None
