"""Forum timestamps: engine attributes first, displayed text (in the game's timezone) second."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone, tzinfo
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..errors import ModToolError
from .patterns import lazy

UTC = ZoneInfo("UTC")

# Displayed forms seen on phpBB, vBulletin, SMF and the mafiascum archive.
_FORMATS = (
    "%a %b %d, %Y %I:%M %p",  # Fri Feb 25, 2011 11:00 am   (phpBB 3.0 default)
    "%a %b %d, %Y %H:%M",
    "%Y-%m-%d, %H:%M:%S",  # SMF (ISO-ish locales): 2011-04-24, 22:48:56
    "%Y-%m-%d, %H:%M",  # vBulletin 3: 2016-02-01, 02:29
    "%b %d, %Y at %I:%M %p",  # XenForo: Oct 30, 2014 at 10:49 PM
    "%B %d, %Y, %I:%M%p",  # Discourse: November 18, 2019, 2:39pm
    "%d %b %Y %H:%M",  # 02 Jun 2018 05:41
    "%d %b %Y, %H:%M",
    "%d %B %Y %H:%M",  # 2 January 2020 03:04
    "%d %B %Y, %H:%M",
    "%b %d, %Y %I:%M %p",
    "%b %d, %Y, %I:%M %p",
    "%B %d, %Y, %I:%M:%S %p",  # SMF: April 25, 2018, 10:22:01 pm
    "%B %d, %Y, %I:%M %p",
    "%B %d, %Y %I:%M %p",
    "%m-%d-%Y, %I:%M %p",  # vBulletin 3
    "%m-%d-%Y %I:%M %p",
    "%m/%d/%Y %I:%M %p",
    "%m/%d/%y %I:%M %p",  # UBB.threads' default (m/d/y h:i A): 03/12/15 03:28 PM
    "%m-%d-%y, %I:%M %p",  # vBulletin's two-digit year: 03-12-15, 03:28 PM
    "%d-%m-%Y, %H:%M",
    "%d.%m.%y %H:%M",  # German's short date and time (CLDR dd.MM.yy, HH:mm): 29.01.20 22:47
    "%d.%m.%y, %H:%M",
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%d %H:%M",
    "%Y.%m.%d %H:%M",
    "%y-%m-%d %H:%M",  # Gnuboard: 26-11-29 13:05
    "%Y.%m.%d",
    "%Y-%m-%d",
)
# What any of the formats can produce: short, of letters, digits, spaces and ",.:/-".
_FORMAT_SHAPE = lazy(r"^[A-Za-z0-9 ,.:/-]{6,40}$")


def zone(name: str | None) -> tzinfo:
    """A timezone by IANA name; UTC when none is given."""
    if not name:
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ModToolError(
            f"unknown timezone {name!r}: "
            "use an IANA name such as 'America/New_York' or 'Asia/Seoul'"
        ) from None


# A forum's own word on the zone its times are shown in: "All times are UTC-05:00" (phpBB 3.1+),
# "All times are UTC - 5 hours [ DST ]" (phpBB 3.0), "All times are GMT -5" (vBulletin),
# "All times are GMT", and Discuz!'s footer "GMT+8, 2024-5-27 10:35".
_STATED = lazy(
    r"all times are (?:GMT|UTC)(?:\s*(?P<sign>[+\-\u2212])\s*(?P<h>\d{1,2})(?:[:.]?(?P<m>\d{2}))?"
    r"(?:\s*hours?)?)?(?P<dst>\s*\[\s*DST\s*\])?(?![\d:])"
    r"|\bGMT(?P<sign2>[+-])(?P<h2>\d{1,2})(?::(?P<m2>\d{2}))?, \d{4}-\d{1,2}-\d{1,2} \d{1,2}:\d{2}",
    re.I,
)


def stated_offset(text: str) -> timedelta | None:
    """The UTC offset a page says its times are shown in, if it says one (its last word on
    it: the footer's, not a post's)."""
    found = list(_STATED.finditer(text))
    if not found:
        return None
    m = found[-1]
    sign, hours, minutes = (
        (m["sign"], m["h"], m["m"]) if m["h"] or not m["h2"] else (m["sign2"], m["h2"], m["m2"])
    )
    offset = timedelta(hours=int(hours or 0), minutes=int(minutes or 0))
    if sign in ("-", "\u2212"):
        offset = -offset
    return offset + timedelta(hours=1) if m["dst"] else offset


def page_zone(text: str, tz: tzinfo, year: int | None = None) -> tzinfo:
    """The zone to read a page's displayed times in: the game's, unless the page states an
    offset that zone never has (the host left the default, or named another zone), when the
    page's own word wins. Both of a zone's offsets count (winter and summer): a page states
    the offset of the day it was saved, which may not be that of every post on it."""
    offset = stated_offset(text)
    if offset is None:
        return tz
    year = year or datetime.now(UTC).year
    if any(datetime(year, month, 1, 12, tzinfo=tz).utcoffset() == offset for month in (1, 7)):
        return tz
    return timezone(offset)


def parse_iso(value: str, tz: tzinfo = UTC) -> datetime | None:
    """An ISO 8601 timestamp (a `datetime` attribute); naive ones are read in `tz`."""
    value = value.strip()
    if not (value[:4].isascii() and value[:4].isdigit()):
        return None  # every form fromisoformat reads starts with the year (a failure costs)
    try:
        dt = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return dt if dt.tzinfo else dt.replace(tzinfo=tz)


def parse_displayed(text: str, tz: tzinfo = UTC, now: datetime | None = None) -> datetime | None:
    """A displayed forum time such as "Fri Feb 25, 2011 11:00 am", read in the game's timezone."""
    # Whitespace runs made one space (str.split's whitespace is the pattern \s's; faster)
    cleaned = " ".join(text.replace("»", " ").split()).strip(" ,")
    if not cleaned:
        return None
    # phpBB's English first: its text is never ISO or relative, and it is the commonest
    fast = _english(cleaned, tz)
    if fast:
        return fast
    iso = parse_iso(cleaned, tz)
    if iso:
        return iso
    relative = _relative(cleaned, tz, now)
    if relative:
        return relative
    if not _FORMAT_SHAPE.match(cleaned) or not _any_format().fullmatch(cleaned):
        return _relative_day(cleaned, tz, now) if cleaned[:1].isalpha() else None  # no format
    global _last_format
    # A thread shows every time in one format: try the one that worked last time first.
    patterns = _format_patterns()
    for fmt in (_last_format or patterns[0], *patterns):
        found = _match_format(fmt, cleaned, tz)
        if found is not None:
            _last_format = fmt
            return found
    return _relative_day(cleaned, tz, now) if cleaned[:1].isalpha() else None


