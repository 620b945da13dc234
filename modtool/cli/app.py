"""The modtool command line: each command parses its options, makes one library call, prints.

Exit codes: 0 done, 1 an error (one line on stderr saying what and how to fix it), 2 a usage
error (a bad option or argument, found before any work is done). With --json, results are
JSON on stdout and an error is one JSON object on stderr, with the same exit code.

This module holds the app, its groups, the error handling and the options every command
shares (one bundle for the thread options); the commands are in the modules beside it.
"""

from __future__ import annotations

import gc
import json
import os
import sys
from contextlib import ExitStack, contextmanager
from enum import Enum, IntEnum, StrEnum
from pathlib import Path
from typing import Annotated

import click
import typer
from typer.core import TyperGroup

from .. import __version__
from ..errors import GameFileError, ModToolError, without_secrets


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


class _UsageLine(click.ClickException):
    """A usage error in one line, with where the command's options are listed (click shows
    a usage error as four: the usage, where to get help, a blank line, the error)."""

    exit_code = ExitStatus.USAGE


def _usage_line(exc: click.UsageError) -> _UsageLine:
    where = exc.ctx.command_path if exc.ctx is not None else "modtool"
    message = " ".join(exc.format_message().split()).rstrip(".")  # a choice lists one a line
    return _UsageLine(f"{message}; '{where} -h' lists what it takes")


# What a terminal would act on rather than show (ESC starts a sequence that can set the window
# title or clear the screen; C1 0x9b is ESC [ to some terminals): C0 controls but tab and
# newline, DEL and C1, each shown as its Control Pictures sign (U+2400 + code, "␛" for ESC),
# C1 as U+FFFD. Game folders and threads are written by others; what they hold is text.
_CONTROLS = {c: 0x2400 + c for c in range(0x20) if chr(c) not in "\t\n"}
_CONTROLS |= {0x7F: 0x2421} | dict.fromkeys(range(0x80, 0xA0), 0xFFFD)


def harmless(text: str) -> str:
    """`text` with no character a terminal would act on (`_CONTROLS`)."""
    return text.translate(_CONTROLS)


class _HarmlessStream:
    """stdout or stderr for the length of a command: everything written is `harmless`, so
    that no note, name or post from a game folder or a thread drives the terminal."""

    def __init__(self, stream) -> None:
        self.unguarded = stream

    def write(self, text):
        return self.unguarded.write(harmless(text) if isinstance(text, str) else text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str):
        return getattr(self.unguarded, name)


@contextmanager
def _harmless_output():
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _HarmlessStream(saved[0]), _HarmlessStream(saved[1])
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


