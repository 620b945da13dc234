"""The group-chat log of seed 003 on a SYNTHETIC thread written in that game's style: a dozen
announcements phrased the ways players write them, every rule broken at least once."""

from __future__ import annotations

import json
import shutil

import pytest

from modtool.games import load_game
from modtool.host.chats import RULES, chat_day_to_json, chat_log, read_announcements
from modtool.threads.sources import read_game_posts

from .conftest import EXAMPLE

THREAD = [
    ("Thoth", "Day 1 begins. Chats are open."),  # 0
    ("Banana", "I started a chat with Pie and Kohai."),  # 1  C1
    ("RexFavilla", "Made a GC with Neros + Shining"),  # 2  C2
    ("Banana", "Added wylted to my chat with Pie and Kohai."),  # 3
    ("Kohai", "I added Magoroth to Banana's chat (already in: Banana, Pie, Kohai, wylted)"),  # 4
    ("RexFavilla", "adding whiteflame to the GC with Neros and Shining"),  # 5
    ("Shining", "Added awesome5000 to Rex's chat"),  # 6
    ("RexFavilla", "Added Kohai to my chat (already in: Neros, Magoroth)"),  # 7
    ("Neros", "CHAT START: whiteflame, Shining"),  # 8  C3
    ("whiteflame", "I started a new group DM."),  # 9  C4
    ("ILikePie5", "Closing Banana's chat with Banana, Kohai, wylted, Magoroth."),  # 10
    ("Thoth", "Day 1 is over: nobody was executed."),  # 11 (day 1 ends)
    ("Kohai", "Started a chat with Magoroth."),  # 12 night: C5
    ("Thoth", "Day 2 begins."),  # 13 (day 2 starts after this post)
    ("wylted", "Closing Rex's chat with Rex, Neros, Shining."),  # 14 closed at day end
    ("RexFavilla", "CHAT CLOSE: Kohai's chat with Kohai, Magoroth"),  # 15 not in it: still open
    ("Neros", "I made a chat with Banana and Pie"),  # 16 C6
    ("Neros", "I made a chat with Banana and Pie"),  # 17 C7: same members, another chat
    ("Banana", "Closing Neros's chat with Banana and Pie"),  # 18 two match: review
    ("Magoroth", "Closing Kohai's chat with Kohai."),  # 19 a member closes it
    ("Banana", "[quote]I started a chat with Kohai[/quote] no I did not"),  # 20 nothing
    ("Neros", "Closing the chat with Zorro and Banana."),  # 21 no such player
    ("Thoth", "Day 2 is over."),  # 22
]


@pytest.fixture
def game(tmp_path):
    folder = tmp_path / "g"
    shutil.copytree(EXAMPLE, folder)
    lines = []
    for n, (author, text) in enumerate(THREAD):
        html = text.replace("[quote]", "<blockquote>").replace("[/quote]", "</blockquote>")
        post = {"post_id": str(n), "number": n, "author": author, "url": None, "html": html}
        post["time"] = f"2026-11-02T{10 + n // 4:02d}:{(n * 7) % 60:02d}:00-05:00"
        lines.append(json.dumps(post))
    (folder / "thread.jsonl").write_text("\n".join(lines) + "\n")
    (folder / "events.jsonl").write_text(
        "".join(
            json.dumps(e) + "\n"
            for e in (
                {"kind": "day_start", "day": 1, "post": 0},
                {"kind": "day_end", "day": 1, "post": 11},
                {"kind": "day_start", "day": 2, "post": 13},
                {"kind": "day_end", "day": 2, "post": 22},
            )
        )
    )
    return load_game(folder)


