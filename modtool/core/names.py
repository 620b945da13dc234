"""Name resolution: which slot a vote's target text means.

Stages run from surest to loosest; the first stage that finds exactly one slot wins, a stage
that finds several is reported as ambiguous. Exact stages look at every slot (a vote for a dead
player is still a vote *for that player*, and is then rejected by the rules); the loose stages
look only at living slots, the way a host reads "vote: kush" on the day it is written.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache

from ..threads.frozen import frozen
from ..threads.patterns import lazy


class Method(StrEnum):
    EXACT = "exact"
    ALIAS = "alias"
    NORMALISED = "normalised"
    FORMER_NAME = "former-name"
    WORD = "word"
    PREFIX = "prefix"
    SUBSTRING = "substring"
    ACRONYM = "acronym"
    SUBSEQUENCE = "subsequence"
    WORD_TYPO = "word-typo"
    WORD_BY_WORD = "word-by-word"
    SCRAMBLED = "scrambled"
    INITIAL = "initial"
    NICKNAME = "nickname"
    SPOKEN_INITIALS = "spoken-initials"
    PET_NAME = "pet-name"
    FUZZY = "fuzzy"
    DEFINED = "defined"
    SHORT_FORM_SLIP = "short-form-slip"


# How sure each stage is; fuzzy reports its own score.
CONFIDENCE = {
    Method.EXACT: 1.0,
    Method.ALIAS: 1.0,
    Method.NORMALISED: 0.99,
    Method.FORMER_NAME: 0.97,
    Method.WORD: 0.93,
    Method.PREFIX: 0.9,
    Method.SUBSTRING: 0.85,
    Method.ACRONYM: 0.85,
    Method.SUBSEQUENCE: 0.75,
    Method.WORD_TYPO: 0.8,
    Method.WORD_BY_WORD: 0.8,
    Method.SCRAMBLED: 0.8,
    Method.INITIAL: 0.6,
    Method.NICKNAME: 0.8,
    Method.SPOKEN_INITIALS: 0.75,
    Method.PET_NAME: 0.7,
    Method.DEFINED: 0.85,
    Method.SHORT_FORM_SLIP: 0.7,
}

NO_LYNCH_WORDS = (
    "no lynch",
    "nolynch",
    "no-lynch",
    "no elimination",
    "no elim",
    "no execution",
    "no exec",
    "no exe",
    "no exile",
    "noexe",
    "no kill",
    "nobody",
    "no one",
    "no-one",
    "noone",
    "sleep",
    "노린치",
    "무처형",
    "처형 안 함",
    "처형안함",
    "처형 없음",
    "처형없음",
    "기권",
)
NO_LYNCH_INITIALS = ("nl",)
UNVOTE_WORDS = ("unvote", "none", "nothing", "no vote", "novote", "retract", "withdraw")
# "Unvote all": every vote of the poster's (a game of several votes each), not a player whose
# name starts "all".
EVERY_VOTE_WORDS = frozenset(
    ("all", "everyone", "everybody", "everything", "all votes", "all my votes", "all of them")
)


_NON_ALNUM = lazy(r"[\W_]+", re.UNICODE)
_CAMEL = lazy(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+|[^\W\d_]+", re.UNICODE)
_STOPWORDS = frozenset(
    "a an the him her me you it that this he she they them my your his their i and or on for "
    "to of in is was".split()
)
CONFIDENT = 0.9  # resolutions below this are counted but listed as warnings
FUZZY_ACCEPT = 0.85
FUZZY_MARGIN = 0.05
_MAX_TARGET_WORDS = 8
# A quotation closed inside a target, words after it: the rest of a sentence, not a name.
_SPEECH = lazy(r'\w[.,!?]*["”]\s+\S')


@lru_cache(maxsize=16384)  # asked of each post's author and each vote's words, again and again
def normalise(name: str) -> str:
    """Case-folded, accents dropped ("Söze" is "soze"), everything but letters and digits
    removed. Hangul is recomposed after the accents go, so Korean names compare as written."""
    if name.isascii():  # no accents to drop: the Unicode round trip would give the same
        return _NON_ALNUM.sub("", name.lower())
    return _normalised_in_unicode(name)


def _normalised_in_unicode(name: str) -> str:
    """`normalise` of any text: decomposed, its combining marks dropped, composed again."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    bare = "".join(ch for ch in decomposed if unicodedata.category(ch) != "Mn")
    return _NON_ALNUM.sub("", unicodedata.normalize("NFC", bare))


_LEET = str.maketrans("013457989", "oieastgbg")
_LEET_RUN = lazy(r"(?<=[^\W\d_])\d+(?=[^\W\d_])")
_SOUNDS = (("qw", "qu"), ("ph", "f"), ("ck", "k"), ("z", "s"))
_DOUBLED = lazy(r"(.)\1+")
_STUTTER = lazy(r"(..+?)\1{2,}")  # a syllable said three times or more: "vivivijayayay"
_REPEAT = lazy(r"^(?P<word>.+?)\s*(?:\^|\*|x|×)\s*(?P<times>[2-5])$", re.I)


