"""The night sheet and each night's information on hand-built seatings: dead neighbours
skipped, neighbours killed tonight, the red herring, the Drunk, the Spy and the Recluse,
poisoned players, the Vortox; and what the night's choices do."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from typer.testing import CliRunner

from modtool.cli import app
from modtool.core.count import count_days
from modtool.core.ledger import EventKind, Phase, PhaseKind, ReminderEvent, event_to_json
from modtool.core.results import OutcomeKind
from modtool.games import load_game
from modtool.games.clocktower.grimoire import Reminder, SeatState
from modtool.games.clocktower.night import (
    Placed,
    apply_vortox_and_poison,
    as_resolved,
    chef_options,
    demon_kill,
    evil_count_options,
    fortune_teller,
    living_neighbours,
    night_sheet,
    resolve_night,
    star_pass_heir,
    tea_lady_protected,
)

from .conftest import EXAMPLE

TEAM_OF = {
    "imp": "demon",
    "vortox": "demon",
    "nodashii": "demon",
    "poisoner": "minion",
    "spy": "minion",
    "scarletwoman": "minion",
    "baron": "minion",
    "recluse": "outsider",
    "drunk": "outsider",
    "saint": "outsider",
    "butler": "outsider",
}


def seat(slot, character, alive=True, reminders=(), shown=None):
    team = TEAM_OF.get(character, "townsfolk")
    alignment = "evil" if team in ("minion", "demon") else "good"
    rem = tuple(Reminder(r, Phase(1, PhaseKind.NIGHT), None) for r in reminders)
    return SeatState(slot, slot, None, character, shown, team, alignment, alive, None, rem, None)


@pytest.mark.parametrize(
    ("alive", "expected"),
    [
        ({"a", "b", "c", "d", "e"}, ["e", "b"]),
        ({"a", "c", "d"}, ["d", "c"]),  # dead b and e are skipped
        ({"a", "c"}, ["c"]),  # only one other lives
    ],
)
def test_living_neighbours_skip_the_dead(alive, expected):
    ring = [seat(s, "chef") for s in "abcde"]
    assert [n.slot for n in living_neighbours(ring, "a", alive)] == expected


@pytest.mark.parametrize(
    ("characters", "true", "options"),
    [
        (["imp", "chef"], 1, {1}),
        (["spy", "chef"], 1, {0, 1}),  # the Spy may register as good
        (["recluse", "imp"], 1, {1, 2}),  # the Recluse may register as evil
        (["chef", "monk"], 0, {0}),
    ],
)
def test_evil_neighbours_and_what_they_may_register_as(characters, true, options):
    assert evil_count_options([seat(str(i), c) for i, c in enumerate(characters)]) == (
        true,
        options,
    )


@pytest.mark.parametrize(
    ("characters", "true", "options"),
    [
        (["imp", "poisoner", "chef", "monk", "saint"], 1, {1}),
        (["imp", "chef", "poisoner", "monk", "saint"], 0, {0}),
        (["imp", "poisoner", "baron", "chef", "monk"], 2, {2}),
        (["imp", "recluse", "poisoner", "chef", "monk"], 0, {0, 2}),
        (["poisoner", "chef", "monk", "saint", "imp"], 1, {1}),  # the circle loops round
    ],
)
def test_chef_counts_adjacent_evil_pairs(characters, true, options):
    assert chef_options([seat(str(i), c) for i, c in enumerate(characters)]) == (true, options)


@pytest.mark.parametrize(
    ("chosen", "herring", "true", "options"),
    [
        (["imp", "chef"], None, True, {True}),
        (["monk", "chef"], None, False, {False}),
        (["monk", "chef"], "0", True, {True}),  # the red herring
        (["recluse", "chef"], None, False, {False, True}),  # the Recluse may register
    ],
)
def test_fortune_teller(chosen, herring, true, options):
    seats = [seat(str(i), c) for i, c in enumerate(chosen)]
    assert fortune_teller(seats, herring) == (true, options)


@pytest.mark.parametrize(
    ("true", "allowed", "poisoned", "vortox", "answers", "choice"),
    [
        ("1", {"1"}, None, False, ("1",), False),
        ("1", {"1", "2"}, None, False, ("1", "2"), True),
        ("1", {"1"}, "x is poisoned", False, ("0", "1", "2"), True),
        ("1", {"1"}, None, True, ("0", "2"), True),  # the Vortox: false information
        ("1", {"1"}, "x is poisoned", True, ("0", "2"), True),  # false even when poisoned
    ],
)
def test_poison_and_the_vortox(true, allowed, poisoned, vortox, answers, choice):
    got, is_choice, _ = apply_vortox_and_poison(true, allowed, ["0", "1", "2"], poisoned, vortox)
    assert (got, is_choice) == (answers, choice)


@pytest.mark.parametrize(
    ("target", "works", "monk", "tea", "result"),
    [
        (seat("t", "chef"), True, False, False, "dies"),
        (seat("t", "chef"), False, False, False, "no kill"),  # a poisoned Imp
        (seat("t", "chef"), True, True, False, "protected"),
        (seat("t", "soldier"), True, False, False, "soldier"),
        (seat("t", "soldier", reminders=("poisoned",)), True, False, False, "dies"),
        (seat("t", "chef"), True, False, True, "tea lady"),
        (seat("t", "mayor"), True, False, False, "mayor"),
        (seat("t", "chef", alive=False), True, False, False, "dead already"),
        (seat("t", "imp"), True, False, False, "star-pass"),
    ],
)
def test_the_demons_kill(target, works, monk, tea, result):
    assert demon_kill(target, works, monk, tea) == result


def test_the_star_pass_goes_to_the_scarlet_woman():
    minions = [seat("p", "poisoner"), seat("s", "scarletwoman")]
    assert star_pass_heir(minions).slot == "s"
    assert star_pass_heir([seat("p", "poisoner"), seat("b", "baron")]) is None  # ST picks
    assert star_pass_heir([seat("p", "poisoner")]).slot == "p"


def test_the_tea_lady_protects_two_good_neighbours():
    ring = [seat("a", "chef"), seat("t", "tealady"), seat("b", "monk"), seat("c", "imp")]
    assert tea_lady_protected(ring, {"a", "t", "b", "c"}) == {"a", "b"}
    ring[2] = seat("b", "poisoner")
    assert tea_lady_protected(ring, {"a", "t", "b", "c"}) == set()


# --- on a game folder --------------------------------------------------------------------------

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fin", "Gil", "Hal"]


def _game(tmp_path, roles, events=(), script="cheomseongdae", setup=""):
    folder = tmp_path / "g"
    folder.mkdir()
    players = "\n".join(
        f'[[players]]\nname = "{p}"\nseat = {i}\nrole = "{r}"\n'
        for i, (p, r) in enumerate(zip(PLAYERS, roles, strict=False), 1)
    )
    (folder / "game.toml").write_text(
        f'title = "t"\nscript = "{script}"\n[[sources]]\npath = "t.jsonl"\n{setup}\n{players}'
    )
    (folder / "t.jsonl").write_text("")
    (folder / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    return load_game(folder)


def _info(game, night, player):
    return next(s.info for s in night_sheet(game, night) if s.player == player)


ROLES = ["empath", "imp", "slayer", "poisoner", "monk", "fortuneteller", "saint", "undertaker"]


def test_the_empath_skips_the_dead_and_sees_tonights_kill(tmp_path):
    events = [
        {"kind": "death", "player": "Ben", "phase": "D1", "cause": "executed"},
        {"kind": "death", "player": "Hal", "phase": "N1", "cause": "killed"},
    ]
    # Ben executed as the Monk (an executed Imp would have ended the game: good wins)
    roles = ["empath", "monk", "slayer", "poisoner", "imp", "fortuneteller", "saint", "undertaker"]
    game = _game(tmp_path, roles, events)
    info = _info(game, 1, "Ann")
    # Ben is dead: Cat is the left neighbour; Hal died tonight before the Empath woke
    assert info.true_value == "0"
    assert info.why == (
        "living neighbours Gil and Cat after the night-kill; "
        "the Poisoner's choice is not recorded yet"  # she may yet poison the Empath
    )


def test_a_poisoned_empath_may_be_told_anything(tmp_path):
    events = [{"kind": "reminder", "player": "Ann", "reminder": "poisoned", "night": 1}]
    info = _info(_game(tmp_path, ROLES, events), 1, "Ann")
    assert info.true_value == "1" and info.allowed == ("0", "1", "2")
    assert info.storyteller_choice and "Ann is poisoned" in info.why


def test_under_the_vortox_the_empath_is_told_a_false_number(tmp_path):
    roles = ["empath", "vortox", *ROLES[2:]]
    info = _info(_game(tmp_path, roles), 1, "Ann")
    assert info.true_value == "1" and info.allowed == ("0", "2")


def test_the_fortune_teller_and_the_red_herring(tmp_path):
    events = [{"kind": "night_choice", "player": "Fin", "night": 1, "targets": ["Cat", "Eve"]}]
    plain = _info(_game(tmp_path, ROLES, events), 1, "Fin")
    assert (plain.true_value, plain.allowed) == ("No", ("No",))
    (tmp_path / "g").rename(tmp_path / "old")
    game = _game(tmp_path, ROLES, events, setup='[setup]\nred_herring = "Eve"\n')
    herring = _info(game, 1, "Fin")
    assert herring.true_value == "Yes" and "red herring" in herring.why


def test_the_undertaker_sees_the_drunk_as_the_drunk(tmp_path):
    roles = ["drunk", "imp", "slayer", "poisoner", "monk", "fortuneteller", "saint", "undertaker"]
    folder_game = _game(
        tmp_path, roles, [{"kind": "death", "player": "Ann", "phase": "D1", "cause": "executed"}]
    )
    assert _info(folder_game, 1, "Hal").allowed[0] == "Drunk"


def test_the_spy_may_show_as_a_good_character_to_the_undertaker(tmp_path):
    roles = ["spy", "imp", "chef", "poisoner", "monk", "fortuneteller", "saint", "undertaker"]
    game = _game(
        tmp_path,
        roles,
        [{"kind": "death", "player": "Ann", "phase": "D1", "cause": "executed"}],
        script="trouble-brewing-forum",
    )
    info = _info(game, 1, "Hal")
    assert info.true_value == "Spy" and "Chef" in info.allowed and info.storyteller_choice


def test_the_drunk_wakes_as_the_townsfolk_they_were_told(tmp_path):
    night0 = night_sheet(load_game(EXAMPLE), 0)
    kohai = next(s for s in night0 if s.player == "Kohai")
    assert kohai.name == "Washerwoman (the Drunk)" and kohai.info.storyteller_choice


def test_the_example_night_sheets_and_what_the_choices_do(tmp_path):
    night1 = [(s.name, s.player) for s in night_sheet(load_game(EXAMPLE), 1)]
    assert night1 == [
        ("Poisoner", "Neros"),
        ("Monk", "Magoroth"),
        ("Imp", "Banana"),
        ("Empath", "awesome5000"),
        ("Fortune Teller", "ILikePie5"),
        ("Undertaker", "whiteflame"),
    ]
    night2 = [s.player for s in night_sheet(load_game(EXAMPLE), 2)]
    assert "awesome5000" not in night2  # killed by the Imp before the Empath wakes
    resolution = resolve_night(load_game(EXAMPLE), 1)
    assert {
        "kind": "reminder",
        "player": "awesome5000",
        "reminder": "poisoned",
        "night": 1,
        "by": "poisoner",
    } in [event_to_json(e) for e in resolution.events]
    assert not any(e.kind == "death" for e in resolution.events)  # Magoroth's is recorded


def test_night_resolve_confirm_writes_the_kill(tmp_path):
    import shutil

    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    runner = CliRunner()
    early = runner.invoke(app, ["record", "choice", str(game), "Banana", "Shining", "--night", "4"])
    assert early.exit_code == 1 and "Night 4 has not been reached" in early.stderr
    runner.invoke(app, ["record", "day-end", str(game), "4", "--post", "41"])
    runner.invoke(app, ["record", "choice", str(game), "Banana", "Shining", "--night", "4"])
    result = runner.invoke(app, ["night", str(game), "--night", "4", "--resolve", "--confirm"])
    assert result.exit_code == 0, result.output
    last = json.loads((game / "events.jsonl").read_text().splitlines()[-1])
    assert last == {"kind": "death", "player": "Shining", "phase": "N4", "cause": "killed"}
    again = runner.invoke(app, ["night", str(game), "--night", "4", "--resolve", "--confirm"])
    assert "nothing new to write." in again.stdout  # confirming twice adds nothing


def _thread(folder, posts):
    lines = [
        json.dumps(
            {
                "post_id": str(n),
                "number": n,
                "author": a,
                "time": f"2026-11-02T1{n % 10}:00:00Z",
                "url": f"https://example.invalid/t#{n}",
                "edited": False,
                "thread": "",
                "html": t,
            }
        )
        for n, (a, t) in enumerate(posts)
    ]
    (folder / "t.jsonl").write_text("\n".join(lines) + "\n")


CRIMSON = ["towncrier", "imp", "godfather", "pixie", "chambermaid", "dreamer", "spy", "damsel"]


def test_first_night_godfather_pixie_and_spy(tmp_path):
    game = _game(tmp_path, CRIMSON, script="crimson-moon")
    sheet = {s.player: s.info for s in night_sheet(game, 0)}
    assert sheet["Cat"].true_value == "Damsel"  # the Godfather learns the Outsiders
    assert sheet["Dan"].storyteller_choice and "Town Crier" in sheet["Dan"].allowed  # Pixie
    assert sheet["Gil"].true_value.startswith("1 Ann: Town Crier; 2 Ben: Imp")  # the Spy


def test_the_town_crier_learns_whether_a_minion_voted_today(tmp_path):
    events = [{"kind": "day_start", "day": 1, "post": 0}, {"kind": "day_end", "day": 1, "post": 3}]
    game = _game(tmp_path, CRIMSON, events, script="crimson-moon")
    _thread(
        game.folder,
        [
            ("Host", "Day 1"),
            ("Ann", "<b>VOTE: Ben</b>"),
            ("Eve", "<b>VOTE: Fin</b>"),
            ("Dan", "hi"),
        ],
    )
    from modtool.threads.sources import read_game_posts

    game = load_game(game.folder)
    info = _info_with_posts(game, 1, "Ann", read_game_posts(game))
    assert (info.true_value, info.allowed) == ("No", ("No",))
    _thread(
        game.folder,
        [
            ("Host", "Day 1"),
            ("Ann", "<b>VOTE: Ben</b>"),
            ("Gil", "<b>VOTE: Fin</b>"),
            ("Dan", "hi"),
        ],
    )
    info = _info_with_posts(game, 1, "Ann", read_game_posts(game))
    # the Spy voted: a Minion, who may register as not one
    assert (info.true_value, info.allowed) == ("Yes", ("Yes", "No"))


def _info_with_posts(game, night, player, posts):
    return next(s.info for s in night_sheet(game, night, posts) if s.player == player)


def test_the_juggler_counts_right_guesses(tmp_path):
    roles = ["juggler", "imp", "slayer", "poisoner", "monk", "fortuneteller", "saint", "undertaker"]
    events = [
        {"kind": "day_start", "day": 1, "post": 0},
        {
            "kind": "day_ability",
            "player": "Ann",
            "ability": "juggle",
            "post": 1,
            "target": "Ben",
            "character": "Imp",
        },
        {
            "kind": "day_ability",
            "player": "Ann",
            "ability": "juggle",
            "post": 1,
            "target": "Cat",
            "character": "Monk",
        },
        {
            "kind": "day_ability",
            "player": "Ann",
            "ability": "juggle",
            "post": 1,
            "target": "Hal",
            "character": "Undertaker",
        },
        {"kind": "day_end", "day": 1, "post": 2},
    ]
    game = _game(tmp_path, roles, events)
    _thread(game.folder, [("Host", "Day 1"), ("Host", "Ann juggles"), ("Host", "night")])
    from modtool.threads.sources import read_game_posts

    game = load_game(game.folder)
    info = _info_with_posts(game, 1, "Ann", read_game_posts(game))
    assert info.true_value == "2"
    assert info.why == (
        "3 guesses today, 2 right; the Poisoner's choice is not recorded yet; "
        "the Imp's choice is not recorded yet"
    )


TB_ROLES = ["washerwoman", "imp", "librarian", "poisoner", "investigator", "recluse", "chef", "spy"]


def test_one_of_two_players_with_the_spy_and_the_recluse(tmp_path):
    game = _game(tmp_path, TB_ROLES, script="trouble-brewing-forum")
    sheet = {s.player: s.info for s in night_sheet(game, 0)}
    washer = sheet["Ann"]
    assert washer.true_value == "Cat or another is the Librarian"
    assert "Hal or another is the Empath" in washer.allowed  # the Spy may register as one
    librarian = sheet["Cat"]
    assert librarian.true_value == "Fin or another is the Recluse"
    assert "Hal or another is the Butler" in librarian.allowed  # the Spy as an Outsider
    investigator = sheet["Eve"]
    assert investigator.true_value == "Dan or another is the Poisoner"
    assert "Fin or another is the Baron" in investigator.allowed  # the Recluse as a Minion


def test_the_librarian_learns_there_are_no_outsiders(tmp_path):
    roles = [
        "washerwoman",
        "imp",
        "librarian",
        "poisoner",
        "investigator",
        "monk",
        "chef",
        "empath",
    ]
    game = _game(tmp_path, roles, script="trouble-brewing-forum")
    info = next(s.info for s in night_sheet(game, 0) if s.player == "Cat")
    assert (info.true_value, info.allowed) == ("no Outsiders", ("no Outsiders",))


def test_dreamer_chambermaid_gambler_and_no_dashii(tmp_path):
    roles = ["dreamer", "imp", "chambermaid", "godfather", "gambler", "empath", "chef", "tinker"]
    events = [
        {"kind": "night_choice", "player": "Ann", "night": 1, "targets": ["Ben"]},
        {"kind": "night_choice", "player": "Cat", "night": 1, "targets": ["Fin", "Gil"]},
        {
            "kind": "night_choice",
            "player": "Eve",
            "night": 1,
            "targets": ["Fin"],
            "character": "Chef",
        },
    ]
    game = _game(tmp_path, roles, events, script="crimson-moon")
    sheet = {s.player: s.info for s in night_sheet(game, 1)}
    assert sheet["Ann"].true_value.startswith("Imp or ") and sheet["Ann"].storyteller_choice
    assert all(" or " in a and not a.endswith("Imp") for a in sheet["Ann"].allowed)
    assert sheet["Cat"].true_value == "1"  # the Empath wakes at night, the Chef does not
    assert sheet["Eve"].true_value == "dies"  # Fin is the Empath, not the Chef
    from types import SimpleNamespace

    from modtool.games.clocktower.night import _no_dashii

    characters = ["chef", "monk", "nodashii", "imp", "saint", "empath"]
    ring = [seat(s, c) for s, c in zip("abcdef", characters, strict=True)]
    # the closest Townsfolk each way: f past the Imp and the Saint, and b just before
    assert _no_dashii(SimpleNamespace(ring=ring), ring[2])[0].text == "f and b"


# --- poisoning that follows from the grimoire (issue: the No Dashii, the Lleech, the jinx) ------


@pytest.mark.parametrize(
    ("ring", "expected"),
    [
        # the almanac: the closest Townsfolk clockwise and counterclockwise, alive or dead;
        # "neighboring Outsiders, Minions, or Travellers are skipped"
        (["nodashii", "empath", "chef", "monk"], {"empath", "monk"}),
        (["nodashii", "saint", "empath", "chef", "poisoner", "monk"], {"empath", "monk"}),
        (["empath", "nodashii", "chef"], {"empath", "chef"}),
        (["nodashii", "empath", "saint"], {"empath"}),  # one Townsfolk: found both ways
    ],
)
def test_the_no_dashii_poisons_its_closest_townsfolk_each_way(ring, expected):
    from modtool.games.clocktower.grimoire import no_dashii_neighbours

    seats = [seat(c, c) for c in ring]
    assert {s.slot for s in no_dashii_neighbours(seats, ring.index("nodashii"))} == expected


@pytest.mark.parametrize(
    ("ever", "poisoned"),
    [({"spy", "damsel"}, True), ({"widow", "damsel"}, True), ({"damsel", "imp"}, False)],
)
def test_a_spy_or_widow_ever_in_play_poisons_the_damsel(ever, poisoned):
    from modtool.games.clocktower.grimoire import spy_damsel_jinx

    assert spy_damsel_jinx(ever) is poisoned


def test_the_grimoire_poisons_only_while_its_cause_works():
    from modtool.games.clocktower.grimoire import grimoire_poisons

    ring = [seat("D", "nodashii"), seat("E", "empath"), seat("H", "saint"), seat("M", "monk")]
    assert grimoire_poisons(ring, set()) == {"E": "nodashii", "M": "nodashii"}
    dead = [seat("D", "nodashii", alive=False), *ring[1:]]
    assert grimoire_poisons(dead, set()) == {}  # "If a No Dashii dies ... healthy"
    host = [seat("L", "lleech"), seat("E", "empath", reminders=("lleech_host",))]
    assert grimoire_poisons(host, set()) == {"E": "lleech"}
    assert grimoire_poisons([seat("L", "lleech", alive=False), host[1]], set()) == {}


def test_an_empath_beside_the_no_dashii_may_be_told_anything(tmp_path):
    # Ann (Empath) and Cat (Monk) are the No Dashii's (Ben's) closest Townsfolk
    roles = ["empath", "nodashii", "monk", "poisoner", "investigator", "undertaker", "saint"]
    game = _game(tmp_path, [*roles, "slayer"], script="cheomseongdae")
    info = _info(game, 1, "Ann")
    assert info.true_value == "1" and info.storyteller_choice and info.allowed == ("0", "1", "2")
    assert "Ann is poisoned" in info.why
    grimoire = load_game(tmp_path / "g")  # the grimoire shows it too
    from modtool.games.clocktower.grimoire import grimoire_at

    seats = {s.slot: s for s in grimoire_at(grimoire, Phase(1, PhaseKind.NIGHT)).seats}
    assert seats["Ann"].has("poisoned") and seats["Cat"].has("poisoned")
    assert not seats["Eve"].has("poisoned")


# --- the night's information, as the almanac and the publisher give it ----------------------

CHAMBER = ["dreamer", "imp", "chambermaid", "godfather", "gambler", "empath", "chef", "tinker"]


@pytest.mark.parametrize(
    ("right", "impaired", "outcome"),
    [(True, False, "lives"), (False, False, "dies"), (False, True, "lives"), (True, True, "lives")],
)
def test_a_drunk_or_poisoned_gamblers_guess_does_nothing(right, impaired, outcome):
    from modtool.games.clocktower.night import gambler_outcome

    assert gambler_outcome(right, impaired) == outcome


def test_a_poisoned_gambler_lives_and_is_told_nothing(tmp_path):
    events = [
        {
            "kind": "night_choice",
            "player": "Eve",
            "night": 1,
            "targets": ["Fin"],
            "character": "Chef",
        },
        {"kind": "reminder", "player": "Eve", "reminder": "poisoned", "night": 1},
    ]
    info = _info(_game(tmp_path, CHAMBER, events, script="crimson-moon"), 1, "Eve")
    assert info.true_value == "lives" and info.allowed == ("lives",) and not info.storyteller_choice
    assert "the guess does nothing" in info.why


@pytest.mark.parametrize(
    ("extra", "woke"),
    [
        ([], "1"),  # the Godfather wakes only after an Outsider died today
        ([{"kind": "death", "player": "Hal", "phase": "D1", "cause": "executed"}], "2"),
    ],
)
def test_the_chambermaid_counts_the_godfather_only_when_he_woke(tmp_path, extra, woke):
    events = [{"kind": "night_choice", "player": "Cat", "night": 1, "targets": ["Dan", "Fin"]}]
    info = _info(_game(tmp_path, CHAMBER, [*extra, *events], script="crimson-moon"), 1, "Cat")
    assert info.true_value == woke


def test_the_chambermaid_chooses_living_players_not_herself(tmp_path):
    events = [
        {"kind": "death", "player": "Fin", "phase": "D1", "cause": "executed"},
        {"kind": "night_choice", "player": "Cat", "night": 1, "targets": ["Dan", "Fin"]},
    ]
    info = _info(_game(tmp_path, CHAMBER, events, script="crimson-moon"), 1, "Cat")
    assert info.true_value == "choose again" and "2 alive players" in info.why


def test_the_librarian_may_hear_no_outsiders_with_a_spy_in_play(tmp_path):
    roles = ["librarian", "imp", "spy", "empath", "chef", "monk", "soldier", "mayor"]
    info = _info(_game(tmp_path, roles, script="trouble-brewing-forum"), 0, "Ann")
    assert info.true_value == "no Outsiders" and "no Outsiders" in info.allowed
    assert any("Cat or another is the" in a for a in info.allowed)  # the Spy may register


def test_under_the_vortox_the_washerwoman_hears_no_true_statement(tmp_path):
    roles = ["washerwoman", "vortox", "poisoner", "empath", "monk", "investigator", "saint", "chef"]
    roles = [r if r != "chef" else "librarian" for r in roles]
    info = _info(_game(tmp_path, roles, script="cheomseongdae"), 0, "Ann")
    assert info.allowed == ("any two players and any townsfolk on the script",)


def test_under_the_vortox_the_dreamer_hears_neither_character_theirs(tmp_path):
    roles = ["dreamer", "vortox", "chambermaid", "godfather", "gambler", "empath", "chef", "tinker"]
    events = [{"kind": "night_choice", "player": "Ann", "night": 1, "targets": ["Fin"]}]
    info = _info(_game(tmp_path, roles, events, script="crimson-moon"), 1, "Ann")
    assert info.allowed == ("two characters, neither of them theirs (one good, one evil)",)


# --- the night in order: each step sees what the earlier ones did --------------------------------

TB8 = ["imp", "poisoner", "chef", "monk", "soldier", "empath", "washerwoman", "saint"]
# Ann the Imp, Ben the Poisoner, Cat the Chef, Dan the Monk, Eve the Soldier, Fin the Empath


def _chose(night, *pairs):
    return [
        {"kind": "night_choice", "player": who, "night": night, "targets": [target]}
        for who, target in pairs
    ]


@pytest.mark.parametrize(
    ("choices", "result"),
    [
        ([("Ann", "Eve")], "soldier"),
        ([("Ben", "Eve"), ("Ann", "Eve")], "dies"),  # the Soldier poisoned before the Imp wakes
        ([("Dan", "Fin"), ("Ann", "Fin")], "protected"),
        ([("Ben", "Dan"), ("Dan", "Fin"), ("Ann", "Fin")], "dies"),  # the Monk poisoned first
        ([("Ben", "Ann"), ("Ann", "Cat")], "no kill"),  # the Imp poisoned first
    ],
)
def test_the_poisoner_wakes_first_so_tonights_poison_counts_at_once(tmp_path, choices, result):
    """ "If a player is Drunk or Poisoned ... non-investigative abilities do not work": the
    Poisoner acts before the Monk, the Imp and the Soldier's defence on the same night."""
    game = _game(tmp_path, TB8, _chose(1, *choices), script="trouble-brewing-forum")
    resolution = resolve_night(game, 1)
    assert [a.result for a in resolution.attacks] == [result]
    deaths = [e.slot for e in resolution.events if e.kind == "death"]
    assert deaths == ([resolution.attacks[0].target] if result == "dies" else [])
    poisoned_monk = ("Ben", "Dan") in choices
    protected = [e for e in resolution.events if getattr(e, "reminder", "") == "protected"]
    assert bool(protected) == (("Dan", "Fin") in choices and not poisoned_monk)


