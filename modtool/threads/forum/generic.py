"""The generic reader: posts of an engine modtool has never seen, found by page structure.

A thread page repeats one block per post. The reader groups elements by tag and stable class
names, keeps the groups whose members each show a poster (a profile link) and a time, and
takes the best-scoring group as the posts. In each post the body is the largest block that
holds neither the poster nor the time. No site's selectors are used here.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from dataclasses import replace
from datetime import datetime, tzinfo
from functools import lru_cache
from itertools import chain
from statistics import median
from typing import NamedTuple
from urllib.parse import urldefrag, urljoin

from lxml import etree

from ..posts import Post
from ..times import UTC, day_and_month, orient_day_month
from . import records
from .base import Doubts, ThreadPage
from .markup import (
    PageScheme,
    attribute_time,
    clean_text,
    icon_glyph,
    machine_time_attrs,
    member_page,
    paginate,
    remove_keeping_tail,
    select,
    shown_name,
    shown_number,
    stable_class,
    stems_of_classes,
    time_attr_values,
    time_from_text,
)

name = "generic"

_CONTAINER_TAGS = {"div", "li", "article", "section", "table", "tr", "td", "dl"}
_NAME_TAGS = {"span", "div", "td", "b", "strong", "a", "p"}  # where a name grows a post
_BODY_TAGS = {"div", "blockquote", "article", "section", "td", "dd"}
_NAME_CLASS = re.compile(
    r"poster|author|user-?name|nick(?:name)?|writer|member|(?:^|\s)name(?:\s|$)", re.I
)
_LABELLED = re.compile(r"^(joined|join date|registered|member since|last seen|가입일?)\b", re.I)
_ID_DIGITS = re.compile(r"(\d{2,})")
_POST_ID = re.compile(r"post[-_]?(\d+)", re.I)
_SCHEMES = (
    PageScheme(r"[?&]page=(\d+)"),
    PageScheme(r"[?&]pageNo=(\d+)"),  # WoltLab
    PageScheme(r"/page[-/]?(\d+)(?:[/?#]|$)"),  # XenForo page-2, Invision and bbPress /page/2/
    PageScheme(r"[?&]start=(\d+)", offset=True, first=0),
    PageScheme(r"[?&;]topic=\d+\.(\d+)", offset=True, first=0),  # SMF: topic=10.15
    PageScheme(r"[?&]p=(\d+)"),
)


def detect(doc) -> bool:
    return bool(_posts(doc))


def read_if_claimed(doc, url: str | None, tz: tzinfo) -> ThreadPage | None:
    """The page's posts where the reader finds any, else None: detect and parse in one search
    (parse_page asks this of an engine that has it, not detect and then parse)."""
    search = _search(doc)
    return _parse_found(doc, search, url, tz) if search.blocks else None


def parse(doc, url: str | None, tz: tzinfo) -> ThreadPage:
    return _parse_found(doc, _search(doc), url, tz)


def _parse_found(doc, search: _Search, url: str | None, tz: tzinfo) -> ThreadPage:
    """The page's posts where `_search` found them."""
    pages, page_url, _ = paginate(doc, url, _SCHEMES)
    if len(pages) == 1:
        pages, page_url = _pages_by_neighbours(doc, url) or (pages, page_url)
    if search.records is not None:
        return _parse_records(search.records, url, tz, pages, page_url)
    group, page = search.blocks, search.page
    authors = _authors_in_place(group, page)
    read = [
        (el, *found)
        for i, (el, author) in enumerate(zip(group, authors, strict=True))
        if (found := _read(el, url, tz, i, page, author))
    ]
    posts = _without_copies(_dates_either_way(read))
    # The few members with no time, or no poster, where the others show both, are page
    # furniture shaped like posts (UBB.threads' sidebar of recent topics is a table.t_outer).
    timed = [p for p in posts if p.time is not None]
    if len(timed) >= 0.8 * len(posts):
        posts = timed
    named = [p for p in posts if p.author]
    if len(named) >= 0.8 * len(posts):
        posts = named
    threaded = bool(group) and bool(_depth_spread(group))
    doubts = page_doubts(posts, threaded)
    if not doubts.sure:
        # The containers' reading fails a criterion of the page as a whole: the records'
        # reading, where it passes them all, is the better one (the one search for records
        # of such a page: a page the containers read well is not searched again).
        found = records.best_record_set(doc, UTC, _script_copies(doc))
        if found is not None and found.sure:
            alternative = _parse_records(found, url, tz, pages, page_url)
            if page_doubts(alternative.posts, False).sure:
                return alternative
    if threaded and all(p.time is not None for p in posts):
        posts = _in_posting_order(posts)
    return ThreadPage(tuple(posts), pages, page_url, doubts)


def page_doubts(posts, threaded: bool) -> Doubts:
    """What a page's posts fail of the criteria for the page as a whole: every post with the
    same text (a title read as the message), or by the same author (a label read as the name,
    or one poster: a game thread never is), times that go back and forth (a join date read as
    the post's), posts with no author or no time. Authors are unread where no post has one,
    or all have one and the same."""
    unsure = []
    texts, authors = [p.text for p in posts], [p.author for p in posts]
    if records.every_record_shows(texts):
        unsure.append(f"all {len(posts)} posts have the same text: a title, not a message?")
    one_author = len(posts) >= 3 and records.every_record_shows(authors)
    if one_author:
        unsure.append(f"every post's author is {authors[0]!r}: a label, not a name?")
    if not threaded and not records.in_one_order([p.time for p in posts]):
        unsure.append("the posts' times go back and forth: a join date, not the post's?")
    for what, n in (("author", authors.count("")), ("time", [p.time for p in posts].count(None))):
        if n:
            unsure.append(f"{n} of {len(posts)} posts show no {what}")
    readable = authors.count("") < len(posts) and not one_author
    return Doubts(len(posts), tuple(unsure), authors=readable)


def _parse_records(found, url, tz, pages, page_url) -> ThreadPage:
    """A page whose posts are records with no container the search knows (records.py)."""
    read, doubts = records.read_records(found, tz, url)
    # records.py read each time in UTC when choosing the fields; now in the page's zone
    oriented = _dates_either_way([(r.post, r.post, r.time_node) for r in read])
    posts = tuple(post for _, post in oriented)
    return ThreadPage(posts, pages, page_url, doubts)


def _dates_either_way(read: list) -> list:
    """The posts with numeric dates such as 08/05/2024 read as the page's dates together say
    (times.orient_day_month). `read` holds (element, post, the element showing its time); the
    answer is (element, post)."""
    pairs = [(el, post) for el, post, _ in read]
    times = [post.time for _, post, _ in read]
    shown = [day_and_month(clean_text(node)) if node is not None else None for _, _, node in read]
    oriented = orient_day_month(times, shown)
    return [(el, replace(post, time=t)) for (el, post), t in zip(pairs, oriented, strict=True)]


def _in_posting_order(posts: list[Post]) -> list[Post]:
    """A threaded page (replies nested under what they answer, so the posts sit at several
    depths) shows a tree; the thread is read in posting order: by time, then by the forum's
    id where two share a minute, the reply structure ignored."""

    def key(item):
        index, post = item
        number = int(post.post_id) if post.post_id.isdigit() else index
        return post.time, number, index

    return [post for _, post in sorted(enumerate(posts), key=key)]


