"""Seed the live forum: a Mafia game thread of 40 posts (three pages of 15), then write the
same thread as a modtool posts file from the database, the answer the test reads the forum
against. Run with the forum's own Python: `python seed.py` (MACHINA_SITE_DATA set).

The thread is tests/live/game_thread.py's, in Markdown, with quote headers ("X wrote:", "Quote
from X"); here one post is also edited (the forum adds an edit note) and erin has a signature.
"""

import os
import sys
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the game thread
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import AnonymousUser, User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from game_thread import HOST, game_thread, write_posts_file  # noqa: E402
from machina.apps.forum_permission.shortcuts import assign_perm  # noqa: E402
from machina.core.db.models import get_model  # noqa: E402

Forum = get_model("forum", "Forum")
Topic = get_model("forum_conversation", "Topic")
Post = get_model("forum_conversation", "Post")
ForumProfile = get_model("forum_member", "ForumProfile")

PLAYERS = ["Alice", "Bob_Builder", "carol", "Dave.K", "erin", "Frank 7", "gina"]
# Markdown, with the quote header a post copied from the forum's quote button has
THREAD = game_thread(PLAYERS, lambda author, text: f"> **{author} wrote:**\n> {text}\n\n")
EDITED = 6  # Frank 7's post: edited an hour later (the forum then shows an edit note)


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
    for i, (author, created, text) in enumerate(THREAD):
        post = Post.objects.create(
            topic=topic, poster=users[author], subject=topic.subject, content=text
        )
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

    write_posts_file(
        data / "thread.jsonl",
        [(p.pk, p.poster.username, p.created, p.content.rendered) for p in written],
    )
    print(f"/forum/forum/{forum.slug}-{forum.pk}/topic/{topic.slug}-{topic.pk}/")


if __name__ == "__main__":
    main()
