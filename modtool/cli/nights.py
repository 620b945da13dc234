"""modtool grimoire and night: a Storyteller's phase, for the games that have nights."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .app import (
    CacheOpt,
    ConcurrencyOpt,
    CookiesOpt,
    DayAtOpt,
    HeaderOpt,
    HereArg,
    JsonOpt,
    NightAtOpt,
    OfflineOpt,
    RefreshOpt,
    _emit_json,
    _game_and_posts,
    _one_phase,
    _phase_of,
    app,
)


@app.command()
def grimoire(
    game: HereArg = Path("."),
    night: NightAtOpt = None,
    day: DayAtOpt = None,
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
    _one_phase(day, night)
    loaded, posts = _game_and_posts(
        game, offline, refresh, concurrency, cookies, header, cache, as_json
    )
    phase = _phase_of(loaded, day, night)
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

    if confirm and not resolve:
        raise typer.BadParameter("--confirm goes with --resolve", param_hint="--confirm")
    loaded, posts = _game_and_posts(
        game, offline, refresh, concurrency, cookies, header, cache, as_json
    )
    n = number if number is not None else loaded.days()[-1].day
    report = loaded.variant.night(loaded, n, posts, resolve, confirm)
    if as_json:
        _emit_json(report.as_json())
    else:
        typer.echo(report.text(), nl=False)
