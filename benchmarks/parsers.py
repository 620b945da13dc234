"""Would another HTML parser read phpBB pages faster? selectolax's lexbor against lxml.

Not part of `make bench`, and selectolax is not a dependency: this answers one question of
issue 25 (the adapters' own text at most 2x a bare lxml parse) and is kept so that the answer
can be checked again. Run it with selectolax installed in the venv:

    .venv/bin/pip install selectolax && .venv/bin/python benchmarks/parsers.py

It prints, against a bare lxml.html parse of the same bytes (best of ROUNDS, CPU time):
- lexbor's parse alone, on every saved page of ../shared (the fixtures and WEB-FORUM-52 dev);
- on the saved phpBB pages `make bench` reads (replicated to 200): the floor of a reader that
  makes the readings a count needs, with lxml's tree (each body read in place) and with
  lexbor's (each body's HTML taken from lexbor, then parsed by lxml and read: the reading is
  written for lxml's elements, text and tails).
"""

from __future__ import annotations

import time
from pathlib import Path
from statistics import median

import lxml.html
from selectolax.lexbor import LexborHTMLParser

from modtool.threads.body import inner_html, own_text, read, read_html
from modtool.threads.forum import _document as build_tree

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"
ROUNDS = 5


def _best(work) -> float:
    times = []
    for _ in range(ROUNDS):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def whole_pages() -> None:
    fixtures = SHARED / "fixtures"
    pages = sorted(fixtures.glob("pages/*/*.html"))
    pages += sorted((fixtures / "web-forum-52-dev" / "pages").glob("*.html"))
    ratios = []
    for page in pages:
        data = page.read_bytes()
        bare = _best(lambda d=data: lxml.html.document_fromstring(d))
        ratios.append(_best(lambda d=data: LexborHTMLParser(d)) / bare)
    print(
        f"lexbor's parse of {len(ratios)} saved pages against lxml's: median "
        f"{median(ratios):.2f}x (range {min(ratios):.2f}-{max(ratios):.2f})"
    )


def phpbb_floor() -> None:
    raw = [p.read_bytes() for p in sorted((SHARED / "fixtures/pages/phpbb3").glob("*.html"))]
    batch = (raw * (200 // len(raw) + 1))[:200]

    def bare() -> None:
        for data in batch:
            lxml.html.document_fromstring(data)

    def lxml_floor() -> None:
        for data in batch:
            # gathered first: a reading takes quotes out of the tree, ending an iteration
            bodies = [el for el in build_tree(data).iter("div") if el.get("class") == "content"]
            for el in bodies:
                own_text(read(el, inner_html(el), owned=True))

    def lexbor_parse() -> None:
        for data in batch:
            LexborHTMLParser(data)

    def lexbor_floor() -> None:
        for data in batch:
            for post in LexborHTMLParser(data).css("div.post"):
                content = post.css_first("div.content")
                if content is not None:
                    own_text(read_html(content.inner_html))

    b = _best(bare)
    print("200 saved phpBB pages, against a bare lxml parse:")
    for name, work in (
        ("lexbor parse", lexbor_parse),
        ("lxml tree + bodies read (floor)", lxml_floor),
        ("lexbor tree + bodies read by lxml (floor)", lexbor_floor),
    ):
        print(f"  {name:42s} {_best(work) / b:.2f}x")


if __name__ == "__main__":
    whole_pages()
    phpbb_floor()
