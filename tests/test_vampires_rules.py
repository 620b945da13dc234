"""The Vampires game's rules an independent check found wrong, each a table test quoting the
game's own text (the forum setup's wording), and the commands that show them."""

from __future__ import annotations

import json
import random
import shutil
import tomllib

import pytest
from typer.testing import CliRunner

from modtool.cli import app
from modtool.games.vampires.day import names_in, tie_deciders, vampires_choice

from .conftest import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "games" / "vampires"
runner = CliRunner()


def _game(tmp_path, thread, events, toml_extra=""):
    """The 13-player fixture with its own thread ((author, text) posts) and ledger lines."""
    game = tmp_path / "g"
    shutil.copytree(FIXTURE, game)
    if toml_extra:
        (game / "game.toml").write_text((game / "game.toml").read_text() + toml_extra)
    with (game / "thread.jsonl").open("w") as f:
        for n, (author, text) in enumerate(thread):
            post = {
                "post_id": f"p{n}",
                "number": n,
                "author": author,
                "time": f"2026-11-02T{10 + n // 60:02d}:{n % 60:02d}:00+00:00",
                "url": f"https://example.invalid/v#{n}",
                "html": text,
            }
            f.write(json.dumps(post) + "\n")
    (game / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    return game


# --- ties ---------------------------------------------------------------------------------------

TIE_RULE = (
    '"If the day ends when there is a tie for most lynch votes, then the vampires will use '
    'their subtle influence to determine which of the tied players gets lynched."'
)


@pytest.mark.parametrize(
    ("roles", "alive", "deciders"),
    [
        ({"a": "vampire", "b": "vampire", "c": "priest"}, {"a", "b", "c"}, ["a", "b"]),
        ({"a": "vampire", "b": "vampire", "c": "priest"}, {"b", "c"}, ["b"]),  # the living only
        ({"a": "treacherous-villager", "c": "priest"}, {"a", "c"}, []),  # not a Vampire
    ],
)
def test_the_living_vampires_decide_a_tie(roles, alive, deciders):
    assert tie_deciders(roles, alive) == deciders, TIE_RULE


@pytest.mark.parametrize(
    ("posts", "choice", "ignored"),
    [
        ([(8, "ash", "We pick Dune.")], (8, "Dune"), []),
        ([(8, "birch", "Dune!"), (9, "ash", "grove it is")], (9, "Grove"), [(8, "Dune")]),
        ([(8, "ash", "Dune or Grove?"), (9, "ash", "Dune")], (9, "Dune"), []),  # one name only
        ([(8, None, "Dune"), (9, "ash", "no idea yet")], None, [(8, "Dune")]),
        ([(8, "ash", "Dunes are nice")], None, []),  # a whole word
    ],
)
def test_the_vampires_choice_is_a_living_vampires_post_naming_one_of_the_tied(
    posts, choice, ignored
):
    assert vampires_choice(posts, {"ash"}, ["Dune", "Grove"]) == (choice, ignored), TIE_RULE


def test_names_in_a_post():
    assert names_in("I say GROVE, not dune", ["Dune", "Grove"]) == ["Dune", "Grove"]


TIE_THREAD = [
    ("GM", "Day 1."),
    ("Ash", "Vote: Dune"),
    ("Birch", "Vote: Grove"),
    ("GM", "Day 1 is over: a tie."),
    ("Birch", "The vampires should take Grove"),  # not a Vampire: ignored
    ("Grove", "We choose Dune."),
]
TIE_DAY = [{"kind": "day_start", "day": 1, "post": 0}, {"kind": "day_end", "day": 1, "post": 3}]


def test_a_tie_the_vampires_settle_by_post(tmp_path):
    game = _game(tmp_path, TIE_THREAD, TIE_DAY)
    out = json.loads(runner.invoke(app, ["count", str(game), "--json"]).stdout)[0]
    assert out["outcome"]["kind"] == "execution" and out["outcome"]["player"] == "Dune"
    assert out["outcome"]["rule"] == "vampires-chose"
    assert out["outcome"]["reason"] == "tie for the most votes (1): the vampires chose Dune"
    assert any(
        w["message"] == "the living Vampires (Ash, Grove) chose Dune at post 5; host only"
        for w in out["warnings"]
    )
    assert any(
        "post 4 names Grove, but its author is not a living Vampire" in w["message"]
        for w in out["warnings"]
    )


# The tie line of the drafted posts: the team that chooses is the game's, in the post's language.
TIE_LINES = {
    ("en", "votecount"): "Tie: Dune, Grove; the vampires choose among them.",
    ("en", "dayend"): "A tie between Dune, Grove: the vampires choose which of them is lynched.",
    ("ko", "votecount"): "동표: Dune, Grove. 뱀파이어가 고릅니다.",
    ("ko", "dayend"): "Dune, Grove 동표: 뱀파이어가 고릅니다.",
}


@pytest.mark.parametrize("markup", ["bbcode", "markdown"])
@pytest.mark.parametrize(("lang", "kind"), sorted(TIE_LINES))
def test_a_draft_of_an_unsettled_tie_says_the_vampires_choose(tmp_path, lang, kind, markup):
    game = _game(tmp_path, TIE_THREAD[:5], TIE_DAY)
    args = ["draft", kind, str(game), "--lang", lang, "--format", markup, "--stdout"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert TIE_LINES[lang, kind] in result.stdout


def test_a_korean_day_end_post_says_the_vampires_chose(tmp_path):
    game = _game(tmp_path, TIE_THREAD, TIE_DAY)
    args = ["draft", "dayend", str(game), "--lang", "ko", "--stdout"]
    text = runner.invoke(app, args).stdout
    assert "[b]Dune[/b] 님이 처형되었습니다 (1표 동률: 뱀파이어가 처형될 사람을 골랐습니다)" in text


def test_a_game_toml_with_the_older_name_of_the_tie_rule_counts_as_before(tmp_path):
    game = _game(tmp_path, TIE_THREAD, TIE_DAY)
    setup = game / "game.toml"
    before = runner.invoke(app, ["count", str(game)]).stdout
    rules = 'threshold = "plurality"\nsyntaxes = ["plain"]\ntie = "{}"\n'  # no preset
    text = setup.read_text()
    for tie, same in (("vampires-choose", True), ("none", False)):
        setup.write_text(text.replace('preset = "vampire"\n', rules.format(tie)))
        assert (runner.invoke(app, ["count", str(game)]).stdout == before) is same, tie


def test_an_unsettled_tie_names_who_decides_and_a_recorded_death_settles_it(tmp_path):
    game = _game(tmp_path, TIE_THREAD[:5], TIE_DAY)
    text = runner.invoke(app, ["count", str(game)]).stdout
    assert "Tie: Dune, Grove" in text and "the vampires choose which is lynched" in text
    assert "the tie is the living Vampires' to settle (Ash, Grove; host only)" in text
    death = {"kind": "death", "player": "Grove", "phase": "D1", "cause": "lynched"}
    game = _game(tmp_path / "2", TIE_THREAD[:5], [*TIE_DAY, death])
    text = runner.invoke(app, ["count", str(game)]).stdout
    assert (
        "Tie" not in text and "Grove is executed" in text and "chose Grove (ledger line 3)" in text
    )


# --- the setup ----------------------------------------------------------------------------------

PLAYERS = "Ash Birch Cedar Dune Elm Fern Grove Hazel Iris Juniper Kale Linden Maple".split()
# the fixture's thirteen roles, in seat order: a legal role list
ROLES = [p["role"] for p in tomllib.loads((FIXTURE / "game.toml").read_text())["players"]]
SHUFFLE_RULE = (
    '"The GM should secretly shuffle the list of players, then assign each player the role '
    'corresponding to their position in the shuffled list."'
)


def _toml_list(items):
    return "[" + ", ".join(json.dumps(i) for i in items) + "]"


@pytest.mark.parametrize(
    ("order", "problem"),
    [
        (PLAYERS[::-1], None),
        (PLAYERS[1:], "[setup] shuffled leaves out Ash; list every player once"),
        ([*PLAYERS[1:], "Birch"], "[setup] shuffled lists 'Birch' more than once"),
        ([*PLAYERS[1:], "Zed"], "[setup] shuffled names 'Zed', who is not a player"),
    ],
)
def test_the_hosts_own_shuffle_is_checked_as_an_order_of_the_players(tmp_path, order, problem):
    extra = f"\n[setup]\nroles = {_toml_list(ROLES)}\nshuffled = {_toml_list(order)}\n"
    game = _game(tmp_path, [("GM", "Day 1.")], [], extra)
    drawn = runner.invoke(app, ["setup", "draw", str(game), "--seed", "1", "--json"])
    if problem is None:
        assert drawn.exit_code == 0, drawn.output
        event = json.loads(drawn.stdout)
        assert [p["player"] for p in event["players"]] == order, SHUFFLE_RULE
        assert event["players"][0]["role"] == "vampire"  # the first listed role
    else:
        assert drawn.exit_code == 1 and problem in drawn.output, drawn.output


def test_an_error_that_stops_the_draw_keeps_the_under_13_warning(tmp_path):
    rule = '"The minimum recommended number of players is 13."'
    game = _game(tmp_path, [("GM", "Day 1.")], [], f"\n[setup]\nroles = {_toml_list(ROLES)}\n")
    text = (game / "game.toml").read_text()
    (game / "game.toml").write_text(
        text.replace('[[players]]\nname = "Maple"\nseat = 13\nrole = "Faithful Villager"\n', "")
    )
    drawn = runner.invoke(app, ["setup", "draw", str(game), "--seed", "1"])
    assert drawn.exit_code == 1
    assert "lists 13 roles for 12 players" in drawn.output, drawn.output
    assert "warning: 12 players: the Vampires game recommends at least 13" in drawn.output, rule


def _unassigned(tmp_path, roles, players=PLAYERS):
    """The fixture's players (`players` of them) with no role each, and `[setup] roles`."""
    game = _game(tmp_path, [("GM", "Day 1.")], [], f"\n[setup]\nroles = {_toml_list(roles)}\n")
    seated = "".join(f'[[players]]\nname = "{p}"\nseat = {i}\n\n' for i, p in enumerate(players, 1))
    head = (game / "game.toml").read_text().split("[[players]]")[0]
    setup = (game / "game.toml").read_text().split("[setup]")[1]
    (game / "game.toml").write_text(f"{head}{seated}[setup]{setup}")
    return game


@pytest.mark.parametrize(
    ("players", "roles", "code", "says"),
    [
        (
            PLAYERS[:12],
            [*ROLES[:2], *ROLES[3:]],
            0,
            "Legal setup: before a draw, [setup] roles (12) against the 12 players; 2 vampires",
        ),
        (
            PLAYERS[:12],
            ROLES,
            1,
            "Not a legal setup: before a draw, [setup] roles (13) against the 12 players; 2 "
            "vampires, 9 village, 1 treacherous-villager, 1 death-cult\n- [setup] roles lists 13 "
            "roles for 12 players",
        ),
        (PLAYERS, ROLES, 0, "Legal setup: before a draw, [setup] roles (13) against the 13"),
    ],
)
def test_a_check_before_the_draw_checks_the_role_list_against_the_players(
    tmp_path, players, roles, code, says
):
    rule = '"The minimum recommended number of players is 13."'
    checked = runner.invoke(app, ["setup", "check", str(_unassigned(tmp_path, roles, players))])
    assert checked.exit_code == code and says in checked.stdout, checked.output
    assert "has no role" not in checked.stdout
    warned = "- warning: 12 players: the Vampires game recommends at least 13" in checked.stdout
    assert warned is (len(players) < 13), rule


def test_a_check_with_a_player_left_without_a_role_says_how_many(tmp_path):
    game = _game(tmp_path, [("GM", "Day 1.")], [])
    text = (game / "game.toml").read_text()
    (game / "game.toml").write_text(
        text.replace('seat = 13\nrole = "Faithful Villager"', "seat = 13")
    )
    checked = runner.invoke(app, ["setup", "check", str(game)])
    assert checked.exit_code == 1
    assert checked.stdout.startswith("Not a legal setup: 1 of 13 players have no role"), (
        checked.stdout
    )
    assert "- Maple has no role" in checked.stdout


@pytest.mark.parametrize(
    ("name", "role"),
    [
        ("The Slayer (none at start)", "slayer"),
        ("Slayer", "slayer"),
        ("The Watcher", "watcher"),
        ("Priest (the village)", "priest"),
        ("Nobody (none at start)", None),
    ],
)
def test_the_games_own_heading_names_its_role(name, role):
    from modtool.games.vampires.roles import vampire_setup

    found = vampire_setup().role(name)
    assert (found.id if found else None) == role


def test_the_slayer_heading_in_a_role_list_is_not_dealt_at_the_start(tmp_path):
    roles = [*ROLES[:-1], "The Slayer (none at start)"]
    game = _game(tmp_path, [("GM", "Day 1.")], [], f"\n[setup]\nroles = {_toml_list(roles)}\n")
    drawn = runner.invoke(app, ["setup", "draw", str(game), "--seed", "1"])
    assert drawn.exit_code == 1
    assert "the Slayer is not dealt at the start" in drawn.output, drawn.output


# --- Ultimate Deception ---------------------------------------------------------------------

DECEPTION_RULE = (
    '"At any time, you may choose any role in the game. If you die, then your role will be '
    'revealed as the chosen role instead of the truth."'
)


@pytest.mark.parametrize(
    ("reveal", "deceives", "said"),
    [
        ("role", True, "Linden[/b] died (drained): they were the Priest (the Village)"),
        ("nothing", True, "Linden[/b] died (drained): they were the Priest (the Village)"),
        ("role", False, "Linden[/b] died (drained): they were the Scion of Death (the Death Cult"),
        ("nothing", False, "Linden[/b] died (drained)."),
    ],
)
def test_a_scions_deception_at_death_shows_the_chosen_role_and_never_the_truth(
    tmp_path, reveal, deceives, said
):
    choice = {
        "kind": "night_choice",
        "player": "Linden",
        "night": 1,
        "targets": [],
        "ability": "deception",
        "character": "Priest",
    }
    events = [
        *TIE_DAY[:1],
        {"kind": "day_end", "day": 1, "post": 0},
        *([choice] if deceives else []),
        {"kind": "death", "player": "Linden", "phase": "N1", "cause": "drained"},
    ]
    game = _game(tmp_path, [("GM", "Day 1.")], events, f'\n[drafts]\nreveal = "{reveal}"\n')
    dawn = runner.invoke(app, ["draft", "nightend", str(game), "--night", "1", "--stdout"])
    assert dawn.exit_code == 0, dawn.output
    assert said in dawn.stdout, (DECEPTION_RULE, dawn.stdout)
    if deceives:
        assert "Death Cult" not in dawn.stdout and "Scion" not in dawn.stdout


# --- wins ---------------------------------------------------------------------------------------

SLAYER_WIN = (
    '"You win when The Chosen One is eliminated and more Scions of Death have been killed by '
    'the village than the number of Scions of Death currently alive, in any order."'
)


@pytest.mark.parametrize(
    ("made", "chosen_dead", "killed", "alive", "won"),
    [
        (True, True, 2, 1, True),
        (False, True, 2, 1, False),  # nobody ever became the Slayer: "(none at start)"
        (True, False, 2, 1, False),
        (True, True, 1, 1, False),  # more killed than alive, not as many
    ],
)
def test_the_slayers_win_needs_a_slayer(made, chosen_dead, killed, alive, won):
    from modtool.games.vampires.game import slayer_won

    assert slayer_won(made, chosen_dead, killed, alive) is won, SLAYER_WIN


NOTHING_CAN_STOP = (
    '"you win when your faction comprises at least half of the village, or if nothing can stop '
    'this from happening."'
)


@pytest.mark.parametrize(
    ("roles", "slayers", "drains", "wins"),
    [
        # two Vampires drain two of three: 2 of 3 alive at dawn, and nobody can stop it
        (["vampire", "vampire", "priest", "guard", "faithful-villager"], (), None, True),
        # a Paladin could protect, an Apothecary poison, a Treacherous Villager distract
        (["vampire", "vampire", "paladin", "guard", "faithful-villager"], (), None, False),
        (["vampire", "vampire", "apothecary", "guard", "faithful-villager"], (), None, False),
        (["vampire", "vampire", "treacherous-villager", "guard", "shaman"], (), None, False),
        # The Chosen One cannot be drained; as the Slayer they could slay
        (["vampire", "chosen-one", "guard", "faithful-villager"], (), None, False),
        (["vampire", "vampire", "chosen-one", "guard"], (), None, True),
        (["vampire", "vampire", "chosen-one", "guard"], ("p2",), None, False),
        # the one Drain leaves The Chosen One and a single Vampire: "you lose", not a win
        (["vampire", "chosen-one", "faithful-villager"], (), None, False),
        (["vampire", "chosen-one", "faithful-villager"], (), 1, False),
        (["vampire", "guard", "faithful-villager"], (), None, True),
        # the other reading: one Drain a night for the faction
        (["vampire", "vampire", "priest", "guard", "faithful-villager", "shaman"], (), 1, False),
        (["vampire", "vampire", "priest", "guard", "faithful-villager", "shaman"], (), None, True),
        (["vampire", "vampire", "priest", "guard", "faithful-villager"], (), 1, True),
    ],
)
def test_nothing_can_stop_the_vampires(roles, slayers, drains, wins):
    from modtool.games.vampires.game import vampires_unstoppable

    table = {f"p{i}": r for i, r in enumerate(roles)}
    found = vampires_unstoppable(table, set(table), frozenset(slayers), drains)
    assert (found is not None) is wins, (NOTHING_CAN_STOP, found)


CHOSEN_ONE_LAST = '"If the last survivors are The Chosen One and a single Vampire, you lose."'
ASCENSION_RULE = (
    '"Whenever a Priest, Paladin, Guard, or The Watcher dies, one random Faithful Villager will '
    'lose their Faithful Villager role and take on the role of that dead player."'
)


@pytest.mark.parametrize(
    ("alive", "lynched", "over"),
    [
        # Ash's one Drain can only take Maple: The Chosen One and a single Vampire are left
        (["Ash", "Elm", "Cedar", "Maple"], "Cedar", False),
        # a lynched Paladin's heir (Cedar or Maple) protects tonight; a lynched Guard's does not
        (["Ash", "Grove", "Iris", "Birch", "Cedar", "Maple"], "Iris", False),
        (["Ash", "Grove", "Fern", "Birch", "Cedar", "Maple"], "Fern", True),
    ],
)
def test_the_foresight_of_the_night_takes_the_games_other_rules(tmp_path, alive, lynched, over):
    dead = [
        {"kind": "death", "player": p, "phase": "N0", "cause": "drained"}
        for p in PLAYERS
        if p not in alive
    ]
    voters = [p for p in alive if p != lynched][:2]
    thread = [("GM", "Day 1."), *((v, f"Vote: {lynched}") for v in voters), ("GM", "Day over.")]
    game = _game(tmp_path, thread, [TIE_DAY[0], *dead])
    ended = runner.invoke(app, ["end-day", str(game), "--day", "1", "--post", "3"])
    assert ended.exit_code == 0, ended.output
    counted = runner.invoke(app, ["count", str(game), "--day", "1"])
    assert counted.exit_code == 0, counted.output
    assert f"Outcome: {lynched} is executed" in counted.stdout
    assert ("nothing can stop the Vampires" in counted.stdout) is over, (
        CHOSEN_ONE_LAST,
        ASCENSION_RULE,
        counted.stdout,
    )
    night = runner.invoke(app, ["night", str(game), "--night", "1"])
    assert (night.exit_code != 0) is over, night.output


@pytest.mark.parametrize(
    ("winners", "said"),
    [
        (("vampires",), "the Vampires win"),
        (("village", "treacherous-villager"), "the Village and the Treacherous Villager win"),
        (("treacherous-villager",), "the Treacherous Villager wins"),
        (("slayer",), "the Slayer wins"),
        (
            ("village", "treacherous-villager", "scion (Linden)"),
            "the Village, the Treacherous Villager and Linden (a Scion of Death) win",
        ),
    ],
)
def test_the_winners_are_named_as_the_factions_are_with_the_verb_agreeing(winners, said):
    from modtool.games.vampires.game import winners_clause

    assert winners_clause(winners) == said


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "The game is over: the Village and the Treacherous Villager win (the last"),
        ("ko", "게임이 끝났습니다: 마을, 배신한 마을 주민 승리 ("),
    ],
)
def test_the_day_end_post_names_the_winners(tmp_path, lang, said):
    dead = [
        {"kind": "death", "player": p, "phase": "N0", "cause": "drained"}
        for p in PLAYERS
        if p not in ("Ash", "Elm", "Maple")
    ]
    thread = [("GM", "Day 1."), ("Elm", "Vote: Maple"), ("Ash", "Vote: Maple"), ("GM", "Over.")]
    game = _game(tmp_path, thread, [TIE_DAY[0], *dead])
    ended = runner.invoke(app, ["end-day", str(game), "--day", "1", "--post", "3"])
    assert "Game over: the Village and the Treacherous Villager win (" in ended.stdout, ended.output
    args = ["draft", "dayend", str(game), "--day", "1", "--stdout", "--lang", lang]
    drafted = runner.invoke(app, args)
    assert drafted.exit_code == 0 and said in drafted.stdout, drafted.output


