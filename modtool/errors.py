"""All exceptions modtool raises on purpose.

* ModToolError            every user-facing error; its message is one line: what, and how to fix it
  - GameFileError         a setup or ledger file is missing or malformed (names file and line)
  - SourceError           a thread source cannot be read (bad path, unknown format)
  - FetchError            a live page could not be fetched
"""

from __future__ import annotations


class ModToolError(Exception):
    "Base class: the message is shown to the user as one line."


class GameFileError(ModToolError):
    "A game folder file is missing or malformed."

    def __init__(self, path: object, problem: str, line: int | None = None) -> None:
        where = f"{path}:{line}" if line is not None else f"{path}"
        super().__init__(f"{where}: {problem}")
        self.path = path
        self.line = line


class SourceError(ModToolError):
    "A thread source cannot be read."


class FetchError(ModToolError):
    "A live page could not be fetched."
