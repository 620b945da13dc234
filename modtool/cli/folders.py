"""modtool example, init and import: new game folders, from the package, a thread or an archive;
and modtool docs, the docs that ship inside the package."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import click
import typer

from ..errors import ModToolError
from .app import (
    CacheOpt,
    ConcurrencyOpt,
    CookiesOpt,
    HeaderOpt,
    JsonOpt,
    OfflineOpt,
    RefreshOpt,
    _complete_presets,
    _complete_scripts,
    _emit_json,
    _thread_options,
    app,
    collect_garbage_again,
    import_app,
    warn_unsure,
)

# The games of modtool.games.GAMES that ship an example, listed here so that --help needs no
# game loaded (a test keeps the two the same).
EXAMPLE_GAMES = ("mafia", "clocktower", "vampires")


ExampleGame = Enum("ExampleGame", {n.upper(): n for n in EXAMPLE_GAMES}, type=str)


@app.command()
def example(
    folder: Annotated[
        Path, typer.Argument(help="The new game folder.", file_okay=False, metavar="FOLDER")
    ],
    game: Annotated[
        ExampleGame, typer.Option(help="Which game's example.", show_default=True)
    ] = ExampleGame.CLOCKTOWER,
    as_json: JsonOpt = False,
) -> None:
    """Write an example game to try the commands on.

    The folder gets the game's saved thread posts (thread.jsonl), its game.toml and its
    ledger (events.jsonl), as a host would have them a few days into the game.

    Examples:

    \b
        modtool example demo
        modtool example mafia-demo --game mafia
    """
    from ..host.bundled import write_example

    written = write_example(folder, game.value)
    if as_json:
        _emit_json({"game": str(folder), "files": [str(p) for p in written]})
        return
    names = ", ".join(p.name for p in written)
    typer.echo(f"Wrote the example {game.value} game to {folder} ({names})")


@app.command()
def docs(
    topic: Annotated[
        str | None,
        typer.Argument(help="The doc to show; none: the list of topics.", metavar="[TOPIC]"),
    ] = None,
) -> None:
    """Show the docs that ship with modtool; with no TOPIC, the list of topics.

    On a terminal a doc is shown through a pager ($PAGER), piped it is printed plain.

    Examples:

    \b
        modtool docs
        modtool docs first-game
    """
    from ..host.bundled import doc_text, doc_topics

    if topic is None:
        topics = doc_topics()
        width = max(len(t.name) for t in topics)
        lines = [f"  {t.name:<{width}}  {t.title}" for t in topics]
        typer.echo("\n".join(["Topics (modtool docs TOPIC):", *lines]))
        return
    try:
        text = doc_text(topic)
    except ModToolError as exc:  # the argument names no doc: a usage error
        raise typer.BadParameter(str(exc), param_hint="'[TOPIC]'") from None
    if _on_terminal():
        click.echo_via_pager(text)
    else:
        typer.echo(text, nl=not text.endswith("\n"))


def _on_terminal() -> bool:
    return sys.stdout.isatty()


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
        str | None,
        typer.Option(
            help="The rules preset: mafiascum, botc-forum or vampire (default: the script's "
            "game's own: botc-forum for a Clocktower script, vampire for vampires, else "
            "mafiascum).",
            metavar="NAME",
            autocompletion=_complete_presets,
        ),
    ] = None,
    title: Annotated[str, typer.Option(help="The game's title.", metavar="TEXT")] = "",
    script: Annotated[
        str,
        typer.Option(
            help="A Clocktower script (trouble-brewing-forum, a script .json) or vampires.",
            metavar="NAME",
            autocompletion=_complete_scripts,
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
    """Start a game folder from a thread: its players, its host, its timezone.

    The first poster is the host; the players are the first post's player list when it has
    one (seats in its order), else the posters who voted; a poster who never voted is left
    as a comment in game.toml. The timezone is the one the page shows its times in. What was
    guessed is listed, to check in game.toml.

    Example:

        modtool init games/mygame --thread https://forum.example/viewtopic.php?t=123
    """
    from ..host.starting import init_game
    from ..threads.sources import read_sources, require_authors
    from ..threads.times import UTC

    doubts: list = []
    with _thread_options(
        offline, refresh, concurrency, UTC, cookies, header, cache, as_json
    ) as fetcher:
        found = read_sources([thread], UTC, None, fetcher, doubts)
    warn_unsure(doubts)
    require_authors(doubts)  # its posters become the players: never "Log in"
    started = init_game(folder, thread, found, preset, title, script)
    if as_json:
        _emit_json(
            {"game": str(folder), "setup": str(started.setup), "guessed": list(started.guesses)}
        )
        return
    typer.echo(f"Wrote {started.setup} and {started.ledger}. Guessed (check them in game.toml):")
    typer.echo("\n".join(f"  {guess}" for guess in started.guesses))


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

        modtool import mafiascum-archive archive/ --out games/archive
    """
    from ..host.importer import import_mafiascum_archive as run

    collect_garbage_again()
    report = run(archive, out)
    if as_json:
        found = {"games": report.games, "skipped": report.skipped, "guessed": report.guessed}
        _emit_json({"out": str(report.out), **found})
        return
    typer.echo(f"Wrote {len(report.games)} game folders to {report.out}")
    for line in report.skipped:
        typer.echo(f"Skipped {line}", err=True)
    for line in report.guessed:
        typer.echo(f"Guessed {line}", err=True)