@pytest.mark.parametrize("markup", ["bbcode", "markdown"])
def test_a_lynched_chosen_one_is_revealed_without_a_second_the(tmp_path, markup):
    chosen_one = '"If you die, everyone will learn that you were The Chosen One."'
    game = _game(tmp_path, [("GM", "Day 1."), ("Cedar", "Vote: Elm"), ("GM", "Over.")], TIE_DAY[:1])
    ended = runner.invoke(app, ["end-day", str(game), "--day", "1", "--post", "2"])
    assert ended.exit_code == 0, ended.output
    args = ["draft", "dayend", str(game), "--day", "1", "--stdout", "--format", markup]
    drafted = runner.invoke(app, args)
    assert "they were The Chosen One (the Village)" in drafted.stdout, (chosen_one, drafted.output)


WATCHER_RULE = (
    '"If your target is The Chosen One, they will learn that you contacted them, and they will '
    'become The Slayer in addition to their current role."'
)


def test_the_watcher_contacts_a_chosen_one_who_is_already_the_slayer():
    from modtool.games.vampires.game import Plan, Village, resolve

    roles = {"w": "watcher", "co": "chosen-one", "v": "vampire", "a": "priest"}
    village = Village(roles, set(roles), {"co"}, False, {k: k.upper() for k in roles})
    out = resolve(village, [Plan("w", "search", ("co",))], random.Random(0))
    assert out.slayers == []  # already the Slayer: no second reminder
    assert out.results["co"] == [
        "The Watcher, W, has contacted you again: you are The Chosen One and already The "
        "Slayer, with a secret meeting with the Watcher."
    ], WATCHER_RULE


