"""The failures seen on the saved WEB-FORUM-52 dev pages, each tested on its page: engine
adapters read each page's own date format, in the page's language, with the time; the generic
reader reads a poster's name with its group's mark.

The pages are the data set's (saved pages of real forums, published with their gold), kept in
../shared beside the repository and not copied into it: without ../shared these tests skip,
as every test of the saved pages does (conftest.shared)."""

from __future__ import annotations

from datetime import datetime

import pytest

from modtool.threads.forum import parse_page
from modtool.threads.times import orient_day_month


@pytest.fixture
def web52(shared):
    return shared / "fixtures" / "web-forum-52-dev" / "pages"


def _read(web52, doc: str):
    return parse_page((web52 / f"{doc}.html").read_bytes()).posts


def test_vbulletin_french_day_first_with_13h16_clock(web52):
    """futura-sciences (vBulletin, French): "10/05/2006, 13h16" is 10 May, at 13:16; the page's
    "28/02/2007" says its dates are day first. Its "Publicité" ad slots are no posts."""
    posts = _read(web52, "forums.futura-sciences.com.annonces-officielles.78761-moderateurs.html")
    assert [p.time.strftime("%Y-%m-%d %H:%M") for p in posts[:4]] == [
        "2006-05-10 13:16",
        "2006-05-10 13:16",
        "2006-07-08 07:48",
        "2006-11-06 12:13",
    ]
    assert all(p.time is not None and p.author != "Publicité" for p in posts)


def test_ad_slots_however_many(web52):
    """futura-sciences' other page: two slots of seven ("Publicité", "A voir en vidéo sur
    Futura") have neither a time nor a word, where every post with words shows a time."""
    doc = "forums.futura-sciences.com.annonces-officielles.12735-latex-debarque-fsg-explications"
    posts = _read(web52, doc + "-mode-demploi.html")
    assert len(posts) == 5
    assert all(p.time is not None and p.text for p in posts)


def test_phpbb_french_abbreviated_month(web52):
    """maladiesraresinfo (phpBB, French): "5 Juil 2018" with its time."""
    posts = _read(web52, "forums.maladiesraresinfo.org.credit-immobilier-maladie-rare-t2720.html")
    assert [p.time.strftime("%Y-%m-%d %H:%M") for p in posts] == [
        "2017-10-29 16:46",
        "2017-10-30 13:00",
        "2018-07-05 03:22",
        "2018-07-05 11:20",
    ]


def test_xenforo_date_where_the_site_moved_it(web52):
    """juraforum (XenForo 1, its own template): the date is a plain span in the poster's
    header, not XenForo's abbr.DateTime; "13.01.2020, 13:54"."""
    posts = _read(
        web52, "www.juraforum.de.forum.t.fahrtkostenerstattung-bei-falschen-rezepten.675629."
    )
    assert posts[1].time.strftime("%d.%m.%Y, %H:%M") == "13.01.2020, 13:54"
    assert all(p.time is not None for p in posts)


def test_xenforo_german_tooltip_gives_the_clock(web52):
    """digitalfernsehen (XenForo 1, German): the post shows "10. April 2020", its DateTime
    tooltip "10. April 2020 um 07:38 Uhr"; the tooltip's clock is the post's, not midnight."""
    posts = _read(web52, "forum.digitalfernsehen.de.threads.df-hilferuf.416785.")
    assert [p.time.strftime("%Y-%m-%d %H:%M") for p in posts[:3]] == [
        "2020-04-10 07:38",
        "2020-04-10 18:23",
        "2020-04-15 13:37",
    ]


def test_xenforo_german_short_date_with_two_digit_year(web52):
    """musiker-board (XenForo 1, German short dates; a held-back page, read for this test only):
    the tooltip "29.01.19 um 15:25 Uhr" is 29 January 2019, 15:25; before, no time at all."""
    posts = _read(
        web52, "www.musiker-board.de.threads.baubericht-0-14-ital-fichte-palisander.689167."
    )
    assert [p.time.strftime("%Y-%m-%d %H:%M") for p in posts[:2]] == [
        "2019-01-29 15:25",
        "2019-01-29 16:01",
    ]
    assert all(p.time is not None for p in posts)


def test_a_group_mark_before_the_name_is_part_of_it(web52):
    """neowin (Invision 4, no adapter): subscribers show as "<b>+</b>Raze"."""
    posts = _read(web52, "www.neowin.net.forum.topic.1393830-hello-everyone.")
    assert "+Raze" in {p.author for p in posts}
    assert "+" not in {p.author for p in posts}


@pytest.mark.parametrize(
    ("shown", "read", "expected"),
    [
        # one first number over 12: the page is day first
        ([(10, 5), (28, 2)], [(10, 5), (2, 28)], [(5, 10), (2, 28)]),
        # one second number over 12: month first, as read
        ([(10, 5), (2, 28)], [(10, 5), (2, 28)], [(10, 5), (2, 28)]),
        # no number over 12: swapped only where that puts the posts in order
        ([(3, 2), (1, 3)], [(3, 2), (1, 3)], [(2, 3), (3, 1)]),
        # a time from an attribute: nothing to orient
        ([None, (1, 3)], [(3, 2), (1, 3)], [(3, 2), (1, 3)]),
    ],
)
def test_orient_day_month(shown, read, expected):

    times = [datetime(2020, m, d, 12) for m, d in read]
    assert [(t.month, t.day) for t in orient_day_month(times, shown)] == expected


def test_orient_day_month_keeps_missing_times():

    times = [datetime(2006, 10, 5), None, datetime(2007, 2, 28)]
    oriented = orient_day_month(times, [(10, 5), None, (28, 2)])
    assert oriented[1] is None and (oriented[0].month, oriented[0].day) == (5, 10)
