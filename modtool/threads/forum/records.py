"""Posts read as repeated records, each field chosen by what it must be across all of them.

A thread page repeats one record per post: one element, or a run of sibling elements (a header
row and a body row; a table and the paragraph after it). The records are found by comparing
the page's sibling subtrees: a parent whose children repeat a shape (tag, stable classes, the
first child's, how many children). Inside the records, the same part sits at the same path; a
field is a path, chosen by what its texts are across all the records:

- the author: short, in (nearly) every record, no date and no counter, varying between records
  (or one member link throughout), never a label linking to every poster's page; member links
  preferred;
- the time: a date that parses in (nearly) every record and keeps one order through the page
  (a join date goes back and forth), a machine time in an attribute preferred;
- the body: the most varying text once the poster's card, the time and the furniture every
  record shows (a title over each reply, "50 Likes 3 Shares", "Reply Share Report") are out.

The generic reader uses this where its search for post containers finds none, or where what
that search read fails a criterion of the page as a whole; `Doubts` says what was unsure.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from copy import deepcopy
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from functools import lru_cache
from statistics import median

from lxml import etree

from ..frozen import frozen
from ..posts import Post
from ..times import in_one_order
from .base import Doubts
from .markup import (
    attribute_time,
    clean_text,
    icon_glyph,
    member_page,
    remove_keeping_tail,
    shown_name,
    stems_of_classes,
    time_attr_values,
    time_from_text,
)

# The share of records a field must be found in (an ad slot or a deleted post may lack one).
MOST = 0.6
_SKIPPED = {"script", "style", "noscript", "template", "br", "hr", "link", "meta", "input"}
_DIGIT = re.compile(r"\d")
_DIGITS = re.compile(r"[\d\W_]+")  # what a counter's wording is left without


@frozen
class Fields:
    """The paths of a record set's fields (None: no path passes)."""

    author: tuple | None
    time: tuple | None
    body: tuple | None
    furniture: tuple = ()  # the parts every record shows (furniture_paths), cut from the body


# --- finding the records ---------------------------------------------------------------------


def shape(el, label: str | None = None) -> tuple:
    """What repeats between records: an element's tag and stable class names (its `label`,
    where known), its first child's, and how many children it has (a header row and a body
    row differ by their cells' classes, or by how many cells they have)."""
    children = [c for c in el if isinstance(c.tag, str) and c.tag not in _SKIPPED]
    return (label or _label(el), _label(children[0]) if children else None, len(children))


def _label(el) -> str:
    return _tag_and_classes(el.tag, el.get("class") or "")


@lru_cache(maxsize=8192)
def _tag_and_classes(tag: str, classes: str) -> str:
    # A page repeats a few tags and class attributes over thousands of elements: each once.
    return tag + "".join("." + c for c in sorted(stems_of_classes(classes)))


def repeated_runs(parent, longest: int = 4) -> list[list[list]]:
    """The runs of a parent's children that repeat: for each shape that two or more children
    have, the records that start at each of them and go on to the next, as long as most of
    them are (at most `longest` children: a header row and a body row, a table and the
    paragraph after it). Each run as its records, each record as its elements."""
    children = [c for c in parent if isinstance(c.tag, str) and c.tag not in _SKIPPED]
    labels = [_label(c) for c in children]
    # A shape starts with the child's label: a child whose label no sibling shares has a
    # shape of its own, which never repeats (most children of most parents, told apart by
    # a set before anything is counted).
    if len(set(labels)) == len(labels):
        return []
    repeated = {label for label, n in Counter(labels).items() if n > 1}
    at: dict[tuple, list[int]] = {}
    for i, (c, label) in enumerate(zip(children, labels, strict=True)):
        if label in repeated:
            at.setdefault(shape(c, label), []).append(i)
    runs = []
    for starts in at.values():
        if len(starts) < 2:
            continue
        lengths = [b - a for a, b in zip(starts, starts[1:], strict=False)]
        near = [n for n in lengths if n <= longest]
        if not near:
            continue
        # As long as most records are: a record far from the next (the opening post above a
        # box of ads) is not all that lies between them.
        usual = max(set(near), key=near.count)
        ends = [
            min(b, a + usual) for a, b in zip(starts, [*starts[1:], len(children)], strict=True)
        ]
        runs.append([children[a:b] for a, b in zip(starts, ends, strict=True)])
    return runs


