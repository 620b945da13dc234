"""Build modtool's role data from the user's seed documents and the publisher's facts.

    python tools/build_data.py [SHARED]     (SHARED defaults to ../shared beside the repository)

Writes, in modtool/data/:
- characters.json: facts about every official Clocktower character (id, English and Korean
  name, team, edition, setup flag, night-order positions, reminder labels, Korean community
  names as aliases). From botc-release roles.json and nightsheet.json, botc-translations
  game/ko.json and the §4 table of docs/BOTC.md. No ability or flavour text is taken.
- scripts/*.json: the three seed scripts in the official script format (ids and _meta).
- rolebooks/*.json: the role text a PM quotes, parsed from the seeds: the English almanac
  (000), the Korean almanac (002), the Trouble Brewing list of a forum host (003) and the
  Vampires setup (004). Every text field is copied from its seed as written.

The output is committed; tests/test_data.py rebuilds it and fails when it differs, so the
files are always what this script makes of the seeds.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "modtool" / "data"

SEED_EN = "seeds/000_520f42d26ad970bf.txt"
SEED_KO = "seeds/002_7a42db529039bb37.txt"
SEED_TB = "seeds/003_c7703328763d83a6.txt"
SEED_VAMPIRES = "seeds/004_4d11bba9154c9770.txt"

TEAMS_EN = {"Townsfolk": "townsfolk", "Outsider": "outsider", "Minion": "minion", "Demon": "demon"}
TEAMS_KO = {"마을주민": "townsfolk", "외지인": "outsider", "하수인": "minion", "악마": "demon"}


# --- facts -------------------------------------------------------------------------------------


def korean_aliases(botc_md: str) -> dict[str, list[str]]:
    """The community names that differ from the official ones (docs/BOTC.md §4, marked ≠)."""
    section = botc_md.split("## 4.", 1)[1].split("\n## ", 1)[0]
    aliases: dict[str, list[str]] = {}
    for row in re.finditer(r"^\| `([a-z]+)` \| ([^|]+) \| ([^|]+?) ≠ \|$", section, re.M):
        aliases[row[1]] = [row[3].strip()]
    return aliases


def characters(shared: Path) -> list[dict]:
    data = shared / "botc-data"
    roles = json.loads((data / "botc-release/resources/data/roles.json").read_text("utf-8"))
    night = json.loads((data / "botc-release/resources/data/nightsheet.json").read_text("utf-8"))
    korean = json.loads((data / "botc-translations/game/ko.json").read_text("utf-8"))["roles"]
    aliases = korean_aliases((shared / "docs/BOTC.md").read_text("utf-8"))
    out = []
    for role in sorted(roles, key=lambda r: r["id"]):
        rid = role["id"]
        out.append(
            {
                "id": rid,
                "name": role["name"],
                "name_ko": korean.get(rid, {}).get("name"),
                "aliases_ko": aliases.get(rid, []),
                "team": role["team"],
                "edition": role.get("edition"),
                "setup": bool(role.get("setup")),
                # positions in the publisher's night order (the index in nightsheet.json)
                "first_night": _index(night["firstNight"], rid),
                "other_night": _index(night["otherNight"], rid),
                "reminders": role.get("reminders", []),
                "reminders_global": role.get("remindersGlobal", []),
                "special": [s["name"] for s in role.get("special", [])],
            }
        )
    return out


def night_markers(shared: Path) -> dict:
    """The night order's non-character steps (dusk, minion info, demon info, dawn)."""
    data = shared / "botc-data"
    night = json.loads((data / "botc-release/resources/data/nightsheet.json").read_text("utf-8"))
    ids = {
        r["id"] for r in json.loads((data / "botc-release/resources/data/roles.json").read_text())
    }
    return {
        kind: {step: i for i, step in enumerate(order) if step not in ids}
        for kind, order in (
            ("first_night", night["firstNight"]),
            ("other_night", night["otherNight"]),
        )
    }


def _index(order: list[str], rid: str) -> int | None:
    return order.index(rid) if rid in order else None


# --- almanacs (000 English, 002 Korean) --------------------------------------------------------


def _paragraphs(block: str) -> list[str]:
    return [line.strip() for line in block.splitlines() if line.strip()]


