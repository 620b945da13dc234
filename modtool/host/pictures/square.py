"""The town square at the start of a phase, as the public knows it: the seats in their circle,
who is dead, the ghost votes still held and spent, the player executed the day before, and the
Travellers apart. Nothing the public does not know: a dead player's role or alignment only as
`[drafts] reveal` (or the game itself) shows it at death.

`town_square` gathers the facts (asking the game for its ghost votes and Travellers);
`square_svg` lays them out and renders square.svg.j2, which only places finished values.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from enum import StrEnum
from importlib import resources

import jinja2

from ...core.checks import require_reached
from ...core.count import EXECUTED_CAUSES
from ...core.ledger import Game, Phase, PhaseKind
from ...threads.frozen import frozen
from ...threads.posts import Post
from ..drafts import death_reveal
from .raster import FONTS, PICTURE_WIDTH


class GhostVote(StrEnum):
    HELD = "held"
    SPENT = "spent"


@frozen
class SeatView:
    """One seat as the town sees it."""

    player: str  # the slot's holder now
    seat: int | None
    alive: bool
    executed: bool = False  # by the day just before the phase
    ghost_vote: GhostVote | None = None  # a dead player's, in a game that has ghost votes
    revealed_role: str | None = None  # what the death showed, in the picture's language
    revealed_team: str | None = None
    traveller: bool = False


@frozen
class TownSquare:
    title: str
    phase: Phase
    seats: tuple[SeatView, ...]  # in seat order, Travellers among them
    ghost_votes: bool  # whether the game has ghost votes to show


def death_phase(game: Game, event) -> Phase | None:
    """The phase a death happened in: its own, or the phase the ledger's days put its post in."""
    return event.phase if event.phase is not None else game.phase_at(event.at)


def executed_day(phase: Phase) -> int:
    """The day whose execution the square at the start of `phase` shows: the day that just
    ended (Night N follows Day N; Day N follows Night N-1, after Day N-1)."""
    return phase.number if phase.is_night else phase.number - 1


def town_square(
    game: Game, posts: Sequence[Post], phase: Phase, language: str = "en"
) -> TownSquare:
    """The public town square at the start of `phase` (a phase the game has reached)."""
    require_reached(game, phase)
    died: dict[str, tuple[Phase, str | None]] = {}
    for s in game.slots:  # dead before the phase, and not brought back since
        e = game.dead_before(s.key, phase)
        if e is not None:
            died[s.key] = (death_phase(game, e), e.cause)
    spent = game.variant.ghost_votes_before(game, posts, phase)
    yesterday = Phase(executed_day(phase), PhaseKind.DAY)
    seats = []
    for s in sorted(game.slots, key=lambda s: (s.seat is None, s.seat or 0)):
        death = died.get(s.key)
        ghost = None
        role = team = None
        executed = False
        if death is not None:
            at, cause = death
            executed = at == yesterday and (cause or "").casefold() in EXECUTED_CAUSES
            if spent is not None:
                ghost = GhostVote.SPENT if s.key in spent else GhostVote.HELD
            shown = death_reveal(game, s.key, cause, language)
            role, team = shown["role"], shown["team"]
        seats.append(
            SeatView(
                player=game.slot_names(s.key)[-1],
                seat=s.seat,
                alive=death is None,
                executed=executed,
                ghost_vote=ghost,
                revealed_role=role,
                revealed_team=team,
                traveller=game.variant.is_traveller(game, s.key),
            )
        )
    return TownSquare(game.title, phase, tuple(seats), spent is not None)


# --- the picture -----------------------------------------------------------------------------

