"""The game folder: one-line errors naming file and line, atomic writes, replay of events."""

from __future__ import annotations

import shutil

import pytest

from modtool.core.count import count_days
from modtool.core.ledger import append_event, write_atomic
from modtool.errors import GameFileError
from modtool.games import load_game
from modtool.threads.sources import read_game_posts

from .conftest import EXAMPLE


@pytest.fixture
def game_dir(tmp_path):
    target = tmp_path / "g"
    shutil.copytree(EXAMPLE, target)
    return target


def test_bad_toml_names_file_and_line(game_dir):
    setup = game_dir / "game.toml"
    setup.write_text(setup.read_text().replace('hosts = ["Thoth"]', 'hosts = ["Thoth"'))
    with pytest.raises(GameFileError) as err:
        load_game(game_dir)
    # tomllib reports the line where it noticed the unclosed array.
    lines = setup.read_text().splitlines()
    after = lines.index('hosts = ["Thoth"') + 1
    noticed = next(i for i, x in enumerate(lines[after:], after + 1) if x and x[0] != "#")
    assert str(err.value) == f"{setup}:{noticed}: not valid TOML (Unclosed array)"


def test_unknown_timezone_says_what_to_use(game_dir):
    setup = game_dir / "game.toml"
    setup.write_text(setup.read_text().replace("America/New_York", "Mars/Olympus"))
    with pytest.raises(GameFileError) as err:
        load_game(game_dir)
    assert str(err.value) == (
        f"{setup}:5: unknown timezone 'Mars/Olympus': use an IANA name "
        "such as 'America/New_York' or 'Asia/Seoul'"
    )


def test_bad_ledger_line_is_reported_with_its_number(game_dir):
    ledger = game_dir / "events.jsonl"
    line = len(ledger.read_text().splitlines()) + 1
    ledger.write_text(ledger.read_text() + '{"kind": "death", "player": "Nobody", "phase": "N4"}\n')
    with pytest.raises(GameFileError) as err:
        load_game(game_dir)
    assert str(err.value) == f"{ledger}:{line}: death: no player named 'Nobody' in game.toml"


def test_append_refuses_a_bad_event_and_writes_nothing(game_dir):
    ledger = game_dir / "events.jsonl"
    before = ledger.read_bytes()
    with pytest.raises(GameFileError, match='death "phase" must look like'):
        append_event(load_game(game_dir), {"kind": "death", "player": "Banana", "phase": "X"})
    assert ledger.read_bytes() == before


def test_recorded_events_change_the_replay(game_dir):
    game = load_game(game_dir)
    day4 = count_days(game, read_game_posts(game), [4])[0]
    assert day4.alive == 5 and day4.threshold == 3
    append_event(game, {"kind": "death", "player": "Neros", "post": 39, "cause": "slayer shot"})
    append_event(game, {"kind": "correction", "post": 38, "action": "ignore"})
    game = load_game(game_dir)
    day4 = count_days(game, read_game_posts(game), [4])[0]
    assert day4.alive == 4 and day4.threshold == 2
    # Neros died at post 39: his vote at post 40 does not count.
    assert [(w.target, w.votes) for w in day4.wagons] == [("Banana", 1)]
    assert day4.warnings[0].message == "Neros died; their votes and the votes on them are cleared"


def test_replacement_moves_the_slot_to_the_new_name(game_dir):
    game = load_game(game_dir)
    append_event(game, {"kind": "replacement", "player": "Shining", "by": "Glimmer", "post": 38})
    game = load_game(game_dir)
    day4 = count_days(game, read_game_posts(game), [4])[0]
    # Shining's post 39 comes after the replacement: Glimmer holds the slot now.
    assert [(w.target, w.votes) for w in day4.wagons] == [("Glimmer", 1)]
    assert "Glimmer" in day4.not_voting


