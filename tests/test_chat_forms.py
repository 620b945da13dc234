"""Chat announcements in the forms players write them (seed 003, "Group Chats"), freshly
written for the clause reader: labels and lists, members in parentheses and with "+", the
poster as "me"/"my", short names, a chat named by its members, and a chat opened at night."""

from __future__ import annotations

import json
import shutil

import pytest

from modtool.games import load_game
from modtool.host.chats import chat_day_to_json, chat_log, read_announcements
from modtool.threads.sources import read_game_posts

from .conftest import EXAMPLE

FORMS = [
    # starting a chat
    ("GC start: Ann + Bo", "start", "my", (), ("Ann", "Bo")),
    ("new GC: me, ann and cy", "start", "my", (), ("me", "ann", "cy")),
    ("New chat: Ann, Bo", "start", "my", (), ("Ann", "Bo")),
    ("Started a GC w/ Ann and Bo", "start", "my", (), ("Ann", "Bo")),
    ("starting a group chat with Ann & Bo", "start", "my", (), ("Ann", "Bo")),
    ("I'm making a chat with Ann/Bo", "start", "my", (), ("Ann", "Bo")),
    ("created a private chat with Ann, Bo, and Cy", "start", "my", (), ("Ann", "Bo", "Cy")),
    ("opened a group DM (Ann, Bo)", "start", "my", (), ("Ann", "Bo")),
    ("Set up a discord group with Ann plus Bo", "start", "my", (), ("Ann", "Bo")),
    ("Chat started: Ann + Bo + Cy", "start", "my", (), ("Ann", "Bo", "Cy")),
    ("gc with ann and bo started", "start", "my", (), ("ann", "bo")),
    ("Spun up a GC with Ann", "start", "my", (), ("Ann",)),
    (
        "formed a chat with Ann and Bo, and Thoth is in it",
        "start",
        "my",
        (),
        ("Ann", "Bo", "Thoth"),
    ),
    ("Made another chat with Ann", "start", "my", (), ("Ann",)),
    ("one more GC: Bo, Cy", "start", "my", (), ("Bo", "Cy")),
    ("I started a chat.", "start", "my", (), ()),
    # adding to a chat
    ("adding Cy to my chat (Ann's; Bo is already in)", "add", "Ann", ("Cy",), ("Bo",)),
    ("added Cy to my GC with Ann and Bo", "add", "my", ("Cy",), ("Ann", "Bo")),
    (
        "Adding Cy + Dee to Ann's chat (already in: Ann, Bo)",
        "add",
        "Ann",
        ("Cy", "Dee"),
        ("Ann", "Bo"),
    ),
    ("invited Cy into my chat, Ann and Bo are already in", "add", "my", ("Cy",), ("Ann", "Bo")),
    (
        "Bringing Cy into Ann's GC (Ann, Bo and me are in it)",
        "add",
        "Ann",
        ("Cy",),
        ("Ann", "Bo", "me"),
    ),
    ("add: Cy to my chat with Ann", "add", "my", ("Cy",), ("Ann",)),
    (
        "pulled Dee into the chat Ann started (members: Ann, Bo)",
        "add",
        "Ann",
        ("Dee",),
        ("Ann", "Bo"),
    ),
    ("I invited Cy to the GC started by Bo, with Bo and Ann", "add", "Bo", ("Cy",), ("Bo", "Ann")),
    ("adding Cy and Dee to my chat", "add", "my", ("Cy", "Dee"), ()),
    ("Added Cy to Bo's group chat, Bo and me are already in", "add", "Bo", ("Cy",), ("Bo", "me")),
    ("added cy to ann's gc (current members: ann, bo)", "add", "ann", ("cy",), ("ann", "bo")),
    # closing a chat
    ("closing Bo's chat (Bo + me)", "close", "Bo", (), ("Bo", "me")),
    ("closing the chat with Ann and Bo", "close", None, (), ("Ann", "Bo")),
    ("Closed my GC with Ann", "close", "my", (), ("Ann",)),
    ("ending Ann's chat with Ann, Bo and Cy", "close", "Ann", (), ("Ann", "Bo", "Cy")),
    ("Shutting down my group DM (me, Ann, Bo)", "close", "my", (), ("me", "Ann", "Bo")),
    ("Ann's GC is closed (Ann, Bo, me)", "close", "Ann", (), ("Ann", "Bo", "me")),
    ("the chat with Ann and Bo is closed", "close", None, (), ("Ann", "Bo")),
    ("GC closed: my chat with Ann", "close", "my", (), ("Ann",)),
    ("I'm closing the chat Bo started, with Bo and Cy", "close", "Bo", (), ("Bo", "Cy")),
    ("closing down the GC started by Ann (Ann, Bo)", "close", "Ann", (), ("Ann", "Bo")),
    ("Killing my chat with Bo + Cy", "close", "my", (), ("Bo", "Cy")),
    ("done with Ann's chat, it had Ann and me", "close", "Ann", (), ()),
    ("closing my chat", "close", "my", (), ()),
    ("Ended the GC with ann & bo.", "close", None, (), ("ann", "bo")),
    ("closing our chat (Ann's, with Bo)", "close", "Ann", (), ("Bo",)),
    # a probe's announcements, in a forum Clocktower thread
    (
        "adding Kohai to my chat with Neros and Shining",
        "add",
        "my",
        ("Kohai",),
        ("Neros", "Shining"),
    ),
    (
        "Adding wylted to Banana's chat (already in: Banana, Shining, Kohai, Neros)",
        "add",
        "Banana",
        ("wylted",),
        ("Banana", "Shining", "Kohai", "Neros"),
    ),
    # "PT", "private topic", "GC", "group chat" and "chat" are one thing; "X and I" names members
    ("Rex, white and I are in a PT now", "start", "my", (), ("Rex", "white", "I")),
    ("new chat: Kohai/Magoroth/Shining", "start", "my", (), ("Kohai", "Magoroth", "Shining")),
    (
        "Closing my chat with Neros, Shining, Kohai.",
        "close",
        "my",
        (),
        ("Neros", "Shining", "Kohai"),
    ),
    ("Closing the chat.", "close", None, (), ()),
    ("Spun up a GC with Neros & wylted", "start", "my", (), ("Neros", "wylted")),
    ("Invited Rex to my GC with Neros & wylted", "add", "my", ("Rex",), ("Neros", "wylted")),
    ("adding Banana to my PT (Rex + white)", "add", "my", ("Banana",), ("Rex", "white")),
    (
        "Closing Pie's chat with Rex, white, Pie and me",
        "close",
        "Pie",
        (),
        ("Rex", "white", "Pie", "me"),
    ),
    ("Adding Neros to my chat", "add", "my", ("Neros",), ()),
    (
        "Closing wylted's chat with Kohai, Magoroth, Shining, Neros",
        "close",
        "wylted",
        (),
        ("Kohai", "Magoroth", "Shining", "Neros"),
    ),
    (
        "Adding whiteflame to my chat (Banana + Neros already in)",
        "add",
        "my",
        ("whiteflame",),
        ("Banana", "Neros"),
    ),
    (
        "Adding Kohai to my chat with Banana and wylted",
        "add",
        "my",
        ("Kohai",),
        ("Banana", "wylted"),
    ),
    ("Started a second chat with Neros and Shining", "start", "my", (), ("Neros", "Shining")),
    (
        "Closing the chat Banana started with Neros and Shining",
        "close",
        "Banana",
        (),
        ("Neros", "Shining"),
    ),
    ("started a chat w/ pie and rex", "start", "my", (), ("pie", "rex")),
    ("Kohai and I started a chat", "start", "my", (), ("Kohai", "I")),
    ("Started a chat with Bob and Shining", "start", "my", (), ("Bob", "Shining")),
    ("Closing wylted's chat with Shining and me", "close", "wylted", (), ("Shining", "me")),
    ("just made a GC with Neros", "start", "my", (), ("Neros",)),
    ("PT with white started", "start", "my", (), ("white",)),
    (
        "Closing the chat Banana started with Shining and me",
        "close",
        "Banana",
        (),
        ("Shining", "me"),
    ),
    # players listed with the poster and no chat named: for the host to read
    ("me + awesome5000", "unclear", None, (), ("me", "awesome5000")),
    # further phrasings of the same kinds
    ("made a PT with Ann and Bo", "start", "my", (), ("Ann", "Bo")),
    ("Opened a private topic with Ann + Cy", "start", "my", (), ("Ann", "Cy")),
    ("closing my PT with Ann", "close", "my", (), ("Ann",)),
    ("Added Cy to Bo's private topic (already in: Bo, Ann)", "add", "Bo", ("Cy",), ("Bo", "Ann")),
    ("group chat with Ann and Bo started", "start", "my", (), ("Ann", "Bo")),
    ("Ann, Bo and I started a GC", "start", "my", (), ("Ann", "Bo", "I")),
    # a chat another player started, as one of its members reports it (rule 1: the one who
    # starts a chat states it; the report still says whose chat it is)
    ("Bo started a chat with me", "start", "Bo", (), ("me",)),
    ("so Bo made a GC with me and Cy", "start", "Bo", (), ("me", "Cy")),
    ("Bo and I are in a chat, started by Bo", "start", "Bo", (), ("Bo", "I")),
    ("I'm in a chat with Cy, started by Bo", "start", "Bo", (), ("Cy",)),
    ("We started a chat with Ann", "start", "my", (), ("Ann",)),
    ("Me and Ann made a chat", "start", "my", (), ("Me", "Ann")),
    ("Ann and I are in a GC now", "start", "my", (), ("Ann", "I")),
    ("Cy + me started a private topic", "start", "my", (), ("Cy", "me")),
    ("Ann & I opened a chat", "start", "my", (), ("Ann", "I")),
    ("Made a third chat with Ann", "start", "my", (), ("Ann",)),
    ("Starting a 2nd GC with Bo and Cy", "start", "my", (), ("Bo", "Cy")),
    ("PT w/ Bo started", "start", "my", (), ("Bo",)),
    ("adding Cy to my GC (Ann + Bo)", "add", "my", ("Cy",), ("Ann", "Bo")),
    ("invited Dee to my chat (Ann, Bo already in)", "add", "my", ("Dee",), ("Ann", "Bo")),
    ("Adding Cy to Ann's chat (Ann + Bo already in)", "add", "Ann", ("Cy",), ("Ann", "Bo")),
    ("Closing Ann's PT with Bo and me", "close", "Ann", (), ("Bo", "me")),
    ("ending the PT Ann started (Ann, Bo, me)", "close", "Ann", (), ("Ann", "Bo", "me")),
    ("Ann + me", "unclear", None, (), ("Ann", "me")),
    ("me & Bo & Cy", "unclear", None, (), ("me", "Bo", "Cy")),
    ("the GC I made with Ann got shut", "close", "my", (), ("Ann",)),
    # a sentence that names a chat and an act no form reads: for the host, never dropped
    ("Kohai was added to my chat with Ann", "unclear", None, (), ()),
]


