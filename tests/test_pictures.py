"""The pictures a host posts (`modtool picture`, `draft --picture`), looked at as a person would:
golden SVGs of the example games' town squares, and PNGs rendered and read back (their size,
every player's name drawn, a dead seat unlike a living one), compared by regions, not pixels."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import sys
from dataclasses import replace

import pytest
from PIL import Image, ImageChops, ImageStat
from typer.testing import CliRunner

from modtool.cli import app
from modtool.core.count import count_days
from modtool.core.ledger import Phase, PhaseKind
from modtool.core.variant import Variant
from modtool.errors import ModToolError
from modtool.games import load_game
from modtool.host.pictures import (
    PICTURE_WIDTH,
    GhostVote,
    PicturesMissing,
    SeatView,
    TownSquare,
    chart_png,
    chart_svg,
    raster,
    square_svg,
    svg_to_png,
    town_square,
    vote_chart,
)
from modtool.host.pictures.files import picture_format, placeholder
from modtool.host.pictures.raster import FONTS, install_hint
from modtool.host.pictures.square import (
    SQUEEZE,
    executed_day,
    fitted,
    seat_lines,
    square_layout,
    text_width,
    token_size,
)
from modtool.threads.sources import read_game_posts

from .conftest import EXAMPLE, ROOT

GOLDEN = ROOT / "tests" / "golden" / "pictures"
GAMES = ROOT / "games"
runner = CliRunner()

D = PhaseKind.DAY
N = PhaseKind.NIGHT


def _game(name: str = "example-botc"):
    game = load_game(GAMES / name)
    return game, read_game_posts(game)


def _png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("L")


# --- the facts of the square ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("phase", "day"), [(Phase(1, D), 0), (Phase(1, N), 1), (Phase(2, D), 1), (Phase(0, N), 0)]
)
def test_the_square_shows_the_execution_of_the_day_just_ended(phase, day):
    assert executed_day(phase) == day


def test_the_clocktower_square_after_a_day_with_a_death_and_spent_ghost_votes():
    game, posts = _game()
    square = town_square(game, posts, Phase(3, N))
    seats = {s.player: s for s in square.seats}
    assert square.ghost_votes
    assert [s.seat for s in square.seats] == list(range(1, 11))  # seat order
    assert seats["wylted"].executed and not seats["wylted"].alive
    assert seats["Kohai"].ghost_vote is GhostVote.SPENT  # spent on Day 3
    assert seats["Magoroth"].ghost_vote is GhostVote.SPENT
    assert seats["awesome5000"].ghost_vote is GhostVote.HELD
    assert seats["Kohai"].executed is False  # executed on Day 1, not the day just ended
    assert all(s.ghost_vote is None for s in square.seats if s.alive)
    assert {s.player for s in square.seats if not s.alive} == {
        "awesome5000",
        "Kohai",
        "Magoroth",
        "wylted",
    }


def test_before_the_first_day_everyone_is_alive_and_nobody_was_executed():
    game, posts = _game()
    square = town_square(game, posts, Phase(1, D))
    assert all(s.alive and not s.executed for s in square.seats)


@pytest.mark.parametrize("name", ["example-mafia", "example-vampires"])
def test_mafia_and_vampires_give_the_same_circle_without_ghost_votes(name):
    game, posts = _game(name)
    square = town_square(game, posts, Phase(2, D))
    assert not square.ghost_votes
    assert all(s.ghost_vote is None for s in square.seats)
    assert sum(not s.alive for s in square.seats) == 2
    assert [s.executed for s in square.seats].count(True) == 1
    assert "ghost" not in square_svg(square)


def test_a_phase_the_game_has_not_reached_is_refused():
    game, posts = _game()
    with pytest.raises(ModToolError, match="Day 9"):
        town_square(game, posts, Phase(9, D))


def _with_reveal(tmp_path, reveal: str):
    folder = tmp_path / "game"
    shutil.copytree(EXAMPLE, folder)
    toml = folder / "game.toml"
    toml.write_text(toml.read_text() + f'\n[drafts]\nreveal = "{reveal}"\n')
    game = load_game(folder)
    return game, read_game_posts(game)


def test_no_character_is_shown_unless_the_game_reveals_deaths(tmp_path):
    game, posts = _game()
    svg = square_svg(town_square(game, posts, Phase(3, N)))
    names = {game.variant.role_name(s.role) for s in game.slots}
    assert not [n for n in names if n in svg]
    assert "evil" not in svg and "good" not in svg


def test_a_death_shows_its_character_when_reveal_says_so(tmp_path):
    game, posts = _with_reveal(tmp_path, "role")
    square = town_square(game, posts, Phase(3, N))
    wylted = next(s for s in square.seats if s.player == "wylted")
    assert (wylted.revealed_role, wylted.revealed_team) == ("Baron", "evil")
    assert seat_lines(wylted, "en") == ("executed: Baron (evil)",)
    assert seat_lines(wylted, "ko") == ("처형: Baron (악)",)
    living = [s for s in square.seats if s.alive]
    assert all(s.revealed_role is None for s in living)  # the living keep their secrets


def test_an_alignment_reveal_shows_the_team_only(tmp_path):
    game, posts = _with_reveal(tmp_path, "alignment")
    square = town_square(game, posts, Phase(3, N))
    kohai = next(s for s in square.seats if s.player == "Kohai")
    assert seat_lines(kohai, "en") == ("dead: good",)


def _with_a_traveller(tmp_path):
    """The example game on a script file with the Beggar, a Traveller, in seat 10."""
    folder = tmp_path / "game"
    shutil.copytree(EXAMPLE, folder)
    script = list(load_game(EXAMPLE).variant.role_ids())
    (folder / "script.json").write_text(
        json.dumps([{"id": "_meta", "name": "TB"}, *script, "beggar"])
    )
    toml = folder / "game.toml"
    text = toml.read_text().replace('script = "trouble-brewing-forum"', 'script = "script.json"')
    toml.write_text(text.replace('seat = 10\nrole = "Baron"', 'seat = 10\nrole = "Beggar"'))
    game = load_game(folder)
    return game, read_game_posts(game)


def test_travellers_sit_apart_under_the_circle(tmp_path):
    game, posts = _game()
    assert not any(game.variant.is_traveller(game, s.key) for s in game.slots)
    game, posts = _with_a_traveller(tmp_path)
    square = town_square(game, posts, Phase(2, D))
    assert [s.player for s in square.seats if s.traveller] == ["wylted"]
    layout = square_layout(square)
    traveller = next(t for t in layout["tokens"] if t["traveller"])
    circle = [t for t in layout["tokens"] if not t["traveller"]]
    assert traveller["y"] > max(t["y"] for t in circle) + traveller["r"]  # under the circle
    assert "Traveller" in [line["text"] for line in traveller["lines"]]
    assert layout["travellers"]["label"] == "Travellers"


def test_a_game_without_travellers_asks_its_own_hook():
    class Travelling(Variant):
        def is_traveller(self, game, slot):
            return slot == "Aster"

    game, posts = _game("example-mafia")
    square = town_square(replace(game, variant=Travelling()), posts, Phase(1, D))
    assert [s.player for s in square.seats if s.traveller] == ["Aster"]


@pytest.mark.parametrize(
    ("name", "shown", "squeezed"),
    [
        ("awesome5000", "awesome5000", False),  # fits as it is
        ("Neros_the_Great_X", "Neros_the_Great_X", True),  # fits squeezed by under a quarter
        ("TheExtremelyLongForumUserName_2026", "TheExtremelyLong…", True),  # cut, then squeezed
        ("아주아주긴한국어이름입니다", "아주아주긴한국어이름…", True),
    ],
)
def test_a_long_name_is_squeezed_then_cut_to_its_room(name, shown, squeezed):
    text, fit = fitted(name, 20, 161.2)
    assert text == shown
    assert (fit is not None) == squeezed
    if fit is not None:
        assert fit <= 161.2 and fit >= text_width(text, 20) * SQUEEZE


@pytest.mark.parametrize(("seats", "font"), [(5, 20), (10, 20), (15, 17), (20, 15)])
def test_names_stay_legible_however_many_seats(seats, font):
    radius, size = token_size(seats)
    assert size == font and size >= 15
    assert 2 * radius < 2 * 3.1416 * 270 / seats  # tokens never overlap


# --- golden SVGs ----------------------------------------------------------------------------------

# (golden file, game, phase, language)
SQUARES = [
    ("example-botc.night3.en.svg", "example-botc", Phase(3, N), "en"),
    ("example-botc.night3.ko.svg", "example-botc", Phase(3, N), "ko"),
    ("example-botc.day2.en.svg", "example-botc", Phase(2, D), "en"),
    ("example-mafia.day2.en.svg", "example-mafia", Phase(2, D), "en"),
    ("example-vampires.day2.ko.svg", "example-vampires", Phase(2, D), "ko"),
]


@pytest.mark.parametrize(("name", "folder", "phase", "lang"), SQUARES)
def test_squares_match_golden(name, folder, phase, lang):
    game, posts = _game(folder)
    svg = square_svg(town_square(game, posts, phase, lang), lang)
    golden = GOLDEN / name
    if os.environ.get("MODTOOL_UPDATE_GOLDEN"):
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(svg)
    assert svg == golden.read_text()


def test_the_svg_keeps_every_name_as_text_and_escapes_it():
    game, posts = _game()
    square = town_square(game, posts, Phase(3, N))
    hostile = replace(square, seats=(replace(square.seats[0], player="<b>&Bo</b>"),))
    svg = square_svg(hostile)
    assert "&lt;b&gt;&amp;Bo&lt;/b&gt;" in svg and "<b>" not in svg
    names = re.findall(r'<text class="name"[^>]*>([^<]*)</text>', square_svg(square))
    assert names == [s.player for s in square.seats]
    long = replace(square.seats[0], player="TheExtremelyLongForumUserName_2026")
    svg = square_svg(replace(square, seats=(long, *square.seats[1:])))
    assert "<title>TheExtremelyLongForumUserName_2026</title>" in svg  # the whole name is kept
    assert 'lengthAdjust="spacingAndGlyphs">TheExtremelyLong…</text>' in svg


# --- PNGs read back ---------------------------------------------------------------------------


def _name_box(layout: dict, i: int) -> tuple[int, int, int, int]:
    """Where seat i's name is written, in the PNG's pixels (the SVG is drawn at its own size)."""
    t = layout["tokens"][i]
    half = layout["font"] * max(len(t["player"]), 2) * 0.35
    y = t["name_y"]
    return (int(t["x"] - half), int(y - layout["font"]), int(t["x"] + half), int(y + 5))


def _ink(image: Image.Image, box) -> float:
    """How much is drawn in a box: the spread of its grey levels (a blank box has none)."""
    return ImageStat.Stat(image.crop(box)).stddev[0]


def _differs(a: Image.Image, b: Image.Image, box) -> float:
    return ImageStat.Stat(ImageChops.difference(a.crop(box), b.crop(box))).mean[0]


@pytest.mark.parametrize("folder", ["example-botc", "example-mafia", "example-vampires"])
def test_every_name_is_drawn_in_the_png(folder):
    game, posts = _game(folder)
    square = town_square(game, posts, game.current_phase())
    layout = square_layout(square)
    full = _png(svg_to_png(square_svg(square)))
    assert full.size == (PICTURE_WIDTH, layout["height"])
    for i, seat in enumerate(square.seats):
        blank = replace(
            square, seats=tuple(replace(s, player="") if s is seat else s for s in square.seats)
        )
        without = _png(svg_to_png(square_svg(blank)))
        box = _name_box(layout, i)
        assert _differs(full, without, box) > 2, f"{seat.player}'s name is not drawn"


def test_a_korean_font_the_pictures_ask_for_is_installed():
    """CI installs Debian's fonts-nanum (.ci/run); a machine without it draws Korean as boxes."""
    from matplotlib import font_manager

    installed = {f.name for f in font_manager.fontManager.ttflist}
    korean = [f for f in FONTS if f in installed and f != "DejaVu Sans"]
    assert korean, "no Korean font: apt-get install fonts-nanum (see docs/pictures.md)"