WORDS = {
    "en": {
        "day": "Day {n}",
        "night": "Night {n}",
        "square": "{phase}: the town square",
        "alive": "{alive} of {players} alive",
        "ghosts": "ghost votes unspent: {held}",
        "living": "alive",
        "dead": "dead",
        "executed": "executed",
        "traveller": "Traveller",
        "travellers": "Travellers",
        "held": "ghost vote",
        "spent": "ghost vote spent",
        "good": "good",
        "evil": "evil",
    },
    "ko": {
        "day": "{n}일차 낮",
        "night": "{n}일차 밤",
        "square": "{phase}: 마을 광장",
        "alive": "{players}명 중 {alive}명 생존",
        "ghosts": "남은 유령 투표: {held}",
        "living": "생존",
        "dead": "사망",
        "executed": "처형",
        "traveller": "여행자",
        "travellers": "여행자",
        "held": "유령 투표",
        "spent": "사용한 유령 투표",
        "good": "선",
        "evil": "악",
    },
}

SIZE = PICTURE_WIDTH
TOP = 96  # the title and the line under it
RADIUS = 270  # of the circle the seats sit on
ROW = 150  # the Travellers' row under the circle
LEGEND = 70


def phase_words(phase: Phase, language: str) -> str:
    words = WORDS[language]
    return (words["night"] if phase.is_night else words["day"]).format(n=phase.number)


def seat_lines(seat: SeatView, language: str) -> tuple[str, ...]:
    """What is written under a seat's name: dead or executed, the reveal, a Traveller."""
    words = WORDS[language]
    lines = []
    if not seat.alive:
        state = words["executed"] if seat.executed else words["dead"]
        shown = seat.revealed_role or ""
        if seat.revealed_team:
            team = words.get(seat.revealed_team, seat.revealed_team)
            shown = f"{shown} ({team})" if shown else team
        lines.append(f"{state}: {shown}" if shown else state)
    if seat.traveller:
        lines.append(words["traveller"])
    return tuple(lines)


def token_size(seats: int) -> tuple[float, int]:
    """A seat's token radius and its name's font size: as large as the circle leaves room for,
    and never below what stays legible at 800 px (15 px)."""
    gap = 2 * math.pi * RADIUS / max(seats, 1)
    radius = min(46.0, gap * 0.31)
    font = 20 if seats <= 12 else 17 if seats <= 16 else 15
    return round(radius, 1), font


def text_width(text: str, font: float) -> float:
    """About how wide a line is drawn: a wide (Korean, Chinese, Japanese) character takes a
    font size, any other about 0.6 of one (Nanum Gothic and DejaVu Sans are near both)."""
    wide = sum(unicodedata.east_asian_width(c) in "WF" for c in text)
    return font * (wide + 0.6 * (len(text) - wide))


SQUEEZE = 0.75  # a name is drawn no narrower than this of its width, to stay legible


def fitted(text: str, font: float, room: float) -> tuple[str, float | None]:
    """A name as drawn in `room` pixels: as it is when it fits; squeezed (SVG textLength) by up
    to a quarter when that is enough; else cut, with an ellipsis, to what fits squeezed."""
    width = text_width(text, font)
    if width <= room:
        return text, None
    if width * SQUEEZE <= room:
        return text, round(room, 1)
    cut = text[:-1]
    while len(cut) > 1 and text_width(cut + "…", font) * SQUEEZE > room:
        cut = cut[:-1]
    return cut + "…", round(min(room, text_width(cut + "…", font)), 1)


def _token(
    seat: SeatView, x: float, y: float, r: float, font: int, language: str, room: float
) -> dict:
    lines = seat_lines(seat, language)
    shown, fit = fitted(seat.player, font, room)
    return {
        "player": seat.player,
        "shown": shown,
        "fit": fit,
        "number": "" if seat.seat is None else str(seat.seat),
        "x": round(x, 1),
        "y": round(y, 1),
        "r": r,
        "alive": seat.alive,
        "executed": seat.executed,
        "traveller": seat.traveller,
        "ghost": seat.ghost_vote.value if seat.ghost_vote else None,
        "ghost_x": round(x + r * 0.78, 1),
        "ghost_y": round(y - r * 0.78, 1),
        "ghost_r": round(max(r * 0.3, 8), 1),
        "shroud": _shroud(x, y, r),
        "name_y": round(y + r + font + 4, 1),
        "lines": [
            {"text": t, "y": round(y + r + font + 6 + (i + 1) * (font - 2), 1)}
            for i, t in enumerate(lines)
        ],
    }


