"""Serve a live test forum's Django site on 127.0.0.1 (a free port): prints the port, then
serves until killed. Run with the forum's own Python: `python serve.py SITE_FOLDER`, where the
folder holds the site's settings.py and urls.py (and the environment the settings read)."""

import os
import sys

sys.path[:0] = [sys.argv[1], os.path.dirname(os.path.abspath(__file__))]  # + site_settings
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")

from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):  # the test reads stdout for the port alone
        pass


def main() -> None:
    app = get_wsgi_application()
    server = ThreadedWSGIServer(("127.0.0.1", 0), QuietHandler)
    server.set_app(app)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
