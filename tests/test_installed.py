"""The wheel, installed in a fresh virtual environment, works outside the repository: the
templates, presets and every module travel with it (`pip install .` and `pipx install .`)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import venv

import pytest

from .conftest import EXAMPLE, ROOT
from .walkthrough import check


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    work = tmp_path_factory.mktemp("installed")
    wheels = work / "wheels"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "-w",
            str(wheels),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    env_dir = work / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    wheel = next(wheels.glob("modtool-*.whl"))
    pip = subprocess.run(
        [str(env_dir / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)],
        capture_output=True,
        text=True,
    )
    if pip.returncode != 0:
        pytest.fail(f"pip install of the wheel failed: {pip.stderr[-2000:]}")
    return env_dir / "bin" / "modtool", work


def test_an_installed_copy_counts_and_drafts_outside_the_repository(installed):
    modtool, work = installed
    game = work / "game"
    shutil.copytree(EXAMPLE, game)
    outside = {"cwd": work, "capture_output": True, "text": True}
    counted = subprocess.run([str(modtool), "count", str(game), "--day", "all"], **outside)
    assert counted.returncode == 0, counted.stderr
    assert "Day 4 vote count" in counted.stdout
    drafted = subprocess.run([str(modtool), "count", str(game), "--post", "bbcode"], **outside)
    assert drafted.returncode == 0, drafted.stderr
    assert "[b]" in drafted.stdout
    # every kind of draft, in both languages and markups: templates and role data are shipped
    for kind in ("votecount", "dayend", "nightend", "rolepms", "night"):
        for lang, markup in (("en", "bbcode"), ("ko", "markdown")):
            if (kind, lang) == ("rolepms", "ko"):
                continue  # Trouble Brewing has no Korean role text (tests/test_drafts.py)
            args = ["draft", kind, str(game), "--lang", lang, "--format", markup, "--night", "1"]
            if kind == "dayend":
                args += ["--day", "3"]  # Day 4 is in progress: a day-end post is of a closed day
            run = subprocess.run([str(modtool), *args], **outside)
            assert run.returncode == 0, (kind, lang, run.stderr)
    for args in (["setup", "check", str(game)], ["grimoire", str(game), "--night", "1"]):
        run = subprocess.run([str(modtool), *args], **outside)
        assert run.returncode == 0, (args, run.stderr)
    written = sorted(p.name for p in (game / "drafts").iterdir())
    assert "role-Kohai.en.bbcode" in written and "night1-whiteflame.ko.md" in written
    # a game's own templates travel in its package: the Vampires game's role PMs
    vampires = work / "vampires"
    shutil.copytree(ROOT / "games" / "example-vampires", vampires)
    pms = subprocess.run([str(modtool), "draft", "rolepms", str(vampires), "--stdout"], **outside)
    assert pms.returncode == 0, pms.stderr
    assert "your role is [b]Vampire[/b]" in pms.stdout
    version = subprocess.run([str(modtool), "-V"], **outside)
    assert version.stdout.startswith("modtool ")


@pytest.mark.parametrize("doc", ["README.md", "docs/first-game.md"])
def test_an_installed_copy_runs_the_walkthrough_outside_the_repository(installed, doc, tmp_path):
    """Every command the README and the first-game walkthrough show, run by the installed
    modtool in an empty folder outside the repository, prints what the doc shows."""
    modtool, _ = installed

    def run(args: list[str]) -> tuple[int, str, str]:
        done = subprocess.run([str(modtool), *args], cwd=tmp_path, capture_output=True, text=True)
        return done.returncode, done.stdout, done.stderr

    assert check(ROOT / doc, run) > 0


def test_an_installed_copy_shows_its_docs_and_help_without_the_repository(installed, tmp_path):
    modtool, _ = installed
    outside = {"cwd": tmp_path, "capture_output": True, "text": True}
    listed = subprocess.run([str(modtool), "docs"], **outside)
    assert listed.returncode == 0 and "first-game" in listed.stdout
    shown = subprocess.run([str(modtool), "docs", "first-game"], **outside)
    assert shown.returncode == 0 and shown.stdout.startswith("# Your first game")
    assert "$ modtool init mafia --thread" in shown.stdout
    helped = subprocess.run([str(modtool), "-h"], **outside)
    assert "games/example" not in helped.stdout and "modtool example demo" in helped.stdout