def _without_copies(read: list) -> list:
    """Each post once: a post shown twice under one id (a "best answer" copied above the
    thread, a pinned reply) is kept where the thread's posts are, in the container that holds
    most of them, else at its last place (copies are shown above the thread)."""
    where: dict[str, list[int]] = {}
    for i, (_, post) in enumerate(read):
        where.setdefault(post.post_id, []).append(i)
    if all(len(places) == 1 for places in where.values()):
        return [post for _, post in read]
    parents = Counter(el.getparent() for el, _ in read)
    home = parents.most_common(1)[0][0]
    keep = set()
    for places in where.values():
        at_home = [i for i in places if read[i][0].getparent() is home]
        keep.add(at_home[-1] if len(at_home) == 1 else places[-1])
    return [post for i, (_, post) in enumerate(read) if i in keep]


# --- pages named by their neighbours ------------------------------------------------------------


def page_scheme_between(page: str, following: str) -> PageScheme | None:
    """How a forum numbers its pages, told by one page's URL and the next one's: the one run of
    digits that goes up by one (".../1/2/" then ".../1/3/"), or the number the next page adds
    to a first page that shows none (".../1/" then ".../1/2/"). None where they differ
    otherwise."""
    a, b = re.split(r"(\d+)", page), re.split(r"(\d+)", following)
    if len(a) == len(b):
        differ = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        if len(differ) == 1 and differ[0] % 2 and int(b[differ[0]]) == int(a[differ[0]]) + 1:
            i = differ[0]
            before, after = "".join(a[:i]), "".join(a[i + 1 :])
            return PageScheme(re.escape(before) + r"(\d+)" + re.escape(after) + "$")
    stem = page.rstrip("/")
    added = re.fullmatch(re.escape(stem) + r"/(\d+)(/?)", following)
    if added and added[1] == "2":
        return PageScheme(re.escape(stem) + r"/(\d+)" + re.escape(added[2]) + "$")
    return None


def _neighbour_links(doc, url: str) -> dict[str, str]:
    """The previous and next pages as the page names them: HTML's rel="prev" and rel="next",
    on a <link> or an <a>."""
    found: dict[str, str] = {}
    for el in doc.iter("a", "link"):
        href = el.get("href")
        if not href or href.startswith("#"):
            continue
        for rel in set((el.get("rel") or "").lower().split()) & {"prev", "next"}:
            found.setdefault(rel, urldefrag(urljoin(url, href))[0])
    return found


def _pages_by_neighbours(doc, url: str | None) -> tuple[tuple[str, ...], str | None] | None:
    """Every page's URL where no known scheme names the pages but the page names its
    neighbours: the scheme their URLs show, with the page links read as paginate does. A first
    page that drops its number (".../1/" where page 2 is ".../1/2/") keeps its own URL."""
    if not url:
        return None
    near, own = _neighbour_links(doc, url), urldefrag(url)[0]
    pairs = ((own, near.get("next")), (near.get("prev"), own))
    schemes = [page_scheme_between(a, b) for a, b in pairs if a and b]
    scheme = next((s for s in schemes if s is not None), None)
    if scheme is None:
        return None
    pages, page_url, _ = paginate(doc, url, (scheme,))
    numbered, first = pages[0], re.search(scheme.pattern, pages[0])
    if first and numbered[first.start(1) - 1] == "/":
        unnumbered = numbered[: first.start(1) - 1] + numbered[first.end(1) :]
        linked = {urldefrag(urljoin(url, a.get("href")))[0] for a in doc.iter("a") if a.get("href")}
        if unnumbered == own or unnumbered in linked:
            pages = (unnumbered, *pages[1:])
            page_url = unnumbered if page_url == numbered else page_url
    return pages, page_url


class _Search(NamedTuple):
    """Where a page's posts are, and how they were found (`posts --explain` says it)."""

    blocks: list  # the post blocks, the opening post first when it has a container of its own
    opening: object  # that opening post, or None
    rule: str
    containers: bool  # whether each post has an element of its own (selectors can name it)
    records: records.RecordSet | None = None  # posts found as repeated records (records.py)
    page: _Page | None = None  # what was found of the page's elements on the way


_REPEATED = "repeated blocks that each show a poster and a time"
_GROWN = "blocks grown around repeated poster names (a page with no post containers)"


def _posts(doc) -> list:
    return _search(doc).blocks


def _search(doc) -> _Search:
    """The post blocks: a repeated block with a poster and a time, else the blocks grown
    around repeated poster names, else a page's one post, else repeated records with each
    field chosen across them (records.py); with the thread's opening post when
    the forum gives it a container of its own. Copies of the posts for browsers without
    scripts are left out, unless they are all the page has."""
    page = _Page(doc)
    copies = _script_copies(doc)
    found = _found(page, copies, "")
    if not found.blocks and copies:
        found = _found(page, set(), " (inside a noscript copy: the page has nothing else)")
    if not found.blocks:
        found = _repeated_records(doc, copies)
    if not found.blocks or (found.records is not None and not found.records.sure):
        # A fragment of one post: its parts may repeat (quotes), but not as posts with an
        # author and a time in each.
        single = _single_post(page)
        if single:
            found = _Search(single, None, "a page holding one post alone", True)
    return found._replace(page=page)


def _script_copies(doc) -> set:
    """The elements of the page's copies for browsers without scripts (noscript, template)."""
    return {el for box in doc.iter("noscript", "template") for el in box.iter()}


_RECORDS = "repeated records of sibling elements, each field chosen across all of them"


def _repeated_records(doc, leave_out: set) -> _Search:
    found = records.best_record_set(doc, UTC, leave_out)
    if found is None:
        return _Search([], None, _RECORDS, False)
    single = all(r.getparent() is not None for r in found.records)
    return _Search(list(found.records), None, _RECORDS, single, found)


def _found(page: _Page, leave_out: set, where: str) -> _Search:
    group = _best_group(page, leave_out)
    if group:
        opening = _opening_post(page, group)
        blocks = [opening, *group] if opening is not None else group
        return _Search(blocks, opening, _REPEATED + where, True)
    return _Search(_grown_from_names(page, leave_out), None, _GROWN + where, False)


_NOT_CONTENT = {"script", "style", "link", "meta", "noscript", "template", "title"}


def _single_post(page: _Page) -> list:
    """A page holding one post alone (a fragment copied from the browser's inspector): its
    one element, when that shows a poster (the time may sit outside what was copied)."""
    body = page.root.find("body")
    if body is None:
        return []
    tops = [el for el in body if isinstance(el.tag, str) and el.tag not in _NOT_CONTENT]
    if len(tops) != 1 or tops[0].tag not in _CONTAINER_TAGS:
        return []
    post = tops[0]
    return [post] if _author_link(post, page) is not None else []


