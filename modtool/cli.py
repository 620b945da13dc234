"""The modtool command line: each command parses its options, makes one library call, prints."""

from __future__ import annotations

import json
import sys
from contextlib import ExitStack, contextmanager
from enum import IntEnum
from pathlib import Path
from typing import Annotated

import click
import typer
from typer.core import TyperGroup

from . import __version__
from .errors import ModToolError


class _Errors(TyperGroup):
    """Every error a command raises ends as one line on stderr: modtool's own errors say what
    and how to fix it; an unexpected one says where to report it, with the traceback only
    under --debug."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except ModToolError as exc:
            raise click.ClickException(str(exc)) from None
        except KeyboardInterrupt:
            raise click.ClickException("interrupted; nothing half-written was kept") from None
        except OSError as exc:
            if ctx.meta.get("modtool.debug"):
                raise
            where = f"{exc.filename}: " if exc.filename else ""
            raise click.ClickException(f"{where}{exc.strerror or exc}") from None
        except Exception as exc:
            if ctx.meta.get("modtool.debug"):
                raise
            raise click.ClickException(
                f"unexpected error ({exc.__class__.__name__}: {exc}); this is a bug in modtool: "
                "run `modtool --debug` with the same command and send its output to the "
                "modtool developers (the project's issue tracker)"
            ) from None


app = typer.Typer(
    cls=_Errors,
    help="Vote counts and ledgers for forum Mafia, Werewolf and Blood on the Clocktower games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # click's plain help and one-line errors, on a terminal or a pipe
)
import_app = typer.Typer(
    help="Import games from other formats.", no_args_is_help=True, rich_markup_mode=None
)
record_app = typer.Typer(
    help="Append an event to a game's ledger (events.jsonl).",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(import_app, name="import")
app.add_typer(record_app, name="record")


OfflineOpt = Annotated[
    bool, typer.Option("--offline", help="Never touch the network: read pages from the cache.")
]
RefreshOpt = Annotated[bool, typer.Option("--refresh", help="Fetch every page again.")]
CookiesOpt = Annotated[
    Path | None,
    typer.Option(
        help="A Netscape cookies.txt for a forum behind a login (never printed).",
        exists=True,
        dir_okay=False,
    ),
]
HeaderOpt = Annotated[
    list[str] | None,
    typer.Option("--header", help="An extra request header, 'Name: value' (repeatable)."),
]
CacheOpt = Annotated[
    Path | None, typer.Option(help="The page cache file (default: the platform cache folder).")
]
ConcurrencyOpt = Annotated[
    int, typer.Option(min=1, max=8, help="Pages fetched at once from one forum.")
]


def _fetch_options(offline: bool, refresh: bool, concurrency: int, tz, engine):
    from .fetch import FetchOptions

    if offline and refresh:
        raise typer.BadParameter(
            "--offline and --refresh cannot be used together", param_hint="--offline/--refresh"
        )
    return FetchOptions(
        engine=engine, tz=tz, offline=offline, refresh=refresh, concurrency=concurrency
    )


@contextmanager
def _fetcher(
    options, cookies: Path | None, headers: list[str] | None, cache: Path | None, quiet: bool
):
    """The library's fetcher, with a progress bar on stderr when a person is watching."""
    from .errors import SourceError
    from .fetch import header_pair, open_fetcher

    try:
        pairs = dict(header_pair(h) for h in headers or ())
    except SourceError as exc:
        raise typer.BadParameter(str(exc), param_hint="--header") from None
    show = not quiet and sys.stderr.isatty()
    with ExitStack() as stack:
        progress = None
        if show:
            from rich.progress import Progress

            bar = stack.enter_context(Progress(transient=True, console=_stderr_console()))
            task = bar.add_task("Reading pages", total=None)

            def progress(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

        fetcher = stack.enter_context(open_fetcher(options, cache, cookies, pairs, progress))
        yield fetcher
        for note in fetcher.report.notes:
            typer.echo(f"Note: {note}", err=True)
        for notice in fetcher.report.notices:
            typer.echo(f"Warning: {notice}", err=True)


def _stderr_console():
    from rich.console import Console

    return Console(stderr=True)


class ExitStatus(IntEnum):
    OK = 0
    ERROR = 1
    USAGE = 2


def _emit_json(obj: object) -> None:
    typer.echo(json.dumps(obj, ensure_ascii=False, indent=2))


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False,
    debug: Annotated[
        bool, typer.Option("--debug", help="Show the full traceback of an unexpected error.")
    ] = False,
) -> None:
    ctx.meta["modtool.debug"] = debug
    if version:
        typer.echo(f"modtool {__version__}")
        raise typer.Exit()


