"""The group-chat log of the forum Clocktower game ("Group Chats"), read from the thread like votes.

Players announce in the thread when they start a chat (with whom), add players to one (by
the chat's creator only, naming who was already in and whose chat it is) and close one
(naming who was in it and who started it); every chat closes at the end of the day (once the
day has ended), and no chat may start at night. This module reads those announcements, keeps
a registry of chats (two chats with the same members are two chats), and lists every broken
rule by name.

What it reads, in the poster's own text (quotes never count), one announcement a sentence:
the verb says what it announces, "my"/"X's"/"(X's)"/"started by X" whose chat it is, and a
list after "with" or a colon, before the verb, or in a parenthesis, who is in it ("me" and "I"
are the poster; one who started a chat is in it). "PT", "private topic", "GC" and "chat" are
one thing:

    I started a chat with Banana and Pie        CHAT START: Banana, Pie
    made a GC with Rex + Neros                   (the short form a host can ask for)
    Added Kohai to my chat with Banana, Pie      CHAT ADD: Kohai (to: me, Banana, Pie)
    adding wylted to Rex's chat (already in: Rex, Neros)
    Closing my chat with Banana and Pie          CHAT CLOSE: Shining's chat with Banana, Pie
    GC start: Ann + Bo                           new GC: me, ann and cy
    adding Cy to my chat (Ann's; Bo is already in)
    closing Bo's chat (Bo + me)                  closing the chat with Ann and Bo
    Kohai and I started a chat                   Rex, white and I are in a PT now

Anything about a chat that cannot be tied to one chat and one action goes to `needs_review`
("me + awesome5000" names no chat; "Kohai was added to my chat": a verb on a chat that no
form reads); nothing is guessed into the registry. What the rules post says a poster may not
do is flagged and not done: a close by one not in the chat leaves it open, an add by one who
did not start it adds no member.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import astuple, dataclass, field
from datetime import datetime

import orjson

from ..core.ledger import EventKind, Game, PostRef
from ..core.names import Method, Resolver, TargetKind, normalise
from ..core.plan import GamePlan
from ..threads.frozen import frozen
from ..threads.kept import ClauseReader, code_digest, post_clauses
from ..threads.posts import Post

RULES = (
    "chat_at_night",
    "non_creator_add",
    "creator_not_named",
    "members_not_named",
    "existing_members_not_stated",
    "existing_members_mismatch",
    "close_by_non_member",
)

# "PT", "private topic", "GC", "group chat" and "chat" name one thing
_CHAT = (
    r"(?:group\s*chats?|group\s*dms?|gcs?|chats?|discord\s+groups?|dm\s+groups?|group|pts?|"
    r"private\s+topics?)"
)
_CHAT_WORD = re.compile(rf"\b{_CHAT}\b", re.I)  # a chat named ("pt" in "attempt" is none)
# "a second chat", "a 3rd GC": one more chat, as "another" is
_ORDINAL = r"(?:(?:second|third|fourth|fifth|\d+(?:st|nd|rd|th)|other)\s+)?"
_WHOSE = r"(?:my|our|[^\s,.;:()]+['’]s)\s+"  # whose chat it is, before the chat's noun
# A chat's noun phrase ("my chat", "Bo's group chat"), taken out before members are read.
_CHAT_PHRASE = re.compile(
    rf"(?:{_WHOSE}|\b(?:the|a)\s+)?(?:own\s+)?{_ORDINAL}(?:new\s+)?\b{_CHAT}\b", re.I
)
# Talk about chats: a question, a condition, a wish.
_TALK = re.compile(r"\?|\b(?:if|unless|would|should|could|might|maybe)\b|\b\w+['’]d\b", re.I)
_EXPLICIT = re.compile(r"^\s*chat\s+(?P<kind>start|add|close)\s*:\s*(?P<rest>.*)$", re.I)
# The verbs players use, in any tense: which one a clause holds says what it announces.
_BECAME = r"(?:is|was|were|now|has\s+been|got|gets)"  # "the chat with Bo is/got closed"
_ADD_VERB = r"(?:add(?:ed|ing)?|invit(?:e|ed|ing)|br(?:ought|inging|ing)|pull(?:ed|ing)?)"
_CLOSE_VERB = r"(?:clos(?:e|ed|ing)|end(?:ed|ing)?|shut(?:ting)?|kill(?:ed|ing)?|done\s+with)"
_START_VERB = (
    r"(?:start(?:ed|ing)?|mak(?:e|ing)|made|creat(?:e|ed|ing)|open(?:ed|ing)?|form(?:ed|ing)?|"
    r"set(?:ting)?\s+up|spun\s+up|spin(?:ning)?\s+up)"
)
_ADD = re.compile(
    rf"\b{_ADD_VERB}(?:\s*:)?\s+(?P<added>.+?)\s+(?:to|into|in)\s+(?P<rest>.+)",
    re.I,
)
# "closing Bo's chat", "GC close: ...", "the chat with Ann and Bo is closed"
_CLOSE = re.compile(
    rf"\b{_CLOSE_VERB}\s+(?:down\s+|off\s+)?(?P<rest>(?:my|the|a|our|[^\s,.;:()]+['’]s)?\s*"
    rf"(?:own\s+)?(?:new\s+)?{_CHAT}\b.*)"
    rf"|(?P<rest2>(?:{_WHOSE})?\b{_CHAT}\b[^.;:]*?)\s*(?:[:\-–—]\s*|\b{_BECAME}\s+)*"
    rf"\b{_CLOSE_VERB}\b(?P<tail>.*)",
    re.I,
)
_START = re.compile(
    rf"\b{_START_VERB}\s+(?:up\s+)?(?:a|an|the|my|another|one\s+more)?\s*{_ORDINAL}(?:new\s+)?"
    rf"(?:private\s+)?{_CHAT}\b(?P<rest>.*)"
    rf"|\b{_CHAT}\b(?P<rest2>[^.;:]*?)\s*(?:[:\-–—]\s*|\b{_BECAME}\s+)*"
    rf"\b{_START_VERB}\b(?P<tail>.*)",
    re.I,
)
# "Rex, white and I are in a PT now": members listed with the poster, in a chat that is new
_LISTED_IN = re.compile(
    rf"^(?P<names>.+?)\s+(?:are|['’]re)\s+(?:(?:now|all|both)\s+)*in\s+(?:a|an)\s+{_ORDINAL}"
    rf"(?:new\s+)?(?:private\s+)?{_CHAT}\b(?P<rest>.*)",
    re.I,
)
# "me + awesome5000": a sentence of nothing but names joined as chat members are ("+", "&"; a
# list of reads is joined by commas and slashes), the poster among them
_BARE_LIST = re.compile(
    r"^(?=[^+&]*[+&])\s*(?:[^\s,&+/.;:!?()]+\s*(?:,|&|\+|/|\band\b)\s*)+"
    r"[^\s,&+/.;:!?()]+\s*[.!]?\s*$",
    re.I,
)
_POSTER_BESIDE_JOINER = re.compile(
    r"\b(?:me|i)\s*(?:[,&+/]|and\b)|(?:[,&+/]|\band)\s*(?:me|i)\b", re.I
)
# A verb acting on a chat: "added Kohai to my chat", "the chat with Ann was shut down"
_ACTED_ON = re.compile(
    rf"\b(?:{_ADD_VERB}|{_CLOSE_VERB}|{_START_VERB})(?:\s+\S+){{0,3}}?\s+"
    rf"(?:to|into|in|a|an|the|my|our|this|that|[^\s,.;:()]+['’]s)\s+(?:\S+\s+)?{_CHAT}\b"
    rf"|\b{_CHAT}\b(?:\s+\S+){{0,4}}?\s+{_BECAME}\s+(?:\S+\s+)?"
    rf"(?:{_ADD_VERB}|{_CLOSE_VERB}|{_START_VERB})\b",
    re.I,
)
# "I've been added to Bo's chat": the one added says so; the chat's creator announces the add
_ADDED_ONESELF = re.compile(
    r"\bi(?:['’](?:ve|m))?\s+(?:just\s+)?(?:have\s+)?(?:been|got|get|was|am)\s+"
    r"(?:added|invited|brought|pulled)\b",
    re.I,
)
# "New GC: me, Ann", "Another chat with Bo": these words announce a chat only when they open
# the sentence ("I'm in another chat with Bo" announces nothing)
_START_OPENING = re.compile(
    rf"^\s*(?:(?:so|ok|and)\s+)?(?:a\s+)?(?:new|another|one\s+more)\s+(?:private\s+)?"
    rf"{_CHAT}\b(?P<rest>.*)",
    re.I,
)
_OWNER = re.compile(r"(?:^|[\s(])(?P<owner>my|[^\s,.;:()]+?)['’]s\b(?!\s+(?:already|in)\b)", re.I)
_STARTED_BY = re.compile(
    r"(?:started|made|created|opened|run)\s+by\s+(?P<owner>[^,.;()]+?)(?=\s*(?:[,.;()]|with\b|$))",
    re.I,
)
_BY = re.compile(r"^\s*by\s+[^,.;()]+?(?=\s*(?:[,.;()]|with\b|$))", re.I)
_OWNER_STARTED = re.compile(rf"{_CHAT}\s+(?P<owner>[^\s,.;:()]+)\s+(?:started|made|opened)\b", re.I)
# Who is in already: "(already in: Rex, Neros)", "Bo is already in", "with Ann, Bo".
_ALREADY = re.compile(
    r"(?:already\s+in(?:\s+it)?|who\s+(?:is|are|were)\s+already\s+in(?:\s+it)?|"
    r"(?:current|existing)\s+members?|members?)\s*[:\-]?\s*(?P<names>[^.;()]+)",
    re.I,
)
_ALREADY_AFTER = re.compile(
    r"(?P<names>[^.;:()]+?)\s+(?:(?:is|are|was|were|'s|'re)\s+(?:already\s+)?|already\s+)in"
    r"(?:\s+it)?\b",
    re.I,
)
_WITH = re.compile(r"\b(?:with|w/)\s+(?P<names>[^.;()]+)", re.I)
_LIST = re.compile(r"^\s*[:\-–—]\s*(?P<names>[^.;()]+)")  # "GC start: Ann + Bo"
_PAREN = re.compile(r"\((?P<inside>[^()]*)\)")
_TO_LIST = re.compile(r"\(\s*to\s*:\s*(?P<names>[^)]+)\)", re.I)
_SPLIT = re.compile(r"\s*(?:,|&|\+|/|;|\band\b|\balso\b|\bplus\b)\s*", re.I)
_ME = {"me", "myself", "i", "me too"}
_FILLER = re.compile(
    r"^(?:and|also|the|just|only|both|players?|in|it|chat|members?|already\s+in|already|with)\s+",
    re.I,
)
_TRAILING = re.compile(
    r"\s+(?:(?:is|are|was|were)\s+(?:already\s+)?in(?:\s+it)?|already\s+in|too|as\s+well|now|"
    r"in\s+it|there)\s*$",
    re.I,
)
_SENTENCE = re.compile(r"\s*\n\s*|(?<=[.!?])\s+(?![^()]*\))")


@dataclass
class ChatEvent:
    post: int | None
    kind: str  # start | add | close
    by: str
    added: tuple[str, ...] = ()
    members: tuple[str, ...] = ()  # the members after this event


@dataclass
class Chat:
    id: str
    creator: str  # who may add to it: who started it, or who has replaced them since
    opened_post: int | None
    thread: str
    members: list[str]
    events: list[ChatEvent] = field(default_factory=list)
    closed: dict | None = None
    # put in by one who may not add to it (rule 2): not members, yet a close may name them
    irregular: list[str] = field(default_factory=list)


@frozen
class Violation:
    post: int | None
    author: str
    chat: str | None
    rule: str
    detail: str


@frozen
class Review:
    post: int | None
    author: str
    reason: str


@dataclass
class ChatDay:
    day: int
    chats: list[Chat]
    violations: list[Violation]
    needs_review: list[Review]
    names: list[NameReading] = field(default_factory=list)  # names read loosely, and how


@frozen
class NameReading:
    """A name an announcement wrote that is not a player's name as it stands ("ann" for
    AnnaKarenina): the resolver's method and evidence, for the host to check."""

    post: int | None
    written: str
    player: str
    how: str