@lru_cache(maxsize=4096)  # asked of every living name for each loose stage and target
def loose_forms(norm: str) -> tuple[str, ...]:
    """A normalised name and its look-alikes: leet digits read as letters ("Fro99er" is
    "frogger"), and sound-alike spellings ("qwints" ~ "quints"), doubled letters and
    stuttered syllables collapsed ("Toffeeee", "vivivijayayay")."""
    forms = [norm]
    unleet = _LEET_RUN.sub(lambda m: m[0].translate(_LEET), norm)
    if unleet != norm:
        forms.append(unleet)
    sound = unleet
    for a, b in _SOUNDS:
        sound = sound.replace(a, b)
    sound = _DOUBLED.sub(r"\1", _STUTTER.sub(r"\1", sound))
    if sound not in forms:
        forms.append(sound)
    return tuple(forms)


def expand_repeat(text: str) -> str | None:
    """ "Yes^3", "Yes*3", "Yesx3" are how players write "YES YES YES"."""
    m = _REPEAT.match(text.strip())
    return " ".join([m["word"]] * int(m["times"])) if m else None


def _words(name: str) -> list[str]:
    return [w.casefold() for w in _CAMEL.findall(unicodedata.normalize("NFKC", name))]


def _two_letters(norm: str) -> bool:
    """Two letters or fewer: initials, a guess. Two Hangul syllables are a whole given name
    (철수), as a Korean player calls another."""
    return len(norm) <= 2 and not all("가" <= c <= "힣" for c in norm)


def _given_names(name: str) -> list[str]:
    """The given names of the Korean names in a name: a word of three Hangul syllables is a
    one-syllable family name and a given name of two (김철수 is called 철수)."""
    return [w[1:] for w in _words(name) if len(w) == 3 and all("가" <= c <= "힣" for c in w)]


def _acronyms(name: str) -> set[str]:
    words = _words(name)
    found = set()
    if len(words) >= 2:
        found.add("".join(w[0] for w in words))
        found.add("".join(w[0] if not w.isdigit() else w for w in words))
    return {a for a in found if len(a) >= 2}


def _capitals(text: str) -> bool:
    """Two or more letters, all capitals: initials rather than a word."""
    letters = [ch for ch in text if ch.isalpha()]
    return len(letters) >= 2 and all(ch.isupper() for ch in letters)


def _is_subsequence(short: str, long: str) -> bool:
    it = iter(long)
    return all(ch in it for ch in short)


class TargetKind(StrEnum):
    PLAYER = "player"
    NO_LYNCH = "no_lynch"
    UNVOTE = "unvote"
    AMBIGUOUS = "ambiguous"
    UNRESOLVED = "unresolved"


@frozen
class Resolution:
    """What a target text resolved to, how, and how sure."""

    kind: TargetKind
    slot: str | None = None
    method: Method | None = None
    confidence: float = 0.0
    candidates: tuple[str, ...] = ()
    matched_text: str = ""
    evidence: str = ""  # for a learned nickname: where the thread uses it


def names_every_vote(target: str, resolution: Resolution) -> bool:
    """Whether an unvote's target means all the poster's votes: one of EVERY_VOTE_WORDS that
    is not a name the game knows as it is written (a player called All)."""
    if " ".join(target.lower().split()) not in EVERY_VOTE_WORDS:
        return False
    return resolution.kind is not TargetKind.PLAYER or resolution.method not in _SURE_STAGES


@frozen
class NameEntry:
    """A name a slot answers to: its player's, a former player's or a nickname."""

    slot: str
    name: str
    former: bool = False  # a name the slot had before a replacement
    alias: bool = False  # a nickname the host listed

    @property
    def role(self) -> Method:
        """The sure stage this name belongs to: a current name, an alias or a former name."""
        return Method.ALIAS if self.alias else Method.FORMER_NAME if self.former else Method.EXACT


# The sure stages, in order; each looks at every slot, dead or alive.
_SURE_STAGES = (Method.EXACT, Method.ALIAS, Method.NORMALISED, Method.FORMER_NAME)
_LOOSE_STAGES = (Method.WORD, Method.PREFIX, Method.SUBSTRING, Method.ACRONYM, Method.SUBSEQUENCE)


