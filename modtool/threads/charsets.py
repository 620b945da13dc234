"""Page bytes to text as a browser reads them.

Browsers follow the WHATWG Encoding Standard (https://encoding.spec.whatwg.org/), whose labels
do not mean what Python's codecs of the same name do: "iso-8859-1", "latin1" and "us-ascii" mean
windows-1252, "euc-kr" means windows-949, "shift_jis" windows-31j, "gb2312" GBK (whose decoder
is gb18030's). Forums written in those encodings use the wider sets: Š, “ ” and … in a
"latin-1" page, 똠 in an "EUC-KR" one, ① and 髙 in a "Shift_JIS" one. `browser_codec` maps a
label to the Python codecs that read the bytes as a browser does; `decode_page` applies the
order browsers use: a byte-order mark, then the HTTP header's charset, then the page's <meta>,
then detection for a page that says nothing.
"""

from __future__ import annotations

import codecs
import re

from .patterns import lazy

_UTF16 = ("utf-16-le",)

# WHATWG label -> the Python codecs that read it as a browser does, tried in turn: the first
# that reads every byte wins; when none does, the first reads with U+FFFD for what it cannot.
# Big5: browsers read Big5-HKSCS with Microsoft's additions (€ at A3E1); Python splits them
# into cp950 and big5hkscs. EUC-JP: browsers' table has NEC's ① row, which euc_jp lacks.
_ENCODINGS: dict[tuple[str, ...], str] = {
    ("utf-8",): "unicode-1-1-utf-8 unicode11utf8 unicode20utf8 utf-8 utf8 x-unicode20utf8",
    ("cp866",): "866 cp866 csibm866 ibm866",
    ("iso8859-2",): "csisolatin2 iso-8859-2 iso-ir-101 iso8859-2 iso88592 iso_8859-2 "
    "iso_8859-2:1987 l2 latin2",
    ("iso8859-3",): "csisolatin3 iso-8859-3 iso-ir-109 iso8859-3 iso88593 iso_8859-3 "
    "iso_8859-3:1988 l3 latin3",
    ("iso8859-4",): "csisolatin4 iso-8859-4 iso-ir-110 iso8859-4 iso88594 iso_8859-4 "
    "iso_8859-4:1988 l4 latin4",
    ("iso8859-5",): "csisolatincyrillic cyrillic iso-8859-5 iso-ir-144 iso8859-5 iso88595 "
    "iso_8859-5 iso_8859-5:1988",
    ("iso8859-6",): "arabic asmo-708 csiso88596e csiso88596i csisolatinarabic ecma-114 "
    "iso-8859-6 iso-8859-6-e iso-8859-6-i iso-ir-127 iso8859-6 iso88596 iso_8859-6 "
    "iso_8859-6:1987",
    ("iso8859-7",): "csisolatingreek ecma-118 elot_928 greek greek8 iso-8859-7 iso-ir-126 "
    "iso8859-7 iso88597 iso_8859-7 iso_8859-7:1987 sun_eu_greek",
    ("iso8859-8",): "csiso88598e csisolatinhebrew hebrew iso-8859-8 iso-8859-8-e iso-ir-138 "
    "iso8859-8 iso88598 iso_8859-8 iso_8859-8:1988 visual csiso88598i iso-8859-8-i logical",
    ("iso8859-10",): "csisolatin6 iso-8859-10 iso-ir-157 iso8859-10 iso885910 l6 latin6",
    ("iso8859-13",): "iso-8859-13 iso8859-13 iso885913",
    ("iso8859-14",): "iso-8859-14 iso8859-14 iso885914",
    ("iso8859-15",): "csisolatin9 iso-8859-15 iso8859-15 iso885915 iso_8859-15 l9",
    ("iso8859-16",): "iso-8859-16",
    ("koi8-r",): "cskoi8r koi koi8 koi8-r koi8_r",
    ("koi8-u",): "koi8-ru koi8-u",
    ("mac-roman",): "csmacintosh mac macintosh x-mac-roman",
    ("cp874",): "dos-874 iso-8859-11 iso8859-11 iso885911 tis-620 windows-874",
    ("cp1250",): "cp1250 windows-1250 x-cp1250",
    ("cp1251",): "cp1251 windows-1251 x-cp1251",
    ("cp1252",): "ansi_x3.4-1968 ascii cp1252 cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 "
    "iso8859-1 iso88591 iso_8859-1 iso_8859-1:1987 l1 latin1 us-ascii windows-1252 x-cp1252",
    ("cp1253",): "cp1253 windows-1253 x-cp1253",
    ("cp1254",): "cp1254 csisolatin5 iso-8859-9 iso-ir-148 iso8859-9 iso88599 iso_8859-9 "
    "iso_8859-9:1989 l5 latin5 windows-1254 x-cp1254",
    ("cp1255",): "cp1255 windows-1255 x-cp1255",
    ("cp1256",): "cp1256 windows-1256 x-cp1256",
    ("cp1257",): "cp1257 windows-1257 x-cp1257",
    ("cp1258",): "cp1258 windows-1258 x-cp1258",
    ("mac-cyrillic",): "x-mac-cyrillic x-mac-ukrainian",
    ("gb18030",): "chinese csgb2312 csiso58gb231280 gb2312 gb_2312 gb_2312-80 gbk iso-ir-58 "
    "x-gbk gb18030",
    ("cp950", "big5hkscs"): "big5 big5-hkscs cn-big5 csbig5 x-x-big5",
    ("euc_jp", "euc_jis_2004"): "cseucpkdfmtjapanese euc-jp x-euc-jp",
    ("iso2022_jp",): "csiso2022jp iso-2022-jp",
    ("cp932",): "csshiftjis ms932 ms_kanji shift-jis shift_jis sjis windows-31j x-sjis",
    ("cp949",): "cseuckr csksc56011987 euc-kr iso-ir-149 korean ks_c_5601-1987 ks_c_5601-1989 "
    "ksc5601 ksc_5601 windows-949",
    ("utf-16-be",): "unicodefffe utf-16be",
    _UTF16: "csunicode iso-10646-ucs-2 ucs-2 unicode unicodefeff utf-16 utf-16le",
}
_LABELS = {label: codec for codec, labels in _ENCODINGS.items() for label in labels.split()}
# What detection names in Python's terms (charset_normalizer's answers), read as browsers would
# read the same label: a page that is EUC-KR to a detector is windows-949 to a browser.
_PYTHON_NAMES = {
    "ascii": "cp1252",
    "iso8859-1": "cp1252",
    "euc_kr": "cp949",
    "shift_jis": "cp932",
    "gb2312": "gb18030",
    "gbk": "gb18030",
}

