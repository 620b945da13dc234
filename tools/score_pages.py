"""Score the reader on the saved real pages that have a hand-checked truth file
(../shared/fixtures/pages/<engine>/<name>.expected.json), field by field.

    python tools/score_pages.py [SHARED]

A post of the truth file is matched to the post the reader found at the same place on the
page (the index); each field is right or wrong on its own:
- author: equal;   post_id: equal;   number: equal where the page shows one;
- time: the same minute (the same instant where the page states an offset; the wall-clock
  time otherwise);
- text: the reader's own text starts with body_start and ends with body_end (or the alt_ pair),
  whitespace collapsed.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIELDS = ("found", "author", "post_id", "number", "time", "text")


def truth_files(shared: Path) -> list[Path]:
    return sorted((shared / "fixtures" / "pages").glob("*/*.expected.json"))


def read_page(html: Path) -> list:
    """The posts the reader finds on a saved page (modtool's own reading of a file)."""
    sys.path.insert(0, str(REPO))
    from modtool.threads.sources import read_sources

    return read_sources([str(html)])


def _squash(text: str) -> str:
    return " ".join(text.split())


def _same_time(found: datetime | None, iso: str | None) -> bool:
    if found is None or not iso:
        return False
    want = datetime.fromisoformat(iso)
    if want.tzinfo is not None:
        return abs((found - want).total_seconds()) < 60
    return found.replace(tzinfo=None).isoformat()[:16] == want.isoformat()[:16]


def _text_right(text: str, post: dict) -> bool:
    own = _squash(text)
    for start, end in (("body_start", "body_end"), ("alt_body_start", "alt_body_end")):
        if post.get(start) is None:
            continue
        if own.startswith(_squash(post[start])) and own.endswith(_squash(post[end])):
            return True
    return False


def score(truth_path: Path) -> dict:
    """{field: (right, out of)} for one page, and the posts the reader found."""
    truth = json.loads(truth_path.read_text("utf-8"))
    html = truth_path.with_name(truth_path.name.replace(".expected.json", ".html"))
    try:
        found = read_page(html)
    except Exception as exc:  # a page the reader refuses scores nothing
        found = []
        error = f"{type(exc).__name__}: {exc}"
    else:
        error = None
    right = {f: 0 for f in FIELDS}
    total = {f: 0 for f in FIELDS}
    for post in truth["posts"]:
        got = found[post["index"]] if post["index"] < len(found) else None
        checks = {
            "found": got is not None,
            "author": got is not None and got.author == post["author"],
            "post_id": got is not None and str(got.post_id) == str(post["post_id"]),
            "time": got is not None and _same_time(got.time, post.get("time_iso")),
            "text": got is not None and _text_right(got.text, post),
        }
        if post.get("post_number") is not None:
            checks["number"] = got is not None and got.number == post["post_number"]
        for field, ok in checks.items():
            total[field] += 1
            right[field] += ok
    return {
        "page": f"{truth_path.parent.name}/{html.name}",
        "posts": len(truth["posts"]),
        "found": len(found),
        "fields": {f: (right[f], total[f]) for f in FIELDS},
        "all_right": sum(
            1
            for post in truth["posts"]
            if post["index"] < len(found) and _all_right(found[post["index"]], post)
        ),
        "error": error,
    }


def _all_right(got, post: dict) -> bool:
    return (
        got.author == post["author"]
        and str(got.post_id) == str(post["post_id"])
        and (post.get("post_number") is None or got.number == post["post_number"])
        and _same_time(got.time, post.get("time_iso"))
        and _text_right(got.text, post)
    )


def main(argv: list[str]) -> int:
    shared = Path(argv[1]) if len(argv) > 1 else REPO.parent / "shared"
    rows = [score(p) for p in truth_files(shared)]
    head = ["page", "posts", "found", *FIELDS[1:], "all right"]
    print(" | ".join(head))
    print(" | ".join("---" for _ in head))
    for r in rows:
        cells = [f"{r['fields'][f][0]}/{r['fields'][f][1]}" for f in FIELDS[1:]]
        print(
            " | ".join([r["page"], str(r["posts"]), str(r["found"]), *cells, str(r["all_right"])])
        )
    posts = sum(r["posts"] for r in rows)
    print(f"\nall fields right: {sum(r['all_right'] for r in rows)} of {posts} posts")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
