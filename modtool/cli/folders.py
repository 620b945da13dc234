"""modtool init and import: new game folders, from a thread or an archive."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .app import (
    CacheOpt,
    CookiesOpt,
    HeaderOpt,
    JsonOpt,
    OfflineOpt,
    _emit_json,
    _thread_options,
    app,
    import_app,
)


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
    from ..host.days import init_game
    from ..threads.sources import read_sources
    from ..threads.times import UTC

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
    from ..host.importer import import_mafiascum_archive as run

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
