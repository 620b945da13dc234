"""Where a post the host names by number is: in a game read from several threads, each thread
numbers its own posts, so a number names a post only with its thread (docs/game-folder.md,
"Several threads")."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import ModToolError
from ..threads.posts import Post
from .ledger import Game, PostRef


def thread_named(game: Game, name: str, option: str = "--thread") -> str:
    """The label of the thread `name` names: its label in game.toml's [[sources]], or its
    number there (1 for the first); ModToolError lists the threads for anything else."""
    threads = game.threads
    if name in threads:
        return name
    if name.strip().isdigit() and 1 <= int(name) <= len(threads):
        return threads[int(name) - 1]
    listed = ", ".join(f"{i} {t!r}" if t else str(i) for i, t in enumerate(threads, 1))
    raise ModToolError(
        f"{option} {name!r} is not one of the game's threads ({listed}); give its label or its "
        "number in game.toml's [[sources]]"
    )


def place_post(
    game: Game,
    posts: Sequence[Post] | None,
    number: int,
    thread: str | None = None,
    option: str = "--post",
) -> PostRef:
    """Post `number` of the thread `thread` names (thread_named), as a ledger point. In a game
    of one thread that is the post, as always. In a game of several, a number without a thread
    must be one only one thread has (`posts`: the game's posts, None when they could not be
    read); a number two threads have, or that no thread has, is refused in one line that says
    how to name it. A number before a thread's first post is that thread's start."""
    threads = game.threads
    if len(threads) <= 1:
        if thread is not None:
            thread_named(game, thread)  # a name that is no thread's is still a mistake
        return PostRef(post=number)
    held: dict[str, list[int]] = {t: [] for t in threads}
    for p in posts or ():
        if p.number is not None and p.thread in held:
            held[p.thread].append(p.number)
    if thread is not None:
        label = thread_named(game, thread)
        if posts is not None:
            _refuse_missing(label, held[label], number, option)
        return PostRef(post=number, thread=label)
    if posts is None:
        raise ModToolError(
            f"{option} {number}: this game is read from {len(threads)} threads "
            f"({', '.join(threads)}) and they cannot be read without the network to tell which "
            f"holds post {number}: say which with --thread {threads[-1]}"
        )
    having = [t for t in threads if number in held[t]]
    if len(having) > 1:
        which = " or ".join(f"--thread {t}" for t in having)
        raise ModToolError(
            f"post {number} is in {len(having)} threads ({', '.join(having)}): say which with "
            f"{which}"
        )
    if having:
        return PostRef(post=number, thread=having[0])
    starts = [t for t in threads if held[t] and number < min(held[t])]
    if len(starts) == 1:
        return PostRef(post=number, thread=starts[0])
    ranges = ", ".join(f"{t} {_span(held[t])}" for t in threads)
    raise ModToolError(
        f"{option} {number} is a post of none of the game's threads ({ranges}); give a post a "
        "thread has and its --thread, or read the threads again if they have grown (--refresh)"
    )


def _refuse_missing(label: str, numbers: list[int], number: int, option: str) -> None:
    if not numbers or number in numbers or number < min(numbers):
        return
    if number > max(numbers):
        why = f"past the last post of thread {label!r} ({max(numbers)})"
    else:
        why = f"not in thread {label!r} (it has no post {number})"
    raise ModToolError(
        f"{option} {number} is {why}; give a post the thread has, or read the thread again if "
        "it has grown (--refresh)"
    )


def _span(numbers: list[int]) -> str:
    return f"posts {min(numbers)}-{max(numbers)}" if numbers else "no posts"
