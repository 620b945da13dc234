"""How a day's votes moved: each wagon's votes over the day's posts, for the wagons that ever
reached two votes, the votes an execution needed (a line that steps when a death lowers it),
and the hammer or the day's end marked; the final count in the legend.

`vote_chart` takes the chart's data from the count (`DayCount.steps`, the wagons after every
action); `chart_svg` and `chart_png` draw it with matplotlib, imported when first drawn.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import datetime

from ...core.checks import require_reached
from ...core.count import count_days
from ...core.ledger import Game, Phase, PhaseKind
from ...core.results import OutcomeKind
from ...core.rules import Rule
from ...threads.frozen import frozen
from ...threads.posts import Post
from .raster import FONTS, PICTURE_WIDTH, optional
from .square import phase_words

SHOWN_FROM = 2  # a wagon is drawn once it has reached this many votes
DPI = 100


@frozen
class WagonLine:
    target: str
    points: tuple[tuple[int, int], ...]  # (post, votes after it), from the day's first post
    final: int  # votes at the end of the count


@frozen
class VoteChart:
    day: int
    start: int  # the day's first post
    end: int  # the post the chart ends at: the hammer, the day's last post, or the latest
    ending: str  # "hammer", "end" (the deadline or the host ended the day) or "now"
    executed: str | None
    lines: tuple[WagonLine, ...]  # biggest final count first
    threshold: tuple[tuple[int, int], ...]  # (post, votes needed from it); none under plurality
    times: tuple[tuple[int, datetime], ...]  # (post, when it was posted) of the day's posts


def vote_chart(game: Game, posts: Sequence[Post], day: int) -> VoteChart:
    """The chart's data for Day `day` (a day the game has reached)."""
    require_reached(game, Phase(day, PhaseKind.DAY))
    (count,) = count_days(game, posts, [day])
    steps = [s for s in count.steps if s.post is not None]
    window = next(w for w in game.days() if w.day == day)
    first = window.start.post if window.start.post is not None else None
    if first is None:
        first = steps[0].post if steps else (count.last_post or 0)
    outcome = count.outcome
    if outcome.kind is OutcomeKind.PENDING:
        end, ending = count.last_post or first, "now"
    else:
        end = outcome.post if outcome.post is not None else (count.last_post or first)
        ending = "hammer" if outcome.rule is Rule.HAMMER else "end"
    finals = {w.target: w.votes for w in count.wagons}
    reached = [
        name
        for name in dict.fromkeys(n for s in steps for n, _ in s.totals)
        if max(dict(s.totals).get(name, 0) for s in steps) >= SHOWN_FROM
    ]
    lines = []
    for name in reached:
        points = [(first, 0)]
        for s in steps:
            votes = dict(s.totals).get(name, 0)
            if votes != points[-1][1]:
                points.append((s.post, votes))
        lines.append(WagonLine(name, tuple(points), finals.get(name, 0)))
    lines.sort(key=lambda w: (-w.final, w.target.casefold()))
    threshold = [(first, steps[0].needed if steps else count.threshold)]
    for s in steps:
        if s.needed != threshold[-1][1]:
            threshold.append((s.post, s.needed))
    times = tuple(
        (p.number, p.time.astimezone(game.timezone))
        for p in posts
        if p.number is not None and p.time is not None and first <= p.number <= end
    )
    executed = outcome.player if outcome.kind is OutcomeKind.EXECUTION else None
    if count.most_votes_win:
        threshold = []  # the most votes win when the day ends: no number needed, no line
    return VoteChart(day, first, end, ending, executed, tuple(lines), tuple(threshold), times)


# --- drawing ---------------------------------------------------------------------------------

WORDS = {
    "en": {
        "title": "{phase}: how the votes moved",
        "votes": "votes",
        "post": "post (time)",
        "needed": "votes to execute",
        "final": "{target}: {votes}",
        "hammer": "hammer: {player}",
        "executed": "executed at the day's end: {player}",
        "end": "day ends",
        "now": "latest post",
        "none": "no wagon reached {n} votes",
    },
    "ko": {
        "title": "{phase}: 투표의 흐름",
        "votes": "표",
        "post": "글 번호 (시각)",
        "needed": "처형에 필요한 표",
        "final": "{target}: {votes}표",
        "hammer": "처형 확정: {player}",
        "executed": "낮 종료 후 처형: {player}",
        "end": "낮 종료",
        "now": "최신 글",
        "none": "{n}표에 이른 후보가 없습니다",
    },
}
COLOURS = ("#b3261e", "#1f5fa8", "#2e7d32", "#8e44ad", "#e07b00", "#00838f", "#6d4c41")


