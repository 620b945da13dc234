"""PNG from SVG, and the optional libraries the pictures need, each imported when first used."""

from __future__ import annotations

import importlib
from types import ModuleType

from ...errors import ModToolError

PICTURE_WIDTH = 800  # px: what a forum post shows without scaling, and what the text is sized for
# The fonts a picture asks for, first found first: Nanum Gothic (Debian's fonts-nanum, what CI
# installs) and Noto Sans CJK draw Korean and Latin names alike; DejaVu Sans is matplotlib's own.
FONTS = ("NanumGothic", "Noto Sans CJK KR", "DejaVu Sans")
EXTRA = "pip install 'modtool[pictures]'"


class PicturesMissing(ModToolError):
    "The pictures extra is not installed."


def optional(module: str) -> ModuleType:
    """Import a library of the pictures extra, or say in one line how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        top = module.split(".")[0]
        raise PicturesMissing(
            f"pictures need {top}, which the pictures extra installs: {EXTRA}"
        ) from None


def svg_to_png(svg: str, width: int = PICTURE_WIDTH) -> bytes:
    """The SVG drawn as a PNG `width` pixels wide, with the system's fonts (resvg)."""
    resvg = optional("resvg_py")
    return bytes(resvg.svg_to_bytes(svg_string=svg, width=width, background="white"))
