"""Every engine on real saved pages (../shared/fixtures/pages, see its MANIFEST), and the
Korean-board and DebateArt adapters on synthetic pages (tests/fixtures/synthetic/README.md)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import lxml.html
import pytest

from modtool.errors import SourceError
from modtool.threads.forum import decode_page, detect_engine, parse_page
from modtool.threads.sources import read_source
from modtool.threads.times import parse_displayed, zone

SYNTHETIC = Path(__file__).parent / "fixtures" / "synthetic"

# file, engine, posts, edited, then (id, number, author, time, opening, ending) of the
# first and of the last post; times in the zone the page itself states ("All times are UTC-06:00")
CASES = [
    (
        "phpbb3/nettally-ilovephilosophy-biological-will.html",
        "phpbb",
        25,
        2,
        (
            "2729870",
            25,
            "Jakob",
            "2019-05-26T16:34:00+01:00",
            "Good lecture.",
            "Dostoyevskian psychology.",
        ),
        ("2730442", 49, "promethean75", "2019-06-01T19:20:00+01:00", "Ohhhh no", "no you don't."),
    ),
    (
        "phpbb3/dostips-stop-cmd-empty-line-httrack.html",
        "phpbb",
        15,
        4,
        (
            "57035",
            1,
            "flywire",
            "2018-06-02T05:41:00-06:00",
            "I process thousands",
            "lines in the shell?",
        ),
        ("57072", 15, "pieh-ejdsch", "2018-06-04T10:55:00-06:00", "I once tinkered", "what it is."),
    ),
    (
        "vbulletin3/nettally-animesuki-hibike-p152.html",
        "vbulletin",
        20,
        3,
        (
            "5768670",
            3021,
            "Shirohige",
            "2016-02-01T02:21:00-05:00",
            "Let me reword",
            "ignorant. X2",
        ),
        (
            "5778211",
            3040,
            "Kamieichi",
            "2016-02-13T10:38:00-05:00",
            "Voice acting",
            "for the movie.",
        ),
    ),
    (
        "vbulletin4/nettally-militarytimes-bob-dorr.html",
        "vbulletin",
        10,
        0,
        (
            "365266",
            1,
            "Rainmaker",
            "2016-06-15T15:03:00+00:00",
            "http://www.airforcetimes.com",
            "RIP Mr. Dorr.",
        ),
        (
            "367742",
            10,
            "sandsjames",
            "2016-09-19T14:38:00+00:00",
            "I'm waiting",
            "quite a few times.",
        ),
    ),
    (
        "vbulletin5/nettally-fandompost-isekai-quartet.html",
        "vbulletin",
        15,
        0,
        (
            "727744",
            1,
            "Buckeye",
            "2019-04-09T15:37:23+00:00",
            "異世界かるてっと",
            "refer to this thread.",
        ),
        (
            "731647",
            15,
            "Buckeye",
            "2019-05-29T02:02:19+00:00",
            "Episode 8",
            "from different worlds.",
        ),
    ),
    (
        "xenforo1/nettally-sv-renascence-homura-quest-p54.html",
        "xenforo",
        25,
        1,
        (
            "2146286",
            1326,
            "TheBleachDoctor",
            "2014-10-30T22:48:00+00:00",
            "Rolling.",
            "49 49 11 11",
        ),
        (
            "2146619",
            1350,
            "Entropy Judge",
            "2014-10-30T23:52:00+00:00",
            "I'm mildly opposed",
            "suspect we will).",
        ),
    ),
    (
        "xenforo2/nettally-xenforo-community-dark-theme.html",
        "xenforo",
        8,
        0,
        (
            "114210",
            1,
            "dieketzer",
            "2010-11-21T10:51:58+00:00",
            "it would be great",
            "dark styles on.",
        ),
        (
            "1358710",
            8,
            "sub_ubi",
            "2019-06-26T10:25:09+01:00",
            "i want this added",
            "xenforo.com itself",
        ),
    ),
    (
        "smf2/smf-scraper-metin2hungary-topic-2018-04-25.html",
        "smf",
        25,
        9,
        (
            "487697",
            0,
            "empo444",
            "2011-04-24T22:37:00+00:00",
            "Tisztelt Játékosok!",
            "Tisztelettel: Empo444",
        ),
        (
            "532618",
            24,
            "NETaLAN",
            "2011-07-03T11:17:05+00:00",
            "ércekkel kereskedsz",
            "vagy farmolsz^^",
        ),
    ),
    (
        "nodebb/nettally-community-nodebb-chat-design.html",
        "nodebb",
        13,
        4,
        (
            "73812",
            1,
            "youhosi",
            "2019-03-24T19:54:11.505000+00:00",
            "What do you think",
            "on the subject!",
        ),
        (
            "74301",
            13,
            "tonylee123321",
            "2019-05-06T06:07:20.657000+00:00",
            "It's much better",
            "Great work",
        ),
    ),
    (
        "discourse-html/important-links-ionic-forum-capacitor-apk-crawler.html",
        "discourse",
        20,
        0,
        (
            "1",
            1,
            "SwapnilP133",
            "2019-11-18T06:49:00+00:00",
            "I recently came across",
            "cordova build ios",
        ),
        (
            "22",
            22,
            "obinnae",
            "2020-12-28T01:57:12+00:00",
            "In case someone",
            "assembleDebug && cd ..",
        ),
    ),
    (
        "discourse-json/discourse_api-try-sandbox-topic-57.json",
        "discourse",
        4,
        1,
        (
            "83",
            1,
            "samsaffron",
            "2013-02-04T15:26:26.278000-05:00",
            "Welcome! Try is a sandbox",
            "discourse/discourse",
        ),
        (
            "226",
            14,
            "splattne",
            "2013-02-05T12:14:17.364000-05:00",
            "What? So I have",
            "post this every day?",
        ),
    ),
]


def _page(shared, name: str) -> str:
    return decode_page((shared / "fixtures" / "pages" / name).read_bytes())


@pytest.mark.parametrize(
    ("name", "engine", "count", "edited", "first", "last"),
    CASES,
    ids=[c[0].split("/")[0] for c in CASES],
)
def test_engine_reads_every_post(shared, name, engine, count, edited, first, last):
    page = _page(shared, name)
    if not name.endswith(".json"):
        assert detect_engine(lxml.html.document_fromstring(page)) == engine
    posts = parse_page(page, where=name).posts
    assert len(posts) == count  # the MANIFEST's post count for the page
    assert sum(p.edited for p in posts) == edited
    for post, (post_id, number, author, time, opening, ending) in (
        (posts[0], first),
        (posts[-1], last),
    ):
        assert (post.post_id, post.number, post.author) == (post_id, number, author)
        assert post.time.isoformat() == time
        assert post.text.startswith(opening) and post.text.endswith(ending)


def test_quotes_never_reach_the_text(shared):
    """vBulletin 3's "Quote: Originally Posted by" boxes and XenForo's bbCodeQuote blocks."""
    vb3 = parse_page(_page(shared, "vbulletin3/nettally-animesuki-hibike-p152.html")).posts
    assert not any("Originally Posted by" in p.text for p in vb3)
    xf1 = parse_page(_page(shared, "xenforo1/nettally-sv-renascence-homura-quest-p54.html")).posts
    assert not any(" said: ↑" in p.text for p in xf1)


def test_xenforo1_post_time_is_its_permalinks_not_its_last_edit(shared):
    """An edited XenForo 1 post shows "Last edited: Dec 4, 2014" (.editDate) before its own
    date, the permalink's "Oct 30, 2014 at 11:35 PM"."""
    xf1 = parse_page(_page(shared, "xenforo1/nettally-sv-renascence-homura-quest-p54.html")).posts
    edited = next(p for p in xf1 if p.post_id == "2146541")
    assert edited.time.isoformat() == "2014-10-30T23:35:00+00:00"
    times = [p.time for p in xf1]
    assert times == sorted(times)


