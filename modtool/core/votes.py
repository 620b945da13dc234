"""Finding votes: the vote actions a post's own, vote-eligible lines contain.

Which syntaxes count is per-game data (`VoteSyntax` names in the setup file); each written
syntax is a `grammar.Vocabulary` read clause by clause (see `grammar`). Extraction only
finds actions and their raw target text; deciding who a target is belongs to `names`, and
whether an action counts belongs to `count`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from enum import StrEnum
from functools import lru_cache

import orjson

from ..threads.body import BOLD, OFFICIAL, Body, Run
from ..threads.frozen import frozen
from ..threads.kept import ClauseReader, code_digest
from ..threads.patterns import lazy
from . import grammar
from .grammar import Vocabulary, clauses, clauses_at, read_clause


class VoteSyntax(StrEnum):
    """A way of writing a vote that a game may switch on."""

    OFFICIAL = "official"  # phpBB's [vote] tag, rendered as span.bbvote
    BOLD = "bold"  # bold "VOTE: Name", "VOTE Name", "Unvote", "Unvote: Name"
    BBCODE = "bbcode"  # literal [vote]Name[/vote], [v]Name[/v], [unvote][/unvote] in text
    VTL = "vtl"  # "VTL Name" and a plain "Unvote" where a clause starts (as some forum games vote)
    HASH = "hash"  # "## vote Name", "##unvote" where a clause starts
    PLAIN = "plain"  # unbolded "Vote: Name" where a clause starts (colon required)
    KOREAN = "korean"  # "투표: 이름", "이름 투표", "투표 취소"


class ActionKind(StrEnum):
    VOTE = "vote"
    UNVOTE = "unvote"


@frozen
class VoteAction:
    """One vote or unvote as written; `target` is the raw text naming whom (may be empty)."""

    kind: ActionKind
    target: str
    raw: str
    syntax: VoteSyntax | None  # None: a host's correction, not something a player wrote
    # A name listed after a VTL action ("VTL Ann, Bo and Cy": Bo, Cy), in a game where one
    # may vote for several: counted where it names a player, else it is talk.
    listed: bool = False


# Official tags: each keyword in a span.bbvote is an action, its target runs to the next one.
_KEYWORD = lazy(r"(?:^|(?<=[\s,;.!?/|(\[\-–—])|(?<=vote))(?P<un>un)?vote(?!\w)", re.I)
# A closing tag may be botched: "[vote]Ann[/vote", "[vote]Ann[vote]".
_BBCODE = lazy(
    r"\[(?P<tag>vote|v|unvote|uv|unv)\](?P<target>.*?)(?:\[/(?P=tag)(?:\]|(?![a-z]))|\[(?P=tag)\])",
    re.I,
)
# Struck text written as BBCode the forum left as it is.
_STRUCK = lazy(r"\[(?P<tag>s|strike|del)\].*?\[/(?P=tag)\]", re.I)
# Where a written syntax's keyword may be ("##vote" holds "vote").
_ANY_KEYWORD = lazy(r"(?:un)?vote|vtl", re.I)
# a vote keyword just before a comma, semicolon or dash, which then stands for its colon
_VOTE_WORD_BEFORE = re.compile(r"(?<!un)(?:vote|vtl)\s*$", re.I)
_KO_UNVOTE = lazy(r"(투표\s*취소|투표\s*철회|언보트)")
# "투표: 이름", "투표 변경: 이름" (a changed vote)
_KO_VOTE_PREFIX = lazy(r"^\s*(?:투표|보트)(?:\s*변경)?\s*[:：]\s*(?P<target>.+)$")
# "이름 투표", "저는 이름에게 투표합니다", "이름 투표요", "이름한테 투표합니다ㅎㅎ": the verb's
# statement endings (never "투표하지 마세요", don't, or "투표할까요?", a question), then what
# may close a line: punctuation but a question mark, emoji, laughter (ㅎㅎ, ㅋㅋ).
# (No past tense: "영희가 철수에게 투표했습니다" reports another's vote.)
_KO_VERB = r"(?:합니다|합니당|할게요|할께요|할게|해요|함|한다|요|드립니다)"
_KO_VOTE_SUFFIX = lazy(
    r"^\s*(?:(?:저는|나는|전|난|제가|내가)\s+)?(?P<target>[^\s:：].*?)\s*(?:에게|한테|께|을|를)?"
    rf"\s*투표{_KO_VERB}?(?:[^\w?？]|[ㅎㅋㅠㅜ])*$"
)
# What joins an unvote to the vote after it: "투표 취소하고 밥 투표", "투표 취소, 밥에게 투표"
_KO_THEN = lazy(r"^\s*(?:하고|하구|한\s*뒤|한\s*후|후)?[\s,.;/]*(?:그리고\s*)?")

# The keywords each written syntax reads at the start of a clause.
VOCABULARIES = {
    VoteSyntax.BOLD: Vocabulary(re.compile(r"(?P<un>un)?vote", re.I), target_required=True),
    VoteSyntax.VTL: Vocabulary(re.compile(r"(?P<un>un)vote|vtl", re.I)),
    VoteSyntax.HASH: Vocabulary(re.compile(r"\#\#?\s*(?P<un>un)?vote", re.I)),
    VoteSyntax.PLAIN: Vocabulary(re.compile(r"(?P<un>un)?vote", re.I), colon_required=True),
}
_LINE_SYNTAXES = (VoteSyntax.HASH, VoteSyntax.VTL, VoteSyntax.PLAIN)
# A host's correction: "unvote; vote Bob", "unvote Ann, vote no lynch".
_CORRECTION = Vocabulary(re.compile(r"(?P<un>un)?vote", re.I), target_required=True)

DEFAULT_SYNTAXES = (VoteSyntax.OFFICIAL, VoteSyntax.BOLD, VoteSyntax.BBCODE, VoteSyntax.HASH)


def find_votes(body: Body, syntaxes: Iterable[VoteSyntax] = DEFAULT_SYNTAXES) -> list[VoteAction]:
    """Every vote action in the post, in the order written."""
    enabled = frozenset(syntaxes)
    found: list[tuple[int, int, VoteAction]] = []
    for line_no, line in enumerate(_joined(body.lines)):
        found.extend((line_no, pos, a) for pos, a in _line_actions(line, enabled))
    found.sort(key=lambda t: (t[0], t[1]))
    return [a for _, _, a in found]


_ENDS_IN_KEYWORD = lazy(r"(?:^|\W)(?:un)?(?:vote|vtl)\s*[:：]\s*$", re.I)
_NAME_LINE = 40  # the most a line holding a name alone is long
# A line of a vote count a player posts ("Bob (2): Ann, Cy"), never a name alone
_COUNT_LINE = lazy(r"[:：()\[\]]")


def _ends_in_colon(line: tuple[Run, ...]) -> bool:
    """Whether a line's text ends in a colon (its last run that holds any text does)."""
    for run in reversed(line):
        if run.text.strip():
            return run.text.rstrip().endswith((":", "："))
    return False