def _opening_post(page: _Page, replies: list):
    """The block before the first reply that shares a class with the replies and shows a
    poster and a time (Vanilla: div.Item.ItemDiscussion before li.Item.ItemComment)."""
    first = replies[0]
    shared = set((first.get("class") or "").split())
    if not shared:
        return None
    ancestors = set(first.iterancestors())
    found = None
    for el in page.root.iter(*_CONTAINER_TAGS):
        if el is first:
            break
        if el in ancestors or not shared & set((el.get("class") or "").split()):
            continue
        if any(_contains(el, r) for r in replies[:1]):
            continue
        if _author_link(el, page) is not None and page.timed(el)[0] is not None:
            found = el
    if found is None or any(_contains(found, r) or _contains(r, found) for r in replies):
        return None
    return found


def _grown_from_names(page: _Page, leave_out: set = frozenset()) -> list:
    """Posts with no element of their own (phpBB 2 lays each out as table rows): from each
    of a repeated set of poster names, the nearest block that also shows a time and holds
    no other poster's name."""
    groups: dict[tuple, list] = {}
    for el in page.classed_names:  # _NAME_TAGS whose class names a poster, in page order
        if el in leave_out:
            continue
        if 0 < len(clean_text(el)) <= 40:
            for key in _keys(el):
                groups.setdefault(key, []).append(el)
    best: list = []
    for names in groups.values():
        if len(names) < 2 or len(names) <= len(best):
            continue
        # How many of the names each element holds: a block holding two is not one post's.
        holding: dict = {}
        for name in names:
            for anc in name.iterancestors():
                holding[anc] = holding.get(anc, 0) + 1
        blocks = []
        for name in names:
            block = name.getparent()
            # Climb to the nearest block with a time; one holding another name is too far
            # (checked first: it saves reading the time of every ancestor up to the page).
            while block is not None and holding[block] < 2:
                if page.timed(block)[0] is not None:  # ancestors are shared by names: once
                    break
                block = block.getparent()
            if block is None or holding[block] >= 2:
                break
            blocks.append(block)
        else:
            best = blocks
    return best


def _keys(el) -> tuple[tuple, ...]:
    """The groups an element may belong to: its tag with all its stable class names, its tag
    with each one of them (a highlighted or first post carries extra classes), and its
    role-like attributes."""
    names = el.keys()
    if not names:
        return ()  # no class, no role, no id: no group (most of a page's blocks)
    get = el.get
    roles = _NO_ROLES if _ROLES.isdisjoint(names) else _roles(get)
    return _keys_of(el.tag, get("class") or "", roles, get("id") or "")


_ROLES = frozenset(("component", "itemtype", "role", "data-type"))  # role-like attributes
_NO_ROLES = ("", "", "", "")


def _roles(get) -> tuple[str, str, str, str]:
    """An element's role-like attributes (`get` is its get)."""
    return (
        get("component") or "",
        get("itemtype") or "",
        get("role") or "",
        get("data-type") or "",
    )


@lru_cache(maxsize=8192)
def _keys_of(tag: str, class_attr: str, roles: tuple, ident: str) -> tuple[tuple, ...]:
    # A page repeats a few tags and attributes over thousands of elements: each read once.
    # Alternating rows differ only in a trailing digit (windowbg/windowbg2): one class.
    classes = sorted(stems_of_classes(class_attr))
    keys = []
    if classes or any(roles):
        keys.append((tag, tuple(classes), roles))
    if len(classes) > 1:
        keys.extend((tag, (c,), roles) for c in classes)
    # Without a class, numbered ids of one shape (c_501, c_502: Gnuboard's comments).
    if not classes and _ID_DIGITS.search(ident):
        keys.append((tag, ("id=" + _ID_DIGITS.sub("#", ident),), roles))
    return tuple(keys)


def _best_group(page: _Page, leave_out: set = frozenset()) -> list:
    groups: dict[tuple, list] = {}
    for el, keys in page.containers:  # _keys of each container, found on the page's walk
        if el in leave_out:
            continue
        for key in keys:
            groups.setdefault(key, []).append(el)
    seen: set[tuple] = set()
    candidates = []
    for index, members in enumerate(groups.values()):
        if len(members) < 2 or len(members) > 500:
            continue
        identity = tuple(id(m) for m in members)
        if identity not in seen:
            seen.add(identity)
            candidates.append((index, members))
    # Largest groups first: a group scores at most its size, so once the best score is above
    # a group's size, no smaller group can beat it. Ties go to the group met first on the page.
    candidates.sort(key=lambda c: -len(c[1]))
    best, best_key = [], (0.0, 0)
    for index, members in candidates:
        if len(members) < best_key[0]:
            break
        if len(members) == best_key[0] and -index < best_key[1]:
            continue  # at best a tie, which the group met first has won
        key = (_score(members, page, best_key[0]), -index)
        if key[0] > 0 and key > best_key:
            best, best_key = members, key
    return best


def _score(members: list, page: _Page, beat: float = 0.0) -> float:
    """How much a group looks like the thread's posts: its size, times the shares of its
    members that show a poster, a time and a body of their own, for the tightest container.
    The criteria are tested cheapest first, and a group that cannot reach `beat` (the best
    score so far: each share is at most 1) is given up before the costlier tests."""
    # Posts are not nested in each other.
    spread = _depth_spread(members, page.depth)
    ids = set(members)  # (at one depth, no member can be inside another)
    if spread and not ids.isdisjoint(chain.from_iterable(m.iterancestors() for m in members)):
        return 0.0
    bound = len(members) / (1 + spread)
    # Posters first: most groups fail there, and a poster is cheaper to look for than a time.
    with_user = _share(members, lambda m: _author_link(m, page) is not None, bound, beat)
    if with_user < 0.6:
        return 0.0
    bound *= with_user
    with_time = _share(members, lambda m: page.timed(m)[0] is not None, bound, beat)
    if with_time < 0.6:
        return 0.0
    bound *= with_time
    # A post has a block of its own words apart from its poster and time; a "recent activity"
    # line in a sidebar ("bob replied to Game 3, 09:12") has a name and a time but no such block.
    with_body = _share(members, page.has_body, bound, beat, need=0.0)
    if with_body <= 0.0:
        return 0.0
    lengths = [len(clean_text(m)) for m in members]
    # Prefer the tightest container: its text is mostly the post, not page furniture.
    return (
        len(members)
        * with_user
        * with_time
        * with_body
        * min(1.0, median(lengths) / 40)
        / (1 + spread)
    )


def _share(members: list, test, bound: float, beat: float, need: float = 0.6) -> float:
    """The share of members for which `test` gives something; 0 as soon as too many have
    failed for the share to reach `need`, or for the group's score (`bound` times the share)
    to reach `beat`."""
    n = len(members)
    # The most misses allowed: the share must stay >= need, and bound * share >= beat.
    allowed = n - max(need * n, beat * n / bound if bound > 0 else n + 1)
    misses = 0
    for m in members:
        if not test(m):
            misses += 1
            if misses > allowed:
                return 0.0
    return (n - misses) / n


def _has_body(el, author, time_node, page: _Page) -> bool:
    """Whether a block has a body (`_body` finds one): the first block of prose tells."""
    avoid = [*_poster_blocks(author, el, time_node, page), time_node]
    return any(
        _most_prose(text, named) > 0 and _prose(node, text, named) > 0
        for node, text, named in _body_candidates(el, avoid)
    )


