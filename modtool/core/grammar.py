"""How a host reads a line of a post: clauses, and the actions a vocabulary reads in each.

A line is cut into clauses at sentence punctuation and conjunctions (".", ",", ";", "!", "?",
"&", "/", "|", a spaced dash, "and", "then", "also", "but", "plus") and wherever the caller
says a clause starts (a bold run, for games whose votes are bold). A clause is an action only
when it opens with one of its vocabulary's keywords, or with a short label and a colon
("Ghost vote: VTL Ann"): "I'd VTL Ann if she claimed", "don't VTL Ann" and "my vote on Bob is
coming" talk about voting. A keyword inside an action's target that is followed by a target
of its own opens the next action ("UNVOTE: Carl VOTE: Dan", "VTL Ann VTL Bo"); one with
nothing after it is the target ("Unvote Vote": a player named Vote). Without a colon, a
question ("VTL Ann?") and a condition ("VTL Ann if she claims") are talk; "Vote: Ann" with its
colon is the formal command, whatever follows it. Words in paired quotation marks are
another's words, not the poster's: no clause ends or starts inside them (saying "if I'm the
top scumread, vote me" is disingenuous: one clause, talk), and a keyword in them opens no
second action.

The module knows no syntax: `votes` gives each syntax's `Vocabulary` and reads the results.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from ..threads.frozen import frozen
from ..threads.patterns import lazy

# Where clauses end. A full stop ends one after two or more characters, a title aside ("Albert
# B. Rampage" keeps its initial, "Mr. Ree" his title).
# (Each branch opens with a character class, so the regex engine skips to candidates fast.)
_CONJUNCTIONS = r"(?:and|then|also|but|plus)"
_CUT = lazy(
    r"(?P<soft>[,;]|\s[-–—]+\s)|[|&/]|(?P<q>[!?]+)|(?P<stop>\.+)(?=\s|$)"
    rf"|\s{_CONJUNCTIONS}\b",
    re.I,
)
# Paired quotation marks: "…" and “…”; '…' and ‘…’ only where clearly paired: opened after a
# space or a mark and closed before one, so the apostrophes of "I'm" and "players'" pair nothing.
_QUOTE_MARKS = frozenset("\"“'‘")
_QUOTED = lazy(
    r'"[^"\n]+"|“[^”\n]+”'
    r"|(?<!\w)['‘](?=\w)[^'‘’\n]+(?<=[\w.,!?])['’](?!\w)"
)
_TITLE = lazy(r"(?:^|\W)(?:mrs?|dr|ms|st|jr|sr)$", re.I)
# A comma, semicolon or dash just after a vote keyword stands for its colon ("Vote; TheFool",
# "VTL - Ann"); after "Unvote" it ends the clause ("Unvote; Vote: ATPG"). The caller says
# which words are vote keywords (`vote_word`: a pattern that matches one just before a mark).
# What may come before a clause's keyword: spaces and list or quote marks, never words.
# A word that opens a sentence without being part of it ("So VTL Ann", "ok unvote").
_DISCOURSE = r"(?:so|ok(?:ay)?|fine|well|now|anyway|alright)"
# The poster as the subject, in the present ("I VTL Ann", "so I unvote"); "I'd", "I will" and
# "I think" put another word before the keyword, and stay talk.
_SUBJECT = r"i\s+"
_LEAD = lazy(rf"[\s*>•·\"“'(\[]*(?:{_DISCOURSE}\b[\s,!]*)?(?:{_SUBJECT})?", re.I)
_DISCOURSE_BEFORE = lazy(
    rf"(?<![^\s,;.!?:(\[])\b(?:{_DISCOURSE}[\s,!]*(?:{_SUBJECT})?|{_SUBJECT})$", re.I
)
_LEAD_CHARS = " \t\xa0*>•·\"“'(["
# ("：" is the full-width colon of East Asian keyboards: "Vote： Ann")
_SEPARATOR = lazy(r"\s*(?P<colon>[:：;,=\-–—>@]+)?\s*")
# A label before a clause's keyword, as in "Hedging: VTL Bo".
_LABEL = lazy(r"[^:]{1,40}?:\s*")
_CONDITION = lazy(r"\b(?:if|unless)\b", re.I)
# A colonless "vote" that is a noun: "vote on Ann", "Vote Count 1.02", "vote count when I get
# home", "vote tally", "Vote counters do not like it"; but "Vote Count Dracula" and "Vote IS"
# (initials) name players.
_LINKING = r"(?:on|against|is|was|has|stays)"  # words after "vote" that make it a noun
_NOUN = lazy(
    rf"\s*(?:(?-i:{_LINKING})\b|tall(?:y|ies)\b|count(?:er)?s?\b(?!\s+(?-i:[A-Z])))",
    re.I,
)


def _shouted_noun(target: str) -> bool:
    """A line in capitals says its nouns in capitals too: "VOTE ON ANN" is "vote on Ann". A
    lone capital word ("Vote IS") stays a player's initials."""
    words = target.split()
    return len(words) >= 2 and target.isupper() and _NOUN_ANY_CASE.match(target) is not None