@pytest.mark.parametrize(("text", "kind", "owner", "added", "members"), FORMS)
def test_an_announcement_form(text, kind, owner, added, members):
    (a,) = read_announcements(text)
    assert (a.kind, a.owner, a.added, a.members) == (kind, owner, added, members)


@pytest.mark.parametrize("text", ["CHAT CLOSE: C2", "chat close: c2", "Chat Close: C2"])
def test_a_chat_named_by_its_id_in_any_case(text):
    (a,) = read_announcements(text)
    assert (a.kind, a.owner, a.chat_id) == ("close", "id", "C2")


def test_there_are_forty_forms_or_more():
    assert len(FORMS) >= 40


@pytest.mark.parametrize(
    "text",
    [
        "chats are overrated",
        "I'd start a chat with Ann if she asked",
        "should we close chats before the deadline?",
        "nobody added me to anything lol",
        "I've been added to Banana's chat",  # the one added says so: the creator announces it
        "I got added to Ann's PT",
        "I was invited to Bo's GC",
        "I'm in another PT with Bo",
        "I'd start a chat with Neros if he wanted to talk",
        "Should I start a chat with Banana?",
        "Forgot to invite Thoth at first, added him now.",
        "바나나, 샤이닝이랑 채팅방 만들었어요",
        "me and the boys",
        # from real mafiascum threads (no chat rules there): "GC" is a player, "PT" a word
        "I made a case against GC, got a response from him.",
        "Amateur, Gallatin, CF, Peta, Slaxx, FUT, me",
        "Your attempt to make somebody scummy based on how they play.",
    ],
)
def test_talk_about_chats_is_not_an_announcement(text):
    assert read_announcements(text) == []


