"""The plain-text tables modtool prints (a vote count, a schedule, a grimoire): tabulate's
"simple" format, drawn here for the common table and by tabulate for any other.

Importing tabulate cost a count of the example Mafia game a sixth of its instructions (it reads
its own version from the installed metadata and imports wcwidth's tables), more than the
counting itself. A table whose cells
are integers, None and plain ASCII text that reads as no number, which is nearly every table
modtool prints, is drawn here exactly as tabulate draws it: text columns to the left, integer
columns to the right, each column as wide as its widest cell or its header and two spaces, two
spaces between columns, no trailing spaces. Any other table (wide or non-ASCII characters,
numbers written as text, a multi-line cell, no rows) goes to tabulate itself, imported then.
"""

from __future__ import annotations

from collections.abc import Sequence

_PRINTABLE = frozenset(map(chr, range(0x20, 0x7F)))


def text_table(rows: Sequence[Sequence[object]], headers: Sequence[str]) -> str:
    """`tabulate(rows, headers=headers)`, the same text."""
    drawn = _simple(rows, headers)
    if drawn is not None:
        return drawn
    from tabulate import tabulate

    return tabulate(rows, headers=headers)


def _plain(text: str) -> bool:
    """Text tabulate would take as text and measure by its length: printable ASCII with no
    space at either end, neither a number (12, 1.5, 1e3, 1,000, inf) nor True or False."""
    if text != text.strip() or not _PRINTABLE.issuperset(text) or text in ("True", "False"):
        return False
    try:
        float(text.replace(",", ""))
    except ValueError:
        return True
    return False


def _kind(cell: object) -> str | None:
    """'int', 'text', '' (missing) or None (a cell only tabulate can draw)."""
    if cell is None or cell == "":
        return ""
    if type(cell) is int:
        return "int"
    if type(cell) is str and _plain(cell):
        return "text"
    return None


def _simple(rows: Sequence[Sequence[object]], headers: Sequence[str]) -> str | None:
    width = len(headers)
    if not rows or not width or any(len(row) != width for row in rows):
        return None
    if not all(type(h) is str and (h == "" or _plain(h)) for h in headers):
        return None
    columns = []
    for i, header in enumerate(headers):
        kinds = {_kind(row[i]) for row in rows}
        if None in kinds:
            return None
        right = kinds == {"int"} or kinds == {"int", ""}
        cells = ["" if row[i] is None else str(row[i]) for row in rows]
        size = max(len(header) + 2, *map(len, cells))
        pad = str.rjust if right else str.ljust
        columns.append([pad(header, size), "-" * size, *(pad(c, size) for c in cells)])
    return "\n".join("  ".join(line).rstrip() for line in zip(*columns, strict=True))
