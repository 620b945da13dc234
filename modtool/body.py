"""A post body, reduced to what the rest of modtool reads: its own text and its vote-eligible lines.

Engines hand over the body HTML of a post; this module decides which parts of it are the
poster's own words (quotes are not), and which parts may hold a vote (quotes, spoilers, code
and struck-out text may not). One walk over the tree produces both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

# Run flags.
BOLD = 1
OFFICIAL = 2  # phpBB's rendered [vote] tag (span.bbvote): a vote by construction
NO_VOTE = 4  # spoiler, code or struck-out text: part of the post, never a vote
QUOTE_GAP = -1  # where a quote was: ends the line, adds no text to the post

_BLOCK_TAGS = frozenset(
    "div p li ul ol tr table tbody thead th td blockquote h1 h2 h3 h4 h5 h6 fieldset "
    "legend hr pre dl dt dd section article header footer aside figure".split()
)
_SKIP_TAGS = frozenset("script style input button select textarea noscript iframe".split())
_STRIKE_TAGS = frozenset("strike s del".split())
_CODE_TAGS = frozenset("code pre".split())
_BOLD_TAGS = frozenset("b strong".split())
_QUOTE_CLASS = re.compile(r"\b(bbCodeQuote|bbcode_quote|bbcode_container|quote|quotecontent)\b")
_SPOILER_CLASS = re.compile(r"spoiler", re.I)
_DROP_CLASS = re.compile(
    r"\b(signature|notice|edited|editedBy|message-lastEdit|post-edit-reason|"
    r"bbCodeBlock-expandLink|bbCodeBlock-title|quoteheader|quotetitle|codetitle|"
    r"ad|ads|advert|advertisement)\b"
)
_BOLD_STYLE = re.compile(r"font-weight\s*:\s*(bold|[6-9]00)", re.I)
# Tabs, no-break and zero-width spaces read as plain spaces (votes are matched on \s anyway).
_SPACES = str.maketrans({"\t": " ", "\r": " ", "\f": " ", "\v": " ", "\u00a0": " ", "\u200b": ""})


@dataclass(frozen=True, slots=True)
class Run:
    """A stretch of text with one set of flags; "\\n" runs separate lines."""

    text: str
    flags: int = 0


@dataclass(frozen=True, slots=True)
class Body:
    """What modtool reads from one post body."""

    text: str  # the poster's own text, whitespace collapsed (quotes removed)
    lines: tuple[tuple[Run, ...], ...]  # vote-eligible runs, line by line


_PARSER = etree.HTMLParser()
text_of = etree.XPath("string()")  # an element's text, as lxml.html's text_content() gives it


def parse_body(html: str) -> Body:
    """Read a post body's HTML into its own text and its vote-eligible lines."""
    if not html or not html.strip():
        return Body(text="", lines=())
    # The body element is the wrapper: stray closing tags in a post cannot escape it.
    doc = etree.fromstring(f"<html><body>{html}</body></html>", _PARSER)
    root = doc.find("body") if doc is not None else None
    if root is None:
        return Body(text="", lines=())
    return body_of(root)


def body_of(element: etree._Element) -> Body:
    """The same reading, straight from a parsed page's body element (its children)."""
    runs: list[Run] = []
    if element.text:
        runs.append(Run(element.text, 0))
    for child in element:
        _walk(child, 0, runs)
    return Body(text=_own_text(runs), lines=_vote_lines(runs))


def _classes(el: etree._Element) -> str:
    return el.get("class") or ""


def _is_spoiler_title(el: etree._Element) -> bool:
    """mafiascum renders spoilers as div.quotetitle "Spoiler:" + div.quotecontent."""
    return "quotetitle" in _classes(el) and "spoiler" in text_of(el).lower()


_PLAIN_INLINE = frozenset("a span i em u font small sub sup big tt abbr".split())