@app.command()
def posts(
    sources: Annotated[
        list[str],
        typer.Argument(
            help="Thread URLs, saved pages, folders of saved pages, or posts .jsonl files."
        ),
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object per post (JSONL).")
    ] = False,
    engine: Annotated[str | None, typer.Option(help="Force a forum engine, e.g. phpbb.")] = None,
    timezone: Annotated[str | None, typer.Option(help="IANA timezone of displayed times.")] = None,
    offline: OfflineOpt = False,
    refresh: RefreshOpt = False,
    cookies: CookiesOpt = None,
    header: HeaderOpt = None,
    cache: CacheOpt = None,
    concurrency: ConcurrencyOpt = 3,
) -> None:
    """Read every post of a thread.

    Example:

        modtool posts https://forum.mafiascum.net/viewtopic.php?t=16537 --json > posts.jsonl
    """
    from .posts import write_posts_jsonl
    from .sources import read_sources
    from .times import zone

    tz = zone(timezone)
    options = _fetch_options(offline, refresh, concurrency, tz, engine)
    with _fetcher(options, cookies, header, cache, quiet=as_json) as fetcher:
        found = read_sources(sources, tz, engine, fetcher)
    if as_json:
        write_posts_jsonl(found, sys.stdout)
        return
    from tabulate import tabulate

    rows = [
        (p.number, p.author, p.time.isoformat() if p.time else "", _snippet(p.text)) for p in found
    ]
    typer.echo(tabulate(rows, headers=("#", "Author", "Time", "Text")))


