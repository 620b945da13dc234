"""The vote grammar against the phrasing corpus (tests/vote_corpus.py), and the property that
chatter, markup and quoted votes put anywhere in a post do not change what it says."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from modtool.core.rules import rules_from_table
from modtool.core.votes import find_votes
from modtool.threads.body import parse_body

from .vote_corpus import cases

SYNTAXES = {
    preset: rules_from_table({"preset": preset}).syntaxes
    for preset in ("botc-forum", "mafiascum", "vampire")
}
CASES = list(cases())


def actions(html: str, preset: str) -> list[tuple[str, str]]:
    return [(a.kind.value, a.target) for a in find_votes(parse_body(html), SYNTAXES[preset])]


def test_the_corpus_is_large_and_covers_every_preset():
    assert len(CASES) >= 300
    assert {preset for _, preset, _, _ in CASES} == set(SYNTAXES)
    assert min(Counter(form for form, *_ in CASES).values()) >= 10


@pytest.mark.parametrize(
    ("form", "preset", "html", "expected"),
    CASES,
    ids=[f"{form}|{preset}|{html[:40]}" for form, preset, html, _ in CASES],
)
def test_a_careful_hosts_reading(form, preset, html, expected):
    assert actions(html, preset) == expected


# --- inserting what does not change a post ---------------------------------------------------

VOTE_LINES = {
    "botc-forum": [("VTL Ann", [("vote", "Ann")]), ("Unvote Bo", [("unvote", "Bo")])],
    "mafiascum": [("<b>Vote: Ann</b>", [("vote", "Ann")]), ("<b>Unvote</b>", [("unvote", "")])],
    "vampire": [("Vote: Ann", [("vote", "Ann")]), ("##unvote", [("unvote", "")])],
}
CHATTER = st.sampled_from(
    [
        "Morning all.",
        "I think Bo is scummy, and Cy too.",
        "why did you vote that way?",
        "I'd VTL Cy if she claimed",
        "don't vote Cy",
        "<i>just a feeling</i>",
        '<span style="color: #ff0000">red text</span>',
        '<span style="font-size: 85%">small print</span>',
        "<blockquote><cite>Cy wrote:</cite>VTL Dee<br><b>Vote: Dee</b></blockquote>",
        "<blockquote>##vote Dee</blockquote>",
        "[quote=Cy]<b>Vote: Dee</b> VTL Dee[/quote]",
        "<s>VTL Dee</s>",
        "lol",
    ]
)
MARKUP = st.sampled_from(["{}", "<i>{}</i>", '<span style="color: blue">{}</span>', "<u>{}</u>"])


@settings(max_examples=150, deadline=None)
@given(
    preset=st.sampled_from(sorted(VOTE_LINES)),
    picks=st.lists(st.integers(0, 1), min_size=1, max_size=3),
    chatter=st.lists(CHATTER, max_size=4),
    where=st.lists(st.integers(0, 10), min_size=4, max_size=4),
    wrap=MARKUP,
)
def test_chatter_markup_and_quotes_change_nothing(preset, picks, chatter, where, wrap):
    votes = [VOTE_LINES[preset][i] for i in picks]
    lines = [wrap.format(html) for html, _ in votes]
    for i, extra in enumerate(chatter):
        lines.insert(where[i] % (len(lines) + 1), extra)
    expected = [a for _, acts in votes for a in acts]
    assert actions("<br>".join(lines), preset) == expected
