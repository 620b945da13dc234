"""`count --check`: each day's count with the vote counts posted in it, compared with modtool's
(`core.reconcile`). Apart from `counting`, so that a plain count never loads the reading of
posted counts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..core.ledger import Game, PostRef
from ..core.places import place_post
from ..core.reconcile import check_counts
from ..core.results import DayCount
from ..threads.posts import Post


def with_posted_counts(
    game: Game,
    posts: Sequence[Post],
    counts: Sequence[DayCount],
    as_of: int | PostRef | None = None,
    thread: str | None = None,
) -> list[DayCount]:
    """The counts (of `counting.count_game`), each day carrying the counts posted in it (up
    to post `as_of` of the thread `thread` names, as `count_game` takes them)."""
    if isinstance(as_of, int):
        as_of = place_post(game, posts, as_of, thread, "--as-of")
    checks = check_counts(game, posts, {c.day for c in counts}, as_of)
    return [replace(c, checks=tuple(k for k in checks if k.posted.day == c.day)) for c in counts]