@frozen
class Announcement:
    kind: str  # start | add | close | unclear (for the host to read)
    owner: str | None  # the creator named ("my" is the poster), or None
    added: tuple[str, ...]  # names added (add)
    members: tuple[str, ...]  # names stated: with whom (start), already in (add), in (close)
    members_stated: bool
    chat_id: str | None = None  # the short form may name the chat by its registry id


_CHAT_ID = re.compile(r"\b(?:to:\s*)?(C\d+)\b", re.I)


def read_announcements(text: str) -> list[Announcement]:
    """The chat announcements of a post's own text, in order: one per sentence at most."""
    found = []
    for sentence in _SENTENCE.split(text):
        announcement = _read_sentence(sentence)
        if announcement is not None:
            found.append(announcement)
    return found


def _read_sentence(sentence: str) -> Announcement | None:
    m = _EXPLICIT.match(sentence)
    if m:
        return _explicit(m["kind"].lower(), m["rest"])
    if _TALK.search(sentence):
        return None
    listed = _listed_with_poster(sentence)
    if listed and _BARE_LIST.match(sentence):
        return Announcement("unclear", None, (), listed, True)
    m = _LISTED_IN.match(sentence)
    if m and (listed := _listed_with_poster(m["names"])):
        stated = _stated_members(m["rest"], with_first=True, listed=True) or ()
        return Announcement("start", _started_by(m["rest"]) or "my", (), (*listed, *stated), True)
    found = [
        (m.start(), kind, m)
        for kind, pattern in (
            ("add", _ADD),
            ("close", _CLOSE),
            ("start", _START),
            ("start", _START_OPENING),
        )
        if (m := pattern.search(sentence)) and (kind != "add" or _CHAT_WORD.search(m["rest"]))
    ]
    if not found:
        # a chat and an act no form reads: the host reads it (the one added saying so is no act)
        if _ACTED_ON.search(sentence):
            if not _ADDED_ONESELF.search(sentence):
                return Announcement("unclear", None, (), (), False)
        return None
    _, kind, m = min(found, key=lambda f: f[0])
    # "Kohai and I started a chat": the members listed before the verb, the poster among them
    subject = _listed_with_poster(sentence[: m.start()])
    if kind == "add":
        rest = m["rest"]
        stated = _stated_members(rest) or _stated_members(sentence[m.end("added") :])
        return Announcement(
            "add", _owner(rest), _names(m["added"]), stated or (), stated is not None
        )
    if kind == "close":
        rest = m["rest"] if m["rest"] is not None else m["rest2"] + " " + (m["tail"] or "")
        stated = _stated_members(rest, with_first=True)
        if subject:
            stated = (*subject, *(stated or ()))
        return Announcement("close", _owner(rest), (), stated or (), stated is not None)
    # "a chat with Cy, started by Bo": the starter is no member stated
    rest = m["rest"] if m["rest"] is not None else m["rest2"] + " " + _BY.sub("", m["tail"])
    stated = _stated_members(rest, with_first=True, listed=True)
    names = (*(subject or ()), *(stated or ()))
    starter = "my" if subject else _starter(sentence[: m.start()])
    starter = starter or _started_by(sentence[m.start() :]) or "my"
    return Announcement("start", starter, (), names, bool(names))