def as_element(record: Sequence, wrap: bool = False):
    """One element for a record: itself, or (for a run of records of several siblings, so
    that each record's parts have the same paths) a detached <div> holding copies of them:
    the page itself is left as it was."""
    if len(record) == 1 and not wrap:
        return record[0]
    box = etree.Element("div")
    for el in record:
        box.append(deepcopy(el))
    return box


def candidate_records(doc, leave_out: set = frozenset()) -> list[list]:
    """Every repeated run of the page, as lists of record elements."""
    found = []
    for parent in doc.iter(etree.Element):  # elements only: no comment holds a record
        if len(parent) < 2 or parent in leave_out:
            continue
        for run in repeated_runs(parent):
            found.append(run)
    return found


# --- the parts of a record -------------------------------------------------------------------


def texts_at(records_parts: list[dict], path: tuple) -> list[str]:
    """The text at a path in each record ("" where the record has none)."""
    return [clean_text(p.get(path)) for p in records_parts]


def parts(record) -> dict[tuple, object]:
    """A record's elements by their path from the record (tags and stable classes, and the
    position among siblings of one tag), the first of each path."""
    found: dict[tuple, object] = {}

    def walk(el, path):
        counts: dict[str, int] = {}
        for child in el:
            tag = child.tag
            if not isinstance(tag, str) or tag in _SKIPPED:
                continue
            label = _tag_and_classes(tag, child.get("class") or "")  # _label
            counts[label] = counts.get(label, 0) + 1
            step = (*path, (label, counts[label]))
            found.setdefault(step, child)
            walk(child, step)

    found[()] = record
    walk(record, ())
    return found


# --- the criteria, each on the texts of one path across the records --------------------------


def most_of(n: int) -> float:
    """How many of n records are most of them: (nearly) every one, and at least two."""
    return max(2, MOST * n)


def short(texts: Sequence[str]) -> bool:
    """A name is short: 2 to 40 characters in every record that has it."""
    return all(2 <= len(t) <= 40 for t in texts if t)


def varies(texts: Sequence[str]) -> bool:
    """Different in different records."""
    return len({t for t in texts if t}) >= 2


def every_record_shows(texts: Sequence[str]) -> bool:
    """The same text in every record: a label ("Quote", "Profile"), a title, a menu."""
    present = [t for t in texts if t]
    return len(present) >= 2 and len(set(present)) == 1


def label_to_many_places(texts: Sequence[str], hrefs: Sequence[str]) -> bool:
    """One text linking to different places in different records: a button ("Profile",
    "View posts"), not one member's name."""
    return every_record_shows(texts) and len({h for h in hrefs if h}) >= 2


def reads_as_date(text: str, tz: tzinfo) -> bool:
    return _date_in(text, tz) is not None


def links_only(nodes: Sequence) -> bool:
    """A link's words and nothing else in most records: a list of topics or links (a forum's
    index, a sidebar), not messages."""
    linked = 0
    for node in nodes:
        if node is None:
            continue
        text = clean_text(node)
        link = node if node.tag == "a" else next(node.iter("a"), None)
        linked += bool(text) and link is not None and clean_text(link) == text
    return linked >= MOST * len(nodes)


def member_link(el) -> bool:
    """A link to a member's page (markup.member_page: not a login, a search, an anchor)."""
    return el.tag == "a" and member_page(el.get("href") or "")


# --- choosing the fields ---------------------------------------------------------------------


def _column(records_parts: list[dict], path: tuple) -> list:
    return [p.get(path) for p in records_parts]


