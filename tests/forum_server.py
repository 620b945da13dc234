"""A paginated phpBB-shaped thread for fetch tests: as page text, and served on loopback.

The markup is that of the saved phpBB 3.0 prosilver pages; the posts are made up.
"""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

PER_PAGE = 25


def thread_page(
    start: int,
    total: int,
    missing: int = 0,
    window: int | None = None,
    deleted: frozenset[int] = frozenset(),
) -> str:
    """Page `start` (a post offset) of a `total`-post thread, less its last `missing` posts.

    The pager links every page, or with `window` as a big forum's does: the first and last
    pages and `window` pages either side of this one. Posts `deleted` (by a moderator) are
    gone, and every later post moves up, as a forum that pages by offset shows them.
    """
    live = [n for n in range(total) if n not in deleted]
    total = len(live)
    posts = []
    for n in live[start : min(start + PER_PAGE, total) - missing]:
        posts.append(f"""
<div id="p{1000 + n}" class="post bg1"><div class="inner"><div class="postbody">
<h3><a href="#p{1000 + n}">Re: Game</a></h3>
<p class="author"><a href="./viewtopic.php?p={1000 + n}#p{1000 + n}"></a>by <strong>
<a href="./memberlist.php?mode=viewprofile&amp;u={n % 5}">player{n % 5}</a></strong>
 &raquo; Sun May 26, 2019 4:{n % 60:02d} pm </p>
<div class="content">post {n}<br>
<span style="font-weight: bold">VOTE: player{(n + 1) % 5}</span></div>
</div></div></div>""")
    links = "".join(
        f'<a href="./viewtopic.php?f=1&amp;t=7&amp;start={s}">{s // PER_PAGE + 1}</a>'
        if s != start
        else f"<strong>{s // PER_PAGE + 1}</strong>"
        for s in range(0, total, PER_PAGE)
        if window is None
        or s in (0, (total - 1) // PER_PAGE * PER_PAGE)
        or abs(s - start) <= window * PER_PAGE
    )
    return (
        f'<html><head><meta name="generator" content="phpBB"></head><body>'
        f'<div class="pagination">{links}</div>{"".join(posts)}</body></html>'
    )


class ForumServer:
    """Serves the thread at http://127.0.0.1:PORT/viewtopic.php?f=1&t=7[&start=N].

    `latency` delays every answer; `faults` maps a start offset to a list of faults served
    before the real page: an HTTP status (429 comes with Retry-After: 1), "timeout"
    (an answer slower than the client's timeout), "short" (the page less ten posts, as when
    posts are hidden from guests), or a fault of the connection: "reset" (a TCP reset before
    any answer), "close" (the connection closed with no answer), "truncate" (half the body
    of an announced Content-Length, then closed), "cut" (half the body with no length, closed:
    only the missing </html> shows it), "stall" (half the body, then silence past the
    client's timeout). `requests` counts requests per offset.
    """

    CONNECTION_FAULTS = ("reset", "close", "truncate", "cut", "stall")

    def __init__(
        self,
        total: int,
        latency: float = 0.0,
        faults: dict[int, list[int | str]] | None = None,
        timeout_delay: float = 1.5,
    ) -> None:
        self.total, self.latency, self.timeout_delay = total, latency, timeout_delay
        self.deleted: set[int] = set()  # posts a moderator deleted
        self.faults = {k: list(v) for k, v in (faults or {}).items()}
        self.requests: Counter[int] = Counter()
        self.conditional = 0
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # keep test output clean
                pass

            def do_GET(self) -> None:  # noqa: N802 - the http.server API
                query = parse_qs(urlparse(self.path).query)
                start = int(query.get("start", ["0"])[0])
                with server._lock:
                    server.requests[start] += 1
                    fault = server.faults.get(start, []) and server.faults[start].pop(0)
                    if self.headers.get("If-None-Match"):
                        server.conditional += 1
                time.sleep(server.latency)
                if fault in ForumServer.CONNECTION_FAULTS:
                    self._connection_fault(fault, thread_page(start, server.total).encode())
                    return
                if fault == "timeout":
                    time.sleep(server.timeout_delay)
                elif fault and fault != "short":
                    self.send_response(fault)
                    if fault == 429:
                        self.send_header("Retry-After", "1")
                    self.end_headers()
                    return
                missing = 10 if fault == "short" else 0
                deleted = frozenset(server.deleted)
                body = thread_page(start, server.total, missing, deleted=deleted).encode()
                etag = f'"{start}-{server.total}-{sorted(deleted)}"'
                if self.headers.get("If-None-Match") == etag:
                    self.send_response(304)
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("ETag", etag)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _connection_fault(self, fault: str, body: bytes) -> None:
                self.close_connection = True
                if fault == "reset":
                    # SO_LINGER 0: close() sends a RST instead of a FIN
                    self.connection.setsockopt(
                        socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
                    )
                    return
                if fault == "close":
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                if fault in ("truncate", "stall"):
                    self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                if fault == "stall":
                    time.sleep(server.timeout_delay)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/viewtopic.php?f=1&t=7"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> ForumServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
