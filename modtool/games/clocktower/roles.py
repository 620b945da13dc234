"""Role data: the Clocktower characters' facts and the role text of the shipped scripts.

The files in modtool/data are built by tools/build_data.py: facts (ids, teams, night order,
names in English and Korean) from the publisher's data, and every text a PM quotes from the
user's seed documents, as written. A game folder names its script in game.toml
(`script = "trouble-brewing-forum"`), and a player's `role` is looked up in it by id, English
or Korean name, or a Korean community name.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import field
from functools import cache
from importlib import resources
from pathlib import Path

from ...core.names import normalise
from ...errors import GameFileError
from ...threads.folder_files import check_inside, read_folder_text
from ...threads.frozen import frozen

LANGUAGE_NAMES = {"en": "English", "ko": "Korean"}
GOOD_TEAMS = ("townsfolk", "outsider")
EVIL_TEAMS = ("minion", "demon")
# The Korean team words of the Korean almanac, used when a post names a team.
TEAM_NAMES = {
    "en": {"townsfolk": "Townsfolk", "outsider": "Outsider", "minion": "Minion", "demon": "Demon"},
    "ko": {"townsfolk": "마을주민", "outsider": "외지인", "minion": "하수인", "demon": "악마"},
}


@frozen
class Character:
    """A Clocktower character's facts (no text)."""

    id: str
    name: str
    name_ko: str | None
    aliases_ko: tuple[str, ...]
    team: str  # townsfolk, outsider, minion, demon, traveller, fabled, loric
    edition: str | None
    setup: bool  # changes the setup (Baron, Drunk, Godfather, ...)
    first_night: int | None  # position in the official first-night order; None: does not wake
    other_night: int | None
    reminders: tuple[str, ...] = ()
    reminders_global: tuple[str, ...] = ()
    special: tuple[str, ...] = ()

    @property
    def alignment(self) -> str | None:
        """The alignment the character starts with: good, evil, or None (travellers, fabled)."""
        if self.team in GOOD_TEAMS:
            return "good"
        if self.team in EVIL_TEAMS:
            return "evil"
        return None

    def display(self, language: str = "en") -> str:
        return (self.name_ko or self.name) if language == "ko" else self.name

    def called(self, wanted: str) -> bool:
        """Whether `wanted` (normalised) is one of its names: id, English, Korean, community."""
        return wanted in {
            normalise(n) for n in (self.id, self.name, self.name_ko or "", *self.aliases_ko)
        }


@frozen
class RoleText:
    """What a role PM quotes for one character, in one language, from one seed."""

    id: str
    name: str
    team: str
    ability: str
    how_to_play: str = ""
    flavor: str = ""
    how_to_run: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    book: str = ""  # the rolebook it came from
    first_night: str = ""  # the Storyteller's first-night reminder, where the text gives one
    other_night: str = ""


@frozen(slots=False)
class RoleBook:
    """The role text of one script as one seed gives it."""

    id: str
    title: str
    author: str
    language: str
    source: str
    characters: tuple[RoleText, ...]
    win: dict = field(default_factory=dict)  # alignment -> text, where the seed states it
    rules: dict = field(default_factory=dict)  # other sections a PM may quote

    def text(self, character_id: str) -> RoleText | None:
        return next((c for c in self.characters if c.id == character_id), None)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.characters)


def _data(path: str) -> dict:
    return json.loads(resources.files("modtool").joinpath("data", path).read_text("utf-8"))


@cache
def characters() -> dict[str, Character]:
    """Every official character, by id."""
    out = {}
    for raw in _data("characters.json")["characters"]:
        tuples = ("aliases_ko", "reminders", "reminders_global", "special")
        out[raw["id"]] = Character(**{k: tuple(v) if k in tuples else v for k, v in raw.items()})
    return out


@cache
def night_markers() -> dict[str, dict[str, int]]:
    """The steps of the official night order that are not characters (dusk, minion info, ...)."""
    return _data("characters.json")["night_markers"]


ROLEBOOKS = ("trouble-brewing-forum", "cheomseongdae", "crimson-moon")


