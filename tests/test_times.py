"""Displayed forum times, read in the game's timezone."""

from __future__ import annotations

import pytest

from modtool.threads.times import parse_displayed, parse_loose, zone

NEW_YORK = zone("America/New_York")


@pytest.mark.parametrize(
    ("shown", "expected"),
    [
        ("Sun May 26, 2019 4:34 pm", "2019-05-26T16:34:00-04:00"),  # phpBB 3.0
        ("Sat Feb 26, 2011 12:38 am", "2011-02-26T00:38:00-05:00"),
        ("Fri Feb 25, 2011 12:00 pm", "2011-02-25T12:00:00-05:00"),
        ("02 Jun 2018 05:41", "2018-06-02T05:41:00-04:00"),  # phpBB 3.2
        ("2016-02-01, 02:29", "2016-02-01T02:29:00-05:00"),  # vBulletin 3
        ("06-15-2016, 05:21 PM", "2016-06-15T17:21:00-04:00"),  # vBulletin 4
        ("Oct 30, 2014 at 10:49 PM", "2014-10-30T22:49:00-04:00"),  # XenForo 1
        ("April 25, 2018, 10:22:01 pm", "2018-04-25T22:22:01-04:00"),  # SMF
        ("November 18, 2019, 2:39pm", "2019-11-18T14:39:00-05:00"),  # Discourse
        ("2026-11-29T13:05:00+09:00", "2026-11-29T13:05:00+09:00"),  # an offset wins
        ("2 January 2020 03:04", "2020-01-02T03:04:00-05:00"),  # the month's whole name
        ("29.01.20 22:47", "2020-01-29T22:47:00-05:00"),  # German's short date, dd.MM.yy
        ("29.01.20, 22:47", "2020-01-29T22:47:00-05:00"),
    ],
)
def test_displayed_forms(shown, expected):
    assert parse_displayed(shown, NEW_YORK).isoformat() == expected


@pytest.mark.parametrize("shown", ["", "yesterday-ish", "Sun Foo 26, 2019 4:34 pm", "13:99"])
def test_not_a_time(shown):
    assert parse_displayed(shown, NEW_YORK) is None