def test_the_registry_and_violations_of_each_day(game):
    day1, day2 = (chat_day_to_json(d) for d in chat_log(game, read_game_posts(game)))
    chats = {
        c["id"]: (c["creator"], c["members"], c["closed"]["how"], c["closed"].get("post"))
        for c in day1["chats"]
    }
    assert chats == {
        "C1": (
            "Banana",
            ["Banana", "ILikePie5", "Kohai", "wylted"],  # Kohai may not add (rule 2)
            "announcement",
            10,
        ),
        "C2": (
            "RexFavilla",
            ["RexFavilla", "Neros", "Shining", "whiteflame", "Kohai"],  # nor may Shining
            "day_end",
            11,
        ),
        "C3": ("Neros", ["Neros", "whiteflame", "Shining"], "day_end", 11),
        "C4": ("whiteflame", ["whiteflame"], "day_end", 11),
    }
    assert [(v["post"], v["rule"], v["chat"]) for v in day1["violations"]] == [
        (4, "non_creator_add", "C1"),
        (5, "creator_not_named", "C2"),
        (6, "non_creator_add", "C2"),
        (6, "existing_members_not_stated", "C2"),
        (7, "existing_members_mismatch", "C2"),
        (9, "members_not_named", "C4"),
    ]
    assert day1["needs_review"] == []
    chats2 = {
        c["id"]: (c["creator"], c["members"], c["closed"]["how"], c["opened_post"])
        for c in day2["chats"]
    }
    assert chats2 == {
        "C5": ("Kohai", ["Kohai", "Magoroth"], "announcement", 12),
        "C6": ("Neros", ["Neros", "Banana", "ILikePie5"], "day_end", 16),
        "C7": ("Neros", ["Neros", "Banana", "ILikePie5"], "day_end", 17),
    }
    assert [(v["post"], v["rule"]) for v in day2["violations"]] == [
        (12, "chat_at_night"),
        (15, "close_by_non_member"),
    ]
    assert [(r["post"], r["reason"].split(":")[0]) for r in day2["needs_review"]] == [
        (14, "close"),
        (18, "close"),
        (21, "close"),
    ]
    assert [
        (e.post, e.kind, e.by) for e in chat_log(game, read_game_posts(game))[1].chats[0].events
    ] == [
        (12, "start", "Kohai"),
        (19, "close", "Magoroth"),  # not RexFavilla's at 15, who is not in it (rule 3)
    ]
    # every rule is broken at least once in this thread
    broken = {v["rule"] for d in (day1, day2) for v in d["violations"]}
    assert broken == set(RULES)


@pytest.mark.parametrize(
    ("text", "kind", "owner", "added", "members"),
    [
        ("I started a chat with Pie and Kohai.", "start", "my", (), ("Pie", "Kohai")),
        ("made a GC with Rex + Neros & me", "start", "my", (), ("Rex", "Neros", "me")),
        ("Opened a discord group with Banana, Shining", "start", "my", (), ("Banana", "Shining")),
        ("CHAT START: Banana, Pie", "start", "my", (), ("Banana", "Pie")),
        (
            "adding wylted to Rex's chat (already in: Rex, Neros)",
            "add",
            "Rex",
            ("wylted",),
            ("Rex", "Neros"),
        ),
        ("CHAT ADD: Kohai (to: me, Banana)", "add", "my", ("Kohai",), ("me", "Banana")),
        ("Closing my chat with Banana and Pie", "close", "my", (), ("Banana", "Pie")),
        ("ended the group chat started by Neros, with Pie", "close", "Neros", (), ("Pie",)),
    ],
)
def test_announcements_as_players_write_them(text, kind, owner, added, members):
    (a,) = read_announcements(text)
    assert (a.kind, a.owner, a.added, a.members) == (kind, owner, added, members)


def test_talk_about_chats_is_not_an_announcement():
    assert read_announcements("I think chats are overrated.") == []


def test_a_host_correction_reads_a_post_the_host_way(game):
    from modtool.core.ledger import append_event

    # post 18 matched two chats; the host says which, in the short form
    text = "CHAT CLOSE: C6"  # the two chats have the same members: the host names one
    append_event(game, {"kind": "chat_correction", "post": 18, "text": text})
    append_event(load_game(game.folder), {"kind": "chat_correction", "post": 21, "text": ""})
    game = load_game(game.folder)
    (day2,) = (chat_day_to_json(d) for d in chat_log(game, read_game_posts(game), [2]))
    assert [(r["post"]) for r in day2["needs_review"]] == [14]
    closed = {c["id"]: c["closed"]["how"] for c in day2["chats"]}
    assert closed == {"C5": "announcement", "C6": "announcement", "C7": "day_end"}


def test_a_close_that_misstates_the_members_is_flagged(game):
    thread = [
        ("Thoth", "Day 1"),
        ("Banana", "I started a chat with Pie and Kohai."),
        ("Kohai", "Closing Banana's chat with Banana and Neros."),
    ]
    lines = [
        json.dumps({"post_id": str(n), "number": n, "author": a, "url": None, "html": t})
        for n, (a, t) in enumerate(thread)
    ]
    (game.folder / "thread.jsonl").write_text("\n".join(lines) + "\n")
    (game.folder / "events.jsonl").write_text('{"kind": "day_start", "day": 1, "post": 0}\n')
    game = load_game(game.folder)
    (day,) = chat_log(game, read_game_posts(game))
    assert [(v.post, v.rule) for v in day.violations] == [(2, "existing_members_mismatch")]
    assert day.chats[0].closed["how"] == "announcement"