# Words that open a sentence before its verb and name no one: "Finally started a chat".
_OPENERS = re.compile(r"^(?:(?:so|ok|okay|and|also|btw|fyi|update|edit)\b[\s,:]*)+", re.I)
_AUXILIARIES = re.compile(r"(?:\s+(?:just|has|have|had|also|already|now|finally))+$", re.I)
_NOT_A_STARTER = frozenset(
    "i we me you he she they someone somebody anyone everyone nobody who it that this then "
    "just finally today tonight yesterday earlier now also "
    "the a an any every each no some another one all".split()  # "The chat started", "Any chat"
)


def _starter(before: str) -> str | None:
    """Who started the chat, where one word names them before the verb ("Bo started a chat
    with me"); None when the words before the verb name no one else ("I", "We", nothing)."""
    words = _AUXILIARIES.sub("", _OPENERS.sub("", before.strip())).strip(" ,").split()
    if len(words) != 1 or not words[0][:1].isalpha():
        return None
    word = words[0].rstrip(",:")
    if re.split(r"['’]", word)[0].casefold() in _NOT_A_STARTER:  # "I'm", "we've"
        return None
    return word


def _started_by(text: str) -> str | None:
    """The starter a clause names in so many words: "started by Bo", "the chat Bo made"."""
    m = _STARTED_BY.search(text) or _OWNER_STARTED.search(text)
    if not m:
        return None
    owner = m["owner"].strip()
    return "my" if owner.casefold() in ("my", "me", "mine", "i") else owner


