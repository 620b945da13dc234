"""Serve the seeded forum on 127.0.0.1 (a free port): prints the port, then serves until killed.
Run with the forum's own Python (MACHINA_SITE_DATA set)."""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
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
