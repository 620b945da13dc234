"""Kept clauses: the vote actions and chat announcements of a post read from a posts file are
read once, kept in the page cache beside the post's reading, and read back on the next run;
an edited post, a new body reader, a changed vote syntax and a changed chat syntax each read
them again (threads.kept)."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3

import pytest

import modtool.core.votes as votes
import modtool.host.chats as chats
import modtool.threads.body as body
from modtool.core.count import FIRST_BLOCK
from modtool.core.votes import VoteSyntax, find_votes, vote_reader
from modtool.games import load_game
from modtool.host.chats import chat_day_to_json, chat_log, chat_reader, read_announcements
from modtool.host.counting import count_game
from modtool.threads.cache import PageCache
from modtool.threads.fetch import open_fetcher
from modtool.threads.kept import code_digest, post_clauses
from modtool.threads.posts import Post
from modtool.threads.sources import read_game_posts, with_kept_readings

from .conftest import ROOT
from .test_chats import THREAD
from .test_chats import game as chat_game  # noqa: F401 - the fixture

BODIES = (
    "<b>VOTE: Aster</b>",
    "I think <i>Birch</i> is scum",
    "[vote]Cypress[/vote] and I started a chat with Aster and Birch.",
    "<blockquote>vote Dahlia</blockquote>closing my chat with Aster",
    "Made a GC with Birch + Cypress",
)
MS = (VoteSyntax.OFFICIAL, VoteSyntax.BOLD, VoteSyntax.BBCODE)


def _posts(bodies=BODIES) -> list[Post]:
    return [Post(str(i), i, "Birch", None, None, html) for i, html in enumerate(bodies)]


@pytest.fixture
def reads(monkeypatch) -> dict[str, list[str]]:
    """The own text of every post whose votes, or whose chat announcements, were read."""
    seen: dict[str, list[str]] = {"votes": [], "chats": []}

    def counted_votes(found, syntaxes):
        seen["votes"].append(found.text)
        return find_votes(found, syntaxes)

    def counted_chats(text):
        seen["chats"].append(text)
        return read_announcements(text)

    monkeypatch.setattr(votes, "find_votes", counted_votes)
    monkeypatch.setattr(chats, "read_announcements", counted_chats)
    return seen


def _run(cache: PageCache, bodies=BODIES, syntaxes=MS):
    """One run over the posts: readings kept or read, then votes and chats."""
    posts = _posts(bodies)
    with_kept_readings(posts, cache)
    return post_clauses(posts, vote_reader(syntaxes)), post_clauses(posts, chat_reader())


def test_a_second_run_reads_no_clause(tmp_path, reads):
    cache = PageCache(tmp_path / "c.sqlite")
    first = _run(cache)
    # the post-level test kept back the posts with no vote words, and those with no chat words
    assert reads["votes"] == [
        "VOTE: Aster",
        "[vote]Cypress[/vote] and I started a chat with Aster and Birch.",
    ]
    assert len(reads["chats"]) == 3
    again = _run(cache)
    assert len(reads["votes"]) == 2 and len(reads["chats"]) == 3  # nothing read again
    assert again == first
    assert [[a.target for a in found] for found in again[0]] == [["Aster"], [], ["Cypress"], [], []]
    assert [[a.kind for a in found] for found in again[1]] == [
        [],
        [],
        ["start"],
        ["close"],
        ["start"],
    ]


def test_only_posts_with_the_words_are_kept(tmp_path, reads):
    _run(PageCache(tmp_path / "c.sqlite"))
    with sqlite3.connect(tmp_path / "c.sqlite") as db:
        kinds = db.execute("SELECT kind, count(*) FROM clauses GROUP BY kind").fetchall()
    assert dict(kinds) == {vote_reader(MS).kind: 2, chat_reader().kind: 3}


def test_an_edited_post_is_read_again(tmp_path, reads):
    cache = PageCache(tmp_path / "c.sqlite")
    _run(cache)
    edited = (
        BODIES[0],
        BODIES[1],
        "[vote]Birch[/vote] and I closed my chat with Aster.",
        *BODIES[3:],
    )
    found_votes, found_chats = _run(cache, edited)
    assert reads["votes"][2:] == ["[vote]Birch[/vote] and I closed my chat with Aster."]
    assert reads["chats"][3:] == ["[vote]Birch[/vote] and I closed my chat with Aster."]
    assert found_votes[2][0].target == "Birch" and found_chats[2][0].kind == "close"


def test_a_new_reader_reads_every_post_again(tmp_path, reads, monkeypatch):
    cache = PageCache(tmp_path / "c.sqlite")
    first = _run(cache)
    monkeypatch.setattr(body, "reader_version", lambda: b"the next reader")
    assert _run(cache) == first
    assert len(reads["votes"]) == 2 * 2 and len(reads["chats"]) == 2 * 3


def test_a_changed_vote_syntax_reads_the_votes_again(tmp_path, reads):
    cache = PageCache(tmp_path / "c.sqlite")
    _run(cache)
    bold_only = (VoteSyntax.BOLD,)
    assert vote_reader(bold_only).kind != vote_reader(MS).kind
    found, _ = _run(cache, syntaxes=bold_only)
    assert len(reads["votes"]) == 2 * 2 and len(reads["chats"]) == 3  # the chats are kept
    assert [[a.target for a in f] for f in found] == [["Aster"], [], [], [], []]  # no BBCode
    _run(cache)  # the first syntax's votes are still kept
    assert len(reads["votes"]) == 2 * 2


def test_a_changed_chat_syntax_reads_the_chats_again(tmp_path, reads, monkeypatch):
    cache = PageCache(tmp_path / "c.sqlite")
    _run(cache)
    kind = chat_reader().kind
    # The game's chat syntax without "GC": post 4 starts no chat now, and is the host's to read.
    monkeypatch.setattr(
        chats, "_START", re.compile(r"\bstart(?:ed)?\s+a\s+chat\b(?P<rest>.*)", re.I)
    )
    assert chat_reader().kind != kind
    _, found = _run(cache)
    assert len(reads["chats"]) == 2 * 3 and len(reads["votes"]) == 2  # the votes are kept
    assert [[a.kind for a in f] for f in found] == [[], [], ["start"], ["close"], ["unclear"]]


def test_the_kind_follows_the_code_that_reads(tmp_path):
    code = tmp_path / "reader.py"
    code.write_text("VOTE = 'vote'\n")
    before = code_digest("votes", ["bold"], [code])
    assert code_digest("votes", ["bold"], [code]) == before
    assert code_digest("votes", ["official"], [code]) != before
    code.write_text("VOTE = 'vote|lynch'\n")
    assert code_digest("votes", ["bold"], [code]) != before


def test_posts_not_kept_are_read_each_run(tmp_path, reads):
    posts = _posts()
    post_clauses(posts, vote_reader(MS))
    post_clauses(posts, vote_reader(MS))  # the same posts: read once in a run
    post_clauses(_posts(), vote_reader(MS))
    assert len(reads["votes"]) == 2 * 2
    assert not (tmp_path / "c.sqlite").exists()


def test_no_post_kept_back_names_a_chat(chat_game):  # noqa: F811
    posts = read_game_posts(chat_game)
    reader = chat_reader()
    kept_back = [p for p in posts if not reader.wanted(p)]
    assert kept_back and all(reader.read(p) == [] for p in kept_back)
    assert sum(bool(reader.read(p)) for p in posts) >= len(THREAD) // 2


def test_the_chat_log_from_kept_clauses(chat_game, tmp_path, reads):  # noqa: F811
    def log():
        with open_fetcher(cache_path=tmp_path / "c.sqlite") as fetcher:
            posts = read_game_posts(chat_game, fetcher)
        return [chat_day_to_json(d) for d in chat_log(chat_game, posts)]

    fresh = [chat_day_to_json(d) for d in chat_log(chat_game, read_game_posts(chat_game))]
    read_fresh = len(reads["chats"])
    assert log() == fresh  # cold: read and kept (two posts of the same words read once)
    read_cold = len(reads["chats"]) - read_fresh
    assert 0 < read_cold < read_fresh
    assert log() == fresh  # warm: read back
    assert len(reads["chats"]) == read_fresh + read_cold


def test_a_count_from_kept_votes(tmp_path, reads):
    folder = ROOT / "games" / "example-mafia"

    def count():
        with open_fetcher(cache_path=tmp_path / "c.sqlite") as fetcher:
            game = load_game(folder)
            return count_game(game, "all", posts=read_game_posts(game, fetcher))

    fresh = count_game(folder, "all")
    read_fresh = len(reads["votes"])
    assert count() == fresh
    read_cold = len(reads["votes"]) - read_fresh
    assert 0 < read_cold <= read_fresh
    assert count() == fresh
    assert len(reads["votes"]) == read_fresh + read_cold


def test_a_day_ended_by_its_hammer_reads_few_posts_past_it(tmp_path, reads):
    folder = tmp_path / "game"
    shutil.copytree(ROOT / "games" / "example-mafia", folder)
    hammer = {
        "post_id": "m16",
        "number": 16,
        "author": "Birch_wood",
        "html": "<b>VOTE: Elmwood</b>",
    }
    chatter = [
        {"post_id": f"m{n}", "number": n, "author": "Fern", "html": "I will vote tomorrow"}
        for n in range(17, 17 + 4 * FIRST_BLOCK)
    ]
    with (folder / "thread.jsonl").open("a", encoding="utf-8") as fh:
        fh.writelines(json.dumps(post) + "\n" for post in (hammer, *chatter))
    day2 = count_game(folder, 2)[0]
    assert (day2.outcome.player, day2.outcome.post) == ("Elmwood", 16)
    # Day 2 starts at post 10: its first block of posts, not the 1,000 posts after the hammer
    assert len(reads["votes"]) <= 10 + FIRST_BLOCK