def _walk(el: etree._Element, flags: int, out: list[Run]) -> None:
    tag = el.tag if isinstance(el.tag, str) else ""
    # The commonest elements of a post, handled before the full classification.
    if tag == "br":
        out.append(Run("\n", flags))
        if el.tail:
            out.append(Run(el.tail, flags))
        return
    if tag in _PLAIN_INLINE and "class" not in el.attrib and "style" not in el.attrib:
        if el.text:
            out.append(Run(el.text, flags))
        for child in el:
            _walk(child, flags, out)
        if el.tail:
            out.append(Run(el.tail, flags))
        return
    cls = _classes(el)
    kind = _element_kind(el, tag, cls)
    if kind == "skip":
        _tail(el, flags, out)
        return
    if kind == "quote":
        out.append(Run("\n", flags))
        out.append(Run("", QUOTE_GAP))
        out.append(Run("\n", flags))
        _tail(el, flags, out)
        return
    inner = flags
    if kind == "bold":
        inner |= BOLD
    elif kind == "official":
        inner |= BOLD | OFFICIAL
    elif kind in ("spoiler", "code", "strike"):
        inner |= NO_VOTE
    block = tag in _BLOCK_TAGS
    if kind == "official":
        out.append(Run("", 0))  # each [vote] tag is a vote of its own, even with no space between
    if tag == "br":
        out.append(Run("\n", flags))
    elif block:
        out.append(Run("\n", flags))
    if el.text and tag != "br":
        out.append(Run(el.text, inner))
    for child in el:
        _walk(child, inner, out)
    if block:
        out.append(Run("\n", flags))
    if kind == "official":
        out.append(Run("", 0))
    _tail(el, flags, out)


def _tail(el: etree._Element, flags: int, out: list[Run]) -> None:
    if el.tail:
        out.append(Run(el.tail, flags))


def _element_kind(el: etree._Element, tag: str, cls: str) -> str:
    if not tag or tag in _SKIP_TAGS or tag == "img":
        return "skip"
    if tag == "cite":
        return "skip"  # the "X wrote:" header of a quote
    if cls:
        if "bbvote" in cls:
            return "official"
        if "quotetitle" in cls:
            return "skip"  # a quote or spoiler header; its content follows in quotecontent
        if "quotecontent" in cls:
            prev = el.getprevious()
            if prev is not None and _is_spoiler_title(prev):
                return "spoiler"
            return "quote"
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
    if tag == "div":
        label = _box_label(el)
        if label:
            return label
    if tag in _BOLD_TAGS:
        return "bold"
    if tag in _STRIKE_TAGS:
        return "strike"
    if tag in _CODE_TAGS:
        return "code"
    if tag == "p" and el.getparent() is not None and "codebox" in _classes(el.getparent()):
        return "skip"  # phpBB's "Code: Select all" label
    style = el.get("style")
    if style and _BOLD_STYLE.search(style):
        return "bold"
    if tag == "details":
        return "spoiler"
    if tag == "summary":
        return "skip"
    return "plain"


_BOX_LABELS = {"quote:": "quote", "code:": "code", "html code:": "code", "php code:": "code"}


def _box_label(el: etree._Element) -> str | None:
    """vBulletin 3 boxes: a div whose first child is a small "Quote:" or "Code:" label."""
    first = next(iter(el), None)
    if first is None or not isinstance(first.tag, str) or "smallfont" not in _classes(first):
        return None
    return _BOX_LABELS.get((first.text or "").strip().lower())


def _own_text(runs: list[Run]) -> str:
    parts = [r.text for r in runs if r.flags != QUOTE_GAP]
    return " ".join("".join(parts).translate(_SPACES).split())


def _vote_lines(runs: list[Run]) -> tuple[tuple[Run, ...], ...]:
    lines: list[tuple[Run, ...]] = []
    current: list[Run] = []
    for run in runs:
        if run.flags == QUOTE_GAP:
            continue
        if run.text == "\n":
            if current:
                lines.append(tuple(current))
                current = []
            continue
        if run.flags & NO_VOTE:
            # Hidden text still separates the words around it.
            current.append(Run(" ", run.flags & ~(BOLD | OFFICIAL)))
            continue
        if "\n" in run.text:
            pieces = run.text.split("\n")
            for i, piece in enumerate(pieces):
                if i:
                    if current:
                        lines.append(tuple(current))
                    current = []
                if piece:
                    current.append(Run(piece, run.flags))
            continue
        current.append(Run(run.text, run.flags))
    if current:
        lines.append(tuple(current))
    return tuple(line for line in lines if any(r.text.strip() for r in line))
