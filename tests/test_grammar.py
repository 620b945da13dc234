"""The grammar's two rules on their own: where clauses end, and what a clause holds."""

from __future__ import annotations

import re

import pytest

from modtool.core.grammar import Vocabulary, clauses, clauses_at, read_clause

VTL = Vocabulary(re.compile(r"(?P<un>un)vote|vtl", re.I))
PLAIN = Vocabulary(re.compile(r"(?P<un>un)?vote", re.I), colon_required=True)
VOTE_WORD = re.compile(r"(?<!un)(?:vote|vtl)\s*$", re.I)  # the caller's vote keywords


def parts(text: str, starts=(), vote_word=VOTE_WORD) -> list[str]:
    found = clauses(text, starts, vote_word)
    return [text[c.start : c.end].strip() + ("?" if c.question else "") for c in found]


def test_a_mark_after_a_keyword_is_its_colon_only_for_the_caller_s_keywords():
    assert parts("Vote; TheFool") == ["Vote; TheFool"]
    assert parts("Vote; TheFool", vote_word=None) == ["Vote", "TheFool"]
    assert parts("Lynch, Ann", vote_word=re.compile(r"lynch\s*$", re.I)) == ["Lynch, Ann"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Unvote. VTL Bob", ["Unvote", "VTL Bob"]),
        ("VTL Ann, VTL Bo; VTL Cy", ["VTL Ann", "VTL Bo", "VTL Cy"]),
        ("VTL Ann and VTL Bo then VTL Cy", ["VTL Ann", "VTL Bo", "VTL Cy"]),
        ("VTL Ann & VTL Bo / VTL Cy", ["VTL Ann", "VTL Bo", "VTL Cy"]),
        ("vtl albert b. rampage", ["vtl albert b. rampage"]),
        ("Vote Mr. Ree", ["Vote Mr. Ree"]),
        ("VTL - Ann", ["VTL - Ann"]),
        ("Vote; TheFool", ["Vote; TheFool"]),
        ("Unvote; Vote: Ann", ["Unvote", "Vote: Ann"]),
        ("Unvote Ann - vote Bo", ["Unvote Ann", "vote Bo"]),
        ("why did you VTL Ann? odd", ["why did you VTL Ann?", "odd"]),
        ("Sandy then Andrew", ["Sandy", "Andrew"]),
        ('saying "if I\'m top, vote me" is odd', ['saying "if I\'m top, vote me" is odd']),
        ("he wrote “no. VTL Ann” then left", ["he wrote “no. VTL Ann”", "left"]),
        ("his 'ok, VTL Ann' post", ["his 'ok, VTL Ann' post"]),
        ("I'm sure, it's Bo's", ["I'm sure", "it's Bo's"]),  # apostrophes pair nothing
        ('an open "quote, VTL Ann', ['an open "quote', "VTL Ann"]),  # unpaired: not a quotation
    ],
)
def test_where_clauses_end(text, expected):
    assert parts(text) == expected


def test_a_caller_may_start_clauses():
    assert parts("I will VOTE: Agar for that", [7, 18]) == ["I will", "VOTE: Agar", "for that"]


def test_a_caller_s_start_inside_a_quotation_starts_no_clause():
    text = 'saying "if top, vote me" is odd'
    assert parts(text, [text.index("vote")]) == [text]


@pytest.mark.parametrize(
    "text",
    [
        "Unvote. VTL Bob, then VTL Cy",
        "a long run of words before: VTL Ann and VTL Bo",
        "Vote; TheFool, and VTL - Ann",
    ],
)
def test_clauses_around_keywords_are_the_clauses_of_the_line(text):
    keywords = [m.start() for m in re.finditer("vote|vtl", text, re.I)]
    near = clauses_at(text, keywords, (), VOTE_WORD)
    assert set(near) <= set(clauses(text, (), VOTE_WORD)) and near


@pytest.mark.parametrize(
    ("text", "vocabulary", "expected"),
    [
        ("VTL Ann", VTL, [(False, "Ann")]),
        ("Unvote Carl VTL Dan", VTL, [(True, "Carl "), (False, "Dan")]),
        ("Unvote Vote", VTL, [(True, "Vote")]),
        ("VTL Unvote", VTL, [(False, "Unvote")]),
        ("Ghost vote: VTL Ann", VTL, [(False, "Ann")]),
        ("don't VTL Ann", VTL, []),
        ("VTL Ann if she claims", VTL, []),
        # the poster as the subject, in the present: "I VTL Ann" is "VTL Ann"
        ("I VTL Ann", VTL, [(False, "Ann")]),
        ("so I unvote", VTL, [(True, "")]),
        ("I'd VTL Ann", VTL, []),
        ("I will VTL Ann", VTL, []),
        ("I VTL Ann if she claims", VTL, []),
        ("Vote: Ann", PLAIN, [(False, "Ann")]),
        ("Vote Ann", PLAIN, []),
        ("Unvote", PLAIN, [(True, "")]),
    ],
)
def test_what_a_clause_holds(text, vocabulary, expected):
    (clause,) = clauses(text)
    found = read_clause(text, clause, vocabulary)
    assert [(r.unvote, r.target) for r in found] == expected