# --- the readings: each answer that rests on one names it; [rules] chooses the other ----------

DAY1 = [{"kind": "day_start", "day": 1, "post": 0}, {"kind": "day_end", "day": 1, "post": 0}]


def _night(tmp_path, choices, readings=None):
    """Night 1 resolved (not written), with night plans as (player, target[, ability])."""
    events = [*DAY1]
    for c in choices:
        e = {"kind": "night_choice", "night": 1, "player": c[0], "targets": [c[1]]}
        if len(c) > 2:
            e["ability"] = c[2]
        events.append(e)
    game = _game(tmp_path, [("GM", "Day 1.")], events)
    _choose(game, readings or {})
    out = runner.invoke(app, ["night", str(game), "--night", "1", "--resolve", "--json"])
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout)


def _choose(game, readings: dict) -> None:
    """[rules] readings = { ... } in the game's game.toml."""
    if readings:
        table = ", ".join(f'{k} = "{v}"' for k, v in readings.items())
        toml = (game / "game.toml").read_text()
        toml = toml.replace(
            'preset = "vampire"\n', f'preset = "vampire"\nreadings = {{ {table} }}\n'
        )
        (game / "game.toml").write_text(toml)


def _readings(night) -> dict:
    return {r["reading"]: r["choice"] for r in night["readings"]}


