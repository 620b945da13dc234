"""modtool draft: the host's posts and PMs, written to GAME/drafts/."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from .app import (
    CacheOpt,
    CookiesOpt,
    HeaderOpt,
    HereArg,
    JsonOpt,
    Lang,
    Markup,
    OfflineOpt,
    _emit_json,
    _thread_options,
    app,
)


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
            "last night reached (the night the game is in, or the one before the current day).",
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
    picture: Annotated[
        bool,
        typer.Option(
            "--picture",
            help="For dayend and votecount: also write the town square (dayend) or the day's "
            "vote chart (votecount) as a PNG beside the draft, with a line for its link "
            "(the pictures extra).",
        ),
    ] = False,
    force: Annotated[
        bool,
        typer.Option("--force", help="Replace drafts the host edited since modtool wrote them."),
    ] = False,
    offline: OfflineOpt = False,
    cookies: CookiesOpt = None,
    header: HeaderOpt = None,
    cache: CacheOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Draft posts and PMs into GAME/drafts/: the vote count, the day-end post, the
    night-end post, a role PM per player (rolepms) or a night-result PM per player (night).
    A draft the host edited since modtool wrote it is kept: the command stops, writing
    nothing, unless --force.

    With --json: one object per draft, its file name, the path written (null with --stdout)
    and its text.

    Examples:

        modtool draft dayend games/mygame --day 2 --lang ko --format markdown

        modtool draft rolepms games/mygame --lang ko

        modtool draft night games/mygame --night 1 --stdout --json
    """
    from ..games import load_game
    from ..host.drafts import DraftKind as Kind
    from ..host.drafts import make_drafts, write_drafts
    from ..threads.sources import read_game_posts

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
    if picture:
        from ..host.pictures.files import with_picture

        if stdout:
            raise typer.BadParameter(
                "--picture writes a PNG beside the draft; leave out --stdout",
                param_hint="--picture",
            )
        number = day or loaded.days()[-1].day
        drafts = with_picture(loaded, drafts, kind.value, posts, number, lang.value, format.value)
    if as_json:
        paths = [None] * len(drafts) if stdout else write_drafts(game, drafts, force)
        _emit_json(
            [
                {"name": d.name, "path": str(p) if p else None, "text": d.text}
                for d, p in zip(drafts, paths, strict=True)
            ]
        )
        return
    if stdout:
        if len(drafts) == 1:
            typer.echo(drafts[0].text, nl=False)
            return
        for d in drafts:  # several PMs: each under its file name, as `head` shows files
            typer.echo(f"==> {d.name} <==\n{d.text}")
        return
    for path in write_drafts(game, drafts, force):
        typer.echo(f"Wrote {path}")