def test_a_count_as_of_a_post_names_the_slot_as_it_was_then(game_dir):
    game = load_game(game_dir)
    append_event(game, {"kind": "replacement", "player": "Shining", "by": "Glimmer", "post": 40})
    game = load_game(game_dir)
    posts = read_game_posts(game)
    before = count_days(game, posts, [4], as_of=39)[0]
    assert [(w.target, [v.player for v in w.voters]) for w in before.wagons] == [
        ("Banana", ["Shining"])  # Shining's vote at 39, a post before Glimmer replaced them
    ]
    after = count_days(game, posts, [4], as_of=40)[0]
    assert [(w.target, [v.player for v in w.voters]) for w in after.wagons] == [
        ("Banana", ["Glimmer"]),
        ("Glimmer", ["Neros"]),
    ]


def test_write_atomic_leaves_no_temporary_files(tmp_path):
    path = tmp_path / "x" / "game.toml"
    write_atomic(path, "title = 'a'\n")
    write_atomic(path, "title = 'b'\n")
    assert path.read_text() == "title = 'b'\n"
    assert [p.name for p in path.parent.iterdir()] == ["game.toml"]


def test_vote_reset_clears_every_vote_from_its_post(game_dir):
    game = load_game(game_dir)
    append_event(game, {"kind": "vote_reset", "post": 30})
    game = load_game(game_dir)
    day3 = count_days(game, read_game_posts(game), [3])[0]
    # Votes at posts 28 and 29 are gone; Banana (30) and the ghost votes after it remain.
    wylted = next(w for w in day3.wagons if w.target == "wylted")
    assert [v.post for v in wylted.voters] == [30, 31, 33]
    assert day3.outcome.kind == "no_execution"


def test_a_day_can_end_at_a_deadline_time(game_dir):
    ledger = game_dir / "events.jsonl"
    lines = ledger.read_text().splitlines()
    # Day 1 ends at 15:00 New York time instead of at post 15: posts 0-5 fall inside it.
    lines[1] = '{"kind": "day_end", "day": 1, "time": "2026-11-02T15:00"}'
    ledger.write_text("\n".join(lines) + "\n")
    game = load_game(game_dir)
    day1 = count_days(game, read_game_posts(game), [1])[0]
    assert day1.last_post == 4
    assert {w.target: w.votes for w in day1.wagons}["Kohai"] == 2
    assert day1.outcome.kind == "no_execution"  # 2 votes, 5 needed of 10 alive


def test_record_mends_a_ledger_without_its_final_newline(game_dir):
    ledger = game_dir / "events.jsonl"
    ledger.write_text(ledger.read_text().rstrip("\n"))  # hand-edited, no final newline
    last = ledger.read_text().splitlines()[-1]
    append_event(load_game(game_dir), {"kind": "vote_reset", "post": 40})
    lines = ledger.read_text().splitlines()
    assert lines[-1] == '{"kind": "vote_reset", "post": 40}'
    assert lines[-2] == last
    load_game(game_dir)  # every line still reads


def test_concurrent_records_never_interleave(game_dir):
    from concurrent.futures import ThreadPoolExecutor

    def write(i: int) -> None:
        append_event(load_game(game_dir), {"kind": "vote_reset", "post": 30 + i % 10})

    before = len(load_game(game_dir).events)
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(write, range(40)))
    game = load_game(game_dir)
    assert len(game.events) == before + 40


def test_an_unexpected_error_is_one_line_and_debug_shows_it(game_dir, monkeypatch):
    from typer.testing import CliRunner

    import modtool.host.counting
    from modtool.cli import app

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(modtool.host.counting, "count_days", broken)
    result = CliRunner().invoke(app, ["count", str(game_dir)])
    assert result.exit_code == 1
    assert (
        result.stderr.count("\n") == 1 and "unexpected error (RuntimeError: boom)" in result.stderr
    )
    debug = CliRunner().invoke(app, ["--debug", "count", str(game_dir)])
    assert isinstance(debug.exception, RuntimeError)


