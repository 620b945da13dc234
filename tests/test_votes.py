"""Vote extraction on real post markup; each mafiascum case cites its archive post."""

from __future__ import annotations

import pytest

from modtool.core.votes import ActionKind, VoteSyntax, find_votes, read_correction
from modtool.threads.body import parse_body

MS = (VoteSyntax.OFFICIAL, VoteSyntax.BOLD, VoteSyntax.BBCODE, VoteSyntax.HASH)
BOTC = (VoteSyntax.VTL, VoteSyntax.OFFICIAL, VoteSyntax.BOLD, VoteSyntax.BBCODE)


def votes(html: str, syntaxes=MS) -> list[tuple[str, str]]:
    return [(a.kind.value, a.target) for a in find_votes(parse_body(html), syntaxes)]


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        # Thread 16537 #22: the official [vote] tag.
        (
            '<span class="bbvote" title="This is an official vote.">VOTE: [winger]</span><br>'
            "mafia always seem to be around entrant 10",
            [("vote", "winger")],
        ),
        # Thread 16537 #23: a bold vote in the middle of a sentence.
        (
            "I want to OMGUS vote on crazypianist, but instead I will "
            '<span class="noboldsig">VOTE: Agar</span> for following my hilarious post',
            [("vote", "Agar")],
        ),
        # Thread 16537 #24: no space after the colon.
        ('/confirm<br><br><span class="noboldsig">VOTE:Parama</span>', [("vote", "Parama")]),
        # Thread 16537 #28: unvote and vote in one bold run, in order.
        (
            '<span class="noboldsig">Unvote, Vote: crazypianist</span>',
            [("unvote", ""), ("vote", "crazypianist")],
        ),
        # Thread 16537 #269: no separator between the two actions.
        ('<span class="noboldsig">Unvote Vote:Akira</span>', [("unvote", ""), ("vote", "Akira")]),
        # Thread 24199 #986: two official tags with nothing between them.
        (
            '<span class="bbvote" title="This is an official unvote.">UNVOTE: mastin</span>'
            '<span class="bbvote" title="This is an official vote.">VOTE: kush</span>',
            [("unvote", "mastin"), ("vote", "kush")],
        ),
        # Archive note of game 1805: "FoS: Dragon, Vote: MM4" in one bold run is a vote.
        ("<b>FoS: Dragon, Vote: MM4</b>", [("vote", "MM4")]),
        # Thread 16537 #32: the vote inside the quote does not count; the one after does.
        (
            '<blockquote><div><cite>Oso wrote:</cite><span class="noboldsig">Vote: Parama</span>'
            '</div></blockquote><br><span class="noboldsig">Vote: Oso</span>',
            [("vote", "Oso")],
        ),
        # Struck text inside a bold vote is not the vote, and does not end it.
        ("<b>Vote: <s>Bob</s> Alice</b>", [("vote", "Alice")]),
        ("<b>Vote: <del>Bob</del></b> <b>Alice</b>", [("vote", "Alice")]),
        ("<b>Vote:</b> <b>Alice</b>", [("vote", "Alice")]),
        # The colon outside the bold keyword.
        ("<b>VOTE</b>: Bob", [("vote", "Bob")]),
        # The name on the line after the keyword and its colon; a long line is not a name.
        ("<b>VOTE:<br>Bob</b>", [("vote", "Bob")]),
        ("<b>Vote:</b><br>Bob", [("vote", "Bob")]),
        (
            "<b>Vote:</b><br>I have thought long about it and I am still not sure who",
            [("vote", "")],
        ),
        # A heading is no vote: section titles ("Vote history", "Vote Count Day 2") are.
        ("<h3>Vote history</h3>", []),
        ("<h2>Vote Count Day 2</h2>", []),
        ("<b>Do not vote hiraki</b>", []),
        # Game 1469 #666: asking for the count is not a vote for "count please?".
        ("<b>Vote count please?</b>", []),
        ("<b>Vote: Count Dracula</b>", [("vote", "Count Dracula")]),
        ("I will vote Oso today", []),
        ("<strike><b>Vote: Oso</b></strike> <b>Vote: Akira</b>", [("vote", "Akira")]),
        (
            '<div class="quotetitle"><b>Spoiler: </b></div><div class="quotecontent"><div>'
            "<b>Vote: Oso</b></div></div>",
            [],
        ),
        (
            '<div class="codebox"><p>Code: <a href="#">Select all</a></p><pre><code>'
            "[b]Vote: Oso[/b]</code></pre></div>",
            [],
        ),
        # "VOTE: unvote": a keyword that ends its clause is the target (names reads it as
        # an unvote), so that a player named like a keyword can be voted for.
        ("<b>VOTE: unvote</b>", [("vote", "unvote")]),
        ("## vote Kohai<br>## unvote", [("vote", "Kohai"), ("unvote", "")]),
        ("[vote]Kohai[/vote] then [unvote][/unvote]", [("vote", "Kohai"), ("unvote", "")]),
        ('<span style="font-weight: bold">Vote: No Lynch</span>', [("vote", "No Lynch")]),
    ],
)
def test_mafiascum_markup(html, expected):
    assert votes(html) == expected


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ("VTL Kohai", [("vote", "Kohai")]),
        ("Morning all. Kohai was quiet.<br>VTL Kohai", [("vote", "Kohai")]),
        ("Both look off. VTL Kohai<br>VTL wylted", [("vote", "Kohai"), ("vote", "wylted")]),
        ("VTL Shinning, that vote on me was random.", [("vote", "Shinning")]),
        ("Unvote", [("unvote", "")]),
        ("Unvote wylted<br>Kohai is enough for today.", [("unvote", "wylted")]),
        ("I will not unvote until he claims.", []),
        ("<blockquote><cite>Banana said:</cite>VTL wylted</blockquote>Not convinced.", []),
        ("vtl albert b. rampage", [("vote", "albert b. rampage")]),
        # "Living players can vote to lynch any number of players at once": names listed
        (
            "VTL Kohai, wylted and Banana",
            [("vote", "Kohai"), ("vote", "wylted"), ("vote", "Banana")],
        ),
        ("VTL Kohai + wylted", [("vote", "Kohai"), ("vote", "wylted")]),
        ("VTL C++ Guy", [("vote", "C++ Guy")]),
        # a vote count a player posts is no list of names, nor a vote's next line
        ("VTL:<br>Kohai (2): wylted, Banana", [("vote", "")]),
        ("Unvote Kohai, wylted", [("unvote", "Kohai"), ("unvote", "wylted")]),
        ("VTL Kohai, he is clearly lying to all of us", [("vote", "Kohai")]),
        ("VTL Kohai, or wylted?", [("vote", "Kohai")]),
    ],
)
def test_vtl_syntax_of_seed_003(html, expected):
    assert votes(html, BOTC) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("투표: 바나나", [("vote", "바나나")]),
        ("투표： 바나나", [("vote", "바나나")]),
        ("투표 변경: 바나나", [("vote", "바나나")]),
        ("바나나에게 투표합니다", [("vote", "바나나")]),
        ("바나나 투표요", [("vote", "바나나")]),
        ("바나나한테 투표할게요", [("vote", "바나나")]),
        ("사과가 바나나에게 투표했습니다", []),  # a report of another's vote
        ("바나나 투표합니다ㅎㅎ", [("vote", "바나나")]),
        ("바나나 투표 👍", [("vote", "바나나")]),
        ("저는 바나나에게 투표합니다", [("vote", "바나나")]),
        ("투표 취소", [("unvote", "")]),
        ("투표 취소합니다", [("unvote", "")]),
        ("사과 투표 취소하고 바나나 투표", [("unvote", ""), ("vote", "바나나")]),
        ("투표 취소, 바나나에게 투표합니다", [("unvote", ""), ("vote", "바나나")]),
        ("바나나 투표하지 마세요", []),
        ("바나나 투표할까요?", []),
        ("바나나 투표?", []),
        ("오늘 투표는 신중하게 합시다", []),
    ],
)
def test_korean_vocabulary(text, expected):
    assert votes(text, (VoteSyntax.KOREAN,)) == expected


