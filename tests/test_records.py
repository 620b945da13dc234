"""The record reader's criteria, each on its own, and pages whose posts have no container."""

from __future__ import annotations

from datetime import datetime

import pytest
from lxml import etree
from typer.testing import CliRunner

from modtool.cli import app
from modtool.errors import SourceError
from modtool.threads.forum import parse_page, records
from modtool.threads.forum.generic import (
    _author_link,
    _author_name,
    _Page,
    _plain_quote,
    page_doubts,
)
from modtool.threads.forum.markup import (
    attribute_time,
    class_stems,
    icon_glyph,
    machine_time_attrs,
    member_page,
    time_attr_values,
)
from modtool.threads.posts import Post
from modtool.threads.times import UTC


@pytest.mark.parametrize(
    ("texts", "expected"),
    [(["alice", "bob"], True), (["alice", "alice"], False), (["alice", ""], False)],
)
def test_varies(texts, expected):
    assert records.varies(texts) is expected


@pytest.mark.parametrize(
    ("texts", "hrefs", "expected"),
    [
        (["Profile", "Profile"], ["/u/1", "/u/2"], True),  # a button to each poster's page
        (["Yoyo", "Yoyo"], ["/u/7", "/u/7"], False),  # one poster throughout
        (["alice", "bob"], ["/u/1", "/u/2"], False),
    ],
)
def test_label_to_many_places(texts, hrefs, expected):
    assert records.label_to_many_places(texts, hrefs) is expected


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        (["50 Likes 3 Shares", "7 Likes 0 Shares"], True),
        (["50 Likes 3 Shares", "1 Like", "7 Likes", "2 Likes 1 Share"] * 4, True),
        (["alice", "bob"] * 4, False),  # two posters taking turns
        (["Stammgast", "Inventar"] * 4, False),  # ranks: no counter (not the body either)
        (["Reply Share Report", "Reply Share Report"], True),
        (["1", "2"], True),  # a post number
        (["I agree", "I do not"], False),
    ],
)
def test_furniture(texts, expected):
    assert records.furniture(texts) is expected


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        (["Re: Snakes", "Re: Snakes", "Re: Snakes", "Snakes"], True),  # the title over replies
        (["alice", "bob", "carol"], False),
    ],
)
def test_mostly_one_text(texts, expected):
    assert records.mostly_one_text(texts) is expected


def _t(day):
    return datetime(2020, 4, day, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    ("times", "expected"),
    [
        ([_t(1), _t(2), _t(2), _t(5)], True),
        ([_t(5), _t(3), _t(2), _t(1)], True),  # newest first
        ([_t(5), _t(1), _t(3), _t(2)], False),  # join dates: the posters', not the posts'
        ([_t(1), None, _t(3)], True),
    ],
)
def test_in_one_order(times, expected):
    assert records.in_one_order(times) is expected


def test_links_only():
    topics = [etree.fromstring(f'<td><a href="/t/{n}">Topic {n} title</a></td>') for n in (1, 2, 3)]
    messages = [etree.fromstring(f"<td>I said <a href='/x'>this</a> {n}</td>") for n in (1, 2)]
    assert records.links_only(topics) and not records.links_only(messages)


INDEX = """<html><body><h1>Hi-fi forum</h1><table>{rows}</table></body></html>"""
INDEX_ROW = """<tr><td><a href="/topic/{n}">Which speakers for an old amplifier, part {n}?</a></td>
<td>by <a href="/member/{name}">{name}</a></td><td>2{n}.04.2020 10:05</td></tr>"""


def test_a_forum_index_is_no_thread():
    names = ("alice", "bob", "carol", "dave")
    rows = "".join(INDEX_ROW.format(n=n, name=name) for n, name in enumerate(names, 1))
    with pytest.raises(SourceError, match="not a forum thread page"):
        parse_page(INDEX.format(rows=rows))


@pytest.mark.parametrize(
    ("href", "expected"),
    [("user_info.pl?id=3", True), ("/members/bob.12/", True), ("#32677", False), ("/t/5", False)],
)
def test_member_link(href, expected):
    assert records.member_link(etree.fromstring(f'<a href="{href}">x</a>')) is expected