def _poison(slot, night=1, by="poisoner"):
    return Placed(
        16,
        ReminderEvent(EventKind.REMINDER, 0, slot=slot, phase=N(night), reminder="poisoned", by=by),
    )


def N(n):  # noqa: N802 - reads like the forum's "N1"
    return Phase(n, PhaseKind.NIGHT)


@pytest.mark.parametrize(
    ("held", "before", "reminders"),
    [
        ((), 39, ("poisoned",)),  # the Imp wakes after the Poisoner: poisoned
        ((), 16, ()),  # the Poisoner's own step, and those before it: not yet
        (("poisoned",), 39, ("poisoned",)),  # confirmed already: once, not twice
    ],
)
def test_a_seat_as_tonights_earlier_steps_left_it(held, before, reminders):
    ledger = tuple(Reminder(r, N(1), Phase(2, PhaseKind.DAY), "poisoner") for r in held)
    s = replace(seat("t", "soldier"), reminders=ledger)
    assert tuple(r.kind for r in as_resolved(s, (_poison("t"),), before).reminders) == reminders


def test_the_sheet_follows_the_recorded_choices_before_they_are_confirmed(tmp_path):
    """The Imp's recorded choice kills Gil before the Empath wakes, and the Poisoner's poisons
    the Chef before she wakes: the sheet says so without --confirm."""
    events = _chose(1, ("Ben", "Cat"), ("Ann", "Gil"))
    game = _game(tmp_path, TB8, events, script="trouble-brewing-forum")
    empath = _info(game, 1, "Fin")
    assert (empath.true_value, empath.why) == (
        "0",
        "living neighbours Eve and Hal after the night-kill",
    )
    (tmp_path / "g").rename(tmp_path / "night1")
    game = _game(tmp_path, TB8, _chose(0, ("Ben", "Cat")), script="trouble-brewing-forum")
    chef = _info(game, 0, "Cat")
    assert chef.storyteller_choice and "Cat is poisoned: any answer" in chef.why