XF2_POST = (
    '<article class="message message--post" data-author="{name}" data-content="post-{n}">'
    '<div class="message-attribution">{when}</div>'
    '<div class="message-body"><div class="bbWrapper">{text}</div></div></article>'
)


def _xf2_page(times) -> str:
    posts = "".join(
        XF2_POST.format(
            n=n,
            name=name,
            when=f'<time class="u-dt" datetime="{t}">{t}</time>' if t else "",
            text=f"post {n} by {name}",
        )
        for n, (name, t) in enumerate(zip(("alice", "bob", "carol"), times, strict=True), 1)
    )
    return f'<html id="XF"><body>{posts}</body></html>'


def test_an_adapter_says_which_posts_show_it_no_time(tmp_path):
    """A post whose time the adapter cannot read keeps no time, and the page says so, on
    stderr as the generic reader's doubts are: no time is dropped without a word."""
    from typer.testing import CliRunner

    from modtool.cli import app

    page = _xf2_page(["2020-04-21T10:58:00+02:00", "", "2020-04-21T11:13:00+02:00"])
    read = parse_page(page)
    assert [p.time is None for p in read.posts] == [False, True, False]
    assert read.doubts.unsure == ("1 of 3 posts show no time",)
    assert read.doubts.authors
    sure = parse_page(_xf2_page(["2020-04-21T10:58:00+02:00"] * 3))
    assert sure.doubts is None
    saved = tmp_path / "thread.html"
    saved.write_text(page)
    result = CliRunner().invoke(app, ["posts", str(saved)])
    assert result.exit_code == 0, result.output
    assert [line for line in result.stderr.splitlines() if line.startswith("Warning:")] == [
        f"Warning: {saved}: the xenforo adapter was unsure of this page (1 of 3 posts show no "
        "time); check with modtool posts --explain"
    ]


