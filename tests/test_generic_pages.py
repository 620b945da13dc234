"""The reader on the real pages of engines with no adapter (../shared/fixtures/pages, each with
a hand-checked truth file), scored field by field by tools/score_pages.py. The floors are what
the reader gets now: a change that reads fewer fields right fails; raise them as it improves
(issue 15)."""

from __future__ import annotations

import importlib.util

import pytest

from .conftest import ROOT

SHARED = ROOT.parent / "shared"
spec = importlib.util.spec_from_file_location("score_pages", ROOT / "tools" / "score_pages.py")
score_pages = importlib.util.module_from_spec(spec)
spec.loader.exec_module(score_pages)

# page -> the fields right now: author, post_id, number, time, text
FLOORS = {
    "bbpress": (4, 4, 0, 4, 4),
    "discuz": (4, 4, 4, 0, 4),
    "flarum": (10, 10, 10, 10, 9),
    "ipb4": (7, 7, 0, 7, 7),
    "mybb": (4, 4, 4, 4, 4),
    "phpbb2": (15, 15, 0, 15, 15),
    "ubbthreads": (10, 10, 0, 10, 10),
    "vanilla": (7, 7, 0, 7, 7),
    "wpforo": (6, 6, 0, 0, 6),
}

truths = score_pages.truth_files(SHARED) if SHARED.is_dir() else []


@pytest.mark.skipif(not truths, reason="../shared is absent")
@pytest.mark.parametrize("truth", truths, ids=lambda p: p.parent.name)
def test_the_reader_keeps_what_it_reads_right(truth):
    scored = score_pages.score(truth)
    fields = ("author", "post_id", "number", "time", "text")
    got = tuple(scored["fields"][f][0] for f in fields)
    floor = FLOORS[truth.parent.name]
    assert all(g >= f for g, f in zip(got, floor, strict=True)), (scored["page"], got, floor)


def test_furniture_inside_a_body_goes_and_the_words_after_it_stay():
    import lxml.html

    from modtool.forum.generic import _without_furniture

    body = lxml.html.fromstring(
        '<div><div class="spoiler_header">Reveal hidden contents</div>Hidden words'
        "<span>Edited July 5, 2023 by sam</span> and more."
        '<div class="ipsItemControls">1</div></div>'
    )
    kept = _without_furniture(body)
    assert " ".join(kept.text_content().split()) == "Hidden words and more."
    assert "Reveal" in body.text_content()  # the page itself is left as it was


def test_a_signature_after_its_delimiter_line_goes():
    import lxml.html

    from modtool.forum.generic import _without_furniture

    body = lxml.html.fromstring(
        "<span>where is the show!<br>_________________<br>LOVE FIEND <b>forever</b></span>"
    )
    assert " ".join(_without_furniture(body).text_content().split()) == "where is the show!"
    kept = lxml.html.fromstring("<span>a__b and ____ are words<br>more</span>")
    assert "more" in _without_furniture(kept).text_content()


# Pages whose explained selectors, written into game.toml as they are, read every post's
# author right (on the others they are a start the host adjusts; --explain says where).
EXPLAINED_WORK = ["bbpress", "ipb4", "mybb", "ubbthreads"]


@pytest.mark.skipif(not truths, reason="../shared is absent")
@pytest.mark.parametrize("engine", EXPLAINED_WORK)
def test_explained_selectors_are_a_working_start(engine):
    import json

    from modtool.forum import explain_page, parse_page

    truth = next(t for t in truths if t.parent.name == engine)
    data = truth.with_name(truth.name.replace(".expected.json", ".html")).read_bytes()
    explained = explain_page(data)
    assert explained["engine"] == "generic"
    selectors = {k: v for k, v in explained["selectors"].items() if v}
    posts = parse_page(data, selectors=selectors).posts
    want = json.loads(truth.read_text("utf-8"))["posts"]
    assert [p.author for p in posts] == [p["author"] for p in want]


@pytest.mark.skipif(not truths, reason="../shared is absent")
def test_explain_on_the_command_line():
    from typer.testing import CliRunner

    from modtool.cli import app

    page = SHARED / "fixtures/pages/vanilla/familysearch-discussion118004-program-options.html"
    result = CliRunner().invoke(app, ["posts", str(page), "--explain"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1:4] == [
        "  rule: repeated blocks that each show a poster and a time",
        "  posts: 7 of 7 blocks",
        "  selectors it ended up with (a start for [[sources]] in game.toml):",
    ]
    assert "the opening post is a div.Item.ItemDiscussion" in result.stdout
    adapter = SHARED / "fixtures/pages/phpbb3"
    found = CliRunner().invoke(app, ["posts", str(adapter), "--explain"]).stdout
    assert "read by phpbb" in found and "the phpbb adapter recognised the page" in found