def _snippet(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


@app.command()
def count(
    game: Annotated[Path, typer.Argument(help="The game folder (holds game.toml).")],
    day: Annotated[str, typer.Option(help="A day number, or 'all'. Default: the latest day.")] = "",
    as_of: Annotated[
        int | None, typer.Option("--as-of", help="Count only up to this post number.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
    post: Annotated[
        str | None,
        typer.Option(help="Draft the count as a forum post: bbcode or markdown."),
    ] = None,
    offline: OfflineOpt = False,
    refresh: RefreshOpt = False,
    cookies: CookiesOpt = None,
    header: HeaderOpt = None,
    cache: CacheOpt = None,
    concurrency: ConcurrencyOpt = 3,
    audit: Annotated[
        bool,
        typer.Option(help="Include every vote action and the rule that decided it (with --json)."),
    ] = False,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="Find the vote counts posted in the thread and list where each differs "
            "from modtool's count at that post, voter by voter.",
        ),
    ] = False,
) -> None:
    """Count the votes of a day.

    Example:

        modtool count games/example-botc --day all
    """
    from .count import count_game
    from .ledger import load_game
    from .render import count_table, count_to_json

    loaded = load_game(game)
    days = _parse_day(day)
    options = _fetch_options(offline, refresh, concurrency, loaded.timezone, None)
    with _fetcher(options, cookies, header, cache, quiet=as_json or post is not None) as fetcher:
        results = count_game(loaded, days, as_of, fetcher=fetcher, check=check)
    if post is not None:
        from .render import render_count_post

        if post not in ("bbcode", "markdown"):
            raise typer.BadParameter("use bbcode or markdown", param_hint="--post")
        typer.echo("\n".join(render_count_post(r, post) for r in results), nl=False)
        return
    if as_json:
        objs = [count_to_json(r, audit) for r in results]
        _emit_json(objs if day == "all" else objs[0])
        return
    if check:
        from .render import checks_text

        typer.echo("\n\n".join(f"{count_table(r)}\n{checks_text(r.checks)}" for r in results))
        return
    typer.echo("\n\n".join(count_table(r) for r in results))


def _parse_day(day: str) -> str | list[int]:
    if day in ("all", ""):
        return day or "latest"
    if not day.isdigit():
        raise typer.BadParameter(
            f"{day!r} is not a day number; use a number such as 2, or 'all'", param_hint="--day"
        )
    return [int(day)]


@import_app.command("mafiascum-archive")
def import_mafiascum_archive(
    archive: Annotated[Path, typer.Argument(help="Folder with cases.jsonl and posts/.")],
    out: Annotated[Path, typer.Option(help="Where to write one game folder per game.")],
) -> None:
    """Turn a mafiascum archive folder into game folders, one per game number.

    Example:

        modtool import mafiascum-archive ../shared/fixtures/mafiascum-dev --out games/archive
    """
    from .importer import import_mafiascum_archive as run

    report = run(archive, out)
    typer.echo(f"Wrote {len(report.games)} game folders to {report.out}")
    for line in report.skipped:
        typer.echo(f"Skipped {line}", err=True)


GameArg = Annotated[Path, typer.Argument(help="The game folder (holds game.toml).")]
PostOpt = Annotated[int | None, typer.Option(help="The post number where it happened.")]
TimeOpt = Annotated[
    str | None, typer.Option(help="ISO time, e.g. 2026-11-29T18:00 (game timezone).")
]


def _record(game: Path, event: dict) -> None:
    from .ledger import append_event, load_game

    event = {k: v for k, v in event.items() if v is not None}
    append_event(load_game(game), event)
    typer.echo("Recorded " + json.dumps(event, ensure_ascii=False))


@record_app.command("day-start")
def record_day_start(game: GameArg, day: int, post: PostOpt = None, time: TimeOpt = None) -> None:
    """Day DAY starts after this post (or at this time).

    Example:

        modtool record day-start games/mygame 2 --post 312
    """
    _record(game, {"kind": "day_start", "day": day, "post": post, "time": time})


@record_app.command("day-end")
def record_day_end(game: GameArg, day: int, post: PostOpt = None, time: TimeOpt = None) -> None:
    """Day DAY ended with this post (or at this deadline).

    Example:

        modtool record day-end games/mygame 1 --post 270
    """
    _record(game, {"kind": "day_end", "day": day, "post": post, "time": time})


@record_app.command("death")
def record_death(
    game: GameArg,
    player: str,
    phase: Annotated[
        str | None, typer.Option(help="D2: died on Day 2 (at its end); N1: died in Night 1.")
    ] = None,
    post: PostOpt = None,
    cause: Annotated[str | None, typer.Option(help="lynched, killed, modkilled, ...")] = None,
) -> None:
    """PLAYER died at a phase boundary (--phase) or at a post during the day (--post).

    Example:

        modtool record death games/mygame Kohai --phase N1 --cause killed
    """
    _record(game, {"kind": "death", "player": player, "phase": phase, "post": post, "cause": cause})


@record_app.command("replacement")
def record_replacement(
    game: GameArg, player: str, by: str, post: PostOpt = None, time: TimeOpt = None
) -> None:
    """BY replaces PLAYER from this post on; votes by or for either name count for the slot.

    Example:

        modtool record replacement games/mygame sordros Maemuki --post 226
    """
    _record(game, {"kind": "replacement", "player": player, "by": by, "post": post, "time": time})


@record_app.command("vote-reset")
def record_vote_reset(game: GameArg, post: PostOpt = None) -> None:
    """The host cleared every vote at this post.

    Example:

        modtool record vote-reset games/mygame --post 500
    """
    _record(game, {"kind": "vote_reset", "post": post})


@record_app.command("correction")
def record_correction(
    game: GameArg,
    post: int,
    target: Annotated[
        str | None, typer.Option(help="Count the post as a vote for this player (or 'no lynch').")
    ] = None,
    ignore: Annotated[bool, typer.Option("--ignore", help="Count no vote in this post.")] = False,
    note: Annotated[str | None, typer.Option(help="Why, for the audit.")] = None,
) -> None:
    """Correct how post POST is read: a different target, or no vote at all.

    Example:

        modtool record correction games/mygame 969 --target redtail896
    """
    if ignore == (target is not None):
        raise typer.BadParameter(
            "give exactly one of --target NAME or --ignore", param_hint="--target/--ignore"
        )
    action = "ignore" if ignore else "target"
    _record(
        game, {"kind": "correction", "post": post, "action": action, "target": target, "note": note}
    )


@record_app.command("ghost-vote")
def record_ghost_vote(
    game: GameArg, player: str, day: Annotated[int, typer.Option(help="The day it was spent.")]
) -> None:
    """PLAYER spent their ghost vote on DAY somewhere the thread does not show.

    Example:

        modtool record ghost-vote games/mygame Kohai --day 3
    """
    _record(game, {"kind": "ghost_vote", "player": player, "day": day})


def main() -> None:
    """The console entry point (errors are turned into one line by the command group)."""
    app()