def test_korean_is_off_unless_the_game_switches_it_on():
    assert votes("투표: 바나나", MS) == []


def test_a_full_width_colon_is_a_colon():
    assert votes("Vote： Alice", (VoteSyntax.PLAIN,)) == [("vote", "Alice")]


def test_plain_vote_needs_its_syntax_and_a_colon():
    assert votes("Vote: Kohai", MS) == []
    assert votes("Vote: Kohai", (VoteSyntax.PLAIN,)) == [("vote", "Kohai")]
    assert votes("vote Kohai", (VoteSyntax.PLAIN,)) == []


def test_actions_keep_their_kind():
    [action] = find_votes(parse_body("<b>Unvote</b>"), MS)
    assert action.kind is ActionKind.UNVOTE and action.syntax is VoteSyntax.BOLD


def test_own_text_drops_quotes_signatures_and_keeps_spoilers():
    body = parse_body(
        "<blockquote><div><cite>Oso wrote:</cite>quoted words</div></blockquote>"
        'my words <img src="x.gif" alt=":)"> <div class="quotetitle"><b>Spoiler: </b></div>'
        '<div class="quotecontent"><div>hidden words</div></div>'
        '<div class="signature">my sig</div>'
    )
    assert body.text == "my words hidden words"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("unvote; vote Bob", [("unvote", ""), ("vote", "Bob")]),
        ("unvote Ann, vote Cy, vote Dee", [("unvote", "Ann"), ("vote", "Cy"), ("vote", "Dee")]),
        ("unvote then vote no lynch", [("unvote", ""), ("vote", "no lynch")]),
        ("Vote: Albert B. Rampage", [("vote", "Albert B. Rampage")]),
    ],
)
def test_a_correction_is_a_list_of_actions(text, expected):
    assert [(a.kind.value, a.target) for a in read_correction(text)] == expected
    assert all(a.syntax is None for a in read_correction(text))


@pytest.mark.parametrize("text", ["", "Bob", "unvote; Bob", "vote"])
def test_a_correction_that_is_not_a_list_of_actions_is_refused(text):
    with pytest.raises(ValueError):
        read_correction(text)
