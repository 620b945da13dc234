"""The PM lines of a Vampires night are made from its records (the answers and effects the JSON
gives), so the PMs, the terminal and the JSON cannot disagree; a player killed tonight is sent
nothing, and the JSON marks their answers as not sent."""

from __future__ import annotations

import pytest

from modtool.games.vampires.game import (
    CANCELLED_PM,
    Answer,
    Effect,
    NightOutcome,
    answer_text,
    effect_pm,
    night_pms,
    record_pm,
    role_change_pm,
)
from modtool.games.vampires.readings import Taken

from .test_vampires_rules import _night

NAMES = {"d": "Dune", "v": "Ash", "p": "Iris", "k": "Kale", "a": "Juniper", "b": "Birch"}
NAME = NAMES.get


@pytest.mark.parametrize(
    ("effect", "told"),
    [
        (
            Effect("cancelled", "d", "v"),
            ("d", "You distracted Ash: their night plan is cancelled."),
        ),
        (Effect("protected", "p", "k"), ("p", "You protected Kale.")),
        (Effect("treatment", "a", "b", "nothing"), ("a", "You treated Birch.")),
        (Effect("treatment", "a", "v", "apothecary dies"), ("a", "You treated Ash.")),
        (
            Effect("link", "k", "b", "new"),
            (
                "b",
                "The Watcher, Kale, has contacted you: you have always been The Chosen One, and "
                "you are now also The Slayer, with a secret meeting with the Watcher.",
            ),
        ),
        (
            Effect("link", "k", "b", "again"),
            (
                "b",
                "The Watcher, Kale, has contacted you again: you are The Chosen One and already "
                "The Slayer, with a secret meeting with the Watcher.",
            ),
        ),
        # "Contagious Paranoia": the paranoid player is not told; a Drain tells nobody
        (Effect("paranoid", "p", "k"), None),
        (Effect("drain", "v", "b", "dies"), None),
        (Effect("drain", "v", "b", "protected"), None),
    ],
)
def test_whom_an_effect_tells_and_what(effect, told):
    assert effect_pm(effect, NAME) == told
    assert record_pm(effect, NAME) == told


@pytest.mark.parametrize(
    ("answer", "line"),
    [
        (
            Answer("b", "investigation", "v", "Vampire", "Not a Vampire", "paranoid"),
            "Your investigation of Ash: Vampire.",
        ),
        (
            Answer("k", "search", "b", "The Chosen One", "The Chosen One"),
            "Your search of Birch: The Chosen One.",
        ),
        (
            Answer("p", "observation", "v", ("b", "k"), ("b", "k")),
            "You followed Ash: they targeted Birch, Kale.",
        ),
        (Answer("p", "observation", "v", (), ()), "You followed Ash: they did not target anyone."),
    ],
)
def test_an_answer_tells_its_player_the_said_value(answer, line):
    assert answer_text(answer, NAME) == line
    assert record_pm(answer, NAME) == (answer.player, line)


@pytest.mark.parametrize(
    ("role", "cause", "line"),
    [
        (
            "priest",
            "ascension",
            "Ascension: you are no longer a Faithful Villager; you are now the Priest.",
        ),
        (
            "watcher",
            "ascension",
            "Ascension: you are no longer a Faithful Villager; you are now The Watcher.",
        ),
        (
            "scion",
            "conversion",
            "Conversion: you have left the Village; you are now a Scion of "
            "Death, of the Death Cult.",
        ),
    ],
)
def test_a_role_change_tells_the_heir(role, cause, line):
    assert role_change_pm(role, cause) == line


def _outcome(**fields) -> NightOutcome:
    return NightOutcome(names=dict(NAMES), **fields)


def test_the_pms_follow_the_records_in_night_order():
    out = _outcome(
        records=[
            Effect("cancelled", "d", "v"),
            Effect("cancelled", "k", "v"),  # told once, however many distract them
            Effect("protected", "p", "b"),
            Answer("b", "investigation", "v", "Vampire", "Vampire"),
        ],
        role_changes=[("a", "priest", "ascension")],
        day_role_changes=[("b", "paladin", 1)],
        readings=[Taken("distracted", "told")],
    )
    assert night_pms(out) == {
        "d": ["You distracted Ash: their night plan is cancelled."],
        "k": ["You distracted Ash: their night plan is cancelled."],
        "v": [CANCELLED_PM],
        "p": ["You protected Birch."],
        "b": [
            "Ascension: you are no longer a Faithful Villager; you are now the Overzealous "
            "Paladin.",
            "Your investigation of Ash: Vampire.",
        ],
        "a": ["Ascension: you are no longer a Faithful Villager; you are now the Priest."],
    }
    assert out.results == night_pms(out)
    assert "v" not in night_pms(_outcome(records=out.records))  # distracted = not-told


@pytest.mark.parametrize(("choice", "sent_to_birch"), [("no-results", False), ("results", True)])
def test_a_player_killed_tonight_is_sent_nothing_by_the_reading(choice, sent_to_birch):
    """Reading killed-tonight: "A player killed in the night: do they still get their result?"
    (the game does not say); a day's ascension of theirs is withheld too."""
    out = _outcome(
        records=[Answer("b", "investigation", "v", "Vampire", "Vampire")],
        day_role_changes=[("b", "priest", 1)],
        deaths=[("b", "drained")],
        readings=[Taken("killed-tonight", choice)],
    )
    assert out.unsent() == (set() if sent_to_birch else {"b"})
    assert ("b" in night_pms(out)) is sent_to_birch


@pytest.mark.parametrize("choice", [None, "results"])
def test_the_json_answers_say_which_pm_lines_are_sent(tmp_path, choice):
    """Birch, the Priest, investigates Grove and is drained by Ash: by default Birch gets no PM
    and the JSON keeps the answer with "sent": false; with killed-tonight = results, it is
    sent and is Birch's PM line."""
    night = _night(
        tmp_path,
        [("Ash", "Birch"), ("Birch", "Grove")],
        {"killed-tonight": choice} if choice else None,
    )
    (answer,) = [a for a in night["answers"] if a["player"] == "Birch"]
    assert answer["sent"] is (choice == "results")
    for a in night["answers"]:
        said = a["said"]["value"]  # investigations and searches: a verdict
        line = f"Your {a['ability']} of {a['target']}: {said}."
        assert (line in night["results"].get(a["player"], [])) is a["sent"], a