def test_korean_names_are_drawn_in_a_korean_font():
    """Two different Korean names look different (a missing font draws both as the same boxes)."""
    game, posts = _game()
    square = town_square(game, posts, Phase(3, N))
    seats = list(square.seats)
    pictures = []
    for name in ("가나다라", "마바사아"):
        seats[1] = replace(seats[1], player=name)
        pictures.append(_png(svg_to_png(square_svg(replace(square, seats=tuple(seats)), "ko"))))
    box = _name_box(square_layout(replace(square, seats=tuple(seats)), "ko"), 1)
    assert _ink(pictures[0], box) > 20 and _ink(pictures[1], box) > 20
    assert _differs(pictures[0], pictures[1], box) > 2


def test_a_dead_seat_differs_from_a_living_one():
    game, posts = _game()
    square = town_square(game, posts, Phase(3, N))
    layout = square_layout(square)
    image = _png(svg_to_png(square_svg(square)))

    def token(i: int) -> float:
        t = layout["tokens"][i]
        r = t["r"] * 0.6
        return ImageStat.Stat(image.crop((t["x"] - r, t["y"] - r, t["x"] + r, t["y"] + r))).mean[0]

    alive = [token(i) for i, s in enumerate(square.seats) if s.alive]
    dead = [token(i) for i, s in enumerate(square.seats) if not s.alive]
    assert min(alive) - max(dead) > 80  # a shrouded seat is far darker than any living one


