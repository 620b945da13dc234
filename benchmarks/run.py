"""Speed benchmarks (not part of `make test`): prints timings and ratios measured in this run.

Every command is timed as a whole process, in CPU time (user + system, the kernel's own count
for that child), the median of ROUNDS runs taken in turn with its yardstick: the machine is
shared and its speed drifts, and a ratio within one round holds where a time does not. The
children run without PYTHONDONTWRITEBYTECODE, as a host's installed modtool does.

0. Start-up alone (no archive needed): `modtool count --offline` of the bundled example Mafia
   game against `python -c pass`, from a non-editable copy of this checkout (a wheel unpacked
   into this run's folder, before the venv's editable one on the path) unless the benchmark is
   run by an installed copy's Python; then where the imports' time goes (-X importtime, the
   least of a few runs), by package and by module.
1. Start-up: `modtool count` of a 20-post game against `python -c pass`.
2. Re-counts of games built from the largest archived game of ../shared/fixtures/mafiascum-dev
   (benchmarks/games.py): 10^3 / 10^4 / 10^5 posts from a posts file, against reading the same
   file with json.loads and one regex scan for vote words; and 100 / 1,000 phpBB pages from the
   page cache (--offline). Per post after start-up, the growth table; peak memory per post
   above the floor's.
3. The dev games of the archive, one `modtool count` each, and the share start-up takes.
4. Reading saved phpBB pages (replicated to 200 pages) against a bare lxml.html parse of the
   same bytes, stage by stage, the median of PARSE_ROUNDS interleaved rounds; with the floor
   of any reader that makes the readings a count needs: the tree and each body's reading.
5. The generic reader on saved pages of engines with no adapter (../shared/fixtures/pages and
   the WEB-FORUM-52 dev pages), page by page, against a bare lxml.html parse.
6. A cold fetch of N pages from a loopback server answering after L seconds, with C pages at
   once, against the ideal N*L/C.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

import lxml.html

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
ARCHIVE = SHARED / "fixtures" / "mafiascum-dev"
ROUNDS = 5
PARSE_ROUNDS = 7
# After the installed modtool, so that the benchmark of an installed copy times that copy:
sys.path.append(str(ROOT))  # tests.forum_server: the loopback forum of the fetch tests
sys.path.insert(0, str(ROOT / "benchmarks"))

# The floor of a re-count: read the posts file and look for vote words once in each post.
FLOOR = (
    "import json, re, sys\n"
    "vote = re.compile(r'vote|unvote|lynch', re.I)\n"
    "with open(sys.argv[1], encoding='utf-8') as fh:\n"
    "    n = sum(1 for line in fh if vote.search(json.loads(line)['html']))\n"
)


def _timed(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def _child_env(cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["XDG_CACHE_HOME"] = str(cache)  # the readings a count keeps, in this run's folder
    return env


def _run(
    args: list[str], env: dict[str, str], check: bool = True, cwd: Path | None = None
) -> tuple[float, float]:
    """(CPU seconds, peak MB) of one child process, from the kernel's accounting of it."""
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    child = subprocess.Popen(args, env=env, cwd=cwd, **quiet)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if check and child.returncode != 0:
        raise SystemExit(f"benchmark command failed ({child.returncode}): {' '.join(args)}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def _paired(a: list[str], b: list[str], env, rounds: int = ROUNDS, cwd: Path | None = None):
    """Median CPU of a, of b, and of a/b taken round by round; a's and b's peak MB."""
    runs = []
    _run(a, env, cwd=cwd), _run(b, env, cwd=cwd)  # warm-up: bytecode, file cache, readings
    for _ in range(rounds):
        runs.append((_run(a, env, cwd=cwd), _run(b, env, cwd=cwd)))
    cpu_a = median(r[0][0] for r in runs)
    cpu_b = median(r[1][0] for r in runs)
    ratio = median(r[0][0] / r[1][0] for r in runs)
    return cpu_a, cpu_b, ratio, max(r[0][1] for r in runs), max(r[1][1] for r in runs)


def _count_cmd(folder: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "modtool", "count", str(folder), "--day", "all", "--json", *extra]


def _source_game(tmp: Path):
    """The largest archived game, imported, and its posts."""
    from modtool.games import load_game
    from modtool.host.importer import import_mafiascum_archive
    from modtool.threads.sources import read_game_posts

    import_mafiascum_archive(ARCHIVE, tmp / "archive")
    games = sorted((tmp / "archive").iterdir(), key=lambda g: (g / "posts.jsonl.xz").stat().st_size)
    return games, read_game_posts(load_game(games[-1]))


def bench_counts() -> None:
    if not ARCHIVE.is_dir():
        print("counts: skipped (../shared/fixtures/mafiascum-dev is not here)")
        return
    from games import cached_thread, repeated_game

    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        env = _child_env(tmp / "cache")
        games, posts = _source_game(tmp)
        source = games[-1]
        print(f"games built from archive game {source.name} ({len(posts)} posts)")

        small = repeated_game(source, posts, 20, tmp / "20")
        pass_cmd = [sys.executable, "-c", "pass"]
        start, floor, ratio, _, _ = _paired(_count_cmd(small), pass_cmd, env)
        print(
            f"start-up: count of a 20-post game {start:.3f}s CPU, python -c pass {floor:.3f}s: "
            f"{start - floor:.3f}s above it (goal <= 0.08s), {ratio:.1f}x"
        )

        print("re-count from a posts file (warm readings) against json.loads + one regex scan:")
        print("  posts    count s  floor s  ratio  per post after start-up  peak MB")
        peaks, sizes = {}, {}
        for n in (1_000, 10_000, 100_000):
            folder = repeated_game(source, posts, n, tmp / f"posts-{n}")
            floor_cmd = [sys.executable, "-c", FLOOR, str(folder / "posts.jsonl")]
            rounds = 3 if n == 100_000 else ROUNDS
            cpu, floor, ratio, peaks[n], _ = _paired(_count_cmd(folder), floor_cmd, env, rounds)
            sizes[n] = (folder / "posts.jsonl").stat().st_size / 2**20
            per_post = (cpu - start) / n * 1e6
            goal = " (goal <= 3x)" if n == 100_000 else ""
            print(
                f"  {n:>7,}  {cpu:7.2f}  {floor:7.2f}  {ratio:4.1f}x  {per_post:10.1f} us"
                f"  {peaks[n]:17.0f}{goal}"
            )
        # Peaks are compared between two sizes: a child's peak counts its parent's pages
        # until it starts Python, and both sizes count them alike.
        grown, posts_size = peaks[100_000] - peaks[10_000], sizes[100_000] - sizes[10_000]
        print(
            f"  memory: {grown * 1024 / 90_000:.2f} KB a post from 10^4 to 10^5 posts, of which "
            f"the posts file holds {posts_size * 1024 / 90_000:.2f} KB: "
            f"{(grown - posts_size) * 1024 / 90_000:.2f} KB above the posts (goal <= 1 KB)"
        )
        cold_cache = tmp / "cold"
        cold = [_run(_count_cmd(folder), _child_env(cold_cache / str(i)))[0] for i in range(2)]
        print(
            f"  first count of the 10^5 posts, no readings kept: {median(cold):.2f}s "
            f"({median(cold) / cpu:.1f}x the warm re-count)"
        )

        print("re-count from the page cache (--offline), phpBB pages of 25 posts:")
        print("  pages    posts  count s  per post after start-up")
        per_page = {}
        for pages in (100, 1_000):
            folder = cached_thread(source, posts, pages, tmp / f"pages-{pages}")
            cache = ["--offline", "--cache", str(folder / "pages.sqlite")]
            cpu = median(_run(_count_cmd(folder, *cache), env)[0] for _ in range(3))
            per_page[pages] = (cpu - start) / (pages * 25) * 1e6
            print(f"  {pages:>5,}  {pages * 25:>7,}  {cpu:7.2f}  {per_page[pages]:10.1f} us")
        print(
            f"  1,000 pages against 100, per post: {per_page[1_000] / per_page[100]:.2f}x "
            "(goal <= 1.3x)"
        )

        total = sum(_run(_count_cmd(g), env, check=False)[0] for g in games)
        print(
            f"{len(games)} dev games, one count each: {total:.2f}s CPU, start-up "
            f"{start * len(games) / total:.0%} of it"
        )


def _installed_copy(tmp: Path, env: dict[str, str]) -> dict[str, str]:
    """The environment that runs a non-editable modtool: this Python's own when its modtool is
    installed, else a wheel of the checkout unpacked into tmp, first on the path (an editable
    install finds modules through a hook of its own, which an installed copy does not have)."""
    import modtool

    if not Path(modtool.__file__).resolve().is_relative_to(ROOT):
        return env
    wheels, site = tmp / "wheels", tmp / "site"
    quiet = {"check": True, "capture_output": True}
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    subprocess.run([*pip, "wheel", "--quiet", "--no-deps", "-w", str(wheels), str(ROOT)], **quiet)
    wheel = next(wheels.glob("modtool-*.whl"))
    subprocess.run(
        [*pip, "install", "--quiet", "--no-deps", "--target", str(site), str(wheel)], **quiet
    )
    return {**env, "PYTHONPATH": str(site)}


def _import_profile(args: list[str], env: dict[str, str], cwd: Path, runs: int = 3):
    """-X importtime of a command: each module's own microseconds (the least of `runs`)."""
    own: dict[str, int] = {}
    for _ in range(runs):
        command = [sys.executable, "-X", "importtime", *args]
        err = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True).stderr
        for line in err.splitlines():
            fields = line.removeprefix("import time:").split("|")
            if len(fields) != 3 or not fields[0].strip().isdigit():
                continue
            name, us = fields[2].strip(), int(fields[0])
            own[name] = min(own.get(name, us), us)
    return own


