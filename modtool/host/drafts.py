"""Drafting what a host posts and sends: the vote count, the day-end and night-end posts, a role
PM for every player and a night-result PM for every player who learned something.

`make_drafts` is the one call the command line makes; it renders every file of a kind before
any is written, so a template error leaves no half-set of drafts behind.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from pathlib import Path

from ..core.checks import require_reached
from ..core.ledger import REVEALS, EventKind, Game, Phase, PhaseKind, write_atomic
from ..errors import ModToolError
from ..games.clocktower.roles import (
    TEAM_NAMES,
    find_character,
    host_role_texts,
    role_text,
    rolebook,
    vampire_setup,
)
from ..threads.posts import Post


class DraftKind(StrEnum):
    VOTECOUNT = "votecount"
    DAYEND = "dayend"
    NIGHTEND = "nightend"
    ROLEPMS = "rolepms"
    NIGHT = "night"

    @property
    def reads_thread(self) -> bool:
        return self in (DraftKind.VOTECOUNT, DraftKind.DAYEND, DraftKind.NIGHTEND)


@dataclass(frozen=True, slots=True)
class Draft:
    name: str  # the file name under GAME/drafts/
    text: str


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
) -> list[Draft]:
    """Every draft of `kind`, rendered (nothing is written here). A phase asked for must be
    one the game has reached."""
    from .render import render_post

    if night is not None:
        require_reached(game, Phase(night, PhaseKind.NIGHT))
    if day is not None:
        require_reached(game, Phase(day, PhaseKind.DAY))

    ext = f"{language}.{EXTENSIONS[markup]}"

    def render(name: str, context: dict, file: str) -> Draft:
        text = render_post(name, context, markup, language, game.folder / "templates", template)
        return Draft(file, text)

    if kind is DraftKind.ROLEPMS:
        contexts = role_pm_contexts(game, language)
        stems = player_file_stems([c["player"] for c in contexts])
        return [
            render("rolepm", c, f"role-{s}.{ext}") for c, s in zip(contexts, stems, strict=True)
        ]
    if kind is DraftKind.NIGHT:
        night = last_night(game) if night is None else night
        contexts = night_result_contexts(game, night)
        stems = player_file_stems([c["player"] for c in contexts])
        return [
            render("nightresult", c, f"night{night}-{s}.{ext}")
            for c, s in zip(contexts, stems, strict=True)
        ]
    if kind is DraftKind.NIGHTEND:
        night = last_night(game) if night is None else night
        context = nightend_context(game, posts, night, language, now)
        return [render("nightend", context, f"night{night}-nightend.{ext}")]
    from ..core.count import count_days
    from .days import dayend_context
    from .render import count_to_json, deadline_of

    day = day or game.days()[-1].day
    if kind is DraftKind.DAYEND:
        context = dayend_context(game, posts, day, now, language)
    else:
        (counted,) = count_days(game, posts, [day], now=now)
        context = {
            "count": count_to_json(counted),
            "number": None,
            "deadline": deadline_of(game, day, now),
        }
    return [render(kind.value, context, f"day{day}-{kind.value}.{ext}")]


def write_drafts(folder: Path, drafts: Sequence[Draft]) -> list[Path]:
    paths = []
    for d in drafts:
        path = folder / "drafts" / d.name
        write_atomic(path, d.text)
        paths.append(path)
    return paths


FILE_STEM_BYTES = 96  # of a name's part of a file name: far below the 255 bytes file systems allow


def file_safe(name: str) -> str:
    """A player's name as a file name: letters (any script), digits, '-', '_' and '.' kept, cut
    to FILE_STEM_BYTES of UTF-8 (a long Korean name is three bytes a syllable)."""
    stem = re.sub(r"[^\w.-]+", "_", name).strip("._") or "player"
    while len(stem.encode("utf-8")) > FILE_STEM_BYTES:
        stem = stem[:-1]
    return stem


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
    """The night after the latest day (seed 003 numbering: Night N follows Day N)."""
    return game.days()[-1].day


# --- role PMs ----------------------------------------------------------------------------------

EVIL_INFO_MIN_PLAYERS = 7


def evil_learn_each_other(players: int) -> bool:
    """Official rule: in games of 7 or more the evil team learn each other and the Demon learns
    three bluffs; in smaller games nobody is told."""
    return players >= EVIL_INFO_MIN_PLAYERS


def _script_needed(game: Game) -> str:
    if game.script is None:
        raise ModToolError(
            f'{game.folder / "game.toml"}: role PMs need script = "..." and a role for each '
            'player (script = "trouble-brewing-forum", role = "Empath")'
        )
    missing = [s.key for s in game.slots if s.role is None]
    if missing:
        raise ModToolError(
            f"{game.folder / 'game.toml'}: player {missing[0]!r} has no role; add "
            'role = "..." to every [[players]] entry'
        )
    return game.script


def role_pm_contexts(game: Game, language: str) -> list[dict]:
    """One context per player (the slot's current holder), in seat order."""
    script = _script_needed(game)
    if script == "vampires":
        return _vampire_pms(game, language)
    chars = game.clocktower.characters
    book = rolebook(game.clocktower.book) if game.clocktower.book else None
    slots = sorted(game.slots, key=lambda s: (s.seat is None, s.seat or 0))
    holder = {s.key: game.slot_names(s.key)[-1] for s in slots}
    team_of = {s.key: chars[s.role].team for s in slots}
    informed = evil_learn_each_other(len(slots))
    minion_info = game.setup.get("minion_info", "team")
    bluffs = [{"name": find_character(b).display(language)} for b in game.setup.get("bluffs", [])]
    told = {s.key: s.shown or s.role for s in slots}  # the Drunk is told a Townsfolk
    texts = _role_texts(game, set(told.values()), language, script)
    out = []
    for s in slots:
        character = texts[told[s.key]]
        alignment = s.team or chars[s.role].alignment
        context = {
            "kind": "botc",
            "game": {"title": game.title, "script": game.clocktower.name},
            "player": holder[s.key],
            "character": character,
            "alignment": alignment,
            "demon": None,
            "minions": [],
            "bluffs": [],
            "win": book.win.get(alignment) if book and book.language == language else None,
        }
        if informed and team_of[s.key] == "demon":
            context["minions"] = [holder[o.key] for o in slots if team_of[o.key] == "minion"]
            context["bluffs"] = bluffs
        if informed and team_of[s.key] == "minion":
            context["demon"] = next(
                (holder[o.key] for o in slots if team_of[o.key] == "demon"), None
            )
            if minion_info == "team":
                context["minions"] = [
                    holder[o.key] for o in slots if team_of[o.key] == "minion" and o is not s
                ]
        out.append(context)
    return out


def _role_texts(game: Game, ids: set[str], language: str, script: str) -> dict[str, dict]:
    """The characters as a PM shows them (name, team, ability, how to play) in `language`:
    the host's GAME/roles.<language>.toml first, then modtool's role data."""
    own = host_role_texts(game.folder, language)
    out, missing = {}, []
    sc = game.clocktower
    for cid in sorted(ids):
        c = sc.characters[cid]
        text = own.get(cid) or sc.texts.get(cid) or role_text(cid, language, sc.book)
        if text is None:
            missing.append(c.name)
            continue
        out[cid] = {
            "id": cid,
            "name": text.name,
            "team": c.team,
            "team_name": TEAM_NAMES[language].get(c.team, c.team),
            "ability": text.ability,
            "how_to_play": text.how_to_play,
        }
    if missing:
        lang = {"en": "English", "ko": "Korean"}.get(language, language)
        raise ModToolError(
            f"no {lang} role text for {', '.join(missing)}; write it in "
            f"{game.folder / f'roles.{language}.toml'} (see docs/drafts.md) or draft with "
            "another --lang"
        )
    return out


def _vampire_pms(game: Game, language: str) -> list[dict]:
    if language != "en":
        raise ModToolError(
            "the Vampires setup (seed 004) has English role text only; draft with --lang en"
        )
    setup = vampire_setup()
    slots = sorted(game.slots, key=lambda s: (s.seat is None, s.seat or 0))
    holder = {s.key: game.slot_names(s.key)[-1] for s in slots}
    role_of = {s.key: setup.role(s.role) for s in slots}
    out = []
    for s in slots:
        real = role_of[s.key]
        role = setup.by_id(real.told_as) if real.told_as else real  # what they are told
        faction = setup.factions[role.faction]
        others = {holder[k]: r.id for k, r in role_of.items() if k != s.key}
        knows = vampire_knowledge(real.id, others)
        out.append(
            {
                "kind": "vampires",
                "game": {"title": game.title, "script": setup.title},
                "player": holder[s.key],
                "role": {
                    "name": role.name,
                    "description": role.description,
                    "abilities": [{"name": a.name, "text": a.text} for a in role.abilities],
                    "win": role.win,
                },
                "faction": {"name": faction["name"], "win": faction["win"]},
                "knows": [{"player": p, "as": what} for p, what in knows],
            }
        )
    return out


def vampire_knowledge(role: str, roles_by_player: dict[str, str]) -> list[tuple[str, str]]:
    """Who a role is told about at the start (seed 004): the Treacherous Villager knows the
    Vampires ("Awareness"); the Scions of Death know The Chosen One ("The Scions of Death
    already know your identity"); a Vampire knows the other Vampires (they share "Vampire
    factional abilities"; docs/vampires.md lists this as a reading)."""
    wanted = {
        "treacherous-villager": ("vampire", "a Vampire"),
        "scion": ("chosen-one", "The Chosen One"),
        "vampire": ("vampire", "a Vampire"),
    }.get(role)
    if wanted is None:
        return []
    return [(p, wanted[1]) for p, r in roles_by_player.items() if r == wanted[0]]


# --- night results -----------------------------------------------------------------------------


def night_result_contexts(game: Game, night: int) -> list[dict]:
    """A context per player with a recorded result for the night, in the order recorded."""
    phase = Phase(night, PhaseKind.NIGHT)
    by_slot: dict[str, list[str]] = {}
    for e in game.events_of(EventKind.NIGHT_RESULT):
        if e.phase == phase:
            by_slot.setdefault(e.slot, []).append(e.note)
    if not by_slot:
        raise ModToolError(
            f"no night results recorded for Night {night}; record them with "
            f'modtool record night-result GAME PLAYER "text" --night {night}'
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


def role_display(game: Game, slot_key: str, language: str) -> tuple[str | None, str | None]:
    """A dead player's character (after any recorded change) and alignment as a post names
    them."""
    role, team = game.role_at(slot_key), game.slot(slot_key).team
    if role is not None and game.clocktower is not None:
        c = game.clocktower.characters[role]
        return c.display(language), team or c.alignment
    if role is not None and game.script == "vampires":
        from ..games.vampires.game import revealed_role

        faction = vampire_setup().factions[vampire_setup().by_id(role).faction]["name"]
        return revealed_role(game, slot_key, role), team or faction
    return role, team


# Seed 004: The Chosen One and the Shaman: "If you die, everyone will learn that you were ..."
ALWAYS_REVEALED = ("chosen-one", "shaman")


def death_reveal(game: Game, slot_key: str, cause: str | None, language: str) -> dict:
    reveal = game.drafts.get("reveal", REVEALS[0])
    role, team = role_display(game, slot_key, language)
    announced = game.script == "vampires" and game.role_at(slot_key) in ALWAYS_REVEALED
    if announced and reveal == "nothing":
        reveal = "role"
    return {
        "player": game.slot_names(slot_key)[-1],
        "cause": cause or "",
        "role": role if reveal in ("role", "pm") else None,
        "team": team if reveal != "nothing" else None,
        "ability": _revealed_ability(game, slot_key, language) if reveal == "pm" else None,
    }


def _revealed_ability(game: Game, slot_key: str, language: str) -> str | None:
    """The dead player's true character's ability, as a full-role-PM reveal shows it."""
    role = game.role_at(slot_key)
    if role is None or game.script is None:
        return None
    if game.script == "vampires":
        found = vampire_setup().by_id(role)
        return " ".join([found.description, *(f"{a.name}: {a.text}" for a in found.abilities)])
    return _role_texts(game, {role}, language, game.script)[role]["ability"]


def nightend_context(
    game: Game, posts: Sequence[Post], night: int, language: str = "en", now=None
) -> dict:
    """The dawn post: who died in the night and what the game reveals, the day that starts,
    and its deadline when the schedule knows it."""
    from ..core.schedule import day_deadline

    phase = Phase(night, PhaseKind.NIGHT)
    deaths = [
        death_reveal(game, e.slot, e.cause, language) for e in game.deaths() if e.phase == phase
    ]
    deadline = day_deadline(game, night + 1, posts)
    return {
        "night": night,
        "day": night + 1,
        "deaths": deaths,
        "next_deadline": (
            deadline.astimezone(game.timezone).strftime("%Y-%m-%d %H:%M %Z") if deadline else None
        ),
        "reveal": game.drafts.get("reveal", REVEALS[0]),
    }
