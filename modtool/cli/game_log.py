"""modtool chats, watch, events and activity: what the thread and the ledger show."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

import typer

from ..errors import ModToolError
from .app import (
    CacheOpt,
    ConcurrencyOpt,
    CookiesOpt,
    HeaderOpt,
    HereArg,
    JsonOpt,
    OfflineOpt,
    RefreshOpt,
    _day_option,
    _emit_json,
    _fetch_options,
    _fetcher,
    _game_and_posts,
    _header_pairs,
    app,
    warn_unsure,
)


@app.command()
def chats(
    game: HereArg = Path("."),
    day: Annotated[
        str,
        typer.Option(
            help="A day number, or 'all'. Default: the latest day.",
            callback=_day_option,
            metavar="N|all",
        ),
    ] = "",
    as_json: JsonOpt = False,
    offline: OfflineOpt = False,
    refresh: RefreshOpt = False,
    cookies: CookiesOpt = None,
    header: HeaderOpt = None,
    cache: CacheOpt = None,
    concurrency: ConcurrencyOpt = 3,
) -> None:
    """The group-chat log of a forum game's Group Chats: chats started, added to and closed, and
    broken rules.

    Example:

        modtool chats games/mygame --day all
    """
    from ..host.chats import chat_day_to_json, chat_log
    from ..host.render import chats_text

    loaded, posts = _game_and_posts(
        game, offline, refresh, concurrency, cookies, header, cache, as_json
    )
    found = chat_log(loaded, posts)
    if day != "all":
        wanted = int(day) if day else max(e.day for e in found)
        found = [e for e in found if e.day == wanted]
        if not found:
            raise ModToolError(f"Day {wanted} is not in the ledger of {game}; give a day it has")
    if as_json:
        objs = [chat_day_to_json(e) for e in found]
        _emit_json(objs if day == "all" else objs[0])
        return
    typer.echo("\n\n".join(chats_text(e) for e in found))


def _finite(value: float) -> float:
    if value != value:  # NaN passes every range check
        raise typer.BadParameter("give a number of hours, like 48")
    return value


def _interval(value: str) -> int:
    """ "10m", "1h", "90s", "5" (minutes) as seconds; one minute at least."""
    m = re.fullmatch(r"(\d{1,30})\s*([smh]?)", value.strip())
    if not m:
        raise typer.BadParameter("give a length like 10m, 1h or 90s")
    seconds = int(m[1]) * {"": 60, "s": 1, "m": 60, "h": 3600}[m[2]]
    if seconds < 60:
        raise typer.BadParameter("give at least one minute, e.g. 10m or 1h (be kind to forums)")
    if seconds > WATCH_MAX:
        raise typer.BadParameter("give at most a week (168h); a watch looks more often than that")
    return seconds


WATCH_MAX = 7 * 24 * 3600


@app.command()
def watch(
    game: HereArg = Path("."),
    every: Annotated[
        str,
        typer.Option(
            help="How often to look: 10m, 1h (one minute at least).",
            callback=_interval,
            metavar="TIME",
        ),
    ] = "10m",
    times: Annotated[
        int | None,
        typer.Option(
            min=1, help="Stop after this many looks (default: until Ctrl-C).", metavar="N"
        ),
    ] = None,
    cookies: CookiesOpt = None,
    header: HeaderOpt = None,
    cache: CacheOpt = None,
) -> None:
    """Watch the thread: new votes and chat events as they appear, alerts at L-1 and when the
    threshold falls, and the time left; Ctrl-C stops it.

    Example:

        modtool watch games/mygame --every 10m
    """
    from ..host.days import watch as watch_thread
    from ..threads.sources import read_game_posts

    said: set = set()  # the doubts already said: once a watch, not at every look

    def read_posts(loaded):
        options = _fetch_options(False, False, 3, loaded.timezone, None)
        with _fetcher(options, cookies, _header_pairs(header), cache, quiet=True) as fetcher:
            doubts: list = []
            posts = read_game_posts(loaded, fetcher, doubts)
        new = [d for d in doubts if (d[0], d[1].unsure) not in said]
        said.update((d[0], d[1].unsure) for d in doubts)
        warn_unsure(new)
        return posts

    try:
        for line in watch_thread(game, read_posts, every, times):  # the callback made seconds
            typer.echo(line.text, err=line.failed)
    except KeyboardInterrupt:
        typer.echo("Stopped watching.", err=True)


@app.command()
def events(game: HereArg = Path("."), as_json: JsonOpt = False) -> None:
    """The ledger as a table, with line numbers; lines an undo retracted are marked.

    Example (on the game `modtool example demo` writes):

        modtool events demo
    """
    from ..core.ledger import ledger_lines
    from ..games import load_game

    lines = ledger_lines(load_game(game))
    undone = {obj.get("line"): n for n, obj in lines if obj.get("kind") == "undo"}
    if as_json:
        _emit_json([{"line": n, "event": obj, "undone_by": undone.get(n)} for n, obj in lines])
        return
    from ..core.table import text_table

    rows = []
    for n, obj in lines:
        details = ", ".join(f"{k}={v}" for k, v in obj.items() if k != "kind")
        state = f"undone by line {undone[n]}" if n in undone else ""
        rows.append((n, obj.get("kind"), details, state))
    typer.echo(text_table(rows, ("Line", "Kind", "Details", "Undone")))


@app.command()
def activity(
    game: HereArg = Path("."),
    day: Annotated[
        int | None, typer.Option(min=1, max=999, help="Default: the latest day.", metavar="N")
    ] = None,
    prod: Annotated[
        float,
        typer.Option(
            min=1,
            max=24 * 366,
            help="Hours without a post before a prod.",
            metavar="HOURS",
            callback=_finite,
        ),
    ] = 48,
    as_json: JsonOpt = False,
    offline: OfflineOpt = False,
    refresh: RefreshOpt = False,
    cookies: CookiesOpt = None,
    header: HeaderOpt = None,
    cache: CacheOpt = None,
    concurrency: ConcurrencyOpt = 3,
) -> None:
    """Posts per living player in a day, their last post, and who needs a prod.

    Example (on the game `modtool example demo` writes):

        modtool activity demo --day 2 --prod 24
    """
    from datetime import timedelta

    from ..host.days import activity as measure
    from ..host.render import activity_table, activity_to_json

    loaded, posts = _game_and_posts(
        game, offline, refresh, concurrency, cookies, header, cache, as_json
    )
    found = measure(loaded, posts, day, timedelta(hours=prod))
    if as_json:
        _emit_json(activity_to_json(found))
        return
    typer.echo(activity_table(found, loaded.timezone))
