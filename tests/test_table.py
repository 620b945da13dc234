"""modtool's plain-text tables are tabulate's "simple" tables, character for character, whether
modtool draws them itself (integers, None and plain ASCII text) or hands them to tabulate."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tabulate import tabulate

from modtool.core import table
from modtool.core.table import text_table

# Cells of every kind the commands print, and the ones that send a table to tabulate:
# numbers written as text, True/False, spaces at an end, wide and non-ASCII names, floats.
_WORDS = st.sampled_from(
    ["Elmwood", "L-1", "Fern (#11)", "no lynch", "D2", "N0", "#", "x", "a b", "12", "1.5",
     "1,000", "inf", "True", " pad", "이름", "Ünï", "…", "2026-12-01T10:00:00+00:00", "-3"]
)  # fmt: skip
_CELLS = st.one_of(
    st.none(),
    st.just(""),
    st.integers(-1000, 10**6),
    _WORDS,
    st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=12),
    st.floats(allow_nan=False, allow_infinity=False, width=16),
)
_HEADERS = st.sampled_from(["Wagon", "Votes", "Needs", "Voters", "", "#", "Line", "Posts", "시간"])


@st.composite
def _tables(draw):
    width = draw(st.integers(1, 5))
    headers = draw(st.lists(_HEADERS, min_size=width, max_size=width))
    column_kinds = draw(st.lists(st.sampled_from(["int", "text", "any"]), min_size=width,
                                 max_size=width))  # fmt: skip
    kinds = {"int": st.one_of(st.none(), st.integers(-99, 10**5)), "any": _CELLS}
    kinds["text"] = st.one_of(st.just(""), _WORDS)
    rows = draw(st.lists(st.tuples(*(kinds[k] for k in column_kinds)), min_size=0, max_size=6))
    return rows, tuple(headers)


@settings(max_examples=300, deadline=None)
@given(_tables())
def test_every_table_is_tabulates_simple_table(drawn):
    rows, headers = drawn
    assert text_table(rows, headers) == tabulate(rows, headers=headers)


def test_a_vote_count_table_is_drawn_without_tabulate():
    rows = [("Elmwood", 2, "L-1", "Fern (#11), Ginkgo (#13)"), ("Fern", 1, "L-2", "Elmwood")]
    headers = ("Wagon", "Votes", "Needs", "Voters")
    assert table._simple(rows, headers) == tabulate(rows, headers=headers)
    assert table._simple(rows, headers).splitlines()[1] == "-------  -------  -------  " + "-" * 24


@pytest.mark.parametrize(
    "rows",
    [
        [("이름", 1)],  # wide characters: wcwidth measures them
        [("12", 1)],  # a number written as text is aligned as a number
        [("True", 1)],
        [(" pad", 1)],  # tabulate strips the spaces
        [(1.5, 1)],
        [],  # no rows: tabulate's own empty table
    ],
)
def test_tables_only_tabulate_can_draw_go_to_it(rows):
    headers = ("Name", "N")
    assert table._simple(rows, headers) is None
    assert text_table(rows, headers) == tabulate(rows, headers=headers)