class _Errors(TyperGroup):
    """Every error a command raises ends as one line on stderr: modtool's own errors say what
    and how to fix it; an unexpected one says where to report it, with the traceback only
    under --debug. Under --json the line is a JSON object."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """In the order a host meets them, whatever order their modules were imported in."""
        names = super().list_commands(ctx)
        order = {name: i for i, name in enumerate(COMMAND_ORDER)}
        return sorted(names, key=lambda n: order.get(n, len(order)))

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["modtool.json"] = "--json" in args
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            if ctx.meta["modtool.json"]:
                raise _JsonError(exc.format_message(), exc.exit_code) from None
            raise _usage_line(exc) from None

    def invoke(self, ctx: click.Context):
        try:
            with _harmless_output():
                return self._invoke(ctx)
        except click.ClickException as exc:
            exc.message = harmless(exc.message)
            raise

    def _invoke(self, ctx: click.Context):
        wants_json = ctx.meta.get("modtool.json", False)
        try:
            return super().invoke(ctx)
        except click.ClickException as exc:
            if wants_json and not isinstance(exc, _JsonError):
                raise _JsonError(exc.format_message(), exc.exit_code) from None
            if isinstance(exc, click.UsageError):
                raise _usage_line(exc) from None
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
        except BrokenPipeError:
            # The reader of the output stopped reading (`modtool posts … | head`): nothing to
            # say, and nothing more to write (the exit's flush would fail again).
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise click.exceptions.Exit(ExitStatus.ERROR) from None
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


COMMAND_ORDER = (
    "example",
    "posts",
    "count",
    "schedule",
    "end-day",
    "draft",
    "chats",
    "watch",
    "events",
    "activity",
    "init",
    "grimoire",
    "night",
    "picture",
    "import",
    "record",
    "setup",
    "docs",
    "roles",
)
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


roles_app = _group("Clocktower role text: import the publisher's files into GAME/roles.LANG.toml.")


app.add_typer(import_app, name="import")


app.add_typer(record_app, name="record")


app.add_typer(setup_app, name="setup")


app.add_typer(roles_app, name="roles")


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


ThreadOpt = Annotated[
    str | None,
    typer.Option(
        help="In a game read from several threads: the thread the post is in, by its label in "
        "game.toml's [[sources]] or its number there (1 for the first). Needed when two "
        "threads have a post of that number.",
        metavar="THREAD",
    ),
]

# The phase a grimoire or a town square is shown at (one of them at most: _one_phase).
DayAtOpt = Annotated[
    int | None, typer.Option(min=1, max=999, help="At the start of Day N.", metavar="N")
]
NightAtOpt = Annotated[
    int | None, typer.Option(min=0, max=999, help="At the start of Night N.", metavar="N")
]


def _complete_presets(incomplete: str) -> list[tuple[str, str]]:
    """Shell completion of --preset: the shipped rules presets."""
    from ..core.rules import preset_names

    return [(n, "rules preset") for n in preset_names() if n.startswith(incomplete)]


def _complete_scripts(incomplete: str) -> list[tuple[str, str]]:
    """Shell completion of --script: the scripts the games ship (a script file is a path)."""
    from ..games import script_names

    return [(n, "script") for n in script_names() if n.startswith(incomplete)]


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
    from ..threads.fetch import FetchOptions

    if offline and refresh:
        raise typer.BadParameter(
            "--offline and --refresh cannot be used together", param_hint="--offline/--refresh"
        )
    return FetchOptions(
        engine=engine, tz=tz, offline=offline, refresh=refresh, concurrency=concurrency
    )


def _header_pairs(headers: list[str] | None) -> dict[str, str]:
    from ..errors import SourceError
    from ..threads.fetch import header_pair

    try:
        return dict(header_pair(h) for h in headers or ())
    except SourceError as exc:
        raise typer.BadParameter(str(exc), param_hint="--header") from None


@contextmanager
def _fetcher(options, cookies: Path | None, pairs: dict[str, str], cache: Path | None, quiet: bool):
    """The library's fetcher, with a progress bar on stderr when a person is watching."""
    from ..threads.fetch import open_fetcher

    collect_garbage_again()
    show = not quiet and sys.stderr.isatty()
    with ExitStack() as stack:
        progress = None
        if show:
            from rich.console import Console
            from rich.progress import Progress

            bar = stack.enter_context(
                Progress(transient=True, console=Console(file=_unguarded(sys.stderr)))
            )
            task = bar.add_task("Reading pages", total=None)

            def progress(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

        def say(line: str) -> None:
            typer.echo(f"Note: {line}", err=True)

        fetcher = stack.enter_context(
            open_fetcher(options, cache, cookies, pairs, progress, say=say)
        )
        yield fetcher
        for note in fetcher.report.notes:
            typer.echo(f"Note: {note}", err=True)
        for notice in fetcher.report.notices:
            typer.echo(f"Warning: {notice}", err=True)


def _emit_json(obj: object) -> None:
    typer.echo(json.dumps(obj, ensure_ascii=False, indent=2))


def _unguarded(stream):
    """The terminal itself, for what draws on it on purpose (the progress bar)."""
    return getattr(stream, "unguarded", stream)


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

    Examples (an example game, its count, the walkthrough of a first game):

    \b
        modtool example demo
        modtool count demo --day all
        modtool docs first-game
    """
    ctx.meta["modtool.debug"] = debug


def _day_option(value: str) -> str:
    if value in ("", "all") or (value.isdigit() and 1 <= int(value) <= 999):
        return value
    raise typer.BadParameter(f"{value!r} is not a day number; use a number such as 2, or 'all'")


def _game_and_posts(game, offline, refresh, concurrency, cookies, header, cache, quiet):
    """The game folder and its thread's posts, read with the shared thread options (what the
    reader was unsure of said on stderr)."""
    from ..games import load_game

    loaded = load_game(game)
    with _thread_options(
        offline, refresh, concurrency, loaded.timezone, cookies, header, cache, quiet
    ) as fetcher:
        return loaded, game_posts_warning_unsure(loaded, fetcher)


def game_posts_warning_unsure(loaded, fetcher) -> list:
    """A game's posts (threads.sources.read_game_posts), with one line on stderr where the
    reader was unsure of a page."""
    from ..threads.sources import read_game_posts

    doubts: list = []
    posts = read_game_posts(loaded, fetcher, doubts)
    warn_unsure(doubts)
    return posts


def warn_unsure(doubts: list) -> None:
    """One line on stderr for the pages a reader was unsure of (none: nothing)."""
    from ..threads.sources import doubts_line

    if doubts:
        typer.echo(f"Warning: {doubts_line(doubts)}", err=True)


def _phase_of(loaded, day: int | None, night: int | None):
    """The phase --day or --night names (one of them at most), else the game's latest."""
    from ..core.ledger import Phase, PhaseKind

    if night is not None:
        return Phase(night, PhaseKind.NIGHT)
    if day is not None:
        return Phase(day, PhaseKind.DAY)
    return loaded.current_phase()


