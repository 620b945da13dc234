"""Starting a game folder from a thread (`modtool init`): the game.toml a host would write, with
what had to be guessed said in a summary and in the file.

The guesses, each a small rule below: the host is the first poster; the players are the first
post's player list when it has one (seats in its order), else the posters who voted (a poster
who never voted is written as a comment, a likely spectator); names that differ only in case
are one player, the other spellings aliases; the timezone is the one the posts' times were
shown in (the page's "All times are UTC - 5 hours"), UTC when the page states none.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path
from zoneinfo import ZoneInfo, available_timezones

import tomli_w

from ..core.ledger import LEDGER_FILE, SETUP_FILE, write_atomic
from ..core.rules import load_preset, preset_names, rules_from_table
from ..core.votes import find_votes
from ..errors import ModToolError
from ..games import find_game, load_game
from ..threads.frozen import frozen
from ..threads.posts import Post

INIT_FILES = (SETUP_FILE, LEDGER_FILE)


@frozen
class Started:
    """What `init` wrote, and what it guessed (one sentence each, for the host to check)."""

    setup: Path
    ledger: Path
    guesses: tuple[str, ...]


# --- the rules of the guesses ------------------------------------------------------------------

# "1. Alice", "1) Alice", "#1 Alice", "- Alice", "• Alice", "Seat 1: Alice"
_ITEM_MARK = re.compile(r"^\s*(?:(?:seat\s*)?#?\d{1,3}\s*[.):\-–]?|[-*•·●▪])\s*", re.I)
# what a list may add after a name: "Alice (replacing Bo)", "Alice - confirmed", "Alice [in]"
_ITEM_TAIL = re.compile(r"\s*(?:[(\[].*|\s[-–—:]\s.*)$")


def list_item_name(line: str) -> tuple[str, bool]:
    """The name a line of a list gives, and whether the line is marked as a list item (a number
    or a bullet before it)."""
    marked = _ITEM_MARK.match(line)
    rest = line[marked.end() :] if marked and marked.end() else line
    return _ITEM_TAIL.sub("", rest).strip(), bool(marked and marked.group().strip())


def player_list(lines: Sequence[str], posters: Sequence[str]) -> tuple[str, ...]:
    """The player list of a first post: its lines that name a poster (after a number or a
    bullet, before a note), in order, with the list's other items (numbered or bulleted lines
    among and next to them) naming someone who has not posted yet. A list is three names at
    least; fewer is not a list (a post may name a player or two in passing)."""
    known = {p.casefold(): p for p in posters}
    named = [(i, *list_item_name(line)) for i, line in enumerate(lines)]
    hits = [i for i, name, _ in named if name.casefold() in known]
    if len(hits) < 3:
        return ()

    def item(i: int) -> bool:  # a marked line that may be a name
        return 0 <= i < len(named) and named[i][2] and 0 < len(named[i][1].split()) <= 3

    start, end = hits[0], hits[-1]
    while item(start - 1):
        start -= 1
    while item(end + 1):
        end += 1
    found: list[str] = []
    for i, name, _ in named[start : end + 1]:
        if name.casefold() in known:
            spelling = known[name.casefold()]
        elif item(i):
            spelling = name  # on the list, no post yet
        else:
            continue
        if spelling.casefold() not in {f.casefold() for f in found}:
            found.append(spelling)
    return tuple(found)


def spellings(names: Sequence[str]) -> dict[str, list[str]]:
    """Names that differ only in case as one: the first spelling seen, with the others."""
    by_fold: dict[str, list[str]] = {}
    for name in names:
        seen = by_fold.setdefault(name.casefold(), [])
        if name not in seen:
            seen.append(name)
    return {spelled[0]: spelled[1:] for spelled in by_fold.values()}


@cache
def _fixed_zones(year: int) -> dict[timedelta, str]:
    """An IANA zone for each offset some zone keeps all year, Etc/ ones first."""
    zones: dict[timedelta, str] = {}
    for name in sorted(available_timezones(), key=lambda n: (not n.startswith("Etc/"), n)):
        if "/" not in name:
            continue
        tz = ZoneInfo(name)
        winter, summer = (datetime(year, m, 1, 12, tzinfo=tz).utcoffset() for m in (1, 7))
        if winter == summer and winter is not None:
            zones.setdefault(winter, name)
    return zones


def offset_text(offset: timedelta) -> str:
    minutes = int(offset.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def shown_zone(posts: Sequence[Post]) -> tuple[str, str]:
    """The timezone to write, and why: the offset the posts' times were shown in (the page
    states it, or the posts file carries it), as a zone that keeps it all year; UTC when the
    times were shown in UTC. Posts shown at several offsets (a zone with summer time) take the
    latest post's: the page states the offset of the day it was read."""
    timed = [p.time for p in posts if p.time is not None and p.time.utcoffset() is not None]
    if not timed:
        return "UTC", "the posts show no times"
    offsets = Counter(t.utcoffset() for t in timed)
    offset = timed[-1].utcoffset()
    if offset == timedelta(0) and len(offsets) == 1:
        return "UTC", "the posts' times are in UTC (the page states no other zone)"
    name = _fixed_zones(timed[-1].year).get(offset)
    if name is None:
        return "UTC", f"the posts are shown at {offset_text(offset)}, which no zone keeps"
    why = f"the posts' times are shown at {offset_text(offset)}"
    if len(offsets) > 1:
        shown = ", ".join(offset_text(o) for o in sorted(offsets))
        why += f" (they show {shown}: name the place's zone, which keeps summer time)"
    return name, why


def toml_string(value: str) -> str:
    """A TOML basic string of any text: UTF-8 as written (Korean, emoji), control characters
    escaped (JSON's escapes are not TOML's for characters outside the BMP)."""
    return tomli_w.dumps({"x": value})[4:].rstrip("\n")


