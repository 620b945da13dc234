"""Pictures a host posts: the town square at the start of a phase, and how a day's votes moved.

The square is an SVG made from a template (`square`); the vote chart is drawn with matplotlib
(`votes`); a PNG, what forums take as an upload, comes from resvg or matplotlib (`raster`).
matplotlib and resvg come with the optional extra: `pip install 'modtool[pictures]'`.
"""

from __future__ import annotations

from .raster import PICTURE_WIDTH, PicturesMissing, svg_to_png
from .square import GhostVote, SeatView, TownSquare, square_svg, town_square
from .votes import VoteChart, WagonLine, chart_png, chart_svg, vote_chart

__all__ = [
    "PICTURE_WIDTH",
    "GhostVote",
    "PicturesMissing",
    "SeatView",
    "TownSquare",
    "VoteChart",
    "WagonLine",
    "chart_png",
    "chart_svg",
    "square_svg",
    "svg_to_png",
    "town_square",
    "vote_chart",
]