@pytest.mark.parametrize(
    ("times", "expected"),
    [
        (["2020-04-10T00:00:00", "2020-04-15T00:00:00"], True),  # "10. April 2020" alone
        (["2020-04-10T00:00:00", "2020-04-15T07:38:00"], False),
        (["2020-04-10T00:00:00", None], False),  # one date is no page's habit
        ([], False),
    ],
)
def test_dates_only(times, expected):
    from modtool.threads.forum import dates_only

    assert dates_only([datetime.fromisoformat(t) if t else None for t in times]) is expected


def test_an_adapter_says_when_it_read_dates_without_their_clock():
    page = parse_page(_xf2_page(["2020-04-10T00:00:00+00:00", "2020-04-15T00:00:00+00:00", ""]))
    assert page.doubts.unsure == (
        "1 of 3 posts show no time",
        "all 3 posts' times are midnight: dates shown without a clock?",
    )


def test_generic_reader_on_known_engines_with_adapters_off(shared, capsys):
    """The generic reader must find the same posts (author, time, text) as the adapters."""
    total = right = 0
    lines = []
    for name, *_ in CASES:
        if name.endswith(".json"):
            continue
        page = _page(shared, name)
        expected = parse_page(page).posts
        found = parse_page(page, engine="generic").posts
        keys = {(p.author, p.time, p.text) for p in found}
        hits = sum((p.author, p.time, p.text) in keys for p in expected)
        total, right = total + len(expected), right + hits
        lines.append(f"  {name.split('/')[0]}: {hits}/{len(expected)}")
    with capsys.disabled():
        print(f"\ngeneric reader, adapters off: {right}/{total} posts exactly right")
        print("\n".join(lines))
    assert right / total >= 0.95


def test_discourse_json_asks_for_the_rest_of_a_long_topic():
    topic = {
        "id": 7,
        "post_stream": {
            "posts": [
                {
                    "id": n,
                    "post_number": n - 100,
                    "username": "u",
                    "cooked": "<p>x</p>",
                    "created_at": "2026-11-29T10:00:00Z",
                    "topic_id": 7,
                    "topic_slug": "game",
                }
                for n in range(101, 121)
            ],
            "stream": list(range(101, 166)),
        },
    }
    page = parse_page(json.dumps(topic), url="https://forum.example.invalid/t/game/7.json")
    assert page.page_urls[0] == "https://forum.example.invalid/t/game/7.json"
    assert len(page.page_urls) == 1 + 3  # 45 more posts, 20 ids a request
    assert page.page_urls[1].startswith(
        "https://forum.example.invalid/t/7/posts.json?post_ids%5B%5D=121"
    )
    assert page.posts[0].url == "https://forum.example.invalid/t/game/7/1"


def test_nodebb_api_json():
    topic = {
        "tid": 5,
        "posts": [
            {
                "pid": 9,
                "index": 0,
                "content": "<p>VOTE: bob</p>",
                "timestamp": 1764410400000,
                "user": {"username": "alice"},
                "edited": 0,
            },
        ],
        "pagination": {"pageCount": 2, "currentPage": 1},
    }
    page = parse_page(json.dumps(topic), url="https://nodebb.example.invalid/api/topic/5/game")
    [post] = page.posts
    assert (post.post_id, post.number, post.author, post.text) == ("9", 1, "alice", "VOTE: bob")
    assert post.time.isoformat() == "2025-11-29T10:00:00+00:00"
    assert page.page_urls == (
        "https://nodebb.example.invalid/api/topic/5/game?page=1",
        "https://nodebb.example.invalid/api/topic/5/game?page=2",
    )