def _shroud(x: float, y: float, r: float) -> str:
    """A hood over a dead seat's token: an arch over the top two thirds, its hem at the middle."""
    left, right, hem = x - r * 0.82, x + r * 0.82, y + r * 0.35
    top = y - r * 1.05
    return (
        f"M{left:.1f},{hem:.1f} Q{left:.1f},{top:.1f} {x:.1f},{top:.1f} "
        f"Q{right:.1f},{top:.1f} {right:.1f},{hem:.1f} "
        f"Q{x:.1f},{y + r * 0.1:.1f} {left:.1f},{hem:.1f} Z"
    )


def square_layout(square: TownSquare, language: str = "en") -> dict:
    """Everything square.svg.j2 places, computed: the seats round the circle clockwise from the
    top in seat order, the Travellers in a row under it, the title and the legend."""
    words = WORDS[language]
    circle = [s for s in square.seats if not s.traveller]
    travellers = [s for s in square.seats if s.traveller]
    r, font = token_size(len(circle))
    cx, cy = SIZE / 2, TOP + RADIUS + r + 10
    room = min(2 * math.pi * RADIUS / max(len(circle), 1) * 0.95, 240)  # a name's width at most
    tokens = []
    for i, seat in enumerate(circle):
        angle = -math.pi / 2 + 2 * math.pi * i / len(circle)
        x, y = cx + RADIUS * math.cos(angle), cy + RADIUS * math.sin(angle)
        tokens.append(_token(seat, x, y, r, font, language, room))
    bottom = cy + RADIUS + r + font * 4
    row_y = bottom + 40
    step = SIZE / (len(travellers) + 1)
    for i, seat in enumerate(travellers):
        tokens.append(_token(seat, step * (i + 1), row_y + r, r, font, language, step * 0.9))
    if travellers:
        bottom = row_y + 2 * r + font * 4
    alive = sum(s.alive for s in square.seats)
    subtitle = [words["alive"].format(alive=alive, players=len(square.seats))]
    if square.ghost_votes:
        held = sum(s.ghost_vote is GhostVote.HELD for s in square.seats)
        subtitle.append(words["ghosts"].format(held=held))
    legend_y = bottom + 20
    legend = [("alive", words["living"]), ("dead", words["dead"]), ("executed", words["executed"])]
    if square.ghost_votes:
        legend += [("held", words["held"]), ("spent", words["spent"])]
    spacing = (SIZE - 40) / len(legend)
    return {
        "width": SIZE,
        "height": round(legend_y + LEGEND),
        "fonts": ", ".join(f"'{f}'" for f in FONTS) + ", sans-serif",
        "title": words["square"].format(phase=phase_words(square.phase, language)),
        "game": square.title,
        "subtitle": " · ".join(subtitle),
        "circle": {"x": cx, "y": round(cy, 1), "r": RADIUS},
        "font": font,
        "small": font - 3,
        "tokens": tokens,
        "travellers": {"y": round(row_y - 8, 1), "label": words["travellers"]}
        if travellers
        else None,
        "legend": [
            {"kind": kind, "label": label, "x": round(spacing * i + 36, 1), "y": round(legend_y, 1)}
            for i, (kind, label) in enumerate(legend)
        ],
    }


_ENV = jinja2.Environment(
    loader=jinja2.FunctionLoader(
        lambda name: (resources.files(__package__) / name).read_text(encoding="utf-8")
    ),
    autoescape=True,  # a name is XML-escaped: "<b>" is drawn as written
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
)


def square_svg(square: TownSquare, language: str = "en") -> str:
    """The town square as an SVG: text kept as text, in the fonts of `raster.FONTS`."""
    return _ENV.get_template("square.svg.j2").render(square_layout(square, language))
