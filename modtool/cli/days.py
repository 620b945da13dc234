"""modtool count, schedule and end-day: the vote count of a day, the phases, closing a day."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from .app import (
    CacheOpt,
    ConcurrencyOpt,
    CookiesOpt,
    HeaderOpt,
    HereArg,
    JsonOpt,
    Lang,
    Markup,
    OfflineOpt,
    RefreshOpt,
    ThreadOpt,
    _day_option,
    _emit_json,
    _game_and_posts,
    _posts_if_at_hand,
    _thread_options,
    app,
    game_posts_warning_unsure,
)


@app.command()
def count(
    game: HereArg = Path("."),
    day: Annotated[
        str,
        typer.Option(
            help="A day number, or 'all'. Default: the latest day, or the day holding --as-of.",
            callback=_day_option,
            metavar="N|all",
        ),
    ] = "",
    as_of: Annotated[
        int | None,
        typer.Option("--as-of", min=0, help="Count only up to this post number.", metavar="POST"),
    ] = None,
    thread: ThreadOpt = None,
    as_json: JsonOpt = False,
    audit: Annotated[
        bool,
        typer.Option("--audit", help="Include every vote action and the rule that decided it."),
    ] = False,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="Find the vote counts posted in the thread and list where each differs from "
            "modtool's count at that post, voter by voter.",
        ),
    ] = False,
    post: Annotated[
        Markup | None, typer.Option(help="Draft the count as a forum post in this markup.")
    ] = None,
    lang: Annotated[Lang, typer.Option(help="With --post: the language of the draft.")] = "en",
    number: Annotated[
        int | None,
        typer.Option(min=1, help="With --post: the count's number in the day (2.3).", metavar="N"),
    ] = None,
    template: Annotated[
        Path | None,
        typer.Option(
            help="With --post: draft with this Jinja template file instead of the built-in "
            "one (a game folder's templates/ overrides built-ins by name).",
            exists=True,
            dir_okay=False,
            metavar="FILE",
        ),
    ] = None,
    offline: OfflineOpt = False,
    refresh: RefreshOpt = False,
    cookies: CookiesOpt = None,
    header: HeaderOpt = None,
    cache: CacheOpt = None,
    concurrency: ConcurrencyOpt = 3,
) -> None:
    """Count the votes of a day.

    Example (on the game `modtool example demo` writes):

        modtool count demo --day all
    """
    from ..games import load_game
    from ..host.counting import count_game
    from ..host.render import audit_text, checks_text, count_table, count_to_json

    # the help gives these with --post only: without it they would be ignored unseen
    stray = "--template" if template is not None else "--number" if number is not None else None
    if post is None and stray:
        raise typer.BadParameter(
            f"{stray} goes with --post (the draft it shapes); add --post bbcode (or markdown), "
            f"or leave {stray} out",
            param_hint=stray,
        )
    loaded = load_game(game)
    days = int(day) if day.isdigit() else (day or "latest")
    quiet = as_json or post is not None
    with _thread_options(
        offline, refresh, concurrency, loaded.timezone, cookies, header, cache, quiet
    ) as fetcher:
        posts = game_posts_warning_unsure(loaded, fetcher)
    results = count_game(loaded, days, as_of, posts=posts, thread=thread)
    if check:
        from ..host.checking import with_posted_counts  # posted counts are read for --check only

        results = with_posted_counts(loaded, posts, results, as_of, thread)
    if post is not None:
        from ..host.render import deadline_of
        from ..host.templating import render_count_post  # Jinja loads only for a post

        extra = game / "templates"
        drafts = (
            render_count_post(
                r,
                post.value,
                lang.value,
                extra,
                template,
                number,
                deadline_of(loaded, r.day, posts=posts),
                loaded.variant.templates,
            )
            for r in results
        )
        typer.echo("\n".join(drafts), nl=False)
        return
    if as_json:
        objs = [count_to_json(r, audit) for r in results]
        _emit_json(objs)  # one shape whatever the days: a list, one object per day
        return
    blocks = []
    for r in results:
        parts = [count_table(r)]
        if check:
            parts.append(checks_text(r.checks))
        if audit:
            parts.append(audit_text(r))
        blocks.append("\n".join(parts))
    typer.echo("\n\n".join(blocks))


@app.command()
def schedule(
    game: HereArg = Path("."),
    phases: Annotated[
        int, typer.Option(min=1, max=200, help="How many phases to list.", metavar="N")
    ] = 10,
    as_json: JsonOpt = False,
) -> None:
    """List the game's phases with their start and deadline, in the game's zone and UTC.

    Example (on the game `modtool example demo` writes):

        modtool schedule demo
    """
    from ..core.schedule import game_phases
    from ..games import load_game
    from ..host.render import schedule_table, schedule_to_json

    loaded = load_game(game)
    found = game_phases(loaded, phases, _posts_if_at_hand(loaded) or ())
    if as_json:
        _emit_json(schedule_to_json(found))
        return
    typer.echo(schedule_table(found, loaded.timezone))


@app.command("end-day")
def end_day(
    game: HereArg = Path("."),
    day: Annotated[
        int | None,
        typer.Option(min=1, max=999, help="The day to close. Default: the latest.", metavar="N"),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show what would be recorded; write nothing.")
    ] = False,
    post: Annotated[
        int | None,
        typer.Option(
            min=0,
            help="The host ended the day with this post (no deadline or hammer needed).",
            metavar="POST",
        ),
    ] = None,
    thread: ThreadOpt = None,
    as_json: JsonOpt = False,
    offline: OfflineOpt = False,
    refresh: RefreshOpt = False,
    cookies: CookiesOpt = None,
    header: HeaderOpt = None,
    cache: CacheOpt = None,
    concurrency: ConcurrencyOpt = 3,
) -> None:
    """Close a day: its count at the deadline, the hammer or the host's post, in one write.

    Records the day's end, the deaths the count found (a Slayer's shot), the execution
    (or why there was none) and the ghost votes spent; a day the count finds won closes at
    the post that won it. A day already closed is refused, naming its ledger line.

    Examples:

    \b
        modtool end-day games/mygame --day 2 --dry-run
        modtool end-day games/mygame --day 1 --post 215
    """
    from ..host.days import end_day as close
    from ..host.render import count_table, count_to_json

    loaded, posts = _game_and_posts(
        game, offline, refresh, concurrency, cookies, header, cache, as_json
    )
    closing = close(loaded, posts, day, dry_run, at_post=post, thread=thread)
    if as_json:
        _emit_json(
            {
                "count": count_to_json(closing.count),
                "events": list(closing.lines),
                "written": closing.written,
            }
        )
        return
    typer.echo(count_table(closing.count))
    verb = "Would record" if dry_run else "Recorded"
    for line in closing.lines:
        typer.echo(f"{verb} {json.dumps(line, ensure_ascii=False)}")