@pytest.mark.parametrize(
    ("choice", "dead"), [(None, {"Birch", "Cedar"}), ("one-a-night", {"Birch"})]
)
def test_reading_drains(tmp_path, choice, dead):
    night = _night(
        tmp_path, [("Ash", "Birch"), ("Grove", "Cedar")], {"drains": choice} if choice else None
    )
    assert {d["player"] for d in night["deaths"]} == dead
    assert _readings(night)["drains"] == (choice or "each-vampire")


@pytest.mark.parametrize(("choice", "told"), [(None, False), ("told", True)])
def test_reading_distracted(tmp_path, choice, told):
    night = _night(
        tmp_path, [("Dune", "Birch"), ("Birch", "Ash")], {"distracted": choice} if choice else None
    )
    assert ("Your night plan was cancelled." in night["results"].get("Birch", [])) is told
    assert _readings(night)["distracted"] == (choice or "not-told")
    assert {"kind": "cancelled", "by": "Dune", "target": "Birch"} in night["effects"]


@pytest.mark.parametrize(("choice", "kept"), [(None, False), ("results", True)])
def test_reading_killed_tonight(tmp_path, choice, kept):
    night = _night(
        tmp_path,
        [("Ash", "Birch"), ("Birch", "Grove")],
        {"killed-tonight": choice} if choice else None,
    )
    assert ("Birch" in night["results"]) is kept
    assert _readings(night)["killed-tonight"] == (choice or "no-results")