# --- writing the folder --------------------------------------------------------------------------


def _lines_of(post: Post) -> list[str]:
    return ["".join(run.text for run in line).strip() for line in post.body.lines]


def init_game(
    folder: Path,
    source: str,
    posts: Sequence[Post],
    preset: str | None = None,
    title: str = "",
    script: str = "",
) -> Started:
    """Write game.toml (the players, the host, the zone, as guessed from the thread) and an
    events.jsonl that starts Day 1 at the first post, for the host to check. A folder that
    holds either file is refused; both are written whole, and if what was written does not
    read back neither is left. Without a `preset`, the game's own (the one its script makes
    it: botc-forum for a Clocktower script)."""
    game_preset = find_game(script or None).preset
    preset = preset or game_preset
    if preset not in preset_names():
        raise ModToolError(f"unknown preset {preset!r}; use one of {', '.join(preset_names())}")
    present = [name for name in (*INIT_FILES, "drafts") if (folder / name).exists()]
    if present:
        raise ModToolError(
            f"{folder} already holds {', '.join(present)}; init writes a new game only "
            "(choose an empty folder)"
        )
    if not posts:
        raise ModToolError(f"{source}: no posts to take the players from")
    host = posts[0].author
    guesses = [f"host: {host}, the first poster"]
    if preset == game_preset:
        which = f"script {script}" if script else "a game without a script"
        guesses.append(f"rules: preset {preset}, the default for {which}")
    if posts[0].number not in (None, 0, 1):
        guesses.append(
            f"the thread is read from post {posts[0].number}: give its first page for the "
            "host and the players' list"
        )
    others = [p for p in posts if p.author.casefold() != host.casefold()]
    if not others:
        raise ModToolError(
            f"{source}: every post is by {host}, the host: no players to list yet; run init "
            "again once the players have posted, or write game.toml's [[players]] yourself "
            "(modtool docs game-folder)"
        )
    names = spellings([p.author for p in others])
    fold = {s.casefold(): first for first, more in names.items() for s in [first, *more]}
    posted = Counter(fold[p.author.casefold()] for p in others)
    syntaxes = rules_from_table(load_preset(preset)).syntaxes
    voted = Counter(fold[p.author.casefold()] for p in others if find_votes(p.body, syntaxes))

    listed = player_list(_lines_of(posts[0]), list(names))
    if listed:
        players = [fold.get(n.casefold(), n) for n in listed]
        left_out = [n for n in names if n not in players]
        guesses.append(
            f"players: the {len(players)} names of the first post's player list, seats in its order"
        )
        unposted = [n for n in players if n not in posted]
        if unposted:
            guesses.append(f"on the list, no post yet: {', '.join(unposted)}")
    elif voted:
        players = [n for n in names if voted[n]]
        left_out = [n for n in names if not voted[n]]
        guesses.append(
            f"players: the {len(players)} posters who voted, seats in the order they first "
            "posted (the first post has no player list)"
        )
    else:
        players, left_out = list(names), []
        guesses.append(
            f"players: all {len(players)} posters, seats in the order they first posted "
            "(nobody has voted yet, and the first post has no player list)"
        )
    if left_out:
        guesses.append(
            f"not made players, written as comments: {', '.join(left_out)} "
            "(uncomment any who plays)"
        )
    for name in players:
        if names.get(name):
            guesses.append(f"{name} also posts as {', '.join(names[name])}: one player, aliases")
    zone, why = shown_zone(posts)
    guesses.append(f"timezone: {zone}, as {why}")
    first = posts[0].number or 0
    guesses.append(f"Day 1 starts at post {first}, the first post")

    lines = [
        "# Written by `modtool init` from the thread: check the players (seats, aliases, the",
        "# posters left as comments), the hosts, the timezone and the rules.",
        f"title = {toml_string(title or folder.resolve().name)}",
        f"timezone = {toml_string(zone)}  # {why}",
        f"hosts = [{toml_string(host)}]",
        *([f"script = {toml_string(script)}"] if script else []),
        "",
        "[[sources]]",
        _source_line(folder, source),
        "",
        "[rules]",
        f"preset = {toml_string(preset)}",
        "",
    ]
    for seat, name in enumerate(players, 1):
        lines += ["[[players]]", f"name = {toml_string(name)}", f"seat = {seat}"]
        if names.get(name):
            lines.append(f"aliases = [{', '.join(toml_string(s) for s in names[name])}]")
        lines.append("")
    for name in left_out:
        why_not = "not on the first post's list" if listed else "never voted"
        lines += [
            f"# spectator? posted {_times(posted[name])}, {why_not}",
            "# [[players]]",
            f"# name = {toml_string(name)}",
            "",
        ]
    _write(folder, lines, {"kind": "day_start", "day": 1, "post": first})
    return Started(folder / SETUP_FILE, folder / LEDGER_FILE, tuple(guesses))


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


def _source_line(folder: Path, source: str) -> str:
    if "://" in source:
        return f"url = {toml_string(source.strip())}"
    source_path = Path(source).resolve()
    inside = source_path.is_relative_to(folder.resolve())
    location = str(source_path.relative_to(folder.resolve())) if inside else str(source_path)
    return f"path = {toml_string(location)}"


def _write(folder: Path, lines: list[str], day_one: dict) -> None:
    created = not folder.exists()
    try:
        write_atomic(folder / LEDGER_FILE, json.dumps(day_one) + "\n")
        write_atomic(folder / SETUP_FILE, "\n".join(lines))
        load_game(folder)  # what was written reads back
    except BaseException:
        for name in INIT_FILES:
            (folder / name).unlink(missing_ok=True)
        if created and folder.exists():
            folder.rmdir()
        raise
