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
    INITIAL = "initial"
    NICKNAME = "nickname"
    FUZZY = "fuzzy"


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
    Method.INITIAL: 0.6,
    Method.NICKNAME: 0.8,
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
UNVOTE_WORDS = ("unvote", "none", "nothing", "no vote", "novote", "retract", "withdraw")

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


def normalise(name: str) -> str:
    """Case-folded, accents dropped ("Söze" is "soze"), everything but letters and digits
    removed. Hangul is recomposed after the accents go, so Korean names compare as written."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    bare = "".join(ch for ch in decomposed if unicodedata.category(ch) != "Mn")
    return _NON_ALNUM.sub("", unicodedata.normalize("NFC", bare))


_LEET = str.maketrans("013457989", "oieastgbg")
_LEET_RUN = lazy(r"(?<=[^\W\d_])\d+(?=[^\W\d_])")
_SOUNDS = (("qw", "qu"), ("ph", "f"), ("ck", "k"), ("z", "s"))
_DOUBLED = lazy(r"(.)\1+")
_REPEAT = lazy(r"^(?P<word>.+?)\s*(?:\^|\*|x|×)\s*(?P<times>[2-5])$", re.I)


def loose_forms(norm: str) -> tuple[str, ...]:
    """A normalised name and its look-alikes: leet digits read as letters ("Fro99er" is
    "frogger"), and sound-alike spellings ("qwints" ~ "quints"), doubled letters collapsed."""
    forms = [norm]
    unleet = _LEET_RUN.sub(lambda m: m[0].translate(_LEET), norm)
    if unleet != norm:
        forms.append(unleet)
    sound = unleet
    for a, b in _SOUNDS:
        sound = sound.replace(a, b)
    sound = _DOUBLED.sub(r"\1", sound)
    if sound not in forms:
        forms.append(sound)
    return tuple(forms)


def expand_repeat(text: str) -> str | None:
    """ "Yes^3", "Yes*3", "Yesx3" are how players write "YES YES YES"."""
    m = _REPEAT.match(text.strip())
    return " ".join([m["word"]] * int(m["times"])) if m else None


def _words(name: str) -> list[str]:
    return [w.casefold() for w in _CAMEL.findall(unicodedata.normalize("NFKC", name))]


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


@dataclass(frozen=True, slots=True)
class Resolution:
    """What a target text resolved to, how, and how sure."""

    kind: TargetKind
    slot: str | None = None
    method: Method | None = None
    confidence: float = 0.0
    candidates: tuple[str, ...] = ()
    matched_text: str = ""
    evidence: str = ""  # for a learned nickname: where the thread uses it


@dataclass(frozen=True, slots=True)
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
        living = [e for e in self.entries if alive is None or e.slot in alive]
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
        for t in loose_texts:
            fuzzy = _fuzzy(normalise(t), living)
            if fuzzy:
                return fuzzy
        if self.thread_words is not None:
            for t in loose_texts:
                learned = _nickname(t, living, self.thread_words)
                if learned:
                    return learned
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
            if len(normalise(t)) <= 2 and confidence < CONFIDENCE[Method.FORMER_NAME]:
                confidence = min(confidence, 0.7)  # two letters are a guess worth showing
            return Resolution(
                TargetKind.PLAYER, next(iter(found)), method, confidence, matched_text=t
            )
        return Resolution(
            TargetKind.AMBIGUOUS, method=method, candidates=tuple(sorted(found)), matched_text=t
        )


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
        return len(norm) >= 2 and norm != name_norm and any(w == norm for w in _words(name))
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

    def _scan(self, norm: str) -> tuple[list[int], bool]:
        found = self._asked.get(norm)
        if found is not None:
            return found
        if self._texts is None:
            self._texts = [(n if n is not None else -1, t) for n, t in self._source]
        posts: list[int] = []
        capitalised = False
        plain = norm.isascii()  # normalise keeps an ASCII word's letters, lowercased
        for n, text in self._texts:
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

    def capitalised(self, norm: str) -> bool:
        return self._scan(norm)[1]


def _nickname(text: str, entries: list[NameEntry], words: ThreadWords) -> Resolution | None:
    """A one-word target the thread keeps using, written like a name, that looks like exactly
    one living player's name or a word of it: what a host reads as that player's nickname."""
    norm = normalise(text)
    if " " in text.strip() or len(norm) < 4 or norm in _STOPWORDS:
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
    shown = ", ".join(str(n) for n in uses[:6]) + (" …" if len(uses) > 6 else "")
    return Resolution(
        TargetKind.PLAYER,
        ranked[0][0],
        Method.NICKNAME,
        CONFIDENCE[Method.NICKNAME],
        matched_text=text,
        evidence=f"{text!r} is used in {len(uses)} posts ({shown}); similarity {ranked[0][1]:.2f}",
    )


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


def _single_initial(text: str, entries: list[NameEntry]) -> Resolution | None:
    """One letter names the one living player whose name starts with it, if only one does."""
    letter = text.strip()
    if len(letter) != 1 or not letter.isalpha() or letter.casefold() in _STOPWORDS:
        return None
    first = letter.casefold()
    found = {e.slot for e in entries if normalise(e.name)[:1] == first}
    if len(found) != 1:
        return None
    return Resolution(
        TargetKind.PLAYER,
        next(iter(found)),
        Method.INITIAL,
        CONFIDENCE[Method.INITIAL],
        matched_text=letter,
    )


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