def test_a_spent_ghost_vote_differs_from_one_held():
    game, posts = _game()
    square = town_square(game, posts, Phase(3, N))
    kohai = next(i for i, s in enumerate(square.seats) if s.player == "Kohai")
    held = replace(
        square,
        seats=tuple(
            replace(s, ghost_vote=GhostVote.HELD) if i == kohai else s
            for i, s in enumerate(square.seats)
        ),
    )
    t = square_layout(square)["tokens"][kohai]
    r = t["ghost_r"]
    box = (
        int(t["ghost_x"] - r),
        int(t["ghost_y"] - r),
        int(t["ghost_x"] + r),
        int(t["ghost_y"] + r),
    )
    spent_png, held_png = _png(svg_to_png(square_svg(square))), _png(svg_to_png(square_svg(held)))
    assert _differs(spent_png, held_png, box) > 20


# --- how the votes moved --------------------------------------------------------------------------


def test_each_wagons_votes_over_the_day_from_the_count():
    game, posts = _game()
    chart = vote_chart(game, posts, 3)
    lines = {w.target: w for w in chart.lines}
    assert set(lines) == {"wylted", "Neros"}  # the wagons that reached two votes
    assert lines["wylted"].points[0] == (27, 0)  # from the day's first post
    assert [v for _, v in lines["wylted"].points] == [0, 1, 2, 3, 4, 5]
    assert (lines["wylted"].final, lines["Neros"].final) == (5, 2)
    assert chart.ending == "end" and chart.executed == "wylted" and chart.end == 36
    assert chart.threshold == ((27, 4),)