def test_a_post_to_review_comes_with_the_command_that_settles_it():
    from modtool.host.chats import ChatDay, Review
    from modtool.host.render import chats_text

    day = ChatDay(2, [], [], [Review(14, "Ann", "close: no open chat matches (CHAT CLOSE)")])
    text = chats_text(day)
    assert "  post 14: Ann: needs review: close: no open chat matches (CHAT CLOSE)\n" in text
    assert text.endswith(
        '  to read a post as you do: modtool record chat-correction GAME POST "CHAT START: ..." '
        '(the short form), or "" to ignore its announcements'
    )
    assert "to read a post" not in chats_text(ChatDay(2, [], [], []))


def _thread_game(game, thread, events=({"kind": "day_start", "day": 1, "post": 0},)):
    lines = [
        json.dumps({"post_id": str(n), "number": n, "author": a, "url": None, "html": t})
        for n, (a, t) in enumerate(thread)
    ]
    (game.folder / "thread.jsonl").write_text("\n".join(lines) + "\n")
    (game.folder / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    return load_game(game.folder)


def _day(game, thread, events=({"kind": "day_start", "day": 1, "post": 0},)):
    game = _thread_game(game, thread, events)
    (day,) = chat_log(game, read_game_posts(game))
    return day


def test_the_chats_of_a_day_still_going_are_open(game):
    # rule 5 "All chats close at the end of each day": the day has not ended (no day_end, no
    # deadline), so its chats are open; end-day and a preview of the day-end post close them
    from modtool.host.days import end_day
    from modtool.host.drafts import dayend_context

    thread = [("Thoth", "Day 1 begins."), ("Banana", "Started a chat with Neros"), ("Kohai", "hi")]
    game = _thread_game(game, thread)
    (day,) = chat_log(game, read_game_posts(game))
    assert [(c.id, c.closed) for c in day.chats] == [("C1", None)]
    closing = end_day(game, read_game_posts(game), 1, dry_run=True, at_post=2)
    assert closing.events[0].chats_closed == ("C1",)
    preview = dayend_context(game, read_game_posts(game), 1, preview=True)
    assert [c["id"] for c in preview["chats_closed"]] == ["C1"]


@pytest.mark.parametrize(
    ("closer", "close"),
    [
        ("Kohai", "Closing wylted's chat with Shining and me"),
        ("Kohai", "Closing the chat wylted started with Shining and me"),
        ("Shining", "ending the chat started by wylted (Kohai + me)"),
    ],
)
def test_a_chat_named_by_its_creator_names_the_creator_a_member(game, closer, close):
    thread = [
        ("Thoth", "Day 1"),
        ("wylted", "Started a chat with Kohai and Shining"),
        (closer, close),
    ]
    day = _day(game, thread)
    assert day.violations == []
    assert day.chats[0].closed["how"] == "announcement"


def test_a_close_by_one_not_in_the_chat_leaves_it_open(game):
    # rule 3 "Anyone in a chat may end it": one who is not in it cannot
    thread = [
        ("Thoth", "Day 1"),
        ("wylted", "Started a chat with Kohai and Shining"),
        ("RexFavilla", "Closing wylted's chat with Kohai and Shining"),
        ("Kohai", "Closing wylted's chat with Shining and me"),
    ]
    day = _day(game, thread)
    assert [(v.post, v.rule) for v in day.violations] == [(2, "close_by_non_member")]
    assert [(e.post, e.kind, e.by) for e in day.chats[0].events] == [
        (1, "start", "wylted"),
        (3, "close", "Kohai"),
    ]
    assert (day.chats[0].closed["post"], day.chats[0].closed["by"]) == (3, "Kohai")


@pytest.mark.parametrize(
    "close",
    [
        "Closing my chat with Neros, Shining, Kohai.",
        "Closing my chat with Neros, Shining, Kohai, wylted.",  # as it is in Discord
    ],
)
def test_an_add_by_one_who_did_not_start_the_chat_is_flagged_and_not_made(game, close):
    # rule 2 "Only the player who started a chat may add people to that chat"
    thread = [
        ("Thoth", "Day 1"),
        ("Banana", "Started a chat with Neros and Shining."),
        ("Banana", "adding Kohai to my chat with Neros and Shining"),
        ("Neros", "Adding wylted to Banana's chat (already in: Banana, Shining, Kohai, Neros)"),
        ("Banana", close),
    ]
    day = _day(game, thread)
    assert [(v.post, v.rule) for v in day.violations] == [(3, "non_creator_add")]
    assert "wylted not counted a member" in day.violations[0].detail
    assert day.chats[0].members == ["Banana", "Neros", "Shining", "Kohai"]
    assert day.chats[0].closed["how"] == "announcement"


def test_what_cannot_be_tied_to_a_chat_is_for_review_in_the_posters_words(game):
    thread = [
        ("Thoth", "Day 1"),
        ("Magoroth", "me + awesome5000"),
        ("Magoroth", "Closing my chat with awesome5000"),
        ("Kohai", "Neros was added to my chat with Shining"),
        ("wylted", "me and him, obviously"),  # not a list of players: talk
    ]
    day = _day(game, thread)
    assert day.chats == [] and day.violations == []
    assert [(r.post, r.reason) for r in day.needs_review] == [
        (1, "players listed with the poster, no chat named (me, awesome5000)"),
        (2, "close: no open chat matches (Magoroth's chat with awesome5000)"),
        (3, "a chat and an act no form reads (a start, add or close?)"),
    ]


def test_a_chat_another_player_started_is_theirs(game):
    # rule 1 "When you start a chat, state ... which player(s) you are chatting with" and rule 2
    # "Only the player who started a chat may add": a member's report names the starter
    thread = [
        ("Thoth", "Day 1"),
        ("Banana", "Started a chat with Neros"),
        ("Neros", "Banana started a chat with me"),  # the same chat: nothing new
        ("Kohai", "Shining started a chat with me"),  # Shining said nothing: for review
        ("Shining", "adding Neros to my chat with Kohai"),
        ("wylted", "Finally started a chat with Banana"),  # no player "Finally": the poster's
    ]
    day = _day(game, thread)
    assert [(c.id, c.creator, c.members) for c in day.chats] == [
        ("C1", "Banana", ["Banana", "Neros"]),
        ("C2", "Shining", ["Shining", "Kohai", "Neros"]),
        ("C3", "wylted", ["wylted", "Banana"]),
    ]
    assert day.violations == []
    assert [(r.post, r.reason) for r in day.needs_review] == [
        (3, "start: Kohai says Shining started it; the one who starts a chat states it (rule 1)"),
    ]


def test_members_listed_with_the_poster_start_a_chat_of_them(game):
    thread = [
        ("Thoth", "Day 1"),
        ("whiteflame", "Kohai and I started a chat"),
        ("ILikePie5", "Rex, white and I are in a PT now"),
        ("ILikePie5", "adding Banana to my PT (Rex + white)"),
        ("Banana", "Started a second chat with Neros and Shining"),
        ("Neros", "PT with white started"),
    ]
    day = _day(game, thread)
    assert [(c.creator, c.members) for c in day.chats] == [
        ("whiteflame", ["whiteflame", "Kohai"]),
        ("ILikePie5", ["ILikePie5", "RexFavilla", "whiteflame", "Banana"]),
        ("Banana", ["Banana", "Neros", "Shining"]),
        ("Neros", ["Neros", "whiteflame"]),
    ]
    assert day.violations == [] and day.needs_review == []


PROBE = [  # a probe's thread: announcements as players write them (all SYNTHETIC)
    ("Thoth", "Day 1 begins."),  # 0
    ("Banana", "Started a chat with Neros and Shining."),  # 1  C1
    ("Banana", "adding Kohai to my chat with Neros and Shining"),  # 2
    ("Neros", "Adding wylted to Banana's chat (already in: Banana, Shining, Kohai, Neros)"),  # 3
    ("ILikePie5", "Rex, white and I are in a PT now"),  # 4  C2
    ("Magoroth", "me + awesome5000"),  # 5  no chat named: review
    ("wylted", "new chat: Kohai/Magoroth/Shining"),  # 6  C3
    ("Kohai", "I've been added to Banana's chat"),  # 7  nothing
    ("Shining", "<blockquote>Started a chat with Neros and Shining.</blockquote>lol ok"),  # 8
    ("Banana", "Closing my chat with Neros, Shining, Kohai."),  # 9
    ("whiteflame", "Closing the chat."),  # 10 review
    ("RexFavilla", "I'd start a chat with Neros if he wanted to talk"),  # 11
    ("Neros", "Should I start a chat with Banana?"),  # 12
    ("awesome5000", "Started a chat with Bob and Shining"),  # 13 review
    ("Shining", "Started a chat with Banana and Neros. Forgot to invite Thoth, added him now."),
    ("Magoroth", "Spun up a GC with Neros & wylted"),  # 15 C5
    ("Magoroth", "Invited Rex to my GC with Neros & wylted"),  # 16
    ("ILikePie5", "adding Banana to my PT (Rex + white)"),  # 17
    ("Banana", "Closing Pie's chat with Rex, white, Pie and me"),  # 18
    ("wylted", "Adding Neros to my chat"),  # 19
    ("RexFavilla", "Closing wylted's chat with Kohai, Magoroth, Shining, Neros"),  # 20
    ("Shining", "Adding whiteflame to my chat (Banana + Neros already in)"),  # 21
    ("Shining", "Adding Kohai to my chat with Banana and wylted"),  # 22
    ("Banana", "Started a second chat with Neros and Shining"),  # 23 C6
    ("Neros", "Closing the chat Banana started with Neros and Shining"),  # 24
    ("Kohai", "started a chat w/ pie and rex"),  # 25 C7
    ("whiteflame", "Kohai and I started a chat"),  # 26 C8
    ("Magoroth", "Closing my chat with Neros, wylted, Rex. Also closing my chat with awesome5000."),
    ("Neros", "바나나, 샤이닝이랑 채팅방 만들었어요"),  # 28
    ("Thoth", "Day 1 is over. Night falls."),  # 29
    ("Kohai", "Started a chat with Neros"),  # 30 night: C9
]


def test_a_probe_thread_reads_as_a_host_reads_it(game):
    events = ({"kind": "day_start", "day": 1, "post": 0}, {"kind": "day_end", "day": 1, "post": 29})
    game = _thread_game(game, PROBE, events)
    (day1,) = chat_log(game, read_game_posts(game))  # the night is Day 1's until Day 2 starts
    chats = [(c.id, c.creator, c.members, c.closed and c.closed["post"]) for c in day1.chats]
    assert chats == [
        ("C1", "Banana", ["Banana", "Neros", "Shining", "Kohai"], 9),
        ("C2", "ILikePie5", ["ILikePie5", "RexFavilla", "whiteflame", "Banana"], 18),
        ("C3", "wylted", ["wylted", "Kohai", "Magoroth", "Shining", "Neros"], 29),
        ("C4", "Shining", ["Shining", "Banana", "Neros", "whiteflame", "Kohai"], 29),
        ("C5", "Magoroth", ["Magoroth", "Neros", "wylted", "RexFavilla"], 27),
        ("C6", "Banana", ["Banana", "Neros", "Shining"], 24),
        ("C7", "Kohai", ["Kohai", "ILikePie5", "RexFavilla"], 29),
        ("C8", "whiteflame", ["whiteflame", "Kohai"], 29),
        ("C9", "Kohai", ["Kohai", "Neros"], None),
    ]
    assert [(v.post, v.rule) for v in day1.violations] == [
        (3, "non_creator_add"),
        (19, "existing_members_not_stated"),
        (20, "close_by_non_member"),
        (22, "existing_members_mismatch"),
        (30, "chat_at_night"),
    ]
    assert [r.post for r in day1.needs_review] == [5, 10, 13, 27]


def test_a_replacement_keeps_the_chats_of_the_slot(game):
    # one who replaces a player takes their place in the chats the player was in, or started:
    # "my chat" is the chat Kohai started, and Hikari may end it or add to it
    thread = [
        ("Thoth", "Day 1"),
        ("Kohai", "Started a chat with wylted"),
        ("Banana", "Started a chat with Kohai"),
        ("Thoth", "Hikari replaces Kohai"),
        ("Hikari", "Adding Neros to my chat with wylted"),
        ("Hikari", "Closing Banana's chat with me"),
        ("Hikari", "Closing my chat with wylted and Neros"),
    ]
    events = (
        {"kind": "day_start", "day": 1, "post": 0},
        {"kind": "replacement", "player": "Kohai", "by": "Hikari", "post": 3},
    )
    day = _day(game, thread, events)
    assert day.violations == [] and day.needs_review == []
    assert [(c.id, c.closed["post"] if c.closed else None) for c in day.chats] == [
        ("C1", 6),
        ("C2", 5),
    ]
    assert (day.chats[0].creator, day.chats[0].members) == ("Hikari", ["Hikari", "wylted", "Neros"])
    assert [(e.kind, e.by) for e in day.chats[0].events] == [
        ("start", "Kohai"),
        ("add", "Hikari"),
        ("close", "Hikari"),
    ]
    assert chat_day_to_json(day)["chats"][0]["creator"] == "Kohai"  # who started it