def _figure(chart: VoteChart, language: str):
    """The chart as a matplotlib Figure (no pyplot: nothing global is kept between charts)."""
    figure_module = optional("matplotlib.figure")
    ticker = optional("matplotlib.ticker")
    words = WORDS[language]
    fig = figure_module.Figure(figsize=(PICTURE_WIDTH / DPI, 5.2), dpi=DPI, layout="constrained")
    ax = fig.add_subplot()
    right = max(chart.end, chart.start + 1)
    for i, line in enumerate(chart.lines):
        xs = [p for p, _ in line.points] + [right]
        ys = [v for _, v in line.points] + [line.points[-1][1]]
        label = words["final"].format(target=line.target, votes=line.final)
        ax.step(xs, ys, where="post", lw=2.5, color=COLOURS[i % len(COLOURS)], label=label)
    if chart.threshold:
        xs = [p for p, _ in chart.threshold] + [right]
        ys = [n for _, n in chart.threshold] + [chart.threshold[-1][1]]
        ax.step(xs, ys, where="post", lw=1.5, ls="--", color="#555555", label=words["needed"])
    if chart.ending == "hammer":
        mark = words["hammer"].format(player=chart.executed)
    elif chart.ending == "end" and chart.executed:
        mark = words["executed"].format(player=chart.executed)
    else:
        mark = words[chart.ending]
    ax.axvline(chart.end, color="#333333", ls=":", lw=1.5)
    ax.annotate(
        f"{mark} (#{chart.end})",
        (chart.end, 1),
        xycoords=("data", "axes fraction"),
        xytext=(-4, -4),
        textcoords="offset points",
        ha="right",
        va="top",
        fontsize=11,
    )
    if not chart.lines:
        ax.text(0.5, 0.5, words["none"].format(n=SHOWN_FROM), transform=ax.transAxes, ha="center")
    times = dict(chart.times)

    def tick(value, _pos) -> str:
        post = round(value)
        when = times.get(post)
        return f"{post}\n{when:%H:%M}" if when else str(post)

    ax.xaxis.set_major_locator(ticker.MaxNLocator(nbins=8, integer=True))
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(tick))
    ax.yaxis.set_major_locator(ticker.MaxNLocator(integer=True))
    top = max([n for _, n in chart.threshold] + [v for w in chart.lines for _, v in w.points] + [1])
    ax.set_ylim(0, top + 1)
    ax.set_xlim(chart.start, right)
    ax.set_xlabel(words["post"], fontsize=12)
    ax.set_ylabel(words["votes"], fontsize=12)
    ax.set_title(
        words["title"].format(phase=phase_words(Phase(chart.day, PhaseKind.DAY), language)),
        fontsize=16,
    )
    ax.grid(axis="y", color="#e0e0e0")
    ax.legend(loc="upper left", fontsize=12, frameon=True)
    return fig


def _saved(chart: VoteChart, language: str, fmt: str) -> bytes:
    matplotlib = optional("matplotlib")
    installed = {f.name for f in optional("matplotlib.font_manager").fontManager.ttflist}
    settings = {
        # the fonts found, first found first (matplotlib falls back glyph by glyph along them)
        "font.family": [f for f in FONTS if f in installed] or ["sans-serif"],
        "font.size": 12,
        "svg.fonttype": "none",  # text stays text in the SVG
        "svg.hashsalt": "modtool",  # the same ids every run
    }
    with matplotlib.rc_context(settings):
        fig = _figure(chart, language)
        out = io.BytesIO()
        metadata = {"Date": None} if fmt == "svg" else {"Software": None}
        fig.savefig(out, format=fmt, dpi=DPI, metadata=metadata, facecolor="white")
    return out.getvalue()


def chart_svg(chart: VoteChart, language: str = "en") -> str:
    """The chart as an SVG, its text kept as text."""
    return _saved(chart, language, "svg").decode("utf-8")


def chart_png(chart: VoteChart, language: str = "en") -> bytes:
    """The chart as a PNG 800 px wide."""
    return _saved(chart, language, "png")