@dataclass
class Resolver:
    """Resolves target texts against the names of a game's slots."""

    entries: tuple[NameEntry, ...]
    no_lynch_words: tuple[str, ...] = NO_LYNCH_WORDS
    thread_words: ThreadWords | None = None  # the thread's own words, for learned nicknames
    _cache: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._normed = [(e, normalise(e.name)) for e in self.entries]
        self._no_lynch = frozenset(normalise(w) for w in self.no_lynch_words)

    @classmethod
    def from_slots(
        cls,
        names: Mapping[str, Iterable[str]],
        aliases: Mapping[str, Iterable[str]] | None = None,
        no_lynch_words: Iterable[str] = NO_LYNCH_WORDS,
    ) -> Resolver:
        """`names`: slot → its names, oldest first; `aliases`: slot → nicknames."""
        entries: list[NameEntry] = []
        for slot, slot_names in names.items():
            slot_names = list(slot_names)
            for i, n in enumerate(slot_names):
                entries.append(NameEntry(slot, n, former=i < len(slot_names) - 1))
            for a in (aliases or {}).get(slot, ()):
                entries.append(NameEntry(slot, a, alias=True))
        return cls(tuple(entries), tuple(no_lynch_words))

    def resolve(
        self, text: str, alive: frozenset[str] | None = None, whole: bool = False
    ) -> Resolution:
        """Resolve `text`; `alive` (slot keys) limits the loose stages to living slots."""
        key = (text, alive, whole)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = self._resolve(text, alive, whole)
        return hit

    def _resolve(self, text: str, alive: frozenset[str] | None, whole: bool) -> Resolution:
        norm = normalise(text)
        if not norm or norm in {normalise(w) for w in UNVOTE_WORDS}:
            return Resolution(TargetKind.UNVOTE, matched_text=text)
        repeated = expand_repeat(text)
        if repeated:
            found = self._resolve(repeated, alive, whole)
            if found.kind is TargetKind.PLAYER:
                return found
        words = text.split()[:_MAX_TARGET_WORDS]
        # The whole target first, then shorter and shorter openings ("Oso because ...").
        texts = [
            " ".join(words[:k]) for k in range(len(words), 0 if not whole else len(words) - 1, -1)
        ]
        # Longest first: "Nobody Special" is a player before its opening "Nobody" is a no-lynch.
        for t in texts:
            for method in _SURE_STAGES:
                found = self._sure(method, t)
                if found:
                    return self._decide(found, method, t)
            if normalise(t) in self._no_lynch:
                return Resolution(TargetKind.NO_LYNCH, confidence=1.0, matched_text=t)
        if _SPEECH.search(text):
            # 'me" is disingenuous': a sentence read on from a quotation is never guessed at
            return Resolution(TargetKind.UNRESOLVED, matched_text=text)
        living = [e for e in self.entries if alive is None or e.slot in alive]
        guess = self._guess(text, norm, texts, living)
        if self.thread_words is not None and not (
            guess.kind is TargetKind.PLAYER and guess.confidence >= CONFIDENT
        ):
            # "CO=cloudocean" outranks a guess: CO as the start of CooLskins
            defined = _defined(text, living, self.thread_words)
            if defined:
                return defined
        return guess

    def _guess(self, text: str, norm: str, texts: list[str], living: list[NameEntry]) -> Resolution:
        """The loose stages, on living players only, loosest last."""
        # "NL" is how players shorten "no lynch" where the game has one, unless a living
        # player's name is written so too (their initials, or the start of "NLJ")
        if (
            norm in NO_LYNCH_INITIALS
            and self._no_lynch
            and not any(_could_shorten(norm, e.name) for e in living)
        ):
            return Resolution(TargetKind.NO_LYNCH, confidence=CONFIDENT, matched_text=text)
        # "vote: is" is a word, "vote: IS" is Internet Stranger's initials.
        loose_texts = [
            t
            for t in texts
            if len(t.split()) <= 3 and (t.casefold() not in _STOPWORDS or _capitals(t))
        ]
        # "the grey", "Thegrey": players put an article before a handle that has none.
        loose_texts += [
            rest for t in loose_texts if (rest := _without_article(t)) and rest not in loose_texts
        ]
        for method in _LOOSE_STAGES:
            for t in loose_texts:
                plain, alike = _loose_match(method, normalise(t), t, living)
                if plain:
                    return self._decide(plain, method, t)
                if alike:
                    return self._decide(alike, method, t, lookalike=True)
        for t in loose_texts:
            found = {e.slot for e in living if _word_typo(normalise(t), e.name)}
            if found:
                return self._decide(found, Method.WORD_TYPO, t)
        found = {e.slot for e in living if _word_by_word(text, e.name)}
        if found:
            return self._decide(found, Method.WORD_BY_WORD, text)
        for t in loose_texts:
            fuzzy = _fuzzy(normalise(t), living)
            if fuzzy:
                return fuzzy
        for t in loose_texts:
            found = {e.slot for e in living if _scrambled(normalise(t), e.name)}
            if found:
                return self._decide(found, Method.SCRAMBLED, t)
        if self.thread_words is not None:
            for t in loose_texts:
                learned = _nickname(t, living, self.thread_words)
                if learned:
                    return learned
        for t in loose_texts:
            spoken = _spoken_initials(t, living, self.thread_words) or _pet_name(t, living)
            if spoken:
                return spoken
        if self.thread_words is not None:
            for t in loose_texts:
                slip = _short_form_slip(t, living, self.thread_words)
                if slip:
                    return slip
        initial = _single_initial(text, living)
        if initial:
            return initial
        return Resolution(TargetKind.UNRESOLVED, matched_text=text)

    def _sure(self, method: Method, t: str) -> set[str]:
        if method is Method.EXACT:
            return {e.slot for e in self.entries if e.role is Method.EXACT and e.name == t}
        role = Method.EXACT if method is Method.NORMALISED else method
        n = normalise(t)
        return {e.slot for e, norm in self._normed if e.role is role and norm == n}

    @staticmethod
    def _decide(found: set[str], method: Method, t: str, lookalike: bool = False) -> Resolution:
        if len(found) == 1:
            confidence = CONFIDENCE[method] - (0.1 if lookalike else 0.0)
            if _two_letters(normalise(t)) and confidence < CONFIDENCE[Method.FORMER_NAME]:
                confidence = min(confidence, 0.7)  # two letters are a guess worth showing
            return Resolution(
                TargetKind.PLAYER, next(iter(found)), method, confidence, matched_text=t
            )
        return _ambiguous(found, method, t)


