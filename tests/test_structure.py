"""The package's structure, read from its imports (the AST, not by running it): layers that only
point down, no cycles, no import of modtool's own modules hidden inside a function, and no
game named outside modtool/games/.

    cli -> host -> games.<one> -> core -> threads -> errors

A game package imports the core and the threads, never another game; only the registry
(modtool/games/__init__.py) names the games.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "modtool"
LAYERS = ("errors", "threads", "core", "games", "host", "cli")  # bottom to top
DATA = ("modtool.presets",)  # packages of data files (the rule presets), no code

GAME_WORDS = ("vampires", "clocktower", "mafia")
# Words that name a game, which the generic code (the core, the threads) and the shared
# templates hold nowhere: not in code, strings, docstrings or comments. A game's words come
# from its Variant (`tie_chooser`, `eliminate`), its own templates from `Variant.templates`.
# a game's name, or a word only one game's rules use
GAME_TEXT = re.compile(r"\b(?:vampire|clocktower|botc\b|demon|butler|virgin|slayer)", re.I)
GENERIC = ("core", "threads")
SHARED_TEMPLATES = PACKAGE / "templates"
# where a game's word may stand, as exactly this text: the older name of a tie rule, still read
# from the game.toml files and presets that were written with it
ALLOWED_TEXT = {"core/rules.py": ('{"vampires-choose": TiePolicy.TEAM_CHOOSES}',)}


def _module(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _target(module: str, is_package: bool, node: ast.ImportFrom) -> list[str]:
    """The modtool modules an import names (a `from pkg import name` may name a module)."""
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - node.level + 1]
        prefix = ".".join([*base, node.module] if node.module else base)
    else:
        prefix = node.module or ""
    if not prefix.startswith("modtool"):
        return []
    return [prefix, *(f"{prefix}.{a.name}" for a in node.names)]


def _types_only(node: ast.AST) -> bool:
    """`if TYPE_CHECKING:`: imports for annotations, never run."""
    return isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING"


def _imports_of(
    name: str, path: Path, modules: dict, types: bool = False
) -> list[tuple[str, bool, int]]:
    """The modtool modules one file imports when it runs (with `types`, those it imports for
    annotations only): (module, inside a function?, line)."""
    out: list[tuple[str, bool, int]] = []
    package = path.name == "__init__.py"
    todo: list[tuple[ast.AST, bool]] = [(ast.parse(path.read_text("utf-8")), False)]
    while todo:
        node, nested = todo.pop()
        for child in ast.iter_child_nodes(node):
            if _types_only(child) and not types:
                continue
            if types and not _types_only(node) and isinstance(child, ast.Import | ast.ImportFrom):
                continue
            if isinstance(child, ast.ImportFrom):
                out += [
                    (t, nested, child.lineno) for t in _target(name, package, child) if t in modules
                ]
            elif isinstance(child, ast.Import):
                out += [(a.name, nested, child.lineno) for a in child.names if a.name in modules]
            inner = nested or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            todo.append((child, inner))
    return out


def _imports(types: bool = False) -> dict[str, list[tuple[str, bool, int]]]:
    """module -> [(imported modtool module, inside a function?, line)]."""
    modules = {_module(p): p for p in PACKAGE.rglob("*.py")}
    return {name: _imports_of(name, path, modules, types) for name, path in modules.items()}


IMPORTS = _imports()
TYPE_IMPORTS = _imports(types=True)  # `if TYPE_CHECKING:` imports: layered, never a cycle


def _layer(module: str) -> int | None:
    parts = module.split(".")
    if len(parts) == 1 or parts[1] == "__main__":
        return None  # modtool/__init__.py: the public face, above everything (lazy)
    return LAYERS.index(parts[1]) if parts[1] in LAYERS else None


def _game(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "games" else None


def test_every_module_has_a_layer():
    lost = [
        m for m in IMPORTS if _layer(m) is None and m not in ("modtool", "modtool.__main__", *DATA)
    ]
    assert not lost, lost


def test_imports_only_point_down_and_no_game_imports_another():
    wrong = []
    for module in IMPORTS:
        imports = IMPORTS[module] + TYPE_IMPORTS[module]
        mine = _layer(module)
        if mine is None:
            continue
        for target, _, line in imports:
            theirs = _layer(target)
            if theirs is not None and theirs > mine:
                wrong.append(f"{module}:{line} imports {target} (a layer above)")
            if _game(module) and _game(target) and _game(module) != _game(target):
                wrong.append(f"{module}:{line} imports another game, {target}")
            if _game(target) and not _game(module) and _layer(module) != LAYERS.index("games"):
                wrong.append(f"{module}:{line} names a game ({target}); use the registry")
    assert not wrong, "\n".join(wrong)


def test_no_import_of_modtool_inside_a_function_outside_the_cli():
    hidden = [
        f"{module}:{line} imports {target} inside a function"
        for module, imports in IMPORTS.items()
        if _layer(module) is not None and _layer(module) != LAYERS.index("cli")
        for target, nested, line in imports
        if nested
    ]
    assert not hidden, "\n".join(hidden)


def test_no_import_cycle():
    graph = {m: {t for t, _, _ in imports if t != m} for m, imports in IMPORTS.items()}
    # a package's __init__ importing its own modules is not a cycle with them
    for m in graph:
        graph[m] = {t for t in graph[m] if not m.startswith(t + ".")}
    cycles = []
    state: dict[str, int] = {}
    path: list[str] = []

    def walk(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join(path[path.index(nxt) :] + [nxt]))
            elif nxt not in state:
                walk(nxt)
        path.pop()
        state[node] = 2

    for m in sorted(graph):
        if m not in state:
            walk(m)
    assert not cycles, "\n".join(cycles)


def _game_names_compared(path: Path) -> list[int]:
    tree = ast.parse(path.read_text("utf-8"))
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                if isinstance(side, ast.Constant) and side.value in GAME_WORDS:
                    lines.append(node.lineno)
    return lines


@pytest.mark.parametrize(
    "path",
    [p for p in sorted(PACKAGE.rglob("*.py")) if "games" not in p.relative_to(PACKAGE).parts],
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_no_game_is_named_outside_the_games(path):
    assert not _game_names_compared(path)


def _generic_files() -> list[Path]:
    code = [p for layer in GENERIC for p in sorted((PACKAGE / layer).rglob("*.py"))]
    return code + sorted(SHARED_TEMPLATES.glob("*.j2"))


def _game_text(path: Path, text: str) -> list[str]:
    """The lines of a generic file that name a game (GAME_TEXT), as `file:line: text`."""
    where = path.relative_to(PACKAGE).as_posix()
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        kept = line
        for allowed in ALLOWED_TEXT.get(where, ()):
            kept = kept.replace(allowed, "")
        if GAME_TEXT.search(kept):
            found.append(f"{where}:{number}: {line.strip()}")
    return found


@pytest.mark.parametrize("path", _generic_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_core_and_the_shared_templates_say_no_game_s_name(path):
    assert not _game_text(path, path.read_text("utf-8"))


def test_the_checker_sees_what_it_checks():
    """The checks above read real imports: a sample of known arrows is found."""
    assert any(t == "modtool.core.ledger" for t, _, _ in IMPORTS["modtool.core.count"])
    assert any(t == "modtool.threads.posts" for t, _, _ in IMPORTS["modtool.core.count"])
    assert _game("modtool.games.vampires.game") == "vampires"
    assert _layer("modtool.host.days") > _layer("modtool.core.count") > _layer("modtool.threads")
    assert any(t == "modtool.core.ledger.model" for t, _, _ in TYPE_IMPORTS["modtool.core.variant"])
    assert not any(t == "modtool.core.ledger.model" for t, _, _ in IMPORTS["modtool.core.variant"])
    # the text check reads every generic file, and finds a game's name in any case and place
    files = {p.relative_to(PACKAGE).as_posix() for p in _generic_files()}
    assert {"core/rules.py", "threads/posts.py", "templates/dayend.ko.bbcode.j2"} <= files
    assert not any("games" in f.split("/") for f in files)
    rules = PACKAGE / "core" / "rules.py"
    assert _game_text(rules, "x = 1  # the Vampires settle it") == [
        "core/rules.py:1: x = 1  # the Vampires settle it"
    ]
    assert _game_text(rules, '{% if kind == "VAMPIRES" %}') != []
    assert _game_text(rules, '_OLD = {"vampires-choose": TiePolicy.TEAM_CHOOSES}') == []
    assert _game_text(rules, 'tie = "vampires-choose"') != []  # only where it is allowed


def test_a_game_s_name_is_a_word_not_a_part_of_one():
    rules = PACKAGE / "core" / "rules.py"
    assert _game_text(rules, "x = 1  # a botched tag") == []
    assert _game_text(rules, "x = 1  # BotC: ghost votes") != []