def _depth(el) -> int:
    return sum(1 for _ in el.iterancestors())


def _depth_spread(members: list, depth=_depth) -> float:
    depths = [depth(m) for m in members]
    return (max(depths) - min(depths)) / 10


def _author_link(el, page: _Page):
    """The poster's name: a profile link (not the poster's picture, where another shows the
    name), else a short element named like a poster's; the first in the element."""
    for table in (page.named_link, page.any_link, page.name_node):
        found = table.get(el)
        if found is not None:
            return found
    return None


def _name_link(a) -> bool:
    """A link to a member's page showing a short text (a name, or an avatar's initials)."""
    return member_page(a.get("href") or "") and 0 < len(clean_text(a)) <= 40


def _name_classed(node) -> bool:
    """An element named like a poster's name (class or itemprop) whose first text is short."""
    if not isinstance(node.tag, str):
        return False
    named = (node.get("class") or "") + " " + (node.get("itemprop") or "")
    if not _names_a_poster(named):
        return False
    first = next((t.strip() for t in node.itertext() if t.strip()), "")
    return bool(first) and len(first) <= 40


class _Page:
    """The page being read, and what the reader asks of many of its elements, found once for
    the whole page: for each element, its first poster link (and first one showing a name),
    its first element named like a poster's, its first element giving a time in an attribute
    and its first date line. Each is found where it is, and marked on its ancestors up to the
    first one already marked (an earlier find in document order is the first for all of
    those): the page is walked once, not once for each candidate post block and each block
    around it. Each element's time and whether it has a body are kept once asked for (an
    element is scored in several groups, and its post read after)."""

    def __init__(self, doc) -> None:
        self.root = doc
        self._times: dict = {}  # (element, zone) -> _timed
        self._bodies: dict = {}  # element -> _has_body
        self._depths: dict = {}  # element -> how deep it is in the page
        self.any_link: dict = {}
        self.named_link: dict = {}
        self.name_node: dict = {}
        self._attr_time: dict | None = None
        self._digits: dict = {}  # element -> whether its shown text has a digit (once asked)
        self._date_lines: dict = {}  # element -> its first date line (None: it has none)
        self._poster_like: list = []  # name-classed elements and member links, in page order
        self._showing: dict[str, list] | None = None
        self.messages: set = set()  # the elements named as the message and those around them
        self.poster_blocks: dict = {}  # (poster, block, time element) -> _poster_blocks
        # The containers (_CONTAINER_TAGS) that belong to a group, with their groups' keys
        # (_keys), in page order
        self.containers: list[tuple] = []
        self.classed_names: list = []  # the _NAME_TAGS whose class names a poster
        # One walk over the page, in document order, for every table (lxml hands each element
        # to Python once; each table's question is asked of it there).
        for el in doc.iter(etree.Element):
            names = el.keys()
            if not names:
                continue  # no link, no class: nothing more to ask
            get, tag = el.get, el.tag
            classes, prop, ident = get("class"), get("itemprop"), get("id")
            if tag in _CONTAINER_TAGS:  # the groups it belongs to (_keys), its class read here
                roles = _NO_ROLES if _ROLES.isdisjoint(names) else _roles(get)
                keys = _keys_of(tag, classes or "", roles, ident or "")
                if keys:
                    self.containers.append((el, keys))
            member = tag == "a" and member_page(get("href") or "")
            if member and _name_link(el):
                _mark(el, el, self.any_link)
                if not _picture_only(el):
                    _mark(el, el, self.named_link)
            if classes is None and prop is None and ident is None:
                if member:
                    self._poster_like.append(el)
                continue
            poster_named, message_named, class_named = _names_of(classes, prop, ident)
            if class_named and tag in _NAME_TAGS:
                self.classed_names.append(el)
            if poster_named or member:
                self._poster_like.append(el)
            if poster_named and _name_classed(el):
                _mark(el, el, self.name_node)
            if message_named:
                _spread(el, self.messages)

    def timed(self, el, tz: tzinfo | None = None) -> tuple[datetime | None, object]:
        """`_timed` of an element, read once for each zone (UTC where none is given)."""
        key = (el, tz or UTC)
        found = self._times.get(key)
        if found is None:
            found = self._times[key] = _timed(el, tz, self)
        return found

    def has_body(self, el) -> bool:
        found = self._bodies.get(el)
        if found is None:
            author = _author_link(el, self)
            found = self._bodies[el] = _has_body(el, author, self.timed(el)[1], self)
        return found

    def depth(self, el) -> int:
        """How deep an element is in the page (an element's depth is its parent's, plus one)."""
        depths = self._depths
        chain = []  # el and the elements around it whose depth is not known yet
        while el is not None and el not in depths:
            chain.append(el)
            el = el.getparent()
        known = -1 if el is None else depths[el]
        for node in reversed(chain):
            known = depths[node] = known + 1
        return known

    def showing(self, name: str) -> list:
        """The name-classed elements and member links whose text is a name, in page order."""
        if self._showing is None:
            self._showing = {}
            for node in self._poster_like:
                self._showing.setdefault(clean_text(node), []).append(node)
        return self._showing.get(name, [])

    @property
    def attr_time(self) -> dict:
        """Element -> (node, the attribute's value) of the first time in an attribute in it,
        found when first asked for: a page whose blocks show no posters is never asked."""
        if self._attr_time is None:
            self._attr_time = {}
            # time_attr_values asks each tag's attribute names once: faster than an XPath
            # query naming them (which gave the same elements in the same order).
            for node in self.root.iter(*_TIME_TAGS):
                for value in time_attr_values(node):
                    if attribute_time(value, UTC):
                        _mark(node, (node, value), self._attr_time)
                        break
        return self._attr_time

    def date_line(self, el) -> tuple | None:
        """(node, the line read, the node showing it) of the first date line in an element
        (`_date_line`, in document order), each element read once for the whole page: a
        post's first date line is near its start, so little past it is read; elements with
        no digit in them are never read."""
        return self._first_date_line(el)

    def _has_digit(self, el) -> bool:
        """Whether an element's text has a digit (a script's or a style's aside), found when
        first asked: a post's first digit is near its start, and most of a page is never
        asked about."""
        found = self._digits.get(el)
        if found is None:
            text = el.text
            found = bool(text and el.tag not in _NO_TEXT and _ASCII_DIGIT.search(text)) or any(
                (isinstance(child.tag, str) and self._has_digit(child))
                or bool(child.tail and _ASCII_DIGIT.search(child.tail))
                for child in el
            )
            self._digits[el] = found
        return found

    def _first_date_line(self, el) -> tuple | None:
        if not self._has_digit(el):
            return None
        memo = self._date_lines
        if el in memo:
            return memo[el]
        found = _date_line(el, UTC)
        if found is None:
            for child in el:
                if isinstance(child.tag, str):
                    found = self._first_date_line(child)
                    if found is not None:
                        break
        memo[el] = found
        return found


