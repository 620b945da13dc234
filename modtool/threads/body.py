"""A post body, reduced to what the rest of modtool reads: its own text and its vote-eligible lines.

Engines hand over the body element of a post (or its HTML); this module decides which parts of
it are the poster's own words (quotes are not), and which parts may hold a vote (quotes,
spoilers, code and struck-out text may not).

Why it works the way it does: walking every element and text node in Python cost about two
thirds of parsing the whole page. So most of the reading is done by lxml's serialiser and
regular expressions, which run in C. Only the few elements that change the reading are visited
in Python (quotes, bold, spoilers, signatures...). They are removed, or fenced with marker
characters, on a copy of the body. The copy is serialised, and tags, line breaks and entities
become text in three substitutions. A body with none of those elements is read from its HTML
alone.

The result is the body's "reading": its text with line breaks as "\\n" and the markers below.
Own text and vote lines are both derived from it, each when first asked for.
"""

from __future__ import annotations

import copy
import hashlib
import importlib.util
import os
import re
from functools import cache, lru_cache
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import lxml  # the package alone (its version), not lxml.etree

from .lazy_modules import lazy_module
from .patterns import lazy

if TYPE_CHECKING:
    import html as _html

    from lxml import etree
else:  # a count from kept readings parses no HTML: lxml is imported when a body is read
    etree = lazy_module("lxml.etree")
    _html = lazy_module("html")  # html.entities' table: 1 ms

# Run flags.
BOLD = 1
OFFICIAL = 2  # phpBB's rendered [vote] tag (span.bbvote): a vote by construction
NO_VOTE = 4  # spoiler, code or struck-out text: part of the post, never a vote


class Run(NamedTuple):
    """A stretch of one line's text with one set of flags."""

    text: str
    flags: int = 0


class Body(NamedTuple):
    """What modtool reads from one post body."""

    text: str  # the poster's own text, whitespace collapsed (quotes removed)
    lines: tuple[tuple[Run, ...], ...]  # vote-eligible runs, line by line


# Markers that fence emphasis in a reading: Unicode private-use characters, which forum text
# all but never holds (a post that holds one literally is misread only in its emphasis).
_ON = {BOLD: "\ue001", OFFICIAL: "\ue003", NO_VOTE: "\ue005"}
_OFF = {BOLD: "\ue002", OFFICIAL: "\ue004", NO_VOTE: "\ue006"}
_FLAG_OF = {v: k for k, v in _ON.items()} | {v: k for k, v in _OFF.items()}
_ALL_MARKS = tuple(_FLAG_OF)
_MARKS = lazy("[\ue001-\ue006]")
_TOKENS = lazy("([\ue001-\ue006])")

_BLOCK_TAGS = (
    "div p li ul ol tr table tbody thead th td blockquote h1 h2 h3 h4 h5 h6 fieldset "
    "legend hr pre dl dt dd section article header footer aside figure".split()
)
_BLOCK_TAG_SET = frozenset(_BLOCK_TAGS)
_SKIP_TAGS = frozenset("script style input button select textarea noscript iframe".split())
_STRIKE_TAGS = frozenset("strike s del".split())
_CODE_TAGS = frozenset("code pre".split())
_BOLD_TAGS = frozenset("b strong".split())
_QUOTE_CLASS = lazy(r"\b(bbCodeQuote|bbcode_quote|bbcode_container|quote|quotecontent)\b")
_SPOILER_CLASS = lazy(r"spoiler", re.I)
_DROP_CLASS = lazy(
    r"\b(signature|postsignature|notice|edited|editedBy|postedit|message-lastEdit|post-edit-reason|"
    r"bbCodeBlock-expandLink|bbCodeBlock-title|quoteheader|quotetitle|codetitle|codeheader|"
    r"ad|ads|advert|advertisement)\b"
)
_BOLD_STYLE = lazy(r"font-weight\s*:\s*(bold|[6-9]00)", re.I)
_STRIKE_STYLE = lazy(r"text-decoration(?:-line)?\s*:[^;]*line-through", re.I)