def _listed_with_poster(text: str) -> tuple[str, ...] | None:
    """The names of a list of two or more that holds the poster ("Rex, white and I", "me +
    awesome5000"), each a name of one word; None when the text is no such list."""
    parts = [p.strip(" :-–\"'") for p in _SPLIT.split(text.strip(" .!"))]
    if len(parts) < 2 or any(not p or len(p.split()) > 1 for p in parts):
        return None
    return tuple(parts) if any(p.casefold() in _ME for p in parts) else None


def _stated_members(
    text: str, with_first: bool = False, listed: bool = False
) -> tuple[str, ...] | None:
    """The members a clause states: "already in: ...", "... is already in", "with ...", a
    list after a colon, or a parenthesis of names; None when it states none."""
    text = _CHAT_PHRASE.sub(",", text)
    for inside in (p["inside"] for p in _PAREN.finditer(text)):
        for part in re.split(r";", inside):
            m = _ALREADY.search(part) or _ALREADY_AFTER.search(part)
            if m:
                return _names(m["names"])
        # a chat named by its members: "my PT (Rex + white)"
        names = [n for n in _names(inside) if not _OWNER.fullmatch(" " + n)]
        if names and not _ALREADY.search(inside):
            return tuple(names)
    m = _ALREADY.search(text) or _ALREADY_AFTER.search(text)
    if m and not with_first:
        return _names(m["names"])
    m = _WITH.search(text) or (_LIST.match(text) if listed or with_first else None)
    if m:
        return _names(m["names"])
    if m := _ALREADY.search(text) or _ALREADY_AFTER.search(text):
        return _names(m["names"])
    return None