def test_a_hammer_ends_the_chart_at_its_post():
    game, posts = _game("example-mafia")
    (count,) = count_days(game, posts, [1])
    chart = vote_chart(game, posts, 1)
    assert count.outcome.rule == "hammer"
    assert (chart.ending, chart.end, chart.executed) == ("hammer", count.outcome.post, "Aster")
    top = chart.lines[0]
    assert top.target == "Aster" and top.points[-1][1] == count.outcome.votes


@pytest.mark.parametrize("folder", ["example-botc", "example-mafia", "example-vampires"])
def test_the_last_step_of_every_day_is_the_count(folder):
    """The steps the chart draws end where the count does, day by day."""
    game, posts = _game(folder)
    for count in count_days(game, posts):
        final = {w.target: w.votes for w in count.wagons if w.votes}
        assert count.steps, f"Day {count.day} has votes"
        assert dict(count.steps[-1].totals) == final, f"Day {count.day}"
        assert count.steps[-1].needed == count.threshold


def test_deaths_during_the_day_move_the_threshold(tmp_path):
    folder = tmp_path / "game"
    shutil.copytree(GAMES / "example-mafia", folder)
    with open(folder / "events.jsonl", "a") as fh:  # two modkills: 7 alive, then 5
        for player in ("Dahlia", "Elmwood"):
            fh.write(
                f'{{"kind": "death", "player": "{player}", "post": 3, "cause": "modkilled"}}\n'
            )
    game = load_game(folder)
    chart = vote_chart(game, read_game_posts(game), 1)
    assert chart.threshold[0] == (0, 4)  # a majority of 7
    assert chart.threshold[-1] == (3, 3)  # of 5, from the post the deaths are at


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_chart_png_and_svg(lang):
    game, posts = _game()
    chart = vote_chart(game, posts, 3)
    image = _png(chart_png(chart, lang))
    assert image.size[0] == PICTURE_WIDTH
    svg = chart_svg(chart, lang)
    legend = {"en": ["wylted: 5", "Neros: 2"], "ko": ["wylted: 5표", "Neros: 2표"]}[lang]
    for text in legend:
        assert text in svg  # text kept as text: the final count in the legend
    assert chart_svg(chart, lang) == svg  # the same chart, the same SVG


