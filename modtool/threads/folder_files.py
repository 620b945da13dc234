"""A game folder's own files, read and written only inside the folder.

Hosts share game folders, so what a folder holds is data, never a pointer elsewhere: a file
modtool reads or writes in it, and every folder between it and the game folder, must not be a
symbolic link, and a file must be a regular file (not a FIFO, a device or a socket, which
could hang a read or never end). Each check is one line naming the entry and the fix.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..errors import GameFileError

_WHERE = "modtool reads and writes only inside the game folder"


def _named(path: Path, folder: Path) -> str:
    try:
        return str(path.relative_to(folder))
    except ValueError:
        return str(path)


def check_inside(folder: Path, path: Path, kind: str = "file") -> Path:
    """`path` (folder / something) as it may be read or written: no part of it below `folder`
    is a symbolic link, and what exists of it is a regular file (`kind` "file") or a folder
    (`kind` "folder"). A missing last part is fine (a file about to be created). Raises
    GameFileError in one line otherwise."""
    folder, path = Path(folder), Path(path)
    try:
        parts = path.relative_to(folder).parts
    except ValueError:
        raise GameFileError(path, f"is outside the game folder; {_WHERE}") from None
    if ".." in parts:
        raise GameFileError(path, f"is outside the game folder; {_WHERE}")
    here = folder
    for i, part in enumerate(parts):
        here = here / part
        last = i == len(parts) - 1
        try:
            st = os.lstat(here)
        except FileNotFoundError:
            return path  # not there yet: nothing below it either
        except OSError as exc:
            raise GameFileError(here, f"cannot be read ({exc.strerror})") from None
        name = _named(here, folder)
        want = kind if last else "folder"
        if stat.S_ISLNK(st.st_mode):
            raise GameFileError(
                here, f"is a symbolic link; {_WHERE}: make {name} a {want}, not a link"
            )
        if want == "folder" and not stat.S_ISDIR(st.st_mode):
            raise GameFileError(here, f"is not a folder; make {name} a folder")
        if want == "file" and not stat.S_ISREG(st.st_mode):
            raise GameFileError(
                here,
                f"is not a regular file (a FIFO, a device or a folder); make {name} a plain file",
            )
    return path


def regular_file(path: Path) -> Path:
    """`path` as a regular file: not a symbolic link, a FIFO or a device (an entry of a
    source folder, which is the folder's own file wherever the folder is)."""
    try:
        st = os.lstat(path)
    except OSError:
        return path
    if stat.S_ISLNK(st.st_mode):
        raise GameFileError(
            path,
            "is a symbolic link; modtool reads only a folder's own files: put the file "
            "itself in place of the link",
        )
    if not stat.S_ISREG(st.st_mode):
        raise GameFileError(
            path, "is not a regular file (a FIFO, a device or a folder); give a plain file"
        )
    return path


def read_folder_bytes(folder: Path, path: Path) -> bytes:
    """The bytes of a game folder's own file, checked as in `check_inside`, opened without
    following a link and without waiting on a FIFO."""
    check_inside(folder, path)
    return read_regular(path)


def read_folder_text(folder: Path, path: Path) -> str:
    """A game folder's own UTF-8 text file (see read_folder_bytes); UnicodeDecodeError as
    bytes.decode raises it."""
    return read_folder_bytes(folder, path).decode("utf-8")


def read_regular(path: Path) -> bytes:
    """The bytes of a regular file, opened with O_NOFOLLOW and O_NONBLOCK (a FIFO swapped in
    cannot hang it), refused unless what was opened is a regular file."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise GameFileError(path, f"cannot be read ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise GameFileError(path, "is not a regular file; make it a plain file")
        return fh.read()
