"""Finding votes: the vote actions a post's own, vote-eligible lines contain.

Which syntaxes count is per-game data (`VoteSyntax` names in the setup file). Extraction only
finds actions and their raw target text; deciding who a target is belongs to `names`, and
whether an action counts belongs to `count`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from ..threads.body import BOLD, OFFICIAL, Body, Run


class VoteSyntax(StrEnum):
    """A way of writing a vote that a game may switch on."""

    OFFICIAL = "official"  # phpBB's [vote] tag, rendered as span.bbvote
    BOLD = "bold"  # bold "VOTE: Name", "VOTE Name", "Unvote", "Unvote: Name"
    BBCODE = "bbcode"  # literal [vote]Name[/vote], [v]Name[/v], [unvote][/unvote] in text
    VTL = "vtl"  # "VTL Name" anywhere a sentence starts, and a plain "Unvote" (seed 003)
    HASH = "hash"  # "## vote Name", "##unvote" at the start of a line
    PLAIN = "plain"  # unbolded "Vote: Name" at the start of a line (colon required)
    KOREAN = "korean"  # "투표: 이름", "이름 투표", "투표 취소"


class ActionKind(StrEnum):
    VOTE = "vote"
    UNVOTE = "unvote"


@dataclass(frozen=True, slots=True)
class VoteAction:
    """One vote or unvote as written; `target` is the raw text naming whom (may be empty)."""

    kind: ActionKind
    target: str
    raw: str
    syntax: VoteSyntax | None  # None: a host's correction, not something a player wrote


# A vote keyword may start a bold segment or follow a clause break ("FoS: X, Vote: Y").
_KEYWORD = re.compile(
    r"(?:^|(?<=[\s,;.!?/|(\[\-–—])|(?<=vote))(?P<un>un)?vote(?P<colon>\s*[:=\-–—>]+)?(?!\w)",
    re.I,
)
_CLAUSE_BEFORE = re.compile(
    r"(^|[,;.!?/|(\[\-–—&+]|\band\b|\bthen\b|\balso\b|\b(?:un)?vote\s*:?)\s*$", re.I
)
_BBCODE = re.compile(r"\[(?P<tag>vote|v|unvote|uv|unv)\](?P<target>.*?)\[/(?P=tag)\]", re.I)
_VTL = re.compile(
    r"(?:^|(?<=[\s,;.!?(]))(?:(?P<vtl>vtl)\b\s*:?\s*(?P<target>[^\n]*)|(?P<un>unvote)\b:?\s*(?P<untarget>[^\n]*))",
    re.I,
)
_HASH = re.compile(r"^\s*##\s*(?P<un>un)?vote\b\s*:?\s*(?P<target>.*)$", re.I)
_PLAIN = re.compile(r"^\s*(?P<un>un)?vote\s*:\s*(?P<target>.*)$", re.I)
_KO_UNVOTE = re.compile(r"(투표\s*취소|투표\s*철회|언보트)")
_KO_VOTE_PREFIX = re.compile(r"^\s*(?:투표|보트)\s*[:：]\s*(?P<target>.+)$")
_KO_VOTE_SUFFIX = re.compile(
    r"^\s*(?P<target>[^\s:：].*?)\s*(?:에게|한테|을|를)?\s*투표(?:합니다|함|할게요|해요)?[.!]?\s*$"
)

DEFAULT_SYNTAXES = (VoteSyntax.OFFICIAL, VoteSyntax.BOLD, VoteSyntax.BBCODE, VoteSyntax.HASH)


def find_votes(body: Body, syntaxes: Iterable[VoteSyntax] = DEFAULT_SYNTAXES) -> list[VoteAction]:
    """Every vote action in the post, in the order written."""
    enabled = frozenset(syntaxes)
    found: list[tuple[int, int, VoteAction]] = []
    for line_no, line in enumerate(body.lines):
        found.extend((line_no, pos, a) for pos, a in _line_actions(line, enabled))
    found.sort(key=lambda t: (t[0], t[1]))
    return [a for _, _, a in found]


def _line_actions(line: tuple[Run, ...], enabled: frozenset[VoteSyntax]):
    text = "".join(r.text for r in line)
    taken: list[tuple[int, int]] = []  # spans already read by a stronger syntax

    def free(start: int, end: int) -> bool:
        return all(end <= s or start >= e for s, e in taken)

    # Bold and official segments: contiguous runs with the same emphasis.
    for seg_start, seg_text, flags in _segments(line):
        if flags & OFFICIAL and VoteSyntax.OFFICIAL in enabled:
            for pos, action in _bold_actions(seg_text, VoteSyntax.OFFICIAL, official=True):
                yield seg_start + pos, action
            taken.append((seg_start, seg_start + len(seg_text)))
        elif flags & BOLD and VoteSyntax.BOLD in enabled:
            actions = list(_bold_actions(seg_text, VoteSyntax.BOLD, official=False))
            for pos, action in actions:
                yield seg_start + pos, action
            if actions:
                taken.append((seg_start, seg_start + len(seg_text)))

    if VoteSyntax.BBCODE in enabled:
        for m in _BBCODE.finditer(text):
            if not free(m.start(), m.end()):
                continue
            un = m["tag"].lower() in ("unvote", "uv", "unv")
            kind = ActionKind.UNVOTE if un else ActionKind.VOTE
            yield m.start(), VoteAction(kind, _clean(m["target"]), m[0], VoteSyntax.BBCODE)
            taken.append((m.start(), m.end()))
    if VoteSyntax.HASH in enabled:
        m = _HASH.match(text)
        if m and free(m.start(), m.end()):
            yield m.start(), _plain_action(m["un"], m["target"], m[0], VoteSyntax.HASH)
            taken.append((m.start(), m.end()))
    if VoteSyntax.VTL in enabled:
        for m in _VTL.finditer(text):
            if not free(m.start(), m.end()):
                continue
            if m["vtl"]:
                target = _clean(_cut_at_keyword(m["target"]))
                yield (
                    m.start(),
                    VoteAction(
                        ActionKind.VOTE, target, f"{m['vtl']} {target}".strip(), VoteSyntax.VTL
                    ),
                )
            else:
                # A plain "Unvote" must open its clause ("I will not unvote" is talk).
                if not _CLAUSE_BEFORE.search(text[: m.start()]):
                    continue
                target = _clean(_cut_at_keyword(m["untarget"]))
                yield (
                    m.start(),
                    VoteAction(
                        ActionKind.UNVOTE, target, f"{m['un']} {target}".strip(), VoteSyntax.VTL
                    ),
                )
            taken.append((m.start(), m.end()))
    if VoteSyntax.PLAIN in enabled:
        m = _PLAIN.match(text)
        if m and free(m.start(), m.end()):
            yield m.start(), _plain_action(m["un"], m["target"], m[0], VoteSyntax.PLAIN)
            taken.append((m.start(), m.end()))
    if VoteSyntax.KOREAN in enabled and free(0, len(text)):
        yield from _korean_actions(text)


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


_TALLY = re.compile(r"\s*(?:counts?|tall(?:y|ies))\b", re.I)


def _bold_actions(segment: str, syntax: VoteSyntax, official: bool):
    """Vote actions inside one bold segment: each keyword's target runs to the next keyword."""
    matches = []
    for m in _KEYWORD.finditer(segment):
        before = segment[: m.start()]
        if not official and before.strip() and not _CLAUSE_BEFORE.search(before):
            continue
        matches.append(m)
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(segment)
        target = segment[m.end() : end]
        raw = segment[m.start() : end].strip()
        kind = ActionKind.UNVOTE if m["un"] else ActionKind.VOTE
        if kind is ActionKind.VOTE and not m["colon"] and not official:
            if not target.strip() or _TALLY.match(target):
                continue  # a lone bold "vote", or "Vote count please?": words, not an action
        yield m.start(), VoteAction(kind, _clean(target), raw, syntax)