@pytest.mark.parametrize(("choice", "slayer"), [(None, False), ("contact", True)])
def test_reading_paranoid_watcher(tmp_path, choice, slayer):
    night = _night(
        tmp_path,
        [("Iris", "Kale"), ("Kale", "Elm")],
        {"paranoid-watcher": choice} if choice else None,
    )
    search = next(a for a in night["answers"] if a["ability"] == "search")
    assert search["said"] == {"kind": "verdict", "value": "Not The Chosen One"}
    assert search["true"] == {"kind": "verdict", "value": "The Chosen One"}
    assert search["because"] == "paranoid"
    assert any(e["kind"] == "reminder" and e["reminder"] == "slayer" for e in night["events"]) is (
        slayer
    )
    assert _readings(night)["paranoid-watcher"] == (choice or "no-contact")


@pytest.mark.parametrize(("choice", "dies"), [(None, False), ("dies", True)])
def test_reading_protected_apothecary(tmp_path, choice, dies):
    night = _night(
        tmp_path,
        [("Iris", "Juniper"), ("Juniper", "Ash")],
        {"protected-apothecary": choice} if choice else None,
    )
    assert ("Juniper" in {d["player"] for d in night["deaths"]}) is dies
    assert _readings(night)["protected-apothecary"] == (choice or "saved")


