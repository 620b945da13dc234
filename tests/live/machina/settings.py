"""A minimal Django site running django-machina, for modtool's live-forum test.

The forum's zone is America/New_York and the seeded thread runs over the night the clocks go
back, so the times it shows (Django's own format: "Nov. 1, 2026, 9:05 p.m.", "noon") must be
read in the game's zone to come out right.
"""

import os
from pathlib import Path

from machina import MACHINA_MAIN_STATIC_DIR, MACHINA_MAIN_TEMPLATE_DIR
from site_settings import *  # noqa: F403 (tests/live/site_settings.py)

HERE = Path(__file__).resolve().parent
DATA = Path(os.environ["MACHINA_SITE_DATA"])  # the database and search index: never in the repo

LANGUAGE_CODE = "en"
SITE_ID = 1

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.sites",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "mptt",
    "haystack",
    "widget_tweaks",
    "machina",
    "machina.apps.forum",
    "machina.apps.forum_conversation",
    "machina.apps.forum_conversation.forum_attachments",
    "machina.apps.forum_conversation.forum_polls",
    "machina.apps.forum_feeds",
    "machina.apps.forum_moderation",
    "machina.apps.forum_search",
    "machina.apps.forum_tracking",
    "machina.apps.forum_member",
    "machina.apps.forum_permission",
]
MIDDLEWARE = [
    "django.middleware.common.CommonMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "machina.apps.forum_permission.middleware.ForumPermissionMiddleware",
]
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [MACHINA_MAIN_TEMPLATE_DIR],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.contrib.auth.context_processors.auth",
                "django.template.context_processors.request",
                "django.contrib.messages.context_processors.messages",
                "machina.core.context_processors.metadata",
            ],
        },
    }
]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": str(DATA / "forum.db")}}
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "machina_attachments": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(DATA / "attachments"),
    },
}
HAYSTACK_CONNECTIONS = {"default": {"ENGINE": "haystack.backends.simple_backend.SimpleEngine"}}
STATIC_URL = "/static/"
STATICFILES_DIRS = [MACHINA_MAIN_STATIC_DIR]
MACHINA_TOPIC_POSTS_NUMBER_PER_PAGE = 15