def test_the_ravenkeeper_killed_tonight_wakes_before_the_kill_is_confirmed(tmp_path):
    roles = ["imp", "poisoner", "ravenkeeper", "monk", "soldier", "empath", "drunk", "saint"]
    events = _chose(1, ("Ben", "Hal"), ("Ann", "Cat"), ("Cat", "Gil"))
    game = _game(tmp_path, roles, events, script="trouble-brewing-forum")
    raven = _info(game, 1, "Cat")
    assert (raven.true_value, raven.why) == ("Drunk", "died tonight and chose Gil")


def test_the_sheet_says_which_earlier_choices_are_not_recorded_yet(tmp_path):
    game = _game(tmp_path, TB8, script="trouble-brewing-forum")
    assert _info(game, 1, "Fin").why == (
        "living neighbours Eve and Gil; the Poisoner's choice is not recorded yet; "
        "the Imp's choice is not recorded yet"
    )
    assert _info(game, 0, "Cat").why == (  # no Demon's kill on Night 0
        "adjacent pairs of evil players; the Poisoner's choice is not recorded yet"
    )


def test_the_spy_learns_the_demons_target_and_the_butlers_master(tmp_path):
    """The house rule: the Spy learns "who the Demon's kill targeted; who the Monk protected;
    who is Poisoned; and who the Butler chose as their Master"."""
    roles = ["imp", "spy", "butler", "monk", "poisoner", "empath", "chef", "saint"]
    events = _chose(1, ("Eve", "Gil"), ("Dan", "Fin"), ("Ann", "Fin"), ("Cat", "Dan"))
    game = _game(tmp_path, roles, events, script="trouble-brewing-forum")
    seen = _info(game, 1, "Ben").true_value
    assert "3 Cat: Butler, master Dan;" in seen
    assert "6 Fin: Empath, protected, the Demon's target;" in seen
    assert "7 Gil: Chef, poisoned;" in seen