@pytest.mark.parametrize(
    ("href", "expected"),
    [
        ("/members/bob.12/", True),
        ("memberlist.php?mode=viewprofile&u=3", True),
        ("user_info.pl?id=3", True),
        ("/profile/bob", True),
        ("/author/bob/", True),
        ("space-uid-9.html", True),
        ("/u12-bob", True),
        ("/account/login", False),  # every visitor's page shows it
        ("/users/sign_in", False),
        ("/member/register.php", False),
        ("search.php?author=bob", False),  # the poster's posts: no name
        ("/t/5", False),
        ("#32677", False),
    ],
)
def test_member_page(href, expected):
    """One rule for a member's page, for both readers (generic.py and records.py)."""
    assert member_page(href) is expected


@pytest.mark.parametrize(
    ("markup", "expected"),
    [
        ('<time datetime="2020-01-02T03:04:05Z">x</time>', ["2020-01-02T03:04:05Z"]),
        ('<div data-publishdate="1600000000">x</div>', ["1600000000"]),
        (
            '<div data-timestamp="1600000000" datetime="2020-01-02">x</div>',
            ["2020-01-02", "1600000000"],
        ),
        ('<div data-edit-time="1600000000">x</div>', []),  # a later change
        ('<div data-user-joindate="1500000000">x</div>', []),  # the member's, not the post's
        ('<div data-id="1600000000">x</div>', []),
    ],
)
def test_machine_time_attrs(markup, expected):
    assert machine_time_attrs(etree.fromstring(markup)) == expected


@pytest.mark.parametrize(
    ("markup", "expected"),
    [
        (
            '<abbr title="Jan 2" data-time="1600000000" datetime="2020-01-02">x</abbr>',
            ["2020-01-02", "1600000000", "Jan 2"],
        ),
        ('<meta content="2020-01-02" title=""/>', ["2020-01-02"]),  # an empty value is none
        ('<div class="post" data-edit-time="1600000000">x</div>', []),
        ("<div>x</div>", []),
    ],
)
def test_time_attr_values(markup, expected):
    """The machine times first, then a meta tag's content and a tooltip, the same for every
    element with the same attribute names (sorted out once for all of them)."""
    assert time_attr_values(etree.fromstring(markup)) == expected
    assert time_attr_values(etree.fromstring(markup)) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1600000000", "2020-09-13T12:26:40+00:00"),
        ("1600000000000", "2020-09-13T12:26:40+00:00"),  # milliseconds
        ("12", None),  # a count, not a Unix time
        ("2020-01-02T03:04:05", "2020-01-02T03:04:05+00:00"),
        ("January 2, 2020 3:04 am", "2020-01-02T03:04:00+00:00"),  # a tooltip
        ("Reply", None),
    ],
)
def test_attribute_time(value, expected):
    found = attribute_time(value, UTC)
    assert (found.isoformat() if found else None) == expected


@pytest.mark.parametrize(
    ("markup", "expected"),
    [
        ('<div class="post odd windowbg2 js-post">x</div>', ["post", "windowbg"]),
        ('<div class="row2 bg1 is-unread post-301342 message">x</div>', ["post-", "message"]),
    ],
)
def test_class_stems(markup, expected):
    assert list(class_stems(etree.fromstring(markup))) == expected


def test_the_name_link_not_the_letter_avatar():
    """An avatar draws the name's initials where the member has no picture: the poster's name
    is the link that shows it."""
    post = etree.fromstring(
        '<div><a href="/user/fgallese"><span class="avatar">F</span></a>'
        '<a href="/user/fgallese">fgallese</a><p>Great work!</p></div>'
    )
    assert _author_name(_author_link(post, _Page(post))) == "fgallese"


@pytest.mark.parametrize(
    ("markup", "expected"),
    [
        ("<blockquote>said before</blockquote>", True),
        ('<blockquote class="bq"><cite>Bob wrote:</cite>said before</blockquote>', True),
        ('<blockquote class="postcontent restore">my own words</blockquote>', False),
    ],
)
def test_a_blockquote_as_a_quote(markup, expected):
    assert _plain_quote(etree.fromstring(markup)) is expected


# A page whose posts are a header row and a body row each, in a table with no classes: the
# layout of phpBB 2-era and home-made forums. The join date in the header goes backwards.
ROWS = """<html><body><table>
<tr><td colspan="2">Forum index</td></tr>
{rows}
</table></body></html>"""
ROW = """<tr><td><b>{name}</b><br><span>Joined: {joined}</span></td>
<td>#{n} posted: {day}. Apr 2020, 1{n}:05</td></tr>
<tr><td colspan="2"><div>{text}</div><p>{likes} Likes</p></td></tr>"""