# Elements that may change the reading; everything else is plain text and line breaks.
_SPECIAL_TAGS = _SKIP_TAGS | _STRIKE_TAGS | _CODE_TAGS | _BOLD_TAGS | {"blockquote", "details"}
_SPECIAL_TAG = lazy(r"<(?:" + "|".join(sorted(_SPECIAL_TAGS | {"summary", "cite"})) + r")[\s>/]")
# Words of a quote header: a body with none of them and nothing above is read from its HTML.
# Plain substring tests: a case-blind alternation in the pattern above made every scan slower.
_HEADER_HINTS = ("wrote", "said", "posted", "writes", "says", "quote")
# A quote's header, where the words alone mark a quote (a plain div or table, or a line just
# before a blockquote): "Alice wrote:", "On Nov 1, 2026, Alice said:", "Alice posted:",
# "Quote from Alice", "Quote from: Alice on <date>" (SMF), "Originally Posted by Alice"
# (vBulletin), "QUOTE(Alice @ <date>)" (Invision 2), or a bare "Quote:".
_QUOTE_HEADER = lazy(
    r"(?:on\s.{3,60}?,\s*)?\S.{0,40}?\s(?:wrote|said|posted|writes|says)\s*:?"
    r"|quote(?:\s+from\s*:?|\s*:)\s*.{0,40}?(?:\s+on\s.{3,60})?"
    r"|quote\s*\(.{1,80}\)\s*:?"
    r"|originally\s+posted\s+by\s*:?\s*.{1,40}",
    re.I,
)
_HEADER_WORD = lazy(r"wrote|said|posted|writes|says|quote", re.I)
# Plain unless a class or style says otherwise (img too: it has no text to keep or drop).
_PLAIN_TAGS = frozenset("a span i em u font small sub sup big tt abbr br img li ul ol".split())
# lxml's serialiser escapes "<" and ">" inside attribute values, so a tag ends at the first ">".
_COMMENT = lazy(r"<!--.*?-->", re.S)
_BREAK_TAG = lazy(r"<(?:br|/?(?:" + "|".join(_BLOCK_TAGS) + r"))\b[^>]*>")
_TAG = lazy(r"<[^>]*>")


@cache
def _parser():
    return etree.HTMLParser(collect_ids=False)  # no id table: nothing asks it


def text_of(el) -> str:
    """An element's text, as lxml.html's text_content() gives it. lxml's text serialiser gives
    what XPath's string() gave (libxml2's same walk over the text nodes) in half the time, and
    a plain string, not one that keeps its tree alive."""
    return etree.tostring(el, method="text", encoding=str, with_tail=False)


@cache
def reader_version() -> bytes:
    """What a body's reading depends on besides its HTML: this module's code, lxml's release
    and its lxml.etree file (found, not imported: a count from kept readings never imports it).
    A release fixes the libxml2 its wheels are built with, and an lxml built or installed again
    is another file; a reading kept under another version is not used. Only a system lxml
    linked to a libxml2 upgraded apart from it keeps its readings (the README says what to do)."""
    source = Path(__file__).read_text(encoding="utf-8")
    spec = importlib.util.find_spec("lxml.etree")
    built = os.stat(spec.origin) if spec and spec.origin else None
    made = (built.st_size, built.st_mtime_ns) if built else None
    versions = f"{source}{lxml.__version__}{made}"
    return hashlib.blake2b(versions.encode(), digest_size=32).digest()


def reading_digest(html: str) -> bytes:
    """The key a reading of this HTML is kept under: the HTML and the reader's version."""
    return hashlib.blake2b(html.encode(), digest_size=16, key=reader_version()).digest()


def parse_body(html: str) -> Body:
    """Read a post body's HTML into its own text and its vote-eligible lines."""
    reading = read_html(html)
    return Body(own_text(reading), vote_lines(reading))


