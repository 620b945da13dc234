"""`count --check`: each day's count with the vote counts posted in it, compared with modtool's
(`core.reconcile`). Apart from `counting`, so that a plain count never loads the reading of
posted counts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..core.ledger import Game
from ..core.reconcile import check_counts
from ..core.results import DayCount
from ..threads.posts import Post


def with_posted_counts(
    game: Game, posts: Sequence[Post], counts: Sequence[DayCount], as_of: int | None = None
) -> list[DayCount]:
    """The counts (of `counting.count_game`), each day carrying the counts posted in it."""
    checks = check_counts(game, posts, {c.day for c in counts}, as_of)
    return [replace(c, checks=tuple(k for k in checks if k.posted.day == c.day)) for c in counts]