def _paths(records_parts: list[dict]) -> list[tuple]:
    """The paths found in most records, in the order of the first record that has them."""
    counts: dict[tuple, int] = {}
    for p in records_parts:
        for path in p:
            counts[path] = counts.get(path, 0) + 1
    need = most_of(len(records_parts))
    return [path for path, n in counts.items() if n >= need and path]


def time_of(el, tz: tzinfo, known: dict | None = None) -> datetime | None:
    """A time an element gives: a machine time in an attribute first (on the clock the page
    shows it on, where it shows it too), else its text. `known` keeps the first date line of
    each element read (`_first_date_piece`) for the next call, where given."""
    shown = _shown_time(el, tz, {} if known is None else known)
    for value in time_attr_values(el):
        found = attribute_time(value, tz)
        if found is not None:
            return on_shown_clock(found, shown)
    return shown


def _shown_time(el, tz: tzinfo, known: dict) -> datetime | None:
    text = clean_text(el)
    if 6 <= len(text) <= 80 and (found := _date_in(text, tz)):
        return found
    # A date line of its own after a title ("Re: Some thread<br>25-February-2012 21:46")
    return _first_date_piece(el, tz, known)


def _first_date_piece(el, tz: tzinfo, known: dict) -> datetime | None:
    """The time of the first piece of an element's text (in itertext's order: a script's text
    is one, a comment's is not) that is a short date line, each element's found once: the
    paths of a record nest, and an element's first piece is its first child's, or after."""
    if el in known:
        return known[el]
    found = _date_piece(el.text, tz)
    if found is None:
        for child in el:
            if isinstance(child.tag, str):
                found = _first_date_piece(child, tz, known)
            if found is None:
                found = _date_piece(child.tail, tz)
            if found is not None:
                break
    known[el] = found
    return found


def _date_piece(piece: str | None, tz: tzinfo) -> datetime | None:
    piece = (piece or "").strip()
    return _date_in(piece, tz) if 6 <= len(piece) <= 40 else None


def _date_in(text: str, tz: tzinfo) -> datetime | None:
    """The time a text reads as, or None (a text without a digit is no date)."""
    return time_from_text(text, tz) if _DIGIT.search(text) else None


def on_shown_clock(instant: datetime, shown: datetime | None) -> datetime:
    """A machine time given with its offset, at the offset the page displays it in, where
    the displayed wall clock differs from it by a whole number of quarter hours (a forum
    shows times in its own zone: "7:14 PM" for 02:14:44Z is UTC-7)."""
    if shown is None or instant.tzinfo is None:
        return instant
    utc = instant.astimezone(UTC).replace(second=0, microsecond=0, tzinfo=None)
    minutes = round((shown.replace(tzinfo=None) - utc).total_seconds() / 60)
    if minutes == 0 or minutes % 15 or abs(minutes) > 14 * 60:
        return instant
    return instant.astimezone(timezone(timedelta(minutes=minutes)))


def choose_time(records_parts: list[dict], paths: Sequence[tuple], tz: tzinfo) -> tuple | None:
    """The path whose times parse in most records and keep one order: the narrowest
    such element (the date itself, not the header around it), the first such path."""
    best = None
    known: dict = {}  # each element's first date line (_first_date_piece)
    for path in paths:
        nodes = _column(records_parts, path)
        if _in_most(nodes, _may_give_time, False) is None:
            continue  # too long, or no digit and no attribute: no date in most records
        times = _times_in_most(nodes, tz, known)
        if times is None or not in_one_order(times):
            continue
        if best is None or _inside(path, best):
            best = path
        elif not _inside(best, path):
            break  # the first date of the record, not a later one (an edit note)
    return best


def _times_in_most(nodes: list, tz: tzinfo, known: dict) -> list | None:
    """The nodes' times where they give one in most records (most_of), else None."""
    return _in_most(nodes, lambda node: time_of(node, tz, known), None)