def _almanac_entry(lines: list[str], team: str, run_heading: str, notes_heading: str) -> dict:
    name, ability, flavor, explanation, *rest = lines
    # The explanation opens by quoting the ability (in the Korean almanac, reworded).
    how_to_play = re.sub(r'^"[^"]*"\s*', "", explanation)
    run, notes, into = [], [], None
    for line in rest:
        if line == run_heading:
            into = run
        elif line == notes_heading:
            into = notes
        elif into is not None:
            into.append(re.sub(r"^(\d+\.|•)\s*", "", line))
        else:
            raise ValueError(f"{name}: unexpected line before {run_heading!r}: {line[:60]}")
    return {
        "name": name,
        "team": team,
        "ability": ability,
        "flavor": flavor,
        "how_to_play": how_to_play,
        "how_to_run": run,
        "notes": notes,
    }


def english_almanac(text: str, ids_by_name: dict[str, str]) -> dict:
    head, *blocks = re.split(r"^\s+\d+\. (Townsfolk|Outsider|Minion|Demon)\s*$", text, flags=re.M)
    title = re.sub(r"^\d+\.\s*", "", _paragraphs(head)[0])
    author = _paragraphs(head)[1].split("·")[1].strip()
    entries = []
    for team, block in zip(blocks[0::2], blocks[1::2], strict=True):
        lines = [line for line in _paragraphs(block) if line != "Back to script"]
        entry = _almanac_entry(lines, TEAMS_EN[team], "How to Run", "Examples & Notes")
        entries.append({"id": ids_by_name[_key(entry["name"])], **entry})
    return {"title": title, "author": author, "language": "en", "characters": entries}


def korean_almanac(text: str, ids_by_korean_name: dict[str, str]) -> dict:
    words = "|".join(TEAMS_KO)
    head, *blocks = re.split(rf"^({words})$", text, flags=re.M)
    title = _paragraphs(head)[0]
    author = _paragraphs(head)[1].split("·")[1].strip()
    entries = []
    for team, block in zip(blocks[0::2], blocks[1::2], strict=True):
        entry = _almanac_entry(_paragraphs(block), TEAMS_KO[team], "진행 방법", "예시 · 메모")
        entries.append({"id": ids_by_korean_name[entry["name"]], **entry})
    return {"title": title, "author": author, "language": "ko", "characters": entries}


# --- a forum host's Trouble Brewing list (003) -------------------------------------------------


def forum_script(text: str, ids_by_name: dict[str, str]) -> dict:
    script = text.split("Script (Trouble Brewing)", 1)[1]
    entries = []
    team = None
    for line in _paragraphs(script):
        if line in TEAMS_EN:
            team = TEAMS_EN[line]
            continue
        row = re.match(r"^\d+\. ([^|]+?) \| (.+)$", line)
        if row and team:
            entries.append(
                {"id": ids_by_name[_key(row[1])], "name": row[1], "team": team, "ability": row[2]}
            )
    wins = _section(text, "Win Conditions")
    good = re.search(r"Good wins when [^.]*\.", wins)[0]
    evil = re.search(r"Evil wins when [^.]*\.", wins)[0]
    return {
        "title": "Trouble Brewing",
        "author": "",
        "language": "en",
        "characters": entries,
        "win": {"good": good, "evil": evil},
        "rules": {
            heading.lower().replace(" & ", "-").replace(" ", "-"): _section(text, heading)
            for heading in ("Starting Information", "Drunkenness & Poisoning", "Death")
        },
    }


def _section(text: str, heading: str) -> str:
    """A headed section of seed 003: the paragraphs up to the next heading."""
    headings = (
        "Player List|Introduction|Win Conditions|Starting Information|Group Chats|"
        "Storyteller Discretion|Drunkenness & Poisoning|Death|Voting|Script \\(Trouble Brewing\\)"
    )
    body = text.split(f"\n{heading}\n", 1)[1]
    body = re.split(rf"^(?:{headings})$", body, flags=re.M)[0]
    return "\n\n".join(_paragraphs(body))


# --- the Vampires setup (004) ------------------------------------------------------------------

