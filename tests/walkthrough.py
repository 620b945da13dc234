"""The commands a doc shows in its ```console blocks (`$ modtool ...` and the output under it),
run in order in one folder and compared with what they print; with MODTOOL_UPDATE_GOLDEN=1
the doc's outputs are written from the run instead."""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

_BLOCK = re.compile(r"^```console\n(.*?)^```$", re.S | re.M)

Run = Callable[[list[str]], tuple[int, str, str]]  # args after `modtool` -> (code, out, err)


@dataclass(frozen=True)
class Step:
    command: str  # as written after "$ "
    output: str  # the lines under it, each ending in a newline


def steps(text: str) -> list[Step]:
    found: list[Step] = []
    for block in _BLOCK.finditer(text):
        command, lines = None, []
        for line in block[1].splitlines(keepends=True):
            if line.startswith("$ "):
                if command is not None:
                    found.append(Step(command, "".join(lines)))
                command, lines = line[2:].rstrip("\n"), []
            else:
                lines.append(line)
        if command is not None:
            found.append(Step(command, "".join(lines)))
    return found


def args_of(command: str) -> list[str]:
    words = shlex.split(command)
    assert words[0] == "modtool", f"a walkthrough command runs modtool: {command}"
    return words[1:]


def check(doc: Path, run: Run) -> int:
    """Run the doc's commands; each must exit 0 and print what the doc shows. Returns how many
    commands ran."""
    text = doc.read_text("utf-8")
    shown = steps(text)
    assert shown, f"{doc} shows no commands"
    outputs = []
    for step in shown:
        code, out, err = run(args_of(step.command))
        assert code == 0, f"{step.command} exited {code}: {err}"
        outputs.append(out if not out or out.endswith("\n") else out + "\n")
    if os.environ.get("MODTOOL_UPDATE_GOLDEN"):
        doc.write_text(_written(text, outputs), "utf-8")
        return len(shown)
    for step, out in zip(shown, outputs, strict=True):
        assert out == step.output, f"{doc.name}: `{step.command}` printed:\n{out}"
    return len(shown)


def _written(text: str, outputs: list[str]) -> str:
    left = iter(outputs)

    def block(match: re.Match) -> str:
        lines = []
        for line in match[1].splitlines(keepends=True):
            if line.startswith("$ "):
                lines += [line, next(left)]
        return "```console\n" + "".join(lines) + "```"

    return _BLOCK.sub(block, text)