def _spread(node, found: set) -> None:
    """Add an element and those around it, up to the first one already in `found`."""
    while node is not None and node not in found:
        found.add(node)
        node = node.getparent()


def _mark(node, value, table: dict) -> None:
    el = node
    while el is not None and el not in table:
        table[el] = value
        el = el.getparent()


# The elements that may keep a time in an attribute (time_attr_values), in document order.
_TIME_TAGS = ("time", "abbr", "span", "meta")
_ASCII_DIGIT = re.compile("[0-9]")
_NO_TEXT = ("script", "style")  # elements whose text is not shown


# A byline's lead word, before the name: "by <strong>Name</strong>", "작성자 Name", and "by" in
# the page languages the dates are read in: "par" (French), "von" (German), "por" (Spanish,
# Portuguese), "door" (Dutch).
_BYLINE = re.compile(
    r"^(?:(?:posted\s+)?by|author|poster|par|von|por|door|작성자|글쓴이)\b\s*:?\s*", re.I
)


_AVATAR = re.compile(r"avatar", re.I)


def _picture_only(link) -> bool:
    """A profile link showing the poster's picture, not their name: an avatar, which draws
    the name's initials where the member has no picture ("F" for fgallese)."""
    avatar = any(
        _AVATAR.search(node.get("class") or "") for node in link.iter() if isinstance(node.tag, str)
    )
    return avatar and len(clean_text(link)) <= 2


def _author_name(node) -> str:
    if node is None:
        return ""
    if node.tag == "a":
        # A link holding an avatar and the name: the name-classed part, without the
        # avatar's letter ("有" of a letter avatar before "有点蠢").
        for child in node.iter():
            if child is not node and isinstance(child.tag, str):
                if _NAME_CLASS.search(child.get("class") or "") and clean_text(child):
                    return clean_text(child)
        if any(_AVATAR.search(c.get("class") or "") for c in node if isinstance(c.tag, str)):
            words = [node.text or ""]
            for child in node:
                avatar = isinstance(child.tag, str) and _AVATAR.search(child.get("class") or "")
                if not avatar:
                    words.append("".join(child.itertext()))
                words.append(child.tail or "")
            return " ".join("".join(words).split()) or clean_text(node)
        return clean_text(node)
    return shown_name(node, _BYLINE)


def _timed(el, tz: tzinfo | None, page: _Page) -> tuple[datetime | None, object]:
    """The post's time and the element showing it (which is then not part of the body)."""
    tz = tz or UTC
    shown, node = _shown_time(el, tz, page)
    if shown is None:
        shown, node = _header_row_time(el, tz, page)
    elif node is not None and node.tag == "meta":
        visible = _shown_as(el, shown, tz)  # the body is kept clear of the visible date
        if visible is not None:
            node = visible
    # The post block's own timestamp (or its wrapper's) beats a displayed one: it has a zone.
    for holder in (el, el.getparent()):
        for value in machine_time_attrs(holder) if holder is not None else ():
            if found := attribute_time(value, tz):
                return found, node
    return shown, node


def _shown_as(el, instant: datetime, tz: tzinfo):
    """The visible <time> element showing an instant that a <meta> also gives, if any."""
    for node in el.iter("time"):
        value = node.get("datetime")
        if value and attribute_time(value, tz) == instant:
            return node
    return None


def _header_row_time(el, tz: tzinfo, page: _Page) -> tuple[datetime | None, object]:
    """The time from the row just before a post that shows none itself (bbPress puts each
    reply's date and permalink in a header row of its own), if that row is short and names
    no poster."""
    row = el.getprevious()
    while row is not None and not isinstance(row.tag, str):
        row = row.getprevious()
    if row is None or len(clean_text(row)) > 120 or _author_link(row, page) is not None:
        return None, None
    return _shown_time(row, tz, page)


_EDIT_NOTE = re.compile(r"\bedit", re.I)  # "edited", "post-edit"; not "credit"


def _shown_time(el, tz: tzinfo, page: _Page) -> tuple[datetime | None, object]:
    """The first time an element gives: in an attribute anywhere in it, else its first date
    line (`_date_line`)."""
    held = page.attr_time.get(el)
    if held is not None:
        return attribute_time(held[1], tz), held[0]
    line = page.date_line(el)
    if line is None:
        return None, None
    return time_from_text(line[1], tz), line[2]


def _date_line(node, tz: tzinfo) -> tuple | None:
    """(node, the line read, the element showing it) where a node is a date line: its own
    text (a date with notes nested after it) or its whole text a short line with a date, not
    a label's date ("Joined: ...") nor an edit note's."""
    if not isinstance(node.tag, str) or node.tag in ("script", "style") or len(node) > 4:
        return None
    if _EDIT_NOTE.search((node.get("class") or "") + " " + (node.get("id") or "")):
        return None  # "last modified: <time>" is not when the post was made
    own = " ".join((node.text or "").split())
    if 6 <= len(own) <= 80 and any(c.isdigit() for c in own) and not _LABELLED.match(own):
        if time_from_text(own, tz) is not None:
            return node, own, node
    # A short line (a date, "by X » date"), not a whole short post that mentions a date.
    limit = 80 if len(node) == 0 else 60
    if len(own) > limit:
        return None  # the whole text is longer still: not read
    text = clean_text(node)
    if 6 <= len(text) <= limit and any(c.isdigit() for c in text) and not _LABELLED.match(text):
        found = time_from_text(text, tz)
        if found is not None:
            return node, text, _narrowest(node, found, tz)
    return None


def _narrowest(node, found: datetime, tz: tzinfo):
    """The innermost element still showing the time: a short post's whole header (or the
    post itself) can read as a date line, and the body is never inside the date."""
    while True:
        for child in node:
            if isinstance(child.tag, str) and time_from_text(clean_text(child), tz) == found:
                node = child
                break
        else:
            return node


# A class token naming a quote or signature block: quote, bbCodeQuote, quoteContainer,
# bbcode_quote, signature (not "SelectQuoteContainer", which wraps a whole message).
_QUOTE_TOKEN = re.compile(r"^(quote\w*|\w*[-_]quote|\w*Quote|signature\w*|sig)$", re.I)


@lru_cache(maxsize=4096)
def _quoteish(classes: str) -> bool:
    """Whether a class attribute names a quote or a signature block (each attribute read once:
    a page repeats a few over thousands of elements)."""
    return any(_QUOTE_TOKEN.match(token) for token in classes.split())


# Blocks around a post that are not its text: reactions, buttons, user cards, signatures.
_FURNITURE = re.compile(
    r"like|reaction|rating|share|button|control|toolbar|footer|signature|userinfo|profile|"
    r"avatar|menu|\bnav|attribution|header|meta",
    re.I,
)
# A name that says "the message": a word of its own ("post_body", "cmt_contents", "postmsg",
# "messageText") or a camel-case part ("userContent", "ipsType_richText"), not "smalltext",
# and not a word that a modifier follows: CSS frameworks' "text-muted", "text-center" style a
# line, and "post-content-wrapper" holds more than the message.
_CONTENTISH_WORD = re.compile(
    r"(?:^|[\s_:-]|post)(?:content|message|msg|body|text|entry|article)(?!-[a-z])", re.I
)
_CONTENTISH_PART = re.compile(r"[a-z](?:Content|Message|Msg|Body|Text|Entry|Article)")


