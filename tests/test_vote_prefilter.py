"""The post-level test before a post's lines are read for votes: it may let a post through
that holds none, never keep one back that holds one."""

from __future__ import annotations

import pytest

from modtool.core.votes import VoteSyntax, find_votes, may_hold_votes
from modtool.games import load_game
from modtool.threads.posts import Post
from modtool.threads.sources import read_game_posts

from .conftest import ROOT

ALL = tuple(VoteSyntax)
WITHOUT_KOREAN = tuple(s for s in VoteSyntax if s is not VoteSyntax.KOREAN)


@pytest.mark.parametrize(
    ("html", "syntaxes", "may"),
    [
        ("<b>VOTE: Aster</b>", WITHOUT_KOREAN, True),
        ("unvote", WITHOUT_KOREAN, True),
        ("[vote]Birch[/vote]", WITHOUT_KOREAN, True),
        ("VTL Cypress", WITHOUT_KOREAN, True),
        ("<b>V</b>ote Dahlia", WITHOUT_KOREAN, True),  # letters joined across a tag
        ("I think Birch is scum", WITHOUT_KOREAN, False),
        ("<blockquote>vote Aster</blockquote>no", WITHOUT_KOREAN, False),  # quoted: not own
        ("투표: 아스터", WITHOUT_KOREAN, False),
        ("투표: 아스터", ALL, True),
    ],
)
def test_may_hold_votes(html, syntaxes, may):
    post = Post("1", 1, "Birch", None, None, html)
    assert may_hold_votes(post.text, syntaxes) is may
    if not may:
        assert find_votes(post.body, syntaxes) == []


@pytest.mark.parametrize("example", ["example-mafia", "example-botc", "example-vampires"])
def test_no_post_kept_back_holds_a_vote(example):
    posts = read_game_posts(load_game(ROOT / "games" / example))
    kept_back = [p for p in posts if not may_hold_votes(p.text, WITHOUT_KOREAN)]
    assert all(find_votes(p.body, WITHOUT_KOREAN) == [] for p in kept_back)
    assert any(find_votes(p.body, WITHOUT_KOREAN) for p in posts)
