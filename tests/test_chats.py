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
    ("RexFavilla", "CHAT CLOSE: Kohai's chat with Kohai, Magoroth"),  # 15 not in it
    ("Neros", "I made a chat with Banana and Pie"),  # 16 C6
    ("Neros", "I made a chat with Banana and Pie"),  # 17 C7: same members, another chat
    ("Shining", "Closing Neros's chat with Banana and Pie"),  # 18 two match: review
    ("Magoroth", "Closing Kohai's chat with Kohai."),  # 19 closed already: review
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
            ["Banana", "ILikePie5", "Kohai", "wylted", "Magoroth"],
            "announcement",
            10,
        ),
        "C2": (
            "RexFavilla",
            ["RexFavilla", "Neros", "Shining", "whiteflame", "awesome5000", "Kohai"],
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
        (19, "close"),
        (21, "close"),
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
    assert [(r["post"]) for r in day2["needs_review"]] == [14, 19]
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
