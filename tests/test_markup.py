"""The markup of drafted posts as a forum reads it: Markdown drafts keep their lines when a
CommonMark renderer (markdown-it-py) reads them; BBCode escapes only what a forum reads as a
tag; the host's own text is the host's markup."""

from __future__ import annotations

import html
import json
import re
import shutil

import pytest
from markdown_it import MarkdownIt

from modtool.games import load_game
from modtool.host.drafts import DraftKind, make_drafts
from modtool.host.templating import escape_bbcode, escape_markdown
from modtool.threads.sources import read_game_posts

from .conftest import EXAMPLE, ROOT

GAMES = ROOT / "tests" / "fixtures" / "games"
_BLOCK_END = re.compile(r"</(p|li|h\d|blockquote|pre)>|<br ?/?>|<(ul|ol|blockquote)>")


def _shown_lines(rendered: str) -> list[str]:
    """The lines a reader sees in rendered HTML: one per paragraph, list item, heading, or
    hard break, tags dropped and entities read."""
    flowing = rendered.replace("\n", " ")  # a soft line break shows as a space
    text = html.unescape(re.sub(r"<[^>]+>", "", _BLOCK_END.sub("\n", flowing)))
    return [line.strip() for line in text.split("\n") if line.strip()]


def _source_lines(markdown: str) -> list[str]:
    """The draft's own lines, each read as Markdown on its own (list and quote marks off)."""
    md = MarkdownIt("commonmark")
    out = []
    for line in markdown.splitlines():
        if not line.strip():
            continue
        inline = re.sub(r"^(\s*(?:[-*+]|\d+\.|>)\s+)", "", line)
        out.append(html.unescape(re.sub(r"<[^>]+>", "", md.renderInline(inline))).strip())
    return out


def _every_markdown_draft():
    cases = [
        (EXAMPLE, DraftKind.VOTECOUNT, {"day": 2}),
        (EXAMPLE, DraftKind.DAYEND, {"day": 1}),
        (EXAMPLE, DraftKind.DAYEND, {"day": 3}),
        (EXAMPLE, DraftKind.NIGHTEND, {"night": 0}),
        (EXAMPLE, DraftKind.NIGHTEND, {"night": 1}),
        (EXAMPLE, DraftKind.ROLEPMS, {}),
        (EXAMPLE, DraftKind.NIGHT, {"night": 1}),
        (GAMES / "vampires", DraftKind.ROLEPMS, {}),
        (ROOT / "games" / "example-mafia", DraftKind.VOTECOUNT, {"day": 1}),
        (ROOT / "games" / "example-mafia", DraftKind.DAYEND, {"day": 1}),
    ]
    for folder, kind, where in cases:
        for lang in ("en", "ko"):
            if lang == "ko" and (kind is DraftKind.ROLEPMS or "vampires" in str(folder)):
                continue  # Korean role text is the host's to import (test_role_import)
            yield pytest.param(folder, kind, lang, where, id=f"{folder.name}-{kind.value}-{lang}")


@pytest.mark.parametrize(("folder", "kind", "lang", "where"), list(_every_markdown_draft()))
def test_markdown_drafts_keep_their_lines(folder, kind, lang, where):
    game = load_game(folder)
    posts = read_game_posts(game) if kind is not DraftKind.ROLEPMS else ()
    drafts = make_drafts(game, kind, posts, language=lang, markup="markdown", **where)
    assert drafts
    for d in drafts:
        rendered = MarkdownIt("commonmark").render(d.text)
        assert _shown_lines(rendered) == _source_lines(d.text), d.name


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_markdown_drafts_with_a_deadline_and_reveals_keep_their_lines(tmp_path, lang):
    folder = tmp_path / "game"
    shutil.copytree(EXAMPLE, folder)
    with (folder / "game.toml").open("a") as f:
        f.write('\n[schedule]\nstart = "2026-11-02T12:00"\nday = "48h"\nnight = "host"\n')
    text = (
        (folder / "game.toml")
        .read_text()
        .replace("[setup]", '[drafts]\nreveal = "role"\n\n[setup]')
    )
    (folder / "game.toml").write_text(text)
    game = load_game(folder)
    posts = read_game_posts(game)
    drafts = [
        *make_drafts(game, DraftKind.VOTECOUNT, posts, day=4, language=lang, markup="markdown"),
        *make_drafts(game, DraftKind.DAYEND, posts, day=3, language=lang, markup="markdown"),
        *make_drafts(game, DraftKind.NIGHTEND, posts, night=2, language=lang, markup="markdown"),
    ]
    assert any("Deadline" in d.text or "마감" in d.text for d in drafts)
    for d in drafts:
        rendered = MarkdownIt("commonmark").render(d.text)
        assert _shown_lines(rendered) == _source_lines(d.text), d.name


def _causes_in_the_code(game: str) -> set[str]:
    """Every cause of death a game's code writes: its day rules' and its nights'."""
    found = set()
    for path in (ROOT / "modtool" / "games" / game).rglob("*.py"):
        source = path.read_text("utf-8")
        found |= set(re.findall(r'\.kill\(\w+, post, "([^"]+)"(?:, \w+)?\)', source))
        # a death's cause (a change of role has its own: ascension, conversion, star-pass)
        found |= set(re.findall(r'Death\([^)]*?cause="([^"]+)"', source, re.S))
        found |= set(re.findall(r'dead\[\w+(?:\.\w+)?\] = "([^"]+)"', source))
    return found


