"""Drafting what a host posts and sends: the vote count, the day-end and night-end posts, a role
PM for every player and a night-result PM for every player who learned something.

`make_drafts` is the one call the command line makes; it renders every file of a kind before
any is written, so a template error leaves no half-set of drafts behind.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from datetime import datetime
from enum import StrEnum
from pathlib import Path

from ..core.checks import require_reached
from ..core.count import count_days
from ..core.ledger import (
    LEDGER_FILE,
    REVEALS,
    EventKind,
    Game,
    Phase,
    PhaseKind,
    write_atomic,
)
from ..core.plan import GamePlan
from ..core.results import OutcomeKind
from ..core.schedule import day_deadline
from ..errors import ModToolError
from ..threads.folder_files import check_inside
from ..threads.frozen import frozen
from ..threads.posts import Post
from .chats import chat_log
from .render import count_to_json, deadline_of, tie_chooser, win_to_json
from .templating import render_post


class DraftKind(StrEnum):
    VOTECOUNT = "votecount"
    DAYEND = "dayend"
    NIGHTEND = "nightend"
    ROLEPMS = "rolepms"
    NIGHT = "night"

    @property
    def reads_thread(self) -> bool:
        return self in (DraftKind.VOTECOUNT, DraftKind.DAYEND, DraftKind.NIGHTEND)


@frozen
class Draft:
    name: str  # the file name under GAME/drafts/
    text: str
    data: bytes | None = None  # a picture's bytes, written instead of the text


EXTENSIONS = {"bbcode": "bbcode", "markdown": "md"}


def make_drafts(
    game: Game,
    kind: DraftKind,
    posts: Sequence[Post] = (),
    *,
    day: int | None = None,
    night: int | None = None,
    language: str = "en",
    markup: str = "bbcode",
    template: Path | None = None,
    now: datetime | None = None,
    preview: bool = False,
) -> list[Draft]:
    """Every draft of `kind`, rendered (nothing is written here). A phase asked for must be
    one the game has reached; a day-end post, a day that is over (or, with `preview`, a draft
    of it marked as a preview)."""
    if night is not None:
        require_reached(game, Phase(night, PhaseKind.NIGHT))
    if day is not None:
        require_reached(game, Phase(day, PhaseKind.DAY))

    if preview and kind is not DraftKind.DAYEND:
        raise ModToolError(
            f"--preview is for a day-end post still in progress, not {kind.value}; leave it out"
        )
    ext = f"{language}.{EXTENSIONS[markup]}"

    def render(name: str, context: dict, file: str) -> Draft:
        extra, own = game.folder / "templates", game.variant.templates
        text = render_post(name, context, markup, language, extra, template, own)
        return Draft(file, text)

    if kind is DraftKind.ROLEPMS:
        contexts = role_pm_contexts(game, language)
        stems = _file_stems(game)
        return [render("rolepm", c, f"role-{stems[c['player']]}.{ext}") for c in contexts]
    if kind is DraftKind.NIGHT:
        night = last_night(game) if night is None else night
        contexts = night_result_contexts(game, night)
        stems = _file_stems(game)
        return [
            render("nightresult", c, f"night{night}-{stems[c['player']]}.{ext}") for c in contexts
        ]
    if kind is DraftKind.NIGHTEND:
        night = last_night(game) if night is None else night
        context = nightend_context(game, posts, night, language, now)
        return [render("nightend", context, f"night{night}-nightend.{ext}")]
    day = day or game.days()[-1].day
    if kind is DraftKind.DAYEND:
        context = dayend_context(game, posts, day, now, language, preview)
        if context["preview"]:  # kept apart from the day-end post itself
            return [render(kind.value, context, f"day{day}-{kind.value}-preview.{ext}")]
    else:
        (counted,) = count_days(game, posts, [day], now=now)
        context = {
            "count": count_to_json(counted),
            "chooser": tie_chooser(counted, language),
            "number": None,
            "deadline": deadline_of(game, day, now, posts),
        }
    return [render(kind.value, context, f"day{day}-{kind.value}.{ext}")]


# What modtool last wrote in a game's drafts/ folder: file name -> the SHA-256 of its bytes.
# A draft whose file no longer holds what was written was edited by the host: kept.
WRITTEN_FILE = ".written.json"


def write_drafts(folder: Path, drafts: Sequence[Draft], force: bool = False) -> list[Path]:
    """Write the drafts into GAME/drafts/, all or none: a draft the host edited since modtool
    wrote it (or a file of the same name modtool did not write) is not replaced unless
    `force`; one that holds what modtool wrote, or the same text, is. A drafts folder of a
    modtool before this record (no WRITTEN_FILE) is taken as modtool's."""
    where = check_inside(folder, folder / "drafts", "folder")
    for d in drafts:
        check_inside(folder, where / d.name)
    check_inside(folder, where / WRITTEN_FILE)
    written = _written(where)
    if not force and written is not None:
        for d in drafts:
            new = d.data if d.data is not None else d.text.encode("utf-8")
            edited = edited_draft(where / d.name, written.get(d.name), new)
            if edited:
                raise ModToolError(
                    f"{where / d.name}: {edited}; move it aside to keep it, or pass --force "
                    "to replace it"
                )
    paths = []
    for d in drafts:
        path = where / d.name
        write_atomic(path, d.data if d.data is not None else d.text)
        paths.append(path)
        note_written(folder, [path])  # each as it is written: a failure later keeps its record
    return paths


