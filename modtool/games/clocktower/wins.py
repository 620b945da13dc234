"""Clocktower win checks: one small pure function per way a game ends on the seed scripts, and
`check_day` that runs them at the start of a day (after the night's deaths) and at its end
(after the execution, or none).

The forum Clocktower game: "Good wins when the Demon is eliminated. Evil wins when there are only
two players alive and at least one of them is Evil"; the Saint: "Evil wins if you are lynched"; the
Mayor:
"Good wins if a day ends without a lynch and with exactly three players alive"; the Scarlet
Woman: "If you and at least three other players are alive after the Demon dies, you become the
new Demon". Almanacs 000 and 002 add the Vortox, the Lleech, the Goblin, the Damsel, the
Summoner and the Politician.
"""

from __future__ import annotations

from enum import StrEnum

from ...core.results import Win, WinCheck


class WinRule(StrEnum):
    DEMON_DEAD = "the Demon is dead"
    TWO_ALIVE = "only two players are alive"
    SAINT = "the Saint was executed"
    MAYOR = "three alive and no execution, with the Mayor alive"
    VORTOX = "no execution while the Vortox lives"
    GOBLIN = "the Goblin was executed after claiming"
    DAMSEL = "a Minion guessed the Damsel"
    SUMMONER = "no Demon after the Summoner's third night"


# --- the rules ---------------------------------------------------------------------------------


def scarlet_woman_takes_over(sw_alive_and_sober: bool, alive_after_death: int) -> bool:
    """The forum Clocktower game: the Scarlet Woman "and at least three other players are alive
    after the Demon dies" (the Demon not counted): five or more alive when the Demon died."""
    return sw_alive_and_sober and alive_after_death >= 4


def demon_dead(demons_alive: int, demon_possible_later: bool) -> Win | None:
    if demons_alive == 0 and not demon_possible_later:
        return Win("good", WinRule.DEMON_DEAD, "the Demon is dead")
    return None


def two_alive(alive: int, evil_alive: int) -> Win | None:
    if alive <= 2 and evil_alive > 0:
        return Win("evil", WinRule.TWO_ALIVE, f"only {alive} players are alive")
    return None


def saint_executed(executed_character: str | None, saint_works: bool) -> Win | None:
    if executed_character == "saint" and saint_works:
        return Win("evil", WinRule.SAINT, "the Saint was executed")
    return None


def mayor_win(executed: bool, alive: int, mayor_works: bool) -> Win | None:
    if not executed and alive == 3 and mayor_works:
        return Win("good", WinRule.MAYOR, "the day ended without an execution with 3 alive")
    return None


def vortox_win(executed: bool, vortox_works: bool) -> Win | None:
    if not executed and vortox_works:
        return Win("evil", WinRule.VORTOX, "nobody was executed while the Vortox lives")
    return None


def goblin_win(executed_character: str | None, claimed: bool, goblin_works: bool) -> Win | None:
    if executed_character == "goblin" and claimed and goblin_works:
        return Win("evil", WinRule.GOBLIN, "the Goblin was executed after claiming")
    return None


def damsel_guessed(guesser_team: str | None, target_character: str | None) -> Win | None:
    if guesser_team == "minion" and target_character == "damsel":
        return Win("evil", WinRule.DAMSEL, "a Minion guessed the Damsel")
    return None


def summoner_without_demon(demons_alive: int, summoner_can_still_summon: bool) -> Win | None:
    if demons_alive == 0 and not summoner_can_still_summon:
        return Win("good", WinRule.SUMMONER, "there is no Demon and none can be summoned")
    return None


def lleech_survives_execution(host_alive: bool) -> bool:
    """The Lleech: "You die if & only if they are dead." Executed while its host lives, it lives."""
    return host_alive


# --- a day ---------------------------------------------------------------------------------------