def _named_message(node) -> bool:
    return _names_a_message(" ".join(node.get(a) or "" for a in ("class", "id", "itemprop")))


# Each class (or id) attribute of a page is asked about once: a page repeats a few of them
# over thousands of elements.
@lru_cache(maxsize=8192)
def _names_a_message(named: str) -> bool:
    return bool(_CONTENTISH_WORD.search(named) or _CONTENTISH_PART.search(named))


@lru_cache(maxsize=8192)
def _names_of(classes: str | None, prop: str | None, ident: str | None) -> tuple[bool, ...]:
    """Whether an element's class and itemprop name a poster, whether its class, id and
    itemprop name the message (_named_message), and whether its class alone names a poster;
    asked once for each set of the three."""
    poster = (classes or prop) is not None and _names_a_poster(f"{classes or ''} {prop or ''}")
    message = _names_a_message(f"{classes or ''} {ident or ''} {prop or ''}")
    return poster, message, _names_a_poster(classes or "")


@lru_cache(maxsize=8192)
def _names_furniture(classes: str) -> bool:
    return bool(_FURNITURE.search(classes))


@lru_cache(maxsize=8192)
def _names_a_poster(named: str) -> bool:
    return bool(_NAME_CLASS.search(named))


def _body(el, avoid: list):
    """The largest block of prose that holds neither the poster nor the time, and is not in
    the post's furniture (a footer can embed another post: Flarum's best answer)."""
    best, best_score = None, 0.0
    for node, text, named in _body_candidates(el, avoid):
        if _most_prose(text, named) <= best_score:
            continue  # links and quotes only take away: it cannot win
        score = _prose(node, text, named)
        if score > best_score:
            best, best_score = node, score
    return best


def _body_candidates(el, avoid: list):
    """The blocks of a post that may be its body, in page order, each with the length of its
    text and whether it is named as the message: not around the poster's or the time's
    element nor inside them, not quoted, not in furniture."""
    around, inside = set(), set()  # the blocks holding an avoided element; those inside one
    for a in avoid:
        if a is not None:
            around.add(a)
            around.update(a.iterancestors())
            inside.update(a.iterdescendants())
    furniture: dict = {}  # element -> whether it is furniture or inside furniture
    quotes: dict = {}  # element -> whether it is a quote block or inside one
    for node in el.iter(*_BODY_TAGS):
        if node is el or node in around or node in inside:
            continue  # around the poster's or the time's element, or inside them
        if _quoted(node, el, quotes) or _in_furniture(node, el, furniture):
            continue
        yield node, len(clean_text(node)), _named_message(node)


def _prose(node, text: int, named: bool) -> float:
    """How much of a block is its own prose: its text less its links' (where it has three or
    more: a menu) and its quotes'; doubled and more for a block named as the message."""
    anchors = list(node.iter("a"))
    # Menus and widgets are mostly links; a post with a link or two is still prose.
    links = sum(len(clean_text(a)) for a in anchors) if len(anchors) >= 3 else 0
    score = text - links - _quoted_length(node)
    if named:
        # A block named as the message wins over longer furniture ("Reply With Quote").
        score = score * 2 + 100
    return score


def _most_prose(text: int, named: bool) -> float:
    """The most `_prose` can give a block of that much text (no links, no quotes)."""
    return text * 2 + 100 if named else text


def _in_furniture(node, container, known: dict) -> bool:
    """Whether a node or a block around it (up to the post) is furniture; remembered per
    element, as the candidates of one post share their ancestors."""
    if node is container:
        return False
    found = known.get(node)
    if found is None:
        found = _names_furniture(node.get("class") or "") or _in_furniture(
            node.getparent(), container, known
        )
        known[node] = found
    return found


def _quoted(node, container, known: dict) -> bool:
    """Whether a node is, or sits inside, a quote block of the post (a blockquote the forum
    styles counts as one only around the node, `_plain_quote`)."""
    if node is container:
        return False
    if _quoteish(node.get("class") or "") or node.tag == "blockquote" and _plain_quote(node):
        return True
    return _in_quote(node.getparent(), container, known)


def _in_quote(node, container, known: dict) -> bool:
    """Whether an element up to the post is a quote block or sits inside one; remembered per
    element, as the candidates of one post share their ancestors."""
    if node is None or node is container:
        return False
    found = known.get(node)
    if found is None:
        found = known[node] = (
            node.tag == "blockquote"
            or _quoteish(node.get("class") or "")
            or _in_quote(node.getparent(), container, known)
        )
    return found


def _plain_quote(blockquote) -> bool:
    """A blockquote used as a quote: one the forum left unstyled (HTML's quote), or one
    heading its words with who wrote them (a <cite>). A forum that styles blockquotes of its
    own may lay its posts out in them (vBulletin 4's blockquote.postcontent)."""
    classes = (blockquote.get("class") or "").split()
    return not classes or next(blockquote.iter("cite"), None) is not None


def _quoted_length(node) -> int:
    """Text inside the outermost quote blocks of a node (not the poster's own words).

    Any nested blockquote counts: the body reader drops blockquotes as quotes.
    """
    total = 0
    for q in node.iter("blockquote", "div", "aside"):
        if q is node or not (q.tag == "blockquote" or _quoteish(q.get("class") or "")):
            continue
        inner = False
        for anc in q.iterancestors():
            if anc is node:
                break
            if anc.tag == "blockquote" or _quoteish(anc.get("class") or ""):
                inner = True
                break
        if not inner:
            total += len(clean_text(q))
    return total


def _narrow(body):
    """Step into a lone child that holds all of the text (vB4's blockquote.postcontent)."""
    while True:
        total = len(clean_text(body))
        blocks = [
            c
            for c in body
            if isinstance(c.tag, str)
            and c.tag in _BODY_TAGS
            and clean_text(c)
            and not _quoteish(c.get("class") or "")
        ]
        if len(blocks) != 1 or total == 0 or len(clean_text(blocks[0])) < total:
            return body
        body = blocks[0]


def _anchor_name(el) -> str:
    """A numbered anchor inside the post (<a name="5001">), where the block has no id."""
    return next((a.get("name") for a in el.iter("a") if _ID_DIGITS.search(a.get("name") or "")), "")


def _poster_block(author, el, time_node, page: _Page):
    """The poster's cell around the name (rank, post count, join date), as far as it goes
    without reaching the time or growing past a short card: none of it is the post's text."""
    if author is None:
        return None
    block = author
    for anc in author.iterancestors():
        if anc is el or (time_node is not None and _contains(anc, time_node)):
            break
        if len(clean_text(anc)) > 200 or anc in page.messages:  # it holds the message
            break
        block = anc
    return block


def _poster_blocks(author, el, time_node, page: _Page) -> list:
    """The poster's cell, and any copy of it: a layout for narrow screens repeats the whole
    card (name, rank, post count) in a second cell that the other layout hides. A copy is a
    name-classed element or profile link with the same name. Found once for each post block,
    poster and time on the page (a block's body is looked for when it is scored, and again
    when its post is read)."""
    key = (author, el, time_node)
    found = page.poster_blocks.get(key)
    if found is None:
        found = page.poster_blocks[key] = _find_poster_blocks(author, el, time_node, page)
    return found


