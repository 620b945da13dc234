"""Page character sets read as browsers read them (the WHATWG Encoding Standard): labels that
mean a wider set than Python's codec of the same name, a byte-order mark over every label, and
detection for pages that say nothing. Real bytes in each encoding, saved and fetched."""

from __future__ import annotations

import codecs
import subprocess
import sys

import httpx
import pytest
from typer.testing import CliRunner

from modtool.cli import app
from modtool.threads.charsets import _ENCODINGS, browser_codec, decode_page
from modtool.threads.fetch import fetch_thread, make_client
from modtool.threads.forum import parse_page
from modtool.threads.sources import read_source

from .forum_server import thread_page

URL = "https://forum.example.invalid/viewtopic.php?f=1&t=7"

# Names and texts with the characters the narrow codec of the label lacks
SARKA = (["Šárka", "Žofie", "Œdipe", "Zoë", "Dan"], ["“Hi” all", "it’s me", "€5 bet", "ok…", "x"])
KOREAN = (["똠방각하", "햏자", "똠이", "뛠이", "박민수"], ["안녕 똠", "투표", "그냥", "햏햏", "끝"])
JAPANESE = (["①番", "髙橋", "鈴木", "佐藤", "山田"], ["こんにちは①", "投票", "髙い", "はい", "終"])
CHINESE = (["张伟", "王芳", "朱镕基", "李娜", "刘洋"], ["大家好", "我投票", "镕", "是的", "结束"])
HONG_KONG = (["陳大文", "𡃁妹", "黃小明", "李娜", "劉洋"], ["大家好", "我投票", "𡃁", "係", "完"])
EUC_JP = (["①番", "鈴木", "佐藤", "山田", "Ｘ"], ["こんにちは①", "投票", "はい", "了解", "終"])
RUSSIAN = (["Иван", "Пётр", "Ольга", "Саша", "Дима"], ["Привет", "голосую", "да", "ну", "всё"])
TAIWAN = (["張偉", "王芳", "朱鎔基", "李娜", "劉洋"], ["大家好", "€5", "鎔", "是的", "結束"])


def _page(names: list[str], texts: list[str], meta: str | None = None) -> str:
    """A five-post phpBB page by `names`, post i saying texts[i] and voting for the next name."""
    page = thread_page(0, 5)
    for i in range(5):
        page = page.replace(f"VOTE: player{i}<", f"VOTE: {names[i]}<")
        page = page.replace(f">player{i}<", f">{names[i]}<")
        page = page.replace(f"post {i}<br>", f"{texts[i]}<br>")
    if meta:
        meta_tag = f'<meta http-equiv="Content-Type" content="text/html; charset={meta}">'
        page = page.replace("<head>", "<head>" + meta_tag)
    return page


def _read(posts) -> tuple[list[str], list[str]]:
    return [p.author for p in posts], [p.text.split(" VOTE")[0] for p in posts]


def _fetched(body: bytes, content_type: str, url: str = URL):
    client = make_client(
        httpx.MockTransport(
            lambda r: httpx.Response(200, content=body, headers={"Content-Type": content_type})
        )
    )
    return fetch_thread(url, client, delay=0, sleep=lambda s: None)


# (what the page is written in, the label it carries, the names and texts)
LABELLED = [
    ("cp1252", "ISO-8859-1", SARKA),
    ("cp1252", "latin1", SARKA),
    ("cp1252", "us-ascii", SARKA),
    ("cp949", "EUC-KR", KOREAN),
    ("cp949", "ks_c_5601-1987", KOREAN),
    ("cp932", "Shift_JIS", JAPANESE),
    ("gbk", "GB2312", CHINESE),
    ("gb18030", "GBK", CHINESE),
    ("big5hkscs", "Big5", HONG_KONG),
    ("cp950", "big5", TAIWAN),
    ("euc_jis_2004", "EUC-JP", EUC_JP),
    ("koi8_r", "koi8-r", RUSSIAN),
    ("cp1251", "windows-1251", RUSSIAN),
]


