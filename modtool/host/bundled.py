"""What ships inside the package for a host with no checkout: the example games and the docs.

Both live at the top of the repository (games/example-*, docs/*.md); modtool/examples and
modtool/docs link to them, so the wheel carries the same files and no copy can drift.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from ..core.ledger import LEDGER_FILE, SETUP_FILE, write_atomic
from ..errors import ModToolError
from ..games import GAMES, load_game
from ..threads.frozen import frozen

EXAMPLE_FILES = (SETUP_FILE, LEDGER_FILE, "thread.jsonl")


def _example_folder(game: str):
    variant = GAMES.get(game)
    if variant is None or not variant.example:
        raise ModToolError(f"no example of {game!r}; use one of {', '.join(example_names())}")
    return resources.files("modtool") / "examples" / Path(variant.example).name


def example_names() -> tuple[str, ...]:
    """The games that ship an example folder, in the registry's order."""
    return tuple(name for name, variant in GAMES.items() if variant.example)


def write_example(folder: Path, game: str) -> tuple[Path, ...]:
    """Write the example game of `game` (its game.toml, ledger and saved thread posts) into a
    new folder, ready for every command. A folder that holds any of its files is refused;
    the files written are the package's own, and they are checked to read back."""
    source = _example_folder(game)
    present = [name for name in (*EXAMPLE_FILES, "drafts") if (folder / name).exists()]
    if present:
        raise ModToolError(
            f"{folder} already holds {', '.join(present)}; choose a new or empty folder"
        )
    created = not folder.exists()
    written = []
    try:
        for name in EXAMPLE_FILES:
            write_atomic(folder / name, source.joinpath(name).read_text("utf-8"))
            written.append(folder / name)
        load_game(folder)
    except BaseException:
        for path in written:
            path.unlink(missing_ok=True)
        if created and folder.exists():
            folder.rmdir()
        raise
    return tuple(written)


# --- the docs -----------------------------------------------------------------------------


@frozen
class Topic:
    name: str  # the file name without .md, as `modtool docs` takes it
    title: str  # its first heading


def _docs():
    return resources.files("modtool") / "docs"


def doc_topics() -> tuple[Topic, ...]:
    """Every doc that ships, by name, with its title."""
    topics = []
    for entry in sorted(_docs().iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".md"):
            first = entry.read_text("utf-8").lstrip().splitlines()[0]
            topics.append(Topic(entry.name.removesuffix(".md"), first.lstrip("# ").strip()))
    return tuple(topics)


_LINK = re.compile(r"\[([^\]]+)\]\((?:docs/)?([\w-]+)\.md(#[\w-]*)?\)")
_PATH = re.compile(r"`?docs/([\w-]+)\.md`?")


def doc_text(topic: str) -> str:
    """A doc's text, its links to other docs written as the command that shows them."""
    names = [t.name for t in doc_topics()]
    name = topic.removesuffix(".md")
    if name not in names:
        raise ModToolError(f"no doc {topic!r}; the topics are {', '.join(names)}")
    text = _docs().joinpath(f"{name}.md").read_text("utf-8")
    text = _LINK.sub(lambda m: f"{m[1]} (`modtool docs {m[2]}`)" if m[2] in names else m[0], text)
    return _PATH.sub(lambda m: f"`modtool docs {m[1]}`" if m[1] in names else m[0], text)