# The characters XML (and so lxml's tree) cannot hold: C0 controls but tab, newline and
# carriage return. A post holding one (an ESC pasted into a posts file) reads with its
# Control Pictures sign in its place ("␛" for ESC), as a host would want to see it.
_NOT_XML = {c: 0x2400 + c for c in range(0x20) if chr(c) not in "\t\n\r"}


def read_html(html: str) -> str:
    """The reading of a post body given as HTML."""
    if not html or not html.strip():
        return ""
    try:
        return _read_wrapped(html)
    except ValueError:  # lxml will not set a text holding a C0 control: only then is the
        return _read_wrapped(html.translate(_NOT_XML))  # body translated (every body: slower)


def _read_wrapped(html: str) -> str:
    # The body element is the wrapper: stray closing tags in a post cannot escape it.
    doc = etree.fromstring(f"<html><body>{html}</body></html>", _parser())
    root = doc.find("body") if doc is not None else None
    if root is None:
        return ""
    return read(root, inner_html(root), owned=True)  # the tree is this call's alone


def inner_html(el: etree._Element) -> str:
    """The HTML inside an element (its own tag excluded), serialised in one call."""
    whole = etree.tostring(el, encoding=str, method="html", with_tail=False)
    opening, closing = whole.find(">") + 1, whole.rfind("</")
    return whole[opening : closing if closing >= opening else len(whole)].strip()


def read(element: etree._Element, html: str, owned: bool = False) -> str:
    """The reading of a body element whose inner HTML (`inner_html`) is `html`. An `owned`
    element (of a page that is read once and then dropped) is marked where it is, not copied
    (the copy cost a quarter of reading a body), and read as text, not serialised again."""
    special = _may_change(html)
    if owned:
        return _literal_text(_tree_text(element, special))
    if special:
        marked = _marked_copy(element)
        if marked is not None:
            html = inner_html(marked)
    if "<!--" in html:
        html = _COMMENT.sub("", html)
    text = _TAG.sub("", _BREAK_TAG.sub("\n", html))
    return _literal_text(_html.unescape(text) if "&" in text else text)


def _tree_text(element, special: bool) -> str:
    """What `read` makes of the inner HTML of an element, made from the element itself, which
    is changed: marked where it is (when `special`), its ends stripped as `inner_html` strips
    them, a line break put where each break tag is, then read by lxml's text serialiser (six
    times faster than the HTML one, and nothing to unescape)."""
    breaks: list = []
    if special:
        _apply([(el, kind) for _, el, kind in _changes(element, breaks)])
    else:
        for el in element.iterdescendants():
            _note_break(el, el.tag, breaks)
    last = element[-1] if len(element) else None
    if element.text:
        element.text = element.text.lstrip() if last is not None else element.text.strip()
    if last is not None and last.tail:
        last.tail = last.tail.rstrip()
    _break_lines(breaks)
    return text_of(element)


def _break_lines(breaks) -> None:
    """A line break where each break tag of these elements would be in their HTML. Elements
    taken out of the body since they were gathered may be changed too: they are not read."""
    for el, line_breaks in breaks:
        if el.tag == "br":
            el.text = "\n"  # (a br holds no text)
        elif line_breaks == _OPEN_ONLY:
            el.text = "\n" + (el.text or "")
        else:
            # Sorted out before the text changes: an empty li shows no closing tag
            if el.tag != "li" or el.text is not None or len(el):
                el.tail = "\n" + (el.tail or "")
            el.text = "\n" + (el.text or "")


# Which of its tags the HTML serialiser writes for an element that _BREAK_TAG makes a line
# break: br and hr, empty elements, only their opening tag.
_OPEN_ONLY, _OPEN_CLOSE = 1, 2
_BREAK_OPENING = lazy(r"(?:br|" + "|".join(_BLOCK_TAGS) + r")\b")
_BREAK_CLOSING = lazy(r"(?:" + "|".join(_BLOCK_TAGS) + r")\b")
# The elements the HTML serialiser writes without their content (libxml2's empty elements)
_VOID_TAGS = frozenset(
    "br hr img input col area param basefont frame isindex link meta base".split()
)


