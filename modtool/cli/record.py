"""modtool record ...: an event appended to a game's ledger."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from .app import GameArg, JsonOpt, ThreadOpt, _emit_json, _posts_if_at_hand, record_app


def _post_opt(meaning: str):
    """A --post option whose help says what the post number means for that event."""
    return Annotated[int | None, typer.Option(min=0, help=meaning, metavar="POST")]


StartPostOpt = _post_opt(
    "The host's post that starts the day: votes after it count, and the day starts at its time "
    "(its deadline then follows from [schedule])."
)
EndPostOpt = _post_opt("The last post of the day: votes up to and including it count.")
DeathPostOpt = _post_opt(
    "The post where the player died during the day: no vote by or for them counts after it."
)
ReplacementPostOpt = _post_opt("The first post that belongs to the new player.")
ResetPostOpt = _post_opt("The host's reset post: only votes after it count.")
ChangePostOpt = _post_opt("The post where the change was announced (instead of --phase).")


TimeOpt = Annotated[
    str | None,
    typer.Option(help="ISO time, e.g. 2026-11-29T18:00 (game timezone).", metavar="TIME"),
]


PlayerArg = Annotated[str, typer.Argument(help="A player's name (any name of the slot).")]


DayArg = Annotated[int, typer.Argument(min=1, max=999, help="The day number.")]


def _record(game: Path, event: dict | list[dict], as_json: bool) -> list:
    from ..games import load_game
    from ..host.days import record_events

    events = [{k: v for k, v in e.items() if v is not None} for e in _as_list(event)]
    loaded = load_game(game)
    done = record_events(loaded, events, _posts_if_at_hand(loaded))
    lines = list(done.lines)
    if as_json:
        _emit_json(lines[0] if isinstance(event, dict) else lines)
    else:
        for line in lines:
            typer.echo("Recorded " + json.dumps(line, ensure_ascii=False))
    return list(done.events)


def _as_list(event: dict | list[dict]) -> list[dict]:
    return [event] if isinstance(event, dict) else event


@record_app.command("day-start")
def record_day_start(
    game: GameArg,
    day: DayArg,
    post: StartPostOpt = None,
    thread: ThreadOpt = None,
    time: TimeOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Day DAY starts after this post (or at this time).

    Example:

        modtool record day-start games/mygame 2 --post 312
    """
    _post_or_time(post, time)
    event = {"kind": "day_start", "day": day, "thread": thread, "post": post, "time": time}
    _record(game, event, as_json)


def _post_or_time(post: int | None, time: str | None) -> None:
    if post is None and time is None:
        raise typer.BadParameter(
            "give the post (--post N) or the time (--time)", param_hint="--post/--time"
        )