THREAD = [
    ("Thoth", "Day 1 begins."),  # 0
    ("Banana", "new GC: me, pie and rex"),  # 1  C1: names the game's aliases give
    ("Banana", "adding Kohai to my chat (Banana's; Pie and Rex are already in)"),  # 2
    ("whiteflame", "GC start: Neros + Shining"),  # 3  C2
    ("Neros", "closing white's chat (white, Shining + me)"),  # 4  the closer counts themself
    ("Kohai", "closing the chat with Banana, Pie, Rex and me"),  # 5  C1 named by its members
    ("Magoroth", "Started a GC w/ Neros and wylted"),  # 6  C3
    ("Magoroth", "Made another chat with Neros and wylted"),  # 7  C4: same members
    ("wylted", "the chat with Neros and Magoroth is closed"),  # 8  two match: review
    ("Shining", "opened a group DM (awesome, Zorro)"),  # 9  no such player: review
    ("Thoth", "Day 1 is over."),  # 10
    ("Kohai", "made a chat with mago + awesome"),  # 11 night: C5
    ("Thoth", "Day 2 begins."),  # 12
]


@pytest.fixture
def game(tmp_path):
    folder = tmp_path / "g"
    shutil.copytree(EXAMPLE, folder)
    lines = [
        json.dumps({"post_id": str(n), "number": n, "author": a, "url": None, "html": t})
        for n, (a, t) in enumerate(THREAD)
    ]
    (folder / "thread.jsonl").write_text("\n".join(lines) + "\n")
    events = (
        {"kind": "day_start", "day": 1, "post": 0},
        {"kind": "day_end", "day": 1, "post": 10},
        {"kind": "day_start", "day": 2, "post": 12},
    )
    (folder / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    return load_game(folder)


def test_a_thread_written_as_players_write(game):
    day1, day2 = (chat_day_to_json(d) for d in chat_log(game, read_game_posts(game)))
    chats = {c["id"]: (c["creator"], c["members"], c["closed"]["post"]) for c in day1["chats"]}
    assert chats == {
        "C1": ("Banana", ["Banana", "ILikePie5", "RexFavilla", "Kohai"], 5),
        "C2": ("whiteflame", ["whiteflame", "Neros", "Shining"], 4),
        "C3": ("Magoroth", ["Magoroth", "Neros", "wylted"], 10),
        "C4": ("Magoroth", ["Magoroth", "Neros", "wylted"], 10),
    }
    # the close by members names no creator (seed 003, rule 4); nothing else is broken
    assert [(v["post"], v["rule"]) for v in day1["violations"]] == [(5, "creator_not_named")]
    assert [(r["post"], r["reason"].split(":")[0]) for r in day1["needs_review"]] == [
        (8, "close"),
        (9, "start"),
    ]
    # short names are read with the resolver's evidence, for the host to check (an alias of
    # the game's, as "pie" and "rex" are, needs no checking)
    read = [(n["post"], n["written"], n["player"], n["how"]) for n in day1["names"]]
    assert read == [
        (4, "white", "whiteflame", "prefix, confidence 0.90"),
        (9, "awesome", "awesome5000", "word, confidence 0.93"),
    ]
    # a chat started at night is a violation of its own
    assert [(c["id"], c["members"]) for c in day2["chats"]] == [
        ("C5", ["Kohai", "Magoroth", "awesome5000"])
    ]
    assert [(v["post"], v["rule"]) for v in day2["violations"]] == [(11, "chat_at_night")]


def test_a_line_break_ends_an_announcement(game):
    lines = [
        json.dumps({"post_id": "0", "number": 0, "author": "Thoth", "url": None, "html": "Day 1"}),
        json.dumps(
            {
                "post_id": "1",
                "number": 1,
                "author": "Banana",
                "url": None,
                "html": "GC start: Kohai + Neros<br>new GC: Shining, wylted",
            }
        ),
    ]
    (game.folder / "thread.jsonl").write_text("\n".join(lines) + "\n")
    (game.folder / "events.jsonl").write_text('{"kind": "day_start", "day": 1, "post": 0}\n')
    game = load_game(game.folder)
    (day,) = chat_log(game, read_game_posts(game))
    assert [c.members for c in day.chats] == [
        ["Banana", "Kohai", "Neros"],
        ["Banana", "Shining", "wylted"],
    ]


@pytest.mark.parametrize(
    "talk",
    ["I'm in another chat with Bo", "there is a new chat with Ann", "no new chat with Ann"],
)
def test_new_or_another_chat_mentioned_mid_sentence_is_not_a_start(talk):
    # "new", "another", "one more" announce a chat only when they open the sentence
    assert read_announcements(talk) == []