def _joined(lines: tuple[tuple[Run, ...], ...]) -> Sequence[tuple[Run, ...]]:
    """The lines, with a line that ends in a keyword and its colon joined to the next when
    that is short: "<b>VOTE:<br>Bob</b>" names its target on the next line (a vote for nobody
    would be an unvote)."""
    if not any(_ends_in_colon(line) for line in lines[:-1]):
        return lines  # (most posts: no line to join, nothing copied)
    joined: list[tuple[Run, ...]] = []
    skip = False
    for i, line in enumerate(lines):
        if skip:
            skip = False
            continue
        if i + 1 < len(lines) and _ends_in_colon(line):
            text = "".join(r.text for r in line).rstrip()
            after = "".join(r.text for r in lines[i + 1]).strip()
            if (
                0 < len(after) <= _NAME_LINE
                and not _COUNT_LINE.search(after)
                and _ENDS_IN_KEYWORD.search(text)
            ):
                joined.append((*line, Run(" "), *lines[i + 1]))
                skip = True
                continue
        joined.append(line)
    return joined


_VOTE_HINTS = ("vot", "vtl", "[")  # what every line holding a vote holds (see _line_actions)


def may_hold_votes(text: str, syntaxes: Iterable[VoteSyntax] = DEFAULT_SYNTAXES) -> bool:
    """Whether a post whose own text is `text` can hold a vote: a post-level test that spares
    reading its lines. A vote line's letters are the own text's letters, so a post whose own
    text has none of the hints has no line that has one (Korean votes have their own words)."""
    if VoteSyntax.KOREAN in syntaxes:
        return True
    low = text.lower()
    return any(hint in low for hint in _VOTE_HINTS)


