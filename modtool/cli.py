"""The modtool command line: each command parses its options, makes one library call, prints.

Exit codes: 0 done, 1 an error (one line on stderr saying what and how to fix it), 2 a usage
error (a bad option or argument, found before any work is done). With --json, results are
JSON on stdout and an error is one JSON object on stderr, with the same exit code.
"""

from __future__ import annotations

import json
import re
import sys
from contextlib import ExitStack, contextmanager
from enum import Enum, IntEnum, StrEnum
from pathlib import Path
from typing import Annotated

import click
import typer
from typer.core import TyperGroup

from . import __version__
from .errors import GameFileError, ModToolError, without_secrets


class ExitStatus(IntEnum):
    OK = 0
    ERROR = 1
    USAGE = 2


class _JsonError(click.ClickException):
    """An error printed as one JSON object on stderr (the command was given --json)."""

    def __init__(self, message: str, exit_code: int, file: object = None, line: int | None = None):
        super().__init__(message)
        self.exit_code, self.file, self.line = exit_code, file, line

    def show(self, file=None) -> None:
        obj = {"error": self.message, "file": str(self.file) if self.file else None}
        obj["line"] = self.line
        click.echo(json.dumps(obj, ensure_ascii=False), err=True)


class _Errors(TyperGroup):
    """Every error a command raises ends as one line on stderr: modtool's own errors say what
    and how to fix it; an unexpected one says where to report it, with the traceback only
    under --debug. Under --json the line is a JSON object."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["modtool.json"] = "--json" in args
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context):
        wants_json = ctx.meta.get("modtool.json", False)
        try:
            return super().invoke(ctx)
        except click.ClickException as exc:
            if wants_json and not isinstance(exc, _JsonError):
                raise _JsonError(exc.format_message(), exc.exit_code) from None
            raise
        except (click.exceptions.Exit, click.Abort):
            raise
        except ModToolError as exc:
            file = exc.path if isinstance(exc, GameFileError) else None
            line = exc.line if isinstance(exc, GameFileError) else None
            if wants_json:
                raise _JsonError(str(exc), ExitStatus.ERROR, file, line) from None
            raise click.ClickException(str(exc)) from None
        except KeyboardInterrupt:
            raise click.ClickException("interrupted; nothing half-written was kept") from None
        except OSError as exc:
            if ctx.meta.get("modtool.debug"):
                raise
            where = f"{exc.filename}: " if exc.filename else ""
            message = without_secrets(f"{where}{exc.strerror or exc}")
            if wants_json:
                raise _JsonError(message, ExitStatus.ERROR, exc.filename) from None
            raise click.ClickException(message) from None
        except Exception as exc:
            if ctx.meta.get("modtool.debug"):
                raise
            message = (
                f"unexpected error ({exc.__class__.__name__}: {without_secrets(str(exc))}); "
                "this is a bug in modtool: "
                "run `modtool --debug` with the same command and send its output to the "
                "modtool developers (the project's issue tracker)"
            )
            if wants_json:
                raise _JsonError(message, ExitStatus.ERROR) from None
            raise click.ClickException(message) from None


CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def _group(help_text: str) -> typer.Typer:
    return typer.Typer(
        help=help_text,
        no_args_is_help=True,
        rich_markup_mode=None,  # click's plain help and one-line errors, on a terminal or a pipe
        context_settings=CONTEXT,
    )


app = typer.Typer(
    cls=_Errors,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings=CONTEXT,
)
import_app = _group("Import games from other formats.")
record_app = _group("Append an event to a game's ledger (events.jsonl).")
setup_app = _group("Clocktower setups: check the characters, draw a legal set, commit to it.")
app.add_typer(import_app, name="import")
app.add_typer(record_app, name="record")
app.add_typer(setup_app, name="setup")


class Markup(StrEnum):
    BBCODE = "bbcode"
    MARKDOWN = "markdown"


class Lang(StrEnum):
    EN = "en"
    KO = "ko"


# The engines of modtool.forum.ENGINES, listed here so that --help needs no page parser
# (a test keeps the two the same).
ENGINE_NAMES = (
    "debateart",
    "discourse",
    "generic",
    "gnuboard",
    "nodebb",
    "phpbb",
    "smf",
    "vbulletin",
    "xe",
    "xenforo",
)
Engine = Enum("Engine", {n.upper(): n for n in ENGINE_NAMES}, type=str)

# --- options shared by the commands that read threads ----------------------------------------

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
        metavar="FILE",
    ),
]
HeaderOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--header",
        help="An extra request header (repeatable); sent to the thread's forum only.",
        metavar="'NAME: VALUE'",
    ),
]
CacheOpt = Annotated[
    Path | None,
    typer.Option(
        help="The page cache file (default: the platform cache folder).",
        dir_okay=False,
        metavar="FILE",
    ),
]
ConcurrencyOpt = Annotated[
    int, typer.Option(min=1, max=8, help="Pages fetched at once from one forum.", metavar="N")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]
GameArg = Annotated[
    Path,
    typer.Argument(
        help="The game folder (holds game.toml).",
        exists=True,
        file_okay=False,
        metavar="GAME",
    ),
]
# Commands whose only argument is the game default to the folder they are run in.
HereArg = Annotated[
    Path,
    typer.Argument(
        help="The game folder (holds game.toml); default: this folder.",
        exists=True,
        file_okay=False,
        metavar="[GAME]",
        show_default=False,
    ),
]


def _fetch_options(offline: bool, refresh: bool, concurrency: int, tz, engine):
    from .threads.fetch import FetchOptions

    if offline and refresh:
        raise typer.BadParameter(
            "--offline and --refresh cannot be used together", param_hint="--offline/--refresh"
        )
    return FetchOptions(
        engine=engine, tz=tz, offline=offline, refresh=refresh, concurrency=concurrency
    )


def _header_pairs(headers: list[str] | None) -> dict[str, str]:
    from .errors import SourceError
    from .threads.fetch import header_pair

    try:
        return dict(header_pair(h) for h in headers or ())
    except SourceError as exc:
        raise typer.BadParameter(str(exc), param_hint="--header") from None


@contextmanager
def _fetcher(options, cookies: Path | None, pairs: dict[str, str], cache: Path | None, quiet: bool):
    """The library's fetcher, with a progress bar on stderr when a person is watching."""
    from .threads.fetch import open_fetcher

    show = not quiet and sys.stderr.isatty()
    with ExitStack() as stack:
        progress = None
        if show:
            from rich.console import Console
            from rich.progress import Progress

            bar = stack.enter_context(Progress(transient=True, console=Console(stderr=True)))
            task = bar.add_task("Reading pages", total=None)

            def progress(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

        fetcher = stack.enter_context(open_fetcher(options, cache, cookies, pairs, progress))
        yield fetcher
        for note in fetcher.report.notes:
            typer.echo(f"Note: {note}", err=True)
        for notice in fetcher.report.notices:
            typer.echo(f"Warning: {notice}", err=True)


def _emit_json(obj: object) -> None:
    typer.echo(json.dumps(obj, ensure_ascii=False, indent=2))


def _version(value: bool) -> None:
    if value:
        typer.echo(f"modtool {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "-V", "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
    debug: Annotated[
        bool, typer.Option("--debug", help="Show the full traceback of an unexpected error.")
    ] = False,
) -> None:
    """Vote counts and ledgers for forum Mafia, Werewolf and Blood on the Clocktower games.

    Exit codes: 0 done, 1 error, 2 usage error; with --json an error is a JSON object on
    stderr. Progress bars appear only on a terminal, and NO_COLOR is honoured.

    Example:

        modtool count games/example-botc --day all
    """
    ctx.meta["modtool.debug"] = debug


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

    Example:

        modtool posts https://forum.mafiascum.net/viewtopic.php?t=16537 --json > posts.jsonl
        modtool posts saved-page.html --explain
    """
    from .threads.posts import write_posts_jsonl
    from .threads.sources import doubts_line, explain_source, read_sources
    from .threads.times import zone

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
            from .host.render import explain_text

            typer.echo("\n".join(explain_text(e) for e in explained), nl=False)
        return
    doubts: list = []
    with _fetcher(options, cookies, pairs, cache, quiet=as_json) as fetcher:
        found = read_sources(sources, tz, options.engine, fetcher, doubts)
    if doubts:
        typer.echo(f"Warning: {doubts_line(doubts)}", err=True)
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


def _day_option(value: str) -> str:
    if value in ("", "all") or (value.isdigit() and 1 <= int(value) <= 999):
        return value
    raise typer.BadParameter(f"{value!r} is not a day number; use a number such as 2, or 'all'")


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

    Example:

        modtool count games/example-botc --day all
    """
    from .games import load_game
    from .host.counting import count_game
    from .host.render import audit_text, checks_text, count_table, count_to_json

    loaded = load_game(game)
    days = int(day) if day.isdigit() else (day or "latest")
    quiet = as_json or post is not None
    with _thread_options(
        offline, refresh, concurrency, loaded.timezone, cookies, header, cache, quiet
    ) as fetcher:
        results = count_game(loaded, days, as_of, fetcher=fetcher, check=check)
    if post is not None:
        from .host.render import deadline_of
        from .host.templating import render_count_post  # Jinja loads only for a post

        extra = game / "templates"
        drafts = (
            render_count_post(
                r, post.value, lang.value, extra, template, number, deadline_of(loaded, r.day)
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

    Example:

        modtool schedule games/example-botc
    """
    from .core.schedule import game_phases
    from .games import load_game
    from .host.render import schedule_table, schedule_to_json

    loaded = load_game(game)
    found = game_phases(loaded, phases)
    if as_json:
        _emit_json(schedule_to_json(found))
        return
    typer.echo(schedule_table(found, loaded.timezone))


def _thread_options(offline, refresh, concurrency, tz, cookies, header, cache, quiet):
    options = _fetch_options(offline, refresh, concurrency, tz, None)
    return _fetcher(options, cookies, _header_pairs(header), cache, quiet=quiet)


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
    as_json: JsonOpt = False,
    offline: OfflineOpt = False,
    refresh: RefreshOpt = False,
    cookies: CookiesOpt = None,
    header: HeaderOpt = None,
    cache: CacheOpt = None,
    concurrency: ConcurrencyOpt = 3,
) -> None:
    """Close a day: its count at the deadline or the hammer, recorded in one write.

    Records the day's end, the deaths the count found (a Slayer's shot), the execution
    (or why there was none) and the ghost votes spent; a day the count finds won closes at
    the post that won it. A day already closed is refused, naming its ledger line.

    Example:

        modtool end-day games/mygame --day 2 --dry-run
    """
    from .games import load_game
    from .host.days import end_day as close
    from .host.render import count_table, count_to_json
    from .threads.sources import read_game_posts

    loaded = load_game(game)
    with _thread_options(
        offline, refresh, concurrency, loaded.timezone, cookies, header, cache, as_json
    ) as fetcher:
        posts = read_game_posts(loaded, fetcher)
    closing = close(loaded, posts, day, dry_run)
    if as_json:
        _emit_json(
            {
                "count": count_to_json(closing.count),
                "events": list(closing.events),
                "written": closing.written,
            }
        )
        return
    typer.echo(count_table(closing.count))
    verb = "Would record" if dry_run else "Recorded"
    for event in closing.events:
        typer.echo(f"{verb} {json.dumps(event, ensure_ascii=False)}")


class DraftKind(StrEnum):  # modtool.drafts.DraftKind, kept here so --help needs no Jinja
    VOTECOUNT = "votecount"
    DAYEND = "dayend"
    NIGHTEND = "nightend"
    ROLEPMS = "rolepms"
    NIGHT = "night"


@app.command()
def draft(
    kind: Annotated[
        DraftKind,
        typer.Argument(
            help="What to draft: votecount, dayend, nightend, rolepms or night.", metavar="KIND"
        ),
    ],
    game: HereArg = Path("."),
    day: Annotated[
        int | None, typer.Option(min=1, max=999, help="Default: the latest day.", metavar="N")
    ] = None,
    night: Annotated[
        int | None,
        typer.Option(
            min=0,
            max=999,
            help="For nightend and night: Night N follows Day N. Default: the "
            "night after the latest day.",
            metavar="N",
        ),
    ] = None,
    lang: Annotated[Lang, typer.Option(help="The language of the draft.")] = "en",
    format: Annotated[Markup, typer.Option("--format", help="The forum's markup.")] = "bbcode",
    stdout: Annotated[
        bool, typer.Option("--stdout", help="Print the draft instead of writing a file.")
    ] = False,
    preview: Annotated[
        bool,
        typer.Option(
            "--preview",
            help="For dayend: draft a day still in progress, marked as a preview at its top.",
        ),
    ] = False,
    offline: OfflineOpt = False,
    cookies: CookiesOpt = None,
    header: HeaderOpt = None,
    cache: CacheOpt = None,
) -> None:
    """Draft posts and PMs into GAME/drafts/: the vote count, the day-end post, the
    night-end post, a role PM per player (rolepms) or a night-result PM per player (night).

    Example:

        modtool draft dayend games/mygame --day 2 --lang ko --format markdown
        modtool draft rolepms games/mygame --lang ko
        modtool draft night games/mygame --night 1
    """
    from .games import load_game
    from .host.drafts import DraftKind as Kind
    from .host.drafts import make_drafts, write_drafts
    from .threads.sources import read_game_posts

    loaded = load_game(game)
    kind = Kind(kind.value)
    posts = []
    if kind.reads_thread:
        with _thread_options(offline, False, 3, loaded.timezone, cookies, header, cache, True) as f:
            posts = read_game_posts(loaded, f)
    drafts = make_drafts(
        loaded,
        kind,
        posts,
        day=day,
        night=night,
        language=lang.value,
        markup=format.value,
        preview=preview,
    )
    if stdout:
        if len(drafts) == 1:
            typer.echo(drafts[0].text, nl=False)
            return
        for d in drafts:  # several PMs: each under its file name, as `head` shows files
            typer.echo(f"==> {d.name} <==\n{d.text}")
        return
    for path in write_drafts(game, drafts):
        typer.echo(f"Wrote {path}")


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
    """The group-chat log of seed 003: chats started, added to and closed, and broken rules.

    Example:

        modtool chats games/mygame --day all
    """
    from .games import load_game
    from .host.chats import chat_day_to_json, chat_log
    from .host.render import chats_text
    from .threads.sources import read_game_posts

    loaded = load_game(game)
    with _thread_options(
        offline, refresh, concurrency, loaded.timezone, cookies, header, cache, as_json
    ) as fetcher:
        posts = read_game_posts(loaded, fetcher)
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
    from .host.days import watch as watch_thread
    from .threads.sources import read_game_posts

    def read_posts(loaded):
        options = _fetch_options(False, False, 3, loaded.timezone, None)
        with _fetcher(options, cookies, _header_pairs(header), cache, quiet=True) as fetcher:
            return read_game_posts(loaded, fetcher)

    try:
        for line in watch_thread(game, read_posts, every, times):  # the callback made seconds
            typer.echo(line.text, err=line.failed)
    except KeyboardInterrupt:
        typer.echo("Stopped watching.", err=True)


@app.command()
def events(game: HereArg = Path("."), as_json: JsonOpt = False) -> None:
    """The ledger as a table, with line numbers; lines an undo retracted are marked.

    Example:

        modtool events games/example-botc
    """
    from .core.ledger import ledger_lines
    from .games import load_game

    lines = ledger_lines(load_game(game))
    undone = {obj.get("line"): n for n, obj in lines if obj.get("kind") == "undo"}
    if as_json:
        _emit_json([{"line": n, "event": obj, "undone_by": undone.get(n)} for n, obj in lines])
        return
    from tabulate import tabulate

    rows = []
    for n, obj in lines:
        details = ", ".join(f"{k}={v}" for k, v in obj.items() if k != "kind")
        state = f"undone by line {undone[n]}" if n in undone else ""
        rows.append((n, obj.get("kind"), details, state))
    typer.echo(tabulate(rows, headers=("Line", "Kind", "Details", "")))


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

    Example:

        modtool activity games/example-botc --day 2 --prod 24
    """
    from datetime import timedelta

    from .games import load_game
    from .host.days import activity as measure
    from .host.render import activity_table, activity_to_json
    from .threads.sources import read_game_posts

    loaded = load_game(game)
    with _thread_options(
        offline, refresh, concurrency, loaded.timezone, cookies, header, cache, as_json
    ) as fetcher:
        posts = read_game_posts(loaded, fetcher)
    found = measure(loaded, posts, day, timedelta(hours=prod))
    if as_json:
        _emit_json(activity_to_json(found))
        return
    typer.echo(activity_table(found, loaded.timezone))


@app.command()
def init(
    folder: Annotated[
        Path, typer.Argument(help="The new game folder.", file_okay=False, metavar="FOLDER")
    ],
    thread: Annotated[
        str,
        typer.Option(
            help="The thread: a URL, a saved page or folder, a posts .jsonl.", metavar="URL|PATH"
        ),
    ],
    preset: Annotated[
        str,
        typer.Option(help="The rules preset: mafiascum, botc-forum or vampire.", metavar="NAME"),
    ] = "mafiascum",
    title: Annotated[str, typer.Option(help="The game's title.", metavar="TEXT")] = "",
    as_json: JsonOpt = False,
    offline: OfflineOpt = False,
    cookies: CookiesOpt = None,
    header: HeaderOpt = None,
    cache: CacheOpt = None,
) -> None:
    """Start a game folder from a thread: its posters as players, its first poster as host.

    Example:

        modtool init games/mygame --thread https://forum.example/viewtopic.php?t=123
    """
    from .host.days import init_game
    from .threads.sources import read_sources
    from .threads.times import UTC

    with _thread_options(offline, False, 3, UTC, cookies, header, cache, as_json) as fetcher:
        found = read_sources([thread], UTC, None, fetcher)
    written = init_game(folder, thread, found, preset, title)
    if as_json:
        _emit_json({"game": str(folder), "setup": str(written)})
        return
    typer.echo(f"Wrote {written} and {folder / 'events.jsonl'}; check the players and the rules")


@import_app.command("mafiascum-archive")
def import_mafiascum_archive(
    archive: Annotated[
        Path,
        typer.Argument(
            help="Folder with cases.jsonl and posts/.", exists=True, file_okay=False, metavar="DIR"
        ),
    ],
    out: Annotated[
        Path,
        typer.Option(
            help="Where to write one game folder per game.", file_okay=False, metavar="DIR"
        ),
    ],
    as_json: JsonOpt = False,
) -> None:
    """Turn a mafiascum archive folder into game folders, one per game number.

    Example:

        modtool import mafiascum-archive ../shared/fixtures/mafiascum-dev --out games/archive
    """
    from .host.importer import import_mafiascum_archive as run

    report = run(archive, out)
    if as_json:
        _emit_json({"out": str(report.out), "games": report.games, "skipped": report.skipped})
        return
    typer.echo(f"Wrote {len(report.games)} game folders to {report.out}")
    for line in report.skipped:
        typer.echo(f"Skipped {line}", err=True)


PostOpt = Annotated[
    int | None, typer.Option(min=0, help="The post number where it happened.", metavar="POST")
]
TimeOpt = Annotated[
    str | None,
    typer.Option(help="ISO time, e.g. 2026-11-29T18:00 (game timezone).", metavar="TIME"),
]
PlayerArg = Annotated[str, typer.Argument(help="A player's name (any name of the slot).")]
DayArg = Annotated[int, typer.Argument(min=1, max=999, help="The day number.")]


def _record(game: Path, event: dict | list[dict], as_json: bool) -> None:
    from .games import load_game
    from .host.days import record_events

    events = [{k: v for k, v in e.items() if v is not None} for e in _as_list(event)]
    loaded = load_game(game)
    record_events(loaded, events, _posts_if_at_hand(loaded))
    if as_json:
        _emit_json(events[0] if isinstance(event, dict) else events)
    else:
        for e in events:
            typer.echo("Recorded " + json.dumps(e, ensure_ascii=False))


def _posts_if_at_hand(loaded) -> list | None:
    """The thread as far as it can be read without the network (saved files, the page cache),
    to check a recorded post against; None when it cannot be."""
    from .threads.sources import read_game_posts

    try:
        with _thread_options(True, False, 1, loaded.timezone, None, None, None, True) as f:
            return read_game_posts(loaded, f)
    except ModToolError:
        return None


def _as_list(event: dict | list[dict]) -> list[dict]:
    return [event] if isinstance(event, dict) else event


@record_app.command("day-start")
def record_day_start(
    game: GameArg, day: DayArg, post: PostOpt = None, time: TimeOpt = None, as_json: JsonOpt = False
) -> None:
    """Day DAY starts after this post (or at this time).

    Example:

        modtool record day-start games/mygame 2 --post 312
    """
    _record(game, {"kind": "day_start", "day": day, "post": post, "time": time}, as_json)


@record_app.command("day-end")
def record_day_end(
    game: GameArg, day: DayArg, post: PostOpt = None, time: TimeOpt = None, as_json: JsonOpt = False
) -> None:
    """Day DAY ended with this post (or at this deadline).

    Example:

        modtool record day-end games/mygame 1 --post 270
    """
    _record(game, {"kind": "day_end", "day": day, "post": post, "time": time}, as_json)


@record_app.command("death")
def record_death(
    game: GameArg,
    player: PlayerArg,
    phase: Annotated[
        str | None,
        typer.Option(help="D2: died on Day 2 (at its end); N1: died in Night 1.", metavar="PHASE"),
    ] = None,
    post: PostOpt = None,
    cause: Annotated[
        str | None, typer.Option(help="lynched, executed, killed, modkilled, ...", metavar="CAUSE")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """PLAYER died at a phase boundary (--phase) or at a post during the day (--post).

    Example:

        modtool record death games/mygame Kohai --phase N1 --cause killed
    """
    event = {"kind": "death", "player": player, "phase": phase, "post": post, "cause": cause}
    _record(game, event, as_json)


@record_app.command("replacement")
def record_replacement(
    game: GameArg,
    player: PlayerArg,
    by: Annotated[str, typer.Argument(help="The new player's name.")],
    post: PostOpt = None,
    time: TimeOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """BY replaces PLAYER from this post on; votes by or for either name count for the slot.

    Example:

        modtool record replacement games/mygame sordros Maemuki --post 226
    """
    event = {"kind": "replacement", "player": player, "by": by, "post": post, "time": time}
    _record(game, event, as_json)


@record_app.command("vote-reset")
def record_vote_reset(game: GameArg, post: PostOpt = None, as_json: JsonOpt = False) -> None:
    """The host cleared every vote at this post.

    Example:

        modtool record vote-reset games/mygame --post 500
    """
    _record(game, {"kind": "vote_reset", "post": post}, as_json)


@record_app.command("correction")
def record_correction(
    game: GameArg,
    post: Annotated[int, typer.Argument(min=0, help="The post to read differently.")],
    target: Annotated[
        str | None,
        typer.Option(
            help="Count the post as a vote for this player (or 'no lynch').", metavar="NAME"
        ),
    ] = None,
    actions: Annotated[
        str | None,
        typer.Option(
            help="Count the post as these actions, in order: 'vote NAME', 'unvote', "
            "'unvote NAME', separated by ';' or ','.",
            metavar="LIST",
        ),
    ] = None,
    ignore: Annotated[bool, typer.Option("--ignore", help="Count no vote in this post.")] = False,
    note: Annotated[str | None, typer.Option(help="Why, for the audit.", metavar="TEXT")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Correct how post POST is read: a different target, a list of actions, or no vote at all.

    Examples:

        modtool record correction games/mygame 969 --target redtail896

        modtool record correction games/mygame 412 --actions "unvote; vote Bob"

        modtool record correction games/mygame 415 --actions "unvote Ann, vote Cy, vote Dee"
    """
    if ignore + (target is not None) + (actions is not None) != 1:
        raise typer.BadParameter(
            "give exactly one of --target NAME, --actions LIST or --ignore",
            param_hint="--target/--actions/--ignore",
        )
    action = "ignore" if ignore else "actions" if actions is not None else "target"
    event = {"kind": "correction", "post": post, "action": action, "target": target}
    _record(game, event | {"actions": actions, "note": note}, as_json)


@record_app.command("chat-correction")
def record_chat_correction(
    game: GameArg,
    post: Annotated[int, typer.Argument(min=0, help="The post whose chat announcement to read.")],
    text: Annotated[
        str,
        typer.Argument(
            help="The announcement in the short form (CHAT START/ADD/CLOSE: ...), or '' to "
            "ignore the post."
        ),
    ],
    as_json: JsonOpt = False,
) -> None:
    """Read post POST's chat announcements as TEXT says instead.

    Example:

        modtool record chat-correction games/mygame 214 "CHAT CLOSE: Rex's chat with Rex, Neros"
    """
    _record(game, {"kind": "chat_correction", "post": post, "text": text}, as_json)


@record_app.command("undo")
def record_undo(
    game: GameArg,
    lines: Annotated[list[int], typer.Argument(min=1, help="The ledger lines to retract.")],
    note: Annotated[str | None, typer.Option(help="Why, for the record.", metavar="TEXT")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Retract the events on ledger lines LINE... (an undo each, appended in one write: all or
    none; nothing is rewritten).

    Examples:

        modtool record undo games/mygame 14

        modtool record undo games/mygame 9 10 11
    """
    _record(game, [{"kind": "undo", "line": n, "note": note} for n in lines], as_json)


@record_app.command("ghost-vote")
def record_ghost_vote(
    game: GameArg,
    player: PlayerArg,
    day: Annotated[int, typer.Option(min=1, max=999, help="The day it was spent.", metavar="N")],
    as_json: JsonOpt = False,
) -> None:
    """PLAYER spent their ghost vote on DAY somewhere the thread does not show.

    Example:

        modtool record ghost-vote games/mygame Kohai --day 3
    """
    _record(game, {"kind": "ghost_vote", "player": player, "day": day}, as_json)


@record_app.command("night-result")
def record_night_result(
    game: GameArg,
    player: PlayerArg,
    text: Annotated[str, typer.Argument(help="What the player learned, as the PM should say it.")],
    night: Annotated[
        int, typer.Option(min=0, max=999, help="The night (Night N follows Day N).", metavar="N")
    ],
    as_json: JsonOpt = False,
) -> None:
    """What PLAYER learned in night N, for their night-result PM (`draft night`).

    Example:

        modtool record night-result games/mygame Banana "You learn 1 evil neighbour." --night 1
    """
    event = {"kind": "night_result", "night": night, "player": player, "text": text}
    _record(game, event, as_json)


@app.command()
def grimoire(
    game: HereArg = Path("."),
    night: Annotated[
        int | None, typer.Option(min=0, max=999, help="At the start of Night N.", metavar="N")
    ] = None,
    day: Annotated[
        int | None, typer.Option(min=1, max=999, help="At the start of Day N.", metavar="N")
    ] = None,
    as_json: JsonOpt = False,
    offline: OfflineOpt = False,
    refresh: RefreshOpt = False,
    cookies: CookiesOpt = None,
    header: HeaderOpt = None,
    cache: CacheOpt = None,
    concurrency: ConcurrencyOpt = 3,
) -> None:
    """The Clocktower grimoire at the start of a night or day (default: the latest phase):
    each seat's character and alignment, alive or dead, ghost vote, and the reminders in force.

    Example:

        modtool grimoire games/mygame --night 2
    """
    from .core.ledger import Phase, PhaseKind
    from .games import load_game
    from .threads.sources import read_game_posts

    if night is not None and day is not None:
        raise typer.BadParameter("give --night or --day, not both", param_hint="--night/--day")
    loaded = load_game(game)
    with _thread_options(
        offline, refresh, concurrency, loaded.timezone, cookies, header, cache, as_json
    ) as fetcher:
        posts = read_game_posts(loaded, fetcher)
    if night is not None:
        phase = Phase(night, PhaseKind.NIGHT)
    elif day is not None:
        phase = Phase(day, PhaseKind.DAY)
    else:
        phase = loaded.current_phase()
    report = loaded.variant.grimoire(loaded, posts, phase)
    if as_json:
        _emit_json(report.as_json())
    else:
        typer.echo(report.text(), nl=False)


@app.command()
def night(
    game: HereArg = Path("."),
    number: Annotated[
        int | None,
        typer.Option(
            "--night",
            min=0,
            max=999,
            help="The night (Night 0 is the first). Default: the night after the latest day.",
            metavar="N",
        ),
    ] = None,
    resolve: Annotated[
        bool,
        typer.Option(
            "--resolve", help="Also list what the recorded choices do (poison, kills, ...)."
        ),
    ] = False,
    confirm: Annotated[
        bool, typer.Option("--confirm", help="With --resolve: write those events to the ledger.")
    ] = False,
    as_json: JsonOpt = False,
    offline: OfflineOpt = False,
    refresh: RefreshOpt = False,
    cookies: CookiesOpt = None,
    header: HeaderOpt = None,
    cache: CacheOpt = None,
    concurrency: ConcurrencyOpt = 3,
) -> None:
    """The night sheet: the characters in play that act tonight, in the official order, with
    what to do, the choices recorded (record choice), the reminders in force, and each
    player's information: the true value, the answers the Storyteller may give, and why.

    Example:

        modtool night games/mygame --night 1 --resolve
    """
    from .games import load_game
    from .threads.sources import read_game_posts

    if confirm and not resolve:
        raise typer.BadParameter("--confirm goes with --resolve", param_hint="--confirm")
    loaded = load_game(game)
    with _thread_options(
        offline, refresh, concurrency, loaded.timezone, cookies, header, cache, as_json
    ) as fetcher:
        posts = read_game_posts(loaded, fetcher)
    n = number if number is not None else loaded.days()[-1].day
    report = loaded.variant.night(loaded, n, posts, resolve, confirm)
    if as_json:
        _emit_json(report.as_json())
    else:
        typer.echo(report.text(), nl=False)


@setup_app.command("check")
def setup_check(game: HereArg = Path("."), as_json: JsonOpt = False) -> None:
    """Check the game's characters against the script and the official setup rules: type
    counts for the number of players with every setup modifier in play (Baron, Godfather,
    Summoner, Huntsman, ...), one of each character, the Drunk's shown Townsfolk, the bluffs
    and the red herring. Exit code 1 when the setup is not legal.

    Example:

        modtool setup check games/mygame
    """
    from .games import load_game

    loaded = load_game(game)
    check = loaded.variant.check_setup_legal(loaded)
    if as_json:
        _emit_json(check.as_json())
    else:
        typer.echo(("Legal setup: " if check.valid else "Not a legal setup: ") + check.summary())
        for reason in check.reasons:
            typer.echo(f"- {reason}")
        for warning in getattr(check, "warnings", ()):
            typer.echo(f"- warning: {warning}")
    if not check.valid:
        raise typer.Exit(1)


@setup_app.command("draw")
def setup_draw(
    game: HereArg = Path("."),
    seed: Annotated[
        int, typer.Option(min=0, help="The random seed (the same seed, the same draw).")
    ] = ...,
    write: Annotated[
        bool,
        typer.Option(
            "--write", help="Record the draw in the ledger (it replaces game.toml's roles)."
        ),
    ] = False,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="With --write, after the game has started: replace the setup anyway "
            "(recorded as forced).",
        ),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Draw a legal set of characters and seats for the game's players from its script:
    the Drunk's shown Townsfolk, the Demon's three bluffs and the red herring too.

    Example:

        modtool setup draw games/mygame --seed 20261130 --write
    """
    from .core.setups import record_setup
    from .games import load_game

    loaded = load_game(game)
    drawn = loaded.variant.draw(loaded, seed)
    event = drawn.as_event()
    if write:
        event = record_setup(loaded, event, force)
    if as_json:
        _emit_json(event)
        return
    name = loaded.variant.role_name
    for i, p in enumerate(drawn.seats, 1):
        told = f" (shown {name(drawn.shown[p])})" if p in drawn.shown else ""
        typer.echo(f"{i:>2}  {p}: {name(drawn.roles[p])}{told}")
    if drawn.bluffs:
        typer.echo("Bluffs: " + ", ".join(name(b) for b in drawn.bluffs))
    if drawn.red_herring:
        typer.echo(f"Red herring: {drawn.red_herring}")
    typer.echo("Recorded in events.jsonl" if write else "Not recorded (add --write to record it)")


@setup_app.command("commit")
def setup_commit(
    game: HereArg = Path("."),
    salt: Annotated[
        str | None, typer.Option(help="The salt (default: 32 random hex digits).", metavar="TEXT")
    ] = None,
) -> None:
    """Print a SHA-256 commitment of the setup to post at the start; the text it hashes (with
    the salt) is written to GAME/drafts/setup-reveal.txt, to post at the end.

    Example:

        modtool setup commit games/mygame
    """
    from .core.ledger import write_atomic
    from .core.setups import commit_game, new_salt
    from .games import load_game

    digest, text = commit_game(load_game(game), salt or new_salt())
    path = game / "drafts" / "setup-reveal.txt"
    write_atomic(path, text)
    typer.echo(f"Commitment (post it now): {digest}")
    typer.echo(f"Wrote {path} (keep it secret; post it at the end)")


@setup_app.command("verify")
def setup_verify(
    reveal: Annotated[
        Path,
        typer.Argument(
            help="A revealed setup text (setup-reveal.txt).", exists=True, dir_okay=False
        ),
    ],
    commitment: Annotated[str, typer.Argument(help="The SHA-256 posted at the start.")],
) -> None:
    """Check that a revealed setup is the one committed to. Exit code 1 when it is not.

    Example:

        modtool setup verify setup-reveal.txt 3f5a...e1
    """
    from .core.setups import sha256

    wanted = commitment.strip().lower()
    if not re.fullmatch(r"[0-9a-f]{64}", wanted):
        raise typer.BadParameter(
            "a commitment is the 64-character SHA-256 hex digest that `modtool setup commit` "
            "printed",
            param_hint="COMMITMENT",
        )
    try:
        digest = sha256(reveal.read_text("utf-8"))
    except UnicodeDecodeError:
        raise ModToolError(
            f"{reveal}: not UTF-8 text; give the setup-reveal.txt that `modtool setup commit` wrote"
        ) from None
    if digest == wanted:
        typer.echo("The revealed setup matches the commitment.")
        return
    typer.echo(f"It does not match: the revealed text hashes to {digest}.")
    raise typer.Exit(1)


NightOpt = Annotated[
    int | None, typer.Option(min=0, max=999, help="Given in Night N.", metavar="N")
]
DayOpt = Annotated[int | None, typer.Option(min=1, max=999, help="Given on Day N.", metavar="N")]


@record_app.command("reminder")
def record_reminder(
    game: GameArg,
    player: PlayerArg,
    reminder: Annotated[
        str,
        typer.Argument(
            help="poisoned, drunk, protected, cursed, no_ability, lleech_host, claimed, or your "
            "own word."
        ),
    ],
    night: NightOpt = None,
    day: DayOpt = None,
    until: Annotated[
        str | None,
        typer.Option(help="Its last phase (D3, N2) or 'game'; default: by kind.", metavar="PHASE"),
    ] = None,
    by: Annotated[
        str | None, typer.Option(help="The character that placed it.", metavar="CHARACTER")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """A grimoire reminder on PLAYER from night N (or day N): poisoned and drunk last that
    night and the next day, protected that night, no_ability and lleech_host the whole game.

    Example:

        modtool record reminder games/mygame Kohai poisoned --night 2 --by Poisoner
    """
    if (night is None) == (day is None):
        raise typer.BadParameter("give exactly one of --night N or --day N", param_hint="--night")
    event = {
        "kind": "reminder",
        "player": player,
        "reminder": reminder,
        "night": night,
        "day": day,
        "until": until,
        "by": by,
    }
    _record(game, event, as_json)


@record_app.command("master")
def record_master(
    game: GameArg,
    butler: Annotated[str, typer.Argument(help="The Butler's player.")],
    master: Annotated[str, typer.Argument(help="The player the Butler chose.")],
    day: Annotated[int, typer.Option(min=1, max=999, help="The day it holds for.", metavar="N")],
    as_json: JsonOpt = False,
) -> None:
    """The Butler's master for day N: the Butler's vote counts only while the master votes
    the same player.

    Example:

        modtool record master games/mygame Shining Neros --day 2
    """
    event = {"kind": "master", "player": butler, "master": master, "day": day}
    _record(game, event, as_json)


@record_app.command("character")
def record_character(
    game: GameArg,
    player: PlayerArg,
    character: Annotated[
        str | None, typer.Option(help="The new character.", metavar="CHARACTER")
    ] = None,
    alignment: Annotated[
        str | None, typer.Option(help="The new alignment: good or evil.", metavar="ALIGNMENT")
    ] = None,
    phase: Annotated[
        str | None, typer.Option(help="When: N2 (in Night 2), D3.", metavar="PHASE")
    ] = None,
    post: PostOpt = None,
    cause: Annotated[
        str | None, typer.Option(help="star-pass, scarlet woman, ...", metavar="TEXT")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """PLAYER's character and/or alignment changes (the Scarlet Woman becomes the Imp, a Minion
    takes a star-pass).

    Example:

        modtool record character games/mygame Neros --character Imp --phase N2 --cause star-pass
    """
    event = {
        "kind": "character_change",
        "player": player,
        "character": character,
        "alignment": alignment,
        "phase": phase,
        "post": post,
        "cause": cause,
    }
    _record(game, event, as_json)


@record_app.command("choice")
def record_choice(
    game: GameArg,
    player: PlayerArg,
    targets: Annotated[
        list[str] | None, typer.Argument(help="The players chosen, in order.", show_default=False)
    ] = None,
    night: Annotated[int, typer.Option(min=0, max=999, help="The night.", metavar="N")] = ...,
    character: Annotated[
        str | None,
        typer.Option(help="A character chosen or guessed (Gambler, ...).", metavar="CHARACTER"),
    ] = None,
    ability: Annotated[
        str | None,
        typer.Option(
            help="Vampires: which ability, when not the role's own (deception, slay, ...).",
            metavar="ABILITY",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """What PLAYER chose in night N (the Fortune Teller's two players, the Imp's kill, the
    Monk's protection, the Butler's master, ...), for `modtool night`.

    Example:

        modtool record choice games/mygame ILikePie5 Banana Neros --night 1
    """
    event = {
        "kind": "night_choice",
        "player": player,
        "night": night,
        "targets": list(targets or []),
        "character": character,
        "ability": ability,
    }
    _record(game, event, as_json)


@record_app.command("day-ability")
def record_day_ability(
    game: GameArg,
    player: PlayerArg,
    ability: Annotated[
        str, typer.Argument(help="slayer, damsel_guess, goblin_claim, juggle or other.")
    ],
    post: Annotated[int, typer.Option(min=0, help="Where the host announced it.", metavar="POST")],
    target: Annotated[
        str | None, typer.Option(help="The player it was used on.", metavar="PLAYER")
    ] = None,
    character: Annotated[
        str | None, typer.Option(help="The character guessed (juggle).", metavar="CHARACTER")
    ] = None,
    note: Annotated[str | None, typer.Option(help="What happened.", metavar="TEXT")] = None,
    as_json: JsonOpt = False,
) -> None:
    """A day ability the host announced at POST: a Slayer shot (the Demon dies when it works),
    a Minion's Damsel guess, a Goblin's claim, one of the Juggler's guesses.

    Example:

        modtool record day-ability games/mygame Rex slayer --target Banana --post 212
    """
    event = {
        "kind": "day_ability",
        "player": player,
        "ability": ability,
        "post": post,
        "target": target,
        "character": character,
        "note": note,
    }
    _record(game, event, as_json)


def main() -> None:
    """The console entry point (errors are turned into one line by the command group)."""
    app()