@record_app.command("day-end")
def record_day_end(
    game: GameArg,
    day: DayArg,
    post: EndPostOpt = None,
    thread: ThreadOpt = None,
    time: TimeOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Day DAY ended with this post (or at this deadline).

    Example:

        modtool record day-end games/mygame 1 --post 270
    """
    _post_or_time(post, time)
    event = {"kind": "day_end", "day": day, "thread": thread, "post": post, "time": time}
    _record(game, event, as_json)


@record_app.command("death")
def record_death(
    game: GameArg,
    player: PlayerArg,
    phase: Annotated[
        str | None,
        typer.Option(help="D2: died on Day 2 (at its end); N1: died in Night 1.", metavar="PHASE"),
    ] = None,
    post: DeathPostOpt = None,
    thread: ThreadOpt = None,
    cause: Annotated[
        str | None, typer.Option(help="lynched, executed, killed, modkilled, ...", metavar="CAUSE")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """PLAYER died at a phase boundary (--phase) or at a post during the day (--post).

    Example:

        modtool record death games/mygame Kohai --phase N1 --cause killed
    """
    event = {
        "kind": "death",
        "player": player,
        "phase": phase,
        "thread": thread,
        "post": post,
        "cause": cause,
    }
    _record(game, event, as_json)


RevivalPostOpt = _post_opt(
    "The post where the player was brought back: their votes count again from it on."
)


@record_app.command("revival")
def record_revival(
    game: GameArg,
    player: PlayerArg,
    phase: Annotated[
        str | None,
        typer.Option(help="N2: revived in Night 2 (alive from Day 3).", metavar="PHASE"),
    ] = None,
    post: RevivalPostOpt = None,
    thread: ThreadOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """PLAYER, dead, is alive again from a post (--post) or a phase (--phase): a resurrection.
    Days before it keep the player dead; the threshold counts them again from it on.

    Example:

        modtool record revival games/mygame Cypress --post 212
    """
    event = {"kind": "revival", "player": player, "phase": phase, "thread": thread, "post": post}
    _record(game, event, as_json)


@record_app.command("replacement")
def record_replacement(
    game: GameArg,
    player: PlayerArg,
    by: Annotated[str, typer.Argument(help="The new player's name.")],
    post: ReplacementPostOpt = None,
    thread: ThreadOpt = None,
    time: TimeOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """BY replaces PLAYER from this post on; votes by or for either name count for the slot.

    Example:

        modtool record replacement games/mygame sordros Maemuki --post 226
    """
    event = {
        "kind": "replacement",
        "player": player,
        "by": by,
        "thread": thread,
        "post": post,
        "time": time,
    }
    _record(game, event, as_json)


@record_app.command("vote-reset")
def record_vote_reset(
    game: GameArg, post: ResetPostOpt = None, thread: ThreadOpt = None, as_json: JsonOpt = False
) -> None:
    """The host cleared every vote at this post.

    Example:

        modtool record vote-reset games/mygame --post 500
    """
    _record(game, {"kind": "vote_reset", "thread": thread, "post": post}, as_json)


@record_app.command("correction")
def record_correction(
    game: GameArg,
    post: Annotated[int, typer.Argument(min=0, help="The post to read differently.")],
    thread: ThreadOpt = None,
    target: Annotated[
        str | None,
        typer.Option(
            help="Count the post as a vote for this player (any name of the slot), 'no lynch' "
            "or 'unvote'; a name that is no player's is refused.",
            metavar="NAME",
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
    event = {"kind": "correction", "thread": thread, "post": post, "action": action}
    event["target"] = target
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
    thread: ThreadOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Read post POST's chat announcements as TEXT says instead.

    Example:

        modtool record chat-correction games/mygame 214 "CHAT CLOSE: Rex's chat with Rex, Neros"
    """
    event = {"kind": "chat_correction", "thread": thread, "post": post, "text": text}
    _record(game, event, as_json)


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
    twice = sorted({n for n in lines if lines.count(n) > 1})
    if twice:  # the second undo would retract the first, a line not yet written
        raise typer.BadParameter(
            f"line {twice[0]} is named twice; name each line once", param_hint="'LINES...'"
        )
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
    post: ChangePostOpt = None,
    thread: ThreadOpt = None,
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
        "thread": thread,
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
    Monk's protection, the Butler's master, ...), for `modtool night`. A Clocktower choice the
    character's rules forbid is refused (how many players, themself, whether it wakes that
    night: modtool docs clocktower).

    Example:

        modtool record choice games/mygame ILikePie5 Banana Neros --night 1
    """
    from ..games import load_game
    from ..host.days import replaced_plan

    event = {
        "kind": "night_choice",
        "player": player,
        "night": night,
        "targets": list(targets or []),
        "character": character,
        "ability": ability,
    }
    (added,) = _record(game, event, as_json)
    replaced = replaced_plan(load_game(game), added)
    if replaced is not None and not as_json:
        typer.echo(
            f"This replaces the plan of line {replaced.line}: a player's latest plan for a "
            "night is the one that counts."
        )


@record_app.command("day-ability")
def record_day_ability(
    game: GameArg,
    player: PlayerArg,
    ability: Annotated[
        str, typer.Argument(help="slayer, damsel_guess, goblin_claim, juggle or other.")
    ],
    post: Annotated[int, typer.Option(min=0, help="Where the host announced it.", metavar="POST")],
    thread: ThreadOpt = None,
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
        "thread": thread,
        "post": post,
        "target": target,
        "character": character,
        "note": note,
    }
    _record(game, event, as_json)
