"""modtool posts: every post of a thread, or how its first page is read."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from ..errors import ModToolError
from .app import (
    CacheOpt,
    ConcurrencyOpt,
    CookiesOpt,
    Engine,
    HeaderOpt,
    OfflineOpt,
    RefreshOpt,
    _emit_json,
    _fetch_options,
    _fetcher,
    _header_pairs,
    app,
    warn_unsure,
)


@app.command()
def posts(
    sources: Annotated[
        list[str],
        typer.Argument(
            help="Thread URLs, saved pages, folders of saved pages, or posts .jsonl files.",
            metavar="SOURCE...",
        ),
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object per post (JSONL).")
    ] = False,
    engine: Annotated[
        Engine | None, typer.Option(help="Force a forum engine.", case_sensitive=False)
    ] = None,
    timezone: Annotated[
        str | None,
        typer.Option(help="IANA timezone of displayed times, e.g. Asia/Seoul.", metavar="ZONE"),
    ] = None,
    offline: OfflineOpt = False,
    refresh: RefreshOpt = False,
    cookies: CookiesOpt = None,
    header: HeaderOpt = None,
    cache: CacheOpt = None,
    concurrency: ConcurrencyOpt = 3,
    explain: Annotated[
        bool,
        typer.Option(
            "--explain",
            help="Say how the first page is read instead: the engine or the generic rule, the "
            "selectors it ended up with (a start for game.toml), the blocks it was unsure of.",
        ),
    ] = False,
) -> None:
    """Read every post of a thread.

    Examples:

        modtool posts https://forum.mafiascum.net/viewtopic.php?t=16537 --json > posts.jsonl

        modtool posts saved-page.html --explain
    """
    from ..threads.posts import write_posts_jsonl
    from ..threads.sources import explain_source, read_sources
    from ..threads.times import zone

    try:
        tz = zone(timezone)
    except ModToolError as exc:
        raise typer.BadParameter(str(exc), param_hint="--timezone") from None
    options = _fetch_options(offline, refresh, concurrency, tz, engine.value if engine else None)
    pairs = _header_pairs(header)
    if explain:
        with _fetcher(options, cookies, pairs, cache, quiet=as_json) as fetcher:
            explained = [explain_source(s, tz, options.engine, fetcher) for s in sources]
        if as_json:
            _emit_json(explained)
        else:
            from ..host.render import explain_text

            typer.echo("\n".join(explain_text(e) for e in explained), nl=False)
        return
    doubts: list = []
    with _fetcher(options, cookies, pairs, cache, quiet=as_json) as fetcher:
        found = read_sources(sources, tz, options.engine, fetcher, doubts)
    warn_unsure(doubts)
    if as_json:
        write_posts_jsonl(found, sys.stdout)
        return
    from ..core.table import text_table

    rows = [
        (p.number, p.author, p.time.isoformat() if p.time else "", _snippet(p.text)) for p in found
    ]
    typer.echo(text_table(rows, ("#", "Author", "Time", "Text")))


def _snippet(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
