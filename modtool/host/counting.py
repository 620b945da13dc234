"""Counting a game folder in one call: the library's `modtool.count_game`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Literal

from ..core.count import count_days, day_holding
from ..core.ledger import Game
from ..core.places import place_post
from ..core.results import DayCount
from ..errors import ModToolError
from ..games import load_game
from ..threads.fetch import Fetcher
from ..threads.posts import Post
from ..threads.sources import read_game_posts


def count_game(
    game: Game | str | Path,
    days: int | Iterable[int] | Literal["all", "latest"] = "all",
    as_of: int | None = None,
    *,
    posts: Sequence[Post] | None = None,
    fetcher: Fetcher | None = None,
    now: datetime | None = None,
    thread: str | None = None,
) -> list[DayCount]:
    """Count a game (a folder, or a loaded `Game`): one day, several, "all" or the "latest",
    as of post `as_of` if given (of the thread `thread` names, its label or number; in a game
    of several threads a number two of them have needs it: `places.place_post`). Posts are
    read from the game's sources (through `fetcher`, if given, for live threads) unless `posts`
    are given. The vote counts posted in each day are compared with these by
    `checking.with_posted_counts`."""
    if not isinstance(game, Game):
        game = load_game(game)
    if posts is None:
        posts = read_game_posts(game, fetcher)
    if as_of is None and thread is not None:
        raise ModToolError("--thread names the thread of --as-of; give --as-of too")
    at = place_post(game, posts, as_of, thread, "--as-of") if as_of is not None else None
    if days == "latest" and at is not None:
        wanted: Iterable[int] | None = [day_holding(game, posts, at)]
    elif days == "latest":
        wanted = [game.days()[-1].day]
    elif days == "all":
        wanted = None
    else:
        wanted = [days] if isinstance(days, int) else days
    return count_days(game, posts, wanted, at, now)