def _explicit(kind: str, rest: str) -> Announcement:
    named = _CHAT_ID.search(rest)
    if named and kind != "start":
        added = _names(rest[: named.start()].replace("(", " ")) if kind == "add" else ()
        return Announcement(kind, "id", added, (), True, named[1].upper())
    if kind == "start":
        names = _names(rest)
        return Announcement("start", "my", (), names, bool(names))
    if kind == "add":
        to = _TO_LIST.search(rest)
        added = rest[: to.start()] if to else rest
        return Announcement(
            "add", _owner(rest) or "my", _names(added), _names(to["names"]) if to else (), bool(to)
        )
    stated = _WITH.search(rest)
    return Announcement(
        "close", _owner(rest), (), _names(stated["names"]) if stated else (), stated is not None
    )


_MY = re.compile(r"\b(?:my|our)\s+(?:own\s+)?(?:new\s+)?" + _CHAT, re.I)


def _owner(text: str) -> str | None:
    """Who started the chat, as the announcement says: "my chat", "Bo's chat", "(Bo's)",
    "the chat Bo started", "started by Bo"; None when it does not say."""
    m = _OWNER.search(text) or _STARTED_BY.search(text) or _OWNER_STARTED.search(text)
    if m:
        owner = m["owner"].strip()
        return "my" if owner.casefold() in ("my", "me", "mine", "i") else owner
    if _MY.search(text):
        return "my"
    return None


def _names(text: str) -> tuple[str, ...]:
    names = []
    for part in _SPLIT.split(text):
        part = part.strip(" :-–\"'()")
        part = _TRAILING.sub("", _FILLER.sub("", part)).strip(" :-–\"'()")
        if part:
            names.append(part)
    return tuple(names)


# --- the registry -------------------------------------------------------------------------


def chat_log(
    game: Game,
    posts: Sequence[Post],
    days: Sequence[int] | None = None,
    now: datetime | None = None,
) -> list[ChatDay]:
    """The chats of each day: registry, violations and what needs the host's review. `now`
    decides which deadlines have passed, and so which days have ended (default: the clock)."""
    plan = GamePlan.build(game, posts, now)
    hosts = {normalise(h) for h in game.hosts}
    wanted = set(days) if days else set(plan.bounds)
    out = []
    counter = 0
    positions = sorted(plan.bounds.items())
    in_day = {i: d for d, (start, end) in positions for i in range(start, end)}
    day_start_index = {d: start for d, (start, end) in positions}
    # night posts: posts between a day's recorded end and the next day's recorded start
    by_day: dict[int, ChatDay] = {d: ChatDay(d, [], [], []) for d in plan.bounds}
    open_chats: list[Chat] = []
    current_day = None
    corrected = {
        (e.at.thread, e.at.post): e.text for e in game.events if e.kind is EventKind.CHAT_CORRECTION
    }
    read = post_clauses(plan.timeline.posts, chat_reader())  # read once, or kept from a run
    for i, post in enumerate(plan.timeline.posts):
        day = in_day.get(i)
        if day != current_day:
            # past a day's end every chat of that day closes; a night chat lives on to the
            # next day's end (it is a violation already)
            _close_all(open_chats, plan, current_day, by_day)
            current_day = day if day is not None else None
        if normalise(post.author) in hosts:
            continue
        key = (post.thread, post.number)
        if key in corrected:  # the host's reading wins
            text = corrected[key]
            announcements = read_announcements(text) if _may_announce(text) else []
        else:
            announcements = read[i]
        if not announcements:
            continue
        author = game.find_slot(post.author)
        if author is None:
            target = by_day[day or _next_day(i, day_start_index) or max(plan.bounds)]
            target.needs_review.append(Review(post.number, post.author, "not a player"))
            continue
        record_day = day if day is not None else _next_day(i, day_start_index) or max(plan.bounds)
        target = by_day.setdefault(record_day, ChatDay(record_day, [], [], []))
        _follow_replacements(open_chats, plan, i)
        for a in announcements:
            counter = _apply(a, post, author, day is None, plan, target, open_chats, counter)
    _close_all(open_chats, plan, current_day, by_day)
    for d, entry in by_day.items():
        entry.chats.sort(key=lambda c: int(c.id[1:]))
        if d in wanted:
            out.append(entry)
    return sorted(out, key=lambda e: e.day)