@pytest.mark.parametrize(
    ("choice", "pool"),
    [(None, ["cedar", "maple"]), ("also-hidden", ["cedar", "elm", "hazel", "maple"])],
)
def test_reading_heirs(tmp_path, choice, pool):
    from modtool.games.vampires.game import heir_pool, village_at

    game = _game(tmp_path, [("GM", "Day 1.")], DAY1)
    from modtool.core.ledger import Phase, PhaseKind
    from modtool.games import load_game

    village = village_at(load_game(game), Phase(1, PhaseKind.NIGHT))
    found = heir_pool(village, set(), choice == "also-hidden", False)
    assert [s.casefold() for s in found] == pool
    # The Chosen One is never converted: "Conversion Resistance"
    assert "Elm" not in heir_pool(village, set(), True, True)


@pytest.mark.parametrize(
    ("choice", "winners"),
    [(None, ["village", "treacherous-villager"]), ("none-stated", ["treacherous-villager"])],
)
def test_reading_village_win(tmp_path, choice, winners):
    events = [
        *DAY1,
        {"kind": "death", "player": "Grove", "phase": "D1", "cause": "lynched"},
        {"kind": "night_choice", "night": 1, "player": "Kale", "targets": ["Elm"]},
        {"kind": "reminder", "player": "Elm", "reminder": "slayer", "night": 0, "until": "game"},
        {"kind": "night_choice", "night": 1, "player": "Elm", "targets": ["Ash"]},
    ]
    game = _game(tmp_path, [("GM", "Day 1.")], events)
    _choose(game, {"village-win": choice} if choice else {})
    out = runner.invoke(app, ["night", str(game), "--night", "1", "--resolve", "--json"])
    night = json.loads(out.stdout)
    assert night["wins"]["winners"] == winners
    assert night["wins"]["readings"][0]["reading"] == "village-win"
    assert night["wins"]["readings"][0]["choice"] == (choice or "no-vampires-left")


