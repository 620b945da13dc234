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
    "discuz": (4, 4, 4, 4, 4),
    "flarum": (10, 10, 10, 10, 10),
    "ipb4": (7, 7, 0, 7, 7),
    "mybb": (4, 4, 4, 4, 4),
    "phpbb2": (15, 15, 0, 15, 15),
    "ubbthreads": (10, 10, 0, 10, 10),
    "vanilla": (7, 7, 0, 7, 7),
    "wpforo": (6, 6, 0, 6, 6),
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

    from modtool.threads.forum.generic import _without_furniture

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

    from modtool.threads.forum.generic import _without_furniture

    body = lxml.html.fromstring(
        "<span>where is the show!<br>_________________<br>LOVE FIEND <b>forever</b></span>"
    )
    assert " ".join(_without_furniture(body).text_content().split()) == "where is the show!"
    kept = lxml.html.fromstring("<span>a__b and ____ are words<br>more</span>")
    assert "more" in _without_furniture(kept).text_content()


def test_a_body_with_nothing_to_cut_is_itself():
    import lxml.html

    from modtool.threads.forum.generic import _has_signature_line, _without_furniture

    body = lxml.html.fromstring("<div><p>Vote: Ann</p> and <b>why</b><br>-- not a sig</div>")
    assert _without_furniture(body) is body  # not copied: nothing in it goes
    assert not _has_signature_line(body)
    signed = lxml.html.fromstring("<div><p>Vote: Ann</p><br>-- <br>Bo's signature</div>")
    assert _has_signature_line(signed)
    assert _without_furniture(signed) is not signed
    assert "signature" in signed.text_content()  # the page itself is left as it was


# Pages whose explained selectors, written into game.toml as they are, read every post's
# author right (on the others they are a start the host adjusts; --explain says where).
EXPLAINED_WORK = ["bbpress", "ipb4", "mybb", "ubbthreads"]


@pytest.mark.skipif(not truths, reason="../shared is absent")
@pytest.mark.parametrize("engine", EXPLAINED_WORK)
def test_explained_selectors_are_a_working_start(engine):
    import json

    from modtool.threads.forum import explain_page, parse_page

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


# --- robust on real saves (issue 15, item 2): real pages, changed the way saves change them ---

PAGES = SHARED / "fixtures" / "pages"
ROBUST = [
    "mybb/theultimatetone-thread-214-sv-update.html",
    "ipb4/scienceforums-topic131993-sum-of-primes.html",
    "bbpress/css-tricks-topic-last-child-or.html",
]


def _page(name: str):
    if not SHARED.is_dir():
        pytest.skip("../shared is absent")
    from modtool.threads.forum import _document, generic

    doc = _document((PAGES / name).read_bytes())
    return doc, list(generic._posts(doc))


def _read(doc_or_html) -> list[tuple]:
    from lxml import etree

    from modtool.threads.forum import parse_page

    html = (
        doc_or_html if isinstance(doc_or_html, str) else etree.tostring(doc_or_html, encoding=str)
    )
    return [(p.post_id, p.author, p.time, p.text) for p in parse_page(html, engine="generic").posts]


@pytest.mark.parametrize("name", ROBUST)
def test_a_noscript_copy_of_the_posts_is_not_read_twice(name):
    import copy

    from lxml import etree

    doc, posts = _page(name)
    expected = _read(doc)
    box = etree.SubElement(doc.find("body"), "noscript")
    for el in posts:
        box.append(copy.deepcopy(el))
    assert _read(doc) == expected


@pytest.mark.parametrize("name", ROBUST)
def test_a_page_whose_posts_are_only_in_noscript_is_still_read(name):
    doc, posts = _page(name)
    expected = _read(doc)
    thread = posts[-1].getparent()  # the posts' container, moved into a noscript in its place
    box = thread.makeelement("noscript")
    thread.addprevious(box)
    box.append(thread)
    assert _read(doc) == expected


@pytest.mark.parametrize("name", ROBUST)
@pytest.mark.parametrize("where", ["beside", "own box"])
def test_a_best_answer_copy_above_the_thread_is_read_once_in_its_place(name, where):
    import copy

    doc, posts = _page(name)
    expected = _read(doc)
    best = copy.deepcopy(posts[-1])
    if where == "beside":  # first in the posts' container
        posts[0].getparent().insert(0, best)
    else:  # a box of its own above the posts' container
        box = posts[0].getparent().makeelement("div", {"class": "best-answer"})
        box.append(best)
        posts[0].getparent().addprevious(box)
    assert _read(doc) == expected


@pytest.mark.parametrize("name", ROBUST)
def test_a_single_post_fragment_is_read_as_one_post(name):
    from lxml import etree

    from modtool.threads.forum import generic

    doc, posts = _page(name)
    whole = {p[0]: p for p in _read(doc)}
    page = generic._Page(doc)
    blocks = [el for el in posts if generic._read(el, None, generic.UTC, 0, page) is not None]
    assert len(blocks) == len(whole)  # Invision's topic header panel is no post
    for el in blocks:
        fragment = etree.tostring(el, encoding=str, method="html")
        (found,) = _read(fragment)
        post_id, author, time, text = whole[found[0]]
        assert (found[1], found[3]) == (author, text)
        # bbPress shows a reply's date in a row before the post element: not in the copy
        assert found[2] in (time, None) and (found[2] or "bbpress" in name)