def _in_most(nodes: list, read, none) -> list | None:
    """What `read` gives of each node (`none` where a record has no node) where it gives
    something in most records (most_of), else None: read in order, and given up once
    too many records show nothing for most to."""
    allowed = len(nodes) - most_of(len(nodes))
    found, missing = [], 0
    for node in nodes:
        value = read(node) if node is not None else none
        if not value:
            missing += 1
            if missing > allowed:
                return None
        found.append(value)
    return found


def _may_give_time(el) -> bool:
    """Whether an element can give a time at all (cheap, before parsing): an attribute a
    time is kept in, or digits in its text (short, or with a line of its own)."""
    if time_attr_values(el):
        return True
    text = clean_text(el)
    return bool(_DIGIT.search(text)) and (len(text) <= 80 or bool((el.text or "").strip()))


def _inside(inner: tuple, outer: tuple) -> bool:
    return len(inner) > len(outer) and inner[: len(outer)] == outer


def choose_author(
    records_parts: list[dict], paths: Sequence[tuple], tz: tzinfo, avoid: Sequence[tuple]
) -> tuple | None:
    """The first short path, in most records, that is no date and no label every record
    shows, and varies between records (or is a member link throughout: one poster); member
    links first."""
    candidates = []
    for path in paths:
        # A byline's name may sit inside the element showing the time ("By X On <date>").
        if any(path == a or _inside(a, path) for a in avoid if a):
            continue
        nodes = _column(records_parts, path)
        texts = _in_most(nodes, _author_text, "")
        if texts is None or not short(texts):
            continue
        if any(reads_as_date(t, tz) for t in texts if t):
            continue
        hrefs = [n.get("href") or "" if n is not None else "" for n in nodes]
        links = all(member_link(n) for n in nodes if n is not None)
        if varies(texts):
            if furniture(texts):
                continue  # a counter ("3 Likes"), a post number
        elif not links or label_to_many_places(texts, hrefs) or sum(map(bool, texts)) < 3:
            # One text in every record: a label, unless one member's link throughout three
            # records or more (two may be one post's poster card, shown twice for phones).
            continue
        candidates.append((not links, path))
    return min(candidates, key=lambda c: c[0])[1] if candidates else None


def _author_text(el) -> str:
    """The first line of an element's text (a name, not the rank under it)."""
    first = shown_name(el)
    return first if len(first) <= 40 else ""


def mostly_one_text(texts: Sequence[str]) -> bool:
    """One text in most records (the thread's title over each reply: "Re: <title>")."""
    present = [t for t in texts if t]
    if len(present) < 3:
        return False
    top = max(set(present), key=present.count)
    return present.count(top) >= MOST * len(present) and len(top) > 3