TEXTS = [
    "Which speakers would you pair with an old amplifier?",
    "Anything efficient: horns, or a small two-way.",
    "Thanks, I will listen to a few this weekend.",
]


def _rows_page():
    posters = [("alice", "03.05.2019"), ("bob", "01.01.2018"), ("alice", "03.05.2019")]
    rows = "\n".join(
        ROW.format(
            name=name,
            joined=joined,
            n=n,
            day=20 + n,
            text=TEXTS[n - 1],
            likes=n * 3,
        )
        for n, (name, joined) in enumerate(posters, 1)
    )
    return ROWS.format(rows=rows)


def test_a_page_of_header_and_body_rows():
    page = parse_page(_rows_page())
    assert [(p.author, p.time.strftime("%d %H:%M")) for p in page.posts] == [
        ("alice", "21 11:05"),
        ("bob", "22 12:05"),
        ("alice", "23 13:05"),
    ]
    assert [p.text for p in page.posts] == TEXTS
    assert page.doubts is not None and page.doubts.sure


def test_fields_are_not_read_further_once_a_record_set_cannot_win():
    doc = etree.fromstring(_rows_page(), etree.HTMLParser())
    run = max((run for parent in doc.iter() for run in records.repeated_runs(parent)), key=len)
    boxes = [records.as_element(r, wrap=True) for r in run]
    parts = [records.parts(box) for box in boxes]
    asked = []

    def worth(time, author):
        asked.append((time, author))
        return len(asked) < 2  # worth it once the time is chosen, not once the author is

    full = records.choose_fields(parts, UTC)
    assert full is not None and None not in (full.author, full.time, full.body)
    assert records.choose_fields(parts, UTC, lambda time, author: True) == full
    assert records.choose_fields(parts, UTC, worth) is None
    assert asked == [(True, True), (True, True)]


def test_records_that_name_no_author_say_so():
    page = parse_page(
        _rows_page().replace("<b>", "<b>Member ").replace("alice", "x").replace("bob", "x")
    )
    assert page.doubts is not None and not page.doubts.authors
    assert "no part of the records passes as the author" in page.doubts.unsure


def _post(author, text, day):
    return Post(str(day), None, author, _t(day) if day else None, None, f"<p>{text}</p>")


@pytest.mark.parametrize(
    ("posts", "doubt", "authors"),
    [
        ([_post("a", "hi", 1), _post("b", "yo", 2)], None, True),
        ([_post("a", "Thread title", 1), _post("b", "Thread title", 2)], "same text", True),
        ([_post("Log in", f"t{d}", d) for d in (1, 2, 3)], "a label, not a name", False),
        (
            [_post("a", "x", 5), _post("b", "y", 1), _post("a", "z", 3), _post("c", "w", 2)],
            "back and forth",
            True,
        ),
        ([_post("", "x", 1), _post("", "y", 2)], "2 of 2 posts show no author", False),
    ],
)
def test_page_doubts(posts, doubt, authors):
    found = page_doubts(posts, threaded=False)
    assert found.authors is authors
    if doubt is None:
        assert found.sure
    else:
        assert any(doubt in line for line in found.unsure)


@pytest.mark.parametrize(
    ("instant", "shown", "expected"),
    [
        ("2005-06-24T02:14:44+00:00", "2005-06-23T19:14:00", "2005-06-23T19:14:44-07:00"),
        ("2005-06-24T02:14:44+00:00", "2005-06-24T02:14:00", "2005-06-24T02:14:44+00:00"),
        ("2005-06-24T02:14:44+00:00", "2005-06-23T19:03:00", "2005-06-24T02:14:44+00:00"),
    ],
)
def test_on_shown_clock(instant, shown, expected):
    found = records.on_shown_clock(datetime.fromisoformat(instant), datetime.fromisoformat(shown))
    assert found.isoformat() == expected


def _unnamed_page():
    return _rows_page().replace("<b>", "<b>Member ").replace("alice", "x").replace("bob", "x")