# The formats as compiled patterns: strptime rebuilt its pattern on nearly every call and
# was most of the generic reader's time (hundreds of thousands of calls over a few pages).
_DIRECTIVES = {
    "a": r"[A-Za-z]{3}",
    "b": r"(?P<b>[A-Za-z]{3})",
    "B": r"(?P<B>[A-Za-z]{3,9})",
    "d": r"(?P<d>\d{1,2})",
    "m": r"(?P<m>\d{1,2})",
    "Y": r"(?P<Y>\d{4})",
    "y": r"(?P<y>\d{2})",
    "H": r"(?P<H>\d{1,2})",
    "I": r"(?P<I>\d{1,2})",
    "M": r"(?P<M>\d{2})",
    "S": r"(?P<S>\d{2})",
    "p": r"(?P<p>[AaPp][Mm])",
}
_FULL_MONTHS = (
    "january february march april may june july august september october november december"
).split()


def _compile_format(fmt: str) -> re.Pattern:
    return re.compile(_format_source(fmt), re.I)


def _format_source(fmt: str) -> str:
    parts = re.split(r"%(\w)", fmt)
    return "".join(
        _DIRECTIVES[part] if i % 2 else re.escape(part).replace(r"\ ", r"\s+")
        for i, part in enumerate(parts)
    )


@cache
def _format_patterns() -> tuple[re.Pattern, ...]:
    """Compiled when a displayed time first needs them (a posts file never does)."""
    return tuple(_compile_format(f) for f in _FORMATS)


@cache
def _any_format() -> re.Pattern:
    """One pattern any of the formats matches: most lines of a page shaped like a date are
    none, and one match says so where trying each format took thirty."""
    unnamed = (re.sub(r"\(\?P<\w+>", "(?:", _format_source(f)) for f in _FORMATS)
    return re.compile("|".join(f"(?:{source})" for source in unnamed), re.I)