def _synthetic(name: str, url: str, tz: str = "UTC"):
    return parse_page((SYNTHETIC / name).read_text("utf-8"), url=url, tz=zone(tz))


def test_debateart_topic_page():
    page = _synthetic(
        "debateart-topic-page2.html", "https://www.debateart.com/forum/topics/4321?page=2"
    )
    assert [(p.number, p.author) for p in page.posts] == [(26, "Banana"), (27, "Thoth")]
    assert page.posts[0].time.isoformat() == "2026-11-02T17:14:00+00:00"
    assert page.posts[1].text == "Noted."  # the quoted VTL is not Thoth's text
    assert page.page_url == "https://www.debateart.com/forum/topics/4321?page=2"
    # The pager shows pages 1-3; the topic's 80 posts make 4 pages of 25.
    assert page.page_urls[-1] == "https://www.debateart.com/forum/topics/4321?page=4"
    assert len(page.page_urls) == 4


def test_smf21_topic_page():
    """SMF 2.1's markup: an empty "online" link before the member's, "#N" in span.page_number,
    an always-present span.modified that has text only on edited posts, a code header."""
    page = _synthetic(
        "smf21-topic-page2.html", "https://smf.example.invalid/index.php?topic=812.20"
    )
    assert [(p.post_id, p.number, p.author, p.edited) for p in page.posts] == [
        ("9120", 21, "Marigold", False),
        ("9124", 22, "Quill", True),
    ]
    assert page.posts[1].time.isoformat() == "2026-11-28T21:40:47+00:00"
    assert page.posts[1].text == "Vote: Sable Her claim does not add up. vote: nobody"
    assert len(page.page_urls) == 3
    assert page.page_url == "https://smf.example.invalid/index.php?topic=812.20"


def test_gnuboard_post_and_comments_in_seoul_time():
    page = _synthetic(
        "gnuboard5-view.html", "https://board.example.invalid/bbs/board.php?wr_id=1", "Asia/Seoul"
    )
    # Comments show no number: the thread numbers them once its pages are in order.
    assert [(p.post_id, p.number, p.author) for p in page.posts] == [
        ("post", 0, "사회자"),
        ("c501", None, "바나나"),
        ("c502", None, "코하이"),
    ]
    assert page.posts[0].time.isoformat() == "2026-11-29T13:05:00+09:00"  # "26-11-29 13:05"
    assert page.posts[1].text == "투표: 코하이"


def test_rhymix_document_and_comments():
    page = _synthetic(
        "rhymix-two-comment-pages/cpage-1.html",
        "https://xe.example.invalid/board/1001",
        "Asia/Seoul",
    )
    assert [(p.post_id, p.author, p.text) for p in page.posts] == [
        ("d1001", "진행자", "낮 1이 시작되었습니다."),
        ("c2001", "바나나", "투표: 코하이"),
        ("c2002", "코하이", "투표 취소"),
    ]
    assert page.posts[0].time.isoformat() == "2026-11-29T09:00:00+09:00"  # "2026.11.29 09:00"


# Gnuboard 5.0's basic skin (skin/board/basic/view.skin.php, view_comment.skin.php): the
# post's date in an unclassed <strong>, each comment's text in a bare <p>.
GNUBOARD_50 = """<html><head><meta charset="utf-8"></head><body>
<article id="bo_v"><section id="bo_v_info"><h2>페이지 정보</h2>
작성자 <strong><span class="sv_wrap"><a href="#" class="sv_member">사회자</a></span></strong>
<span class="sound_only">작성일</span><strong>26-11-29 13:05</strong> 조회<strong>7회</strong>
</section><section id="bo_v_atc"><div id="bo_v_con">밤이 되었습니다.</div></section>
<section id="bo_vc"><h2>댓글목록</h2><article id="c_77"><header><h1>바나나님의 댓글</h1>
<span class="sv_wrap"><a href="#" class="sv_member">바나나</a></span> 작성일
<span class="bo_vc_hdinfo"><time datetime="2026-11-29T13:20:00+09:00">26-11-29 13:20</time></span>
</header><p>투표: 코하이</p>
<textarea id="save_comment_77" style="display:none">투표: 코하이</textarea>
</article></section></article></body></html>"""


