"""PNG from SVG, and the optional libraries the pictures need, each imported when first used."""

from __future__ import annotations

import importlib
import json
from importlib import metadata
from types import ModuleType
from urllib.parse import unquote, urlparse

from ...errors import ModToolError

PICTURE_WIDTH = 800  # px: what a forum post shows without scaling, and what the text is sized for
# The fonts a picture asks for, first found first: Nanum Gothic (Debian's fonts-nanum, what CI
# installs) and Noto Sans CJK draw Korean and Latin names alike; DejaVu Sans is matplotlib's own.
FONTS = ("NanumGothic", "Noto Sans CJK KR", "DejaVu Sans")
EXTRA = "pip install 'modtool[pictures]'"


def install_hint() -> str:
    """How to add the pictures extra to this copy: a copy installed from a folder (a clone)
    takes it from that folder, which pip's record of the install names (PEP 610)."""
    # Every copy metadata finds: run from a clone, the clone's own build record comes first.
    records = (d.read_text("direct_url.json") for d in metadata.distributions(name="modtool"))
    record = next((r for r in records if r), None)
    try:
        url = urlparse(json.loads(record)["url"]) if record else None
    except (ValueError, KeyError, TypeError):
        url = None
    if url is None or url.scheme != "file":
        return EXTRA
    return f"pip install '{unquote(url.path)}[pictures]'"


class PicturesMissing(ModToolError):
    "The pictures extra is not installed."


def optional(module: str) -> ModuleType:
    """Import a library of the pictures extra, or say in one line how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        top = module.split(".")[0]
        raise PicturesMissing(
            f"pictures need {top}, which the pictures extra installs: {install_hint()}"
        ) from None


def svg_to_png(svg: str, width: int = PICTURE_WIDTH) -> bytes:
    """The SVG drawn as a PNG `width` pixels wide, with the system's fonts (resvg)."""
    resvg = optional("resvg_py")
    return bytes(resvg.svg_to_bytes(svg_string=svg, width=width, background="white"))