def test_posts_says_in_one_line_when_the_reader_was_unsure(tmp_path):
    saved = tmp_path / "thread.html"
    saved.write_text(_unnamed_page())
    result = CliRunner().invoke(app, ["posts", str(saved)])
    assert result.exit_code == 0
    warning = [line for line in result.stderr.splitlines() if line.startswith("Warning:")]
    assert warning == [
        f"Warning: {saved}: the generic reader was unsure of this page (no part of the records "
        "passes as the author); check with modtool posts --explain"
    ]


def test_count_refuses_a_page_whose_authors_could_not_be_read(tmp_path):
    (tmp_path / "thread.html").write_text(_unnamed_page())
    (tmp_path / "game.toml").write_text(
        '[[sources]]\npath = "thread.html"\n[[players]]\nname = "alice"\n'
    )
    result = CliRunner().invoke(app, ["count", str(tmp_path)])
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines() == [
        f"Error: {tmp_path / 'thread.html'}: the posts' authors could not be read (no part of "
        "the records passes as the author); set selectors for the source in game.toml "
        "(modtool posts --explain gives a start)"
    ]


@pytest.mark.parametrize(
    ("markup", "expected"),
    [
        ('<i class="material-icons">more_horiz</i>', True),
        ('<span class="fa fa-reply"></span>', True),
        ('<span class="icon">not one word</span>', False),
        ('<div class="icon-user message-author"><a>abalaspalmas</a></div>', False),
        ("<i>more_horiz</i>", False),  # italics, not an icon font
    ],
)
def test_icon_glyph(markup, expected):
    assert icon_glyph(etree.fromstring(markup)) is expected


LABELLED = """<html><body>{posts}</body></html>"""
LABELLED_POST = """<div class="post">
<div class="poster"><a href="/member.php?u={n}">Log in</a></div>
<span class="date">2020-04-2{n} 10:0{n}</span>
<div class="content">{text}</div></div>"""


def test_a_label_every_post_shows_is_no_author(tmp_path):
    posts = "".join(LABELLED_POST.format(n=n, text=t) for n, t in enumerate(TEXTS, 1))
    page = parse_page(LABELLED.format(posts=posts))
    assert {p.author for p in page.posts} == {"Log in"}
    assert not page.doubts.authors
    assert "every post's author is 'Log in': a label, not a name?" in page.doubts.unsure
    (tmp_path / "thread.html").write_text(LABELLED.format(posts=posts))
    (tmp_path / "game.toml").write_text(
        '[[sources]]\npath = "thread.html"\n[[players]]\nname = "a"\n'
    )
    result = CliRunner().invoke(app, ["count", str(tmp_path)])
    assert result.exit_code == 1
    assert "the posts' authors could not be read (every post's author is 'Log in'" in result.stderr


CLASSLESS = """<html><body><div id="main"><h1>Speakers</h1>{posts}</div></body></html>"""
CLASSLESS_POST = """<div><div><a href="/profile/{name}">{name}</a><br>Joined: {joined}<br>
<span>{day}.04.2020 1{n}:05</span></div><div>{text}</div></div>"""
DEFINITIONS = """<html><body><dl>{posts}</dl></body></html>"""
DEFINITION_POST = """<dt><a href="/u/{n}">{name}</a> &middot; 2020-04-{day} 1{n}:05</dt>
<dd>{text}</dd>"""


@pytest.mark.parametrize(
    ("page", "post"),
    [(CLASSLESS, CLASSLESS_POST), (DEFINITIONS, DEFINITION_POST)],
    ids=["classless divs with join dates", "a definition list"],
)
def test_layouts_with_no_post_classes(page, post):
    posters = [("alice", "03.05.2019"), ("bob", "01.01.2018"), ("alice", "03.05.2019")]
    posts = "".join(
        post.format(n=n, name=name, joined=joined, day=20 + n, text=TEXTS[n - 1])
        for n, (name, joined) in enumerate(posters, 1)
    )
    found = parse_page(page.format(posts=posts)).posts
    assert [(p.author, p.time.strftime("%m-%d %H:%M"), p.text) for p in found] == [
        (name, f"04-{20 + n} 1{n}:05", TEXTS[n - 1]) for n, (name, _) in enumerate(posters, 1)
    ]


