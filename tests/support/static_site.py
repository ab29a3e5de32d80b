"""A static file server for built sites, shaped like GitHub Pages, on 127.0.0.1.

The site is served under a path prefix (``/tiny-harness/``, as a project page is), a folder
asked for without its trailing slash is redirected to it with 301, a folder is answered with
its ``index.html``, a path without a file of its own is answered by ``<path>.html`` when there
is one (the clean URLs of a VitePress site), and anything missing gets the site's ``404.html``
with status 404.
"""

from __future__ import annotations

import mimetypes
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import unquote, urlsplit

from tests.support.loopback import POLL_SECONDS, LoopbackServer

__all__ = ["serve_site"]

_TYPES = {
    ".json": "application/json",
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript",
}


def _handler(root: Path, prefix: str) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_HEAD(self) -> None:
            self._respond(send_body=False)

        def do_GET(self) -> None:
            self._respond(send_body=True)

        def _respond(self, send_body: bool) -> None:
            path = unquote(urlsplit(self.path).path)
            if path == prefix.rstrip("/"):
                self._redirect(prefix)
                return
            if not path.startswith(prefix):
                self._not_found(send_body)
                return
            target = (root / path[len(prefix) :]).resolve()
            if not target.is_relative_to(root):
                self._not_found(send_body)
                return
            if target.is_dir():
                if not path.endswith("/"):
                    self._redirect(path + "/")
                    return
                target = target / "index.html"
            if not target.exists() and target.with_name(target.name + ".html").is_file():
                target = target.with_name(target.name + ".html")
            if not target.is_file():
                self._not_found(send_body)
                return
            self._send(HTTPStatus.OK, target, send_body)

        def _redirect(self, location: str) -> None:
            self.send_response(HTTPStatus.MOVED_PERMANENTLY)
            self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def _not_found(self, send_body: bool) -> None:
            page = root / "404.html"
            if page.is_file():
                self._send(HTTPStatus.NOT_FOUND, page, send_body)
            else:
                self.send_error(HTTPStatus.NOT_FOUND)

        def _send(self, status: HTTPStatus, file: Path, send_body: bool) -> None:
            body = file.read_bytes()
            content_type = _TYPES.get(file.suffix) or (
                mimetypes.guess_type(file.name)[0] or "application/octet-stream"
            )
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if send_body:
                self.wfile.write(body)

    return Handler


@contextmanager
def serve_site(root: Path, prefix: str = "/tiny-harness/") -> Iterator[str]:
    """Serve ``root`` on a free port; yields the site's base URL, ending in ``prefix``."""
    server = LoopbackServer(("127.0.0.1", 0), _handler(root.resolve(), prefix))
    thread = threading.Thread(target=server.serve_forever, args=(POLL_SECONDS,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{prefix}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
