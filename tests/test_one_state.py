"""One state (issue 21, item 4): every death and win the count finds is what end-day records,
and what the grimoire, the night sheet and every draft read; a game that is over says so.

The example game with Shining holding the Slayer, who shoots Banana (the Imp) at post 39.
"""

from __future__ import annotations

import json
import shutil
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from typer.testing import CliRunner

from modtool.cli import app
from modtool.core.count import count_days
from modtool.core.ledger import Phase, PhaseKind
from modtool.core.results import DayDeath
from modtool.errors import ModToolError
from modtool.games import load_game
from modtool.games.clocktower.rules import SLAYER_KILLS, WITCH_KILLS
from modtool.host.days import WatchState, end_day, watch_step
from modtool.host.drafts import DraftKind, make_drafts
from modtool.host.render import count_to_json
from modtool.threads.sources import read_game_posts

from .conftest import EXAMPLE

SCHEDULE = '\n[schedule]\nstart = "2026-11-02T12:00"\nfirst_day = "96h"\nday = "72h"\n'
AFTER = datetime(2026, 11, 20, tzinfo=ZoneInfo("UTC"))  # past Day 4's deadline
SHOT = {"kind": "day_ability", "player": "Shining", "ability": "slayer", "post": 39}
runner = CliRunner()


def _game(tmp_path, *, slayer: bool = True, schedule: bool = False, role: str = "Slayer"):
    folder = tmp_path / "g"
    shutil.copytree(EXAMPLE, folder)
    setup = folder / "game.toml"
    text = setup.read_text().replace('role = "Saint"', f'role = "{role}"')
    setup.write_text(text + (SCHEDULE if schedule else ""))
    if slayer:
        with (folder / "events.jsonl").open("a") as f:
            f.write(json.dumps({**SHOT, "target": "Banana"}) + "\n")
    return folder


def _close(folder, **kw):
    game = load_game(folder)
    return end_day(game, read_game_posts(game), **kw)


def _draft(folder, kind=DraftKind.DAYEND, **kw):
    game = load_game(folder)
    (draft,) = make_drafts(game, kind, read_game_posts(game), **kw)
    return draft


# --- the count carries the day's deaths ----------------------------------------------------


def test_the_count_carries_the_slayers_kill_with_its_post_and_cause(tmp_path):
    game = load_game(_game(tmp_path))
    (day4,) = count_days(game, read_game_posts(game), [4])
    assert day4.deaths == (DayDeath("Banana", 39, "slain by the Slayer", SLAYER_KILLS),)
    assert day4.win.win.winner == "good"
    out = count_to_json(day4)
    assert out["deaths"] == [
        {"player": "Banana", "post": 39, "cause": "slain by the Slayer", "rule": SLAYER_KILLS}
    ]


def test_the_count_carries_the_witchs_curse_and_end_day_records_it(tmp_path):
    # the example on the script that has the Witch (Neros), who cursed Shining in Night 3
    folder = _game(tmp_path, slayer=False, schedule=True)
    setup = folder / "game.toml"
    text = setup.read_text()
    for old, new in (
        ('"trouble-brewing-forum"', '"cheomseongdae"'),
        ('role = "Ravenkeeper"', 'role = "Juggler"'),
        ('role = "Poisoner"', 'role = "Witch"'),
        ('["Chef", "Soldier", "Mayor"]', '["Investigator", "Librarian", "Tea Lady"]'),
    ):
        text = text.replace(old, new)
    setup.write_text(text)
    curse = {"kind": "reminder", "player": "Shining", "reminder": "cursed", "night": 3}
    with (folder / "events.jsonl").open("a") as f:
        f.write(json.dumps(curse) + "\n")
    game = load_game(folder)
    (day4,) = count_days(game, read_game_posts(game), [4])
    assert day4.deaths == (DayDeath("Shining", 39, "cursed by the Witch", WITCH_KILLS),)
    assert (
        "Shining was cursed by the Witch and voted: they die now (modtool end-day records it)"
        in [n.message for n in day4.warnings]
    )
    closing = _close(folder, now=AFTER)
    assert closing.lines[1] == {
        "kind": "death",
        "player": "Shining",
        "post": 39,
        "cause": "cursed by the Witch",
    }
    assert "[b]Shining[/b] died (cursed by the Witch)." in _draft(folder).text