def _match_format(pattern: re.Pattern, text: str, tz: tzinfo) -> datetime | None:
    m = pattern.fullmatch(text)
    if not m:
        return None
    parts = m.groupdict()
    if parts.get("b"):
        month = _MONTHS.get(parts["b"].lower())
    elif parts.get("B"):
        name = parts["B"].lower()
        month = _FULL_MONTHS.index(name) + 1 if name in _FULL_MONTHS else None
    else:
        month = int(parts["m"]) if parts.get("m") else None
    if month is None:
        return None
    if parts.get("Y"):
        year = int(parts["Y"])
    else:  # as strptime reads two-digit years: 69-99 are 1969-1999
        year = int(parts["y"]) + (1900 if int(parts["y"]) >= 69 else 2000)
    if parts.get("I"):
        hour = int(parts["I"])
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if (parts.get("p") or "").lower() == "pm" else 0)
    else:
        hour = int(parts.get("H") or 0)
    try:
        return datetime(
            year,
            month,
            int(parts["d"]),
            hour,
            int(parts.get("M") or 0),
            int(parts.get("S") or 0),
            tzinfo=tz,
        )
    except ValueError:
        return None


_last_format: re.Pattern | None = None

# The last resort, for forms no format above names: a date in any common order, then a time.
_LOOSE_LEAD = 24  # at most a short label ("Posted on", "发表于") before the date
# A month named in words, in any of the page languages below: "27 November 2026", "21. Apr
# 2020", "5 Juil 2018", "5 de julio de 2018", "25-February-2012", "November 27, 2026",
# "Jun 23 '05", "27 мая 2020".
_MONTH_WORD = r"[^\W\d_]{3,12}"
_WORD_DATE = lazy(
    rf"\b(?:(?P<d1>\d{{1,2}})(?:st|nd|rd|th|er)?\.?[ -](?:de )?(?P<m1>{_MONTH_WORD})\.?,?[ -]"
    rf"(?:de )?(?P<y1>\d{{4}})"
    rf"|(?P<m2>{_MONTH_WORD})\.? (?P<d2>\d{{1,2}})(?:st|nd|rd|th)?,? (?P<y2>\d{{4}}|'\d{{2}}))\b"
)
# Chinese and Japanese 2020年4月21日, Korean 2020년 4월 21일.
_CJK_DATE = lazy(r"(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일]?")
# A four-digit year first or last: two-digit years (26-11-29) are left to the formats above.
_YEAR_FIRST = lazy(r"\b(\d{4})([./-])(\d{1,2})\2(\d{1,2})\b")
_YEAR_LAST = lazy(r"\b(\d{1,2})([./-])(\d{1,2})\2(\d{4})\b")
# Dots with a two-digit year: German's short date (CLDR "dd.MM.yy": 29.01.20). Every language
# of LANGUAGES that writes dates with dots puts the day first, so this one is never open.
_DOTTED_SHORT = lazy(r"(?<![\w.])(\d{1,2})\.(\d{1,2})\.(\d{2})(?![\w.])")
# A clock after the date: "20:05", "8:05:09 pm", and Django's default forms, which drop zero
# minutes and name two hours: "9 a.m.", "noon", "midnight".
# French pages write "13h16"; Chinese and Japanese ones put 下午 right before the clock.
_CLOCK = lazy(
    r"(?<![\d:.])(?:(\d{1,2})[:h](\d{2})(?::(\d{2}))?\s*([ap])?\.?m?\.?|(\d{1,2})\s*([ap])\.?m\.?"
    r"|(noon|midnight))(?![a-z])",
    re.I,
)


# Chinese, Japanese and Korean write the half of the day before a 12-hour clock: 下午 7:40.
_HALF_DAY = {"上午": "a", "下午": "p", "午前": "a", "午後": "p", "오전": "a", "오후": "p"}
_HALF_DAY_WORD = lazy("|".join(_HALF_DAY))


def parse_loose(text: str, tz: tzinfo = UTC) -> datetime | None:
    """A date line in a form no known format names, read leniently: for displayed lines only
    (a line that merely mentions a date further on is not one)."""
    return _any_order(" ".join(text.split()), tz)


