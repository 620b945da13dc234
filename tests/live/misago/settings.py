"""A minimal Django site running Misago, for modtool's live-forum test.

Misago needs PostgreSQL: the test starts its own server on 127.0.0.1 and passes its port in
MISAGO_DB_PORT. Celery runs its tasks in the process (no broker), the cache is in memory, and
the forum's zone is America/New_York, so that the thread's times cross the night the clocks go
back.
"""

import os
from pathlib import Path

from misago.settings import *  # noqa: F403 (Misago's apps and context processors)
from misago.settings import INSTALLED_APPS, TEMPLATE_CONTEXT_PROCESSORS
from site_settings import *  # noqa: F403 (tests/live/site_settings.py)

DATA = Path(os.environ["MISAGO_SITE_DATA"])  # uploads and avatars: never in the repo

USE_I18N = True
LANGUAGE_CODE = "en-us"

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "misago",
        "USER": "misago",
        "HOST": "127.0.0.1",
        "PORT": os.environ["MISAGO_DB_PORT"],
    }
}
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

INSTALLED_APPS = [app for app in INSTALLED_APPS if app != "debug_toolbar"]
AUTH_USER_MODEL = "misago_users.User"
AUTHENTICATION_BACKENDS = ["misago.users.authbackends.MisagoBackend"]
CSRF_FAILURE_VIEW = "misago.core.errorpages.csrf_failure"
LOGIN_REDIRECT_URL = "misago:index"
LOGIN_URL = "misago:login"
LOGOUT_URL = "misago:logout"
MIDDLEWARE = [
    "misago.users.middleware.RealIPMiddleware",
    "misago.core.middleware.FrontendContextMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "misago.cache.middleware.cache_versions_middleware",
    "misago.conf.middleware.dynamic_settings_middleware",
    "misago.socialauth.middleware.socialauth_providers_middleware",
    "misago.users.middleware.UserMiddleware",
    "misago.acl.middleware.user_acl_middleware",
    "misago.core.middleware.ExceptionHandlerMiddleware",
    "misago.users.middleware.OnlineTrackerMiddleware",
    "misago.admin.middleware.AdminAuthMiddleware",
    "misago.threads.middleware.UnreadThreadsCountMiddleware",
]
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": TEMPLATE_CONTEXT_PROCESSORS},
    }
]
REST_FRAMEWORK = {
    "DEFAULT_PERMISSION_CLASSES": ["misago.core.rest_permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "EXCEPTION_HANDLER": "misago.core.exceptionhandler.handle_api_exception",
    "UNAUTHENTICATED_USER": "misago.users.models.AnonymousUser",
    "URL_FORMAT_OVERRIDE": None,
}
SOCIAL_AUTH_STRATEGY = "misago.socialauth.strategy.MisagoStrategy"
SOCIAL_AUTH_JSONFIELD_ENABLED = True
CELERY_TASK_ALWAYS_EAGER = True
CELERY_BROKER_URL = "memory://"
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
STATIC_URL = "/static/"
STATIC_ROOT = str(DATA / "static")
MEDIA_URL = "/media/"
MEDIA_ROOT = str(DATA / "media")
MISAGO_USER_DATA_DOWNLOADS_WORKING_DIR = str(DATA / "userdata")
MISAGO_AVATAR_GALLERY = str(DATA / "avatargallery")
MISAGO_SEARCH_CONFIG = "simple"