def test_gnuboard_50_basic_skin():
    page = parse_page(
        GNUBOARD_50, "https://board.example.invalid/bbs/board.php?wr_id=3", tz=zone("Asia/Seoul")
    )
    assert [(p.post_id, p.author, p.time.isoformat(), p.text) for p in page.posts] == [
        ("post", "사회자", "2026-11-29T13:05:00+09:00", "밤이 되었습니다."),
        ("c77", "바나나", "2026-11-29T13:20:00+09:00", "투표: 코하이"),
    ]


# A phpBB-like style (as hosted forums such as Forumotion write it): no <time>, no "»", the
# date after "on" in the author line, and /u12 profile links.
PHPBB_LIKE = """<html><body>
<div class="post row1" id="p123"><div class="postbody">
<p class="author"><a href="/t5-mafia#123">post</a> by <a href="/u12"><strong>alice</strong></a>
 on Sat 27 Nov 2026 - 20:00</p>
<div class="content"><div>Vote: bob</div></div>
</div></div>
<div class="post row2" id="p124"><div class="postbody">
<p class="author"><a href="/t5-mafia#124">post</a> by <a href="/u13"><strong>bob</strong></a>
 on Sat 27 Nov 2026 - 20:14</p>
<div class="content"><div>Why me?</div></div>
</div></div>
</body></html>"""


@pytest.mark.parametrize("engine", [None, "generic"])
def test_a_date_written_after_on_in_the_author_line(engine):
    page = parse_page(PHPBB_LIKE, "https://games.example.invalid/t5-mafia", engine=engine)
    assert [(p.author, p.time.isoformat(), p.text) for p in page.posts] == [
        ("alice", "2026-11-27T20:00:00+00:00", "Vote: bob"),
        ("bob", "2026-11-27T20:14:00+00:00", "Why me?"),
    ]


def test_xe_comment_pages_number_on_across_pages():
    """Every XE comment page shows the document again and no comment numbers."""
    folder = SYNTHETIC / "rhymix-two-comment-pages"
    posts = read_source(str(folder), zone("Asia/Seoul"), engine="xe")
    assert [(p.post_id, p.number, p.text) for p in posts] == [
        ("d1001", 0, "낮 1이 시작되었습니다."),
        ("c2001", 1, "투표: 코하이"),
        ("c2002", 2, "투표 취소"),
        ("c2003", 3, "투표: 진행자"),
    ]


@pytest.mark.parametrize(
    ("shown", "expected"),
    [
        ("26-11-29 13:05", "2026-11-29T13:05:00+09:00"),
        ("2026.11.29", "2026-11-29T00:00:00+09:00"),
        ("3시간 전", "2026-11-29T09:00:00+09:00"),
        ("어제 23:40", "2026-11-28T23:40:00+09:00"),
        ("어제", "2026-11-28T00:00:00+09:00"),
        ("2 분 전", "2026-11-29T11:58:00+09:00"),  # fmkorea (XE) writes a space before 분
        ("30초 전", "2026-11-29T11:59:00+09:00"),
        ("2017.11.17 00:13", "2017-11-17T00:13:00+09:00"),  # XE's default comment date
        ("5 minutes ago", "2026-11-29T11:55:00+09:00"),
        ("an hour ago", "2026-11-29T11:00:00+09:00"),
        ("2 days ago", "2026-11-27T12:00:00+09:00"),
        ("Today at 10:22:01 am", "2026-11-29T10:22:01+09:00"),  # SMF shows seconds
        ("Yesterday at 11:05:00 pm", "2026-11-28T23:05:00+09:00"),
    ],
)
def test_korean_date_forms(shown, expected):
    seoul = zone("Asia/Seoul")
    now = datetime(2026, 11, 29, 12, 0, tzinfo=seoul)
    assert parse_displayed(shown, seoul, now).isoformat() == expected