_BREAKS: dict = {}  # tag -> what _break_kind says of it, learnt as tags are met


def _note_break(el, tag, breaks: list) -> None:
    """Put an element in `breaks` where its tags make line breaks (_break_kind, learnt once a
    tag; 0 for a comment)."""
    line_breaks = _BREAKS.get(tag)
    if line_breaks is None:
        line_breaks = _BREAKS[tag] = _break_kind(tag) if isinstance(tag, str) else 0
    if line_breaks:
        breaks.append((el, line_breaks))


def _break_kind(tag: str) -> int:
    """How many line breaks an element's tags make in a reading: none, at its opening tag only
    (_OPEN_ONLY), or at both (_OPEN_CLOSE), exactly as _BREAK_TAG finds them in its HTML."""
    if not _BREAK_OPENING.match(tag):
        return 0
    if tag in _VOID_TAGS or not _BREAK_CLOSING.match(tag):
        return _OPEN_ONLY
    return _OPEN_CLOSE


def _literal_text(text: str) -> str:
    """A reading with the quotes and bold that the forum left as BBCode text read."""
    if "[/" in text:
        text = _LITERAL_QUOTE.sub(_quote_gone, text)
    # Every literal bold tag holds a bracket: two substring tests spare most readings a search
    # that starts at every character
    bracket = "[" in text or "]" in text
    return _literal_bold(text) if bracket and "b" in text and _B_TAG.search(text) else text


# A quote whose BBCode the forum left as text, as a closing bracket forgotten leaves it:
# '[quote="Ann"]Vote: Bo[/quote' is still Ann's words, not the poster's.
_LITERAL_QUOTE = lazy(r"\[quote\b[^\]\n]*\].*?\[/quote\]?", re.I | re.S)


# Bold whose BBCode the forum left as text, as a typo leaves it: "[b]Vote: Ann]/b]",
# "[b[Vote: Ann[/b]", "[b]Vote: Ann[/i]", "[b]Vote: Ann[b]", "[/b]Vote: Ann[/b]", or an
# opening "[b]" never closed. The text between two such tags on a line is bold; so is the
# text after an opening one with no closing tag on its line, up to a blank line.
_B_TAG = lazy(r"\[b\]|\[/b\]|\[b\[|\]/b\]|\[b/\]", re.I)
_B_OPENER = frozenset({"[b]", "[b["})
_B_CLOSE = lazy(r"\[b\]|\[/b\]|\[b\[|\]/b\]|\[b/\]|\[/[a-z]+\]", re.I)
_BLANK_LINE = lazy(r"\n[ \t\xa0]*\n")


def _literal_bold(text: str) -> str:
    """The reading with bold markers around what literal bold tags make bold."""
    out, pos = [], 0
    while (m := _B_TAG.search(text, pos)) is not None:
        line_end = text.find("\n", m.end())
        line_end = len(text) if line_end < 0 else line_end
        close = _B_CLOSE.search(text, m.end(), line_end)
        if close is not None:
            end, resume = close.start(), close.end()
        elif m[0].lower() in _B_OPENER:
            blank = _BLANK_LINE.search(text, m.end())
            end = resume = blank.start() if blank else len(text)
        else:  # a closing tag alone on its line closes nothing the forum left open
            out.append(text[pos : m.end()])
            pos = m.end()
            continue
        out.append(f"{text[pos : m.end()]}{_ON[BOLD]}{text[m.end() : end]}{_OFF[BOLD]}")
        out.append(text[end:resume])
        pos = resume
    out.append(text[pos:])
    return "".join(out)


def _quote_gone(m: re.Match[str]) -> str:
    """What is left of a literal quote: a paragraph break, and the emphasis markers inside it
    (so that emphasis opened in it and closed after it stays balanced)."""
    return "\n\n" + "".join(_MARKS.findall(m[0])) + "\n"