def _plain_action(un: str | None, target: str, raw: str, syntax: VoteSyntax) -> VoteAction:
    kind = ActionKind.UNVOTE if un else ActionKind.VOTE
    return VoteAction(kind, _clean(_cut_at_keyword(target)), raw.strip(), syntax)


def _korean_actions(text: str):
    m = _KO_UNVOTE.search(text)
    if m:
        yield m.start(), VoteAction(ActionKind.UNVOTE, "", text.strip(), VoteSyntax.KOREAN)
        return
    m = _KO_VOTE_PREFIX.match(text) or _KO_VOTE_SUFFIX.match(text)
    if m:
        yield (
            m.start(),
            VoteAction(ActionKind.VOTE, _clean(m["target"]), text.strip(), VoteSyntax.KOREAN),
        )


_NEXT_KEYWORD = re.compile(r"[,;.]?\s*\b(?:un)?vote\b|\bvtl\b", re.I)
# Where a name written in running text ends: a comma, semicolon, ! or ?, or a full stop after
# a word of two or more letters ("Albert B. Rampage" keeps its initial).
_CLAUSE_END = re.compile(r"[,;!?]|(?<=[^\W\d_]{2})\.(?:\s|$)")


def _cut_at_keyword(target: str) -> str:
    """A line-based target: up to the next vote keyword or the end of its clause."""
    m = _NEXT_KEYWORD.search(target)
    target = target[: m.start()] if m else target
    m = _CLAUSE_END.search(target)
    return target[: m.start()] if m else target


_EDGE = re.compile(r"^[\s:=\-–—>.,;!?\"'“”‘’()\[\]{}*]+|[\s:=\-–—>.,;!?\"'“”‘’()\[\]{}*]+$")


def _clean(target: str) -> str:
    """Target text without the punctuation around it; "@Name" mentions lose the "@"."""
    # split() also takes no-break spaces; zero-width ones are dropped first.
    cleaned = _EDGE.sub("", " ".join(target.replace("\u200b", "").split()))
    if cleaned.startswith("@"):
        cleaned = cleaned[1:]
    return cleaned
