"""Role text from the publisher's files: `modtool roles import FILE`.

Two shapes are read, both JSON as the publisher makes them:

- a per-language character file (the app's translations, one file per language): an object
  whose `roles` maps each character id to its `name`, `ability`, and the Storyteller's
  `first` and `other` night reminders;
- a script from the official script tool: an array whose character objects carry `id`, `name`,
  `ability`, `firstNightReminder` and `otherNightReminder` (ids alone carry no text).

What is found becomes GAME/roles.LANG.toml, the host's own role text (`roles.host_role_texts`),
which the host may then edit. modtool ships none of this text: the host brings the file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import field
from pathlib import Path

import tomli_w

from ...core.ledger import write_atomic
from ...errors import GameFileError
from ...threads.frozen import frozen
from .roles import LANGUAGE_NAMES, SCRIPT_TABLE, characters, host_role_texts, host_script_name
from .scripts import Script, official_id

# The keys of roles.LANG.toml that the import writes, and where each shape keeps them.
FIELDS = ("name", "ability", "first_night", "other_night")
TRANSLATION_KEYS = {
    "name": "name",
    "ability": "ability",
    "first_night": "first",
    "other_night": "other",
}
SCRIPT_KEYS = {
    "name": "name",
    "ability": "ability",
    "first_night": "firstNightReminder",
    "other_night": "otherNightReminder",
}


@frozen
class ImportedRole:
    """One character's text as the file gives it."""

    id: str  # the official id
    name: str
    ability: str
    first_night: str = ""
    other_night: str = ""


@frozen(slots=False)
class RoleImport:
    """What an import found in a file and what it did with it."""

    path: Path  # the roles.LANG.toml written (or that would be)
    source: Path
    language: str
    written: tuple[str, ...]  # character ids added to it
    kept: tuple[str, ...]  # ids the file already had, left as the host wrote them
    missing: tuple[str, ...]  # ids of the script with no text in the file
    unknown: tuple[str, ...]  # entries of the file that are no official character (homebrew)
    names: dict[str, str] = field(default_factory=dict)  # id -> English name, for text()
    script_name: str | None = None  # the script's name in the language, when this import wrote it

    def as_json(self) -> dict:
        return {
            "file": str(self.path),
            "language": self.language,
            "written": list(self.written),
            "kept": list(self.kept),
            "missing": list(self.missing),
            "not_official": list(self.unknown),
            "script_name": self.script_name,
        }

    def text(self) -> str:
        def named(ids: tuple[str, ...]) -> str:
            return ", ".join(self.names.get(c, c) for c in ids)

        lines = [
            f"Wrote {len(self.written)} character{'s' if len(self.written) > 1 else ''} to "
            f"{self.path}."
            if self.written
            else f"Nothing new for {self.path}."
        ]
        if self.script_name:
            lines.append(f"The script's name: {self.script_name}.")
        if self.kept:
            lines.append(f"Kept as written there: {named(self.kept)}.")
        if self.missing:
            lines.append(f"No text in {self.source.name} for: {named(self.missing)}.")
        if self.unknown:
            lines.append(f"Not official characters, skipped: {', '.join(self.unknown)}.")
        return "\n".join(lines)


def read_role_file(data: object, source: str) -> tuple[list[ImportedRole], list[str]]:
    """The characters with text in a parsed publisher file, and the names of its entries that
    are not official characters; GameFileError when it is neither shape."""
    if isinstance(data, dict) and isinstance(data.get("roles"), dict):
        entries = [(cid, raw, TRANSLATION_KEYS) for cid, raw in data["roles"].items()]
    elif isinstance(data, list):
        entries = [
            (raw.get("id", ""), raw, SCRIPT_KEYS)
            for raw in data
            if isinstance(raw, dict) and raw.get("id") != "_meta" and "ability" in raw
        ]
    else:
        raise GameFileError(
            source,
            'is neither the publisher\'s character file (an object with "roles") nor a script '
            "from the script tool (an array of characters); give one of those",
        )
    known = characters()
    found, unknown = [], []
    for cid, raw, keys in entries:
        text = {f: raw.get(k) for f, k in keys.items()}
        if not isinstance(text["ability"], str) or not text["ability"].strip():
            continue
        if not all(isinstance(v, str) for v in text.values() if v is not None):
            raise GameFileError(source, f"{cid!r}: name, ability and reminders must be text")
        official = official_id(str(cid))
        if official not in known:
            unknown.append(text["name"] or str(cid))
            continue
        found.append(
            ImportedRole(
                official,
                (text["name"] or known[official].name).strip(),
                text["ability"].strip(),
                (text["first_night"] or "").strip(),
                (text["other_night"] or "").strip(),
            )
        )
    if not found and not unknown:
        raise GameFileError(
            source, "holds no character with an ability; give the publisher's character file"
        )
    return found, unknown


