"""Table tests for the Clocktower rules, each row from a rule text of the seeds: the grimoire's
reminder lifetimes, the vote interactions of seed 003 and the win checks."""

from __future__ import annotations

import pytest

from modtool.core.ledger import Phase, PhaseKind
from modtool.games.clocktower.grimoire import Grimoire, Reminder, SeatState, reminder_end
from modtool.games.clocktower.rules import (
    ClocktowerRule,
    SlayerResult,
    VirginResult,
    butler_refusal,
    butler_votes_to_drop,
    slayer_shot,
    virgin_vote,
    witch_curse_kills,
)
from modtool.games.clocktower.wins import (
    WinRule,
    check_day,
    damsel_guessed,
    demon_dead,
    goblin_win,
    mayor_win,
    saint_executed,
    scarlet_woman_takes_over,
    summoner_without_demon,
    two_alive,
    vortox_win,
)


def N(n):  # noqa: N802 - reads like the forum's "N1"
    return Phase(n, PhaseKind.NIGHT)


def D(n):  # noqa: N802
    return Phase(n, PhaseKind.DAY)


@pytest.mark.parametrize(
    ("start", "lifetime", "end"),
    [
        (
            N(1),
            "night+day",
            D(2),
        ),  # seed 003: "Poisoning only lasts for a night and the following day"
        (N(0), "night+day", D(1)),
        (D(2), "night+day", N(2)),
        (N(2), "night", N(2)),
        (D(3), "day", D(3)),
        (N(0), "game", None),
    ],
)
def test_reminder_lifetimes(start, lifetime, end):
    assert reminder_end(start, lifetime) == end


@pytest.mark.parametrize(
    ("at", "active"), [(N(0), False), (N(1), True), (D(2), True), (N(2), False)]
)
def test_a_reminder_is_in_force_from_its_start_to_its_end(at, active):
    assert Reminder("poisoned", N(1), D(2)).active(at) is active


# seed 003, Butler: "you may only vote for a player if your Master is also voting for them"
@pytest.mark.parametrize(
    ("able", "master", "master_targets", "target", "refusal"),
    [
        (True, "m", {"x"}, "x", None),
        (True, "m", {"y"}, "x", ClocktowerRule.BUTLER),
        (True, "m", set(), "x", ClocktowerRule.BUTLER),
        (False, "m", set(), "x", None),  # drunk, poisoned or dead: the ability does not work
        (True, None, set(), "x", None),  # no master recorded: counted (the count warns)
    ],
)
def test_butler(able, master, master_targets, target, refusal):
    assert butler_refusal(able, master, master_targets, target) is refusal


@pytest.mark.parametrize(
    ("butler", "master", "dropped"),
    [({"x"}, {"x"}, set()), ({"x"}, set(), {"x"}), ({"x", "y"}, {"y"}, {"x"})],
)
def test_the_butlers_vote_goes_when_the_master_unvotes(butler, master, dropped):
    assert butler_votes_to_drop(butler, master) == dropped


# seed 003, Virgin: "The first time in the game that someone votes for you, if they are a
# Townsfolk, they are lynched and the day ends immediately ... the Virgin loses their ability
# if the first vote for them is cast while they are Poisoned"
@pytest.mark.parametrize(
    ("spent", "works", "team", "character", "result"),
    [
        (False, True, "townsfolk", "chef", VirginResult.EXECUTE),
        (False, True, "outsider", "drunk", VirginResult.SPENT),  # the Drunk is not a Townsfolk
        (False, True, "minion", "spy", VirginResult.STORYTELLER),  # the Spy may register
        (False, True, "minion", "poisoner", VirginResult.SPENT),
        (False, False, "townsfolk", "chef", VirginResult.SPENT),  # poisoned: spent, no trigger
        (True, True, "townsfolk", "chef", VirginResult.SPENT_BEFORE),
    ],
)
def test_virgin(spent, works, team, character, result):
    assert virgin_vote(spent, works, team, character) is result


@pytest.mark.parametrize(
    ("cursed", "witch_works", "alive", "dies"),
    [
        (True, True, 8, True),
        (False, True, 8, False),
        (True, False, 8, False),
        (True, True, 3, False),
    ],
)
def test_witch(cursed, witch_works, alive, dies):
    assert witch_curse_kills(cursed, witch_works, alive) is dies


@pytest.mark.parametrize(
    ("works", "used", "character", "team", "alive", "result"),
    [
        (True, False, "imp", "demon", True, SlayerResult.KILLS),
        (True, False, "chef", "townsfolk", True, SlayerResult.NOTHING),
        (True, False, "recluse", "outsider", True, SlayerResult.STORYTELLER),
        (False, False, "imp", "demon", True, SlayerResult.NOTHING),  # drunk or poisoned
        (True, True, "imp", "demon", True, SlayerResult.NOTHING),  # once per game
        (True, False, "imp", "demon", False, SlayerResult.NOTHING),  # "a dead player can't die"
    ],
)
def test_slayer(works, used, character, team, alive, result):
    assert slayer_shot(works, used, character, team, alive) is result


