"""The tune / held-back split of the WEB-FORUM-52 dev forums (docs/dev/reader-split.md).

The rule, fixed before any page was looked at: sort the forums' domains (the gold's `domain`)
as strings; the 1st, 3rd, 5th ... are the tune half, the 2nd, 4th, 6th ... the held-back half.
Both pages of a forum go to the same half, so no forum is seen through a sibling page.

    python tools/reader_split.py tune      # the tune half's document names, one a line
    python tools/reader_split.py held      # the held-back half's
    ../shared/tools/score-web52 -v $(python tools/reader_split.py tune)
"""

from __future__ import annotations

import json
import pathlib
import sys

DEV = pathlib.Path(__file__).resolve().parents[1].parent / "shared/fixtures/web-forum-52-dev"
HALVES = ("tune", "held")


def half_of(domain: str, domains: list[str]) -> str:
    """The half a forum belongs to: alternation through the sorted domains, tune first."""
    return HALVES[sorted(set(domains)).index(domain) % 2]


def documents(half: str, dev: pathlib.Path = DEV) -> list[str]:
    """The document names (page stems) of one half, sorted."""
    domains = {p.stem: json.loads(p.read_text("utf-8"))["domain"] for p in dev.glob("gold/*.json")}
    every = list(domains.values())
    return sorted(doc for doc, domain in domains.items() if half_of(domain, every) == half)


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in HALVES:
        sys.exit("usage: python tools/reader_split.py tune|held")
    print("\n".join(documents(sys.argv[1])))