# --- files and the command line ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "fmt"), [("a.png", "png"), ("b.SVG", "svg"), ("c.gif", None), ("d", None)]
)
def test_the_file_name_says_the_format(tmp_path, name, fmt):
    if fmt is None:
        with pytest.raises(ModToolError, match="written as .png or .svg"):
            picture_format(tmp_path / name)
    else:
        assert picture_format(tmp_path / name) == fmt


def test_cli_picture_square_and_votes(tmp_path):
    out = tmp_path / "square.png"
    result = runner.invoke(
        app, ["picture", "square", str(EXAMPLE), "--night", "3", "--out", str(out), "--offline"]
    )
    assert result.exit_code == 0, result.output
    assert result.output == f"Wrote {out}\n"
    assert _png(out.read_bytes()).size[0] == PICTURE_WIDTH
    svg = tmp_path / "votes.svg"
    result = runner.invoke(
        app, ["picture", "votes", str(EXAMPLE), "--day", "3", "--lang", "ko", "--out", str(svg)]
    )
    assert result.exit_code == 0, result.output
    assert "투표의 흐름" in svg.read_text()
    as_json = runner.invoke(app, ["picture", "votes", str(EXAMPLE), "--out", str(svg), "--json"])
    assert as_json.exit_code == 0, as_json.output
    assert json.loads(as_json.stdout) == {"path": str(svg), "format": "svg"}


def test_cli_refuses_both_phases_and_a_bad_format(tmp_path):
    both = runner.invoke(app, ["picture", "square", str(EXAMPLE), "--day", "2", "--night", "2"])
    assert both.exit_code == 2 and "give --night or --day, not both" in both.output
    gif = tmp_path / "a.gif"
    bad = runner.invoke(app, ["picture", "votes", str(EXAMPLE), "--out", str(gif)])
    assert bad.exit_code == 1 and not gif.exists()
    assert bad.output.strip().splitlines()[-1].startswith("Error: ")


@pytest.mark.parametrize("hidden", ["resvg_py", "matplotlib"])
def test_without_the_extra_one_line_names_it(tmp_path, monkeypatch, hidden):
    for module in [m for m in sys.modules if m == hidden or m.startswith(f"{hidden}.")]:
        monkeypatch.delitem(sys.modules, module)
    monkeypatch.setitem(sys.modules, hidden, None)  # `import` now fails as if not installed
    command = "square" if hidden == "resvg_py" else "votes"
    out = tmp_path / "p.png"
    result = runner.invoke(app, ["picture", command, str(EXAMPLE), "--out", str(out)])
    assert result.exit_code == 1
    assert result.output == (
        f"Error: pictures need {hidden}, which the pictures extra installs: {install_hint()}\n"
    )
    assert install_hint().startswith("pip install '") and install_hint().endswith("[pictures]'")
    assert not out.exists()
    with pytest.raises(PicturesMissing):
        svg_to_png("<svg/>") if hidden == "resvg_py" else chart_png(vote_chart(*_game(), 3))


class _Copy:
    def __init__(self, record):
        self.record = record

    def read_text(self, name):
        return self.record if name == "direct_url.json" else None