def _any_order(text: str, tz: tzinfo) -> datetime | None:
    """ "November 27, 2026 at 8:00 pm", "27 November 2026 20:00", "27.11.2026, 20:00",
    "2026/11/27 20:00": day, month and year in any common order, with a clock if one follows.

    Numeric dates: a four-digit first number is the year (Y-M-D); after that, a number over
    12 is the day; otherwise "." means day first (Europe) and "/" or "-" month first (US).
    """
    date = _word_date(text) or _cjk_date(text) or _number_date(text)
    if date is None:
        return None
    (year, month, day), start, end = date
    if start > _LOOSE_LEAD:
        return None
    clock = _CLOCK.search(text, end)
    hour = minute = second = 0
    if clock and clock[7]:
        hour = 12 if clock[7].lower() == "noon" else 0
    elif clock:
        if clock[1]:
            hour, minute, second = int(clock[1]), int(clock[2]), int(clock[3] or 0)
            half = clock[4]
        else:
            hour, half = int(clock[5]), clock[6]
        if not half:
            word = _HALF_DAY_WORD.search(text, end, clock.start())
            half = _HALF_DAY[word[0]] if word else None
        if half:
            if not 1 <= hour <= 12:
                return None
            hour = hour % 12 + (12 if half.lower() == "p" else 0)
    try:
        return datetime(year, month, day, hour, minute, second, tzinfo=tz)
    except ValueError:
        return None


def _word_date(text: str):
    for m in _WORD_DATE.finditer(text):  # the first whose word is a month
        month = month_number(m["m1"] or m["m2"])
        if month is not None:
            year = _full_year(m["y1"] or m["y2"])
            return (year, month, int(m["d1"] or m["d2"])), m.start(), m.end()
    return None


def _full_year(shown: str) -> int:
    """A year as shown: "2005", or "'05" (as strptime reads two digits: 69-99 are 19xx)."""
    if shown.startswith("'"):
        two = int(shown[1:])
        return two + (1900 if two >= 69 else 2000)
    return int(shown)


def _cjk_date(text: str):
    m = _CJK_DATE.search(text)
    if not m:
        return None
    return (int(m[1]), int(m[2]), int(m[3])), m.start(), m.end()


# The languages whose month names a page may show (Chinese, Japanese and Korean number theirs).
LANGUAGES = ("en", "de", "fr", "es", "pt", "nl", "it", "pl", "ru")


@cache
def month_names() -> dict[str, int]:
    """Month names and abbreviations of LANGUAGES, from the Unicode CLDR (through Babel), as
    written in a date and standing alone ("März", "juil.", "мая"), lowercase without the dot;
    with every start of three letters or more of a wide name that names one month only in
    all of them ("Fév" for février, "Sept" for September; "jui" could be juin or juillet)."""
    from babel import Locale  # the CLDR: loaded only when a page writes a month in words

    names: dict[str, int] = {}
    starts: dict[str, set[int]] = {}
    for language in LANGUAGES:
        months = Locale.parse(language).months
        for context in ("format", "stand-alone"):
            for width in ("wide", "abbreviated"):
                for number, name in months[context][width].items():
                    word = name.lower().strip(".")
                    names.setdefault(word, number)
                    if width == "wide":
                        for end in range(3, len(word)):
                            starts.setdefault(word[:end], set()).add(number)
    for start, numbers in starts.items():
        if len(numbers) == 1 and start not in names:
            names[start] = numbers.pop()
    return names


def month_number(word: str) -> int | None:
    """1-12 for a month name or abbreviation of LANGUAGES, else None."""
    return month_names().get(word.lower().strip("."))


def day_and_month(text: str) -> tuple[int, int] | None:
    """The first two numbers of a date such as 08/05/2024 or 8.5.2024 (a four-digit year last),
    as shown, whichever of them is the day: the page's other dates decide that."""
    m = _YEAR_LAST.search(text)
    return (int(m[1]), int(m[3])) if m else None