@pytest.mark.parametrize(("codec", "label", "written"), LABELLED)
def test_a_fetched_pages_header_label_is_read_as_a_browser_reads_it(codec, label, written):
    body = _page(*written).encode(codec)
    assert _read(_fetched(body, f"text/html; charset={label}")) == written


@pytest.mark.parametrize(("codec", "label", "written"), LABELLED)
def test_a_meta_label_is_read_as_a_browser_reads_it_fetched_or_saved(
    codec, label, written, tmp_path
):
    body = _page(*written, meta=label).encode(codec)
    assert _read(_fetched(body, "text/html")) == written
    saved = tmp_path / "page.html"
    saved.write_bytes(body)
    assert _read(read_source(str(saved))) == written


def test_two_players_a_narrow_codec_would_make_one_stay_two():
    """똠이 and 뛠이 differ in a syllable outside EUC-KR proper: read with Python's euc_kr both
    became "\\ufffdc이", one player, whose votes a count merged."""
    body = _page(*KOREAN).encode("cp949")
    posts = _fetched(body, "text/html; charset=euc-kr")
    assert [p.author for p in posts][2:4] == ["똠이", "뛠이"]
    assert len({p.author for p in posts}) == 5


# A thread's worth of text in each language: what detection of an unlabelled page needs
PROSE = {
    "cp949": "오늘은 투표하는 날입니다. 저는 시민이라고 생각합니다. 어제 발언이 수상합니다. ",
    "cp932": "今日は投票の日です。私は村人だと思います。昨日の発言を見ると、彼は怪しいです。",
    "gbk": "今天是投票的日子。大家好，我觉得他是狼人。昨天的发言很可疑，请大家认真考虑。",
    "cp950": "今天是投票的日子。大家好，我覺得他是狼人。昨天的發言很可疑，請大家認真考慮。",
    "cp1251": "Сегодня день голосования. Я думаю, что он мафия. Вчерашние слова подозрительны. ",
    "koi8_r": "Сегодня день голосования. Я думаю, что он мафия. Вчерашние слова подозрительны. ",
    "cp1252": "Aujourd’hui c’est le vote… Œuvre, élève, garçon, „Straße“ – je vote pour Zoë. ",
}


@pytest.mark.parametrize("codec", sorted(PROSE))
def test_a_page_with_no_label_is_detected(codec, tmp_path):
    names = ["Ann", "Bo", "Cy", "Dee", "Ed"]
    written = (names, [(PROSE[codec] * 3).strip()] * 5)
    body = _page(*written).encode(codec)
    assert _read(_fetched(body, "text/html")) == written
    saved = tmp_path / "page.html"
    saved.write_bytes(body)
    assert _read(read_source(str(saved))) == written


def test_a_long_page_is_detected_from_its_start():
    names = ["Ann", "Bo", "Cy", "Dee", "Ed"]
    written = (names, [(PROSE["cp949"] * 2000).strip()] * 5)
    body = _page(*written).encode("cp949")
    assert len(body) > 600_000  # past what the detector reads
    assert _read(parse_page(body).posts) == written


def test_a_western_page_with_no_label_is_windows_1252():
    """Browsers' default; a detector torn between windows-1250 and -1252 on a few names."""
    assert _read(parse_page(_page(*SARKA).encode("cp1252")).posts) == SARKA


def test_a_byte_order_mark_wins_over_the_label():
    body = "\ufeff".encode() + _page(*KOREAN, meta="euc-kr").encode()
    assert _read(_fetched(body, "text/html; charset=iso-8859-1")) == KOREAN
    body = _page(*JAPANESE).encode("utf-16")  # with its mark
    assert _read(_fetched(body, "text/html; charset=shift_jis")) == JAPANESE