def _find_poster_blocks(author, el, time_node, page: _Page) -> list:
    first = _poster_block(author, el, time_node, page)
    if author is None:
        return [first]
    name = _author_name(author)
    blocks = [first]
    shown = [n for n in page.showing(name) if _contains(el, n)]  # those in the post
    for node in shown:
        if node is author or _contains(first, node):
            continue
        copy = _poster_block(node, el, time_node, page)
        if not any(_contains(b, copy) for b in blocks):
            blocks.append(copy)
    return blocks


# An edit note as forums write it: "Edited July 5, 2023 by X", "Last edited by X; ...".
_EDIT_WORDS = ("edited", "modified", "updated")
_EDIT_LINE = re.compile(rf"^(?:last\s+)?(?:{'|'.join(_EDIT_WORDS)})\b", re.I)
# The first letters of such a line, either case: a line starting otherwise is not read
_EDIT_LINE_STARTS = frozenset(c for w in ("last", *_EDIT_WORDS) for c in (w[0], w[0].upper()))


def _edit_line(node) -> bool:
    """A short line of its own that says the post was edited ("Edited July 5, 2023 by X")."""
    if _first_letter(node) not in _EDIT_LINE_STARTS:
        return False  # no need to read its text: it does not start as an edit note does
    text = clean_text(node)
    return bool(len(text) <= 150 and _EDIT_LINE.match(text) and not len(node.findall(".//p")))


def _first_letter(node) -> str:
    """The first character of an element's text, spaces aside (clean_text(node)[:1])."""
    own = (node.text or "").lstrip()
    if own:
        return own[0]  # itertext's first piece (most elements start with words of their own)
    for piece in node.itertext():
        piece = piece.lstrip()
        if piece:
            return piece[0]
    return ""


def _without_furniture(body):
    """The body without what sits inside it but is not the poster's words: controls and
    reaction counts, spoiler buttons (their content stays), and edit notes. A copy where
    anything goes: the page itself is left as it was (a body with nothing to cut is itself)."""
    # Each part is judged on the page (its text read once for the page), and its copy dropped.
    found = [
        i
        for i, node in enumerate(body.iterdescendants())
        if isinstance(node.tag, str)
        and (
            (_names_furniture(node.get("class") or "") and not _named_message(node))
            or icon_glyph(node)
            or _edit_line(node)
        )
    ]
    signed = _has_signature_line(body)  # a copy has the same lines: else nothing to cut
    if not found and not signed:
        return body
    body = copy.deepcopy(body)
    copies = list(body.iterdescendants())
    drop = [copies[i] for i in found]
    if signed:
        _cut_signature(body)
    dropped = set(drop)
    for node in drop:
        if not any(anc in dropped for anc in node.iterancestors()):
            remove_keeping_tail(node)
    return body


# The signature delimiter forums print before a signature: a line of underscores (phpBB 2's
# "_________________"), or e-mail's "-- ".
_SIG_LINE = re.compile(r"(?:^|\n)[ \t]*(?:_{10,}|-- )[ \t]*(?:\n|$)")


def _has_signature_line(body) -> bool:
    """Whether a body holds a signature delimiter line where `_cut_signature` looks for one."""
    for node in body.iter():
        if isinstance(node.tag, str) and node.text and _signature_line(node.text):
            return True
        if node is not body and node.tail and _signature_line(node.tail):
            return True
    return False


def _signature_line(text: str) -> bool:
    # The delimiter's characters are looked for first: a search for them alone is faster
    # than the pattern's, and few texts hold either.
    return ("__________" in text or "-- " in text) and bool(_SIG_LINE.search(text))


def _cut_signature(body) -> None:
    """Drop a signature that follows a delimiter line, with everything after it."""
    for node in body.iter():
        for where in ("text", "tail"):
            if where == "tail" and node is body:
                continue
            value = getattr(node, where)
            if not value or not isinstance(node.tag, str) and where == "text":
                continue
            m = _SIG_LINE.search(value)
            if m is None:
                continue
            setattr(node, where, value[: m.start()])
            # everything after this point in document order goes
            start = node if where == "tail" else None
            if start is None:  # inside node: drop all its children
                for child in list(node):
                    node.remove(child)
                start = node
            current = start
            while current is not None and current is not body:
                parent = current.getparent()
                for sibling in list(current.itersiblings()):
                    parent.remove(sibling)
                if current is not start:
                    current.tail = None
                current = parent
            return


def _time_copies(el, instant: datetime | None, time_node, tz: tzinfo) -> list:
    """The element showing the post's time, and any other element in the post giving the same
    instant in an attribute (a layout for narrow screens repeats the header)."""
    copies = [time_node]
    if instant is None:
        return copies
    for node in el.iter("time", "abbr", "span"):
        if node is time_node:
            continue
        if any(attribute_time(v, tz) == instant for v in time_attr_values(node)):
            copies.append(node)
    return copies


def _contains(outer, inner) -> bool:
    # `in` compares elements by identity, in C: many times faster than a generator
    return outer is inner or outer in inner.iterancestors()


_CLASS_ID = re.compile(r"^(?:post|reply|comment|message|msg)[-_](\d+)$", re.I)


def _class_id(el) -> str:
    """A post id in a class token ("post-301342": WordPress and bbPress mark each post so)."""
    for token in (el.get("class") or "").split():
        if _CLASS_ID.match(token):
            return token
    return ""


def _header_row_id(el, page: _Page) -> str:
    """The id of a header row just before the post (bbPress: div.bbp-reply-header#post-N)."""
    row = el.getprevious()
    while row is not None and not isinstance(row.tag, str):
        row = row.getprevious()
    if row is None or _author_link(row, page) is not None or len(clean_text(row)) > 120:
        return ""
    return row.get("id") or ""


def _data_number(el) -> int | None:
    value = el.get("data-number") or el.get("data-post-number")
    return int(value) if value and value.isdigit() else None


# Chinese forums (Discuz! and others) name the first floors instead of numbering them, then
# count on as "5#": the thread starter, the sofa, the bench, the floor.
_FLOOR_NAMES = {"楼主": 1, "沙发": 2, "板凳": 3, "地板": 4}
_FLOOR_NUMBER = re.compile(r"^(\d{1,6})\s*(?:#|楼)$")


def _number(el, body=None) -> int | None:
    """The number a post shows ("#12"; a floor, "5#", in a link), outside the poster's words."""
    tags = ("a", "span", "strong", "small", "em")
    words = set(body.iter(*tags)) if body is not None else ()  # the poster's, found in C
    for node in el.iter(*tags):
        if node in words or node.tag != "a" and _first_letter(node) != "#":
            continue  # the poster's, or no link and no "#12": its text is not read
        text = clean_text(node)
        if text.startswith("#") and len(text) <= 8:
            found = shown_number(text)
            if found is not None:
                return found
        if node.tag == "a" and len(text) <= 8:
            if text in _FLOOR_NAMES:
                return _FLOOR_NAMES[text]
            m = _FLOOR_NUMBER.match(text)
            if m:
                return int(m[1])
    return None