def test_a_threaded_bbpress_page_is_read_in_posting_order():
    """bbPress's threaded replies: a reply sits in a ul.bbp-threaded-replies under the post it
    answers. The saved page's last reply is moved under the second post, as the forum shows
    a reply to it; the thread still reads in posting order."""
    doc, posts = _page(ROBUST[2])
    expected = _read(doc)
    last, second = posts[-1], posts[1]
    header = last.getprevious()  # div.bbp-reply-header, where bbPress puts the reply's id
    while not isinstance(header.tag, str):
        header = header.getprevious()  # past the "<!-- #post-N -->" comments
    tree = second.makeelement("ul", {"class": "bbp-threaded-replies"})
    item = tree.makeelement("li", {})
    tree.append(item)
    item.extend([header, last])
    second.addnext(tree)
    found = _read(doc)
    assert [p[0] for p in found] == [p[0] for p in expected]  # posting order, not the tree's
    assert found == expected


def _wp_comment(cid: int, author: str, at: str, text: str, children: str = "") -> str:
    """One comment in WordPress's default threaded markup (wp_list_comments, HTML5)."""
    replies = f'<ol class="children">{children}</ol>' if children else ""
    return f"""<li id="comment-{cid}" class="comment depth-1">
 <article id="div-comment-{cid}" class="comment-body">
  <footer class="comment-meta"><div class="comment-author vcard">
   <b class="fn"><a href="https://example.org/author/{author.lower()}/" class="url">{author}</a></b>
   <span class="says">says:</span></div>
   <div class="comment-metadata"><a href="#comment-{cid}">
    <time datetime="2026-11-02T{at}:00+00:00">November 2, 2026 at {at}</time></a></div>
  </footer>
  <div class="comment-content"><p>{text}</p></div>
  <div class="reply"><a class="comment-reply-link" href="#">Reply</a></div>
 </article>{replies}
</li>"""


WORDPRESS_THREADED = (
    '<html><body><ol class="comment-list">'
    + _wp_comment(11, "Alice", "09:00", "VOTE: Bob", _wp_comment(14, "Bob", "11:30", "Why me?"))
    + _wp_comment(12, "Carol", "10:15", "VOTE: Alice")
    + "</ol></body></html>"
)


def test_threaded_comments_come_out_in_posting_order():
    """WordPress's threaded comments (its default markup): Bob's reply to Alice is shown under
    her comment, but Carol commented before he replied."""
    found = _read(WORDPRESS_THREADED)
    assert [(p[0], p[1], p[3]) for p in found] == [
        ("11", "Alice", "VOTE: Bob"),
        ("12", "Carol", "VOTE: Alice"),
        ("14", "Bob", "Why me?"),
    ]


def _dated_page(dates: list[str]) -> str:
    posts = "".join(
        f'<div class="post" id="post-{100 + i}"><a href="/members/p{i}/">player{i}</a>'
        f'<span class="date">{shown}</span><div class="content">post {i} text</div></div>'
        for i, shown in enumerate(dates)
    )
    return f"<html><body>{posts}</body></html>"


@pytest.mark.parametrize(
    ("dates", "expected"),
    [
        # wpForo's DD/MM/YYYY: read month first they would be a month apart each
        (
            ["08/05/2024 1:58 pm", "09/05/2024 1:12 pm", "10/05/2024 4:24 am"],
            ["2024-05-08 13:58", "2024-05-09 13:12", "2024-05-10 04:24"],
        ),
        # month first, as "/" is read, when that is the shorter span
        (["01/02/2024 10:00", "01/03/2024 10:00"], ["2024-01-02 10:00", "2024-01-03 10:00"]),
        # only the swapped reading is in order
        (
            ["05/12/2024 10:00", "06/12/2024 10:00", "05/01/2025 10:00"],
            ["2024-12-05 10:00", "2024-12-06 10:00", "2025-01-05 10:00"],
        ),
        # a day over 12 settles it; "." is read day first
        (["13/05/2024 10:00", "02/06/2024 10:00"], ["2024-05-13 10:00", "2024-06-02 10:00"]),
        (["08.05.2024 10:00", "09.05.2024 10:00"], ["2024-05-08 10:00", "2024-05-09 10:00"]),
    ],
)
def test_numeric_dates_that_read_either_way_are_read_as_the_page_runs(dates, expected):
    from modtool.threads.forum import parse_page

    posts = parse_page(_dated_page(dates), engine="generic").posts
    assert [p.time.strftime("%Y-%m-%d %H:%M") for p in posts] == expected


def test_explain_names_the_zone_a_page_states():
    if not SHARED.is_dir():
        pytest.skip("../shared is absent")
    from modtool.threads.forum import explain_page
    from modtool.threads.times import zone

    page = (PAGES / "phpbb3" / "dostips-stop-cmd-empty-line-httrack.html").read_bytes()
    found = explain_page(page, engine="generic")
    assert found["notes"] == [
        "times: read at UTC-06:00, the zone the page states "
        "(the game's timezone never has that offset)"
    ]
    assert "notes" not in explain_page(page, engine="generic", tz=zone("America/Chicago"))


@pytest.mark.parametrize("name", ROBUST)
@pytest.mark.parametrize("kind", ["application/json", "application/ld+json"])
def test_a_json_copy_of_the_posts_is_not_read(name, kind):
    """Pages carry their posts again as data for scripts and search engines (Flarum's
    preloaded JSON, schema.org DiscussionForumPosting); only the shown posts are read."""
    import json

    from lxml import etree

    doc, _ = _page(name)
    expected = _read(doc)
    data = [
        {"@type": "Comment", "author": {"name": a}, "dateCreated": t.isoformat(), "text": x}
        for _, a, t, x in expected
        if t is not None
    ]
    script = etree.SubElement(doc.find("body"), "script", {"type": kind})
    script.text = json.dumps({"@type": "DiscussionForumPosting", "comment": data})
    assert _read(doc) == expected