@pytest.mark.parametrize(
    ("readings", "elm_told", "ash_knows"),
    [
        ({}, "Faithful Villager", ["Grove"]),
        ({"hidden-role-pm": "own-role"}, "The Chosen One", ["Grove"]),
        ({"vampires-know": "nobody"}, "Faithful Villager", []),
    ],
)
def test_readings_of_the_role_pms(tmp_path, readings, elm_told, ash_knows):
    from modtool.games import load_game
    from modtool.games.vampires.drafts import role_pm_contexts

    game = _game(tmp_path, [("GM", "Day 1.")], [])
    _choose(game, readings)
    pms = {c["player"]: c for c in role_pm_contexts(load_game(game), "en")}
    assert pms["Elm"]["role"]["name"] == elm_told
    assert [k["player"] for k in pms["Ash"]["knows"]] == ash_knows
    assert {r["reading"] for r in pms["Elm"]["readings"]} == {"hidden-role-pm"}
    assert {r["reading"] for r in pms["Ash"]["readings"]} == {"vampires-know"}


@pytest.mark.parametrize(
    ("table", "problem"),
    [
        (
            '{ drains = "two" }',
            "reading 'drains' cannot be 'two'; use one of each-vampire, one-a-night",
        ),
        ('{ ritual = "yes" }', "no reading 'ritual' in the Vampires game"),
        ('"drains"', "rule 'readings' must be a table"),
    ],
)
def test_a_reading_that_is_not_the_games_is_refused_in_one_line(tmp_path, table, problem):
    game = _game(tmp_path, [("GM", "Day 1.")], [])
    toml = (game / "game.toml").read_text()
    (game / "game.toml").write_text(
        toml.replace('preset = "vampire"\n', f'preset = "vampire"\nreadings = {table}\n')
    )
    out = runner.invoke(app, ["count", str(game)])
    assert out.exit_code == 1 and problem in out.output, out.output
    assert len(out.output.strip().splitlines()) == 1