def furniture(texts: Sequence[str]) -> bool:
    """The same words in every record, numbers aside: a button row ("Reply Share Report"), a
    post number, a counter ("50 Likes 3 Shares", "1 Like"): counters in a few wordings."""
    present = [t for t in texts if t]
    if len(present) < 2:
        return False
    if len(set(present)) == 1:
        return True
    if any(len(t) > 80 for t in present):
        return False  # a message, not a counter or a row of buttons
    wordings = {_DIGITS.sub("", t).strip() for t in present}
    if len(wordings) == 1:
        return True
    counted = sum(bool(_DIGIT.search(t)) for t in present) >= MOST * len(present)
    few = len(present) >= 4 and len(wordings) <= max(2, len(present) // 4)
    return counted and few and all(len(w) <= 30 for w in wordings)


def furniture_paths(records_parts: list[dict], paths: Sequence[tuple]) -> list[tuple]:
    """The paths that are furniture in every record that has them (outermost ones only)."""
    found: list[tuple] = []
    for path in paths:
        if any(_inside(path, f) for f in found):
            continue
        texts = texts_at(records_parts, path)
        if furniture(texts) or mostly_one_text(texts):
            found.append(path)
    return found


def _remaining(el, path: tuple, record_parts: dict, cut: Sequence[tuple]) -> str:
    """An element's text without the parts at the `cut` paths inside it."""
    text = clean_text(el)
    for c in cut:
        if c and _inside(c, path) and record_parts.get(c) is not None:
            text = text.replace(clean_text(record_parts[c]), "", 1)
    return text.strip()


def choose_body(
    records_parts: list[dict], paths: Sequence[tuple], author: tuple | None, cut: Sequence[tuple]
):
    """The path of the message: the most text that varies between records once the author,
    the time and the furniture (`cut`) are taken out, in a part apart from the poster (the
    poster's card, with its rank and join date, is no message) unless the message shares
    its part with the poster and that part holds twice as much."""
    # Each path's text is measured once: the part apart from the poster is the longest of
    # the paths that do not hold the poster.
    lengths = _text_lengths(records_parts, paths, [author, *cut])
    apart = _longest_text({p: n for p, n in lengths.items() if not _holds(p, author)})
    shared = _longest_text(lengths)
    if apart is None or (shared is not None and shared[1] > 2 * apart[1]):
        return shared[0] if shared else None
    return apart[0]


def _holds(path: tuple, inner: tuple | None) -> bool:
    return inner is not None and (path == inner or _inside(inner, path))


def _text_lengths(
    records_parts: list[dict], paths: Sequence[tuple], cut: Sequence[tuple]
) -> dict[tuple, float]:
    """The median length of each path's text once the `cut` parts are out, for the paths
    (never one inside those, nor one of links only) whose texts then vary between records."""
    lengths: dict[tuple, float] = {}
    for path in [(), *paths]:
        if any(c and (path == c or _inside(path, c)) for c in cut):
            continue
        nodes = _column(records_parts, path)
        if links_only(nodes):
            continue
        inner = [c for c in cut if c and _inside(c, path)]  # the cuts that may be in it
        left = [
            _remaining(n, path, p, inner) if n is not None else ""
            for n, p in zip(nodes, records_parts, strict=True)
        ]
        if varies(left):  # what is left once the cut parts are out differs between records
            lengths[path] = median(map(len, left))
    return lengths


def _longest_text(lengths: dict[tuple, float]) -> tuple | None:
    """(path, median length) of the path holding the most text (`_text_lengths`); of paths
    holding nearly as much (nine tenths), the innermost: the message, not the post around it."""
    if not lengths or max(lengths.values()) <= 0:
        return None
    most = max(lengths.values())
    near = [path for path, n in lengths.items() if n >= 0.9 * most]
    best = max(near, key=len)
    return best, lengths[best]


def choose_fields(records_parts: list[dict], tz: tzinfo, worth=None) -> Fields | None:
    """Each field's path, the paths of the records read once for all of them. `worth`, where
    given, is asked once the time and again once the author is chosen (whether a path passes
    for each) if the record set is still worth reading; if not, the answer is None."""
    paths = _paths(records_parts)
    time = choose_time(records_parts, paths, tz)
    if worth is not None and not worth(time is not None, True):
        return None
    author = choose_author(records_parts, paths, tz, [time])
    if worth is not None and not worth(time is not None, author is not None):
        return None
    furniture = tuple(furniture_paths(records_parts, paths))
    body = choose_body(records_parts, paths, author, [time, *furniture])
    return Fields(author, time, body, furniture)


# --- the page's posts ------------------------------------------------------------------------


@frozen
class RecordSet:
    """A run of records and the fields chosen for them."""

    records: tuple
    fields: Fields
    score: float
    parts: tuple = ()  # each record's parts by path

    @property
    def sure(self) -> bool:
        """Whether paths pass for the author, the time and the body."""
        return None not in (self.fields.author, self.fields.time, self.fields.body)


def _worth_reading(run: list[list]) -> bool:
    """A run whose records hold text enough to be posts (not a menu or a row of icons)."""
    lengths = [sum(len(clean_text(el)) for el in record) for record in run]
    return median(lengths) >= 20


def score(records: list, fields: Fields, records_parts: list[dict]) -> float:
    """How much a record set looks like a thread's posts: its records that show an author and
    a body (and a time, where a path passes for it; a page may show no year), with text
    enough to be posts."""
    if fields.body is None or (fields.author is None and fields.time is None):
        return 0.0
    needed = [path for path in (fields.author, fields.body, fields.time) if path is not None]
    complete = sum(all(at_path(p, path) is not None for path in needed) for p in records_parts)
    bodies = [clean_text(b) for p in records_parts if (b := at_path(p, fields.body)) is not None]
    shown = _shown(fields.time is not None, fields.author is not None)
    return complete * shown * _opens(records, fields) * min(1.0, median(map(len, bodies)) / 40)


def _shown(time: bool, author: bool) -> float:
    """Posts show who wrote them and when: a set without one of them is far more often a list
    of links; it is read (and said to be unsure) where the page has nothing better."""
    return (1.0 if time else 0.25) * (1.0 if author else 0.25)


def _opens(records: list, fields: Fields) -> float:
    """A record of several siblings opens with who wrote it (a header row, a poster's cell):
    cut one sibling too early, the rows pair each message with the next post's header."""
    first = records[0]
    if first.getparent() is not None or not len(first):
        return 1.0  # a record of one element
    opener = fields.author or fields.time
    return 1.0 if opener[0] == (_label(first[0]), 1) else 0.8


def best_record_set(doc, tz: tzinfo, leave_out: set = frozenset()) -> RecordSet | None:
    """The repeated run of the page that best reads as posts, with its fields, or None."""
    best = None
    # Longest runs first: a run can score at most its number of records, so once one scores
    # more than a run has records, that run need not be read.
    for run in sorted(candidate_records(doc, leave_out), key=len, reverse=True):
        if best is not None and len(run) <= best.score:
            break
        if not _worth_reading(run):
            continue
        wrap = any(len(r) > 1 for r in run)
        records = [as_element(r, wrap) for r in run]
        records_parts = [parts(r) for r in records]
        # score() gives at most the records' number times `_shown`: a set that cannot beat
        # the best so far is not read further.
        beat = best.score if best is not None else 0.0

        def worth(time: bool, author: bool, n: int = len(records), beat: float = beat) -> bool:
            return n * _shown(time, author) > beat

        fields = choose_fields(records_parts, tz, worth)
        if fields is None:
            continue
        found = score(records, fields, records_parts)
        if found > 0 and (best is None or found > best.score):
            best = RecordSet(tuple(records), fields, found, tuple(records_parts))
    return best


def _without(el, path: tuple, record_parts: dict, cut: Sequence[tuple], note=None):
    """A copy of a record's element without the parts at the `cut` paths inside it (their
    tails, the words after them, stay), its icons, and what `note` says is an edit note (the
    element itself where none of them is in it)."""
    # The parts are found and judged on the page's elements (their texts read once for the
    # page), and their copies dropped.
    inside = [c for c in cut if c and _inside(c, path)]
    inner = parts(el) if inside else {}
    drop = [inner.get(c[len(path) :]) for c in inside]
    drop += [node for node in el.iter() if isinstance(node.tag, str) and icon_glyph(node)]
    if note is not None:  # a line of its own under the message, never all of it
        whole = clean_text(el)
        drop += [
            node
            for node in el.iterdescendants()
            if isinstance(node.tag, str) and clean_text(node) != whole and note(node)
        ]
    drop = [node for node in drop if node is not None]
    if not drop:
        return el
    copy = deepcopy(el)
    twin = dict(zip(el.iter(), copy.iter(), strict=True))
    for node in drop:
        remove_keeping_tail(twin[node])
    return copy


def edit_note(text: str, author: str, posted: datetime | None, tz: tzinfo) -> bool:
    """A forum's note that a post was edited, in any language: a short line naming the poster
    and a time no earlier than the post's ("[Beitrag von X am 20. Apr 2004, 22:03
    bearbeitet]", "Last edited by X; 5 July 2023 at 10:02")."""
    if not author or not 10 <= len(text) <= 150 or author not in text:
        return False
    edited = time_from_text(text, tz)
    return edited is not None and (posted is None or edited >= posted)


def at_path(record_parts: dict, path: tuple | None):
    """A record's part at a field's path; where the record has none there, the part at the
    same place whose classes add to the path's: a forum marks some posts with a class more
    (the opening post, one with an ad slot, a moderator's), and it is the same part."""
    if path is None:
        return None
    found = record_parts.get(path)
    if found is not None or not path:
        return found
    for other, el in record_parts.items():
        if len(other) == len(path) and all(
            n == m and _adds_classes(b, a) for (a, n), (b, m) in zip(path, other, strict=True)
        ):
            return el
    return None


def _adds_classes(label: str, base: str) -> bool:
    """Whether a label ("div.hasAds.posting-text") is a base label's tag and classes and more."""
    tag, *classes = base.split(".")
    other, *more = label.split(".")
    return tag == other and set(classes) <= set(more)


_ID = re.compile(r"\d{2,}")


def record_id(record, index: int) -> str:
    """A post id the record shows: digits in an id or anchor name, else its place."""
    for el in record.iter():
        if not isinstance(el.tag, str):
            continue
        for attr in ("id", "name", "data-id", "data-pid"):
            m = _ID.search(el.get(attr) or "")
            if m:
                return m[0]
    return str(index)


@frozen
class Read:
    """A record read: the post, the element showing its time (None where none does)."""

    post: Post
    time_node: object


def read_records(found: RecordSet, tz: tzinfo, url: str | None) -> tuple[list[Read], Doubts]:
    """The posts of a record set, and what the reading was unsure of. Records with neither an
    author nor a time where the others show them are furniture shaped like posts."""
    fields = found.fields
    records_parts = list(found.parts)
    cut = [fields.author, fields.time, *fields.furniture]
    read, missing = [], {"author": 0, "time": 0, "text": 0}
    for i, (record, p) in enumerate(zip(found.records, records_parts, strict=True)):
        author_node = at_path(p, fields.author)
        time_node = at_path(p, fields.time)
        time = time_of(time_node, tz) if time_node is not None else None
        if author_node is None and time is None:
            continue
        body_node = at_path(p, fields.body)
        missing["author"] += author_node is None
        missing["time"] += time is None
        missing["text"] += body_node is None
        if body_node is None:
            continue
        author = _author_text(author_node) if author_node is not None else ""
        # An edit note names the poster: a body whose text does not name them holds none (the
        # text of anything in it is a piece of the body's), and its parts' texts go unread
        named = author and author in clean_text(body_node)
        note = (lambda n, a=author, t=time: edit_note(clean_text(n), a, t, tz)) if named else None
        body = _without(body_node, fields.body, p, cut, note)
        post = Post.from_element(
            body, post_id=record_id(record, i), number=None, author=author, time=time, url=url
        )
        read.append(Read(post, time_node))
    chosen = {"author": fields.author, "time": fields.time}
    unsure = [
        f"no part of the records passes as the {what}" for what, path in chosen.items() if not path
    ]
    records = len(read) + missing["text"]
    unsure += [
        f"{n} of {records} records show no {what}"
        for what, n in missing.items()
        if n and chosen.get(what, True)
    ]
    where = tuple(
        (what, describe(path))
        for what, path in (("author", fields.author), ("time", fields.time), ("body", fields.body))
        if path is not None
    )
    return read, Doubts(len(read), tuple(unsure), fields.author is not None, where)


def describe(path: tuple) -> str:
    """A path for people: "tr > td.name > b" (with ":2" for a second sibling of its kind)."""
    if not path:
        return "the record itself"
    return " > ".join(label + (f":{n}" if n > 1 else "") for label, n in path)