def note_written(folder: Path, paths: Sequence[Path]) -> None:
    """Keep what modtool wrote in GAME/drafts/ (also a picture written there), as it is on
    disk, so that drafting again knows the host's edits from its own files."""
    where = folder / "drafts"
    mine = [p for p in paths if p.parent.resolve() == where.resolve()]
    if not mine:
        return  # a picture written elsewhere (--out): nothing of drafts/ to keep
    check_inside(folder, where, "folder")
    check_inside(folder, where / WRITTEN_FILE)
    written = _written(where) or {}
    for path in mine:
        written[path.name] = _digest(path.read_bytes())
    write_atomic(where / WRITTEN_FILE, json.dumps(written, indent=1, sort_keys=True) + "\n")


def edited_draft(path: Path, digest: str | None, new: bytes) -> str | None:
    """Why a draft's file must not be replaced: it was edited since modtool wrote it, or
    modtool never wrote it; None where it is absent, holds what modtool wrote, or holds
    the new text already."""
    if not path.exists():
        return None
    held = _digest(path.read_bytes())
    if held == digest or held == _digest(new):
        return None
    if digest is None:
        return "a file modtool did not write holds this draft's name"
    return "edited since modtool wrote it"


def _written(where: Path) -> dict[str, str] | None:
    """The record of what modtool wrote; None where there is none (a new folder, or one an
    older modtool wrote); an unreadable record is empty: every file counts as not modtool's."""
    record = where / WRITTEN_FILE
    if not record.exists():
        return None
    try:
        found = json.loads(record.read_text("utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    return found if isinstance(found, dict) else {}


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


FILE_STEM_BYTES = 96  # of a name's part of a file name: far below the 255 bytes file systems allow


def file_safe(name: str) -> str:
    """A player's name as a file name: letters (any script), digits, '-', '_' and '.' kept, cut
    to FILE_STEM_BYTES of UTF-8 (a long Korean name is three bytes a syllable)."""
    stem = re.sub(r"[^\w.-]+", "_", name).strip("._") or "player"
    while len(stem.encode("utf-8")) > FILE_STEM_BYTES:
        stem = stem[:-1]
    return stem


def _file_stems(game: Game) -> dict[str, str]:
    """Each player's file-name stem, numbered over every player in seat order, so a player's
    role PM and night PMs carry the same name whoever else has drafts."""
    slots = sorted(game.slots, key=lambda s: (s.seat is None, s.seat or 0))
    holders = [game.slot_names(s.key)[-1] for s in slots]
    return dict(zip(holders, player_file_stems(holders), strict=True))


def player_file_stems(players: Sequence[str]) -> list[str]:
    """A file-name stem per player, different for every player even where their safe forms
    meet ("★" and "player", "Bob!" and "Bob?", two long names cut alike): a number is added to
    the second and later ones, compared without case (Windows and macOS fold it)."""
    stems: list[str] = []
    taken: set[str] = set()
    for player in players:
        stem = base = file_safe(player)
        n = 2
        while stem.casefold() in taken:
            stem, n = f"{base}-{n}", n + 1
        taken.add(stem.casefold())
        stems.append(stem)
    return stems


def last_night(game: Game) -> int:
    """The last night the game has reached, the default of a night's drafts: the night it is
    in, or the night before the current day (Night N follows Day N, as the forum games number
    them). In Day 1 no night has followed a day yet: the host names the night (Night 0)."""
    now = game.current_phase()
    if now.is_night:
        return now.number
    if now.number > 1:
        return now.number - 1
    raise ModToolError(
        f"which night? The game is in Day 1, so no night has followed a day yet (ledger "
        f"{game.folder / LEDGER_FILE}); give --night 0 for the night before Day 1, or end Day 1 "
        f"first (modtool end-day {game.folder})"
    )


# --- role PMs ----------------------------------------------------------------------------------


def role_pm_contexts(game: Game, language: str) -> list[dict]:
    """One context per player (the slot's current holder), in seat order, as the game tells
    each their role."""
    missing = [s.key for s in game.slots if s.role is None]
    if missing or not game.variant.has_roles:
        who = (
            f"player {missing[0]!r} has no role"
            if missing and game.variant.has_roles
            else ('role PMs need script = "..." and a role for each player')
        )
        raise ModToolError(
            f'{game.folder / "game.toml"}: {who}; add role = "..." to every [[players]] entry '
            '(script = "trouble-brewing-forum", role = "Empath")'
        )
    return game.variant.role_pms(game, language)


def death_reveal(game: Game, slot_key: str, cause: str | None, language: str) -> dict:
    """What a post says of a death: the player, the cause, and what `[drafts] reveal` shows
    (a role the game always announces, such as the Vampires game's Chosen One, is shown)."""
    reveal = game.drafts.get("reveal", REVEALS[0])
    role, team = game.variant.role_display(game, slot_key, language)
    if reveal == "nothing" and game.variant.always_revealed(game, slot_key):
        reveal = "role"
    ability = game.variant.revealed_ability(game, slot_key, language) if reveal == "pm" else None
    return {
        "player": game.slot_names(slot_key)[-1],
        "cause": cause or "",
        "role": role if reveal in ("role", "pm") else None,
        "team": team if reveal != "nothing" else None,
        "ability": ability,
    }


# --- night results -----------------------------------------------------------------------------


def night_result_contexts(game: Game, night: int) -> list[dict]:
    """A context per player with a recorded result for the night, in the order recorded."""
    phase = Phase(night, PhaseKind.NIGHT)
    import markupsafe

    by_slot: dict[str, list[str]] = {}
    for e in game.events_of(EventKind.NIGHT_RESULT):
        if e.phase == phase:  # the host's text is the host's markup; modtool's is escaped
            by_slot.setdefault(e.slot, []).append(e.text if e.plain else markupsafe.Markup(e.text))
    if not by_slot:
        raise ModToolError(
            f"no night results recorded for Night {night}; record them with "
            f'modtool record night-result {game.folder} PLAYER "text" --night {night}'
        )
    return [
        {
            "game": {"title": game.title},
            "player": game.slot_names(slot)[-1],
            "night": night,
            "results": texts,
        }
        for slot, texts in by_slot.items()
    ]


# --- the night-end post ------------------------------------------------------------------------


def nightend_context(
    game: Game, posts: Sequence[Post], night: int, language: str = "en", now=None
) -> dict:
    """The dawn post: who died in the night and what the game reveals, the day that starts,
    and its deadline when the schedule knows it."""
    phase = Phase(night, PhaseKind.NIGHT)
    deaths = [
        death_reveal(game, e.slot, e.cause, language) for e in game.deaths() if e.phase == phase
    ]
    deadline = day_deadline(game, night + 1, posts)
    return {
        "night": night,
        "day": night + 1,
        # who won, when the game is over by dawn: no day follows
        "win": win_to_json(game.variant.won_before(game, Phase(night + 1, PhaseKind.DAY))),
        "deaths": deaths,
        "next_deadline": (
            deadline.astimezone(game.timezone).strftime("%Y-%m-%d %H:%M %Z") if deadline else None
        ),
        "reveal": game.drafts.get("reveal", REVEALS[0]),
    }


# --- the day-end post ----------------------------------------------------------------------


def dayend_context(
    game: Game,
    posts: Sequence[Post],
    day: int,
    now: datetime | None = None,
    language: str = "en",
    preview: bool = False,
) -> dict:
    """What a day-end post says: the execution or why there was none, the day's deaths with
    what the game reveals (game.toml `[drafts] reveal`), the deaths the count found that the
    ledger does not hold yet, ghost votes spent, chats closed at the day's end, and the win
    when the game is over, else the next deadline when the schedule knows it. A day still in
    progress is refused, unless `preview`."""
    (count,) = count_days(game, posts, [day], now=now)
    in_progress = count.outcome.kind is OutcomeKind.PENDING
    if in_progress and not preview:
        raise ModToolError(
            f"Day {day} is not over ({count.outcome.reason}); close it with "
            f"`modtool end-day {game.folder}` first, or give --preview for a draft marked as one"
        )
    plan = GamePlan.build(game, posts, now)
    start, end = plan.bounds.get(day, (0, 0))
    reveal = game.drafts.get("reveal", REVEALS[0])
    deaths = []
    for e in game.deaths():
        during = e.phase is not None and not e.phase.is_night and e.phase.number == day
        at_post = e.phase is None and start <= plan.life_at.get(e.line, -1) < end
        if during or at_post:
            deaths.append(death_reveal(game, e.slot, e.cause, language))
    dead = game.dead_slots()
    for d in count.deaths:  # what end-day records: the post says it before the ledger does
        slot = game.find_slot(d.player)
        if slot not in dead:
            deaths.append(death_reveal(game, slot, d.cause, language))
    ghosts = list(count.ghost_votes_spent)  # also one a death cleared from its wagon
    closed = [  # a preview's day is going: its open chats are those that will close with it
        {
            "id": c.id,
            "creator": c.events[0].by if c.events else c.creator,
            "members": list(c.members),
        }
        for entry in chat_log(game, posts, [day], now)
        for c in entry.chats
        if (c.closed["how"] == "day_end" if c.closed else in_progress)
    ]
    following = day_deadline(game, day + 1, posts)
    if following is not None:
        following = following.astimezone(game.timezone).strftime("%Y-%m-%d %H:%M %Z")
    executed = count.outcome.player if count.outcome.kind is OutcomeKind.EXECUTION else None
    shown = next((d for d in deaths if d["player"] == executed), None)
    counted = count_to_json(count)
    return {
        "preview": in_progress,  # a preview of a day not over: the draft says so at its top
        "win": counted.get("win"),  # who won when the game is over: no night follows
        "count": counted,
        "chooser": tie_chooser(count, language),  # who chooses among the tied, if a team does
        "executed": shown,  # the executed player's reveal, shown on the execution line
        "deaths": [d for d in deaths if d is not shown],
        "ghost_votes": ghosts,
        "chats_closed": closed,
        "next_deadline": following,
        "reveal": reveal,
    }