def _may_change(html: str) -> bool:
    """Whether an element of a body may change its reading (else its HTML alone reads it):
    any class or style attribute, a special tag, or a quote header's word. Substring tests
    first: a pattern's search for a class or style, which starts at every space, cost more."""
    return (
        "class=" in html
        or "style=" in html
        or _SPECIAL_TAG.search(html) is not None
        or _hints_header(html)
    )


def _hints_header(html: str) -> bool:
    lowered = html.lower()
    return any(word in lowered for word in _HEADER_HINTS)


def _has_marks(text: str) -> bool:
    """Whether a text holds a marker: six substring tests run faster than one search."""
    return not text.isascii() and any(mark in text for mark in _ALL_MARKS)


def own_text(reading: str) -> str:
    """The poster's own text: quotes gone, whitespace collapsed."""
    if reading.isascii():
        return " ".join(reading.split())  # no markers, no zero-width spaces
    for mark in _ALL_MARKS:
        if mark in reading:
            reading = reading.replace(mark, "")
    return " ".join(reading.replace("\u200b", "").split())


def vote_lines(reading: str) -> tuple[tuple[Run, ...], ...]:
    """The lines of a reading that may hold a vote, as runs of text with their flags."""
    if not _has_marks(reading):
        return tuple((Run(line),) for line in reading.split("\n") if line.strip())
    flags = 0
    depth = {BOLD: 0, OFFICIAL: 0, NO_VOTE: 0}
    lines: list[tuple[Run, ...]] = []
    for piece in reading.split("\n"):
        if not _has_marks(piece):
            if piece.strip() and not flags & NO_VOTE:
                lines.append((Run(piece, flags),))
            continue
        line: list[Run] = []
        for token in _TOKENS.split(piece):
            flag = _FLAG_OF.get(token)
            if flag is not None:
                depth[flag] += 1 if token == _ON[flag] else -1
                flags = sum(f for f, d in depth.items() if d > 0)
                if flags & OFFICIAL:
                    flags |= BOLD  # an official vote is also read as bold
                if flag == OFFICIAL:
                    line.append(Run("", 0))  # each [vote] tag is a vote of its own
            elif flags & NO_VOTE:
                # Hidden text still parts the words around it, and stays inside the emphasis
                # around it: "<b>Vote: <s>Bob</s> Alice</b>" is one bold vote for Alice.
                hidden = Run(" ", flags)
                if not line or line[-1] != hidden:
                    line.append(hidden)
            elif token:
                line.append(Run(token, flags))
        if any(r.text.strip() for r in line):
            lines.append(tuple(line))
    return tuple(lines)


def _marked_copy(element):
    """A copy of the body with quotes and hidden parts removed and emphasis fenced by markers,
    or None when no element in it changes the reading."""
    changes = _changes(element)
    if not changes:
        return None
    twin = copy.deepcopy(element)
    twin_elements = list(twin.iter())
    _apply([(twin_elements[index], kind) for index, _, kind in changes])
    return twin


def _changes(element, breaks: list | None = None) -> list:
    """The elements of a body that change its reading, as (index in element.iter(), element,
    kind), all sorted out before any change (a kind can depend on a neighbour: a spoiler's
    title). With `breaks`, the elements that make line breaks go in it too (see _break_lines):
    one walk over the body for both."""
    changes = []
    gone_until = 0  # the last index inside a quote or skipped part: nothing there is read
    for index, el in enumerate(element.iter()):
        if index == 0 or index <= gone_until:
            continue  # the body itself; inside a removed part
        tag = el.tag
        if breaks is not None:
            _note_break(el, tag, breaks)
        if tag == "br" or not isinstance(tag, str):
            continue  # a br changes nothing whatever its class; comments (dropped with the tags)
        cls, style = el.get("class"), el.get("style")
        if cls is None and style is None and tag in _PLAIN_TAGS:
            continue
        kind = _element_kind(el, element)
        if kind != "plain":
            changes.append((index, el, kind))
            if kind in ("quote", "skip"):
                gone_until = index + sum(1 for _ in el.iterdescendants())
    return changes


