"""Where the Vampires game's text can be read two ways: each question, the reading taken by
default, and the other one a host may choose in game.toml:

    [rules]
    readings = { drains = "one-a-night", distracted = "told" }

Every answer that rests on a reading names it (`Taken.note`), in the text and the JSON, so the
host sees what they could overrule. docs/vampires.md lists them with the game's words.
"""

from __future__ import annotations

from ...errors import ModToolError
from ...threads.frozen import frozen


@frozen
class Reading:
    key: str
    question: str
    choices: tuple[str, ...]  # the first is the reading taken by default
    says: dict[str, str]  # choice -> the reading, as the notes name it


READINGS = (
    Reading(
        "drains",
        "How many Drains a night?",
        ("each-vampire", "one-a-night"),
        {
            "each-vampire": "each Vampire's recorded Drain counts",
            "one-a-night": "the Vampires drain once a night: the first recorded Drain counts",
        },
    ),
    Reading(
        "vampires-know",
        "Do the Vampires know each other?",
        ("each-other", "nobody"),
        {
            "each-other": "a Vampire's role PM names the other Vampires",
            "nobody": "a Vampire's role PM names nobody",
        },
    ),
    Reading(
        "village-win",
        "How does the Village win?",
        ("no-vampires-left", "none-stated"),
        {
            "no-vampires-left": "the village wins when no Vampire is left",
            "none-stated": "the village has no win of its own; with no Vampire left only the "
            "Treacherous Villager wins",
        },
    ),
    Reading(
        "distracted",
        "Does a distracted player learn that their plan was cancelled?",
        ("not-told", "told"),
        {
            "not-told": "a distracted player learns nothing and is not told their plan was "
            "cancelled",
            "told": "a distracted player is told their night plan was cancelled",
        },
    ),
    Reading(
        "killed-tonight",
        "A player killed in the night: do they still get their result?",
        ("no-results", "results"),
        {
            "no-results": "players killed tonight get no results",
            "results": "players killed tonight still get their results",
        },
    ),
    Reading(
        "paranoid-watcher",
        "Does a paranoid Watcher who searches The Chosen One still make them the Slayer?",
        ("no-contact", "contact"),
        {
            "no-contact": "a paranoid Watcher's search contacts nobody",
            "contact": "a paranoid Watcher hears 'Not The Chosen One', but The Chosen One is "
            "contacted and becomes the Slayer",
        },
    ),
    Reading(
        "protected-apothecary",
        "Does the Paladin's protection save an Apothecary who treated a Vampire?",
        ("saved", "dies"),
        {
            "saved": "the Paladin's protection saves an Apothecary who dies 'as if killed by the "
            "Drain ability'",
            "dies": "an Apothecary who treated a Vampire dies, protected or not",
        },
    ),
    Reading(
        "heirs",
        "Who may ascend or be converted?",
        ("faithful-villager", "also-hidden"),
        {
            "faithful-villager": "only players whose role is Faithful Villager ascend or convert",
            "also-hidden": "The Chosen One and the Shaman, who think they are Faithful Villagers, "
            "may ascend or convert too",
        },
    ),
    Reading(
        "hidden-role-pm",
        "What do The Chosen One and the Shaman get as a role PM?",
        ("faithful-villager", "own-role"),
        {
            "faithful-villager": "The Chosen One and the Shaman get the Faithful Villager's PM",
            "own-role": "The Chosen One and the Shaman get their own role's PM",
        },
    ),
)
BY_KEY = {r.key: r for r in READINGS}


@frozen
class Taken:
    """A reading an answer rests on: which question, the choice, and what it says."""

    key: str
    choice: str

    @property
    def text(self) -> str:
        return BY_KEY[self.key].says[self.choice]

    @property
    def note(self) -> str:
        return f"reading ({self.key} = {self.choice}): {self.text}"

    def as_json(self) -> dict:
        return {"reading": self.key, "choice": self.choice, "says": self.text}


def readings_problem(chosen: dict[str, str]) -> str | None:
    """Why `[rules] readings` is not a choice of this game's readings, or None."""
    for key, choice in chosen.items():
        reading = BY_KEY.get(key)
        if reading is None:
            return f"no reading {key!r} in the Vampires game; use one of {', '.join(BY_KEY)}"
        if choice not in reading.choices:
            return f"reading {key!r} cannot be {choice!r}; use one of {', '.join(reading.choices)}"
    return None


def taken(rules, key: str) -> Taken:
    """The reading of `key` the game's `[rules] readings` chose, or the default."""
    chosen = dict(getattr(rules, "readings", ()) or ())
    if (problem := readings_problem(chosen)) is not None:
        raise ModToolError(f"[rules] readings: {problem}")
    return Taken(key, chosen.get(key, BY_KEY[key].choices[0]))