@pytest.mark.parametrize("game", ["mafia", "clocktower", "vampires"])
def test_every_cause_modtool_writes_is_said_in_korean(game):
    """modtool's own causes in every game, and each game's in its own words (its templates)."""
    from modtool.core.count import EXECUTED_CAUSES
    from modtool.games import GAMES
    from modtool.host.templating import environment

    module = environment(own=GAMES[game].templates).get_template("_reason.ko.j2").module
    causes = _causes_in_the_code(game) | EXECUTED_CAUSES | {"modkilled"}
    for c in causes:
        said = str(module.cause(c))
        assert not re.search("[A-Za-z]", said), (c, said)
    assert str(module.cause("eaten by a grue")) == "eaten by a grue"  # the host's own words


def _korean_drafts(folder, posts_too=True):
    game = load_game(folder)
    posts = read_game_posts(game)
    kinds = [(DraftKind.VOTECOUNT, {"day": d.day}) for d in game.days()] + [
        (DraftKind.DAYEND, {"day": d.day}) for d in game.days() if d.end is not None
    ]
    kinds += [(DraftKind.NIGHTEND, {"night": n}) for n in range(len(game.days()))]
    for markup in ("bbcode", "markdown"):
        for kind, where in kinds:
            yield game, make_drafts(game, kind, posts, language="ko", markup=markup, **where)


@pytest.mark.parametrize(
    "folder", [EXAMPLE, ROOT / "games" / "example-mafia"], ids=lambda f: f.name
)
def test_korean_drafts_have_no_english_words(folder):
    """Names, the game's title and links are the host's and the players'; the rest is Korean."""
    checked = 0
    for game, drafts in _korean_drafts(folder):
        names = sorted({n for s in game.slots for n in game.slot_names(s.key)}, key=len)
        for d in drafts:
            text = re.sub(r"https?://\S+?(?=[\])\s]|$)", "", d.text)
            text = text.replace(game.title, "")
            for name in reversed(names):
                for shown in {name, escape_markdown(name), escape_bbcode(name)}:
                    text = re.sub(rf"(?<![\w]){re.escape(shown)}(?![\w])", "", text)
            text = re.sub(r"\[/?(b|i|u|s|url|quote)[^\]]*\]", "", text)  # the post's own tags
            text = re.sub(r"\bL-\d+\b", "", text)
            assert not re.findall(r"[A-Za-z]{2,}", text), (d.name, text)
            checked += 1
    assert checked > 4


@pytest.mark.parametrize(
    ("name", "drafted"),
    [
        ("[winger]", "[winger]"),
        ("a[1]b", "a[1]b"),
        ("[ OK ]", "[ OK ]"),
        ("x[/b]y", "x[\u200b/b]y"),
        ("[B]old", "[\u200bB]old"),
        ("[url=https://x.invalid]c[/url]", "[\u200burl=https://x.invalid]c[\u200b/url]"),
        ("[vote]Ann[/vote]", "[\u200bvote]Ann[\u200b/vote]"),
        ("[spoiler]", "[\u200bspoiler]"),
        ("[*]", "[\u200b*]"),
        ("[color=red]", "[\u200bcolor=red]"),
    ],
)
def test_bbcode_escapes_only_what_a_forum_reads_as_a_tag(name, drafted):
    assert escape_bbcode(name) == drafted


def _night_game(tmp_path, results):
    folder = tmp_path / "game"
    shutil.copytree(EXAMPLE, folder)
    with (folder / "events.jsonl").open("a") as f:
        for r in results:
            f.write(json.dumps({"kind": "night_result", "night": 3} | r) + "\n")
    return load_game(folder)


def test_the_hosts_night_result_is_the_hosts_markup(tmp_path):
    import bbcode

    game = _night_game(
        tmp_path,
        [
            {"player": "Kohai", "text": "You learn that [b]Neros[/b] is the [i]Poisoner[/i]."},
            {"player": "Kohai", "text": "[winger] was chosen [/b]", "plain": True},
        ],
    )
    (pm,) = [
        d
        for d in make_drafts(game, DraftKind.NIGHT, (), night=3, language="en")
        if "Kohai" in d.name
    ]
    assert "[b]Neros[/b] is the [i]Poisoner[/i]" in pm.text
    rendered = bbcode.render_html(pm.text)
    assert "<strong>Neros</strong>" in rendered and "<em>Poisoner</em>" in rendered
    # what modtool's own night work wrote is text: its tag-like words stay text
    assert "[winger] was chosen [\u200b/b]" in pm.text


def test_tables_align_wide_names_by_display_width():
    """Korean names take two terminal columns a character; the count table lines its columns
    up by that width (tabulate with wcwidth), not by the number of characters."""
    import wcwidth

    from modtool.core.results import DayCount, Outcome, OutcomeKind, Voter, Wagon
    from modtool.core.rules import Rule
    from modtool.host.render import count_table

    names = ["하나", "Bo", "김민준님", "Cy"]
    wagons = tuple(
        Wagon(n, 1, (Voter(names[(i + 1) % 4], i + 1, None, 1),), 3) for i, n in enumerate(names)
    )
    outcome = Outcome(OutcomeKind.PENDING, None, None, "in progress", Rule.IN_PROGRESS)
    table = count_table(DayCount(1, 4, 3, None, wagons, (), outcome, (), (), 9))
    rows = [line for line in table.splitlines() if " L-" in line]
    assert len(rows) == 4
    starts = {wcwidth.wcswidth(line[: line.index(" L-")]) for line in rows}
    assert len(starts) == 1, table


def test_the_games_causes_are_found_where_they_are_written():
    """The search above reads real code: known causes of each game are found."""
    assert {"slain by the Slayer", "cursed by the Witch"} <= _causes_in_the_code("clocktower")
    assert "drained" in _causes_in_the_code("vampires")