def test_record_after_a_replacement_and_undo(game_dir):
    from modtool.errors import GameFileError as Refused

    game = load_game(game_dir)
    n = len((game_dir / "events.jsonl").read_text().splitlines()) + 1  # the replacement's line
    append_event(game, {"kind": "replacement", "player": "Banana", "by": "Plantain", "post": 38})
    append_event(load_game(game_dir), {"kind": "vote_reset", "post": 39})
    assert load_game(game_dir).slot_names("Banana") == ["Banana", "Plantain"]
    # undo retracts the replacement's line; the ledger keeps both lines
    append_event(load_game(game_dir), {"kind": "undo", "line": n})
    assert load_game(game_dir).slot_names("Banana") == ["Banana"]
    assert len((game_dir / "events.jsonl").read_text().splitlines()) == n + 2
    with pytest.raises(Refused, match=f"line {n} was already undone at line {n + 2}"):
        append_event(load_game(game_dir), {"kind": "undo", "line": n})
    with pytest.raises(Refused, match=f"line {n + 2} is an undo"):
        append_event(load_game(game_dir), {"kind": "undo", "line": n + 2})


# A game.toml as `init` writes it: its header comment names the hosts and the rules.
INIT_HEADER = """# Written by `modtool init` from the thread's posters: check the players (remove
# anyone who is not playing, add aliases), the hosts, the timezone and the rules.
title = "g"
timezone = "UTC"
{hosts}

[[sources]]
path = "t.jsonl"

{rules}
preset = "mafiascum"
{rule}

[[players]]
name = "Ann"

[[players]]
name = "Bea"
"""


@pytest.mark.parametrize(
    ("hosts", "rules", "rule", "line", "says"),
    [
        ('hosts = "Host"', "[rules]", "", 5, "'hosts' must be a list of names"),
        ('hosts = ["Host", 3]', "[rules]", "", 5, "'hosts' must be a list of names"),
        ('hosts = ["Host"]', "[rule]", "", 10, "unknown setting 'rule'"),
        ('hosts = ["Host"]', "[rules]", 'threshld = "majority"', 12, "unknown rule 'threshld'"),
        ('hosts = ["Host"]', "[rules]", 'tie = "sometimes"', 12, "rule 'tie' cannot be"),
        ('hosts = ["Host"]', "[rules]", "self_vote = 3 # a comment", 12, "rule 'self_vote'"),
        # a tie a team chooses needs a game that names the team; the older name is read too
        ('hosts = ["Host"]', "[rules]", 'tie = "team-chooses"', 12, "names no team to choose"),
        ('hosts = ["Host"]', "[rules]", 'tie = "vampires-choose"', 12, "names no team to choose"),
    ],
)
def test_game_toml_errors_point_at_the_line_at_fault(tmp_path, hosts, rules, rule, line, says):
    """A comment that names a setting is not where it is set (errors said line 2)."""
    (tmp_path / "game.toml").write_text(INIT_HEADER.format(hosts=hosts, rules=rules, rule=rule))
    (tmp_path / "t.jsonl").write_text("")
    with pytest.raises(GameFileError) as caught:
        load_game(tmp_path)
    assert caught.value.line == line, str(caught.value)
    assert says in str(caught.value)


def test_a_player_listed_twice_is_reported_where_they_come_again(game_dir):
    setup = game_dir / "game.toml"
    setup.write_text(setup.read_text() + '\n[[players]]\nname = "Banana"\nseat = 11\n')
    with pytest.raises(GameFileError) as err:
        load_game(game_dir)
    second = len(setup.read_text().splitlines()) - 1  # the added name line
    assert str(err.value) == f"{setup}:{second}: player 'Banana' is listed twice"


def _players_at(setup, old: str, new: str) -> None:
    text = setup.read_text()
    assert old in text, old
    setup.write_text(text.replace(old, new, 1))


def _line_of(setup, text: str) -> int:
    return next(i for i, x in enumerate(setup.read_text().splitlines(), 1) if x == text)


