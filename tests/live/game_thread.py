"""The Mafia game thread every live test forum is seeded with: 40 posts (three pages of 15),
in the forum's own markup. Imported by each forum's seed.py, run with the forum's own Python.

The thread has votes in the forms hosts meet (bold "VOTE:", "Unvote", "VTL", "Vote:" at a
line's start, a [vote] tag, a nickname), votes inside quotes (which must not count), quote
headers, and times on both sides of the night the clocks go back in the forums' zone
(America/New_York), including 12:00, 00:00 and 09:00, which Django shows as "noon",
"midnight" and "9 a.m.". The fourth vote on Bob_Builder, erin's at post 27, makes four of
seven.
"""

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import NamedTuple
from zoneinfo import ZoneInfo

HOST = "TheHost"
START = datetime(2026, 10, 31, 9, 0, tzinfo=ZoneInfo("America/New_York"))  # EDT
ROLES = ("alice", "bob", "carol", "dave", "erin", "frank", "gina")

# (author, minutes after START, text). The clocks go back at 02:00 on Sunday Nov 1 (to EST).
# {role} is a player's name on the forum; a Quoted text opens with a quote in its markup.


class Quoted(NamedTuple):
    author: str
    quoted: str
    reply: str


_THREAD = [
    ("host", 0, "**Day 1 begins.** Seven players, majority is 4.\n\nVote with `VOTE: name`."),
    ("alice", 7, "Morning all. No vote yet."),
    ("bob", 15, "**VOTE: {carol}**\n\nshe was quiet in the sign-up thread"),
    ("carol", 22, Quoted("bob", "VOTE: {carol}", "That is a bad reason.")),
    ("dave", 31, "VTL {carol}"),
    ("erin", 40, "hi"),
    ("frank", 53, "I want to hear from {gina} first."),
    ("gina", 60 + 5, "Here now. **VOTE: Bob**"),
    ("alice", 60 + 17, "Quote from {gina}\n\n> Here now.\n\nWelcome."),
    ("carol", 60 + 29, "Nobody has answered me. **VOTE: {dave}**"),
    ("bob", 60 + 44, Quoted("carol", "VOTE: {dave}", "OMGUS much?")),
    ("dave", 2 * 60, "**Unvote**"),
    ("erin", 2 * 60 + 9, "**VOTE: {frank}**"),
    ("frank", 3 * 60, "noon post"),  # 12:00
    ("gina", 3 * 60 + 30, "lunch"),
    ("alice", 4 * 60 + 2, "**VOTE: {bob}**"),  # page 2 starts here
    ("bob", 5 * 60, "I am town.\n\n**Unvote**\n\n**VOTE: {gina}**"),
    ("carol", 6 * 60 + 11, "meh"),
    ("dave", 7 * 60 + 45, "Vote: {erin}"),
    ("erin", 9 * 60 + 1, Quoted("dave", "VOTE: {erin}", "why me")),
    ("frank", 11 * 60 + 30, "evening"),
    ("gina", 13 * 60 + 58, "late night thoughts"),
    ("alice", 15 * 60, "midnight!"),  # 00:00
    ("bob", 15 * 60 + 40, "still up"),
    # Sunday Nov 1: 01:00-02:00 happens twice, and a page shows no offset. A host's forum
    # where a post fell in that hour is ambiguous on the page itself: nothing is posted there.
    ("carol", 18 * 60 + 15, "**VOTE: {bob}**"),  # 03:15 EST: after the change
    ("dave", 24 * 60, "9 am sharp"),  # 09:00
    ("erin", 24 * 60 + 20, "**VOTE: {bob}**"),
    ("frank", 25 * 60, "hmm"),
    ("gina", 25 * 60 + 33, "**Unvote**"),
    ("alice", 26 * 60, "**VOTE: {carol}**"),
    ("bob", 27 * 60 + 10, Quoted("erin", "VOTE: {bob}", "Please no")),  # page 3 starts here
    ("carol", 28 * 60, "[vote]{bob}[/vote] still"),
    ("dave", 29 * 60 + 5, "**VOTE: {bob}**"),
    ("erin", 30 * 60, "that is three"),
    ("frank", 30 * 60 + 30, "**VOTE: {bob}**"),
    ("gina", 31 * 60, "ok"),
    ("alice", 31 * 60 + 15, "fine"),
    ("bob", 32 * 60, "gg"),
    ("carol", 32 * 60 + 45, "bye"),
    ("host", 33 * 60, "**Day 1 is over.** {bob} was lynched."),
]


def game_thread(players, quote) -> list[tuple[str, datetime, str]]:
    """(author, time, text) of each post, for a forum whose players are named `players` (in
    the order of ROLES) and whose markup quotes with `quote(author, text)`, a block that the
    reply follows."""
    names = dict(zip(ROLES, players, strict=True)) | {"host": HOST}
    posts = []
    for author, minutes, text in _THREAD:
        if isinstance(text, Quoted):
            quoted = quote(names[text.author], text.quoted.format(**names))
            text = quoted + text.reply
        posts.append((names[author], START + timedelta(minutes=minutes), text.format(**names)))
    return posts


def write_posts_file(path: Path, posts) -> None:
    """The thread as a modtool posts file, from the forum's database and not from a page:
    `posts` gives (the post's id, its author, its time, its HTML) in thread order."""
    with path.open("w") as out:
        for number, (post_id, author, time, html) in enumerate(posts, 1):
            line = {
                "post_id": str(post_id),
                "number": number,
                "author": author,
                "time": time.astimezone(UTC).isoformat(),
                "url": None,
                "html": html,
            }
            out.write(json.dumps(line) + "\n")