def _loose_match(
    method: Method, norm: str, raw: str, entries: list[NameEntry]
) -> tuple[set[str], set[str]]:
    """Slots matched by the spelling as written, and slots matched only by a look-alike form."""
    if not norm:
        return set(), set()
    plain: set[str] = set()
    alike: set[str] = set()
    targets = loose_forms(norm)
    for e in entries:
        name_norm = normalise(e.name)
        if _loose_ok(method, norm, name_norm, raw, e.name):
            plain.add(e.slot)
        elif any(
            _loose_ok(method, t, n, raw, e.name) for t in targets for n in loose_forms(name_norm)
        ):
            alike.add(e.slot)
    return plain, alike


def _loose_ok(method: Method, norm: str, name_norm: str, raw: str, name: str) -> bool:
    if method is Method.WORD:
        return (
            len(norm) >= 2
            and norm != name_norm
            and (any(w == norm for w in _words(name)) or norm in _given_names(name))
        )
    if method is Method.PREFIX:
        return len(norm) >= 2 and name_norm.startswith(norm)
    if method is Method.SUBSTRING:
        return len(norm) >= 3 and norm in name_norm
    if method is Method.ACRONYM:
        return len(norm) >= 2 and norm in _acronyms(name)
    # SUBSEQUENCE: "pcp" for pieceofpecanpie, "MM4" for MarioManiac4, "CP" for crazypianist,
    # "ds" for dragonspawn (two letters in any case: initials; they are shown as a guess)
    return (
        len(norm) >= 2
        and norm[0] == name_norm[:1]
        and len(norm) < len(name_norm)
        and _is_subsequence(norm, name_norm)
    )


_THREAD_WORD = lazy(r"[^\W\d_]{4,}", re.UNICODE)
NICKNAME_USES = 3  # posts besides the vote that must use a word before it is a nickname
NICKNAME_SIMILARITY = 0.72
NICKNAME_MARGIN = 0.1


class ThreadWords:
    """Which posts use a word of four letters or more, and whether any writes it with a
    capital: the evidence that a word the resolver does not know is the thread's name for a
    player ("Adenine" written for Aneninen post after post).

    Asked word by word: a count asks of a few words at most, so the thread's words are not
    indexed; a post whose text cannot hold the word (ASCII text without it) is passed over
    before its words are split and normalised."""

    def __init__(self, texts: Iterable[tuple[int | None, str]]) -> None:
        self._source = texts  # read on first use: most threads never need a learned nickname
        self._texts: list[tuple[int, str]] | None = None
        self._asked: dict[str, tuple[list[int], bool]] = {}
        self._norms: dict[str, str] = {}  # word -> normalise(word)
        self._defined: dict[str, list[tuple[int, str, str]]] = {}
        self._folded: list[str] | None = None

    def _all(self) -> list[tuple[int, str]]:
        """The thread's (post, text), read from the source once, on first use."""
        if self._texts is None:
            self._texts = [(n if n is not None else -1, t) for n, t in self._source]
        return self._texts

    def _scan(self, norm: str) -> tuple[list[int], bool]:
        found = self._asked.get(norm)
        if found is not None:
            return found
        posts: list[int] = []
        capitalised = False
        plain = norm.isascii()  # normalise keeps an ASCII word's letters, lowercased
        for n, text in self._all():
            if plain and text.isascii() and norm not in text.lower():
                continue
            for word in set(_THREAD_WORD.findall(text)):
                key = self._norms.get(word)
                if key is None:
                    key = self._norms[word] = normalise(word)
                if key != norm:
                    continue
                if not posts or posts[-1] != n:
                    posts.append(n)
                capitalised = capitalised or word[0].isupper()
        found = self._asked[norm] = (posts, capitalised)
        return found

    def uses(self, norm: str) -> list[int]:
        return self._scan(norm)[0]

    def definitions(self, short: str) -> list[tuple[int, str, str]]:
        """Where the thread defines a short form: (post, how, the text after "CO =" ("after"),
        after "CO is" (the name must end its clause: "ends") or before "(CO)" ("before")), for
        `_defined` to match against the names."""
        found = self._defined.get(short)
        if found is not None:
            return found
        found = []
        word = re.compile(rf"(?<!\w){re.escape(short)}(?!\w)", re.I)
        # one search of a post says whether it may define the short form at all
        may = re.compile(rf"(?<!\w){re.escape(short)}{_DEFINING}|\(\s*{re.escape(short)}\s*\)")
        texts = self._all()
        if self._folded is None:
            self._folded = [text.casefold() for _, text in texts]
        for (n, text), folded in zip(texts, self._folded, strict=True):
            if short not in folded or not may.search(folded):
                continue
            found.extend((n, how, part) for how, part in _defining(text, word))
        self._defined[short] = found
        return found

    def capitalised(self, norm: str) -> bool:
        return self._scan(norm)[1]