_BOMS = ((b"\xef\xbb\xbf", ("utf-8",)), (b"\xff\xfe", _UTF16), (b"\xfe\xff", ("utf-16-be",)))
DECLARED = lazy(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_:.-]+)""", re.I)


def _c1(error: UnicodeDecodeError) -> tuple[str, int]:
    """windows-1252's five unassigned bytes, read as browsers read them: the C1 control of the
    same number (Python's cp1252 refuses them)."""
    return "".join(map(chr, error.object[error.start : error.end])), error.end


codecs.register_error("modtool-c1", _c1)


def browser_codec(label: str | bytes | None) -> tuple[str, ...] | None:
    """The Python codecs a browser's reading of this charset label corresponds to (tried in
    turn), or None for a label browsers do not know (they then look further)."""
    if not label:
        return None
    if isinstance(label, bytes):
        label = label.decode("ascii", "replace")
    return _LABELS.get(label.strip().strip("\"'").strip().lower())


def decode_page(data: bytes, label: str | None = None) -> str:
    """Page bytes to the text a browser shows: a byte-order mark wins over every label, then
    the HTTP header's `label`, then the page's <meta> charset, then detection. A page that says
    UTF-8 and is not, or says nothing, is detected (strict UTF-8 first: most pages are)."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(codec[0], errors="replace")
    chosen = browser_codec(label)
    if chosen is None:
        declared = DECLARED.search(data[:4096])
        chosen = browser_codec(declared[1]) if declared else None
        if chosen in (_UTF16, ("utf-16-be",)):
            chosen = ("utf-8",)  # a <meta> read as ASCII cannot be UTF-16: browsers say so
    if chosen is not None and chosen != ("utf-8",):
        return _decode(data, chosen)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    return _decode(data, _detected(data))


def _decode(data: bytes, chosen: tuple[str, ...]) -> str:
    for codec in chosen:
        try:
            return data.decode(codec)
        except UnicodeDecodeError:
            pass
    if chosen[0] == "cp1252":
        return data.decode("cp1252", errors="modtool-c1")
    try:  # labelled in a legacy set but written in UTF-8: the label is wrong
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode(chosen[0], errors="replace")


# The encodings detection chooses among: those browsers read that forums are written in.
_CANDIDATES = [
    "utf_8", "cp1252", "cp1250", "cp1251", "cp1253", "cp1254", "cp1255", "cp1256", "cp1257",
    "cp1258", "cp874", "koi8_r", "koi8_u", "cp949", "cp932", "euc_jp", "gb18030", "cp950",
]  # fmt: skip
_MARKUP = lazy(rb"<[^>]*>|\s+")
_SAMPLE = 500_000  # page bytes the detector reads at most: a long thread page reads as its start


def _detected(data: bytes) -> tuple[str, ...]:
    """The encoding of bytes that are not UTF-8, by charset_normalizer (imported here: a UTF-8
    page never needs it) on the page's text without its markup, in browsers' terms;
    windows-1252 (browsers' default) when it finds none, or when it reads the text as well as
    the detector's first choice: single-byte Latin sets (windows-1250 against windows-1252)
    are a guess on a short page, to a detector as to a browser."""
    from charset_normalizer import from_bytes

    if len(data) > _SAMPLE:  # cut at a tag, never inside a character of two bytes
        data = data[: max(data.rfind(b"<", 0, _SAMPLE), 1)]
    found = from_bytes(_MARKUP.sub(b" ", data), cp_isolation=_CANDIDATES)
    best = found.best()
    if best is None or "cp1252" in best.could_be_from_charset:
        return ("cp1252",)
    western = next((m for m in found if m.encoding == "cp1252"), None)
    if (
        western
        and western.chaos <= best.chaos + 0.01
        and western.coherence >= best.coherence - 0.01
    ):
        return ("cp1252",)
    name = codecs.lookup(best.encoding).name
    if name in ("big5", "cp950"):
        return _LABELS["big5"]
    return (_PYTHON_NAMES.get(name, name),)
