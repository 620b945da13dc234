"""The checks of a recorded event refuse what cannot be true and let through what a host
does: each rule of modtool/checks.py on what a Storyteller and a host really record."""

from __future__ import annotations

import json
import shutil

import pytest
from typer.testing import CliRunner

from modtool.cli import app
from modtool.core.checks import RULES, rules_by_name
from modtool.core.ledger import Phase, PhaseKind, PostRef
from modtool.games import load_game

from .conftest import EXAMPLE

runner = CliRunner()


@pytest.fixture
def game(tmp_path):
    folder = tmp_path / "g"
    shutil.copytree(EXAMPLE, folder)
    return folder


def _record(*args: str):
    return runner.invoke(app, ["record", *args])


def test_a_ravenkeeper_chooses_on_the_night_they_die(game):
    # RexFavilla (the Ravenkeeper) is killed in Night 3 and learns a character that night
    done = _record("choice", str(game), "RexFavilla", "Banana", "--night", "3")
    assert done.exit_code == 0, done.stderr


def test_a_first_night_choice_is_recorded(game):
    done = _record("choice", str(game), "Neros", "Shining", "--night", "0")
    assert done.exit_code == 0, done.stderr


def test_a_gamblers_guess_names_the_character_guessed_not_their_own(game):
    # --character is what the player chose or guessed: the Fortune Teller here names the Imp
    # (with the two players a Fortune Teller chooses)
    done = _record(
        "choice", str(game), "ILikePie5", "Banana", "Neros", "--night", "3", "--character", "Imp"
    )
    assert done.exit_code == 0, done.stderr


def test_a_new_game_with_no_days_recorded_takes_a_first_night_choice(game):
    (game / "events.jsonl").write_text("")
    done = _record("choice", str(game), "Neros", "Shining", "--night", "0")
    assert done.exit_code == 0, done.stderr
    later = _record("choice", str(game), "Neros", "Shining", "--night", "1")
    assert later.exit_code == 1 and "Night 1 has not been reached" in later.stderr


def test_an_ability_the_engine_does_not_apply_may_come_from_the_dead(game):
    # Magoroth died in Night 1; a Klutz or a Moonchild chooses after dying ("other")
    done = _record("day-ability", str(game), "Magoroth", "other", "--post", "18")
    assert done.exit_code == 0, done.stderr
    shot = _record(
        "day-ability", str(game), "Magoroth", "slayer", "--post", "18", "--target", "Banana"
    )
    assert shot.exit_code == 1 and "dead" in shot.stderr


def test_a_post_the_days_cannot_place_has_no_phase(game):
    loaded = load_game(game)
    assert loaded.phase_at(PostRef(post=20)).number == 2  # in Day 2's posts
    assert loaded.phase_at(PostRef(post=16)).is_night  # the host's post that starts Day 2
    assert loaded.phase_at(PostRef(post=0)) == Phase(0, PhaseKind.NIGHT)  # Day 1 starts after it
    assert loaded.phase_at(PostRef(post=20, thread="another")) is None


def test_end_day_closes_a_clocktower_day_counted_without_characters(game, tmp_path):
    text = (game / "game.toml").read_text()
    (game / "game.toml").write_text(
        "\n".join(line for line in text.splitlines() if not line.startswith(("role", "shown")))
        .replace('[setup]\nbluffs = ["Chef", "Soldier", "Mayor"]', "[setup]")
        .replace('red_herring = "Shining"  # the Fortune Teller\'s', "")
    )
    result = runner.invoke(app, ["end-day", str(game), "--dry-run"])
    assert "game is over" not in result.stderr, result.stderr


def test_every_rule_is_found_by_name():
    assert set(rules_by_name()) == {r.__name__ for r in RULES}
    assert "post_in_thread" in rules_by_name() and "actor_alive" in rules_by_name()


def test_recorded_lines_are_as_the_host_wrote_them(game):
    _record("choice", str(game), "RexFavilla", "Banana", "--night", "3")
    last = json.loads((game / "events.jsonl").read_text().splitlines()[-1])
    assert last == {
        "kind": "night_choice",
        "player": "RexFavilla",
        "targets": ["Banana"],
        "night": 3,
    }


def test_only_the_butler_chooses_a_master(game):
    """'Each night, choose a player (not yourself)': the Butler's ability (the almanac)."""
    done = _record("master", str(game), "Neros", "Banana", "--day", "4")
    assert done.exit_code == 1
    assert "master: Neros is not the Butler (Poisoner in Night 3); give the Butler's name" in (
        done.stderr
    )
    assert "master" not in (game / "events.jsonl").read_text()


def test_a_dead_butler_chooses_no_master(game):
    setup = game / "game.toml"
    setup.write_text(setup.read_text().replace('role = "Empath"', 'role = "Butler"'))
    done = _record("master", str(game), "awesome5000", "Banana", "--day", "4")  # died in N2
    assert done.exit_code == 1
    assert "awesome5000 is dead by Night 3" in done.stderr and "the dead choose no master" in (
        done.stderr
    )
    alive = _record("master", str(game), "awesome5000", "Banana", "--day", "2")
    assert alive.exit_code == 0, alive.stderr  # chosen in Night 1, alive then