@pytest.mark.parametrize(
    ("shown", "expected"),
    [
        ("November 27, 2026 at 8:00 pm #201 Edit | Reply", "2026-11-27T20:00:00-05:00"),  # bbPress
        ("27 November 2026 20:00", "2026-11-27T20:00:00-05:00"),
        ("Posted on 27th Nov 2026, 8:05 p.m.", "2026-11-27T20:05:00-05:00"),
        ("27.11.2026, 20:00", "2026-11-27T20:00:00-05:00"),  # "." puts the day first
        ("13/11/2026 21:00", "2026-11-13T21:00:00-05:00"),  # 13 can only be a day
        ("11/12/2026 09:30 AM", "2026-11-12T09:30:00-05:00"),  # "/" puts the month first
        ("발표 2026/11/27 20:00", "2026-11-27T20:00:00-05:00"),
        ("发表于 2026-11-27 20:15:42", "2026-11-27T20:15:42-05:00"),  # Discuz
        ("Threadmark created by Higure on Jul 15, 2015", None),  # a mention, not a date line
        ("Joined Mar 2019", None),  # no day
        ("26-11-29 13:05 posted", None),  # two-digit years are left to known formats
        # ... but dots always put the day first: a German short date, as XenForo 1 writes it
        ("21.04.20 um 10:58 Uhr", "2020-04-21T10:58:00-04:00"),
        ("Erstellt: 29.01.19", "2019-01-29T00:00:00-05:00"),
        ("v1.2.10 released", None),  # a version, not a date
        ("1.2.3.4", None),
        ("10. April 2020 um 07:38 Uhr", "2020-04-10T07:38:00-04:00"),
        # Django's default ("N j, Y, P"): zero minutes dropped, noon and midnight named
        ("Oct. 31, 2026, 9:53 a.m.", "2026-10-31T09:53:00-04:00"),
        ("Nov. 1, 2026, 9 a.m.", "2026-11-01T09:00:00-05:00"),
        ("Oct. 31, 2026, 2 p.m.", "2026-10-31T14:00:00-04:00"),
        ("Oct. 31, 2026, noon", "2026-10-31T12:00:00-04:00"),
        ("Nov. 1, 2026, midnight", "2026-11-01T00:00:00-04:00"),
        ("Sept. 3, 2026, 12 a.m.", "2026-09-03T00:00:00-04:00"),
        ("Oct. 31, 2026, 13 p.m.", None),  # no such clock
        # Month names of the page's language (CLDR), and its clock words
        ("21. Apr 2020, 19:40", "2020-04-21T19:40:00-04:00"),
        ("Verfasst am 3. März 2020 um 08:15 Uhr", "2020-03-03T08:15:00-05:00"),
        ("5 Juil 2018 à 13h16", "2018-07-05T13:16:00-04:00"),
        ("le 12 févr. 2019, 9h05", "2019-02-12T09:05:00-05:00"),
        ("5 de julio de 2018, 22:10", "2018-07-05T22:10:00-04:00"),
        ("25-February-2012 21:46", "2012-02-25T21:46:00-05:00"),  # Phorum
        ("Thu, Jun 23 '05, 7:14 PM", "2005-06-23T19:14:00-04:00"),
        ("12 de março de 2020 às 10:00", "2020-03-12T10:00:00-04:00"),
        ("3 mei 2021 om 14:02", "2021-05-03T14:02:00-04:00"),
        ("17 settembre 2019 alle 18:30", "2019-09-17T18:30:00-04:00"),
        ("7 listopada 2019, 11:11", "2019-11-07T11:11:00-05:00"),
        ("27 мая 2020 в 12:01", "2020-05-27T12:01:00-04:00"),
        ("2020年4月21日 19:40", "2020-04-21T19:40:00-04:00"),
        ("2020년 4월 21일 19:40", "2020-04-21T19:40:00-04:00"),
        ("2020年4月21日 下午7:40", "2020-04-21T19:40:00-04:00"),
        ("2020年4月21日 午前 9:05", "2020-04-21T09:05:00-04:00"),
        ("2020년 4월 21일 오후 12:30", "2020-04-21T12:30:00-04:00"),
        ("Beitrag 12 von 2020 Mitgliedern", None),  # no month word
    ],
)
def test_loose_date_lines(shown, expected):
    found = parse_loose(shown, NEW_YORK)
    assert (found.isoformat() if found else None) == expected


@pytest.mark.parametrize(
    ("page_text", "hours"),
    [
        ("All times are UTC-06:00", -6),  # phpBB 3.1+
        ("All times are UTC+05:30", 5.5),
        ("All times are UTC - 5 hours [ DST ]", -4),  # phpBB 3.0: DST adds an hour
        ("All times are UTC [ DST ]", 1),
        ("All times are GMT -5. The time now is 10:35 PM.", -5),  # vBulletin
        ("All times are GMT. The time now is 10:35 PM.", 0),
        ("Powered by Discuz! GMT+8, 2024-5-27 10:35", 8),
        ("All times are EST (Australia)", None),  # phpBB 2's labels name no offset
        ("Posted 8 hours ago in GMT+8 land", None),
        ("", None),
    ],
)
def test_a_page_states_its_zone(page_text, hours):
    from datetime import timedelta

    from modtool.threads.times import stated_offset

    found = stated_offset(page_text)
    assert found == (None if hours is None else timedelta(hours=hours))


@pytest.mark.parametrize(
    ("game_zone", "page_text", "offset"),
    [
        ("UTC", "All times are UTC-06:00", "-06:00"),  # the host set nothing: the page's word
        ("America/Chicago", "All times are UTC-06:00", "-05:00"),  # the game's zone has -6
        ("America/Chicago", "All times are UTC-05:00", "-05:00"),  # ... and -5 in summer
        ("Asia/Seoul", "All times are UTC-06:00", "-06:00"),  # a zone the page is not in
        ("Asia/Seoul", "no statement", "+09:00"),
    ],
)
def test_the_page_zone_gives_way_to_a_game_zone_that_fits_it(game_zone, page_text, offset):
    from datetime import datetime

    from modtool.threads.times import page_zone

    tz = page_zone(page_text, zone(game_zone), year=2026)
    assert datetime(2026, 7, 1, 12, tzinfo=tz).isoformat()[-6:] == offset


