"""What the live test forums' Django sites share: served on 127.0.0.1 by tests/live/serve.py,
in the zone whose clocks go back during the game thread (game_thread.py)."""

SECRET_KEY = "modtool-live-test"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
ROOT_URLCONF = "urls"
TIME_ZONE = "America/New_York"
USE_TZ = True
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
