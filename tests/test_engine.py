"""The engine's walk: the hammer on the action, split doublevotes, ledger contradictions, and
the one-call library face."""

from __future__ import annotations

import json

import pytest

import modtool
from modtool.core.count import count_days
from modtool.core.ledger import Phase, PhaseKind
from modtool.core.results import OutcomeKind
from modtool.core.rules import Rule
from modtool.errors import ModToolError
from modtool.games import load_game
from modtool.threads.sources import read_game_posts

PLAYERS = ["ann", "bea", "cal", "dee", "eve"]


def _game(folder, posts, events, rules='preset = "mafiascum"', players=None):
    lines = [
        json.dumps(
            {
                "post_id": str(n),
                "number": n,
                "author": author,
                "time": None,
                "url": f"https://forum.example.invalid/t#{n}",
                "html": html,
            }
        )
        for n, (author, html) in enumerate(posts)
    ]
    (folder / "posts.jsonl").write_text("\n".join(lines) + "\n")
    roster = "".join(
        f'[[players]]\nname = "{p}"\n' + (f"weight = {w}\n" if w != 1 else "")
        for p, w in (players or [(p, 1) for p in PLAYERS])
    )
    (folder / "game.toml").write_text(
        f'hosts = ["Host"]\n[[sources]]\npath = "posts.jsonl"\n[rules]\n{rules}\n{roster}'
    )
    (folder / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    game = load_game(folder)
    return count_days(game, read_game_posts(game))


DAY1 = [{"kind": "day_start", "day": 1, "post": 0}]


def test_the_hammer_falls_on_the_action_not_the_post(tmp_path):
    # 5 alive: 3 to lynch. cal's post hammers bea, then votes dee as a joke.
    (day,) = _game(
        tmp_path,
        [
            ("Host", "Day 1"),
            ("ann", "<b>VOTE: bea</b>"),
            ("dee", "<b>VOTE: bea</b>"),
            ("cal", "<b>VOTE: bea</b> ... just kidding <b>VOTE: dee</b>"),
            ("eve", "<b>VOTE: cal</b>"),
        ],
        DAY1,
    )
    assert (day.outcome.kind, day.outcome.player, day.outcome.post) == ("execution", "bea", 3)
    assert day.outcome.rule is Rule.HAMMER
    # the joke vote after the hammer was never read
    assert [a.raw for a in day.audit if a.post == 3] == ["VOTE: bea"]


def test_an_unvote_then_vote_crossing_the_threshold_mid_post_hammers(tmp_path):
    (day,) = _game(
        tmp_path,
        [
            ("Host", "Day 1"),
            ("ann", "<b>VOTE: bea</b>"),
            ("dee", "<b>VOTE: bea</b>"),
            ("cal", "<b>VOTE: eve</b>"),
            ("cal", "<b>UNVOTE</b> <b>VOTE: bea</b> <b>UNVOTE</b>"),
        ],
        DAY1,
    )
    assert (day.outcome.player, day.outcome.post) == ("bea", 4)


def test_a_doublevoter_splits_two_votes_in_one_post(tmp_path):
    posts = [
        ("Host", "Day 1"),
        ("ann", "<b>VOTE: bea</b> and <b>VOTE: cal</b>"),
        ("dee", "<b>VOTE: bea</b>"),
    ]
    players = [("ann", 2), *[(p, 1) for p in PLAYERS[1:]]]
    (split,) = _game(
        tmp_path, posts, DAY1, 'preset = "mafiascum"\nsplit_votes = true', players=players
    )
    assert {w.target: w.votes for w in split.wagons} == {"bea": 2, "cal": 1}
    assert [a.rule for a in split.audit if a.post == 1] == [Rule.SPLIT_VOTE, Rule.SPLIT_VOTE]
    # without the rule, the last vote of the post stands with both votes: 2 + 1 on bea is not
    # reached; cal gets 2
    (whole,) = _game(tmp_path, posts, DAY1, players=players)
    assert {w.target: w.votes for w in whole.wagons} == {"cal": 2, "bea": 1}


def test_a_later_single_vote_moves_both_halves_of_a_split(tmp_path):
    players = [("ann", 2), *[(p, 1) for p in PLAYERS[1:]]]
    (day,) = _game(
        tmp_path,
        [
            ("Host", "Day 1"),
            ("ann", "<b>VOTE: bea</b> <b>VOTE: cal</b>"),
            ("ann", "<b>VOTE: dee</b>"),
        ],
        DAY1,
        'preset = "mafiascum"\nsplit_votes = true',
        players=players,
    )
    assert {w.target: w.votes for w in day.wagons} == {"dee": 2}


def test_a_recorded_execution_the_count_disagrees_with_is_a_warning(tmp_path):
    (day,) = _game(
        tmp_path,
        [
            ("Host", "Day 1"),
            ("ann", "<b>VOTE: bea</b>"),
            ("dee", "<b>VOTE: bea</b>"),
            ("cal", "<b>VOTE: bea</b>"),
            ("eve", "<b>VOTE: cal</b>"),
            ("Host", "cal was lynched"),
        ],
        [
            *DAY1,
            {"kind": "day_end", "day": 1, "post": 5},
            {"kind": "death", "player": "cal", "phase": "D1", "cause": "lynched"},
        ],
    )
    messages = [w.message for w in day.warnings]
    assert (
        "the ledger records cal's execution on Day 1 (line 3), but the count executes bea "
        "at post 3" in messages
    )
    assert (
        "the ledger ends Day 1 at post 5, after the hammer at post 3; votes in posts 4 are "
        "not counted" in messages
    )


def test_an_agreeing_ledger_adds_no_warning(tmp_path):
    (day,) = _game(
        tmp_path,
        [
            ("Host", "Day 1"),
            ("ann", "<b>VOTE: bea</b>"),
            ("dee", "<b>VOTE: bea</b>"),
            ("cal", "<b>VOTE: bea</b>"),
            ("Host", "bea was lynched"),
        ],
        [
            *DAY1,
            {"kind": "day_end", "day": 1, "post": 4},
            {"kind": "death", "player": "bea", "phase": "D1", "cause": "lynched"},
        ],
    )
    assert day.outcome.kind is OutcomeKind.EXECUTION and day.warnings == ()


@pytest.mark.parametrize(
    ("text", "phase"),
    [
        ("D2", Phase(2, PhaseKind.DAY)),
        ("n0", Phase(0, PhaseKind.NIGHT)),
        ("Night 3", Phase(3, PhaseKind.NIGHT)),
        ("day 1", Phase(1, PhaseKind.DAY)),
    ],
)
def test_phase_parse(text, phase):
    assert Phase.parse(text) == phase
    assert str(phase) in ("D2", "N0", "N3", "D1")


@pytest.mark.parametrize("text", ["", "X2", "D", "D-1", "Dusk 2"])
def test_phase_parse_refuses(text):
    with pytest.raises(ValueError, match="is not a phase"):
        Phase.parse(text)


def test_the_public_face_lists_what_it_exports():
    """Every name in __all__ is importable from modtool and is that module's own object, and
    every public name of the library's modules that a user needs is listed."""
    import importlib

    for name in modtool.__all__:
        obj = getattr(modtool, name)
        home = importlib.import_module(obj.__module__)
        assert getattr(home, name) is obj
    assert {"count_game", "load_game", "Rules", "Rule", "DayCount", "ModToolError"} <= set(
        modtool.__all__
    )
    with pytest.raises(AttributeError):
        modtool.not_a_name  # noqa: B018


def test_count_game_is_one_call(tmp_path):
    _game(tmp_path, [("Host", "Day 1"), ("ann", "<b>VOTE: bea</b>")], DAY1)
    (day,) = modtool.count_game(tmp_path, days=1)
    assert day.wagons[0].target == "bea" and day.outcome.kind == "pending"


def test_a_newcomer_gets_one_warning_with_the_line_to_paste(tmp_path):
    (day,) = _game(
        tmp_path,
        [
            ("Host", "Day 1"),
            ("ann", "<b>VOTE: bea</b>"),
            ("bea", "<b>VOTE: ann</b>"),
            ("cal", "<b>VOTE: ann</b>"),
            ("eve", "<b>VOTE: cal</b>"),
            ("zed", "<b>VOTE: bea</b>"),
            ("zed", "<b>VOTE: cal</b>"),
        ],
        DAY1,
    )
    (warning,) = [w for w in day.warnings if "zed" in w.message]
    assert warning.post == 5
    assert warning.message == (
        "zed is not a player; their votes are ignored; if they replaced dee (the quietest "
        f"living player): `modtool record replacement {tmp_path} 'dee' 'zed' --post 5`"
    )


def test_a_dead_players_vote_is_a_warning_not_only_an_audit_line(tmp_path):
    # a game without ghost votes: the dead do not vote, and most games forbid them to post
    death = {"kind": "death", "player": "dee", "post": 1, "cause": "modkilled"}
    (day,) = _game(
        tmp_path,
        [("Host", "Day 1"), ("Host", "dee is modkilled"), ("dee", "<b>VOTE: bea</b>")],
        [*DAY1, death],
    )
    assert [(w.post, w.message) for w in day.warnings] == [
        (2, "dee is dead; their vote is not counted")
    ]
    assert day.wagons == () and [a.rule for a in day.audit] == [Rule.DEAD_VOTER]


def test_a_death_that_lowers_the_threshold_to_a_wagon_ends_the_count_at_its_post(tmp_path):
    deaths = [
        {"kind": "death", "player": "dee", "post": 3, "cause": "modkilled"},
        {"kind": "death", "player": "eve", "post": 4, "cause": "modkilled"},
    ]
    posts = [("Host", "Day 1"), ("ann", "<b>VOTE: cal</b>"), ("bea", "<b>VOTE: cal</b>")]
    (day,) = _game(
        tmp_path, [*posts, ("Host", "dee is out"), ("Host", "eve is out")], DAY1 + deaths
    )
    # 3 alive after eve's death at post 4: cal's 2 votes are a majority there
    assert (day.outcome.kind, day.outcome.post, day.last_post) == (OutcomeKind.EXECUTION, 4, 4)


def test_an_alt_account_is_suggested_as_one(tmp_path):
    (day,) = _game(tmp_path, [("Host", "Day 1"), ("anne", "<b>VOTE: bea</b>")], DAY1)
    (warning,) = day.warnings
    assert "did you mean 'ann'?" in warning.message and "accounts" in warning.message


def test_the_same_warning_on_several_posts_is_one_line():
    from modtool.core.count import grouped
    from modtool.core.results import Notice

    notes = [Notice(3, "x"), Notice(5, "y"), Notice(9, "x"), Notice(12, "x")]
    assert grouped(notes) == (Notice(3, "x (also posts 9, 12)"), Notice(5, "y"))


BOTC_RULES = 'preset = "botc-forum"'


@pytest.mark.parametrize(
    ("posts", "standing"),
    [
        # an unvote of a player one does not vote for takes nothing away
        ([("ann", "VTL bea"), ("ann", "Unvote cal")], {"bea": 1}),
        ([("ann", "VTL bea, VTL cal"), ("ann", "Unvote bea. Unvote cal")], {}),
        ([("ann", "VTL bea, VTL cal"), ("ann", "Unvote cal, VTL dee")], {"bea": 1, "dee": 1}),
        ([("ann", "VTL bea and VTL cal"), ("ann", "Unvote")], {}),
        ([("ann", "VTL bea"), ("ann", "Unvote. VTL cal")], {"cal": 1}),
        # names listed after a VTL: each a vote where it names a player; talk where not
        ([("ann", "VTL bea, cal and dee")], {"bea": 1, "cal": 1, "dee": 1}),
        ([("ann", "VTL bea, she lies")], {"bea": 1}),
        ([("ann", "VTL bea, cal"), ("ann", "Unvote cal, she lies")], {"bea": 1}),
    ],
)
def test_a_multi_vote_game_applies_each_action_of_a_line(tmp_path, posts, standing):
    (day,) = _game(tmp_path, [("Host", "Day 1"), *posts], DAY1, rules=BOTC_RULES)
    assert {w.target: w.votes for w in day.wagons if w.votes} == standing


@pytest.mark.parametrize("words", ["Unvote all", "unvote everyone", "Unvote all my votes"])
def test_an_unvote_of_all_takes_every_vote_not_a_player_named_like_all(tmp_path, words):
    players = [(p, 1) for p in ["ann", "bea", "cal", "allegra"]]
    posts = [("Host", "Day 1"), ("ann", "VTL bea, VTL allegra"), ("ann", words)]
    (day,) = _game(tmp_path, posts, DAY1, rules=BOTC_RULES, players=players)
    assert {w.target: w.votes for w in day.wagons if w.votes} == {}


def test_an_unvote_of_a_player_called_all_is_of_that_player(tmp_path):
    players = [(p, 1) for p in ["ann", "bea", "All"]]
    posts = [("Host", "Day 1"), ("ann", "VTL bea, VTL All"), ("ann", "Unvote All")]
    (day,) = _game(tmp_path, posts, DAY1, rules=BOTC_RULES, players=players)
    assert {w.target: w.votes for w in day.wagons if w.votes} == {"bea": 1}


def test_names_listed_after_a_vote_are_talk_in_a_game_of_one_vote_each(tmp_path):
    rules = 'preset = "mafiascum"\nsyntaxes = ["vtl"]'
    posts = [("Host", "Day 1"), ("ann", "VTL bea, cal")]
    (day,) = _game(tmp_path, posts, DAY1, rules=rules)
    assert {w.target: w.votes for w in day.wagons if w.votes} == {"bea": 1}
    assert not day.warnings
    assert {a.rule for a in day.audit if a.post == 1} == {Rule.VOTE, Rule.LISTED_TALK}


def test_an_unvote_of_a_vote_not_cast_is_in_the_audit_and_not_counted(tmp_path):
    (day,) = _game(
        tmp_path, [("Host", "Day 1"), ("ann", "VTL bea"), ("ann", "Unvote cal")], DAY1, BOTC_RULES
    )
    [entry] = [a for a in day.audit if a.post == 2]
    assert (entry.accepted, entry.rule) == (False, Rule.NO_SUCH_VOTE)


def test_a_correction_lists_the_actions_a_host_reads(tmp_path):
    posts = [("Host", "Day 1"), ("ann", "VTL bea, VTL cal"), ("ann", "moving to dee, sorry all")]
    fix = {"kind": "correction", "post": 2, "action": "actions", "actions": "unvote; vote dee"}
    (day,) = _game(tmp_path, posts, [*DAY1, fix], rules=BOTC_RULES)
    assert {w.target: w.votes for w in day.wagons if w.votes} == {"dee": 1}
    assert [a.raw for a in day.audit if a.post == 2] == [
        "[host correction] unvote",
        "[host correction] vote dee",
    ]


def test_a_correction_the_count_cannot_read_is_refused_when_recorded(tmp_path):
    fix = {"kind": "correction", "post": 1, "action": "actions", "actions": "unvote; dee please"}
    with pytest.raises(ModToolError, match="'dee please' is not an action"):
        _game(tmp_path, [("Host", "Day 1"), ("ann", "VTL bea")], [*DAY1, fix], BOTC_RULES)


def test_a_multi_vote_day_written_as_players_write(tmp_path):
    posts = [
        ("Host", "Day 1 begins. VTL Name to vote, Unvote to take it back."),
        ("ann", "Morning! I'd VTL cal if he claimed, but not yet."),
        ("bea", "VTL cal, VTL dee"),
        ("cal", "why did you VTL me? <b>Unvote</b> is what you should do"),
        ("dee", "Unvote. VTL cal"),  # nothing to take back yet; then a vote
        ("eve", "<blockquote>VTL eve</blockquote>lol no. VTL bea & VTL dee"),
        ("ann", "<s>VTL eve</s> VTL cal"),
        ("bea", "Unvote dee, VTL eve"),
        ("cal", "don't VTL cal, folks. VTL ann"),
        ("eve", "Unvote bea. Unvote dee"),
        ("dee", "Unvote eve"),  # dee votes only cal: cal's vote stays
    ]
    (day,) = _game(tmp_path, posts, DAY1, rules=BOTC_RULES)
    standing = {w.target: sorted(v.player for v in w.voters) for w in day.wagons if w.votes}
    assert standing == {"cal": ["ann", "bea", "dee"], "eve": ["bea"], "ann": ["cal"]}


@pytest.mark.parametrize(
    ("name", "chatter", "target", "method", "evidence"),
    [
        (
            "TomBrady",
            ["teebs is scum"],
            "teebs",
            "spoken-initials",
            "'teebs' says T-B aloud (tee-b-s); used in 2 posts (1, 2)",
        ),
        (
            "cloudocean",
            ["CO = Cloudocean, CS = CooLskins, to save typing"],
            "CO",
            "defined",
            "'CO' is defined as cloudocean in 1 post (1)",
        ),
        (
            "havingfitz",
            ["fitz is town", "no, fitz is scum", "fitz?", "Fitz voted late"],
            "Fritz",
            "short-form-slip",
            "'Fritz' read as 'fitz' with a letter added, the thread's short form for havingfitz "
            "(used in 4 posts (1, 2, 3, 4))",
        ),
    ],
)
def test_a_name_the_thread_teaches_counts_with_its_evidence_in_the_warning(
    tmp_path, name, chatter, target, method, evidence
):
    players = [(name, 1), ("CooLskins", 1), ("ann", 1), ("bea", 1)]
    (day,) = _game(
        tmp_path,
        [("Host", "Day 1"), *(("ann", c) for c in chatter), ("bea", f"<b>VOTE: {target}</b>")],
        DAY1,
        players=players,
    )
    assert [(w.target, w.votes) for w in day.wagons] == [(name, 1)]
    (warning,) = [w.message for w in day.warnings if f"'{target}'" in w.message]
    assert method in warning and evidence in warning


def test_a_revival_counts_the_player_again_from_its_post_and_no_earlier(tmp_path):
    # CONVENTIONS "Mid-day deaths (day kills, modkills), resurrections ... take effect at a
    # post number, and the threshold is recomputed"
    events = [
        *DAY1,
        {"kind": "death", "player": "eve", "post": 1, "cause": "modkilled"},
        {"kind": "revival", "player": "eve", "post": 3},
    ]
    (day,) = _game(
        tmp_path,
        [
            ("Host", "Day 1"),
            ("Host", "eve is modkilled"),
            ("eve", "<b>VOTE: ann</b>"),  # dead: not counted
            ("Host", "eve is back"),
            ("eve", "<b>VOTE: bea</b>"),
        ],
        events,
    )
    assert day.alive == 5 and day.threshold == 3  # counted at the day's end: eve is back
    assert [(w.target, w.votes) for w in day.wagons] == [("bea", 1)]
    assert [(w.post, w.message) for w in day.warnings] == [
        (2, "eve is dead; their vote is not counted"),  # dead from the day's first post
        (3, "eve is alive again, and may vote"),
    ]


def test_a_revival_leaves_the_days_before_it_as_they_were(tmp_path):
    events = [
        *DAY1,
        {"kind": "death", "player": "eve", "phase": "N1", "cause": "killed"},
        {"kind": "day_end", "day": 1, "post": 2},
        {"kind": "day_start", "day": 2, "post": 3},
        {"kind": "revival", "player": "eve", "phase": "N2"},
        {"kind": "day_end", "day": 2, "post": 4},
        {"kind": "day_start", "day": 3, "post": 5},
    ]
    posts = [("Host", "Day 1"), ("ann", "x"), ("Host", "night")]
    posts += [("Host", "Day 2"), ("Host", "night"), ("Host", "Day 3"), ("eve", "<b>VOTE: ann</b>")]
    day1, day2, day3 = _game(tmp_path, posts, events)
    assert (day1.alive, day2.alive, day3.alive) == (5, 4, 5)
    assert [(w.target, w.votes) for w in day3.wagons] == [("ann", 1)]


@pytest.mark.parametrize(
    ("events", "problem"),
    [
        (
            [{"kind": "revival", "player": "eve", "post": 1}],
            "eve is not dead at this line: a revival brings back a dead player",
        ),
        (
            [
                {"kind": "death", "player": "eve", "post": 1},
                {"kind": "revival", "player": "eve", "post": 2},
                {"kind": "revival", "player": "eve", "post": 3},
            ],
            "eve is not dead at this line",
        ),
        (
            [{"kind": "revival", "player": "eve"}],
            'revival needs "phase" \\("D2", "N1"\\) or "post" where it happened',
        ),
        (
            [
                {"kind": "death", "player": "eve", "post": 3},
                {"kind": "revival", "player": "eve", "post": 1},
            ],
            r"eve is revived before they die \(line 2\)",
        ),
    ],
)
def test_a_revival_of_one_not_dead_is_refused(tmp_path, events, problem):
    with pytest.raises(ModToolError, match=problem):
        _game(
            tmp_path, [("Host", "Day 1"), ("ann", "x"), ("bea", "y"), ("cal", "z")], DAY1 + events
        )


def test_one_revived_may_die_again(tmp_path):
    events = [
        *DAY1,
        {"kind": "death", "player": "eve", "post": 1},
        {"kind": "revival", "player": "eve", "post": 2},
        {"kind": "death", "player": "eve", "post": 3},
    ]
    posts = [("Host", "Day 1"), ("Host", "a"), ("Host", "b"), ("Host", "c")]
    posts.append(("eve", "<b>VOTE: ann</b>"))
    (day,) = _game(tmp_path, posts, events)
    assert day.alive == 4 and day.wagons == ()


def test_a_count_as_of_a_post_names_the_leader_as_the_wagons_name_it(tmp_path):
    events = [*DAY1, {"kind": "replacement", "player": "bea", "by": "zed", "post": 3}]
    posts = [("Host", "Day 1"), ("ann", "<b>VOTE: bea</b>"), ("cal", "<b>VOTE: bea</b>")]
    _game(tmp_path, [*posts, ("Host", "zed replaces bea"), ("dee", "x")], events)
    game = load_game(tmp_path)
    (day,) = count_days(game, read_game_posts(game), [1], as_of=2)
    assert [(w.target, w.votes) for w in day.wagons] == [("bea", 2)]
    assert day.outcome.reason == "Day 1 is in progress; leading: bea (2)"


def test_a_ghost_vote_spent_before_a_revival_stays_valid_when_they_die_again(tmp_path):
    events = [
        *DAY1,
        {"kind": "death", "player": "eve", "phase": "D1"},
        {"kind": "day_end", "day": 1, "post": 1},
        {"kind": "day_start", "day": 2, "post": 2},
        {"kind": "ghost_vote", "player": "eve", "day": 2},
        {"kind": "day_end", "day": 2, "post": 3},
        {"kind": "revival", "player": "eve", "phase": "N2"},
        {"kind": "day_start", "day": 3, "post": 4},
        {"kind": "death", "player": "eve", "post": 5},
    ]
    posts = [("Host", "D1"), ("Host", "end"), ("Host", "D2"), ("Host", "end"), ("Host", "D3")]
    days = _game(tmp_path, [*posts, ("Host", "eve is shot"), ("ann", "x")], events)
    assert [d.alive for d in days] == [5, 4, 4]
