"""threads/patterns.py: a lazily compiled pattern answers as the compiled one does."""

from __future__ import annotations

import re

import pytest

from modtool.threads.patterns import lazy


@pytest.mark.parametrize(
    ("pattern", "flags", "text"),
    [
        (r"\bvote\s*:\s*(\w+)", re.I, "VOTE: bo, then vote: cy"),
        (r"\s*(?:,|&)\s*", 0, "a, b & c"),
        (rb"charset=([A-Za-z0-9_-]+)", re.I, b"<meta charset=UTF-8>"),
    ],
)
def test_lazy_pattern_answers_as_compiled(pattern, flags, text) -> None:
    stand_in, compiled = lazy(pattern, flags), re.compile(pattern, flags)
    assert "compiled" not in vars(stand_in)  # nothing compiled before the first use
    first = stand_in.search(text)
    assert "compiled" in vars(stand_in)
    assert first is not None and first.group(0) == compiled.search(text).group(0)
    assert stand_in.findall(text) == compiled.findall(text)
    assert stand_in.split(text) == compiled.split(text)
    empty = text[:0]
    assert stand_in.sub(empty, text) == compiled.sub(empty, text)
    spans = [m.span() for m in stand_in.finditer(text)]
    assert spans == [m.span() for m in compiled.finditer(text)]
    assert (stand_in.pattern, stand_in.flags, stand_in.groups) == (
        compiled.pattern,
        compiled.flags,
        compiled.groups,
    )
    assert stand_in.compiled is stand_in.compiled  # compiled once