_NOUN_ANY_CASE = lazy(rf"\s*{_LINKING}\b", re.I)


@frozen
class Vocabulary:
    """A syntax's keywords: `keyword` matches one keyword (group "un" for an unvote)."""

    keyword: re.Pattern[str]
    colon_required: bool = False  # a vote needs "Vote:" (an unvote never does)
    target_required: bool = False  # a colonless vote with no target is a word, not a vote


@frozen
class Clause:
    """A stretch of a line: `text[start:end]`, and whether a question mark ends it."""

    start: int
    end: int
    question: bool = False


@frozen
class Reading:
    """One action read in a clause, with its place in the line."""

    start: int
    end: int
    unvote: bool
    target: str  # raw target text, punctuation around it left for the caller
    colon: bool


def quoted(text: str) -> list[tuple[int, int]]:
    """The spans of a line in paired quotation marks, the marks included."""
    if not _QUOTE_MARKS.intersection(text):
        return []
    return [m.span() for m in _QUOTED.finditer(text)]


def _within(spans: list[tuple[int, int]], pos: int) -> bool:
    """Whether `pos` is inside a quotation, past its opening mark."""
    return any(s < pos < e for s, e in spans)


def clauses(
    text: str, starts: Iterable[int] = (), vote_word: re.Pattern[str] | None = None
) -> list[Clause]:
    """The clauses of a line; `starts` are extra places where a clause starts; a soft mark
    (comma, semicolon, dash) just after a `vote_word` is its colon, not a cut."""
    return _split(text, _cuts(text, 0, len(text), starts, vote_word=vote_word), 0, len(text))


# How far back from a keyword a clause's start is looked for: the lead and a label fit in it.
_REACH = 64


def clauses_at(
    text: str,
    positions: Iterable[int],
    starts: Iterable[int] = (),
    vote_word: re.Pattern[str] | None = None,
) -> list[Clause]:
    """The clauses that hold the given positions and may open with a keyword there or just
    before (what `clauses` would give for them, found without cutting the whole line)."""
    starts = sorted(starts)
    found: dict[int, Clause] = {}
    for pos in positions:
        if not _may_open(text, pos, starts):
            continue
        lo = max(0, pos - _REACH)
        before = _cuts(text, lo, pos, [s for s in starts if lo < s <= pos], vote_word=vote_word)
        if lo > 0 and not before:
            continue  # words run on for more than the reach: not a clause's opening
        begin = before[-1][1] if before else 0
        if begin in found:
            continue
        end, question = len(text), False
        after = [s for s in starts if s > pos]
        for cut_end, _, q in _cuts(text, pos, len(text), after, 1, vote_word):
            end, question = cut_end, q
        if text[begin:end].strip():
            found[begin] = Clause(begin, end, question)
    return sorted(found.values(), key=lambda c: c.start)


_OPENERS = frozenset(",;|&/!?.:-–—") | frozenset(_LEAD_CHARS) | {"#"}
_CUT_WORD = lazy(rf"\s{_CONJUNCTIONS}$", re.I)


def _may_open(text: str, pos: int, starts: list[int]) -> bool:
    """Whether a keyword at `pos` may open its clause: only spaces and marks before it since
    a cut, a label's colon or a caller's start (most keywords in chatter fail at once)."""
    i = pos
    while i > 0 and text[i - 1] in _LEAD_CHARS:
        i -= 1
    if m := _DISCOURSE_BEFORE.search(text, max(0, i - 10), i):
        i = m.start()
        while i > 0 and text[i - 1] in _LEAD_CHARS:
            i -= 1
    if i == 0 or text[i - 1] in _OPENERS or any(i <= s <= pos for s in starts):
        return True
    return _CUT_WORD.search(text, max(0, i - 5), i) is not None


