"""Reading post bodies: own text and vote lines, from a page's element and from stored HTML."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from modtool.threads.body import BOLD, NO_VOTE, OFFICIAL, Run, parse_body, read_html
from modtool.threads.forum import decode_page, parse_page

PAGES = Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "pages"


@pytest.mark.parametrize(
    ("html", "text", "lines"),
    [
        ("", "", []),
        ("one<br>two", "one two", [[("one", 0)], [("two", 0)]]),
        ("a &amp; b &lt;c&gt;", "a & b <c>", [[("a & b <c>", 0)]]),
        # Block edges break lines; whitespace collapses in the own text only.
        ("<p>one</p><p>two  words</p>", "one two words", [[("one", 0)], [("two  words", 0)]]),
        # A quote leaves the post, and ends the line it interrupts.
        (
            "Vote <blockquote>quoted</blockquote> after",
            "Vote after",
            [[("Vote ", 0)], [(" after", 0)]],
        ),
        # A signature, a script and a comment are not the poster's text.
        (
            'mine<div class="signature">sig</div><script>x()</script><!-- c -->',
            "mine",
            [[("mine", 0)]],
        ),
        # Bold keeps its flag; the text around it does not.
        (
            "say <b>VOTE: Bob</b> now",
            "say VOTE: Bob now",
            [[("say ", 0), ("VOTE: Bob", BOLD), (" now", 0)]],
        ),
        # Spoilers, code and struck text are part of the post, never a vote: one space stays.
        ("x <s>VOTE: A</s> y", "x VOTE: A y", [[("x ", 0), (" ", NO_VOTE), (" y", 0)]]),
        # Each official vote tag is a run of its own, even with nothing between two of them.
        (
            '<span class="bbvote">VOTE: a</span><span class="bbvote">VOTE: b</span>',
            "VOTE: aVOTE: b",
            [
                [
                    ("", 0),
                    ("VOTE: a", BOLD | OFFICIAL),
                    ("", 0),
                    ("", 0),
                    ("VOTE: b", BOLD | OFFICIAL),
                    ("", 0),
                ]
            ],
        ),
        # mafiascum's spoiler: a quotetitle saying "Spoiler" before its quotecontent.
        (
            '<div class="quotetitle">Spoiler:</div><div class="quotecontent"><b>VOTE: A</b></div>B',
            "VOTE: A B",
            [[("B", 0)]],
        ),
        # A layout table is plain; phpBB 2's quote table ("X wrote:" + td.quote) is a quote,
        # whatever tables were read before it.
        ("<table><tr><td>cell</td></tr></table>", "cell", [[("cell", 0)]]),
        (
            '<table><tr><td><b>Ann wrote:</b></td></tr><tr><td class="quote">VOTE: A</td></tr>'
            "</table>mine",
            "mine",
            [[("mine", 0)]],
        ),
        # A quote's BBCode the forum left as text, its closing bracket forgotten, is a quote;
        # text that only looks like its opening is the poster's.
        ('[quote="Ann"]<b>VOTE: A</b>[/quote<br>mine', "mine", [[("mine", 0)]]),
        ("[quote] me on that", "[quote] me on that", [[("[quote] me on that", 0)]]),
        # Bold the forum left as BBCode (a tag botched) is bold: between two such tags on a
        # line, or from an opening one to a blank line.
        ("[b]Vote: A]/b] x", "[b]Vote: A]/b] x", [[("[b]", 0), ("Vote: A", BOLD), ("]/b] x", 0)]]),
        (
            "[b] Unvote<br>Vote: A<br><br>later",
            "[b] Unvote Vote: A later",
            [[("[b]", 0), (" Unvote", BOLD)], [("Vote: A", BOLD)], [("later", 0)]],
        ),
        # A quotetitle that is not a spoiler heads a quote.
        (
            '<div class="quotetitle">Bob wrote:</div><div class="quotecontent">VOTE: A</div>B',
            "B",
            [[("B", 0)]],
        ),
    ],
)
def test_reading(html, text, lines):
    body = parse_body(html)
    assert body.text == text
    assert body.lines == tuple(tuple(Run(t, f) for t, f in line) for line in lines)


def test_quote_inside_bold_ends_the_bold_run_line():
    body = parse_body("<b>VOTE: A<blockquote>q</blockquote>B</b>")
    assert body.lines == ((Run("VOTE: A", BOLD),), (Run("B", BOLD),))


# Pages the generic reader cannot read yet; strict, so the mark must go once it can.
_NOT_READ_YET: dict[str, str] = {}


def _saved_pages():
    if not PAGES.is_dir():
        yield pytest.param(
            None, marks=[pytest.mark.skip(reason="../shared/fixtures/pages is absent")]
        )
    for page in sorted(PAGES.rglob("*.html")):
        reason = _NOT_READ_YET.get(page.parent.name)
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        yield pytest.param(page, id=f"{page.parent.name}/{page.name}", marks=marks)


@pytest.mark.parametrize("page", list(_saved_pages()))
def test_a_page_reads_its_bodies_as_their_stored_html_does(page):
    """Engines read bodies from the page's tree; posts files store the body HTML. Both agree,
    and a page read from its bytes gives the posts its decoded text gives."""
    data = page.read_bytes()
    from_text = parse_page(decode_page(data)).posts
    from_bytes = parse_page(data).posts  # UTF-8 pages are parsed from their bytes
    assert from_bytes == from_text
    assert from_bytes
    for post in from_bytes:
        assert post.reading == read_html(post.html), post.number


_WORDS = st.sampled_from(["vote", "Bob", "x", "&amp;", "é", "한국", " ", "\n", "\u00a0"])
_TAGS = st.sampled_from(["b", "i", "s", "p", "div", "span", "blockquote", "code", "strong"])


@st.composite
def _fragments(draw, depth=0):
    parts = []
    for _ in range(draw(st.integers(0, 4))):
        if depth < 3 and draw(st.booleans()):
            tag = draw(_TAGS)
            parts.append(f"<{tag}>{draw(_fragments(depth + 1))}</{tag}>")
        elif draw(st.booleans()):
            parts.append("<br>")
        else:
            parts.append(draw(_WORDS))
    return "".join(parts)


@settings(max_examples=300, deadline=None)
@given(_fragments())
def test_readings_never_leak_markers_or_line_breaks(html):
    body = parse_body(html)
    assert not any("\ue000" <= ch <= "\ue0ff" for ch in body.text)
    assert body.text == " ".join(body.text.split())
    for line in body.lines:
        assert line and any(run.text.strip() for run in line)
        for run in line:
            assert "\n" not in run.text
            assert not any("\ue000" <= ch <= "\ue0ff" for ch in run.text)


@settings(max_examples=300, deadline=None)
@given(_fragments())
def test_without_quotes_every_character_of_the_post_is_its_own_text(html):
    from lxml import etree

    if "blockquote" in html:
        html = html.replace("blockquote", "div")
    root = etree.fromstring(f"<html><body>{html}</body></html>", etree.HTMLParser())
    everything = etree.tostring(root, method="text", encoding=str) if root is not None else ""
    assert "".join(parse_body(html).text.split()) == "".join(everything.split())


# Quotes known by their words alone (issue 15, item 3): the header goes with the quote; a
# post's own first line that happens to read "X wrote:" is not a quote.
@pytest.mark.parametrize(
    ("html", "text"),
    [
        # a header line just before a blockquote: an element of its own, or text before <br>
        (
            "<p>Quote from gina</p><blockquote><p>Here now.</p></blockquote><p>Welcome.</p>",
            "Welcome.",
        ),
        ("Alice wrote:<br><blockquote>VOTE: Bob</blockquote>no way", "no way"),
        ("<b>Alice wrote:</b><blockquote>VOTE: Bob</blockquote>no way", "no way"),
        ("I agree.<br>On Nov 1, 2026, Alice said:<br><blockquote>x</blockquote>", "I agree."),
        ("<p>Originally Posted by Alice</p><blockquote>x</blockquote>ok", "ok"),
        # a plain div or table that opens with a header and holds the quoted words
        ("<div>Alice wrote:<br>VOTE: Bob</div>I agree", "I agree"),
        ("<div><div>Alice posted:</div><div>VOTE: Bob</div></div><div>nope</div>", "nope"),
        ("<table><tr><td>Quote:</td></tr><tr><td>VOTE: Bob</td></tr></table><p>hm</p>", "hm"),
        ("<div>Quote from: Alice on April 25, 2018, 10:22:01 pm<br>x</div>mine", "mine"),
        ("<div>QUOTE(Alice @ Nov 1 2026, 09:00)<br>x</div>mine", "mine"),
        ("<p>reply</p><div>On 11/1/2026 9:00 AM, Alice said:<br>x</div>", "reply"),
        # not quotes: the whole post, a header with nothing under it, a sentence
        ("<div>Alice wrote:<br>VOTE: Bob</div>", "Alice wrote: VOTE: Bob"),
        ("<div>Alice wrote:</div><div>VOTE: Bob</div>", "Alice wrote: VOTE: Bob"),
        ("Bob wrote: VOTE: carol<br>that was his vote", "Bob wrote: VOTE: carol that was his vote"),
        ("<p>I said:</p><p>VOTE: carol</p>", "I said: VOTE: carol"),
        (
            "<div>I quote the rules here:<br>no claims</div>ok",
            "I quote the rules here: no claims ok",
        ),
        ("<p>Quote from gina</p><p>Welcome.</p>", "Quote from gina Welcome."),
    ],
)
def test_quotes_known_by_their_header(html, text):
    assert parse_body(html).text == text


def test_a_vote_under_a_quote_header_is_not_the_posters():
    body = parse_body("<div>Alice wrote:<br><b>VOTE: Bob</b></div>I agree")
    assert [r.text for line in body.lines for r in line] == ["I agree"]


@settings(max_examples=300, deadline=None)
@given(_fragments())
def test_an_owned_body_marked_in_place_reads_as_its_copy_does(html):
    """A page read once lets its bodies be marked where they are (owned): the same reading."""
    from lxml import etree

    from modtool.threads.body import inner_html, read

    def body():
        root = etree.fromstring(f"<html><body><div>{html}</div></body></html>", etree.HTMLParser())
        return root.find("body/div") if root is not None else None

    copied, owned = body(), body()
    if copied is None:
        return
    source = inner_html(copied)
    assert read(owned, source, owned=True) == read(copied, source)
    assert inner_html(copied) == source  # a body not owned is left as it was


@pytest.mark.parametrize(
    ("text", "marked"),
    [
        ("", False),
        ("plain ascii", False),
        ("é non-ascii", False),
        ("\ue001bold\ue002", True),
        ("only a closing \ue006", True),
        ("\ue003", True),
        ("\ue000 \ue007 neighbours", False),
    ],
)
def test_has_marks(text, marked):
    from modtool.threads.body import _has_marks

    assert _has_marks(text) is marked


_RICH_PIECES = st.sampled_from(
    [
        "vote",
        "Bob wrote:",
        " ",
        "\n",
        "\u00a0",
        "&lt;b&gt;",
        "<br>",
        "<hr>",
        "<img src=x>",
        '<img class="smilies" src=x>',
        "<!-- note -->",
        "<li></li>",
        "[b]x[/b]",
        '[quote="Ann"]y[/quote]',
    ]
)
_RICH_TAGS = st.sampled_from(
    [
        "li",
        "ul",
        "p",
        "div",
        "td",
        "pre",
        "blockquote",
        "cite",
        "b",
        "span",
        'span class="bbvote"',
        'div class="quotetitle"',
        'div class="quotecontent"',
        'div class="codebox"',
        'span style="text-decoration: line-through"',
    ]
)


# Bodies nested up to a dozen pieces deep, each element holding up to four pieces
_RICH_FRAGMENTS = st.lists(
    st.recursive(
        _RICH_PIECES,
        lambda inner: st.builds(
            lambda tag, kids: f"<{tag}>{''.join(kids)}</{tag.split()[0]}>",
            _RICH_TAGS,
            st.lists(inner, max_size=4),
        ),
        max_leaves=12,
    ),
    max_size=4,
).map("".join)


def _owned_and_copied(element):
    """The reading of an element read as its own (marked in place, read as text) and of the
    same element read from its serialised copy."""
    import copy

    from modtool.threads.body import inner_html, read

    source = inner_html(element)
    return read(copy.deepcopy(element), source, owned=True), read(element, source)


@settings(max_examples=500, deadline=None)
@given(_RICH_FRAGMENTS)
def test_an_owned_body_reads_as_its_html_does_whatever_its_breaks_and_ends(html):
    """An owned body is read from its tree (its line breaks put in its text), a body not owned
    from its HTML: the same reading, with empty list items, rules, images, comments, and
    whitespace at either end of the body."""
    from lxml import etree

    root = etree.fromstring(f"<html><body><div>{html}</div></body></html>", etree.HTMLParser())
    element = root.find("body/div") if root is not None else None
    if element is None:
        return
    owned, copied = _owned_and_copied(element)
    assert owned == copied


def _saved_page_files():
    shared = PAGES.parent
    files = sorted(PAGES.rglob("*.html")) + sorted(
        (shared / "web-forum-52-dev" / "pages").glob("*.html")
    )
    if not files:
        return [pytest.param(None, marks=pytest.mark.skip(reason="../shared is absent"))]
    return [pytest.param(f, id=f"{f.parent.name}/{f.name}") for f in files]


@pytest.mark.parametrize("page", _saved_page_files())
def test_every_block_of_a_saved_page_reads_alike_owned_or_copied(page):
    """Every block that could be a post body on the saved pages, of any engine, reads the same
    from its own tree as from its serialised HTML."""
    from lxml import etree

    from modtool.threads.forum import _document

    doc = _document(page.read_bytes())
    blocks = [el for el in doc.iter("div", "td", "blockquote", "li", "article", "section")]
    assert blocks
    for element in blocks:
        owned, copied = _owned_and_copied(element)
        assert owned == copied, etree.tostring(element, encoding=str)[:300]