def vote_reader(syntaxes: Iterable[VoteSyntax] = DEFAULT_SYNTAXES) -> ClauseReader:
    """The vote actions of posts, read with these syntaxes, as threads.kept reads and keeps
    them: under the syntaxes and the code of this module and of `grammar`."""
    return _vote_reader(tuple(sorted(set(syntaxes))))


@lru_cache(maxsize=8)
def _vote_reader(enabled: tuple[VoteSyntax, ...]) -> ClauseReader:
    return ClauseReader(
        kind=code_digest("votes", enabled, (__file__, grammar.__file__)),
        wanted=lambda post: may_hold_votes(post.text, enabled),
        read=lambda post: find_votes(post.body, enabled),
        dump=dump_actions,
        load=load_actions,
    )


def dump_actions(actions: list[VoteAction]) -> bytes:
    return orjson.dumps([(a.kind, a.target, a.raw, a.syntax, a.listed) for a in actions])


def load_actions(kept: bytes) -> list[VoteAction]:
    return [
        VoteAction(ActionKind(kind), target, raw, VoteSyntax(syntax) if syntax else None, listed)
        for kind, target, raw, syntax, listed in orjson.loads(kept)
    ]


def read_correction(text: str) -> list[VoteAction]:
    """The actions a host's correction lists, in order ("unvote; vote Bob").

    Raises ValueError naming the part that is not "vote NAME", "unvote" or "unvote NAME".
    """
    found = []
    for clause in clauses(text, vote_word=_VOTE_WORD_BEFORE):
        readings = read_clause(text, clause, _CORRECTION)
        if not readings:
            part = text[clause.start : clause.end].strip()
            raise ValueError(
                f"{part!r} is not an action: write 'vote NAME', 'unvote' or 'unvote NAME'"
            )
        for r in readings:
            kind = ActionKind.UNVOTE if r.unvote else ActionKind.VOTE
            raw = "[host correction] " + " ".join(text[r.start : r.end].split())
            found.append(VoteAction(kind, _clean(r.target), raw, None))
    if not found:
        raise ValueError("no actions: write them as 'unvote; vote NAME'")
    return found


def _line_actions(line: tuple[Run, ...], enabled: frozenset[VoteSyntax]):
    text = line[0].text if len(line) == 1 else "".join(r.text for r in line)
    if "[/" in text:
        text = _STRUCK.sub(lambda m: " " * len(m[0]), text)
    low = text.lower()  # plain substring tests: cheaper than a search on every line
    if not any(hint in low for hint in _VOTE_HINTS):
        if VoteSyntax.KOREAN in enabled:
            yield from _korean_actions(text)
        return
    segments = list(_segments(line))
    taken: list[tuple[int, int]] = []  # spans already read by a stronger syntax

    def free(start: int, end: int) -> bool:
        return all(end <= s or start >= e for s, e in taken)

    bold: list[tuple[int, int]] = []
    for seg_start, seg_text, flags in segments:
        if flags & OFFICIAL and VoteSyntax.OFFICIAL in enabled:
            for pos, action in _official_actions(seg_text):
                yield seg_start + pos, action
            taken.append((seg_start, seg_start + len(seg_text)))
        elif flags & BOLD:
            bold.append((seg_start, seg_start + len(seg_text)))

    if VoteSyntax.BBCODE in enabled:
        for m in _BBCODE.finditer(text):
            if not free(m.start(), m.end()):
                continue
            un = m["tag"].lower() in ("unvote", "uv", "unv")
            kind = ActionKind.UNVOTE if un else ActionKind.VOTE
            yield m.start(), VoteAction(kind, _clean(m["target"]), m[0], VoteSyntax.BBCODE)
            taken.append((m.start(), m.end()))
    keywords = [m.start() for m in _ANY_KEYWORD.finditer(text)]
    if VoteSyntax.BOLD in enabled and bold and keywords:
        found = clauses_at(text, keywords, _bold_starts(text, bold), _VOTE_WORD_BEFORE)
        yield from _read(text, found, VoteSyntax.BOLD, taken, _inside(bold))
    plain = None
    for syntax in _LINE_SYNTAXES:
        if syntax in enabled and keywords:
            plain = (
                plain if plain is not None else clauses_at(text, keywords, (), _VOTE_WORD_BEFORE)
            )
            yield from _read(text, plain, syntax, taken)
    if VoteSyntax.KOREAN in enabled and free(0, len(text)):
        yield from _korean_actions(text)