def chat_reader() -> ClauseReader:
    """The chat announcements of posts as threads.kept reads and keeps them: under the code of
    this module and the patterns it reads with (a changed pattern reads every post again). A
    post whose own text neither names a chat nor lists names with the poster is passed over:
    its lines' words are its own text's words."""
    patterns = sorted(v.pattern for v in globals().values() if isinstance(v, re.Pattern))
    return ClauseReader(
        kind=code_digest("chats", [_CHAT, *patterns], (__file__,)),
        wanted=lambda post: _may_announce(post.text),
        read=_post_announcements,
        dump=lambda found: orjson.dumps([astuple(a) for a in found]),
        load=lambda kept: [
            Announcement(kind, owner, tuple(added), tuple(members), stated, chat_id)
            for kind, owner, added, members, stated, chat_id in orjson.loads(kept)
        ],
    )


def _post_announcements(post: Post) -> list[Announcement]:
    text = _own_lines(post)
    return read_announcements(text) if _may_announce(text) else []


def _own_lines(post: Post) -> str:
    """The post's own text line by line (quotes, spoilers and struck text out): a line break
    ends an announcement as a full stop does."""
    return "\n".join(" ".join("".join(r.text for r in line).split()) for line in post.body.lines)


def _mentions_chat(text: str) -> bool:
    return _CHAT_WORD.search(text) is not None


def _may_announce(text: str) -> bool:
    """Whether a text may hold an announcement: it names a chat, or it has a sentence of
    nothing but names with the poster among them ("me + awesome5000")."""
    if _mentions_chat(text):
        return True
    if "+" not in text and "&" not in text:  # a bare list is joined by one of them
        return False
    return _POSTER_BESIDE_JOINER.search(text) is not None and any(
        _BARE_LIST.match(sentence) for sentence in _SENTENCE.split(text)
    )


def _follow_replacements(open_chats: list[Chat], plan: GamePlan, pos: int) -> None:
    """One who replaces a player takes their place in the open chats, as the one who started
    them too: the chats name each slot by who holds it now (their events keep who acted)."""
    if not plan.game.events_of(EventKind.REPLACEMENT):
        return
    game = plan.game

    def now(name: str) -> str:
        slot = game.find_slot(name)
        return plan.holder(slot, pos) if slot else name

    for chat in open_chats:
        chat.creator = now(chat.creator)
        chat.members = [now(m) for m in chat.members]


def _next_day(index: int, starts: dict[int, int]) -> int | None:
    later = [d for d, start in starts.items() if start > index]
    return min(later) if later else None


def _close_all(open_chats: list[Chat], plan: GamePlan, day: int | None, by_day) -> None:
    """Rule 5, "All chats close at the end of each day": of a day that has ended (the ledger or
    the schedule's deadline says so); a day still going keeps its chats open."""
    if day is None or plan.windows[day].end is None:
        return
    end = plan.bounds[day][1]
    last = plan.timeline.posts[end - 1] if end else None
    for chat in open_chats:
        chat.closed = {
            "how": "day_end",
            "post": last.number if last else None,
            "time": last.time.isoformat() if last and last.time else None,
        }
    open_chats.clear()


def _resolve(
    resolver: Resolver,
    names: Sequence[str],
    author: str,
    game: Game,
    noted: list[tuple[str, str, str]] | None = None,
) -> tuple[list, list]:
    """Slots for names ("me" is the author); hosts are left out; what names no one is kept.
    Names read loosely go to `noted` as (written, slot, how)."""
    slots, unknown = [], []
    hosts = {normalise(h) for h in game.hosts}
    for name in names:
        if name.casefold() in _ME:
            slots.append(author)
            continue
        if normalise(name) in hosts:
            continue
        res = resolver.resolve(name, whole=True)
        if res.kind is TargetKind.PLAYER:
            slots.append(res.slot)
            if noted is not None and res.method not in _SURE:
                how = f"{res.method.value}, confidence {res.confidence:.2f}"
                noted.append((name, res.slot, how + (f"; {res.evidence}" if res.evidence else "")))
        else:
            unknown.append(name)
    return list(dict.fromkeys(slots)), unknown


_SURE = (Method.EXACT, Method.NORMALISED, Method.ALIAS)


def _note_names(day: ChatDay, post: Post, plan: GamePlan, pos: int, noted) -> None:
    for written, slot, how in noted:
        reading = NameReading(post.number, written, plan.holder(slot, pos), how)
        if reading not in day.names:  # an owner who is also named a member: once
            day.names.append(reading)


