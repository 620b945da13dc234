"""Replay the archived mafiascum games and compare with the recorded lynch of every scorable day.

Data-driven: it imports ../shared/fixtures/mafiascum-dev with `import_mafiascum_archive`, counts
every day with the same code as `modtool count --json`, and scores by the archive's rules
(README of that folder). Skips cleanly when ../shared is absent.
"""

from __future__ import annotations

import json

from modtool.count import count_days
from modtool.importer import import_mafiascum_archive
from modtool.ledger import load_game
from modtool.names import normalise
from modtool.sources import read_game_posts

# Measured on the 20 dev games (90 scorable days); raise it when the engine improves.
ACCURACY_FLOOR = 89 / 90
# Days whose only blocking flags are these still have a recorded lynch ("broad" figure).
BROAD_FLAGS = {"toolfail", "mod_deviation"}
BLOCKING = {
    "toolfail",
    "mod_deviation",
    "no_majority",
    "long_twilight",
    "hammer_after_deadline",
    "plurality_lynch",
    "nonstandard_majority",
    "doublevoter_split",
    "two_lynches_per_day",
    "multiple_lynches",
    "missing_posts",
    "posts_unavailable",
    "no_end_post",
    "bad_window",
    "conflicting_outcome",
    "unknown_outcome",
    "day_death_post_unknown",
    "unparseable_fate",
    "label_error",
}


def _prediction(outcome) -> tuple[str, str | None]:
    if outcome.kind == "execution":
        return "lynch", outcome.player
    if outcome.kind == "no_execution" and outcome.rule == "no-lynch-majority":
        return "no_lynch", None
    return "none", None


def _correct(case: dict, day: dict, prediction: tuple[str, str | None]) -> bool:
    expected = day["expected"]
    kind, player = prediction
    if expected["kind"] == "no_lynch":
        return kind == "no_lynch"
    slot = case["slots"][expected["slot"]]
    names = {
        normalise(n)
        for n in (*slot["names"], *slot["aliases"], *(f for f in slot["forum_names"] if f))
    }
    return kind == "lynch" and normalise(player or "") in names


def test_replay_recorded_lynches(shared, tmp_path, capsys):
    archive = shared / "fixtures" / "mafiascum-dev"
    report = import_mafiascum_archive(archive, tmp_path)
    assert not report.skipped
    scored = right = broad = broad_right = 0
    misses = []
    for line in (archive / "cases.jsonl").read_text().splitlines():
        case = json.loads(line)
        game = load_game(tmp_path / case["game"])
        counts = {c.day: c for c in count_days(game, read_game_posts(game))}
        for day in case["days"]:
            blocking = set(day["flags"]) & BLOCKING
            in_broad = day["expected"]["kind"] != "unknown" and blocking <= BROAD_FLAGS
            if not day["scorable"] and not in_broad:
                continue
            prediction = _prediction(counts[day["day"]].outcome)
            good = _correct(case, day, prediction)
            broad += in_broad
            broad_right += in_broad and good
            if not day["scorable"]:
                continue
            scored += 1
            if good:
                right += 1
            else:
                expected = day["expected"].get("player") or day["expected"]["kind"]
                misses.append(
                    f"game {case['game']} day {day['day']}: expected {expected}, "
                    f"counted {prediction}"
                )
    with capsys.disabled():
        print(
            f"\nmafiascum-dev replay: {right}/{scored} scorable days "
            f"({right / scored:.1%}) name the recorded lynch; broad {broad_right}/{broad}"
        )
        for miss in misses:
            print("  miss:", miss)
    assert scored == 90
    assert right / scored >= ACCURACY_FLOOR
