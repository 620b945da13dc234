"""Speed benchmarks (not part of `make test`): prints timings and ratios measured in this run.

1. `modtool count GAME --day all` on the largest archived game of ../shared/fixtures/mafiascum-dev,
   in a fresh process (cold: imports, reading the posts file, parsing every post) and again.
2. Reading saved phpBB pages (replicated to 200 pages) against a bare lxml.html parse of the
   same bytes.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import lxml.html

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


def _time_command(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def bench_count() -> None:
    archive = SHARED / "fixtures" / "mafiascum-dev"
    if not archive.is_dir():
        print("count: skipped (../shared/fixtures/mafiascum-dev is not here)")
        return
    from modtool.importer import import_mafiascum_archive

    with tempfile.TemporaryDirectory() as tmp:
        import_mafiascum_archive(archive, Path(tmp))
        games = sorted(Path(tmp).iterdir(), key=lambda g: (g / "posts.jsonl.xz").stat().st_size)
        game = games[-1]
        from modtool.ledger import load_game
        from modtool.sources import read_game_posts

        n_posts = len(read_game_posts(load_game(game)))
        cmd = [sys.executable, "-m", "modtool", "count", str(game), "--day", "all", "--json"]
        cold = _time_command(cmd)
        rerun = min(_time_command(cmd) for _ in range(3))
        baseline = _time_command([sys.executable, "-c", "import modtool.cli"])
        print(
            f"count --day all, game {game.name} ({n_posts} posts): cold {cold:.2f}s, "
            f"re-run {rerun:.2f}s (of which interpreter + imports {baseline:.2f}s); "
            f"{n_posts / max(rerun - baseline, 1e-9):,.0f} posts/s after start-up"
        )


def bench_parse() -> None:
    pages = sorted((SHARED / "fixtures" / "pages" / "phpbb3").glob("*.html"))
    if not pages:
        print("parse: skipped (no saved phpBB pages)")
        return
    from modtool.forum import decode_page, parse_page

    texts = [decode_page(p.read_bytes()) for p in pages]
    batch = (texts * (200 // len(texts) + 1))[:200]
    start = time.perf_counter()
    for text in batch:
        lxml.html.document_fromstring(text)
    bare = time.perf_counter() - start
    start = time.perf_counter()
    for text in batch:
        for post in parse_page(text).posts:
            post.text  # noqa: B018 - parsing the body is part of reading a page
    ours = time.perf_counter() - start
    print(
        f"parse 200 phpBB pages: modtool {ours:.2f}s, bare lxml {bare:.2f}s, "
        f"ratio {ours / bare:.2f}x (goal <= 1.5x)"
    )


if __name__ == "__main__":
    bench_count()
    bench_parse()
