"""A picture as a file: the format its name asks for, the default name beside the drafts, and a
draft's picture with the placeholder line for the host's image link."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from ...core.ledger import Game, Phase, PhaseKind
from ...errors import ModToolError
from ...threads.posts import Post
from ..drafts import Draft
from .raster import svg_to_png
from .square import square_svg, town_square
from .votes import chart_png, chart_svg, vote_chart

FORMATS = ("png", "svg")


def picture_format(path: Path) -> str:
    """The format a picture's file name asks for: .png or .svg."""
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise ModToolError(
            f"{path}: a picture is written as .png or .svg; give --out a name ending in one"
        )
    return fmt


def phase_stem(phase: Phase) -> str:
    return f"{'night' if phase.is_night else 'day'}{phase.number}"


def square_name(phase: Phase, language: str, fmt: str = "png") -> str:
    return f"{phase_stem(phase)}-square.{language}.{fmt}"


def votes_name(day: int, language: str, fmt: str = "png") -> str:
    return f"day{day}-votes.{language}.{fmt}"


def square_picture(
    game: Game, posts: Sequence[Post], phase: Phase, language: str = "en", fmt: str = "png"
) -> bytes:
    """The town square at the start of `phase`, as PNG or SVG bytes."""
    svg = square_svg(town_square(game, posts, phase, language), language)
    return svg_to_png(svg) if fmt == "png" else svg.encode("utf-8")


def votes_picture(
    game: Game, posts: Sequence[Post], day: int, language: str = "en", fmt: str = "png"
) -> bytes:
    """How Day `day`'s votes moved, as PNG or SVG bytes."""
    chart = vote_chart(game, posts, day)
    return chart_png(chart, language) if fmt == "png" else chart_svg(chart, language).encode()


PLACEHOLDER = {
    ("bbcode", "en"): "[img]link to {name} once uploaded[/img]",
    ("bbcode", "ko"): "[img]{name} 업로드 후 링크[/img]",
    ("markdown", "en"): "![{alt}](link-to-{name}-once-uploaded)",
    ("markdown", "ko"): "![{alt}]({name}-업로드-후-링크)",
}
ALT = {
    ("square", "en"): "the town square",
    ("square", "ko"): "마을 광장",
    ("votes", "en"): "how the votes moved",
    ("votes", "ko"): "투표의 흐름",
}


def placeholder(name: str, what: str, markup: str, language: str) -> str:
    """The line a draft carries where the host puts the uploaded picture's link."""
    return PLACEHOLDER[markup, language].format(name=name, alt=ALT[what, language])


def with_picture(
    game: Game,
    drafts: Sequence[Draft],
    kind: str,
    posts: Sequence[Post],
    day: int,
    language: str,
    markup: str,
) -> list[Draft]:
    """The drafts of a day-end post (the town square at the night that follows, with the day's
    execution) or a vote count (how the day's votes moved so far), each with its PNG beside it
    and a placeholder line for the image link at the post's end."""
    if kind == "dayend":
        phase = Phase(day, PhaseKind.NIGHT)
        if phase > game.current_phase():
            raise ModToolError(
                f"--picture draws the town square at the start of Night {day}, which Day {day}'s "
                f"end starts; close the day with `modtool end-day {game.folder}` first, or "
                "leave out --picture"
            )
        name, what = square_name(phase, language), "square"
        data = square_picture(game, posts, phase, language)
    elif kind == "votecount":
        name, what = votes_name(day, language), "votes"
        data = votes_picture(game, posts, day, language)
    else:
        raise ModToolError(
            f"--picture is for a day-end post or a vote count, not {kind}; leave it out"
        )
    line = placeholder(name, what, markup, language)
    posted = [replace(d, text=d.text.rstrip("\n") + f"\n\n{line}\n") for d in drafts]
    return [*posted, Draft(name, "", data)]
