"""Drafted posts: a name shows as written in every markup, rendered by a real BBCode and a
real Markdown renderer; nothing in a name is run as a template or read as markup."""

from __future__ import annotations

import html
import re

import pytest

from modtool.core.results import DayCount, Outcome, OutcomeKind, Voter, Wagon
from modtool.core.rules import Rule
from modtool.games.clocktower.rules import ClocktowerRule
from modtool.games.vampires import Vampires
from modtool.games.vampires.day import VampireRule
from modtool.host.templating import render_count_post

NAMES = [
    "x[/b]y",
    "[url=https://evil.invalid]click[/url]",
    "*Star*",
    "__init__",
    "<script>alert(1)</script>",
    "<b>Bold</b>",
    "{{ 7*7 }}",
    "{% for x in y %}",
    "# heading",
    "[link](https://evil.invalid)",
]


def _count() -> DayCount:
    voters = tuple(Voter(n, i, None, 1) for i, n in enumerate(NAMES[1:], 1))
    wagon = Wagon(NAMES[0], len(voters), voters, 6)
    outcome = Outcome(OutcomeKind.PENDING, None, None, "in progress", Rule.IN_PROGRESS)
    return DayCount(2, 11, 6, None, (wagon,), tuple(NAMES[:3]), outcome, (), (), 10)


def _text(rendered_html: str) -> str:
    """What a reader sees: the text of the HTML, entities read, zero-width spaces dropped."""
    return html.unescape(re.sub(r"<[^>]+>", "", rendered_html)).replace("\u200b", "")


@pytest.mark.parametrize("markup", ["bbcode", "markdown"])
def test_names_show_literally_and_run_nothing(markup):
    post = render_count_post(_count(), markup)
    if markup == "bbcode":
        import bbcode

        rendered = bbcode.render_html(post)
    else:
        from markdown_it import MarkdownIt

        rendered = MarkdownIt("commonmark").render(post)
    shown = _text(rendered)
    for name in NAMES:
        assert name in shown, (name, shown)
    assert "49" not in shown  # {{ 7*7 }} was never evaluated
    assert "<script" not in rendered and "<b>" not in rendered and "<h1" not in rendered
    # no tag or link syntax in a name became a link (a bare URL may be auto-linked as text)
    assert not re.search(r"<a [^>]*>(click|link)</a>", rendered)
    assert "<em>" not in rendered
    # the post's own formatting still works: the header is bold
    assert re.search(r"<strong>Vote count 2</strong>", rendered)


def test_a_game_folder_template_overrides_and_a_typo_fails_loudly(tmp_path):
    import shutil

    from typer.testing import CliRunner

    from modtool.cli import app

    from .conftest import EXAMPLE

    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    (game / "templates").mkdir()
    (game / "templates" / "votecount.en.bbcode.j2").write_text("Day {{ count.day }}: mine\n")
    mine = CliRunner().invoke(app, ["count", str(game), "--day", "2", "--post", "bbcode"])
    assert mine.stdout == "Day 2: mine\n"
    typo = tmp_path / "typo.j2"
    typo.write_text("line one\n{{ count.dya }}\n")
    bad = CliRunner().invoke(
        app, ["count", str(game), "--day", "2", "--post", "bbcode", "--template", str(typo)]
    )
    assert bad.exit_code == 1
    assert bad.stderr.startswith(f"Error: template {typo}:2: ")
    assert "dya" in bad.stderr


@pytest.mark.parametrize(
    ("markup", "line"),
    [
        ("bbcode", "[url=https://f.invalid/t?a=%5D#2]x[\u200b/b][/url]"),
        ("markdown", "[x\\[/b\\]](https://f.invalid/t?a=%5D#2)"),
    ],
)
def test_voters_link_to_their_vote_and_the_deadline_is_shown(markup, line):
    voters = (Voter("x[/b]", 2, "https://f.invalid/t?a=]#2", 1),)
    outcome = Outcome(OutcomeKind.PENDING, None, None, "in progress", Rule.IN_PROGRESS)
    count = DayCount(1, 5, 3, None, (Wagon("ann", 1, voters, 3),), (), outcome, (), (), 2)
    deadline = {"local": "2026-11-02 11:00 EST", "utc": "2026-11-02 16:00 UTC", "left": "3h 5m"}
    post = render_count_post(count, markup, number=3, deadline=deadline)
    assert line in post
    assert "Vote count 1.3" in post
    assert "Deadline: 2026-11-02 11:00 EST (2026-11-02 16:00 UTC), 3h 5m left." in post


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("markup", ["bbcode", "markdown"])
def test_dayend_drafts_match_golden(markup, lang):
    import os

    from typer.testing import CliRunner

    from modtool.cli import app

    from .conftest import EXAMPLE, ROOT

    args = ["draft", "dayend", str(EXAMPLE), "--stdout", "--lang", lang, "--format", markup]
    drafted = "".join(CliRunner().invoke(app, [*args, "--day", str(d)]).stdout for d in (1, 2, 3))
    golden = ROOT / "tests" / "golden" / f"example-botc.dayend.{lang}.{markup}"
    if os.environ.get("MODTOOL_UPDATE_GOLDEN"):
        golden.write_text(drafted)
    assert drafted == golden.read_text()