def test_a_json_answer_with_a_byte_order_mark_is_read_as_json(shared):
    answer = (
        shared / "fixtures" / "pages" / "discourse-json" / "discourse_api-try-sandbox-topic-57.json"
    ).read_bytes()
    plain = _fetched(answer, "application/json; charset=utf-8", "https://d.example.invalid/t/57")
    marked = _fetched(
        b"\xef\xbb\xbf" + answer,
        "application/json; charset=utf-8",
        "https://d.example.invalid/t/57",
    )
    assert [p.to_json() for p in marked] == [p.to_json() for p in plain]
    assert [p.author for p in marked][:1] == ["samsaffron"]


def test_a_page_labelled_in_a_legacy_set_but_written_in_utf8_is_read_as_utf8():
    body = _page(*KOREAN).encode()
    assert _read(_fetched(body, "text/html; charset=euc-kr")) == KOREAN


def test_a_page_labelled_utf8_but_written_otherwise_is_detected():
    body = _page(*SARKA, meta="utf-8").encode("cp1252")
    assert _read(_fetched(body, "text/html; charset=utf-8")) == SARKA


@pytest.mark.parametrize(
    ("label", "codec"),
    [
        ("ISO-8859-1", "cp1252"),
        (" Latin1 ", "cp1252"),
        ('"us-ascii"', "cp1252"),
        ("euc-kr", "cp949"),
        ("Shift_JIS", "cp932"),
        ("gb2312", "gb18030"),
        ("gbk", "gb18030"),
        ("big5", "cp950"),
        ("euc-jp", "euc_jp"),
        ("koi8-u", "koi8-u"),
        ("iso-8859-9", "cp1254"),
        ("tis-620", "cp874"),
        ("iso-8859-2", "iso8859-2"),
        ("utf-16", "utf-16-le"),
        (b"UTF8", "utf-8"),
    ],
)
def test_labels_mean_what_they_mean_to_a_browser(label, codec):
    assert browser_codec(label)[0] == codec


def test_unknown_labels_are_none_and_every_codec_exists():
    assert browser_codec("x-no-such-set") is None and browser_codec("") is None
    for chosen in _ENCODINGS:
        for codec in chosen:
            codecs.lookup(codec)


def test_windows_1252s_unassigned_bytes_read_as_browsers_read_them():
    assert decode_page(b"a\x81b\x8dc", "iso-8859-1") == "a\x81b\x8dc"


def test_a_utf8_page_never_loads_the_detector():
    script = (
        "import sys\n"
        "from modtool.threads.charsets import decode_page\n"
        "from modtool.threads.forum import parse_page\n"
        "decode_page('<p>Šárka</p>'.encode(), None)\n"
        "decode_page('<p>Šárka</p>'.encode(), 'utf-8')\n"
        "assert 'charset_normalizer' not in sys.modules\n"
        "assert 'bs4' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True)


def test_init_and_count_keep_players_apart_that_a_narrow_codec_merged(tmp_path):
    """The probe's case end to end: a saved EUC-KR page in windows-949 bytes, where 똠이 and
    뛠이 once became one player with both their votes."""
    page = tmp_path / "thread.html"
    page.write_bytes(_page(*KOREAN, meta="EUC-KR").encode("cp949"))
    folder = tmp_path / "game"
    made = CliRunner().invoke(app, ["init", str(folder), "--thread", str(page)])
    assert made.exit_code == 0, made.output
    setup = (folder / "game.toml").read_text("utf-8")
    assert 'name = "똠이"' in setup and 'name = "뛠이"' in setup and "\ufffd" not in setup
    counted = CliRunner().invoke(app, ["count", str(folder)])
    assert counted.exit_code == 0, counted.output
    wagons = {line.split()[0]: line for line in counted.stdout.splitlines() if line[:1] in "똠뛠"}
    assert "햏자" in wagons["똠이"] and "똠이" in wagons["뛠이"]