def _authors_in_place(blocks: list, page: _Page) -> list:
    """Each post block's poster, found where most blocks show theirs: a poster sits at the
    same place in every post, and a member's link elsewhere in one post (a name mentioned in
    its words) is not its poster, where that place shows one."""
    found = [_author_link(el, page) for el in blocks]
    places = [
        selector_in(a, el) if a is not None else "" for a, el in zip(found, blocks, strict=True)
    ]
    usual = _common(places)
    if usual is None:
        return found
    for i, (el, place) in enumerate(zip(blocks, places, strict=True)):
        if place != usual:
            there = next((n for n in select(el, usual) if 0 < len(clean_text(n)) <= 40), None)
            if there is not None:
                found[i] = there
    return found


def _body_apart(el, author, time, time_node, tz: tzinfo, page: _Page):
    """A post block's body (`_body`): never the poster's blocks or a copy of its time."""
    avoid = [*_poster_blocks(author, el, time_node, page), *_time_copies(el, time, time_node, tz)]
    return _body(el, avoid)


def _read(
    el, url: str | None, tz: tzinfo, index: int, page: _Page, author=None
) -> tuple[Post, object] | None:
    """A post block's post, and the element that shows its time (None where none does), on
    the page read; `author`, where given, is its poster's element (`_authors_in_place`)."""
    author = _author_link(el, page) if author is None else author
    time, time_node = page.timed(el, tz)
    if author is None and time is None:
        return None  # a block that looks like the posts but is page furniture
    found = _body_apart(el, author, time, time_node, tz, page)
    if found is None:
        return None
    body = _without_furniture(_narrow(found))
    number = _data_number(el)
    if number is None:
        number = _number(el, found)
    ident = (
        el.get("id")
        or el.get("data-pid")
        or el.get("data-post-id")
        or el.get("data-id")  # Flarum's PostStream-item
        or _anchor_name(el)
        or _class_id(el)
        or _header_row_id(el, page)
    )
    # An id of digits alone is the post's (django-machina: <div id="7">), and so is the number
    # of an id that names a post ("post-7": Misago); inside another id, a run of two digits or
    # more ("p7" is rarer than "row-2" is common).
    m = re.fullmatch(r"\d+", ident) or _POST_ID.fullmatch(ident) or _ID_DIGITS.search(ident)
    post = Post.from_element(
        body,
        post_id=m[m.lastindex or 0] if m else str(number if number is not None else index),
        number=number,  # None where the page shows none: the thread's order numbers it
        author=_author_name(author),
        time=time,
        url=url,
    )
    return post, time_node


# --- explaining a reading (`modtool posts --explain`) ------------------------------------------


# A class name a CSS selector can say as it is ("md:flex", "w-1/2" would need escapes).
_CSS_NAME = re.compile(r"^-?[A-Za-z_][\w-]*$")


def selector_of(el) -> str:
    """A CSS selector for an element by its tag and stable class names (no state classes,
    no numbered classes), the way a host would write it in game.toml."""
    stems = [c for c in (el.get("class") or "").split() if stable_class(c) and _CSS_NAME.match(c)]
    return el.tag + "".join(f".{c}" for c in dict.fromkeys(stems))


def selector_in(el, post) -> str:
    """A selector for an element inside a post: its own classes, or, without any, the nearest
    classed ancestor within the post before it ("div.author-name a")."""
    own = selector_of(el)
    if own != el.tag:
        return own
    for anc in el.iterancestors():
        if anc is post:
            break
        named = selector_of(anc)
        if named != anc.tag:
            return f"{named} {el.tag}"
    return own


def _common(selectors: list[str]) -> str | None:
    """The selector most posts agree on, if most do."""
    found = [s for s in selectors if s]
    if not found:
        return None
    best = max(set(found), key=found.count)
    return best if found.count(best) >= 0.6 * len(selectors) else None


def _explain_records(doubts: Doubts) -> dict:
    """`posts --explain` for a page read as records: the parts each field was found at."""
    return {
        "rule": _RECORDS,
        "blocks": doubts.records,
        "posts": doubts.records,
        "selectors": {"post": None, "author": None, "time": None, "body": None},
        "fields": dict(doubts.fields),
        "notes": [f"{what}: {where}" for what, where in doubts.fields],
        "unsure": [
            *doubts.unsure,
            "the records' parts are paths inside runs of sibling elements, which CSS selectors "
            "may not name; the generic reader reads this page as it is",
        ],
    }


def explain(doc, tz: tzinfo) -> dict:
    """How the generic reader read a page: the rule that found the posts, the selectors it
    ended up with (a starting point for `selectors` in game.toml), and the posts it was
    unsure of."""
    search = _search(doc)
    reading = _parse_found(doc, search, None, tz)
    if search.records is not None or reading.doubts is not None and reading.doubts.fields:
        return _explain_records(reading.doubts)
    rule, opening, containers, blocks = (
        search.rule,
        search.opening,
        search.containers,
        search.blocks,
    )
    group = [el for el in blocks if el is not opening]
    unsure: list[str] = []
    if not containers:
        unsure.append(
            "the posts have no element of their own, so CSS selectors cannot describe them; "
            "the generic reader reads this page as it is"
        )
    authors, times, bodies, read = [], [], [], []
    for i, el in enumerate(blocks):
        author = _author_link(el, search.page)
        found, time_node = search.page.timed(el, tz)
        body = _body_apart(el, author, found, time_node, tz, search.page)
        missing = [
            what
            for what, node in (("poster", author), ("time", found), ("text", body))
            if node is None
        ]
        if missing:
            unsure.append(f"block {i + 1} ({selector_of(el)}): no {' and no '.join(missing)}")
            continue
        read.append(el)
        authors.append(selector_in(author, el))
        times.append(selector_in(time_node, el) if time_node is not None else "")
        bodies.append(selector_in(_narrow(body), el))
    # The post selector: the class names every reply block shares (Alt, Promoted vary).
    replies = [el for el in read if el is not opening] or list(group)
    shared = set.intersection(*(set((el.get("class") or "").split()) for el in replies))
    stable = [c for c in shared if stable_class(c)]
    post = replies[0].tag + "".join(f".{c}" for c in sorted(stable)) if replies else None
    if not containers:
        post = None
    selectors = {
        "post": post,
        "author": _common(authors),
        "time": _common(times),
        "body": _common(bodies),
    }
    for key, value in selectors.items():
        if value is None:
            unsure.append(f"the posts do not agree on one {key} element")
    if opening is not None:
        unsure.append(
            f"the opening post is a {selector_of(opening)} of its own; a host's selectors "
            f'need it too (post = "{selector_of(opening)}, {post}")'
        )
    if reading.doubts is not None:
        unsure.extend(reading.doubts.unsure)  # the page as a whole (page_doubts)
    return {
        "rule": rule,
        "blocks": len(blocks),
        "posts": len(read),
        "selectors": selectors,
        "unsure": unsure,
    }