def _player(slot: str, method: Method, text: str, evidence: str = "") -> Resolution:
    """A read of `text` as one player, as sure as its stage."""
    return Resolution(
        TargetKind.PLAYER, slot, method, CONFIDENCE[method], matched_text=text, evidence=evidence
    )


def _ambiguous(slots: set[str], method: Method, text: str) -> Resolution:
    """A read of `text` that fits several players, for the host to decide."""
    return Resolution(
        TargetKind.AMBIGUOUS, method=method, candidates=tuple(sorted(slots)), matched_text=text
    )


def _posts(numbers: list[int]) -> str:
    """ "4 posts (2862, 2936, 2940, 2964)": the first six, for evidence a host can check."""
    shown = ", ".join(str(n) for n in numbers[:6]) + (" …" if len(numbers) > 6 else "")
    return f"{len(numbers)} post{'s' if len(numbers) != 1 else ''} ({shown})"


# How a thread defines a short form: "CO=cloudocean", "CO = Cloudocean", "cloudocean (CO)", and
# "CO is cloudocean" or "CO means cloudocean" where the name ends the clause ("Neil is Thesp
# scum" is a read, not a definition).
_DEFINING = r"(?:\s*(?:=+|:=)\s*(?P<equals>)|\s+(?:is|means|stands\s+for)\s+)@?"
_CLAUSE_END = frozenset(".,;:!?)]\n")
_SHORT_FORM = lazy(r"[^\W_]{2,4}", re.UNICODE)  # initials and clipped names


_DEFINES = lazy(_DEFINING, re.I)
_OPEN_PAREN = lazy(r"\(\s*$")
_CLOSE_PAREN = lazy(r"\s*\)")
_REACH_NAME = 60  # how far a definition's name is looked for


def _defining(text: str, word: re.Pattern[str]) -> Iterable[tuple[str, str]]:
    """(how, the text after or before) of each place `text` defines the short form that
    `word` finds."""
    for m in word.finditer(text):
        d = _DEFINES.match(text, m.end())
        if d is not None:
            after = text[d.end() : d.end() + _REACH_NAME].split("\n", 1)[0]
            yield ("after" if d["equals"] is not None else "ends"), after
        opened = _OPEN_PAREN.search(text, max(0, m.start() - 3), m.start())
        if opened and _CLOSE_PAREN.match(text, m.end()):
            before = text[max(0, opened.start() - _REACH_NAME) : opened.start()]
            yield "before", before.rsplit("\n", 1)[-1].rstrip()


def opens_with_name(text: str, name: str, whole: bool = False) -> bool:
    """Whether `text` opens with the name as a whole word, case, spaces and marks aside
    ("Cloud ocean, you" opens with cloudocean; "Ann's" is not Ann, but a word about her);
    `whole`: the name ends its clause too ("cloudocean." but not "cloudocean scum")."""
    norm, got = normalise(name), ""
    if not norm:
        return False
    for i, ch in enumerate(text):
        if ch.isalnum():
            got += normalise(ch)
            if not norm.startswith(got):
                return False
            if got == norm:
                rest = text[i + 1 : i + 2]
                if whole:
                    after = text[i + 1 :].lstrip(" \t")
                    return not after or after[0] in _CLAUSE_END
                return not (rest.isalnum() or rest in ("'", "’"))
        elif not got and not ch.isspace():
            return False
    return False


def _defined(text: str, entries: list[NameEntry], words: ThreadWords) -> Resolution | None:
    """A short form the thread defines as exactly one living player: "CO=cloudocean", "CO is
    cloudocean", "cloudocean (CO)" — shown with the posts that define it. A short form is
    made of its name's letters, in order: "Neil is Thesp" says two players are one."""
    short = text.strip()
    if not _SHORT_FORM.fullmatch(short) or (
        short.casefold() in _STOPWORDS and not _capitals(short)
    ):
        return None
    found: dict[str, list[int]] = {}
    folded = normalise(short)
    # the names a short form may stand for, once: "AJ is Elhabe" is two players, not a short
    # form of one, and a short form is made of its name's letters, in order
    may_be = [
        e for e in entries if (n := normalise(e.name)) != folded and _is_subsequence(folded, n)
    ]
    for post, side, part in words.definitions(short.casefold()) if may_be else ():
        for e in may_be:
            said = part[::-1] if side == "before" else part
            name = e.name[::-1] if side == "before" else e.name
            if opens_with_name(said.lstrip(), name, whole=side == "ends"):
                posts = found.setdefault(e.slot, [])
                if post not in posts:
                    posts.append(post)
    if len(found) != 1:
        return None  # undefined, or defined as several players: the other stages read it
    slot, posts = next(iter(found.items()))
    name = next(e.name for e in entries if e.slot == slot)
    why = f"{short!r} is defined as {name} in {_posts(posts)}"
    return _player(slot, Method.DEFINED, short, why)


def _one_word(text: str) -> str | None:
    """A target of one word, normalised, that is not a common word: what the stages that read
    a single word as a name (nickname, spoken initials, pet name, short-form slip) take."""
    norm = normalise(text)
    return None if " " in text.strip() or norm in _STOPWORDS else norm