# --- win checks ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("function", "args", "rule"),
    [
        (demon_dead, (0, False), WinRule.DEMON_DEAD),
        (demon_dead, (1, False), None),
        (demon_dead, (0, True), None),
        (two_alive, (2, 1), WinRule.TWO_ALIVE),
        (two_alive, (3, 1), None),
        (saint_executed, ("saint", True), WinRule.SAINT),
        (saint_executed, ("saint", False), None),  # a poisoned Saint
        (mayor_win, (False, 3, True), WinRule.MAYOR),
        (mayor_win, (True, 3, True), None),
        (mayor_win, (False, 4, True), None),
        (vortox_win, (False, True), WinRule.VORTOX),
        (vortox_win, (True, True), None),
        (goblin_win, ("goblin", True, True), WinRule.GOBLIN),
        (goblin_win, ("goblin", False, True), None),
        (damsel_guessed, ("minion", "damsel"), WinRule.DAMSEL),
        (damsel_guessed, ("townsfolk", "damsel"), None),
        (summoner_without_demon, (0, False), WinRule.SUMMONER),
        (summoner_without_demon, (0, True), None),
    ],
)
def test_each_win_rule(function, args, rule):
    win = function(*args)
    assert (win.rule if win else None) is rule


@pytest.mark.parametrize(
    ("sober", "alive_after", "takes_over"),
    [(True, 4, True), (True, 3, False), (False, 6, False)],
)
def test_scarlet_woman_with_five_alive_when_the_demon_dies(sober, alive_after, takes_over):
    assert scarlet_woman_takes_over(sober, alive_after) is takes_over


def _grimoire(*seats) -> Grimoire:
    """Seats as (slot, character, team, alignment, reminders)."""
    return Grimoire(
        D(2),
        tuple(
            SeatState(
                s,
                s,
                i,
                c,
                None,
                t,
                a,
                True,
                None,
                tuple(Reminder(r, N(1), D(2)) for r in rem),
                None,
            )
            for i, (s, c, t, a, rem) in enumerate(seats, 1)
        ),
        (),
    )


GAME = _grimoire(
    ("imp", "imp", "demon", "evil", ()),
    ("sw", "scarletwoman", "minion", "evil", ()),
    ("saint", "saint", "outsider", "good", ()),
    ("mayor", "mayor", "townsfolk", "good", ()),
    ("chef", "chef", "townsfolk", "good", ()),
    ("pol", "politician", "outsider", "good", ()),
)


@pytest.mark.parametrize(
    ("alive", "executed", "ended", "winner", "rule", "note"),
    [
        (
            {"imp", "sw", "saint", "mayor", "chef", "pol"},
            "saint",
            True,
            "evil",
            WinRule.SAINT,
            "Politician (pol)",
        ),
        ({"imp", "sw", "saint", "mayor", "chef"}, "imp", True, None, None, "Scarlet Woman (sw)"),
        ({"imp", "sw", "mayor", "chef"}, "imp", True, "good", WinRule.DEMON_DEAD, None),
        ({"imp", "mayor", "chef"}, None, True, "good", WinRule.MAYOR, None),
        ({"imp", "mayor", "chef"}, "chef", True, "evil", WinRule.TWO_ALIVE, "Politician"),
        ({"imp", "sw", "mayor", "chef"}, None, False, None, None, None),
    ],
)
def test_a_days_win_check(alive, executed, ended, winner, rule, note):
    check = check_day(GAME, alive, 2, executed, ended)
    assert (check.win.winner if check.win else None) == winner
    assert (check.win.rule if check.win else None) is rule
    if note:
        assert any(note in n for n in check.notes)
    else:
        assert check.notes == ()


def test_the_goblin_executed_after_claiming_wins_for_evil():
    grimoire = _grimoire(
        ("imp", "imp", "demon", "evil", ()),
        ("gob", "goblin", "minion", "evil", ()),
        ("a", "chef", "townsfolk", "good", ()),
        ("b", "empath", "townsfolk", "good", ()),
    )
    alive = {"imp", "gob", "a", "b"}
    assert check_day(grimoire, alive, 2, "gob", True).win is None
    won = check_day(grimoire, alive, 2, "gob", True, claimed=frozenset({"gob"}))
    assert won.win.rule is WinRule.GOBLIN
    guessed = check_day(grimoire, alive, 2, None, False, guesses=(("gob", "a"),))
    assert guessed.win is None  # the Chef is not the Damsel