def test_generic_reader_on_engines_it_has_no_adapter_for():
    """Pages shaped on engines with no adapter (tests/fixtures/synthetic/unseen/README.md):
    every post's author, time and own text, exactly."""
    folder = SYNTHETIC / "unseen"
    expected = json.loads((folder / "expected.json").read_text("utf-8"))
    right = total = 0
    for name, rows in expected.items():
        html = (folder / name).read_text("utf-8")
        # No adapter claims them: detection falls through to the generic reader.
        assert detect_engine(lxml.html.document_fromstring(html)) == "generic", name
        posts = parse_page(html, "https://forum.example.invalid/t/1").posts
        got = {(p.author, p.time.isoformat() if p.time else None, p.text) for p in posts}
        right += sum(tuple(row) in got for row in rows)
        total += len(rows)
    print(f"\ngeneric reader on engines with no adapter: {right}/{total} posts exactly right")
    assert right == total


@pytest.mark.parametrize(
    ("url", "link", "second"),
    [
        (  # Invision, bbPress
            "https://f.example.invalid/topic/221-mafia/",
            "/topic/221-mafia/page/2/",
            "https://f.example.invalid/topic/221-mafia/page/2/",
        ),
        (  # WoltLab
            "https://f.example.invalid/thread/77/",
            "/thread/77/?pageNo=2",
            "https://f.example.invalid/thread/77/?pageNo=2",
        ),
        (
            "https://f.example.invalid/threads/game.9/",
            "/threads/game.9/page-2",
            "https://f.example.invalid/threads/game.9/page-2",
        ),
    ],
)
def test_generic_page_links(url, link, second):
    html = (SYNTHETIC / "unknown-engine.html").read_text("utf-8")
    html = html.replace('<a href="/t/77-day-1?page=2">2</a>', f'<a href="{link}">2</a>')
    page = parse_page(html, url, engine="generic")
    assert page.page_urls[-1] == second
    assert len(page.page_urls) == 2


def test_generic_reader_takes_the_name_after_a_byline():
    """phpBB's print view with its adapter off: "by <strong>Name</strong>" names Name."""
    html = (SYNTHETIC / "phpbb-print-view.html").read_text("utf-8")
    page = parse_page(html, "https://forum.example.invalid/viewtopic.php?t=9", engine="generic")
    assert [(p.author, p.text) for p in page.posts] == [
        ("crazypianist1116", "Vote: Sundy Sundy? More like scummy."),
        ("Enigma", "Votecount coming soon."),
    ]


def test_generic_reader_groups_classless_posts_by_their_numbered_ids():
    """Gnuboard's comments (article#c_501, article#c_502) carry no class, with its adapter off."""
    html = (SYNTHETIC / "gnuboard5-view.html").read_text("utf-8")
    page = parse_page(html, "https://board.example.invalid/bbs/board.php?wr_id=1", engine="generic")
    assert [(p.post_id, p.author, p.text) for p in page.posts] == [
        ("501", "바나나", "투표: 코하이"),
        ("502", "코하이", "저는 시민입니다. 바나나에게 투표합니다"),
    ]


def test_unknown_engine_falls_back_to_the_generic_reader():
    page = _synthetic("unknown-engine.html", "https://board.example.invalid/t/77-day-1")
    assert [(p.post_id, p.author, p.text) for p in page.posts] == [
        ("5001", "alice", "Day 1 begins. Vote with Vote: name."),
        ("5002", "bob", "Carol has been quiet. Vote: carol"),
        ("5003", "carol", "I was asleep! Vote: bob"),
    ]
    assert page.posts[1].time == datetime(2026, 11, 29, 10, 7, tzinfo=zone("UTC"))


def test_host_selectors_override_detection():
    selectors = {"post": "div.entry-wrap", "body": ".words", "author": ".who a", "time": ".stamp"}
    page = parse_page(
        (SYNTHETIC / "unknown-engine.html").read_text(),
        url="https://x.invalid/t",
        selectors=selectors,
    )
    assert [p.author for p in page.posts] == ["alice", "bob", "carol"]
    assert page.posts[0].post_id == "entry-5001"
    with pytest.raises(SourceError, match="selectors need body"):
        parse_page("<p>x</p>", selectors={"post": "div", "author": "a"})


def test_a_login_page_is_not_a_thread():
    with pytest.raises(SourceError, match="not a forum thread page"):
        parse_page("<html><body><form><input name=user><input name=pass></form></body></html>")