def _apply(
    a: Announcement,
    post: Post,
    author: str,
    at_night: bool,
    plan: GamePlan,
    day: ChatDay,
    open_chats: list[Chat],
    counter: int,
) -> int:
    game, resolver = plan.game, plan.resolver
    pos = plan.timeline.after(_ref(post)) - 1
    name = plan.holder(author, pos)

    noted: list[tuple[str, str, str]] = []
    members, unknown = _resolve(resolver, a.members, author, game, noted)
    if a.kind == "unclear":
        if not unknown:  # a list naming someone who is not a player is talk ("me and him")
            _note_names(day, post, plan, pos, noted)
            day.needs_review.append(Review(post.number, name, _unclear(a)))
        return counter
    _note_names(day, post, plan, pos, noted)
    if unknown:
        day.needs_review.append(
            Review(post.number, name, f"{a.kind}: no player named {', '.join(unknown)}")
        )
        return counter
    if a.kind == "start":
        starter = _reported_starter(a, author, plan, pos, day, post)
        if starter is not None:
            stated = {plan.holder(m, pos) for m in members}
            if any(c.creator == starter and stated <= set(c.members) for c in open_chats):
                return counter  # a member's word on a chat its starter announced
            why = f"start: {name} says {starter} started it; the one who starts a chat states it"
            day.needs_review.append(Review(post.number, name, f"{why} (rule 1)"))
        counter += 1
        creator = starter or name
        chat = Chat(f"C{counter}", creator, post.number, post.thread, [creator])
        for m in members:
            holder = plan.holder(m, pos)
            if holder not in chat.members:
                chat.members.append(holder)
        chat.events.append(ChatEvent(post.number, "start", name, (), tuple(chat.members)))
        day.chats.append(chat)
        open_chats.append(chat)
        if at_night:
            _flag(day, post, name, "chat_at_night", chat, "a chat started outside a day phase")
        if not a.members_stated:
            _flag(
                day,
                post,
                name,
                "members_not_named",
                chat,
                "the start does not say who is in the chat",
            )
        return counter
    owner_slot = None
    if a.chat_id:
        chat = next((c for c in open_chats if c.id == a.chat_id), None)
        if chat is None:
            day.needs_review.append(Review(post.number, name, f"{a.kind}: {a.chat_id} is not open"))
            return counter
        stated = set(chat.members)  # naming the chat states its members
        return _act(a, post, name, chat, stated, at_night, plan, day, open_chats, counter, pos)
    if a.owner == "my":
        owner_slot = author
    elif a.owner:
        noted = []
        owner_slot = next(iter(_resolve(resolver, [a.owner], author, game, noted)[0]), None)
        _note_names(day, post, plan, pos, noted)
    owner = plan.holder(owner_slot, pos) if owner_slot else None
    # "wylted's chat with Shining and me" names wylted too: one who starts a chat is in it
    stated = {plan.holder(m, pos) for m in members} | ({owner} if owner else set())
    candidates = [c for c in open_chats if owner is None or c.creator == owner]
    if len(candidates) > 1 or owner is None:
        # the members stated pick the chat: those who were in it (the poster may be left out)
        candidates = [c for c in candidates if stated and stated <= set(c.members) | {name}]
        exact = [c for c in candidates if set(c.members) in (stated, stated | {name})]
        candidates = exact if len(exact) == 1 else candidates
    if len(candidates) != 1:
        why = "no open chat matches" if not candidates else "several open chats match"
        day.needs_review.append(Review(post.number, name, f"{a.kind}: {why} ({_text(a, name)})"))
        return counter
    chat = candidates[0]
    return _act(a, post, name, chat, stated, at_night, plan, day, open_chats, counter, pos)


def _reported_starter(
    a: Announcement, author: str, plan: GamePlan, pos: int, day: ChatDay, post: Post
) -> str | None:
    """The player a start names as the chat's starter where that is not the poster ("Bo
    started a chat with me"), else None: a word before the verb that names no player
    ("Finally started a chat") leaves the poster the starter."""
    if a.owner in (None, "my"):
        return None
    noted: list[tuple[str, str, str]] = []
    slots, unknown = _resolve(plan.resolver, [a.owner], author, plan.game, noted)
    if unknown or not slots or slots[0] == author:
        return None
    _note_names(day, post, plan, pos, noted)
    return plan.holder(slots[0], pos)