def _apply(changes) -> None:
    """Make each change in its element: remove it, or fence its text."""
    for el, kind in changes:
        if kind == "skip":  # a block taken out still parts the words around it
            _replace(el, "\n" if el.tag in _BLOCK_TAG_SET else "")
        elif kind == "quote":
            _drop_header_before(el)
            _replace(el, "\n\n")
        elif kind == "bold":
            _fence(el, BOLD)
        elif kind == "official":
            _fence(el, OFFICIAL)
        else:  # spoiler, code, strike
            _fence(el, NO_VOTE)


def _replace(el, text: str) -> None:
    """Take an element out of the copy, leaving `text` and its tail where it was."""
    parent = el.getparent()
    if parent is None:
        return
    text += el.tail or ""
    previous = el.getprevious()
    if previous is not None:
        previous.tail = (previous.tail or "") + text
    else:
        parent.text = (parent.text or "") + text
    parent.remove(el)  # lxml removes the tail with the element: it was kept above


def is_quote_header(line: str) -> bool:
    """Whether a line is a quote's header ("Alice wrote:", "Quote from Alice", "Quote:")."""
    line = " ".join(_MARKS.sub("", line).split())
    return 0 < len(line) <= 160 and _QUOTE_HEADER.fullmatch(line) is not None


_HEADER_TAGS = frozenset("p div b strong span cite small em i font u h4 h5 h6".split())


def _drop_header_before(quote) -> None:
    """Take out the header line just before a quote ("Quote from gina" then a blockquote):
    an element of its own, or the last line of the text before the quote."""
    prev = quote.getprevious()
    while prev is not None and not isinstance(prev.tag, str):
        prev = prev.getprevious()
    between = (prev.tail if prev is not None else quote.getparent().text) or ""
    if prev is not None and prev.tag == "br" and not between.strip():
        # "Alice wrote:<br><blockquote>": the header is the text before the line break
        br, prev = prev, prev.getprevious()
        between = (prev.tail if prev is not None else br.getparent().text) or ""
        owner, attr = (prev, "tail") if prev is not None else (br.getparent(), "text")
    else:
        owner, attr = (prev, "tail") if prev is not None else (quote.getparent(), "text")
    head, _, last = between.rstrip().rpartition("\n")
    if last.strip() and is_quote_header(last):
        setattr(owner, attr, head + "\n")
    elif (
        not between.strip()
        and prev is not None
        and prev.tag in _HEADER_TAGS
        and len(prev) <= 3
        and is_quote_header(text_of(prev))
    ):
        _replace(prev, "\n")


def _starts_with_header(block, body) -> bool:
    """A plain div or table that opens with a quote header, holds more after it, and is not
    the whole post: a quote marked by its words alone."""
    # Only the block's first few words are looked at ("<b>Alice</b> wrote:" is three pieces).
    opening = "".join(islice(block.itertext(), 6))
    if not _HEADER_WORD.search(opening, 0, 300):
        return False
    for outer in block.iterancestors():
        if outer is body:
            break
        if outer.tag == "blockquote" or _QUOTE_CLASS.search(_classes(outer)):
            return False  # inside a quote already (phpBB's blockquote > div > cite)
    header, more = _first_line(block)
    if not more or not is_quote_header(header):
        return False
    # the poster wrote something besides
    return len(text_of(body).strip()) > len(text_of(block).strip()) + 1


def _first_line(block) -> tuple[str, bool]:
    """A block's first line of text, and whether any text follows it."""
    html = inner_html(block)
    start = 0
    for brk in _BREAK_TAG.finditer(html):
        line = _TAG.sub("", html[start : brk.start()])
        if line.strip():
            return _html.unescape(line), bool(_TAG.sub("", html[brk.end() :]).strip())
        start = brk.end()
    return _html.unescape(_TAG.sub("", html[start:])), False