@pytest.mark.parametrize(
    ("old", "new", "at", "says"),
    [
        # another player's name, as the resolver compares names (case and spacing ignored)
        (
            'name = "Banana"\n',
            'name = "Banana"\naccounts = ["kohai"]\n',
            'accounts = ["kohai"]',
            "player 'Banana': 'kohai' in its accounts is the name of player 'Kohai'; a name "
            "belongs to one player, or one's posts and votes count for the other: remove it "
            "from Banana's accounts",
        ),
        # a player listed after the one whose alias names them
        (
            'name = "awesome5000"\n',
            'name = "awesome5000"\naliases = ["Rex Favilla"]\n',
            'aliases = ["Rex Favilla"]',
            "player 'awesome5000': 'Rex Favilla' in its aliases is the name of player "
            "'RexFavilla'; a name belongs to one player, or one's posts and votes count for the "
            "other: remove it from awesome5000's aliases",
        ),
        # another player's alias: the later of the two is at fault, and either may go
        (
            'name = "Magoroth"\n',
            'name = "Magoroth"\naccounts = ["pie"]\n',
            'accounts = ["pie"]',
            "player 'Magoroth': 'pie' in its accounts is an alias of player 'ILikePie5'; a name "
            "belongs to one player, or one's posts and votes count for the other: remove it "
            "from Magoroth's accounts or from ILikePie5's aliases",
        ),
    ],
    ids=["an account that is another's name", "an alias that is a later name", "another's alias"],
)
def test_a_name_of_another_slot_is_refused_at_its_line(game_dir, old, new, at, says):
    """accounts = ["Kohai"] on Banana credited Kohai's posts to Banana, silently."""
    setup = game_dir / "game.toml"
    _players_at(setup, old, new)
    with pytest.raises(GameFileError) as err:
        load_game(game_dir)
    assert str(err.value) == f"{setup}:{_line_of(setup, at)}: {says}"


def test_a_slot_s_own_names_may_repeat_in_its_aliases_and_accounts(game_dir):
    setup = game_dir / "game.toml"
    _players_at(
        setup, 'aliases = ["Pie"]\n', 'aliases = ["Pie", "ilikepie5"]\naccounts = ["Pie"]\n'
    )
    assert load_game(game_dir).find_slot("pie") == "ILikePie5"


def test_a_player_entry_without_a_name_is_reported_at_its_own_line(game_dir):
    """A missing name in the 5th entry was reported at the 1st entry's line."""
    setup = game_dir / "game.toml"
    _players_at(setup, 'name = "Magoroth"\n', "")
    with pytest.raises(GameFileError) as err:
        load_game(game_dir)
    header = _line_of(setup, "seat = 5") - 1
    assert str(err.value) == (
        f"{setup}:{header}: [[players]] entry 5 has no name; every [[players]] entry needs "
        'name = "..."'
    )


@pytest.mark.parametrize(
    ("new", "who"),
    [
        ('nam = "Magoroth"\n', '[[players]] entry 5, which has no name = "..."'),
        ('name = "Magoroth"\nnam = "Mago"\n', "player 'Magoroth'"),
    ],
    ids=["in an entry without a name", "beside the name"],
)
def test_a_misspelt_player_field_is_reported_at_its_line(game_dir, new, who):
    """`nam =` in place of `name =` said only that a name is needed, at another entry's line."""
    setup = game_dir / "game.toml"
    _players_at(setup, 'name = "Magoroth"\n', new)
    with pytest.raises(GameFileError) as err:
        load_game(game_dir)
    line = next(i for i, x in enumerate(setup.read_text().splitlines(), 1) if x.startswith("nam "))
    assert str(err.value) == (
        f"{setup}:{line}: {who}: unknown field 'nam' (did you mean 'name'?); a player has "
        "accounts, aliases, name, role, seat, shown, team, voteless, weight"
    )