def test_a_day_without_such_deaths_has_none_and_its_json_is_unchanged(tmp_path):
    game = load_game(_game(tmp_path, slayer=False))
    (day4,) = count_days(game, read_game_posts(game), [4])
    assert day4.deaths == () and "deaths" not in count_to_json(day4)


def test_the_count_cli_json_lists_the_deaths(tmp_path):
    folder = _game(tmp_path)
    result = runner.invoke(app, ["count", str(folder), "--day", "4", "--json"])
    assert result.exit_code == 0, result.output
    (day4,) = json.loads(result.stdout)
    assert day4["deaths"] == [
        {"player": "Banana", "post": 39, "cause": "slain by the Slayer", "rule": SLAYER_KILLS}
    ]
    assert day4["win"]["winner"] == "good"


# --- end-day records them, and every later command sees the game over ------------------------


def test_end_day_at_the_deadline_records_the_slayers_kill(tmp_path):
    folder = _game(tmp_path, schedule=True)
    closing = _close(folder, now=AFTER)
    assert closing.lines[:2] == (
        {
            "kind": "day_end",
            "day": 4,
            "post": 41,
            "time": "2026-11-07T14:58:00-05:00",  # the deadline
            "note": "the most votes (1) is below the 2 needed with 4 alive",
        },
        {"kind": "death", "player": "Banana", "post": 39, "cause": "slain by the Slayer"},
    )
    game = load_game(folder)
    assert game.variant.win_before(game, Phase(4, PhaseKind.NIGHT)) == (
        "good won (the Demon is dead)"
    )


def test_a_day_won_before_its_end_closes_at_the_winning_post(tmp_path):
    folder = _game(tmp_path)  # no schedule: Day 4 is still open, but the Demon is dead
    closing = _close(folder)
    assert closing.lines == (
        {
            "kind": "day_end",
            "day": 4,
            "post": 39,
            "note": "the game is over: good wins (the Demon is dead)",
        },
        {"kind": "death", "player": "Banana", "post": 39, "cause": "slain by the Slayer"},
    )


def test_end_day_leaves_out_a_death_the_host_recorded(tmp_path):
    folder = _game(tmp_path, schedule=True)
    with (folder / "events.jsonl").open("a") as f:
        f.write(json.dumps({"kind": "death", "player": "Banana", "phase": "D4"}) + "\n")
    closing = _close(folder, now=AFTER)
    assert [e["kind"] for e in closing.lines] == ["day_end"]


def test_after_end_day_the_night_refuses_and_the_grimoire_shows_the_demon_dead(tmp_path):
    folder = _game(tmp_path)
    result = runner.invoke(app, ["end-day", str(folder)])
    assert result.exit_code == 0, result.output
    assert "Game over: good wins (the Demon is dead)." in result.stdout
    assert (
        'Recorded {"kind": "death", "player": "Banana", "cause": "slain by the Slayer", '
        '"post": 39}' in result.stdout
    )
    night = runner.invoke(app, ["night", str(folder), "--night", "4"])
    assert night.exit_code == 1
    assert night.stderr == (
        "Error: the game is over: good won (the Demon is dead) before Night 4; there is nothing "
        "more to run (undo the death in the ledger if it was a mistake)\n"
    )
    grimoire = runner.invoke(app, ["grimoire", str(folder), "--night", "4", "--json"])
    shown = json.loads(grimoire.stdout)
    seats = {s["player"]: s for s in shown["seats"]}
    assert seats["Banana"]["alive"] is False
    assert shown["game_over"] == "good won (the Demon is dead)"
    table = runner.invoke(app, ["grimoire", str(folder), "--night", "4"]).stdout
    assert table.endswith("\nThe game is over: good won (the Demon is dead).\n")
    before = runner.invoke(app, ["grimoire", str(folder), "--day", "4", "--json"]).stdout
    assert json.loads(before)["game_over"] is None


