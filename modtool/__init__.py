"""modtool: read a forum game's thread, find the votes, apply the game's rules, draft host posts.

The library face, for scripts and other tools (the `modtool` command is a thin layer on it):

    import modtool
    for day in modtool.count_game("demo"):  # the example game `modtool example demo` writes
        print(day.day, day.outcome.kind, day.outcome.player)

Names are imported when first used, so `import modtool` stays quick for the command line.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

# Each public name and the module that defines it.
_EXPORTS = {
    "core.count": "AuditEntry DayCount Notice Outcome OutcomeKind Voter Wagon count_days",
    "host.counting": "count_game",
    "host.checking": "with_posted_counts",  # a count beside the counts posted in the thread
    "games": "find_game load_game",
    "errors": "FetchError GameFileError ModToolError SourceError",
    "core.ledger": "Event EventKind Game Phase PhaseKind Slot",
    "core.names": "Method Resolution Resolver TargetKind",
    "threads.posts": "Post",
    "core.rules": "NoLynch Rule Rules Threshold TiePolicy rules_from_table",
    "threads.sources": "read_game_posts read_sources",
    "core.votes": "ActionKind VoteAction VoteSyntax find_votes",
}
_HOME = {name: module for module, names in _EXPORTS.items() for name in names.split()}

__all__ = sorted(_HOME)


def __getattr__(name: str):
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'modtool' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
