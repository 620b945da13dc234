"""Regular expressions compiled when first used, not when their module is imported.

A count from a posts file imports the page-time, body, vote and count-check readers but uses
few of their expressions (a 20-post count used 19 of the 77 they compiled); compiling them
all cost several milliseconds of every command's start-up. `lazy(pattern, flags)` stands for
`re.compile(pattern, flags)`: on first use it compiles and keeps the compiled pattern's
methods and attributes on itself, so later calls cost what a compiled pattern's do. Give it
to code that calls its methods; `re.sub(lazy(...), ...)` and the like want a compiled
pattern (`.compiled`).
"""

from __future__ import annotations

import re
from functools import cached_property

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")


def _first_use(name: str):
    def method(self, *args, **kwargs):
        return getattr(self.compiled, name)(*args, **kwargs)

    method.__name__ = name
    return method


class LazyPattern:
    """`re.compile(pattern, flags)`, compiled on first use. Its methods, once compiled, are the
    compiled pattern's own, kept on the instance (no __getattr__: it would slow every call)."""

    def __init__(self, pattern: str | bytes, flags: int = 0) -> None:
        self._source = (pattern, flags)

    @cached_property
    def compiled(self) -> re.Pattern:
        compiled = re.compile(*self._source)
        for name in _METHODS:
            setattr(self, name, getattr(compiled, name))
        return compiled

    search = _first_use("search")
    match = _first_use("match")
    fullmatch = _first_use("fullmatch")
    finditer = _first_use("finditer")
    findall = _first_use("findall")
    sub = _first_use("sub")
    subn = _first_use("subn")
    split = _first_use("split")

    @cached_property
    def pattern(self) -> str | bytes:
        return self.compiled.pattern

    @cached_property
    def flags(self) -> int:
        return self.compiled.flags

    @cached_property
    def groups(self) -> int:
        return self.compiled.groups

    @cached_property
    def groupindex(self):
        return self.compiled.groupindex

    def __repr__(self) -> str:
        return f"lazy({self._source[0]!r}, {self._source[1]!r})"


def lazy(pattern: str | bytes, flags: int = 0) -> LazyPattern:
    return LazyPattern(pattern, flags)