def test_a_death_recorded_at_a_post_counts_in_the_grimoire_without_the_thread(tmp_path):
    folder = _game(tmp_path, slayer=False)
    with (folder / "events.jsonl").open("a") as f:
        f.write(json.dumps({"kind": "death", "player": "Banana", "post": 39}) + "\n")
        f.write(json.dumps({"kind": "day_end", "day": 4, "post": 41}) + "\n")
    game = load_game(folder)
    assert game.variant.win_before(game, Phase(4, PhaseKind.NIGHT)) == (
        "good won (the Demon is dead)"
    )


def test_a_saint_executed_ends_the_game_for_every_later_command(tmp_path):
    # wylted, executed on Day 3, holds the Saint here: evil wins at that day's end
    folder = _game(tmp_path, slayer=False, role="Chef")
    setup = folder / "game.toml"
    setup.write_text(setup.read_text().replace('role = "Baron"', 'role = "Saint"'))
    game = load_game(folder)
    (day3,) = count_days(game, read_game_posts(game), [3])
    assert day3.win.win.reason == "the Saint was executed"
    assert game.variant.win_before(game, Phase(3, PhaseKind.NIGHT)) == (
        "evil won (the Saint was executed)"
    )
    assert game.variant.win_before(game, Phase(3, PhaseKind.DAY)) is None


# --- the drafts ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "markup", "expected"),
    [
        (
            "en",
            "bbcode",
            "[b]Day 4 is over.[/b]\n\n"
            "Nobody was executed (no votes).\n"
            "[b]Banana[/b] died (slain by the Slayer).\n\n"
            "The game is over: good wins (the Demon is dead).",
        ),
        (
            "ko",
            "markdown",
            "**4일차가 끝났습니다.**\n\n"
            "아무도 처형되지 않았습니다 (투표 없음).\n\n"
            "- **Banana** 사망 (처단자에게 처단됨).\n\n"
            "게임이 끝났습니다: 선 승리 (악마가 죽었습니다).",
        ),
    ],
)
def test_the_dayend_draft_announces_the_win_and_no_night(tmp_path, language, markup, expected):
    folder = _game(tmp_path)
    _close(folder)
    draft = _draft(folder, language=language, markup=markup)
    assert draft.text.rstrip("\n") == expected


def test_the_dayend_draft_of_a_closed_day_names_a_death_not_yet_recorded(tmp_path):
    folder = _game(tmp_path)
    with (folder / "events.jsonl").open("a") as f:  # closed by hand: the shot is not recorded
        f.write(json.dumps({"kind": "day_end", "day": 4, "post": 41}) + "\n")
    text = _draft(folder).text
    assert "[b]Banana[/b] died (slain by the Slayer)." in text
    assert "The game is over: good wins (the Demon is dead)." in text
    assert "Night 4 begins" not in text


@pytest.mark.parametrize(
    ("language", "markup", "expected"),
    [
        (
            "en",
            "bbcode",
            "[b]Night 4 is over.[/b]\n\nNobody died tonight.\n\n"
            "The game is over: good won (the Demon is dead).",
        ),
        (
            "ko",
            "markdown",
            "**4일차 밤이 끝났습니다.**\n\n밤사이 아무도 죽지 않았습니다.\n\n"
            "게임이 끝났습니다: 선 승리 (악마가 죽었습니다).",
        ),
    ],
)
def test_the_nightend_draft_says_the_game_is_over(tmp_path, language, markup, expected):
    folder = _game(tmp_path)
    _close(folder)
    draft = _draft(folder, DraftKind.NIGHTEND, night=4, language=language, markup=markup)
    assert draft.text.rstrip("\n") == expected


def test_a_day_in_progress_is_refused_naming_end_day(tmp_path):
    folder = _game(tmp_path, slayer=False)
    with pytest.raises(ModToolError, match="Day 4 is not over"):
        _draft(folder)
    result = runner.invoke(app, ["draft", "dayend", str(folder)])
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: Day 4 is not over (Day 4 is in progress; leading: Banana (1)); close it with "
        f"`modtool end-day {folder}` first, or give --preview for a draft marked as one\n"
    )
    assert not (folder / "drafts").exists()


