"""phpBB on real saved pages (../shared/fixtures/pages/phpbb3, see its MANIFEST)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from modtool.cli import app
from modtool.threads.forum import parse_page
from modtool.threads.posts import post_from_json
from modtool.threads.sources import read_source


@pytest.fixture
def phpbb_pages(shared):
    return shared / "fixtures" / "pages" / "phpbb3"


def test_prosilver_30_page(phpbb_pages):
    """ILovePhilosophy, phpBB 3.0 prosilver, page 2 of its thread: 25 posts, numbers 25-49."""
    posts = read_source(str(phpbb_pages / "nettally-ilovephilosophy-biological-will.html"))
    assert len(posts) == 25
    first, second, last = posts[0], posts[1], posts[-1]
    assert (first.post_id, first.number, first.author) == ("2729870", 25, "Jakob")
    # the page's footer: "All times are UTC [ DST ]", phpBB 3.0's way of saying UTC+1
    assert first.time.isoformat() == "2019-05-26T16:34:00+01:00"
    assert first.text.startswith("Good lecture.")
    assert (second.author, second.text) == ("promethean75", "https://vocaroo.com/i/s0WJlPuchytm")
    assert "soundcloud" not in second.text  # the signature is not the post
    assert (last.number, last.author, last.text) == (49, "promethean75", "Ohhhh no you don't.")


def test_quotes_leave_the_text_but_stay_in_the_html(phpbb_pages):
    posts = read_source(str(phpbb_pages / "nettally-ilovephilosophy-biological-will.html"))
    quoting = [p for p in posts if "<blockquote" in p.html]
    assert len(quoting) == 12  # the MANIFEST's quote count for this page
    for post in quoting:
        assert " wrote:" not in post.text


def test_subsilver_like_32_page_with_shown_numbers(phpbb_pages):
    """dostips.com, phpBB 3.2 (HTTrack mirror): 15 posts numbered #1-#15 on the page."""
    posts = read_source(str(phpbb_pages / "dostips-stop-cmd-empty-line-httrack.html"))
    assert [p.number for p in posts] == list(range(1, 16))
    assert posts[0].author == "flywire"
    assert posts[0].time.isoformat() == "2018-06-02T05:41:00-06:00"  # "All times are UTC-06:00"
    assert posts[0].text.endswith("How can I suppress the blank lines in the shell?")
    assert posts[1].text == "Can you reveal just a little more of your actual code?"


def test_posts_json_round_trips(phpbb_pages, tmp_path):
    page = phpbb_pages / "dostips-stop-cmd-empty-line-httrack.html"
    result = CliRunner().invoke(app, ["posts", str(page), "--json"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert len(lines) == 15
    obj = json.loads(lines[0])
    assert set(obj) >= {"post_id", "number", "author", "time", "url", "edited", "text", "html"}
    saved = tmp_path / "posts.jsonl"
    saved.write_text(result.output)
    again = read_source(str(saved))
    assert [p.to_json() for p in again] == [json.loads(line) for line in lines]
    assert post_from_json(obj, "x").text == obj["text"]


def test_page_that_is_not_a_thread_says_so():
    from modtool.errors import SourceError

    with pytest.raises(SourceError, match="not a forum thread page modtool can read"):
        parse_page("<html><body><p>hello</p></body></html>", where="x.html")


@pytest.mark.parametrize(
    ("tag", "cls", "role"),
    [
        ("div", "content", "content"),
        ("span", "content", "other"),  # only a div holds the post's content
        ("div", "postbody content", "content"),
        ("dl", "postprofile", "profile"),
        ("p", "author", "author"),
        ("div", "notice", "notice"),
        ("p", "notice", "other"),
        ("a", "username-coloured", "username"),
        ("span", "username", "other"),
        ("span", "post-number", "number"),
        ("div", "posti", "number"),
        ("div", "content author", "content"),  # the first role that applies
        ("span", "content author", "author"),
        ("div", "inner", "other"),
    ],
)
def test_role_of_a_node_in_a_post(tag, cls, role):
    from modtool.threads.forum import phpbb

    names = {
        phpbb._CONTENT: "content",
        phpbb._PROFILE: "profile",
        phpbb._AUTHOR: "author",
        phpbb._NOTICE: "notice",
        phpbb._USERNAME: "username",
        phpbb._NUMBER_BOX: "number",
        phpbb._OTHER: "other",
    }
    assert names[phpbb._role(tag, cls)] == role