def _one_phase(day: int | None, night: int | None) -> None:
    if night is not None and day is not None:
        raise typer.BadParameter("give --night or --day, not both", param_hint="--night/--day")


def _posts_if_at_hand(loaded) -> list | None:
    """The thread as far as it can be read without the network (saved files, the page cache),
    for the times of the posts the ledger names; None when it cannot be."""
    from ..threads.sources import read_game_posts

    try:
        with _thread_options(True, False, 1, loaded.timezone, None, None, None, True) as f:
            return read_game_posts(loaded, f)
    except ModToolError:
        return None


def _thread_options(offline, refresh, concurrency, tz, cookies, header, cache, quiet):
    options = _fetch_options(offline, refresh, concurrency, tz, None)
    return _fetcher(options, cookies, _header_pairs(header), cache, quiet=quiet)


def main() -> None:
    """The console entry point (errors are turned into one line by the command group)."""
    gc.disable()  # until the command's real work begins (modtool/__main__.py says why)
    _only_the_command_run(app, sys.argv[1:])
    app()


def collect_garbage_again() -> None:
    """Start the garbage collector `main` paused, the objects made until now (modules, the
    command line) kept out of its rounds: called where a command begins its real work (reading
    a thread, importing an archive). Once started, it stays on."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def _only_the_command_run(group: typer.Typer, args: list[str]) -> None:
    """Leave in `group` only the command (or group of commands) the command line names.

    Typer reads the signature and type hints of every command as it builds the command line,
    a tenth of a second for thirty commands, where a run uses one. The run's help, usage and
    errors are the same: a line that names no command, or one that does not exist, keeps all.
    """
    word = next((a for a in args if not a.startswith("-")), None)
    commands = [c for c in group.registered_commands if _name(c) == word]
    groups = [g for g in group.registered_groups if g.name == word]
    if commands or groups:
        group.registered_commands, group.registered_groups = commands, groups


def _name(command) -> str:
    return command.name or command.callback.__name__.lower().replace("_", "-")