@pytest.mark.parametrize(
    ("lang", "fmt", "first", "name"),
    [
        (
            "en",
            "bbcode",
            "[i]Preview: Day 4 is not over yet; this is the count as it stands.[/i]",
            "day4-dayend-preview.en.bbcode",
        ),
        (
            "ko",
            "markdown",
            "*미리보기: 4일차는 아직 끝나지 않았습니다. 지금까지의 집계입니다.*",
            "day4-dayend-preview.ko.md",
        ),
    ],
)
def test_a_preview_of_a_day_in_progress_is_marked_at_its_top(tmp_path, lang, fmt, first, name):
    folder = _game(tmp_path, slayer=False)
    args = ["draft", "dayend", str(folder), "--preview", "--lang", lang, "--format", fmt]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stdout == f"Wrote {folder / 'drafts' / name}\n"
    assert (folder / "drafts" / name).read_text().splitlines()[0] == first


def test_a_preview_of_a_closed_day_is_the_day_end_post(tmp_path):
    folder = _game(tmp_path)
    _close(folder)
    assert _draft(folder, preview=True).text == _draft(folder).text


def test_preview_is_for_the_dayend_post_only(tmp_path):
    folder = _game(tmp_path, slayer=False)
    result = runner.invoke(app, ["draft", "votecount", str(folder), "--preview"])
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: --preview is for a day-end post still in progress, not votecount; leave it out\n"
    )


# --- the tester's flow by hand, and the schedule ------------------------------------------------


def test_a_death_recorded_by_hand_is_what_the_draft_and_the_night_read(tmp_path):
    folder = _game(tmp_path, slayer=False)
    g = str(folder)
    for args in (
        ["record", "day-ability", g, "Shining", "slayer", "--post", "39", "--target", "Banana"],
        ["record", "death", g, "Banana", "--post", "39", "--cause", "slain by the Slayer"],
        ["record", "day-end", g, "4", "--post", "41"],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
    drafted = runner.invoke(app, ["draft", "dayend", g, "--stdout"])
    assert drafted.exit_code == 0, drafted.output
    assert drafted.stdout == (
        "[b]Day 4 is over.[/b]\n\n"
        "Nobody was executed (the most votes (1) is below the 2 needed with 4 alive).\n"
        "[b]Banana[/b] died (slain by the Slayer).\n\n"
        "The game is over: good wins (the Demon is dead).\n"
    )
    night = runner.invoke(app, ["night", g, "--night", "4"])
    assert night.exit_code == 1 and "the game is over: good won" in night.stderr


def test_the_schedule_ends_with_the_game(tmp_path):
    folder = _game(tmp_path, schedule=True)
    _close(folder, now=AFTER)
    result = runner.invoke(app, ["schedule", str(folder), "--json"])
    rows = json.loads(result.stdout)
    assert [r["phase"] for r in rows][-2:] == ["D4", "N4"]
    assert rows[-1]["game_over"] == "good won (the Demon is dead)"
    assert rows[-1]["start"] is None and rows[-1]["deadline"] is None
    assert all(r["game_over"] is None for r in rows[:-1])
    table = runner.invoke(app, ["schedule", str(folder)]).stdout
    assert table.splitlines()[-1].split() == [
        "Night",
        "4",
        "never:",
        *"good won (the Demon is dead)".split(),
    ]


def test_the_schedule_of_a_game_not_over_lists_every_phase_asked(tmp_path):
    folder = _game(tmp_path, slayer=False, schedule=True)
    rows = json.loads(runner.invoke(app, ["schedule", str(folder), "--json"]).stdout)
    assert len(rows) == 10 and not any(r["game_over"] for r in rows)


def test_watch_says_once_that_the_game_is_over(tmp_path):
    folder = _game(tmp_path)
    game = load_game(folder)
    posts = read_game_posts(game)
    first, seen = watch_step(game, posts, WatchState())
    alert = (
        "ALERT: the game is over: good wins (the Demon is dead); "
        f"record it with `modtool end-day {folder}`"
    )
    assert alert in first
    again, _ = watch_step(game, posts, seen)
    assert alert not in again
