"""`modtool init` writes what a host would: the zone the page states, readable UTF-8 for any
name, one player for names that differ only in case, the first post's player list in its
order, posters who never voted as comments, and a summary of what it guessed."""

from __future__ import annotations

import tomllib
from datetime import datetime, timedelta, timezone

import pytest
from typer.testing import CliRunner

from modtool.cli import app
from modtool.errors import ModToolError
from modtool.games import load_game
from modtool.host.starting import init_game, list_item_name, player_list, shown_zone
from modtool.threads.posts import Post
from modtool.threads.sources import read_game_posts

# A phpBB print view (the markup of tests/fixtures/synthetic/phpbb-print-view.html) whose footer
# states its zone the phpBB 3.0 way; SYNTHETIC posts.
_POST = """<div class="post"><h3>Re: Mini</h3>
<div class="date">Posted: <strong>{time}</strong></div>
<div class="author">by <strong>{author}</strong></div>
<div class="content">{text}</div></div><hr />"""
_PAGE = """<!DOCTYPE html><html lang="en-gb"><head>
<meta http-equiv="content-type" content="text/html; charset=UTF-8" />
<meta name="copyright" content="2000, 2002, 2005, 2007 phpBB Group" />
<title>Example Forum &bull; View topic - Mini</title></head>
<body id="phpbb"><div id="wrap"><div id="page-body">{posts}</div>
<div id="page-footer">All times are UTC - 5 hours</div></div></body></html>"""
POSTS = [
    ("Host", "Welcome! Day 1 begins. Vote with <b>VOTE: name</b>."),
    ("하나", "안녕하세요 <b>VOTE: Banana</b>"),
    ("🎲Dice", "<b>VOTE: 하나</b>"),
    ("Banana", "hi all"),
    ("banana", "<b>VOTE: 🎲Dice</b>"),
    ("Lurker", "just watching"),
    ("Lurker", "still watching"),
]


def _page(tmp_path, posts=POSTS):
    rows = [
        _POST.format(time=f"Mon Nov 02, 2026 {9 + i}:00 am", author=author, text=text)
        for i, (author, text) in enumerate(posts)
    ]
    page = tmp_path / "thread.html"
    page.write_text(_PAGE.format(posts="\n".join(rows)), "utf-8")
    return page


def test_init_on_a_page_that_states_its_zone(tmp_path):
    folder = tmp_path / "new"
    result = CliRunner().invoke(app, ["init", str(folder), "--thread", str(_page(tmp_path))])
    assert result.exit_code == 0, result.output
    text = (folder / "game.toml").read_text("utf-8")
    setup = tomllib.loads(text)
    assert setup["timezone"] == "Etc/GMT+5"  # the IANA name of a zone that is always UTC-5
    assert "timezone: Etc/GMT+5, as the posts' times are shown at UTC-05:00" in result.stdout
    game = load_game(folder)
    first = read_game_posts(game)[0]
    assert first.time == datetime(2026, 11, 2, 9, tzinfo=timezone(timedelta(hours=-5)))
    # readable UTF-8, not escapes; case spellings as one player; the lurker as a comment
    assert 'name = "하나"' in text and 'name = "🎲Dice"' in text and "\\u" not in text
    assert [(p["name"], p.get("aliases", [])) for p in setup["players"]] == [
        ("하나", []),
        ("🎲Dice", []),
        ("Banana", ["banana"]),
    ]
    assert '# spectator? posted 2 times, never voted\n# [[players]]\n# name = "Lurker"' in text
    assert game.find_slot("banana") == "Banana"
    assert result.stdout.splitlines()[1:] == [
        "  host: Host, the first poster",
        "  rules: preset mafiascum, the default for a game without a script",
        "  players: the 3 posters who voted, seats in the order they first posted "
        "(the first post has no player list)",
        "  not made players, written as comments: Lurker (uncomment any who plays)",
        "  Banana also posts as banana: one player, aliases",
        "  timezone: Etc/GMT+5, as the posts' times are shown at UTC-05:00",
        "  Day 1 starts at post 0, the first post",
    ]


def test_init_takes_the_player_list_of_the_first_post_in_its_order(tmp_path):
    listing = "Players:<br>1. Banana<br>2. Lurker<br>3. 하나 (replacing Kim)<br>4. Zed<br>"
    posts = [("Host", "Welcome!<br>" + listing + "Day 1 begins."), *POSTS[1:]]
    folder = tmp_path / "new"
    result = CliRunner().invoke(
        app, ["init", str(folder), "--thread", str(_page(tmp_path, posts)), "--json"]
    )
    assert result.exit_code == 0, result.output
    setup = tomllib.loads((folder / "game.toml").read_text("utf-8"))
    players = [(p["name"], p["seat"]) for p in setup["players"]]
    assert players == [("Banana", 1), ("Lurker", 2), ("하나", 3), ("Zed", 4)]
    text = (folder / "game.toml").read_text("utf-8")
    assert (
        '# spectator? posted once, not on the first post\'s list\n# [[players]]\n# name = "🎲Dice"'
        in text
    )
    assert "on the list, no post yet: Zed" in result.stdout


