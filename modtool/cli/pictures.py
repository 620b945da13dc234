"""modtool picture square and picture votes: the pictures a host posts (the pictures extra)."""

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
    Lang,
    NightAtOpt,
    OfflineOpt,
    RefreshOpt,
    _emit_json,
    _game_and_posts,
    _group,
    _one_phase,
    _phase_of,
    app,
)

picture_app = _group(
    "Pictures to post: the town square, and how a day's votes moved "
    "(needs the pictures extra: pip install 'modtool[pictures]', or from a clone "
    "pip install '.[pictures]')."
)
app.add_typer(picture_app, name="picture")

OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        help="The file to write, .png or .svg. Default: a PNG in GAME/drafts/.",
        dir_okay=False,
        metavar="FILE",
    ),
]
LangOpt = Annotated[Lang, typer.Option(help="The language of the picture's words.")]


def _write(folder: Path, out: Path | None, default: str, picture, as_json: bool) -> None:
    from ..core.ledger import write_atomic
    from ..host.drafts import note_written
    from ..host.pictures.files import picture_format
    from ..threads.folder_files import check_inside

    path = out if out is not None else check_inside(folder, folder / "drafts" / default)
    data = picture(picture_format(path))  # drawn in full before anything is written
    write_atomic(path, data)
    note_written(folder, [path])  # a picture in drafts/ is modtool's, as its drafts are
    if as_json:
        _emit_json({"path": str(path), "format": path.suffix.lstrip(".").lower()})
    else:
        typer.echo(f"Wrote {path}")


@picture_app.command("square")
def square(
    game: HereArg = Path("."),
    day: DayAtOpt = None,
    night: NightAtOpt = None,
    out: OutOpt = None,
    lang: LangOpt = Lang.EN,
    offline: OfflineOpt = False,
    refresh: RefreshOpt = False,
    cookies: CookiesOpt = None,
    header: HeaderOpt = None,
    cache: CacheOpt = None,
    concurrency: ConcurrencyOpt = 3,
    as_json: JsonOpt = False,
) -> None:
    """The public town square at the start of a day or night (default: the latest phase): the
    seats in order, the dead under a shroud, ghost votes held and spent, the player executed
    the day before, Travellers apart; a dead player's role only as [drafts] reveal shows it.

    Example:

        modtool picture square games/mygame --night 3 --lang ko --out square.png
    """
    from ..host.pictures.files import square_name, square_picture

    _one_phase(day, night)
    loaded, posts = _game_and_posts(
        game, offline, refresh, concurrency, cookies, header, cache, True
    )
    phase = _phase_of(loaded, day, night)
    _write(
        game,
        out,
        square_name(phase, lang.value),
        lambda fmt: square_picture(loaded, posts, phase, lang.value, fmt),
        as_json,
    )


@picture_app.command("votes")
def votes(
    game: HereArg = Path("."),
    day: Annotated[
        int | None, typer.Option(min=1, max=999, help="Default: the latest day.", metavar="N")
    ] = None,
    out: OutOpt = None,
    lang: LangOpt = Lang.EN,
    offline: OfflineOpt = False,
    refresh: RefreshOpt = False,
    cookies: CookiesOpt = None,
    header: HeaderOpt = None,
    cache: CacheOpt = None,
    concurrency: ConcurrencyOpt = 3,
    as_json: JsonOpt = False,
) -> None:
    """How a day's votes moved: each wagon that reached two votes over the day's posts, the
    votes an execution needed, the hammer or the day's end, the final count in the legend.

    Example:

        modtool picture votes games/mygame --day 2 --out day2.png
    """
    from ..host.pictures.files import votes_name, votes_picture

    loaded, posts = _game_and_posts(
        game, offline, refresh, concurrency, cookies, header, cache, True
    )
    number = day if day is not None else loaded.days()[-1].day
    _write(
        game,
        out,
        votes_name(number, lang.value),
        lambda fmt: votes_picture(loaded, posts, number, lang.value, fmt),
        as_json,
    )