# The roles of seed 004 by the heading the seed gives each, with a stable id, the faction the
# seed's text puts it in ("Each of these factions is an enemy with each other faction"), and
# the role the player is told they have: The Chosen One and the Shaman "think you are an
# ordinary Villager", and the Faithful Villager's text says they could be either.
VAMPIRE_ROLES = [
    ("Vampire", "vampire", "vampires", None),
    ("Treacherous Villager", "treacherous-villager", "treacherous-villager", None),
    ("Faithful Villager", "faithful-villager", "village", None),
    ("The Chosen One", "chosen-one", "village", "faithful-villager"),
    ("Shaman", "shaman", "village", "faithful-villager"),
    ("Priest", "priest", "village", None),
    ("Overzealous Paladin", "paladin", "village", None),
    ("Guard", "guard", "village", None),
    ("Apothecary", "apothecary", "village", None),
    ("The Watcher", "watcher", "village", None),
    ("The Slayer (none at start)", "slayer", "village", None),
    ("Scion of Death", "scion", "death-cult", None),
]


def vampires(text: str) -> dict:
    lines = _paragraphs(text)
    headings = [name for name, *_ in VAMPIRE_ROLES]
    starts = [lines.index(h) for h in headings]
    intro = lines[: starts[0]]
    roles = []
    for (heading, rid, faction, told_as), start, end in zip(
        VAMPIRE_ROLES, starts, [*starts[1:], None], strict=True
    ):
        body = lines[start + 1 : end]
        if rid == "scion":  # the setup's closing notes follow the last role
            body = [line for line in body if not line.startswith(("The GM ", "The minimum "))]
        abilities, description, win = [], [], None
        for line in body:
            ability = re.match(r"^- ([^:]+): (.+)$", line)
            if ability:
                abilities.append({"name": ability[1], "text": ability[2]})
            elif line.startswith("You win when"):
                win = line
            else:
                description.append(line)
        roles.append(
            {
                "id": rid,
                "name": heading.removesuffix(" (none at start)"),
                "faction": faction,
                "at_start": "(none at start)" not in heading,
                "told_as": told_as,
                "description": " ".join(description),
                "abilities": abilities,
                "win": win,
            }
        )
    rules = [line for line in intro if not line.startswith(("Each of these", "If the last"))]
    faction_win = next(line for line in intro if line.startswith("If the last survivors"))
    return {
        "title": "Vampires",
        "author": "",
        "language": "en",
        "intro": rules,
        "factions": {
            "village": {"name": "the Village", "win": None},
            # The seed puts this before the Vampire role, after "Each of these factions is an
            # enemy with each other faction" (docs/vampires.md lists the readings).
            "vampires": {"name": "the Vampires", "win": faction_win},
            "death-cult": {"name": "the Death Cult", "win": None},
            "treacherous-villager": {"name": "the Treacherous Villager", "win": None},
        },
        "assignment": [line for line in lines if line.startswith(("The GM ", "The minimum "))],
        "roles": roles,
    }


# --- main --------------------------------------------------------------------------------------


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def build(shared: Path) -> dict[str, str]:
    """Every data file, by path relative to modtool/data, as the text to write."""
    chars = characters(shared)
    by_name = {_key(c["name"]): c["id"] for c in chars}
    by_korean = {c["name_ko"]: c["id"] for c in chars if c["name_ko"]}

    def seed(name: str) -> str:
        return (shared / name).read_text("utf-8")

    books = {
        "cheomseongdae": {**english_almanac(seed(SEED_EN), by_name), "source": SEED_EN},
        "crimson-moon": {**korean_almanac(seed(SEED_KO), by_korean), "source": SEED_KO},
        "trouble-brewing-forum": {**forum_script(seed(SEED_TB), by_name), "source": SEED_TB},
    }
    files = {
        "characters.json": {"night_markers": night_markers(shared), "characters": chars},
        "vampires.json": {**vampires(seed(SEED_VAMPIRES)), "source": SEED_VAMPIRES},
    }
    for name, book in books.items():
        files[f"rolebooks/{name}.json"] = {"id": name, "game": "botc", **book}
        # the script itself, in the official script format: _meta and the character ids
        meta = {"id": "_meta", "name": book["title"], "author": book["author"]}
        files[f"scripts/{name}.json"] = [meta, *(c["id"] for c in book["characters"])]
    return {
        path: json.dumps(value, ensure_ascii=False, indent=1) + "\n"
        for path, value in files.items()
    }


def main(argv: list[str]) -> int:
    shared = Path(argv[1]) if len(argv) > 1 else REPO.parent / "shared"
    for path, text in build(shared).items():
        target = OUT / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, "utf-8")
        print(f"wrote {target.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