def _read(text, found, syntax, taken, allowed=lambda pos: True):
    """The actions a syntax reads in a line's clauses, outside the spans already taken; after
    a VTL action, the names listed with it ("VTL Ann, Bo and Cy", "VTL Ann + Bo")."""
    vocabulary = VOCABULARIES[syntax]
    for clause in found:
        last = None
        for r in read_clause(text, clause, vocabulary, allowed):
            if not all(r.end <= s or r.start >= e for s, e in taken):
                continue
            kind = ActionKind.UNVOTE if r.unvote else ActionKind.VOTE
            raw = " ".join(text[r.start : r.end].split())
            taken.append((r.start, r.end))
            names = [r.target]
            if syntax is VoteSyntax.VTL and " + " in r.target:  # "C++ Guy" is one name
                names = r.target.split(" + ")
            yield r.start, VoteAction(kind, _clean(names[0]), raw, syntax)
            for name in names[1:]:
                yield r.start, VoteAction(kind, _clean(name), raw, syntax, listed=True)
            last = (r, kind)
        if syntax is VoteSyntax.VTL and last is not None and _clean(last[0].target):
            r, kind = last
            for at, name in listed_after(text, clause.end):
                if not all(at + len(name) <= s or at >= e for s, e in taken):
                    break
                raw = " ".join(text[r.start : at + len(name)].split())
                yield at, VoteAction(kind, _clean(name), raw, syntax, listed=True)


# A name listed after an action: ", Bo", " and Bo", " & Bo", " / Bo", " plus Bo"
_LISTED = lazy(
    r"\s*(?:,|&|/|\+|\band\b|\bplus\b)\s*(?:\band\b\s*)?"
    r"(?P<name>(?:(?!\b(?:and|plus)\b)[^,&/+.!?;:()\[\]\n])+)",
    re.I,
)
_LISTED_WORDS = 4  # a name is a few words; more is a sentence
# Words that open a sentence, never a name listed after a vote
_TALK_OPENERS = frozenset(
    "not no never because cause since as but or who which that if unless maybe probably "
    "perhaps i i'm im he she they we you it this his her their my our its".split()
)


def listed_after(text: str, pos: int) -> list[tuple[int, str]]:
    """(position, text) of each name listed right after an action that ends at `pos`, up to
    the first piece that is no name: a sentence, a question, another action."""
    found = []
    while (m := _LISTED.match(text, pos)) is not None:
        name = m["name"].strip()
        if not name or len(name.split()) > _LISTED_WORDS or _ANY_KEYWORD.search(name):
            break
        if name.split()[0].lower() in _TALK_OPENERS:
            break  # "VTL Ann, not Bo", "VTL Ann, because ...": a sentence about the vote
        if text[m.end() : m.end() + 1] in ("?", "(", "["):
            break  # "VTL Ann, or Bo?": a question; "Bo (2): ...": a count
        found.append((m.start("name"), name))
        pos = m.end()
    return found


