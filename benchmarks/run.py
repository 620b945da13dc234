"""Speed benchmarks (not part of `make test`): prints timings and ratios measured in this run.

1. `modtool count GAME --day all` on the largest archived game of ../shared/fixtures/mafiascum-dev,
   in a fresh process (cold: imports, reading the posts file, parsing every post) and again.
2. Reading saved phpBB pages (replicated to 200 pages) against a bare lxml.html parse of the
   same bytes, stage by stage, the median of PARSE_ROUNDS interleaved rounds.
3. The generic reader on saved pages of engines with no adapter (../shared/fixtures/pages and
   the WEB-FORUM-52 dev pages), page by page, against a bare lxml.html parse.
4. A cold fetch of N pages from a loopback server answering after L seconds, with C pages at
   once, against the ideal N*L/C.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

import lxml.html

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
ROUNDS = 3
PARSE_ROUNDS = 7
sys.path.insert(0, str(ROOT))  # tests.forum_server: the loopback forum of the fetch tests


def _timed(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def _time_command(args: list[str]) -> float:
    return _timed(lambda: subprocess.run(args, check=True, stdout=subprocess.DEVNULL))


def bench_count() -> None:
    archive = SHARED / "fixtures" / "mafiascum-dev"
    if not archive.is_dir():
        print("count: skipped (../shared/fixtures/mafiascum-dev is not here)")
        return
    from modtool.games import load_game
    from modtool.host.importer import import_mafiascum_archive
    from modtool.threads.sources import read_game_posts

    with tempfile.TemporaryDirectory() as tmp:
        import_mafiascum_archive(archive, Path(tmp))
        games = sorted(Path(tmp).iterdir(), key=lambda g: (g / "posts.jsonl.xz").stat().st_size)
        game = games[-1]
        n_posts = len(read_game_posts(load_game(game)))
        cmd = [sys.executable, "-m", "modtool", "count", str(game), "--day", "all", "--json"]
        cold = _time_command(cmd)
        rerun = min(_time_command(cmd) for _ in range(ROUNDS))
        start_up = min(
            _time_command([sys.executable, "-c", "import modtool.cli"]) for _ in range(ROUNDS)
        )
        print(
            f"count --day all, game {game.name} ({n_posts} posts): cold {cold:.2f}s, "
            f"re-run {rerun:.2f}s (best of {ROUNDS}; interpreter + imports {start_up:.2f}s); "
            f"{n_posts / max(rerun - start_up, 1e-9):,.0f} posts/s after start-up"
        )


def bench_parse() -> None:
    pages = sorted((SHARED / "fixtures" / "pages" / "phpbb3").glob("*.html"))
    if not pages:
        print("parse: skipped (no saved phpBB pages)")
        return
    from modtool.threads.forum import _document as build_tree
    from modtool.threads.forum import parse_page

    raw = [p.read_bytes() for p in pages]
    batch = (raw * (200 // len(raw) + 1))[:200]
    fresh = parse_page  # each page read as the first time: parse_page forgets the lines read

    def bare() -> None:
        for data in batch:
            lxml.html.document_fromstring(data)

    # Each stage includes the ones before it; all start from the same bytes.
    stages = {
        "tree": lambda: [build_tree(d) for d in batch],
        "posts (fields, html, reading)": lambda: [fresh(d).posts for d in batch],
        "posts + own text": lambda: [[p.text for p in fresh(d).posts] for d in batch],
        "posts + own text + vote lines": lambda: [[p.body for p in fresh(d).posts] for d in batch],
    }
    # Interleaved rounds, each ratio taken within its round, in CPU time: this machine's speed
    # drifts by up to 2x over minutes and other guests steal time; a round's timings share both.
    ratios: dict[str, list[float]] = {name: [] for name in stages}
    for _ in range(PARSE_ROUNDS):
        for name, work in stages.items():
            b = _cpu_timed(bare)
            ratios[name].append(_cpu_timed(work) / b)
    print(f"parse 200 saved phpBB pages against a bare lxml.html parse ({PARSE_ROUNDS} rounds):")
    for name, values in ratios.items():
        goal = "  (goal <= 1.5x)" if name == "posts + own text" else ""
        print(
            f"  {name:32s} median {median(values):.2f}x "
            f"(range {min(values):.2f}-{max(values):.2f}){goal}"
        )


def bench_generic(rounds: int = 5) -> None:
    """The generic reader on saved pages of engines with no adapter, against a bare lxml.html
    parse of the same bytes: the median page's ratio, and the worst (goal <= 5x)."""
    # The engines the generic reader is tested on (tests/test_generic_pages.py)
    generic = ("bbpress", "discuz", "flarum", "ipb4", "mybb", "phpbb2", "ubbthreads", "vanilla")
    pages = sorted(
        p
        for name in (*generic, "wpforo")
        for p in (SHARED / "fixtures" / "pages" / name).glob("*.html")
    )
    dev = SHARED / "fixtures" / "web-forum-52-dev" / "pages"
    pages += sorted(dev.glob("*.html"))
    if not pages:
        print("generic: skipped (no saved pages)")
        return
    from modtool.threads.forum import parse_page

    def read(data: bytes) -> None:
        parse_page(data, engine="generic")

    ratios = []
    for page in pages:
        data = page.read_bytes()
        try:
            parse_page(data, engine="generic")
        except Exception:  # noqa: BLE001 - a page the reader refuses is not timed
            continue
        bare = min(
            _cpu_timed(lambda d=data: lxml.html.document_fromstring(d)) for _ in range(rounds)
        )
        reading = min(_cpu_timed(lambda d=data: read(d)) for _ in range(rounds))
        ratios.append((reading / max(bare, 1e-9), page.name))
    ratios.sort()
    values = [r for r, _ in ratios]
    print(
        f"generic reader on {len(values)} saved pages against a bare lxml.html parse (best of "
        f"{rounds}): median {median(values):.1f}x, worst {values[-1]:.1f}x ({ratios[-1][1][:50]})"
        " (goal <= 5x)"
    )


def _cpu_timed(work) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def bench_fetch(pages: int = 20, latency: float = 0.2, concurrency: int = 4) -> None:
    from modtool.threads.fetch import Fetcher, FetchOptions, make_client
    from tests.forum_server import PER_PAGE, ForumServer

    options = FetchOptions(concurrency=concurrency, per_host_interval=0.0)
    with ForumServer(total=pages * PER_PAGE, latency=latency) as server, make_client() as client:
        wall = _timed(lambda: Fetcher(client, None, options).thread(server.url))
    ideal = pages * latency / concurrency
    # The first page must arrive before the others are known: (1 + ceil((N-1)/C)) * L at best.
    floor = (1 + -(-(pages - 1) // concurrency)) * latency
    print(
        f"cold fetch of {pages} pages at {latency * 1000:.0f} ms, {concurrency} at once: "
        f"{wall:.2f}s against N*L/C = {ideal:.2f}s, ratio {wall / ideal:.2f}x "
        f"(goal <= 1.2x; first-page-first floor {floor / ideal:.2f}x)"
    )


if __name__ == "__main__":
    bench_count()
    bench_parse()
    bench_generic()
    bench_fetch(20)
    bench_fetch(40)