def _cuts(
    text: str,
    lo: int,
    hi: int,
    starts: Iterable[int] = (),
    most: int | None = None,
    vote_word: re.Pattern[str] | None = None,
) -> list[tuple[int, int, bool]]:
    """(clause end, next clause start, ends in a question) for each cut in text[lo:hi]; none
    inside a quotation."""
    cuts: list[tuple[int, int, bool]] = []
    spans = quoted(text)
    for m in _CUT.finditer(text, lo, hi):
        if spans and _within(spans, m.start()):
            continue
        if m["soft"] and vote_word and vote_word.search(text, max(0, m.start() - 8), m.start()):
            continue
        if m["stop"] and not _full_stop(text, m.start()):
            continue
        cuts.append((m.start(), m.end(), m["q"] is not None and "?" in m["q"]))
        if most is not None and len(cuts) >= most:
            break
    cuts.extend((s, s, False) for s in starts if 0 < s < len(text) and not _within(spans, s))
    cuts.sort()
    if most is not None:
        del cuts[most:]
    return cuts


def _full_stop(text: str, at: int) -> bool:
    """A full stop after two or more characters ends a clause, unless they are a title."""
    word = text[max(0, at - 4) : at]
    return (
        len(word) >= 2
        and not any(c.isspace() or c == "." for c in word[-2:])
        and not (_TITLE.search(word))
    )


def _split(text: str, cuts: list[tuple[int, int, bool]], lo: int, hi: int) -> list[Clause]:
    found, pos = [], lo
    for end, after, question in cuts:
        if end >= pos:
            if text[pos:end].strip():
                found.append(Clause(pos, end, question))
            pos = after
        elif question and found and found[-1].end == end:
            found[-1] = Clause(found[-1].start, end, True)
    if text[pos:hi].strip():
        found.append(Clause(pos, hi))
    return found


def read_clause(
    text: str,
    clause: Clause,
    vocabulary: Vocabulary,
    allowed: Callable[[int], bool] = lambda pos: True,
) -> list[Reading]:
    """The actions a clause holds, left to right; `allowed(pos)` says whether a keyword at a
    position of the line counts (a bold-only syntax's keyword must be bold)."""
    readings: list[Reading] = []
    pos, end = _LEAD.match(text, clause.start, clause.end).end(), clause.end
    label = _LABEL.match(text, pos, end)
    if label and not _keyword_at(text, pos, end, vocabulary):
        if not any(vocabulary.keyword.finditer(text, pos, label.end())):
            pos = label.end()  # "Ghost vote: VTL Ann", "Hedging: VTL Bo"
    while (m := _keyword_at(text, pos, end, vocabulary)) is not None and allowed(m.start()):
        sep = _SEPARATOR.match(text, m.end(), end)
        nxt = _next_action(text, sep.end(), end, vocabulary, allowed)
        reading = Reading(
            m.start(),
            nxt if nxt is not None else end,
            m["un"] is not None,
            text[sep.end() : nxt if nxt is not None else end],
            sep["colon"] is not None and any(c in sep["colon"] for c in ":：;"),
        )
        if _is_action(reading, vocabulary, clause, nxt is None):
            readings.append(reading)
        if nxt is None:
            break
        pos = nxt
    return readings


def _keyword_at(text: str, pos: int, end: int, vocabulary: Vocabulary) -> re.Match[str] | None:
    """The vocabulary's keyword at `pos`, as a whole word."""
    m = vocabulary.keyword.match(text, pos, end)
    if m is None or (m.end() < end and text[m.end()].isalnum()):
        return None
    return m


def _next_action(
    text: str, start: int, end: int, vocabulary: Vocabulary, allowed: Callable[[int], bool]
) -> int | None:
    """Where a keyword inside a target opens an action of its own: one with a target after
    it, or with a colon ("Unvote Vote:Akira"); a keyword that ends the clause is a name, and
    one in quotation marks is another's word."""
    spans = quoted(text)
    for m in vocabulary.keyword.finditer(text, start, end):
        if m.start() > start and text[m.start() - 1].isalnum():
            continue
        if spans and _within(spans, m.start()):
            continue
        if m.end() < end and text[m.end()].isalnum():
            continue
        if not allowed(m.start()):
            continue
        rest = text[m.end() : end]
        if rest.strip(" \t:：=-–—>@") or ":" in rest or "：" in rest:
            return m.start()
    return None


def _is_action(reading: Reading, vocabulary: Vocabulary, clause: Clause, last: bool) -> bool:
    """Talk is not an action: a casual question or condition, a vote without its colon where
    the syntax needs one, or without a target."""
    if reading.colon:
        return True  # the formal "Vote: Ann" is a vote, whatever follows it
    if (last and clause.question) or _CONDITION.search(reading.target):
        return False
    if reading.unvote:
        return True
    if vocabulary.colon_required:
        return False
    if _NOUN.match(reading.target) or _shouted_noun(reading.target):
        return False
    return not (vocabulary.target_required and not reading.target.strip())