def _fence(el, flag: int) -> None:
    """Mark where an element's text starts and ends (its tail is outside)."""
    if el.tag in _VOID_TAGS:
        return  # no text of its own: the HTML serialiser would not write the markers
    el.text = _ON[flag] + (el.text or "")
    if len(el):
        last = el[-1]
        last.tail = (last.tail or "") + _OFF[flag]
    else:
        el.text += _OFF[flag]


def _classes(el) -> str:
    return el.get("class") or ""


def _is_spoiler_title(el) -> bool:
    """mafiascum renders spoilers as div.quotetitle "Spoiler:" + div.quotecontent."""
    return "quotetitle" in _classes(el) and "spoiler" in text_of(el).lower()


def _element_kind(el, body) -> str:
    """What an element does to the reading: its attributes decide, except where a neighbour
    does (a spoiler's title, a quote table's cells, a box's label, a code box's caption) or
    its first line does (a plain block opening with "Alice wrote:")."""
    tag = el.tag
    cls = el.get("class") or ""
    kind = _attribute_kind(tag, cls, el.get("style") or "")
    if kind == "quote" and "quotecontent" in cls:
        prev = el.getprevious()
        if prev is not None and _is_spoiler_title(prev):
            return "spoiler"
    elif kind == "plain":
        if tag == "table" and _quote_table(el):
            return "quote"
        if tag == "div":
            kind = _box_label(el) or kind
        if kind == "plain" and tag in ("div", "table") and _starts_with_header(el, body):
            return "quote"
        if tag == "p" and el.getparent() is not None and "codebox" in _classes(el.getparent()):
            return "skip"  # phpBB's "Code: Select all" label
    return kind


@lru_cache(maxsize=4096)  # a forum repeats a few dozen (tag, class, style) triples
def _attribute_kind(tag: str, cls: str, style: str) -> str:
    if tag == "br":
        return "plain"
    if tag in _SKIP_TAGS or tag == "img":
        return "skip"
    if tag == "cite":
        return "skip"  # the "X wrote:" header of a quote
    if cls:
        if "bbvote" in cls:
            return "official"
        if "quotetitle" in cls:
            return "skip"  # a quote or spoiler header; its content follows in quotecontent
        if "quotecontent" in cls:
            return "quote"  # or a spoiler, by its title: see _element_kind
        if _SPOILER_CLASS.search(cls):
            return "spoiler"
        if "codebox" in cls or "bbCodeCode" in cls:
            return "code"
        if _DROP_CLASS.search(cls):
            return "skip"
        if _QUOTE_CLASS.search(cls):
            return "quote"
        if "noboldsig" in cls:
            return "bold"
    if tag == "blockquote":
        return "quote"
    if tag in _BOLD_TAGS:
        return "bold"
    if tag in _STRIKE_TAGS:
        return "strike"
    if tag in _CODE_TAGS:
        return "code"
    if style and _STRIKE_STYLE.search(style):
        return "strike"  # struck by CSS, as some forums render [s]
    if style and _BOLD_STYLE.search(style):
        return "bold"
    if tag == "details":
        return "spoiler"
    if tag == "summary":
        return "skip"
    return "plain"


def _quote_table(table) -> bool:
    """phpBB 2's quote: a table of a "X wrote:" cell and a td.quote cell, little else."""
    quoted = next((c for c in table.iter("td") if "quote" in _classes(c).split()), None)
    if quoted is None:
        return False
    return len(text_of(table)) - len(text_of(quoted)) <= 80


_BOX_LABELS = {"quote:": "quote", "code:": "code", "html code:": "code", "php code:": "code"}


def _box_label(el) -> str | None:
    """vBulletin 3 boxes: a div whose first child is a small "Quote:" or "Code:" label."""
    first = next(iter(el), None)
    if first is None or not isinstance(first.tag, str) or "smallfont" not in _classes(first):
        return None
    return _BOX_LABELS.get((first.text or "").strip().lower())