@pytest.mark.parametrize(
    ("markup", "name"),
    [
        ('<span class="author">by <b>Yoyo</b></span>', "Yoyo"),
        ('<span class="author">par <b>Yoyo</b></span>', "Yoyo"),  # French
        ('<span class="author">von <b>Yoyo</b></span>', "Yoyo"),  # German
        ('<span class="author">por <b>Yoyo</b></span>', "Yoyo"),  # Spanish, Portuguese
        ('<span class="author"><b>+</b>forster</span>', "+forster"),  # a group's mark
        ('<span class="author"><cite>Alice</cite> <span>says:</span></span>', "Alice"),
        ('<span class="author">Paris</span>', "Paris"),  # no lead word: the name as shown
    ],
)
def test_the_name_a_byline_shows(markup, name):
    assert _author_name(etree.fromstring(markup)) == name


def test_one_poster_throughout_is_an_author_when_a_member_link():
    """A thread of one poster (a moderators' announcements): the same member link in every
    record is the author; the same plain text in every record is a label."""
    page = _rows_page().replace("<b>bob</b>", "<b>alice</b>")
    linked = page.replace("<b>alice</b>", '<b><a href="/member/7">alice</a></b>')
    assert {p.author for p in parse_page(linked).posts} == {"alice"}
    assert not parse_page(page).doubts.authors


UNSURE_POST = """<div class="post"><div class="poster"><a href="/member.php?u={n}">{name}</a></div>
<span class="date">{date}</span><div class="content">{text}</div></div>"""


def _page_missing_a_time() -> str:
    """Four posts with a poster each, one of them with no time: read, and said to be unsure."""
    rows = [
        ("alice", "2020-04-21 10:01", TEXTS[0]),
        ("bob", "2020-04-22 10:02", TEXTS[1]),
        ("carol", "", TEXTS[2]),
        ("alice", "2020-04-24 10:04", "Vote: bob, he never answers the question."),
    ]
    posts = "".join(
        UNSURE_POST.format(n=n, name=name, date=date, text=text)
        for n, (name, date, text) in enumerate(rows, 1)
    )
    return f"<html><body>{posts}</body></html>"


@pytest.mark.parametrize("command", ["count", "init", "watch"])
def test_the_game_commands_say_when_the_reader_was_unsure(tmp_path, command):
    """count, init and watch read the page, and say in one line on stderr what the generic
    reader was unsure of, as posts does."""
    saved = tmp_path / "thread.html"
    saved.write_text(_page_missing_a_time())
    players = "".join(f'[[players]]\nname = "{n}"\n' for n in ("alice", "bob", "carol"))
    (tmp_path / "game.toml").write_text(f'[[sources]]\npath = "thread.html"\n{players}')
    args = {
        "count": ["count", str(tmp_path)],
        "init": ["init", str(tmp_path / "new"), "--thread", str(saved)],
        "watch": ["watch", str(tmp_path), "--times", "1"],
    }[command]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    warning = [line for line in result.stderr.splitlines() if line.startswith("Warning:")]
    assert warning == [
        f"Warning: {saved}: the generic reader was unsure of this page (1 of 4 posts show no "
        "time); check with modtool posts --explain"
    ]


def test_init_refuses_a_page_whose_authors_could_not_be_read(tmp_path):
    """Its posters would become the players: 'Log in' is none."""
    saved = tmp_path / "thread.html"
    saved.write_text(
        LABELLED.format(
            posts="".join(LABELLED_POST.format(n=n, text=t) for n, t in enumerate(TEXTS, 1))
        )
    )
    result = CliRunner().invoke(app, ["init", str(tmp_path / "new"), "--thread", str(saved)])
    assert result.exit_code == 1
    assert "the posts' authors could not be read (every post's author is 'Log in'" in result.stderr
    assert not (tmp_path / "new").exists()


def test_a_part_with_a_class_more_is_the_same_part():
    """A forum marks some posts with a class more (the opening post's "hasAds"): the message
    there is the message all the same."""
    page = _rows_page().replace("<div>", '<div class="text">')
    page = page.replace('<div class="text">', '<div class="hasAds text">', 1)
    posts = parse_page(page).posts
    assert [p.author for p in posts] == ["alice", "bob", "alice"]
    assert [p.text for p in posts] == TEXTS
    part = {(("div.text", 1),): "plain"}
    assert records.at_path(part, (("div.text", 1),)) == "plain"
    marked = {(("div.hasAds.text", 1),): "marked"}
    assert records.at_path(marked, (("div.text", 1),)) == "marked"
    assert records.at_path(marked, (("span.text", 1),)) is None


