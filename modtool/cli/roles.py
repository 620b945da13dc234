"""modtool roles ...: Clocktower role text from the publisher's files."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .app import HereArg, JsonOpt, Lang, _emit_json, roles_app


@roles_app.command("import")
def roles_import(
    file: Annotated[
        Path,
        typer.Argument(
            help="The publisher's character file of one language (its roles: name, ability, "
            "night reminders) or a script from the official script tool with abilities.",
            exists=True,
            dir_okay=False,
            metavar="FILE",
        ),
    ],
    game: HereArg = Path("."),
    lang: Annotated[
        Lang | None,
        typer.Option(
            help="The language of FILE's text, en or ko. Default: the one its name says "
            "(ko.json is Korean).",
            metavar="LANG",
        ),
    ] = None,
    every: Annotated[
        bool,
        typer.Option("--all", help="Every character of FILE, not only those of the script."),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Write the role text of FILE into GAME/roles.LANG.toml, for the role PMs of the game's
    script: each character's name, ability and the Storyteller's first-night and other-night
    reminders. A character GAME/roles.LANG.toml already has is kept as the host wrote it.

    Examples:

        modtool roles import ko.json games/mygame

        modtool roles import my-script.json games/mygame --lang en
    """
    from ..games import load_game

    language = lang.value if lang else _language_of(file)
    loaded = load_game(game)
    done = loaded.variant.import_role_text(loaded, file, language, every)
    if as_json:
        _emit_json(done.as_json())
    else:
        typer.echo(done.text())


def _language_of(file: Path) -> str:
    """The language a file's name states (ko.json, roles-ko.json); else a usage error."""
    words = file.stem.lower().replace("_", "-").replace(".", "-").split("-")
    found = [lang.value for lang in Lang if lang.value in words]
    if len(found) != 1:
        raise typer.BadParameter(
            f"{file.name} does not say its language; give it with --lang "
            f"({' or '.join(lang.value for lang in Lang)})",
            param_hint="--lang",
        )
    return found[0]
