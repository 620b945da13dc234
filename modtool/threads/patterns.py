"""Regular expressions compiled when first used, not when their module is imported.

A count from a posts file imports the page-time, body and count-check readers but uses few of
their expressions; compiling them all at import cost several milliseconds of every command's
start-up. `lazy(pattern, flags)` stands for `re.compile(pattern, flags)`: on first use it
compiles and keeps the pattern's methods and attributes on itself, so later calls cost what a
compiled pattern's do. Give it to code that calls its methods; `re.sub(lazy(...), ...)` and
the like want a compiled pattern (`.compiled`).
"""

from __future__ import annotations

import re
from functools import cached_property

# What a module-level pattern is asked for, kept on the stand-in once compiled.
_KEPT = (
    "search",
    "match",
    "fullmatch",
    "finditer",
    "findall",
    "sub",
    "subn",
    "split",
    "pattern",
    "flags",
    "groups",
    "groupindex",
)


class LazyPattern:
    """`re.compile(pattern, flags)`, compiled on first use."""

    def __init__(self, pattern: str | bytes, flags: int = 0) -> None:
        self._source = (pattern, flags)

    @cached_property
    def compiled(self) -> re.Pattern:
        compiled = re.compile(*self._source)
        for name in _KEPT:
            setattr(self, name, getattr(compiled, name))
        return compiled

    def __getattr__(self, name: str):
        # Only for names not yet kept on the stand-in: the first use compiles.
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self._source[0]!r}, {self._source[1]!r})"


def lazy(pattern: str | bytes, flags: int = 0) -> LazyPattern:
    return LazyPattern(pattern, flags)
