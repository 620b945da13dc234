"""Seed the live Misago forum: a Mafia game thread of 40 posts (three pages of 15), then write
the same thread as a modtool posts file from the database, the answer the test reads the forum
against. Run with the forum's own Python: `python seed.py` (MISAGO_SITE_DATA and MISAGO_DB_PORT
set, the database migrated).

The thread is tests/live/game_thread.py's, written in Misago's own markup (Markdown and
BBCode) and parsed by Misago's parser as the forum's posting form does; Misago's names allow
letters, digits and "_" only. When the day is over the host closes the thread, which the forum
shows among the posts as an event that is not a post.
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

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import RequestFactory  # noqa: E402
from game_thread import HOST, game_thread, write_posts_file  # noqa: E402
from misago.categories.models import Category  # noqa: E402
from misago.conf.models import Setting  # noqa: E402
from misago.markup.flavours import common as common_flavour  # noqa: E402
from misago.threads.checksums import update_post_checksum  # noqa: E402
from misago.threads.models import Post, Thread  # noqa: E402
from misago.threads.moderation import threads as moderation  # noqa: E402

PLAYERS = ["Alice", "Bob_Builder", "carol", "DaveK", "erin", "Frank7", "gina"]
# Misago's markup: Markdown and BBCode; a [quote="name"] block is headed "name has written:"
THREAD = game_thread(PLAYERS, lambda author, text: f'[quote="{author}"]{text}[/quote]\n\n')
PER_PAGE = 15
AVATARS = [{"size": size, "url": "/static/misago/img/blank-avatar.png"} for size in (400, 200, 100)]


def _setup_forum() -> None:
    call_command("migrate", verbosity=0, interactive=False)
    Setting.objects.change_setting("posts_per_page", PER_PAGE)
    Setting.objects.change_setting("posts_per_page_orphans", 0)


def main() -> None:
    data = Path(os.environ["MISAGO_SITE_DATA"])
    _setup_forum()
    User = get_user_model()
    users = {
        name: User.objects.create_user(name, f"{name.lower()}@example.com", avatars=AVATARS)
        for name in [HOST, *PLAYERS]
    }
    request = RequestFactory().get("/", HTTP_HOST="127.0.0.1")
    category = Category.objects.all_categories().get(slug="first-category")
    start = THREAD[0][1]
    thread = Thread(category=category, started_on=start, last_post_on=start)
    thread.set_title("Mafia 12: Day 1")
    thread.save()
    written = []
    for author, posted, text in THREAD:
        poster = users[author]
        parsed = common_flavour(request, poster, text)["parsed_text"]
        post = Post.objects.create(
            category=category,
            thread=thread,
            poster=poster,
            poster_name=poster.username,
            original=text,
            parsed=parsed,
            posted_on=posted,
            updated_on=posted,
        )
        post.refresh_from_db()  # the checksum signs the date the database gives back
        update_post_checksum(post)
        post.save(update_fields=["checksum"])
        written.append(post)
    thread.synchronize()
    thread.save()
    category.synchronize()
    category.save()
    # the host closes the day's thread: an event among the posts, not a post
    request.user = users[HOST]
    moderation.close_thread(request, thread)
    Post.objects.filter(thread=thread, is_event=True).update(
        posted_on=written[-1].posted_on + timedelta(minutes=5)
    )

    write_posts_file(
        data / "thread.jsonl", [(p.pk, p.poster.username, p.posted_on, p.parsed) for p in written]
    )
    print(thread.get_absolute_url())


if __name__ == "__main__":
    main()