@cache
def rolebook(name: str) -> RoleBook:
    raw = _data(f"rolebooks/{name}.json")
    texts = tuple(
        RoleText(
            id=c["id"],
            name=c["name"],
            team=c["team"],
            ability=c["ability"],
            how_to_play=c.get("how_to_play", ""),
            flavor=c.get("flavor", ""),
            how_to_run=tuple(c.get("how_to_run", ())),
            notes=tuple(c.get("notes", ())),
            book=name,
        )
        for c in raw["characters"]
    )
    return RoleBook(
        name,
        raw["title"],
        raw["author"],
        raw["language"],
        raw["source"],
        texts,
        raw.get("win", {}),
        raw.get("rules", {}),
    )


def find_character(name: str, among: tuple[str, ...] | None = None) -> Character | None:
    """The character called `name` (id, English or Korean name, community alias; case and
    spacing ignored), among the ids of a script when given."""
    wanted = normalise(name)
    if not wanted:
        return None
    pool = characters()
    for cid in among if among is not None else pool:
        c = pool.get(cid)
        if c is not None and c.called(wanted):
            return c
    return None


def role_text(character_id: str, language: str, first: str | None = None) -> RoleText | None:
    """The character's text in `language`: from rolebook `first` when it has it, else from any
    shipped rolebook in that language (the host's script first, then the almanacs)."""
    order = [first] if first else []
    order += [b for b in ROLEBOOKS if b not in order]
    for name in order:
        book = rolebook(name)
        if book.language == language and (text := book.text(character_id)) is not None:
            return text
    return None


HOST_ROLE_KEYS = ("name", "ability", "how_to_play", "first_night", "other_night")


SCRIPT_TABLE = "script"  # [script] name = "...": the script's name in that language


def host_role_texts(folder, language: str) -> dict[str, RoleText]:
    """The host's own role text from GAME/roles.<language>.toml, by character id:

    [script]
    name = "점철되는 혼란"  # optional: the script's name in that language (host_script_name)

    [Empath]
    name = "초공감자"
    ability = "..."
    how_to_play = "..."   # optional
    first_night = "..."   # optional: the Storyteller's night reminders (`modtool roles import`)
    other_night = "..."
    """
    path, table = _host_roles_file(folder, language)
    out = {}
    for key, entry in table.items():
        if key == SCRIPT_TABLE:
            _script_name(path, entry)
            continue
        found = find_character(key)
        if found is None:
            raise GameFileError(path, f"[{key}] is not a Clocktower character")
        if not isinstance(entry, dict) or not isinstance(entry.get("ability"), str):
            raise GameFileError(path, f'[{key}] needs ability = "..."')
        if set(entry) - set(HOST_ROLE_KEYS) or not all(isinstance(v, str) for v in entry.values()):
            raise GameFileError(path, f"[{key}] takes {', '.join(HOST_ROLE_KEYS)}, each as text")
        out[found.id] = RoleText(
            found.id,
            entry.get("name") or found.display(language),
            found.team,
            entry["ability"],
            entry.get("how_to_play", ""),
            book=str(path),
            first_night=entry.get("first_night", ""),
            other_night=entry.get("other_night", ""),
        )
    return out


def host_script_name(folder, language: str) -> str | None:
    """The script's name in `language` as GAME/roles.<language>.toml gives it ([script])."""
    path, table = _host_roles_file(folder, language)
    entry = table.get(SCRIPT_TABLE)
    return None if entry is None else _script_name(path, entry)


def _script_name(path: Path, entry: object) -> str:
    if not isinstance(entry, dict) or set(entry) != {"name"} or not isinstance(entry["name"], str):
        raise GameFileError(path, f'[{SCRIPT_TABLE}] takes name = "..." only')
    return entry["name"]


def _host_roles_file(folder, language: str) -> tuple[Path, dict]:
    path = check_inside(Path(folder), Path(folder) / f"roles.{language}.toml")
    if not path.is_file():
        return path, {}
    try:
        return path, tomllib.loads(read_folder_text(Path(folder), path))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise GameFileError(path, f"not valid UTF-8 TOML ({exc})") from None