def orient_day_month(
    times: list[datetime | None], shown: list[tuple[int, int] | None]
) -> list[datetime | None]:
    """A page's times with numeric dates such as 08/05/2024 read as its dates together say.

    `shown` is each time's first two date numbers as displayed (day_and_month), None where the
    time came from elsewhere (an attribute): then the times are left as read. Missing times
    (an ad slot among the posts) stay missing.

    Day first if any date has a first number over 12, month first if any has a second one
    over 12. Where none does, as read, unless swapping day and month puts the posts
    in order when the reading does not, or in order over a shorter span (replies a day apart
    are far commoner than a month apart). Forums show both orders (wpForo and vBulletin follow
    the site's setting, often DD/MM/YYYY).
    """
    timed = [(i, t, parts) for i, (t, parts) in enumerate(zip(times, shown, strict=True)) if t]
    if len(timed) < 2:
        return times
    for _, t, parts in timed:
        if parts is None or set(parts) != {t.day, t.month}:
            return times  # not a numeric date, or the time came from elsewhere
    read = [t for _, t, _ in timed]
    numbers = [parts for _, _, parts in timed]

    def reading(day_first: bool) -> list | None:
        try:
            return [
                t.replace(month=b, day=a) if day_first else t.replace(month=a, day=b)
                for t, (a, b) in zip(read, numbers, strict=True)
            ]
        except ValueError:
            return None

    if any(a > 12 for a, _ in numbers):
        chosen = reading(day_first=True)
    elif any(b > 12 for _, b in numbers):
        chosen = reading(day_first=False)
    else:
        swapped = [t.replace(month=t.day, day=t.month) for t in read]
        as_read, other = _ordered(read), _ordered(swapped)
        span = max(read) - min(read)
        better = other and (not as_read or max(swapped) - min(swapped) < span)
        chosen = swapped if better else read
    if chosen is None:
        return times
    oriented = list(times)
    for (i, _, _), t in zip(timed, chosen, strict=True):
        oriented[i] = t
    return oriented


def in_one_order(times: list[datetime | None]) -> bool:
    """Times through the page in posting order, oldest or newest first, as posts' are; join
    dates go back and forth (a tenth of the steps may: an edited time, a moved post)."""
    known = [t for t in times if t is not None]
    steps = list(zip(known, known[1:], strict=False))
    back = sum(b < a for a, b in steps)
    forth = sum(b > a for a, b in steps)
    return min(back, forth) <= 0.1 * len(steps)


def _ordered(times: list) -> bool:
    return all(a <= b for a, b in zip(times, times[1:], strict=False))


def _number_date(text: str):
    m = _YEAR_FIRST.search(text)
    if m:
        return (int(m[1]), int(m[3]), int(m[4])), m.start(), m.end()
    m = _YEAR_LAST.search(text)
    if not m:
        short = _DOTTED_SHORT.search(text)
        if not short:
            return None
        year = _full_year("'" + short[3])
        return (year, int(short[2]), int(short[1])), short.start(), short.end()
    a, sep, b, year = int(m[1]), m[2], int(m[3]), int(m[4])
    if a > 12 or (sep == "." and b <= 12):
        return (year, b, a), m.start(), m.end()  # day first
    return (year, a, b), m.start(), m.end()


_MONTHS = {
    m: i
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}
# phpBB's default, by far the commonest, read by one pattern before the formats are tried:
# "Sun May 26, 2019 4:34 pm", with or without the weekday, seconds or am/pm.
_PHPBB_EN = lazy(
    r"^(?:[A-Za-z]{3},? )?([A-Za-z]{3})[a-z]* (\d{1,2}), (\d{4}),? (\d{1,2}):(\d{2})(?::(\d{2}))?"
    r" ?([ap]m)?$",
    re.I,
)


def _english(text: str, tz: tzinfo) -> datetime | None:
    m = _PHPBB_EN.match(text)
    if not m or m[1].lower() not in _MONTHS:
        return None
    hour = int(m[4])
    if m[7]:
        if hour > 12:
            return None
        hour = hour % 12 + (12 if m[7].lower() == "pm" else 0)
    try:
        return datetime(
            int(m[3]), _MONTHS[m[1].lower()], int(m[2]), hour, int(m[5]), int(m[6] or 0), tzinfo=tz
        )
    except ValueError:
        return None


_REL = lazy(
    r"^(today|yesterday|오늘|어제)(?:[, ]*(?:at )?(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(am|pm)?)?$",
    re.I,
)
_AGO = lazy(
    r"^(\d+|an?)\s*(초|분|시간|일|seconds?|secs?|minutes?|mins?|hours?|hrs?|days?)\s*(?:전|ago)$",
    re.I,
)
_AGO_UNITS = {"초": "seconds", "분": "minutes", "시간": "hours", "일": "days"} | {
    unit[0]: unit
    for unit in ("seconds", "minutes", "hours", "days")  # English, by first letter
}