MENTION_POST = """<li class="message"><div class="sidebar"><div class="member">{name}</div></div>
<time datetime="2020-03-10T0{n}:00:00+01:00">10. März 2020</time>
<div class="messageText">{text}</div></li>"""


def test_a_member_named_in_a_post_is_not_its_poster():
    """The poster sits at the same place in every post: a profile link in one post's words (a
    member it mentions) is not that post's poster."""
    posts = [
        ("alice", TEXTS[0]),
        ("bob", TEXTS[1]),
        ("carol", 'Yes, <a href="/members/alice.3/">alice</a>, as I said before.'),
        ("dave", TEXTS[2]),
    ]
    items = "".join(
        MENTION_POST.format(n=n, name=name, text=text) for n, (name, text) in enumerate(posts, 1)
    )
    page = parse_page(f"<html><body><ol>{items}</ol></body></html>")
    assert [p.author for p in page.posts] == ["alice", "bob", "carol", "dave"]
    assert page.posts[2].text == "Yes, alice, as I said before."


@pytest.mark.parametrize(
    ("line", "reads"),
    [
        ("Beiträge: 1234", False),  # one number: a count
        ("5 posts", False),
        ("5 hours ago", True),  # the one-number form of a time
        ("21. Apr 2020, 19:40", True),
    ],
)
def test_a_date_line_names_two_numbers_or_says_ago(line, reads):
    from modtool.threads.forum.markup import time_from_text

    assert (time_from_text(line, UTC) is not None) is reads


@pytest.mark.parametrize(
    ("text", "author", "posted", "expected"),
    [
        ("[Beitrag von Dualist am 20. Apr 2004, 22:03 bearbeitet]", "Dualist", 1, True),
        ("Last edited by bob; April 20, 2004, 10:05 pm", "bob", 1, True),
        ("[Beitrag von Dualist am 20. Apr 2004, 22:03 bearbeitet]", "alice", 1, False),
        ("Dualist wrote on 19. Apr 2004, 10:00:", "Dualist", 1, False),  # before the post
        ("Dualist", "Dualist", 1, False),  # no time
    ],
)
def test_edit_note(text, author, posted, expected):
    """An edit note in any language: a short line naming the poster and a time no earlier
    than the post's."""
    at = datetime(2004, 4, 20, 22, 1, tzinfo=UTC)
    assert records.edit_note(text, author, at if posted else None, UTC) is expected


def test_a_record_body_with_nothing_to_cut_is_itself():
    body = etree.fromstring('<div><p>Vote: Ann</p><span class="note">x</span></div>')
    assert records._without(body, ("b",), {}, [("a",), None]) is body  # nothing of it goes
    iconed = etree.fromstring('<div><p>Vote: Ann</p><i class="fa fa-heart"></i></div>')
    kept = records._without(iconed, (), {}, [])
    assert kept is not iconed and kept.find("i") is None and iconed.find("i") is not None


def test_a_page_forgets_the_times_it_read():
    """Each line's time is read once per page, and forgotten with the page: "5 hours ago"
    is never read against an earlier page's clock."""
    from modtool.threads.forum import markup

    assert markup.time_from_text("Posted: 02 Jun 2018 05:41", UTC) is not None
    assert markup._displayed.cache_info().currsize > 0
    markup.forget_page()
    assert markup._displayed.cache_info().currsize == 0
    assert markup.time_from_text.cache_info().currsize == 0


@pytest.mark.parametrize(
    ("values", "expected", "read"),
    [
        (["a", "b", None, "c", "d"], ["a", "b", "", "c", "d"], 4),  # a record with no part
        (["a", "", "", "d", "e"], ["a", "", "", "d", "e"], 5),  # 3 of 5 is most
        (["a", "", "", "", "e"], None, 4),  # given up at the third record showing nothing
        (["a", None], None, 1),  # two records at least
    ],
)
def test_in_most_reads_until_most_cannot_show_one(values, expected, read):
    asked = []

    def reading(value):
        asked.append(value)
        return value

    assert records._in_most(values, reading, "") == expected
    assert len(asked) == read