def _package_of(module: str) -> str:
    """modtool.core, modtool.threads, ...; typer, click, lxml, ...; or 'stdlib'."""
    parts = module.split(".")
    if parts[0] == "modtool":
        return ".".join(parts[:2])
    if parts[0] in sys.stdlib_module_names or parts[0].startswith("_"):
        return "stdlib"
    return parts[0]


def bench_startup() -> None:
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        env = _installed_copy(tmp, _child_env(tmp / "cache"))
        game = tmp / "example-mafia"
        shutil.copytree(ROOT / "games" / "example-mafia", game)
        count = [sys.executable, "-m", "modtool", "count", "--offline", str(game)]
        pass_cmd = [sys.executable, "-c", "pass"]
        # In the run's folder: `python -m` puts the working folder first on the path, and in
        # the checkout that is the source tree, not the installed copy.
        start, floor, ratio, _, _ = _paired(count, pass_cmd, env, rounds=9, cwd=tmp)
        print(
            f"start-up: count --offline of the example Mafia game {start:.3f}s CPU, python -c pass"
            f" {floor:.3f}s: {start - floor:.3f}s above it (goal <= 0.08s), {ratio:.1f}x"
        )
        own = _import_profile(count[1:], env, tmp)
        total = sum(own.values())
        by_package: dict[str, int] = {}
        for module, us in own.items():
            by_package[_package_of(module)] = by_package.get(_package_of(module), 0) + us
        print(
            f"  imports: {len(own)} modules, {total / 1000:.0f} ms of own time under -X importtime"
            " (which slows them); by package:"
        )
        top = sorted(by_package.items(), key=lambda kv: -kv[1])[:10]
        print("   " + ", ".join(f"{p} {us / total:.0%}" for p, us in top))
        print("  the modules that take longest themselves:")
        top = sorted(own.items(), key=lambda kv: -kv[1])[:8]
        print("   " + ", ".join(f"{m} {us / 1000:.1f} ms" for m, us in top))