def test_the_undertaker_names_the_drunk_only_when_the_drunk_was_executed(tmp_path):
    events = [{"kind": "death", "player": "Cat", "phase": "D1", "cause": "executed"}]
    game = _game(tmp_path, ROLES, events)
    assert _info(game, 1, "Hal").why.startswith("Cat was executed today;")


def test_a_day_ability_at_the_latest_post_of_a_day_going_on_decides_the_win(tmp_path):
    # the count of a day in progress names slots at its last post, but its win check still
    # sees what happened at that post (a Damsel guessed by a Minion: evil wins)
    events = [
        {"kind": "day_start", "day": 1, "post": 0},
        {
            "kind": "day_ability",
            "player": "Cat",
            "ability": "damsel_guess",
            "target": "Hal",
            "post": 3,
        },
    ]
    game = _game(tmp_path, CRIMSON, events, script="crimson-moon")
    thread = [("Host", "Day 1"), ("Ann", "<b>VOTE: Ben</b>"), ("Eve", "hi")]
    _thread(game.folder, [*thread, ("Cat", "I guess Hal is the Damsel")])
    game = load_game(game.folder)
    from modtool.threads.sources import read_game_posts

    (day,) = count_days(game, read_game_posts(game), [1])
    assert day.outcome.kind is OutcomeKind.PENDING
    assert day.win is not None and day.win.win is not None and day.win.win.winner == "evil"