def _now(tz: tzinfo, now: datetime | None) -> datetime:
    """The time a relative time counts from, asked for only when a text is one: most are not."""
    return (now or datetime.now(tz)).astimezone(tz)


def _relative(text: str, tz: tzinfo, now: datetime | None) -> datetime | None:
    if text in ("방금", "방금 전", "just now"):
        return _now(tz, now).replace(second=0, microsecond=0)
    m = _REL.match(text)
    if m:
        now = _now(tz, now)
        hour, minute = (int(m[2]), int(m[3])) if m[2] else (0, 0)
        if m[5]:
            hour = hour % 12 + (12 if m[5].lower() == "pm" else 0)
        day = now if m[1].lower() in ("today", "오늘") else now - timedelta(days=1)
        return day.replace(hour=hour, minute=minute, second=int(m[4] or 0), microsecond=0)
    m = _AGO.match(text)
    if m:
        now = _now(tz, now)
        word = m[2].lower()
        unit = _AGO_UNITS.get(word) or _AGO_UNITS[word[0]]
        count = 1 if m[1].lower() in ("a", "an") else int(m[1])
        return (now - timedelta(**{unit: count})).replace(second=0, microsecond=0)
    return None


# The languages whose words for "today" and "yesterday" a page may show before its clock.
RELATIVE_LANGUAGES = (*LANGUAGES, "ko", "ja", "zh")
# After the day's word: a comma or a short word or two ("um", "à", "a las", "at"), the clock
# (":", French "h"), a half of the day, German's "Uhr".
_AFTER_DAY_WORD = lazy(
    r"^[,\s]*(?:[^\W\d_]{1,5}\.?\s*){0,2}(\d{1,2})[:h](\d{2})(?::(\d{2}))?"
    r"\s*(?:([ap])\.?m\.?)?(?:\s*uhr)?$",
    re.I,
)


@cache
def relative_days() -> dict[str, int]:
    """The words of RELATIVE_LANGUAGES for today, yesterday and the day before, from the Unicode
    CLDR (through Babel): "heute" 0, "gestern" -1, "aujourd'hui" 0, "ayer" -1, "昨天" -1, each
    lowercase with a plain apostrophe. Days to come are no post's."""
    from babel import localedata  # the CLDR: loaded only when a line starts with such a word

    words: dict[str, int] = {}
    for language in RELATIVE_LANGUAGES:
        for offset, word in localedata.load(language)["date_fields"]["day"]["relative"].items():
            if offset <= 0:
                words.setdefault(word.lower().replace("\u2019", "'"), offset)
    return dict(sorted(words.items(), key=lambda item: -len(item[0])))  # "vorgestern" first


@cache
def _day_words() -> tuple[str, ...]:
    return tuple(relative_days())


def _relative_day(text: str, tz: tzinfo, now: datetime | None) -> datetime | None:
    """ "Heute um 10:58 Uhr", "Hier à 13h16", "Ayer, 22:10", "昨天 下午7:40": a day named
    relative to today in a page language, then its clock."""
    lowered = text.lower().replace("\u2019", "'")
    if not lowered.startswith(_day_words()):
        return None  # most lines start with no such word: one test says so
    for word, offset in relative_days().items():
        if not lowered.startswith(word):
            continue
        rest = text[len(word) :]
        clock = _AFTER_DAY_WORD.match(rest)
        if not clock or (rest[:1].isalpha() and word[-1:].isalpha()):
            return None  # no clock, or the word is only the start of another ("hieronder")
        hour, minute, second = int(clock[1]), int(clock[2]), int(clock[3] or 0)
        half = clock[4] or next((_HALF_DAY[w] for w in _HALF_DAY if w in rest), None)
        if half:
            if not 1 <= hour <= 12:
                return None
            hour = hour % 12 + (12 if half.lower() == "p" else 0)
        day = _now(tz, now) + timedelta(days=offset)
        try:
            return day.replace(hour=hour, minute=minute, second=second, microsecond=0)
        except ValueError:
            return None
    return None