def check_day(
    grimoire,
    alive: set[str],
    day: int,
    executed: str | None = None,
    ended: bool = False,
    guesses: tuple = (),
    claimed: frozenset = frozenset(),
) -> WinCheck:
    """The win check of a day (see `_check_day`), with the Politician noted on a win."""
    check = _check_day(grimoire, alive, day, executed, ended, guesses, claimed)
    if check.win is None:
        return check
    seats = {s.slot: s for s in grimoire.seats}
    return WinCheck(check.win, check.notes + _politician(seats, check.win))


def _check_day(grimoire, alive, day, executed, ended, guesses, claimed) -> WinCheck:
    """The win check of a day. `grimoire`: at the start of the day; `alive`: the living slots
    now (after the day's deaths so far, the executed player still counted as alive);
    `executed`: the slot executed at the day's end; `ended`: the day is over; `guesses`: the
    Damsel guesses of the day as (guesser slot, target slot); `claimed`: the slots that claimed
    to be the Goblin today (a `day_ability` goblin_claim, or a `claimed` reminder)."""
    seats = {s.slot: s for s in grimoire.seats}
    if not any(seat.character for seat in seats.values()):
        return WinCheck(None, ())  # no characters dealt yet: nobody can have won

    def works(slot: str) -> bool:
        return slot in alive and not seats[slot].drunk_or_poisoned

    def holders(character: str) -> list[str]:
        return [s for s, seat in seats.items() if seat.character == character]

    notes: list[str] = []
    for guesser, target in guesses:
        win = damsel_guessed(seats[guesser].team, seats[target].character)
        if win:
            return WinCheck(win)
    living = set(alive)
    if executed is not None:
        character = seats[executed].character
        saint = any(works(s) for s in holders("saint"))
        claimed = executed in claimed or seats[executed].has("claimed")
        for win in (
            saint_executed(character, saint),
            goblin_win(character, claimed, not seats[executed].drunk_or_poisoned),
        ):
            if win:
                return WinCheck(win)
        lleech_hosts = [s for s, seat in seats.items() if seat.has("lleech_host")]
        if character == "lleech" and any(h in alive for h in lleech_hosts):
            notes.append("the Lleech was executed but its host lives: the Lleech does not die")
        else:
            living.discard(executed)
            if seats[executed].has("lleech_host"):
                # the almanac: "If the player that the Lleech chose dies, the Lleech dies"
                living -= set(holders("lleech"))
    if ended and executed is None:
        for win in (
            mayor_win(False, len(living), any(works(s) for s in holders("mayor"))),
            vortox_win(False, any(works(s) for s in holders("vortox"))),
        ):
            if win:
                return WinCheck(win, tuple(notes))
    demons = [s for s in living if seats[s].team == "demon"]
    if not demons:
        sw = [s for s in holders("scarletwoman") if s in living]
        if sw and scarlet_woman_takes_over(works(sw[0]), len(living)):
            notes.append(
                f"the Scarlet Woman ({seats[sw[0]].player}) becomes the Demon: record it "
                "with modtool record character"
            )
            return WinCheck(None, tuple(notes))
        summoners = [s for s in holders("summoner") if s in living]
        can_summon = bool(summoners) and day <= 3
        if holders("summoner") and not any(seats[s].team == "demon" for s in seats):
            win = summoner_without_demon(0, can_summon)
        else:
            win = demon_dead(0, False)
        if win:
            return WinCheck(win, tuple(notes))
        return WinCheck(None, tuple(notes))
    evil = [s for s in living if seats[s].alignment == "evil"]
    return WinCheck(two_alive(len(living), len(evil)), tuple(notes))


def _politician(seats: dict, win: Win) -> tuple[str, ...]:
    """The Politician "change[s] alignment & win[s]" when most responsible for their team's
    loss: the Storyteller decides, so the check only says so."""
    return tuple(
        f"the Politician ({s.player}) is on the losing team: if they were the player most "
        "responsible, they win instead (the Storyteller decides)"
        for s in seats.values()
        if s.character == "politician" and s.alignment not in (None, win.winner)
    )