@pytest.mark.parametrize(
    ("source", "hours"),
    [
        ("<p>All times are <span>UTC-06:00</span></p>", -6),
        # a footer the site hid in a comment counts when nothing shown says otherwise
        ("<div><!-- <p class='xs0'>GMT+8, 2024-5-27 10:35</p> --></div>", 8),
        ("<p>All times are GMT -5.</p><!-- GMT+8, 2024-5-27 10:35 -->", -5),
        ("<script>d.toGMTString()</script><p>no statement</p>", None),
    ],
)
def test_the_zone_statement_is_found_in_the_page_source(source, hours):
    from datetime import timedelta

    from modtool.threads.forum import _zone_statement
    from modtool.threads.times import stated_offset

    for page in (source, source.encode()):
        found = stated_offset(_zone_statement(page))
        assert found == (None if hours is None else timedelta(hours=hours))


def test_dotted_dates_put_the_day_first_in_every_language_read():
    """The rule _DOTTED_SHORT keeps: every page language whose CLDR short date uses dots writes
    the day first (German dd.MM.yy, Polish d.MM.y, Russian dd.MM.y)."""
    from babel import Locale

    from modtool.threads.times import LANGUAGES

    dotted = {
        language: Locale.parse(language).date_formats["short"].pattern for language in LANGUAGES
    }
    dotted = {k: v for k, v in dotted.items() if "." in v}
    assert "de" in dotted
    assert all(pattern.lstrip("d").startswith(".M") for pattern in dotted.values()), dotted


@pytest.mark.parametrize(
    ("shown", "expected"),
    [
        # "today" and "yesterday" in the page's language (CLDR), then the clock
        ("Heute um 10:58 Uhr", "2026-11-29T10:58:00+01:00"),  # XenForo, German
        ("Gestern, 22:47", "2026-11-28T22:47:00+01:00"),  # vBulletin, German
        ("Vorgestern um 08:00 Uhr", "2026-11-27T08:00:00+01:00"),
        ("Hier à 13h16", "2026-11-28T13:16:00+01:00"),
        ("Aujourd’hui, 09:05", "2026-11-29T09:05:00+01:00"),
        ("Aujourd'hui à 9h05", "2026-11-29T09:05:00+01:00"),
        ("Ayer a las 22:10", "2026-11-28T22:10:00+01:00"),
        ("Ontem às 10:00", "2026-11-28T10:00:00+01:00"),
        ("Gisteren om 14:02", "2026-11-28T14:02:00+01:00"),
        ("Ieri alle 18:30", "2026-11-28T18:30:00+01:00"),
        ("Wczoraj, 11:11", "2026-11-28T11:11:00+01:00"),
        ("Вчера в 12:01", "2026-11-28T12:01:00+01:00"),
        ("昨天 下午7:40", "2026-11-28T19:40:00+01:00"),
        ("오늘 오후 3:20", "2026-11-29T15:20:00+01:00"),
        ("Today, 10:58 PM", "2026-11-29T22:58:00+01:00"),
        ("Heute", None),  # no clock: the day alone is no post's time
        ("heute 25:00", None),
        ("hieronder 10:00", None),  # Dutch "below", not French "hier"
        ("Morgen um 10:00 Uhr", None),  # no post is written tomorrow
    ],
)
def test_today_and_yesterday_in_the_page_language(shown, expected):
    from datetime import datetime

    berlin = zone("Europe/Berlin")
    found = parse_displayed(shown, berlin, datetime(2026, 11, 29, 12, 0, tzinfo=berlin))
    assert (found.isoformat() if found else None) == expected
