"""What a Clocktower role PM tells each player (character, ability, team, the Demon and
Minions, bluffs, the win), and what a death reveals of a character."""

from __future__ import annotations

from ...core.ledger import Game
from ...errors import ModToolError
from .roles import (
    LANGUAGE_NAMES,
    TEAM_NAMES,
    find_character,
    host_role_texts,
    host_script_name,
    role_text,
    rolebook,
)
from .scripts import script_of

EVIL_INFO_MIN_PLAYERS = 7


def evil_learn_each_other(players: int) -> bool:
    """Official rule: in games of 7 or more the evil team learn each other and the Demon learns
    three bluffs; in smaller games nobody is told."""
    return players >= EVIL_INFO_MIN_PLAYERS


def role_pm_contexts(game: Game, language: str) -> list[dict]:
    """One context per player (the slot's current holder), in seat order."""
    script = script_of(game)
    chars = script.characters
    book = rolebook(script.book) if script.book else None
    slots = sorted(game.slots, key=lambda s: (s.seat is None, s.seat or 0))
    holder = {s.key: game.slot_names(s.key)[-1] for s in slots}
    team_of = {s.key: chars[s.role].team for s in slots}
    informed = evil_learn_each_other(len(slots))
    minion_info = game.setup.get("minion_info", "team")
    bluffs = [{"name": find_character(b).display(language)} for b in game.setup.get("bluffs", [])]
    told = {s.key: s.shown or s.role for s in slots}  # the Drunk is told a Townsfolk
    texts = _role_texts(game, set(told.values()), language)
    script_name = host_script_name(game.folder, language) or script.name
    out = []
    for s in slots:
        character = texts[told[s.key]]
        alignment = s.team or chars[s.role].alignment
        context = {
            "kind": "botc",
            "game": {"title": game.title, "script": script_name},
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


def _role_texts(game: Game, ids: set[str], language: str) -> dict[str, dict]:
    """The characters as a PM shows them (name, team, ability, how to play) in `language`:
    the host's GAME/roles.<language>.toml first, then modtool's role data."""
    own = host_role_texts(game.folder, language)
    out, missing = {}, []
    sc = script_of(game)
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
        lang = LANGUAGE_NAMES.get(language, language)
        raise ModToolError(
            f"no {lang} role text for {', '.join(missing)}; import the publisher's {lang} "
            f"character file with `modtool roles import FILE {game.folder} --lang {language}`, "
            f"or write it in {game.folder / f'roles.{language}.toml'} (see `modtool docs drafts`), "
            "or draft with another --lang"
        )
    return out


def role_display(game: Game, slot_key: str, language: str) -> tuple[str | None, str | None]:
    """A dead player's character (after any recorded change) and alignment as a post names
    them."""
    role, team = game.role_at(slot_key), game.slot(slot_key).team
    if role is None:
        return None, team
    c = script_of(game).characters[role]
    return c.display(language), team or c.alignment


def revealed_ability(game: Game, slot_key: str, language: str) -> str | None:
    """The dead player's true character's ability, as a full-role-PM reveal shows it."""
    role = game.role_at(slot_key)
    if role is None:
        return None
    return _role_texts(game, {role}, language)[role]["ability"]
