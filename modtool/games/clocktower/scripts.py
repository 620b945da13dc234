"""Clocktower scripts in the official script format: a JSON array of character ids and/or
homebrew character objects, with an optional `_meta` object (name, author).

game.toml's `script` is the name of a shipped script (`trouble-brewing-forum`, `cheomseongdae`,
`crimson-moon`) or a path to a script file, relative to the game folder.
"""

from __future__ import annotations

import json
from dataclasses import field
from functools import cache
from importlib import resources
from pathlib import Path

from ...core.names import did_you_mean, normalise
from ...errors import GameFileError
from ...threads.frozen import frozen
from .roles import ROLEBOOKS, Character, RoleText, characters

TEAMS = ("townsfolk", "outsider", "minion", "demon", "traveller", "fabled", "loric")


@frozen(slots=False)
class Script:
    name: str
    author: str
    ids: tuple[str, ...]  # in the script's order
    characters: dict[str, Character]  # every character on it: official facts or homebrew
    texts: dict[str, RoleText] = field(default_factory=dict)  # homebrew ability text
    book: str | None = None  # the shipped rolebook that holds its text
    source: str = ""

    def find(self, name: str) -> Character | None:
        """A character of this script by id, English or Korean name, or community name."""
        wanted = normalise(name)
        if not wanted:
            return None
        return next((c for c in self.characters.values() if c.called(wanted)), None)

    def of_team(self, team: str) -> list[Character]:
        return [c for c in self.characters.values() if c.team == team]


def official_id(raw: str) -> str:
    """Ids as script tools write them ("fortune_teller", "Fortune Teller") to the official form."""
    return normalise(raw)


def parse_script(data: object, source: str, book: str | None = None) -> Script:
    """A script from its parsed JSON; a problem raises GameFileError naming the source."""

    def fail(problem: str) -> GameFileError:
        return GameFileError(source, problem)

    if not isinstance(data, list) or not data:
        raise fail("a script is a JSON array of character ids (and an optional _meta object)")
    official = characters()
    name, author = Path(source).stem, ""
    ids: list[str] = []
    seen: set[str] = set()
    chars: dict[str, Character] = {}
    texts: dict[str, RoleText] = {}
    for i, item in enumerate(data, 1):
        if isinstance(item, dict) and item.get("id") == "_meta":
            name = str(item.get("name") or name)
            author = str(item.get("author") or "")
            continue
        if isinstance(item, dict) and set(item) == {"id"}:
            item = item["id"]  # the older {"id": "washerwoman"} form
        if isinstance(item, str):
            cid = official_id(item)
            if cid not in official:
                raise fail(
                    f"item {i}: {item!r} is not an official character id"
                    + did_you_mean(item, official)
                )
            chars[cid] = official[cid]
        elif isinstance(item, dict):
            problem = homebrew_problem(item)
            if problem:
                raise fail(f"item {i}: {problem}")
            cid = str(item["id"])
            chars[cid] = Character(
                id=cid,
                name=str(item["name"]),
                name_ko=None,
                aliases_ko=(),
                team=item["team"],
                edition=item.get("edition"),
                setup=bool(item.get("setup")),
                first_night=item.get("firstNight") or None,
                other_night=item.get("otherNight") or None,
                reminders=tuple(item.get("reminders", ())),
                reminders_global=tuple(item.get("remindersGlobal", ())),
            )
            texts[cid] = RoleText(cid, chars[cid].name, item["team"], item["ability"], book=source)
        else:
            raise fail(f"item {i}: expected a character id or a character object")
        if cid in seen:
            raise fail(f"item {i}: {cid!r} is on the script twice")
        seen.add(cid)
        ids.append(cid)
    if not ids:
        raise fail("the script has no characters")
    return Script(name, author, tuple(ids), chars, texts, book, source)


def homebrew_problem(item: dict) -> str | None:
    """What is wrong with a homebrew character object of the official format, or None."""
    missing = [k for k in ("id", "name", "team", "ability") if not item.get(k)]
    if missing:
        return f"a homebrew character needs {', '.join(missing)}"
    for key in ("id", "name", "team", "ability"):
        if not isinstance(item[key], str):
            return f"a homebrew character's {key!r} is text, not {item[key]!r}"
    if item["team"] not in TEAMS:
        return f"team {item['team']!r} is not one of {', '.join(TEAMS)}"
    for key in ("firstNight", "otherNight"):
        value = item.get(key)
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1000
        ):
            return f"{key!r} is the place in the night order, a number from 0, not {value!r}"
    for key in ("reminders", "remindersGlobal"):
        value = item.get(key, [])
        if not isinstance(value, list) or not all(isinstance(r, str) for r in value):
            return f"{key!r} is a list of reminder words, not {value!r}"
    return None


MAX_SCRIPT_BYTES = 5_000_000  # the largest official-format scripts are tens of kilobytes

SHIPPED = ROLEBOOKS  # every shipped rolebook is a script of the same name


@cache
def shipped_script(name: str) -> Script:
    text = resources.files("modtool").joinpath("data", "scripts", f"{name}.json").read_text("utf-8")
    return parse_script(json.loads(text), name, book=name)


def load_script(spec: str, folder: Path) -> Script:
    """A shipped script by name, or a script file (its path relative to the game folder)."""
    if spec in SHIPPED:
        return shipped_script(spec)
    path = Path(spec) if Path(spec).is_absolute() else Path(folder) / spec
    if not Path(spec).is_absolute() and not path.resolve().is_relative_to(Path(folder).resolve()):
        raise GameFileError(
            Path(folder) / "game.toml",
            f"script {spec!r} is outside the game folder; move the file into the folder, or "
            "write its absolute path if you mean it",
        )
    if not spec.endswith(".json") or not path.is_file():
        shipped = ", ".join(SHIPPED)
        raise GameFileError(
            Path(folder) / "game.toml",
            f"script {spec!r} is neither a shipped script ({shipped}, or vampires) nor a .json "
            "script file in the game folder",
        )
    if path.stat().st_size > MAX_SCRIPT_BYTES:
        raise GameFileError(path, f"larger than {MAX_SCRIPT_BYTES // 1_000_000} MB; not a script")
    try:
        data = json.loads(path.read_text("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise GameFileError(path, f"not valid UTF-8 JSON ({exc})") from None
    except RecursionError:
        raise GameFileError(path, "nested too deeply to be a script (arrays in arrays)") from None
    return parse_script(data, str(path))


def script_of(game) -> Script | None:
    """The Clocktower script a game was set up with (None for a game of another kind)."""
    return getattr(game.variant, "script", None)
