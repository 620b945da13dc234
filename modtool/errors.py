"""All exceptions modtool raises on purpose.

* ModToolError            every user-facing error; its message is one line: what, and how to fix it
  - GameFileError         a setup or ledger file is missing or malformed (names file and line)
  - SourceError           a thread source cannot be read (bad path, unknown format)
  - FetchError            a live page could not be fetched
"""

from __future__ import annotations

import json
import re
from functools import cache


@cache  # compiled when an error is first shown, not by every command's start-up
def _secrets() -> tuple[re.Pattern, re.Pattern]:
    """user:password@ in a URL, and the query values that carry a login or a session."""
    login_in_url = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/?#\s]*@")
    secret_query = re.compile(
        r"(?i)([?&;](?:password|passwd|pwd|pass|token|sid|session|auth)=)[^&#\s]*"
    )
    return login_in_url, secret_query


def without_secrets(text: str) -> str:
    """Text safe to print: every URL in it without a user name, password or session token."""
    login_in_url, secret_query = _secrets()
    return secret_query.sub(r"\1***", login_in_url.sub(r"\1", text))


def json_problem(exc: ValueError, line: str = "") -> str:
    """What is wrong with one line of JSON, for a one-line error: where and how to fix it (the
    json module's own message stops at "Invalid control character at")."""
    if not isinstance(exc, json.JSONDecodeError):
        return "nested too deeply to be read (brackets in brackets); remove the line or fix it"
    where = f"column {exc.colno}"
    if exc.msg.startswith("Invalid control character") and exc.pos < len(line):
        code = ord(line[exc.pos])
        return (
            f"not valid JSON (a raw control character U+{code:04X} inside a string at {where}); "
            f"write it as \\u{code:04x} or remove it"
        )
    return f"not valid JSON ({exc.msg.removesuffix(' at')} at {where})"


class ModToolError(Exception):
    "Base class: the message is shown to the user as one line, never with a URL's login."

    def __str__(self) -> str:
        return without_secrets(super().__str__())


class GameFileError(ModToolError):
    "A game folder file is missing or malformed."

    def __init__(self, path: object, problem: str, line: int | None = None) -> None:
        where = f"{path}:{line}" if line is not None else f"{path}"
        super().__init__(f"{where}: {problem}")
        self.path = path
        self.line = line
        self.problem = problem


class SourceError(ModToolError):
    "A thread source cannot be read."


class FetchError(ModToolError):
    "A live page could not be fetched."
