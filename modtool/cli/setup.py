"""modtool setup ...: check, draw, commit to and verify a game's setup."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

import typer

from ..errors import ModToolError
from .app import HereArg, JsonOpt, _emit_json, setup_app


@setup_app.command("check")
def setup_check(game: HereArg = Path("."), as_json: JsonOpt = False) -> None:
    """Check the game's characters against the script and the official setup rules: type
    counts for the number of players with every setup modifier in play (Baron, Godfather,
    Summoner, Huntsman, ...), one of each character, the Drunk's shown Townsfolk, the bluffs
    and the red herring. The Vampires game: the players' roles, or before a draw the [setup]
    roles list against the players (one role each, the game's roles), with a warning under 13
    players. Exit code 1 when the setup is not legal.

    Example:

        modtool setup check games/mygame
    """
    from ..games import load_game

    loaded = load_game(game)
    check = loaded.variant.check_setup_legal(loaded)
    if as_json:
        _emit_json(check.as_json())
    else:
        summary = check.summary()
        verdict = "Legal setup" if check.valid else "Not a legal setup"
        typer.echo(verdict + (f": {summary}" if summary else ""))
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
    shuffle_seats: Annotated[
        bool,
        typer.Option(
            "--shuffle-seats",
            help="Draw the seats too (default: the players keep game.toml's seats, the "
            "player list the thread shows, where every player has one).",
        ),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Draw a legal set of characters for the game's players from its script: the Drunk's
    shown Townsfolk, the Demon's three bluffs and the red herring too. The players keep
    their seats (game.toml's, the player list the thread shows) unless --shuffle-seats, or
    a player has none.

    Example:

        modtool setup draw games/mygame --seed 20261130 --write
    """
    from ..core.ledger import event_to_json
    from ..core.setups import record_setup
    from ..games import load_game

    loaded = load_game(game)
    drawn = loaded.variant.draw(loaded, seed, shuffle_seats)
    event = drawn.as_event()
    if write:
        event = record_setup(loaded, event, force)
    if as_json:
        _emit_json(event_to_json(event))
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
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Make a new commitment though GAME/drafts/setup-reveal.txt holds one for "
            "another setup (its reveal is replaced: post the new hash).",
        ),
    ] = False,
) -> None:
    """Print a SHA-256 commitment of the setup to post at the start; the text it hashes (with
    the salt) is written to GAME/drafts/setup-reveal.txt, to post at the end. Run again, it
    prints the same commitment while the setup is unchanged; once the setup (or --salt)
    differs it refuses, keeping the reveal of the hash already posted: pass --force or delete
    the file to make a new commitment, and post the new hash.

    Example:

        modtool setup commit games/mygame
    """
    from ..core.ledger import write_atomic
    from ..core.setups import commit_game, new_salt, reveals_the_setup, sha256
    from ..games import load_game
    from ..threads.folder_files import check_inside

    loaded = load_game(game)
    path = check_inside(game, game / "drafts" / "setup-reveal.txt")  # a secret: never out
    if path.is_file() and not force:
        kept = path.read_bytes().decode("utf-8", "replace")
        digest = sha256(kept)  # the commitment's own hash of its text
        if not reveals_the_setup(loaded, kept, salt):
            raise ModToolError(
                f"{path} already holds the reveal of commitment {digest}, for a setup or salt "
                "other than this one; to make a new commitment, pass --force or delete the "
                "file, and post the new hash"
            )
        typer.echo(f"Commitment (made before; post it if you have not): {digest}")
        typer.echo(f"Kept {path} (keep it secret; post it at the end)")
        return
    digest, text = commit_game(loaded, salt or new_salt())
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
    from ..core.setups import sha256

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
