"""Seed the live forum: a Mafia game thread of 40 posts (three pages of 15), then write the
same thread as a modtool posts file from the database, the answer the test reads the forum
against. Run with the forum's own Python: `python seed.py` (MACHINA_SITE_DATA set).

The thread has votes in the forms hosts meet (bold "VOTE:", "Unvote", "VTL", "Vote:" at a
line's start, a [vote] tag, a nickname), votes inside quotes (which must not count), quote
headers ("X wrote:", "Quote from X"), an edited post (the forum adds an edit note), a signature,
and times on both sides of the night the clocks go back in the forum's zone, including Django's
"noon", "midnight" and "9 a.m." forms. erin's vote at post 27 is Bob_Builder's fourth of seven.
"""

import json
import os
import sys
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import AnonymousUser, User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from machina.apps.forum_permission.shortcuts import assign_perm  # noqa: E402
from machina.core.db.models import get_model  # noqa: E402

Forum = get_model("forum", "Forum")
Topic = get_model("forum_conversation", "Topic")
Post = get_model("forum_conversation", "Post")
ForumProfile = get_model("forum_member", "ForumProfile")

ZONE = ZoneInfo(settings.TIME_ZONE)
PLAYERS = ["Alice", "Bob_Builder", "carol", "Dave.K", "erin", "Frank 7", "gina"]
HOST = "TheHost"

# (author, minutes after the start, text in Markdown). The start is Sat Oct 31 2026 09:00 in
# New York (EDT); the clocks go back at 02:00 on Sunday Nov 1 (to EST).
THREAD = [
    (HOST, 0, "**Day 1 begins.** Seven players, majority is 4.\n\nVote with `VOTE: name`."),
    ("Alice", 7, "Morning all. No vote yet."),
    ("Bob_Builder", 15, "**VOTE: carol**\n\nshe was quiet in the sign-up thread"),
    ("carol", 22, "> **Bob_Builder wrote:**\n> VOTE: carol\n\nThat is a bad reason."),
    ("Dave.K", 31, "VTL carol"),
    ("erin", 40, "hi"),
    ("Frank 7", 53, "I want to hear from gina first."),
    ("gina", 60 + 5, "Here now. **VOTE: Bob**"),
    ("Alice", 60 + 17, "Quote from gina\n\n> Here now.\n\nWelcome."),
    ("carol", 60 + 29, "Nobody has answered me. **VOTE: Dave.K**"),
    ("Bob_Builder", 60 + 44, "> **carol wrote:**\n> VOTE: Dave.K\n\nOMGUS much?"),
    ("Dave.K", 2 * 60, "**Unvote**"),
    ("erin", 2 * 60 + 9, "**VOTE: Frank 7**"),
    ("Frank 7", 3 * 60, "noon post"),  # 12:00 shows as "noon"
    ("gina", 3 * 60 + 30, "lunch"),
    ("Alice", 4 * 60 + 2, "**VOTE: Bob_Builder**"),  # page 2 starts here
    ("Bob_Builder", 5 * 60, "I am town.\n\n**Unvote**\n\n**VOTE: gina**"),
    ("carol", 6 * 60 + 11, "meh"),
    ("Dave.K", 7 * 60 + 45, "Vote: erin"),
    ("erin", 9 * 60 + 1, "> **Dave.K wrote:**\n> VOTE: erin\n\nwhy me"),
    ("Frank 7", 11 * 60 + 30, "evening"),
    ("gina", 13 * 60 + 58, "late night thoughts"),
    ("Alice", 15 * 60, "midnight!"),  # 00:00 shows as "midnight"
    ("Bob_Builder", 15 * 60 + 40, "still up"),
    # Sunday Nov 1: 01:00-02:00 happens twice, and a page shows no offset. A host's forum
    # where a post fell in that hour is ambiguous on the page itself: nothing is posted there.
    ("carol", 18 * 60 + 15, "**VOTE: Bob_Builder**"),  # 03:15 EST: after the change
    ("Dave.K", 24 * 60, "9 am sharp"),  # 09:00 shows as "9 a.m."
    ("erin", 24 * 60 + 20, "**VOTE: Bob_Builder**"),
    ("Frank 7", 25 * 60, "hmm"),
    ("gina", 25 * 60 + 33, "**Unvote**"),
    ("Alice", 26 * 60, "**VOTE: carol**"),
    ("Bob_Builder", 27 * 60 + 10, "> **erin wrote:**\n> VOTE: Bob_Builder\n\nPlease no"),  # page 3
    ("carol", 28 * 60, "[vote]Bob_Builder[/vote] still"),
    ("Dave.K", 29 * 60 + 5, "**VOTE: Bob_Builder**"),
    ("erin", 30 * 60, "that is three"),
    ("Frank 7", 30 * 60 + 30, "**VOTE: Bob_Builder**"),
    ("gina", 31 * 60, "ok"),
    ("Alice", 31 * 60 + 15, "fine"),
    ("Bob_Builder", 32 * 60, "gg"),
    ("carol", 32 * 60 + 45, "bye"),
    (HOST, 33 * 60, "**Day 1 is over.** Bob_Builder was lynched."),
]
EDITED = 6  # Frank 7's post: edited an hour later (the forum then shows an edit note)
START = datetime(2026, 10, 31, 9, 0, tzinfo=ZONE)


def main() -> None:
    data = Path(os.environ["MACHINA_SITE_DATA"])
    call_command("migrate", verbosity=0, interactive=False)
    users = {name: User.objects.create_user(username=name) for name in [HOST, *PLAYERS]}
    profile, _ = ForumProfile.objects.get_or_create(user=users["erin"])
    profile.signature = "-- \nerin, always town"
    profile.save()

    forum = Forum.objects.create(name="Mafia games", type=Forum.FORUM_POST)
    for perm in ("can_see_forum", "can_read_forum"):
        assign_perm(perm, AnonymousUser(), forum)
    topic = Topic.objects.create(
        forum=forum,
        poster=users[HOST],
        subject="Mafia 12: Day 1",
        type=Topic.TOPIC_POST,
        status=Topic.TOPIC_UNLOCKED,
    )
    written = []
    for i, (author, minutes, text) in enumerate(THREAD):
        post = Post.objects.create(
            topic=topic, poster=users[author], subject=topic.subject, content=text
        )
        created = START + timedelta(minutes=minutes)
        changes = {"created": created, "updated": created}
        if i == EDITED:
            changes |= {
                "updated": created + timedelta(hours=1),
                "updated_by": users[author],
                "updates_count": 1,
                "update_reason": "typo",
            }
        Post.objects.filter(pk=post.pk).update(**changes)
        written.append(Post.objects.get(pk=post.pk))

    # The posts file: what the thread holds, read from the database and not from a page.
    with (data / "thread.jsonl").open("w") as out:
        for number, post in enumerate(written, 1):
            line = {
                "post_id": str(post.pk),
                "number": number,
                "author": post.poster.username,
                "time": post.created.astimezone(ZoneInfo("UTC")).isoformat(),
                "url": None,
                "html": post.content.rendered,
            }
            out.write(json.dumps(line) + "\n")
    print(f"/forum/forum/{forum.slug}-{forum.pk}/topic/{topic.slug}-{topic.pk}/")


if __name__ == "__main__":
    main()