def _act(
    a: Announcement,
    post: Post,
    name: str,
    chat: Chat,
    stated: set[str],
    at_night: bool,
    plan: GamePlan,
    day: ChatDay,
    open_chats: list[Chat],
    counter: int,
    pos: int,
) -> int:
    game, resolver = plan.game, plan.resolver
    author = game.find_slot(post.author)

    if at_night:
        _flag(day, post, name, "chat_at_night", chat, f"a chat {a.kind} outside a day phase")
    if a.owner is None:
        _flag(
            day,
            post,
            name,
            "creator_not_named",
            chat,
            f"the {a.kind} does not say who started the chat",
        )
    if a.kind == "add":
        noted: list[tuple[str, str, str]] = []
        added, unknown_added = _resolve(resolver, a.added, author, game, noted)
        _note_names(day, post, plan, pos, noted)
        if unknown_added:
            day.needs_review.append(
                Review(post.number, name, f"add: no player named {', '.join(unknown_added)}")
            )
            return counter
        new = [plan.holder(s, pos) for s in added if plan.holder(s, pos) not in chat.members]
        if chat.creator != name:  # rule 2: the add is not made, only flagged
            _flag(
                day,
                post,
                name,
                "non_creator_add",
                chat,
                f"only {chat.creator}, who started it, may add"
                + (f"; {', '.join(new)} not counted a member" if new else ""),
            )
        if not a.members_stated:
            _flag(
                day,
                post,
                name,
                "existing_members_not_stated",
                chat,
                "the add does not say who is in it",
            )
        else:
            _check_stated_members(day, post, name, chat, stated)
        if chat.creator != name:
            chat.irregular.extend(n for n in new if n not in chat.irregular)
            return counter
        chat.members.extend(new)
        chat.events.append(ChatEvent(post.number, "add", name, tuple(new), tuple(chat.members)))
        return counter
    # close
    if not a.members_stated:
        _flag(
            day, post, name, "members_not_named", chat, "the close does not say who was in the chat"
        )
    else:
        _check_stated_members(day, post, name, chat, stated)
    if name not in chat.members:  # rule 3: only one in a chat may end it; it stays open
        detail = f"{name} is not in the chat, which stays open"
        _flag(day, post, name, "close_by_non_member", chat, detail)
        return counter
    chat.events.append(ChatEvent(post.number, "close", name, (), tuple(chat.members)))
    chat.closed = {
        "how": "announcement",
        "post": post.number,
        "by": name,
        "time": post.time.isoformat() if post.time else None,
    }
    open_chats.remove(chat)
    return counter


def _check_stated_members(day: ChatDay, post: Post, name: str, chat: Chat, stated: set) -> None:
    """The forum Clocktower game: an add or a close names who is in the chat; the announcer may
    leave themself out, and may name those put in by one who could not add them."""
    said = (stated, stated | {name})
    if not ({*chat.members} in said or {*chat.members, *chat.irregular} in said):
        have = ", ".join(chat.members)
        _flag(
            day,
            post,
            name,
            "existing_members_mismatch",
            chat,
            f"stated {', '.join(sorted(stated))}; the chat has {have}",
        )


def _flag(day: ChatDay, post: Post, name: str, rule: str, chat: Chat, detail: str) -> None:
    day.violations.append(Violation(post.number, name, chat.id, rule, detail))


def _ref(post: Post):
    return PostRef(post=post.number, thread=post.thread)


def _text(a: Announcement, poster: str) -> str:
    owner = f"{poster if a.owner == 'my' else a.owner}'s chat" if a.owner else "a chat"
    return f"{owner} with {', '.join(a.members) or 'nobody named'}"


def _unclear(a: Announcement) -> str:
    if a.members:
        return f"players listed with the poster, no chat named ({', '.join(a.members)})"
    return "a chat and an act no form reads (a start, add or close?)"


def chat_day_to_json(entry: ChatDay) -> dict:
    return {
        "day": entry.day,
        "chats": [
            {
                "id": c.id,
                "creator": c.events[0].by if c.events else c.creator,  # who started it
                "opened_post": c.opened_post,
                "thread": c.thread,
                "members": list(c.members),
                "events": [
                    {
                        "post": e.post,
                        "kind": e.kind,
                        "by": e.by,
                        "added": list(e.added),
                        "members": list(e.members),
                    }
                    for e in c.events
                ],
                "closed": c.closed,
            }
            for c in entry.chats
        ],
        "violations": [
            {"post": v.post, "author": v.author, "chat": v.chat, "rule": v.rule, "detail": v.detail}
            for v in entry.violations
        ],
        "needs_review": [
            {"post": r.post, "author": r.author, "reason": r.reason} for r in entry.needs_review
        ],
        "names": [
            {"post": n.post, "written": n.written, "player": n.player, "how": n.how}
            for n in entry.names
        ],
    }
