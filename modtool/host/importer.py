"""Importing archived games into game folders.

`import_mafiascum_archive` reads a folder in the mafiascum archive format (a `cases.jsonl` with
one game a line and `posts/<thread_id>.jsonl.xz`) and writes one game folder per game, named by
its game number. It takes what a host would have known while running the game — players,
replacements, moderators, where each day ended, deaths, vote resets, vote weights and majority
rules — and never the recorded lynch of the day being counted.
"""

from __future__ import annotations

import json
import lzma
import re
from pathlib import Path

import tomli_w

from ..core.ledger import LEDGER_FILE, SETUP_FILE, Phase, write_atomic
from ..core.names import normalise
from ..errors import SourceError, json_problem
from ..threads.folder_files import check_inside, read_regular
from ..threads.frozen import frozen
from ..threads.sources import bounded_lines


@frozen
class ImportReport:
    games: tuple[str, ...]
    skipped: tuple[str, ...]  # "game: reason"
    out: Path
    guessed: tuple[str, ...] = ()  # "game: what the ledger holds that the archive did not say"


def import_mafiascum_archive(archive: Path, out: Path) -> ImportReport:
    """One game folder per line of `archive/cases.jsonl`; returns what was written."""
    cases_path = archive / "cases.jsonl"
    if not cases_path.is_file():
        raise SourceError(
            f"{archive}: no cases.jsonl here; point at the archive folder that "
            "holds cases.jsonl and posts/"
        )
    if out.exists() and not out.is_dir():
        raise SourceError(f"--out {out}: a file, not a folder; give a folder to write games into")
    cases = []
    try:
        text = cases_path.read_text("utf-8")
    except UnicodeDecodeError:
        raise SourceError(f"{cases_path}: not UTF-8 text") from None
    if not text.strip():
        raise SourceError(f"{cases_path}: empty; there are no games to import")
    for i, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                cases.append(json.loads(line))
            except (json.JSONDecodeError, RecursionError) as exc:
                raise SourceError(f"{cases_path}:{i}: {json_problem(exc, line)}") from None
    for i, case in enumerate(cases, 1):
        _check_plain(case, cases_path, i)
    written, skipped, guessed = [], [], []
    for case in cases:
        game = str(case["game"])
        posts_file = check_inside(archive, archive / "posts" / f"{case['thread_id']}.jsonl.xz")
        if not posts_file.is_file():
            skipped.append(f"{game}: no posts file {posts_file.name}")
            continue
        folder = out / game
        try:
            setup, events, notes = game_folder_from_case(case, posts_file)
        except (KeyError, TypeError, ValueError) as exc:
            skipped.append(f"{game}: malformed case ({exc})")
            continue
        for name in ("", "posts.jsonl.xz", SETUP_FILE, LEDGER_FILE):  # never through a link
            check_inside(out, folder / name if name else folder, "file" if name else "folder")
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(folder / "posts.jsonl.xz", read_regular(posts_file))
        write_atomic(folder / SETUP_FILE, _header(case) + tomli_w.dumps(setup))
        write_atomic(
            folder / LEDGER_FILE, "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events)
        )
        written.append(game)
        guessed.extend(f"{game}: {note}" for note in notes)
    return ImportReport(tuple(written), tuple(skipped), out, tuple(guessed))


_PLAIN = re.compile(r"[A-Za-z0-9]{1,64}")


def _check_plain(case: object, cases_path: Path, line: int) -> None:
    """A case's game name and thread id name a folder and a file: plain letters and digits,
    never a path (a hostile archive must not write or read outside --out and posts/)."""
    if not isinstance(case, dict):
        raise SourceError(f"{cases_path}:{line}: not a game (a JSON object with game, slots...)")
    for field in ("game", "thread_id"):
        value = case.get(field)
        if isinstance(value, bool) or not _PLAIN.fullmatch(str(value)):
            raise SourceError(
                f"{cases_path}:{line}: {field} {str(value)[:80]!r} is not a plain name "
                "(letters and digits); nothing was imported: fix the archive's cases.jsonl"
            )


def _header(case: dict) -> str:
    return (
        f"# Imported from the mafiascum archive: game {case.get('game')}, "
        f"{case.get('thread_url', '')}\n"
    )


