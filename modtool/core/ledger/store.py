"""Reading a game folder, and writing its ledger: appends that are whole or absent, under a
lock; other files replaced whole."""

from __future__ import annotations

import json
import os
import tempfile
import tomllib
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from ...errors import GameFileError
from ...threads.folder_files import check_inside, read_regular
from .consistency import check_ledger, effective
from .events import _read_ledger, event_from_json, event_to_json
from .model import LEDGER_FILE, SETUP_FILE, Event, EventKind, Game
from .setup import _game_from_setup, _toml_line, _toml_problem

# --- reading -----------------------------------------------------------------------------------


def load_game(folder: str | Path, find_variant: Callable) -> Game:
    """Read a game folder; a malformed file raises GameFileError naming file, line and problem.
    `find_variant(script)` gives the game it is (`modtool.games.load_game` passes the
    registry's): the core names no game."""
    folder = Path(folder)
    setup_path = check_inside(folder, folder / SETUP_FILE)
    if not setup_path.is_file():
        raise GameFileError(
            setup_path,
            f"missing; a game folder needs a {SETUP_FILE} (see `modtool docs game-folder`)",
        )
    try:
        setup = tomllib.loads(read_regular(setup_path).decode("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        line = _toml_line(str(exc))
        raise GameFileError(
            setup_path, f"not valid TOML ({_toml_problem(str(exc))})", line
        ) from None
    except UnicodeDecodeError:
        raise GameFileError(setup_path, "not UTF-8 text; save it as UTF-8") from None
    except RecursionError:
        raise GameFileError(
            setup_path, "nested too deeply (arrays or tables in one another); fix the file"
        ) from None
    game = _game_from_setup(setup, setup_path, folder, find_variant)
    ledger_path = check_inside(folder, folder / LEDGER_FILE)
    events: tuple[Event, ...] = ()
    if ledger_path.is_file():
        events = effective(tuple(_read_ledger(ledger_path, game)), ledger_path)
        check_ledger(events, game, ledger_path)
    game = replace(game, events=events, _slot_by_name={})  # names now include replacements
    drawn = game.events_of(EventKind.SETUP)
    return with_setup(game, drawn[-1]) if drawn else game


def reload(game: Game) -> Game:
    """The game as its folder holds it now."""
    return load_game(game.folder, game.find_variant)


def with_setup(game: Game, event: Event) -> Game:
    """The game with a recorded draw's seats and characters in place of game.toml's."""
    by_slot = {slot: (seat, role, shown) for slot, seat, role, shown in event.seats}
    slots = tuple(
        replace(s, seat=by_slot[s.key][0], role=by_slot[s.key][1], shown=by_slot[s.key][2])
        if s.key in by_slot
        else s
        for s in game.slots
    )
    setup = {**game.setup, "bluffs": list(event.bluffs)}
    if event.red_herring:
        setup["red_herring"] = event.red_herring
    return replace(game, slots=slots, setup=setup)


# --- writing -----------------------------------------------------------------------------------


def write_atomic(path: Path, text: str | bytes) -> None:
    """Write a whole file (text, or bytes such as a PNG) so that readers see the old file or the
    new one, never half: a temporary file beside it, fsynced, renamed over it. Any OS error
    leaves the old file and no temporary one, and is one line naming the file."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name[:200]}.", dir=path.parent)
        os.fchmod(fd, _mode_for(path))
    except OSError as exc:
        raise GameFileError(path, f"cannot be written ({exc.strerror})") from None
    try:
        binary = isinstance(text, bytes)
        with os.fdopen(fd, "wb" if binary else "w", encoding=None if binary else "utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise GameFileError(
            path, f"could not be written ({exc.strerror}); it is as it was, nothing half-written"
        ) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _mode_for(path: Path) -> int:
    """The file's own mode when it exists; else a new file's, as the umask makes it (mkstemp's
    temporary files are private)."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def append_event(game: Game, obj: Event | dict) -> Event:
    """Validate one event against the game and its whole ledger, then append it and fsync."""
    return append_events(game, [obj])[0]


def append_events(game: Game, objs: Sequence[Event | dict]) -> list[Event]:
    """Validate events against the game and its whole ledger, then append them in one write
    and fsync: all of them or none (see `append_computed`)."""
    return append_computed(game, lambda current: objs)


def append_computed(game: Game, compute: Callable[[Game], Sequence[Event | dict]]) -> list[Event]:
    """Append the events `compute` makes of the ledger as it is on disk, under the lock: a
    check such as "already written" or "already ended" inside `compute` sees every other
    writer's lines, so twenty writers at once append once. The events are validated against
    the game and the whole ledger, then written in one write and fsynced: all or none. A write
    that fails (a full disk, a file-size limit, an I/O error) is cut back to the ledger's size
    before it, so no half line is ever left. A hand-edited file that lacks its final newline
    gets one first."""
    path = check_inside(game.folder, game.folder / LEDGER_FILE)
    with _locked(path):
        current = reload(game)  # what is on disk now, under the lock
        # typed events as their lines; a dict is a line as the host asked for it (the command
        # line's options), read and checked below like any other
        objs = [
            o if isinstance(o, dict) else event_to_json(o, current.variant.events)
            for o in compute(current)
        ]
        if not objs:
            return []
        existing = path.read_bytes() if path.exists() else b""
        first = existing.count(b"\n") + (0 if existing.endswith(b"\n") or not existing else 1) + 1
        bare = replace(current, events=(), _slot_by_name={})  # as load_game reads the lines
        everything = list(_read_ledger(path, bare)) if existing else []
        added = []
        for i, obj in enumerate(objs):
            replaced = [e for e in (*everything, *added) if e.kind is EventKind.REPLACEMENT]
            try:
                added.append(event_from_json(obj, first + i, current, replaced))
            except ValueError as exc:
                raise not_recorded(path, str(exc)) from None
        try:
            check_ledger(effective((*everything, *added), path), current, path)
        except GameFileError as exc:  # a new line is at fault, or an old one it clashes with
            clash = exc.line if exc.line is not None and exc.line < first else None
            raise not_recorded(path, exc.problem, clash) from None
        data = "".join(json.dumps(obj, ensure_ascii=False) + "\n" for obj in objs)
        if existing and not existing.endswith(b"\n"):
            data = "\n" + data
        _append_whole(path, data.encode("utf-8"))
    return added


def not_recorded(path: Path, problem: str, clash: int | None = None) -> GameFileError:
    """The error of an event refused before it was written: the ledger holds no line of it to
    cite, so the error names only the existing line it clashes with (`clash`), if any."""
    return GameFileError(path, f"not recorded: {problem}", clash)


def _append_whole(path: Path, data: bytes) -> None:
    """Append `data` entirely or not at all: on any OS error the file is truncated back."""
    try:
        # never through a link: a ledger swapped for one since it was checked is refused too
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    except OSError as exc:
        raise GameFileError(
            path, f"cannot be written ({exc.strerror}); nothing was recorded"
        ) from None
    try:
        size = os.fstat(fd).st_size
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        except BaseException as exc:  # Ctrl-C between two partial writes too
            os.ftruncate(fd, size)
            if not isinstance(exc, OSError):
                raise
            raise GameFileError(
                path,
                f"could not be written ({exc.strerror}); nothing was recorded, the ledger is as "
                "it was: free some space and run the command again",
            ) from None
    finally:
        os.close(fd)


def ledger_lines(game: Game) -> list[tuple[int, dict]]:
    """Every line of the ledger as written, with its number (blank lines left out)."""
    path = check_inside(game.folder, game.folder / LEDGER_FILE)
    if not path.is_file():
        return []
    return [
        (i, json.loads(line))
        for i, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if line.strip()
    ]


LOCK_WAIT = 10.0  # seconds a writer waits for another before it gives up


@contextmanager
def _locked(ledger: Path):
    """An exclusive lock on the game folder itself, for one write: no file is created."""
    import fcntl
    import time

    fd = os.open(ledger.parent, os.O_RDONLY)
    try:
        deadline = time.monotonic() + LOCK_WAIT
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise GameFileError(
                        ledger,
                        f"another modtool has been writing it for over {LOCK_WAIT:.0f} s; "
                        "try again when it has finished",
                    ) from None
                time.sleep(0.05)
        yield
    finally:
        os.close(fd)  # closing releases the lock
