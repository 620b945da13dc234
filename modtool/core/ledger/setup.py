"""game.toml: the setup a host writes, checked field by field into a `Game`."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlparse

from ...errors import GameFileError
from ...threads.selectors import SELECTOR_KEYS
from ...threads.times import zone
from ..names import did_you_mean, normalise
from ..rules import TiePolicy, rules_from_table
from .model import Game, Slot, Source, thread_labels
from .schedule_table import schedule_from_table


def _toml_line(message: str) -> int | None:
    m = re.search(r"line (\d+)", message)
    return int(m[1]) if m else None


def _toml_problem(message: str) -> str:
    return re.sub(r"\s*\(at line \d+, column \d+\)", "", message)


def _without_comment(line: str) -> str:
    """A TOML line without its comment (a # outside quotes)."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            return line[:i]
    return line


def _lines(text: str) -> list[tuple[int, str]]:
    """game.toml's lines by number, without their comments."""
    return list(enumerate((_without_comment(x) for x in text.splitlines()), 1))


def _table_header(lines: list[tuple[int, str]], table: str, entry: int = 1) -> int | None:
    """The line of the `entry`th header of `table` ([rules], or the 5th [[players]])."""
    header = re.compile(rf"^\s*\[\[?\s*{re.escape(table)}\s*\]")
    starts = [i for i, x in lines if header.search(x)]
    return starts[entry - 1] if len(starts) >= entry else None


def _setup_line(
    text: str, needle: str, table: str | None = None, nth: int = 1, entry: int = 1
) -> int | None:
    """The line of game.toml a problem is about: the header of table `needle` ("[rules]",
    "[[players]]"), else the line that sets key `needle`, else the first line that holds it;
    comments never count (a header comment saying "the hosts" is not the hosts). With `table`,
    only the lines of that table are searched (of its `entry`th one, for [[players]]); with
    `nth`, the nth line that holds it (a name listed twice is at fault where it comes again)."""
    lines = _lines(text)
    if table is not None:
        start = _table_header(lines, table, entry)
        if start is None:
            return None
        after = [(i, x) for i, x in lines if i > start]
        end = next((i for i, x in after if re.match(r"^\s*\[", x)), None)
        lines = [(i, x) for i, x in after if end is None or i < end]
    bare = re.escape(needle.strip("[]"))
    patterns = (
        re.compile(rf"^\s*\[\[?\s*{bare}\s*[\].]"),  # the table's header
        re.compile(rf"^\s*[\"']?{bare}[\"']?\s*="),  # the key
    )
    for pattern in patterns:
        found = next((i for i, x in lines if pattern.search(x)), None)
        if found is not None:
            return found
    holding = [i for i, x in lines if needle in x]
    return holding[nth - 1] if len(holding) >= nth else (holding[0] if holding else None)


_SETTINGS = frozenset(
    {
        "title",
        "timezone",
        "hosts",
        "sources",
        "rules",
        "players",
        "language",
        "schedule",
        "drafts",
        "script",
        "setup",
    }
)
_SOURCE_FIELDS = frozenset({"url", "path", "thread", "engine", "selectors"})
_PLAYER_FIELDS = frozenset(
    {"name", "aliases", "accounts", "seat", "weight", "voteless", "role", "team", "shown"}
)


def _game_from_setup(setup: dict, path: Path, folder: Path, find_variant) -> Game:
    """The Game game.toml describes; `find_variant(script)` is the game it is (the registry of
    modtool.games), which reads and checks the game's own part. Each table is read by its own
    function below, which raises the first problem at its line."""
    text = path.read_text("utf-8")

    def fail(
        problem: str,
        needle: str | None = None,
        table: str | None = None,
        nth: int = 1,
        entry: int = 1,
    ) -> GameFileError:
        line = _setup_line(text, needle, table, nth, entry) if needle else None
        if line is None and table is not None:
            line = _table_header(_lines(text), table, entry) or _setup_line(text, f"[{table}]")
        return GameFileError(path, problem, line)

    _check_settings(setup, fail)
    try:
        tz = zone(setup.get("timezone"))
    except Exception as exc:  # ModToolError from zone(): same message, with the file's line
        raise fail(str(exc), "timezone") from None
    hosts = _hosts(setup.get("hosts", []), fail)
    sources = [_source(raw, folder, fail) for raw in setup.get("sources", [])]
    _check_thread_labels(sources, fail)
    try:
        rules = rules_from_table(setup.get("rules", {}))
    except ValueError as exc:
        named = re.search(r"'([^']+)'", str(exc))  # the rule (or preset) the problem names
        raise fail(f"[rules]: {exc}", named[1] if named else "[rules]", "rules") from None
    slots = _slots(setup.get("players", []), hosts, fail)
    schedule = _schedule(setup, tz, fail)
    drafts = _drafts(setup.get("drafts", {}), fail)
    script = setup.get("script")
    setup_table = setup.get("setup", {})
    if script is not None and not isinstance(script, str):
        raise fail('script must be text in quotes, like script = "trouble-brewing-forum"')
    variant = find_variant(script).load(script, folder, fail)
    if variant.has_roles:
        slots = _check_roles(script, variant, slots, fail)
    _check_setup_table(setup_table, script, variant, slots, fail)
    if (problem := variant.readings_problem(dict(rules.readings))) is not None:
        raise fail(f"[rules] readings: {problem}", "readings")
    if rules.tie is TiePolicy.TEAM_CHOOSES and not variant.tie_chooser:
        raise fail(
            f'[rules] tie = "{rules.tie}": this game names no team to choose among the tied; '
            'use tie = "host-decides"',
            "tie",
            "rules",
        )
    return Game(
        folder,
        str(setup.get("title", folder.name)),
        tz,
        tuple(hosts),
        tuple(sources),
        rules,
        tuple(slots),
        schedule=schedule,
        drafts=drafts,
        script=script,
        variant=variant,
        find_variant=find_variant,
        setup=setup_table,
    )


def _check_settings(setup: dict, fail) -> None:
    for key in setup:
        if key not in _SETTINGS:
            raise fail(
                f"unknown setting {key!r}{did_you_mean(key, _SETTINGS)}; "
                f"known: {', '.join(sorted(_SETTINGS))}",
                key,
            )
    for key in ("title", "timezone", "language"):
        if key in setup and not isinstance(setup[key], str):
            raise fail(f'{key!r} must be text in quotes, like {key} = "..."', key)


def _hosts(hosts: object, fail) -> list[str]:
    if not isinstance(hosts, list) or not all(isinstance(h, str) and h.strip() for h in hosts):
        raise fail("'hosts' must be a list of names, like hosts = [\"Thoth\"]", "hosts")
    return hosts


def _source(raw: object, folder: Path, fail) -> Source:
    """One [[sources]] table: a URL or a path in the folder, and how to read it."""
    if not isinstance(raw, dict) or not (raw.get("url") or raw.get("path")):
        raise fail('each [[sources]] needs url = "..." or path = "..."', "[[sources]]")
    location = raw.get("url") or raw.get("path")
    if not isinstance(location, str):
        raise fail("[[sources]]: url and path must be text in quotes", "[[sources]]")
    if "url" in raw:
        location = location.strip()  # pasted with a space or a line end around it
        _check_url(location, fail)
    else:
        _check_path(location, folder, fail)
    unknown = set(raw) - _SOURCE_FIELDS
    if unknown:
        raise fail(
            f"[[sources]]: unknown field {sorted(unknown)[0]!r}; use url or path, "
            "thread, engine, selectors",
            "[[sources]]",
        )
    selectors = raw.get("selectors")
    if selectors is not None and (
        not isinstance(selectors, dict)
        or set(selectors) - set(SELECTOR_KEYS)
        or not all(isinstance(v, str) for v in selectors.values())
    ):
        raise fail(
            f"[[sources]] selectors must be a table of CSS selectors with keys "
            f"{', '.join(SELECTOR_KEYS)}",
            "selectors",
        )
    return Source(str(location), str(raw.get("thread", "")), raw.get("engine"), selectors)


def _check_thread_labels(sources: list[Source], fail) -> None:
    """Each of several threads has its own label: ledger events name a post by its thread."""
    seen: set[str] = set()
    for label in thread_labels(sources):
        if label in seen:
            raise fail(
                f"[[sources]]: two threads are labelled {label!r}; give each its own "
                'thread = "..." (ledger events name a post by its thread)',
                "[[sources]]",
            )
        seen.add(label)


def _slots(players: object, hosts: list[str], fail) -> list[Slot]:
    """The [[players]] tables as slots: names unique, seats unique, no host among them."""
    if not isinstance(players, list):
        raise fail("players must be [[players]] tables, one per player", "players")
    if not players:
        raise fail('no [[players]]; list every player with name = "..."')
    slots = []
    seen: set[str] = set()
    seats: dict[int, str] = {}
    for entry, raw in enumerate(players, 1):
        slot = _slot(raw, entry, fail)
        name = slot.key
        if normalise(name) in seen:
            raise fail(f"player {name!r} is listed twice", name, nth=2)
        seen.add(normalise(name))
        if slot.seat is not None:
            if slot.seat in seats:
                raise fail(
                    f"players {seats[slot.seat]!r} and {name!r} both have seat {slot.seat}", name
                )
            seats[slot.seat] = name
        for host in hosts:
            if normalise(host) in {normalise(n) for n in (name, *slot.accounts)}:
                raise fail(
                    f"{host!r} is both a host and a player; a host's posts are never votes, "
                    "so list them in one place only",
                    "hosts",
                )
        slots.append(slot)
    _check_names_have_one_slot(slots, fail)
    return slots


def _check_names_have_one_slot(slots: list[Slot], fail) -> None:
    """An account or alias names its own slot only: one that is another player's name, account
    or alias (as the name resolver compares names) would credit that player's posts and votes
    to this slot, silently. The later of the two is at fault."""
    owners = {normalise(s.key): (s.key, "name") for s in slots}
    for entry, slot in enumerate(slots, 1):
        for field_name in ("accounts", "aliases"):
            for name in getattr(slot, field_name):
                norm = normalise(name)
                other, what = owners.get(norm, (slot.key, field_name))
                if other != slot.key:
                    also = "" if what == "name" else f" or from {other}'s {what}"
                    raise fail(
                        f"player {slot.key!r}: {name!r} in its {field_name} is {_NAME_KINDS[what]} "
                        f"player {other!r}; a name belongs to one player, or one's posts and "
                        f"votes count for the other: remove it from {slot.key}'s "
                        f"{field_name}{also}",
                        field_name,
                        "players",
                        entry=entry,
                    )
                if norm:
                    owners.setdefault(norm, (slot.key, field_name))


_NAME_KINDS = {"name": "the name of", "accounts": "an account of", "aliases": "an alias of"}


def _slot(raw: object, entry: int, fail) -> Slot:
    """One [[players]] table (the `entry`th), each field checked."""
    name = raw.get("name") if isinstance(raw, dict) else None
    if not isinstance(name, str) or not name.strip():
        _check_player_fields(
            raw, f'[[players]] entry {entry}, which has no name = "..."', entry, fail
        )
        raise fail(
            f'[[players]] entry {entry} has no name; every [[players]] entry needs name = "..."',
            table="players",
            entry=entry,
        )
    if _CONTROL.search(name):
        raise fail(
            f"player name {name!r} holds a line break or control character; a name is one "
            "line of text",
            table="players",
            entry=entry,
        )
    _check_player_fields(raw, f"player {name!r}", entry, fail)
    weight = raw.get("weight", 1)
    if isinstance(weight, bool) or not isinstance(weight, int) or not 0 <= weight <= MAX_WEIGHT:
        raise fail(f"player {name!r}: weight must be a whole number from 0 to {MAX_WEIGHT}", name)
    seat = raw.get("seat")
    if seat is not None and (
        isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= 100
    ):
        raise fail(f"player {name!r}: seat must be a whole number from 1 to 100", name)
    voteless = raw.get("voteless", False)
    if not isinstance(voteless, bool):
        raise fail(f"player {name!r}: voteless must be true or false (no quotes)", name)
    names = {}
    for field_name in ("aliases", "accounts"):
        value = raw.get(field_name, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            example = json.dumps([value] if isinstance(value, str) else ["Ban"])
            raise fail(
                f"player {name!r}: {field_name} must be a list of names, like "
                f"{field_name} = {example}",
                name,
            )
        names[field_name] = tuple(value)
    for field_name in ("role", "team", "shown"):
        if field_name in raw and not isinstance(raw[field_name], str):
            raise fail(f"player {name!r}: {field_name} must be text in quotes", name)
    if raw.get("team") not in (None, *ALIGNMENTS):
        raise fail(
            f"player {name!r}: team {raw['team']!r} is not an alignment; write team = "
            '"good" or "evil" (or leave it out: the character\'s own)',
            name,
        )
    return Slot(
        key=name,
        aliases=names["aliases"],
        accounts=names["accounts"],
        seat=seat,
        weight=weight,
        voteless=voteless,
        role=raw.get("role"),
        team=raw.get("team"),
        shown=raw.get("shown"),
    )


def _check_player_fields(raw: object, who: str, entry: int, fail) -> None:
    """A [[players]] entry holds only the fields a player has; a misspelt one is reported at
    its own line (a missing name = "..." is often a misspelt one)."""
    unknown = sorted(set(raw) - _PLAYER_FIELDS) if isinstance(raw, dict) else []
    if unknown:
        raise fail(
            f"{who}: unknown field {unknown[0]!r}{did_you_mean(unknown[0], _PLAYER_FIELDS)}; "
            f"a player has {', '.join(sorted(_PLAYER_FIELDS))}",
            unknown[0],
            "players",
            entry=entry,
        )


def _schedule(setup: dict, tz, fail):
    if "schedule" not in setup:
        return None
    if not isinstance(setup["schedule"], dict):
        raise fail("[schedule] must be a table", "schedule")
    try:
        return schedule_from_table(setup["schedule"], tz)
    except ValueError as exc:
        raise fail(str(exc), "[schedule]") from None


def _drafts(drafts: object, fail) -> dict:
    if not isinstance(drafts, dict) or set(drafts) - {"reveal"}:
        raise fail('[drafts] takes reveal = "nothing", "alignment", "role" or "pm"', "drafts")
    if drafts.get("reveal", REVEALS[0]) not in REVEALS:
        raise fail('[drafts] reveal must be "nothing", "alignment", "role" or "pm"', "reveal")
    return drafts


def _check_roles(script: str | None, variant, slots: list[Slot], fail) -> list[Slot]:
    """Each player's role (and shown character) is one of the game's, by any of its names;
    it is stored as the role's id."""
    ids = variant.role_ids()
    out = []
    for slot in slots:
        found = {}
        for field_name in ("role", "shown"):
            value = getattr(slot, field_name)
            if value is None:
                continue
            found[field_name] = variant.find_role(value)
            if found[field_name] is None:
                raise fail(
                    f"player {slot.key!r}: {field_name} {value!r} is not on the script "
                    f"{script!r}{did_you_mean(value, ids)}",
                    slot.key,
                )
        out.append(replace(slot, **found))
    return out


def _check_setup_table(table: object, script: str | None, variant, slots, fail) -> None:
    """[setup] is a table of the keys the game takes (each game checks its own values)."""
    keys = variant.setup_keys
    if not isinstance(table, dict) or set(table) - keys:
        takes = ", ".join(sorted(keys)) if keys else "nothing in this game (it has no script)"
        raise fail(f"[setup] takes {takes}", "[setup]")
    variant.check_setup(table, tuple(slots), fail)


MAX_WEIGHT = 10
# What a day-end or night-end post shows of the dead: nothing, the alignment, the character
# (and alignment), or the character with its ability as the role PM gave it.
REVEALS = ("nothing", "alignment", "role", "pm")
MAX_DAY = 999
ALIGNMENTS = ("good", "evil")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")  # no name holds these


def _check_url(url: str, fail) -> None:
    parts = None
    try:
        parts = urlparse(url)
    except ValueError:
        pass
    if parts is None or parts.scheme not in ("http", "https") or not parts.netloc:
        raise fail(
            f"[[sources]] url {url!r} is not an http(s) address; give the thread's web address "
            'or use path = "..." for a saved copy',
            "url",
        )


def _check_path(location: str, folder: Path, fail) -> None:
    """A source path stays inside the game folder, unless the host wrote an absolute path
    (a deliberate choice: docs/game-folder.md)."""
    path = Path(location)
    if path.is_absolute():
        return
    inside = (folder / path).resolve()
    if not inside.is_relative_to(folder.resolve()):
        raise fail(
            f"[[sources]] path {location!r} is outside the game folder; move the file into "
            "the folder, or write its absolute path if you mean it",
            location,
        )