def game_folder_from_case(case: dict, posts_file: Path) -> tuple[dict, list[dict], list[str]]:
    """The setup table, the ledger events for one archived game, and what the ledger holds
    that the archive did not say (a guessed day start, a replacement left out)."""
    first_posts = _first_posts(posts_file)
    slots = case["slots"]
    doublevoters = set(case.get("doublevoters") or [])
    players, events = [], []
    for index, slot in enumerate(slots):
        names = [n for n in slot["names"] if n]
        forum_names = slot.get("forum_names") or []
        accounts = sorted(
            {
                f
                for f in (*forum_names, *(slot.get("aliases") or []))
                if f and normalise(f) not in {normalise(n) for n in names}
            }
        )
        player: dict = {"name": names[0]}
        if accounts:
            player["accounts"] = accounts
        if index in doublevoters:
            player["weight"] = 2
        if slot.get("role"):
            player["role"] = slot["role"]
        players.append(player)
        joined = slot.get("joined_post") or []
        previous = 0
        for i, name in enumerate(names[1:], 1):
            post = joined[i] if i < len(joined) and joined[i] is not None else None
            if post is None:
                accounts_of = {normalise(name)}
                if i < len(forum_names) and forum_names[i]:
                    accounts_of.add(normalise(forum_names[i]))
                post = min(
                    (first_posts[a] for a in accounts_of if a in first_posts), default=previous + 1
                )
            previous = post
            events.append({"kind": "replacement", "player": names[0], "by": name, "post": post})
        death = _death(slot, index, case, names[0])
        if death:
            events.append(death)
    for e in case.get("events", []):
        if e.get("kind") == "votecount_reset" and isinstance(e.get("post"), int):
            events.append({"kind": "vote_reset", "post": e["post"]})
    days = case.get("days", [])
    for day in days:
        # Every day's start, not only Day 1's: a day whose end is unknown must not make the
        # next day start at the top of the thread.
        if isinstance(day.get("start_post"), int) or day.get("day") == 1:
            events.append(
                {"kind": "day_start", "day": day["day"], "post": day.get("start_post") or 0}
            )
        if isinstance(day.get("end_post"), int):
            events.append({"kind": "day_end", "day": day["day"], "post": day["end_post"]})
    notes: list[str] = []
    events.extend(_days_reached(days, [e for e in events if e["kind"] == "death"], notes))
    _renames(players, events, notes)
    events.sort(key=lambda e: (e.get("post", -1) if "post" in e else 10**9, _ORDER[e["kind"]]))
    rules: dict = {"preset": "mafiascum"}
    if case.get("less_one_for_no_lynch"):
        rules["less_one_for_no_lynch"] = True
    setup = {
        "title": case.get("title") or f"Game {case.get('game')}",
        "timezone": "UTC",
        "hosts": list(case.get("moderators") or []),
        # The saved copy, not the live thread; the header comment keeps the thread's URL.
        "sources": [{"path": "posts.jsonl.xz"}],
        "rules": rules,
        "players": players,
    }
    return setup, events, notes


def _days_reached(days: list[dict], deaths: list[dict], notes: list[str]) -> list[dict]:
    """A start for each day a death shows the game reached (a death in D4 or N4) that the
    archive gives no start or end for: it starts where the last recorded day stopped, which
    is a guess, so the line says so and `notes` names it (with the days between, which then
    hold no posts)."""
    known = {
        d["day"]: max(p for p in (d.get("start_post"), d.get("end_post")) if isinstance(p, int))
        for d in days
        if isinstance(d.get("start_post"), int) or isinstance(d.get("end_post"), int)
    }
    known.setdefault(1, 0)
    starts = []
    for death in deaths:
        reached = Phase.parse(death["phase"]).number if "phase" in death else 0
        if reached > max(known):
            last = max(known)
            known[reached] = known[last]
            why = f"a death in {death['phase']} shows the game reached Day {reached}"
            between = f"; Days {last + 1}-{reached - 1} hold no posts" if reached > last + 1 else ""
            note = f"Day {reached} start guessed at post {known[last]} ({why}){between}"
            notes.append(note)
            starts.append({"kind": "day_start", "day": reached, "post": known[last], "note": note})
    return starts


def _renames(players: list[dict], events: list[dict], notes: list[str]) -> None:
    """A replacement by a name already in the game, as the ledger checks it. The slot's own
    name written another way ("Bob", then "bob") is a rename, not a replacement. Another
    slot's account (a nickname the archive lists for it) is the replacement's name: it leaves
    that slot's accounts. Another slot's player cannot replace into a second slot: the
    replacement is dropped, and `notes` says so."""
    main = {normalise(p["name"]): p for p in players}
    holder = {p["name"]: normalise(p["name"]) for p in players}
    for e in [e for e in events if e["kind"] == "replacement"]:
        by = normalise(e["by"])
        player = main[normalise(e["player"])]
        other = main.get(by)
        if by == holder[player["name"]]:
            events.remove(e)  # names are matched case- and spacing-blind: nothing to add
        elif other is not None and other is not player:
            events.remove(e)
            notes.append(
                f"replacement of {e['player']} by {e['by']} at post {e['post']} left out: "
                f"{e['by']} already plays {other['name']}'s slot"
            )
        else:  # a newcomer, or a player coming back to the slot they left
            holder[player["name"]] = by
            for p in players:
                kept = [a for a in p.get("accounts", ()) if normalise(a) != by or p is player]
                if len(kept) != len(p.get("accounts", ())):
                    p["accounts"] = kept
            main[by] = player


_ORDER = {"day_start": 0, "replacement": 1, "vote_reset": 2, "death": 3, "day_end": 4}


def _death(slot: dict, index: int, case: dict, name: str) -> dict | None:
    kind = slot.get("fate_kind")
    phase = slot.get("fate_phase")
    if kind not in ("lynched", "killed", "modkilled") or not phase:
        return None
    try:
        phase = str(Phase.parse(phase))
    except ValueError:
        return None
    for e in case.get("events", []):
        if (
            e.get("kind") == "day_kill"
            and e.get("slot") == index
            and isinstance(e.get("post"), int)
        ):
            return {"kind": "death", "player": name, "post": e["post"], "cause": kind}
    return {"kind": "death", "player": name, "phase": phase, "cause": kind}


def _first_posts(posts_file: Path) -> dict[str, int]:
    """The first post number of each account, to date replacements the archive left undated."""
    first: dict[str, int] = {}
    with lzma.open(posts_file, "rt", encoding="utf-8") as fh:
        for line in bounded_lines(fh, posts_file):
            if line.strip():
                obj = json.loads(line)
                first.setdefault(normalise(obj.get("user", "")), int(obj["number"]))
    return first