def _bold_starts(text: str, bold: list[tuple[int, int]]) -> list[int]:
    """Where bold runs start clauses: at a run's start, and at its end unless the run is only
    a keyword and its colon ("<b>Vote:</b> Ann" is one clause, "I will <b>VOTE: Agar</b> for
    ..." is three, "to <b>vote</b> Ann" is emphasis on a word). The colon may follow the run
    ("<b>VOTE</b>: Ann"); a bold run just after such a keyword, with only spaces between, is
    its target ("<b>Vote:</b> <b>Ann</b>"), not a clause of its own."""
    starts = []
    keyword_end = None  # the end of the last run that was a keyword alone
    for start, end in bold:
        if keyword_end is None or text[keyword_end:start].strip():
            starts.append(start)
        if _ONLY_KEYWORD.fullmatch(text, start, end) or (
            _BARE_KEYWORD.fullmatch(text, start, end) and _COLON_NEXT.match(text, end)
        ):
            keyword_end = end
        else:
            starts.append(end)
            keyword_end = None
    return starts


_ONLY_KEYWORD = lazy(r"\W*(?:un)?vote\s*[:：\-–—@]\W*", re.I)
_BARE_KEYWORD = lazy(r"\W*(?:un)?vote\s*", re.I)
_COLON_NEXT = lazy(r"\s*[:：]")


def _inside(spans: list[tuple[int, int]]):
    return lambda pos: any(s <= pos < e for s, e in spans)


def _segments(line: tuple[Run, ...]):
    """(start offset, text, flags) of each stretch of bold or official runs in a line."""
    pos = 0
    seg_start, seg_parts, seg_flags = 0, [], 0
    for run in line:
        emphasis = run.flags & (BOLD | OFFICIAL)
        if emphasis and emphasis == seg_flags and seg_parts:
            seg_parts.append(run.text)
        else:
            if seg_parts and seg_flags:
                yield seg_start, "".join(seg_parts), seg_flags
            seg_start, seg_parts, seg_flags = pos, [run.text], emphasis
        pos += len(run.text)
    if seg_parts and seg_flags:
        yield seg_start, "".join(seg_parts), seg_flags


def _official_actions(segment: str):
    """Vote actions inside one official tag: each keyword's target runs to the next keyword."""
    matches = list(_KEYWORD.finditer(segment))
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(segment)
        kind = ActionKind.UNVOTE if m["un"] else ActionKind.VOTE
        raw = segment[m.start() : end].strip()
        yield m.start(), VoteAction(kind, _clean(segment[m.end() : end]), raw, VoteSyntax.OFFICIAL)


def _korean_actions(text: str):
    """A Korean line's unvote, and the vote after it if any ("투표 취소하고 밥 투표"), or its
    vote."""
    start = 0
    m = _KO_UNVOTE.search(text)
    if m:
        yield m.start(), VoteAction(ActionKind.UNVOTE, "", text.strip(), VoteSyntax.KOREAN)
        start = m.end()
        text = _KO_THEN.sub("", text[start:], count=1)
    vote = _KO_VOTE_PREFIX.match(text) or _KO_VOTE_SUFFIX.match(text)
    if vote:
        target = _clean(vote["target"])
        yield start, VoteAction(ActionKind.VOTE, target, text.strip(), VoteSyntax.KOREAN)


_EDGE = lazy(r"^[\s:=\-–—>.,;!?\"'“”‘’()\[\]{}*]+|[\s:=\-–—>.,;!?\"'“”‘’()\[\]{}*]+$")


# "Vote: lynch Ann", "[Vote Lynch Ann]": the verb the vote already says, before its target.
_VERB = lazy(r"^lynch\s+(?=\S)", re.I)


def _clean(target: str) -> str:
    """Target text without the punctuation around it; "@Name" mentions lose the "@", and
    "lynch Name" its verb."""
    # split() also takes no-break spaces; zero-width ones are dropped first.
    cleaned = _EDGE.sub("", " ".join(target.replace("\u200b", "").split()))
    if cleaned.startswith("@"):
        cleaned = cleaned[1:]
    if cleaned[:5].lower() == "lynch":
        cleaned = _VERB.sub("", cleaned)
    return cleaned