def script_name_in(data: object, script: Script) -> str | None:
    """The script's own name in a publisher file: the name of its edition in a character file
    (when every character of the script is of one edition), or the `_meta` name of a script
    tool export that holds exactly the script's characters."""
    if isinstance(data, dict) and isinstance(data.get("editions"), dict):
        editions = {c.edition for c in script.characters.values()}
        found = data["editions"].get(next(iter(editions))) if len(editions) == 1 else None
        name = found.get("name") if isinstance(found, dict) else None
        return name.strip() if isinstance(name, str) and name.strip() else None
    if isinstance(data, list):
        entries = [
            x if isinstance(x, str) else x.get("id") for x in data if isinstance(x, (str, dict))
        ]
        meta = next((x for x in data if isinstance(x, dict) and x.get("id") == "_meta"), {})
        ids = {official_id(str(e)) for e in entries if e and e != "_meta"}
        name = meta.get("name")
        if ids == set(script.ids) and isinstance(name, str) and name.strip():
            return name.strip()
    return None


def role_toml(roles: Iterable[ImportedRole]) -> str:
    """The roles as roles.LANG.toml tables, keyed by English name, in the order given."""
    known = characters()
    tables = {}
    for r in roles:
        entry = {"name": r.name, "ability": r.ability}
        entry |= {f: getattr(r, f) for f in ("first_night", "other_night") if getattr(r, f)}
        tables[known[r.id].name] = entry
    return tomli_w.dumps(tables) if tables else ""


def import_roles(folder: Path, source: Path, language: str, script: Script | None) -> RoleImport:
    """Add the text of `source` to folder/roles.<language>.toml: that of the characters of
    `script` (None: of every official character the file has) that the file does not hold
    yet. What the host already wrote there is kept as written; the file is written whole or
    not at all."""
    try:
        data = json.loads(source.read_text("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise GameFileError(
            source,
            f"is not UTF-8 JSON ({exc}); give the publisher's character file or a script "
            "tool export",
        ) from None
    found, unknown = read_role_file(data, str(source))
    by_id = {r.id: r for r in found}
    order = list(script.ids) if script is not None else list(by_id)
    path = folder / f"roles.{language}.toml"
    have = host_role_texts(folder, language)  # also checks that the host's file reads
    new = [by_id[cid] for cid in order if cid in by_id and cid not in have]
    named = script_name_in(data, script) if script is not None else None
    if named is not None and host_script_name(folder, language) is not None:
        named = None  # the host's own name for it stays
    if new or named:
        before = path.read_text("utf-8") if path.is_file() else _header(source, language)
        added = tomli_w.dumps({SCRIPT_TABLE: {"name": named}}) + "\n" if named else ""
        write_atomic(path, before + _gap(before) + added + role_toml(new))
    names = {cid: c.name for cid, c in characters().items()}
    return RoleImport(
        path,
        source,
        language,
        written=tuple(r.id for r in new),
        kept=tuple(cid for cid in order if cid in have),
        missing=tuple(cid for cid in order if cid not in by_id and cid not in have),
        unknown=tuple(unknown) if script is None else (),
        names=names | ({c.id: c.name for c in script.characters.values()} if script else {}),
        script_name=named,
    )


def _gap(text: str) -> str:
    """The blank line between what a file holds and the tables added to it."""
    if not text or text.endswith("\n\n"):
        return ""
    return "\n" if text.endswith("\n") else "\n\n"


def _header(source: Path, language: str) -> str:
    return (
        f"# {LANGUAGE_NAMES.get(language, language)} role text, imported by "
        f"`modtool roles import` from {source.name}.\n"
        "# Role PMs quote `name` and `ability`; `first_night` and `other_night` are the\n"
        "# Storyteller's reminders. Edit freely: an import never overwrites a character here.\n\n"
    )