def test_phpbb_print_view():
    page = _synthetic(
        "phpbb-print-view.html",
        "https://forum.example.invalid/viewtopic.php?t=9&view=print&start=25",
    )
    assert [(p.post_id, p.number, p.author) for p in page.posts] == [
        ("print-25", 25, "crazypianist1116"),
        ("print-26", 26, "Enigma"),
    ]
    assert page.posts[0].time.isoformat() == "2011-02-26T14:38:00+00:00"
    assert page.posts[0].text == "Vote: Sundy Sundy? More like scummy."


def _print_page(page: int, of: int, posts: list[tuple[str, str]], head: str = "") -> str:
    """A page of phpBB 3.0's print view (prosilver's viewtopic_print.html), as a browser
    saves it: no post ids, no links to other pages, "Page 2 of 2" at the top."""
    rows = "".join(
        f'<div class="post"><h3>Re: Mafia</h3><div class="date">Posted: '
        f"<strong>Mon Nov 09, 2026 10:{i:02d} am</strong></div>"
        f'<div class="author">by <strong>{author}</strong></div>'
        f'<div class="content">{text}</div></div><hr />'
        for i, (author, text) in enumerate(posts)
    )
    return (
        '<!DOCTYPE html><html><head><meta charset="UTF-8" /><meta name="copyright" '
        f'content="2000, 2002, 2005, 2007 phpBB Group" />{head}<title>Forum &bull; Mafia</title>'
        '</head><body id="phpbb"><div id="wrap"><div id="page-body"><div class="page-number">'
        f"Page <strong>{page}</strong> of <strong>{of}</strong></div>{rows}"
        "</div></div></body></html>"
    )


def test_saved_print_view_pages_of_one_thread_keep_every_post(tmp_path):
    # Each print page numbers its posts from its own start, which a saved page does not show:
    # page 2's posts follow page 1's, none taken for one of page 1's.
    (tmp_path / "page1.html").write_text(
        _print_page(1, 2, [("Ann", "Day 1"), ("Bo", "Vote: Cy"), ("Cy", "hi")])
    )
    (tmp_path / "page2.html").write_text(_print_page(2, 2, [("Dee", "Vote: Cy"), ("Ed", "x")]))
    posts = read_source(str(tmp_path))
    assert [(p.number, p.author, p.text) for p in posts] == [
        (0, "Ann", "Day 1"),
        (1, "Bo", "Vote: Cy"),
        (2, "Cy", "hi"),
        (3, "Dee", "Vote: Cy"),
        (4, "Ed", "x"),
    ]
    assert len({p.post_id for p in posts}) == 5


def test_a_saved_pages_canonical_link_is_read_as_html_writes_it(tmp_path):
    link = (
        '<link rel="canonical" '
        'href="https://f.example.invalid/viewtopic.php?t=9&amp;view=print&amp;start=25" />'
    )
    (tmp_path / "p.html").write_text(_print_page(2, 2, [("Dee", "Vote: Cy")], head=link))
    (post,) = read_source(str(tmp_path))
    assert (post.post_id, post.number) == ("print-25", 25)


@pytest.mark.parametrize(
    ("data", "text"),
    [
        ('<meta charset="utf-8"><p>투표: 코하이</p>'.encode(), "투표: 코하이"),
        ("<meta charset='euc-kr'><p>투표</p>".encode("euc-kr"), "투표"),
        # Declared UTF-8 but written in Windows-1252: detection takes over.
        ('<meta charset="utf-8"><p>caf\xe9 na\xefve</p>'.encode("cp1252"), "café naïve"),
        ("\ufeff<p>Vote: Oso</p>".encode("utf-8"), "Vote: Oso"),
    ],
)
def test_decode_page(data, text):
    assert text in decode_page(data)


def test_a_saved_json_answer_is_a_source_as_its_page_is(shared, tmp_path):
    """A host who saved a Discourse topic's /t/{id}.json reads it offline, alone or among
    the thread's other saved pages."""
    saved = (
        shared / "fixtures" / "pages" / "discourse-json" / "discourse_api-try-sandbox-topic-57.json"
    )
    posts = read_source(str(saved))
    assert [p.author for p in posts][:1] == ["samsaffron"] and len(posts) == 4
    folder = tmp_path / "saved"
    folder.mkdir()
    (folder / "topic-57.json").write_bytes(saved.read_bytes())
    assert [p.post_id for p in read_source(str(folder))] == [p.post_id for p in posts]