def bench_parse() -> None:
    pages = sorted((SHARED / "fixtures" / "pages" / "phpbb3").glob("*.html"))
    if not pages:
        print("parse: skipped (no saved phpBB pages)")
        return
    from modtool.threads.body import inner_html, own_text, read
    from modtool.threads.forum import _document as build_tree
    from modtool.threads.forum import parse_page

    raw = [p.read_bytes() for p in pages]
    batch = (raw * (200 // len(raw) + 1))[:200]
    fresh = parse_page  # each page read as the first time: parse_page forgets the lines read

    def bare() -> None:
        for data in batch:
            lxml.html.document_fromstring(data)

    def each_page(read):
        def work() -> None:
            for data in batch:
                read(data)

        return work

    # Each stage includes the ones before it; all start from the same bytes. Each page's
    # result is dropped before the next page is read, as the bare parse drops its tree: a
    # stage that kept 200 trees made the bare parse timed after it slower (their memory given
    # back), and the next stage's ratio lower (posts 2.4x where it was 3.8x timed alone).
    def bodies_alone(data: bytes) -> None:
        """The least any reader of these pages does: the tree, then each post body's HTML,
        reading and own text, as the adapter makes them, and no other field. The bodies are
        gathered before any is read: a reading changes the tree (a quote is taken out), which
        ends an iteration still running over it."""
        bodies = [el for el in build_tree(data).iter("div") if el.get("class") == "content"]
        for el in bodies:
            own_text(read(el, inner_html(el), owned=True))

    stages = {
        "tree": each_page(build_tree),
        "tree + bodies alone (floor)": each_page(bodies_alone),
        "posts (fields, html, reading)": each_page(lambda d: fresh(d).posts),
        "posts + own text": each_page(lambda d: [p.text for p in fresh(d).posts]),
        "posts + own text + vote lines": each_page(lambda d: [p.body for p in fresh(d).posts]),
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
        goal = "  (goal <= 2x)" if name == "posts + own text" else ""
        print(
            f"  {name:32s} median {median(values):.2f}x "
            f"(range {min(values):.2f}-{max(values):.2f}){goal}"
        )


def bench_generic(rounds: int = 5) -> None:
    """The generic reader on saved pages of engines with no adapter, against a bare lxml.html
    parse of the same bytes: the median page's ratio, the best and the worst (goal <= 5x)."""
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
        f"{rounds}): median {median(values):.1f}x, best {values[0]:.1f}x ({ratios[0][1][:50]}), "
        f"worst {values[-1]:.1f}x ({ratios[-1][1][:50]})"
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


BENCHES = {
    "startup": bench_startup,
    "counts": bench_counts,
    "parse": bench_parse,
    "generic": bench_generic,
    "fetch": lambda: (bench_fetch(20), bench_fetch(40)),
}

if __name__ == "__main__":
    for name in sys.argv[1:] or BENCHES:  # e.g. `python benchmarks/run.py counts parse`
        BENCHES[name]()