@pytest.mark.parametrize(
    ("records", "hint"),
    [
        ([], "pip install 'modtool[pictures]'"),  # not installed by pip: the package's name
        ([None], "pip install 'modtool[pictures]'"),  # from an index: no record of a source
        (['{"url": "https://example.org/modtool-0.1.tar.gz", "archive_info": {}}'], None),
        (
            [None, '{"url": "file:///opt/my%20clone", "dir_info": {"editable": true}}'],
            "/opt/my clone",
        ),
        (['{"url": "file:///srv/modtool"}', '{"url": "file:///other"}'], "/srv/modtool"),
        (["not json"], None),
    ],
)
def test_the_install_hint_names_the_folder_a_copy_came_from(monkeypatch, records, hint):
    copies = [_Copy(r) for r in records]
    monkeypatch.setattr(raster.metadata, "distributions", lambda name: iter(copies))
    if hint is None or hint.startswith("pip"):
        assert install_hint() == (hint or "pip install 'modtool[pictures]'")
    else:
        assert install_hint() == f"pip install '{hint}[pictures]'"


def test_the_square_svg_needs_no_extra(monkeypatch, tmp_path):
    for hidden in ("resvg_py", "matplotlib"):
        monkeypatch.setitem(sys.modules, hidden, None)
    out = tmp_path / "s.svg"
    result = runner.invoke(app, ["picture", "square", str(EXAMPLE), "--out", str(out)])
    assert result.exit_code == 0 and out.read_text().startswith("<svg")


@pytest.mark.parametrize(
    ("kind", "picture", "markup", "lang", "line"),
    [
        ("dayend", "night3-square.en.png", "bbcode", "en",
         "[img]link to night3-square.en.png once uploaded[/img]"),
        ("votecount", "day3-votes.ko.png", "markdown", "ko",
         "![투표의 흐름](day3-votes.ko.png-업로드-후-링크)"),
    ],
)  # fmt: skip
def test_draft_picture_writes_the_png_beside_the_draft(tmp_path, kind, picture, markup, lang, line):
    folder = tmp_path / "game"
    shutil.copytree(EXAMPLE, folder)
    args = ["draft", kind, str(folder), "--day", "3", "--picture", "--offline"]
    result = runner.invoke(app, [*args, "--format", markup, "--lang", lang])
    assert result.exit_code == 0, result.output
    ext = "bbcode" if markup == "bbcode" else "md"
    post = (folder / "drafts" / f"day3-{kind}.{lang}.{ext}").read_text()
    assert post.rstrip("\n").endswith(line)
    assert line == placeholder(picture, "square" if kind == "dayend" else "votes", markup, lang)
    assert _png((folder / "drafts" / picture).read_bytes()).size[0] == PICTURE_WIDTH


def test_draft_picture_is_refused_where_it_has_no_meaning(tmp_path):
    folder = tmp_path / "game"
    shutil.copytree(EXAMPLE, folder)
    pms = runner.invoke(app, ["draft", "rolepms", str(folder), "--picture"])
    assert pms.exit_code == 1 and "--picture is for a day-end post or a vote count" in pms.output
    out = runner.invoke(app, ["draft", "votecount", str(folder), "--picture", "--stdout"])
    assert out.exit_code == 2 and "leave out --stdout" in out.output
    preview = runner.invoke(app, ["draft", "dayend", str(folder), "--preview", "--picture"])
    assert preview.exit_code == 1
    assert "--picture draws the town square at the start of Night 4" in preview.output
    assert not (folder / "drafts").exists()


def test_a_seat_view_is_all_the_square_knows():
    """The square is made of public facts only: no field holds a living player's role."""
    fields = set(SeatView.__dataclass_fields__)
    assert fields == {
        "player",
        "seat",
        "alive",
        "executed",
        "ghost_vote",
        "revealed_role",
        "revealed_team",
        "traveller",
    }
    assert set(TownSquare.__dataclass_fields__) == {"title", "phase", "seats", "ghost_votes"}


def test_the_docs_show_a_picture_of_each_game_kind():
    text = (ROOT / "docs" / "pictures.md").read_text()
    shown = re.findall(r"!\[[^\]]+\]\((pictures/[^)]+\.png)\)", text)
    for kind in ("clocktower", "mafia", "vampires"):
        assert any(kind in p for p in shown), kind
    for lang in ("en", "ko"):  # the example Clocktower game's two pictures in both languages
        for picture in ("night3-square", "day3-votes"):
            assert f"pictures/clocktower-{picture}.{lang}.png" in shown
    for path in shown:
        assert _png((ROOT / "docs" / path).read_bytes()).size[0] == PICTURE_WIDTH, path
