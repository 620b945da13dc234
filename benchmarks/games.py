"""Games for the benchmarks, built at run time from a real archive game (nothing large is kept).

- `repeated_game`: a game folder whose posts file repeats a real game's posts to N posts (each
  copy renumbered after the one before, with its own ids and later times); the game's events
  are the real game's, so its last day runs on over every later copy and every post is counted
  (a game shorter than the real one keeps the events up to its last post).
- `cached_thread`: the same posts as phpBB 3 prosilver pages of PER_PAGE posts, stored in a page
  cache as a fetch would have left them, each page showing the pager a forum shows (the first
  and last pages and two either side of this one), and a game folder that reads them --offline.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import tomli_w

from modtool.threads.cache import PageCache
from modtool.threads.posts import Post, write_posts_jsonl

PER_PAGE = 25
THREAD = "https://forum.example.invalid/viewtopic.php?f=1&t=7"


def repeated_posts(posts: list[Post], n_posts: int) -> list[Post]:
    """`posts` again and again to `n_posts` posts, each copy numbered on from the last."""
    period = max(p.number or 0 for p in posts) + 1
    span = (posts[-1].time - posts[0].time) + timedelta(minutes=1)
    out = []
    for i in range(n_posts):
        copy, post = divmod(i, len(posts))
        p = posts[post]
        out.append(
            replace(
                p,
                post_id=f"{copy}-{p.post_id}" if copy else p.post_id,
                number=(p.number or 0) + copy * period,
                time=p.time + copy * span if p.time else None,
                _read={},
            )
        )
    return out


def _game_folder(source_game: Path, out: Path, sources: list[dict], n_posts: int) -> Path:
    """The source game's setup and events (less those past post n_posts - 1) reading `sources`."""
    out.mkdir(parents=True, exist_ok=True)
    lines = (source_game / "events.jsonl").read_text(encoding="utf-8").splitlines()
    kept = [line for line in lines if json.loads(line).get("post", 0) < n_posts]
    last_day = sum(json.loads(line)["kind"] == "day_start" for line in kept)
    kept = [line for line in kept if _before(json.loads(line).get("phase"), last_day)]
    (out / "events.jsonl").write_text("".join(f"{line}\n" for line in kept), encoding="utf-8")
    setup = tomllib.loads((source_game / "game.toml").read_text(encoding="utf-8"))
    setup["sources"] = sources
    (out / "game.toml").write_text(tomli_w.dumps(setup), encoding="utf-8")
    return out


def _before(phase: str | None, last_day: int) -> bool:
    """Whether a death's phase ("D2", "N1") falls in a game whose last day is `last_day`."""
    if phase is None:
        return True
    number = int(phase[1:])
    return number < last_day or (number == last_day and phase[0] == "D")


def repeated_game(source_game: Path, posts: list[Post], n_posts: int, out: Path) -> Path:
    """A game folder reading a posts file of `n_posts` posts repeated from `posts`."""
    folder = _game_folder(source_game, out, [{"path": "posts.jsonl"}], n_posts)
    with (folder / "posts.jsonl").open("w", encoding="utf-8") as fh:
        write_posts_jsonl(repeated_posts(posts, n_posts), fh)
    return folder


def page_url(start: int) -> str:
    return f"{THREAD}&start={start}" if start else THREAD


def _pager(page: int, pages: int) -> str:
    """phpBB 3's pager: page 1, the pages around this one, the last; this one unlinked."""
    shown = sorted({0, pages - 1, *range(max(0, page - 2), min(pages, page + 3))})
    items = []
    for n in shown:
        label = n + 1
        if n == page:
            items.append(f"<strong>{label}</strong>")
        else:
            href = f"./viewtopic.php?f=1&amp;t=7&amp;start={n * PER_PAGE}"
            items.append(f'<a href="{href}">{label}</a>')
    return f'<div class="pagination">{pages} pages &bull; Page {" ".join(items)}</div>'


def _post_html(post: Post) -> str:
    pid = f"p{post.number + 1000}"
    when = post.time.strftime("%a %b %d, %Y %I:%M %p") if post.time else ""
    return f"""
<div id="{pid}" class="post bg1"><div class="inner"><div class="postbody">
<h3><a href="#{pid}">Re: Game</a></h3>
<p class="author"><a href="./viewtopic.php?p={pid[1:]}#{pid}"></a>by <strong>
<a href="./memberlist.php?mode=viewprofile&amp;u=1" class="username">{post.author}</a>
</strong> &raquo; {when} </p>
<div class="content">{post.html}</div>
</div></div></div>"""


def thread_pages(posts: list[Post]) -> list[tuple[str, str]]:
    """(URL, HTML) of every page of a phpBB thread holding `posts`."""
    pages = -(-len(posts) // PER_PAGE)
    out = []
    for page in range(pages):
        chunk = posts[page * PER_PAGE : (page + 1) * PER_PAGE]
        body = "".join(_post_html(p) for p in chunk)
        pager = _pager(page, pages)
        html = (
            '<html><head><meta charset="utf-8"><meta name="generator" content="phpBB">'
            f"</head><body>{pager}{body}{pager}</body></html>"
        )
        out.append((page_url(page * PER_PAGE), html))
    return out


def cached_thread(source_game: Path, posts: list[Post], n_pages: int, out: Path) -> Path:
    """A game folder whose thread is `n_pages` phpBB pages in the page cache out/pages.sqlite."""
    thread = repeated_posts(posts, n_pages * PER_PAGE)
    folder = _game_folder(source_game, out, [{"url": THREAD}], len(thread))
    cache = PageCache(out / "pages.sqlite")
    pages = thread_pages(thread)
    for url, html in pages:
        cache.store(url, html, None, None)
    cache.store_thread([THREAD], [url for url, _ in pages])
    cache.close()
    return folder