def _nickname(text: str, entries: list[NameEntry], words: ThreadWords) -> Resolution | None:
    """A one-word target the thread keeps using, written like a name, that looks like exactly
    one living player's name or a word of it: what a host reads as that player's nickname."""
    norm = _one_word(text)
    if norm is None or len(norm) < 4:
        return None
    uses = words.uses(norm)
    if len(uses) < NICKNAME_USES + 1 or not words.capitalised(norm):
        return None
    from rapidfuzz.distance import JaroWinkler

    best: dict[str, float] = {}
    for e in entries:
        forms = {normalise(e.name), *(normalise(w) for w in _words(e.name) if len(w) >= 3)}
        score = max(JaroWinkler.normalized_similarity(norm, f) for f in forms if f)
        best[e.slot] = max(best.get(e.slot, 0.0), score)
    ranked = sorted(best.items(), key=lambda kv: kv[1], reverse=True)
    if not ranked or ranked[0][1] < NICKNAME_SIMILARITY:
        return None
    if len(ranked) > 1 and ranked[0][1] - ranked[1][1] < NICKNAME_MARGIN:
        return None
    why = f"{text!r} is used in {_posts(uses)}; similarity {ranked[0][1]:.2f}"
    return _player(ranked[0][0], Method.NICKNAME, text, why)


# How English speakers say each letter, as players spell initials out ("jaydee" for JD, "emjay"
# for MightyJoe, "emcee" for Master Chief).
_SAID = (
    "a:ay b:bee c:cee,see d:dee e:ee f:ef,eff g:gee h:aitch,aych i:eye j:jay k:kay l:el,ell m:em "
    "n:en o:oh p:pee q:cue,kew r:ar,arr s:es,ess t:tee u:you v:vee w:dubya x:ex y:why,wye "
    "z:zee,zed"
)
LETTER_NAMES = {
    letter: tuple(sounds.split(","))
    for letter, sounds in (item.split(":") for item in _SAID.split())
}
_SPOKEN = tuple((said, letter) for letter, names in LETTER_NAMES.items() for said in names)
# The last letter may be cut to its sound's first consonant ("deej" for DJ, "teeb" for TB),
# and the whole given the pet-name "s" ("teebs").
_CLIPPED = {letter for letter, names in LETTER_NAMES.items() if names[0][0] == letter}
_PET_ENDING = "s"


def spoken_letters(norm: str) -> dict[str, str]:
    """The initials a normalised word spells out loud, each with how it was read:
    "teebs" -> {"tb": "tee-b-s"}, "emjay" -> {"mj": "em-jay"}; {} when the word is not made of
    two or more letters' names."""
    found: dict[str, str] = {}

    def walk(rest: str, letters: str, said: tuple[str, ...]) -> None:
        if not rest and len(letters) >= 2:
            found.setdefault(letters, "-".join(said))
            return
        for sound, letter in _SPOKEN:
            if rest.startswith(sound):
                walk(rest[len(sound) :], letters + letter, (*said, sound))
        if letters and rest in _CLIPPED:
            walk("", letters + rest, (*said, rest))

    walk(norm, "", ())
    if norm.endswith(_PET_ENDING):
        for letters, said in spoken_letters(norm[: -len(_PET_ENDING)]).items():
            found.setdefault(letters, f"{said}-{_PET_ENDING}")
    return found


def _initials_of(name: str) -> set[str]:
    """What a name's initials are: those of its words, or the name itself when it is written
    as initials ("JD")."""
    norm = normalise(name)
    return _acronyms(name) | ({norm} if _capitals(name) and len(norm) <= 4 else set())


def _spoken_initials(
    text: str, entries: list[NameEntry], words: ThreadWords | None
) -> Resolution | None:
    """A one-word target that spells one living player's initials aloud: "teebs" (tee-b) for
    ThinkBig, "jaydee" for JD. The thread's other uses of the word are shown as evidence."""
    norm = _one_word(text)
    if norm is None:
        return None
    readings = spoken_letters(norm)
    found = {
        letters: {e.slot for e in entries if letters in _initials_of(e.name)}
        for letters in readings
    }
    slots = set().union(*found.values()) if found else set()
    if len(slots) > 1:
        return _ambiguous(slots, Method.SPOKEN_INITIALS, text)
    if not slots:
        return None
    letters = next(k for k, v in found.items() if v)
    evidence = f"{text!r} says {'-'.join(letters.upper())} aloud ({readings[letters]})"
    if words is not None:
        uses = words.uses(norm)
        if uses:
            evidence += f"; used in {_posts(uses)}"
    return _player(next(iter(slots)), Method.SPOKEN_INITIALS, text, evidence)


def _could_shorten(short: str, name: str) -> bool:
    """Whether a short target is how this name is written short: its initials or its opening
    ("nl" for Night Lord or NLJ; not for Nelly, whose players write "Nel")."""
    name_norm = normalise(name)
    return any(_loose_ok(m, short, name_norm, short, name) for m in (Method.PREFIX, Method.ACRONYM))


# The endings of pet names made from the start of a name ("Hopsy" for Hopkirk, "Notty" for
# notscience, the last consonant doubled) or from its initials ("Aspy" for A Simple Plan).
PET_ENDINGS = ("sy", "ie", "ey", "y", "s")
_VOWELS = frozenset("aeiouy")