def test_init_keeps_every_poster_when_nobody_has_voted_yet(tmp_path):
    posts = [Post(str(i), i, n, None, None, "<p>hi</p>") for i, n in enumerate("HABC")]
    started = init_game(tmp_path / "g", str(tmp_path / "t.jsonl"), posts)
    assert [s.key for s in load_game(tmp_path / "g").slots] == ["A", "B", "C"]
    assert any("nobody has voted yet" in g for g in started.guesses)


def test_init_of_a_thread_only_its_host_posted_in_says_so_and_writes_nothing(tmp_path):
    posts = [Post(str(i), i, "Host", None, None, "<p>Day 1</p>") for i in range(3)]
    with pytest.raises(ModToolError, match="every post is by Host, the host: no players"):
        init_game(tmp_path / "g", str(tmp_path / "t.jsonl"), posts)
    assert not (tmp_path / "g").exists()


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("1. Alice", ("Alice", True)),
        ("12) Bob the Builder", ("Bob the Builder", True)),
        ("#3 하나", ("하나", True)),
        ("- 🎲Dice", ("🎲Dice", True)),
        ("• Carol (replacing Dan)", ("Carol", True)),
        ("Seat 4: Erin - confirmed", ("Erin", True)),
        ("Frank", ("Frank", False)),
        ("Welcome to the game!", ("Welcome to the game!", False)),
    ],
)
def test_a_list_line_gives_its_name(line, expected):
    assert list_item_name(line) == expected


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (["Players:", "1. ann", "2. Bo", "3. Cy"], ("Ann", "Bo", "Cy")),  # the posters' spelling
        (
            ["1. Cy", "2. Newcomer", "3. Ann", "4. Bo", "Good luck!"],
            ("Cy", "Newcomer", "Ann", "Bo"),
        ),
        (
            ["1. Zed", "2. Ann", "3. Bo", "4. Cy", "5. Yan", "", "Have fun"],
            ("Zed", "Ann", "Bo", "Cy", "Yan"),
        ),
        (["Ann and Bo", "1. Ann", "2. Bo"], ()),  # two names are not a list
        (["Ann", "Bo", "Cy"], ("Ann", "Bo", "Cy")),  # one a line, no numbers
        (
            ["1. Ann", "Rules follow", "2. Bo", "3. Cy"],
            ("Ann", "Bo", "Cy"),
        ),  # unmarked text skipped
    ],
)
def test_the_player_list_of_a_first_post(lines, expected):
    assert player_list(lines, ["Ann", "Bo", "Cy", "Dee"]) == expected


def _at(offset_hours: float, month: int = 11) -> Post:
    tz = timezone(timedelta(hours=offset_hours))
    return Post("1", 1, "A", datetime(2026, month, 2, 9, tzinfo=tz), None, "")


@pytest.mark.parametrize(
    ("posts", "zone"),
    [
        ([_at(0)], "UTC"),
        ([_at(-5), _at(-5)], "Etc/GMT+5"),
        ([_at(9)], "Etc/GMT-9"),
        ([_at(5.5)], "Asia/Calcutta"),  # no Etc/ zone: the first zone that keeps +05:30 all year
        ([_at(-4, 7), _at(-5)], "Etc/GMT+5"),  # summer and winter: the latest post's offset
        ([Post("1", 1, "A", None, None, "")], "UTC"),
    ],
)
def test_the_zone_of_the_posts_times(posts, zone):
    assert shown_zone(posts)[0] == zone


@pytest.mark.parametrize(
    ("script", "preset"),
    [("", "mafiascum"), ("trouble-brewing-forum", "botc-forum"), ("vampires", "vampire")],
)
def test_init_writes_the_rules_of_the_game_its_script_makes_it(tmp_path, script, preset):
    folder = tmp_path / "new"
    args = ["init", str(folder), "--thread", str(_page(tmp_path, POSTS))]
    result = CliRunner().invoke(app, [*args, *(["--script", script] if script else [])])
    assert result.exit_code == 0, result.output
    assert tomllib.loads((folder / "game.toml").read_text("utf-8"))["rules"]["preset"] == preset
    which = f"script {script}" if script else "a game without a script"
    assert f"  rules: preset {preset}, the default for {which}\n" in result.stdout


def test_a_clocktower_game_with_no_characters_yet_is_won_by_nobody(tmp_path):
    folder = tmp_path / "new"
    args = ["init", str(folder), "--thread", str(_page(tmp_path, POSTS))]
    assert CliRunner().invoke(app, [*args, "--script", "trouble-brewing-forum"]).exit_code == 0
    counted = CliRunner().invoke(app, ["count", str(folder)])
    assert counted.exit_code == 0, counted.output
    assert "Game over" not in counted.stdout and "Outcome: Pending" in counted.stdout


def test_init_reads_threads_with_the_options_count_has(tmp_path):
    page = str(_page(tmp_path))
    both = CliRunner().invoke(
        app, ["init", str(tmp_path / "a"), "--thread", page, "--offline", "--refresh"]
    )
    assert both.exit_code == 2 and "--offline and --refresh cannot be used together" in both.output
    assert not (tmp_path / "a").exists()
    fetched = ["init", str(tmp_path / "b"), "--thread", page, "--refresh", "--concurrency", "2"]
    assert CliRunner().invoke(app, fetched).exit_code == 0
    assert (tmp_path / "b" / "game.toml").exists()