def test_dayend_reveals_what_the_game_says_and_draft_writes_a_file(tmp_path):
    import shutil

    from typer.testing import CliRunner

    from modtool.cli import app

    from .conftest import EXAMPLE

    game = tmp_path / "g"
    shutil.copytree(EXAMPLE, game)
    setup = game / "game.toml"
    setup.write_text(setup.read_text() + '\n[drafts]\nreveal = "role"\n')
    result = CliRunner().invoke(app, ["draft", "dayend", str(game), "--day", "3"])
    path = game / "drafts" / "day3-dayend.en.bbcode"
    assert result.stdout == f"Wrote {path}\n"
    assert (
        "[b]wylted[/b] was executed (the most votes: 5, with 4 needed of 7 alive): "
        "they were the Baron (evil)." in path.read_text()
    )


# Every rule that can end a day, with the figures the count gives it: the Korean reason is
# written from them and carries no English.
DAY_END_CASES = [
    (Rule.HAMMER, 5, 5, 9, "5표로 과반 달성, 생존자 9명 중 5표 필요"),
    (Rule.NO_LYNCH_MAJORITY, 4, 4, 7, "노린치가 생존자 7명 중 4표에 도달"),
    (Rule.MOST_VOTES, 6, 5, 10, "최다 득표 6표, 생존자 10명 중 5표 필요"),
    (Rule.BELOW_THRESHOLD, 2, 3, 6, "최다 득표 2표가 필요한 3표에 못 미침, 생존자 6명"),
    (Rule.NO_MAJORITY, None, None, None, "마감까지 과반에 도달한 후보 없음"),
    (Rule.NO_VOTES, None, None, None, "투표 없음"),
    (Rule.TIE, 4, None, 10, "최다 득표 동률, 각 4표"),
    (Rule.TIE_BREAK, 3, None, 8, "3표 동률을 게임 규칙에 따라 결정"),
    (Rule.IN_PROGRESS, None, None, None, "진행 중"),
    (ClocktowerRule.VIRGIN, None, None, None, "성결자에게 처음 투표한 마을주민이라 즉시 처형"),
    (Rule.TEAM_CHOOSES, 3, None, 13, "3표 동률: 뱀파이어가 처형될 사람을 고릅니다"),
    (VampireRule.VAMPIRES_CHOSE, 3, None, 13, "3표 동률: 뱀파이어가 처형될 사람을 골랐습니다"),
]


# the outcome's shape where the reason depends on it: a tie settled by a rule, left to a team,
# or settled by the team (the game's rule)
SHAPES = {
    Rule.TIE_BREAK: {"kind": "execution", "tied": ["Dune", "Grove"]},
    Rule.TEAM_CHOOSES: {"kind": "tie", "tied": ["Dune", "Grove"]},
    VampireRule.VAMPIRES_CHOSE: {"kind": "execution", "tied": ["Dune", "Grove"]},
}


@pytest.mark.parametrize(("rule", "votes", "needed", "alive", "expected"), DAY_END_CASES)
def test_korean_reason_is_written_from_the_rule_and_its_figures(
    rule, votes, needed, alive, expected
):
    from modtool.games import GAMES
    from modtool.host.templating import environment

    # a game's own rule is said in the game's own words (its templates' _game_words.ko.j2)
    own = next((g.templates for g in GAMES.values() if rule in g.outcome_rules), None)
    macro = environment(own=own).get_template("_reason.ko.j2").module.reason
    outcome = {"rule": str(rule), "votes": votes, "needed": needed, "alive": alive, "reason": "x"}
    outcome |= SHAPES.get(rule, {"kind": "execution", "tied": []})
    # the team that chooses among the tied is the game's: here the Vampires game's words
    said = str(macro(outcome, Vampires.tie_chooser["ko"]))
    assert said == expected
    assert not re.search("[A-Za-z]", said)


def test_every_day_ending_rule_has_a_korean_reason():
    from modtool.core.rules import DAY_END_RULES
    from modtool.games import GAMES

    games_rules = {r for g in GAMES.values() for r in g.outcome_rules}
    assert {case[0] for case in DAY_END_CASES} == DAY_END_RULES | games_rules


@pytest.mark.parametrize("name", ["mafia", "clocktower", "vampires"])
def test_every_game_s_korean_words_give_the_four_tables(name):
    """_reason.ko.j2 reads a game's words by these names: a game's own file (or the shared one
    for a game that ships none) gives each of them."""
    from modtool.games import GAMES
    from modtool.host.templating import environment

    words = environment(own=GAMES[name].templates).get_template("_game_words.ko.j2").module
    for table in ("reasons", "wins", "causes", "survivals"):
        assert isinstance(getattr(words, table), dict), table


def test_a_game_s_win_is_said_in_its_own_words_and_in_english_without_them():
    from modtool.games import GAMES
    from modtool.host.templating import environment

    win = {"rule": "demon_dead", "reason": "the Demon is dead"}
    own = GAMES["clocktower"].templates
    said = environment(own=own).get_template("_reason.ko.j2").module.win_reason(win)
    shared = environment().get_template("_reason.ko.j2").module.win_reason(win)
    assert (str(said), str(shared)) == ("악마가 죽었습니다", "the Demon is dead")


def test_only_the_game_s_own_rule_says_a_team_chose_among_the_tied():
    """An execution among the tied by another rule is not worded as the team's choice (the
    shared template once told it by the outcome's shape)."""
    from modtool.games import GAMES
    from modtool.host.templating import environment

    macro = environment(own=GAMES["vampires"].templates).get_template("_reason.ko.j2").module
    outcome = {"rule": "host-chose", "kind": "execution", "tied": ["Dune", "Grove"]}
    outcome |= {"votes": 3, "needed": None, "alive": 13, "reason": "the host chose Dune"}
    assert str(macro.reason(outcome, "뱀파이어가")) == "the host chose Dune"