def pet_stems(norm: str) -> dict[str, str]:
    """The stems a normalised word may be a pet name of, each with its ending:
    "notty" -> {"nott": "y", "not": "ty"}; a stem has three letters or more."""
    stems: dict[str, str] = {}
    for ending in PET_ENDINGS:
        stem = norm.removesuffix(ending)
        if stem == norm or len(stem) < 3:
            continue
        stems.setdefault(stem, ending)
        if len(stem) >= 4 and stem[-1] == stem[-2] and stem[-1] not in _VOWELS:
            stems.setdefault(stem[:-1], stem[-1] + ending)
    return stems


_SKELETON_LETTERS = str.maketrans({"c": "k", "q": "k", "z": "s"})
_AFTER_CONSONANT_H = lazy(r"(?<=[^aeiouy])h")
_VOWEL_LETTERS = lazy(r"[aeiouy]")


def consonant_skeleton(norm: str) -> str:
    """How a normalised word sounds, roughly: its consonants, c/q as k, z as s, an h after a
    consonant dropped ("thomas" -> "tms", "michael" -> "mkl", "elizabeth" -> "lsbt")."""
    spoken = _AFTER_CONSONANT_H.sub("", norm.translate(_SKELETON_LETTERS))
    return _VOWEL_LETTERS.sub("", spoken)


def _may_sound(stems: set[str], name: str) -> bool:
    """Whether a name may start with one of these pet-name stems as said aloud: its consonants
    start with the stem's ("tom" and Thomas, "kit" and Katherine), or, for a stem with one
    consonant, its first letter is the stem's."""
    norm = normalise(name)
    skeleton = consonant_skeleton(norm)
    for stem in stems:
        said = consonant_skeleton(stem)
        if len(said) >= 2 and skeleton.startswith(said) or len(said) < 2 and norm[:1] == stem[:1]:
            return True
    return False


def _pet_name(text: str, entries: list[NameEntry]) -> Resolution | None:
    """A one-word target that is the start of one living player's name, or their initials,
    with a pet name's ending: "Hopsy" for Hopkirk, "Notty" for notscience, "Aspy" for A Simple
    Plan. Shown with the stem and what it matched."""
    norm = _one_word(text)
    if norm is None:
        return None
    matched: dict[str, str] = {}  # slot -> how the word was read
    stems = set()
    for stem, ending in pet_stems(norm).items():
        if stem in _STOPWORDS:
            continue
        for e in entries:
            name = normalise(e.name)
            if name.startswith(stem) and name != stem:
                matched.setdefault(e.slot, f"{stem!r} + {ending!r}, the start of {e.name}")
                stems.add(stem)
            elif stem in _acronyms(e.name):
                matched.setdefault(e.slot, f"{stem!r} + {ending!r}, {e.name}'s initials")
                stems.add(stem)
    # A pet name is said, not spelt: "Tommy" may be Thomas's as well as Tomahawk's, "Lizzy"
    # Elizabeth's as well as Lizard's. Another living name that sounds as if it starts so
    # leaves the choice to the host.
    sounds = [e.slot for e in entries if e.slot not in matched and _may_sound(stems, e.name)]
    if matched and sounds:
        return _ambiguous({*matched, *sounds}, Method.PET_NAME, text)
    if len(matched) > 1:
        return _ambiguous(set(matched), Method.PET_NAME, text)
    if not matched:
        return None
    slot, why = next(iter(matched.items()))
    return _player(slot, Method.PET_NAME, text, f"{text!r} is a pet name: {why}")


_ARTICLE = lazy(r"^the[\s_\-.]*(?=\w{3})", re.I)


def _without_article(text: str) -> str | None:
    """The text without a leading "the" ("Thegrey" -> "grey"), or None when there is none."""
    rest = _ARTICLE.sub("", text, count=1)
    return rest if rest != text else None


def _word_typo(norm: str, name: str) -> bool:
    """A misspelling of one word of a multi-word name: "Misika" for Misaka Network, "brian"
    for Prolapsed Brain (one edit, a swap of two letters counting as one; two for long words)."""
    words = _words(name)
    if len(words) < 2 or len(norm) < 4:
        return False
    allowed = 1 if len(norm) < 8 else 2
    from rapidfuzz.distance import OSA  # rapidfuzz loads when a name is not written as it is

    return any(
        len(w) >= 4 and w != norm and OSA.distance(norm, normalise(w)) <= allowed for w in words
    )


def _word_by_word(text: str, name: str) -> bool:
    """A name of three words or more (with spaces) written out word by word, each as written or a
    slip of it, half of them exactly: "Sat Away I Have a Girlfriend" for "stay away I have a
    gf" (a misspelt word, a short form spelt out)."""
    said, words = _spaced_words(text), _spaced_words(name)
    if len(words) < 3 or len(said) != len(words):
        return False
    exact = sum(a == b for a, b in zip(said, words, strict=True))
    return exact * 2 >= len(words) and all(
        _word_slip(a, b) for a, b in zip(said, words, strict=True)
    )


def _scrambled(norm: str, name: str) -> bool:
    """A name or a word of it with its inner letters out of order, the first and last kept, as
    readers read a scrambled word: "alugura" for Arugula (five letters or more)."""
    if len(norm) < 5:
        return False
    return any(
        w != norm and w[0] == norm[0] and w[-1] == norm[-1] and sorted(w) == sorted(norm)
        for w in {normalise(name), *(normalise(x) for x in _words(name))}
        if len(w) == len(norm)
    )


def _spaced_words(text: str) -> list[str]:
    return [w for w in map(normalise, text.split()) if w]


def _word_slip(a: str, b: str) -> bool:
    """Two words a host reads as one: equal, one the other's short form ("gf", "girlfriend":
    its first letter and letters in order), or two edits apart with the same first letter."""
    if a == b:
        return True
    if a[:1] != b[:1]:
        return False
    short, long = sorted((a, b), key=len)
    if len(short) <= 3 and len(long) > len(short) + 2 and _is_subsequence(short, long):
        return True
    from rapidfuzz.distance import OSA

    return min(len(a), len(b)) >= 3 and OSA.distance(a, b) <= 2


SLIP_SHORTEST = 4  # letters a short form needs before a slip of it is read
_EDITS = {1: "a letter added", -1: "a letter dropped", 0: "a letter changed"}


def _short_form_slip(text: str, entries: list[NameEntry], words: ThreadWords) -> Resolution | None:
    """A one-edit slip (a letter added, dropped or changed) of a short form the thread has
    established for one living player: a part of their name, of no other living player's,
    that four posts or more use as a word ("Fritz" where the thread calls havingfitz "fitz").
    A slip as near a part of another living player's name is ambiguous."""
    norm = _one_word(text)
    if norm is None or len(norm) < SLIP_SHORTEST:
        return None
    from rapidfuzz.distance import Levenshtein

    names = [(e.slot, normalise(e.name)) for e in entries]
    near: dict[str, set[str]] = {}  # slot -> parts of its names one edit from the target
    for e in entries:
        name = normalise(e.name)
        for size in range(max(SLIP_SHORTEST, len(norm) - 1), len(norm) + 2):
            for i in range(len(name) - size + 1):
                part = name[i : i + size]
                if part != name and Levenshtein.distance(norm, part) == 1:
                    near.setdefault(e.slot, set()).add(part)
    established = {
        (slot, part, len(uses))
        for slot, parts in near.items()
        for part in parts
        if len(uses := words.uses(part)) >= NICKNAME_USES + 1
        and not any(part in n for other, n in names if other != slot)
    }
    if not established:
        return None
    if len(near) > 1:
        return _ambiguous(set(near), Method.SHORT_FORM_SLIP, text)
    slot, part, _ = max(established, key=lambda found: (found[2], found[1]))  # the most used
    how = _EDITS[len(norm) - len(part)]
    name = next(e.name for e in entries if e.slot == slot and part in normalise(e.name))
    why = (
        f"{text!r} read as {part!r} with {how}, the thread's short form for {name} "
        f"(used in {_posts(words.uses(part))})"
    )
    return _player(slot, Method.SHORT_FORM_SLIP, text, why)


def _single_initial(text: str, entries: list[NameEntry]) -> Resolution | None:
    """One letter names the one living player whose name starts with it, if only one does."""
    letter = text.strip()
    if len(letter) != 1 or not letter.isalpha() or letter.casefold() in _STOPWORDS:
        return None
    first = letter.casefold()
    found = {e.slot for e in entries if normalise(e.name)[:1] == first}
    if len(found) != 1:
        return None
    return _player(next(iter(found)), Method.INITIAL, letter)


def _fuzzy(norm: str, entries: list[NameEntry]) -> Resolution | None:
    if len(norm) < 3:
        return None
    from rapidfuzz.distance import JaroWinkler, Levenshtein

    best: dict[str, tuple[float, str]] = {}
    for e in entries:
        name_norm = normalise(e.name)
        if not name_norm:
            continue
        score = max(
            JaroWinkler.normalized_similarity(norm, name_norm),
            Levenshtein.normalized_similarity(norm, name_norm),
        )
        if score > best.get(e.slot, (0.0, ""))[0]:
            best[e.slot] = (score, e.name)
    ranked = sorted(best.items(), key=lambda kv: kv[1][0], reverse=True)
    if not ranked or ranked[0][1][0] < FUZZY_ACCEPT:
        return None
    if len(ranked) > 1 and ranked[0][1][0] - ranked[1][1][0] < FUZZY_MARGIN:
        return Resolution(
            TargetKind.AMBIGUOUS,
            method=Method.FUZZY,
            candidates=tuple(sorted(s for s, _ in ranked[:2])),
            matched_text=norm,
        )
    slot, (score, _) = ranked[0]
    return Resolution(TargetKind.PLAYER, slot, Method.FUZZY, round(score, 3), matched_text=norm)


def did_you_mean(name: str, choices: Iterable[str]) -> str:
    """ "; did you mean 'Banana'?" for the closest choice, or "" when none is close."""
    from rapidfuzz import fuzz, process, utils

    found = process.extractOne(
        name, list(choices), scorer=fuzz.WRatio, processor=utils.default_process
    )
    return f" (did you mean {found[0]!r}?)" if found and found[1] >= 75 else ""
