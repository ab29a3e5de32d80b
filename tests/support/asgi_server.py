"""An ASGI app served by uvicorn on 127.0.0.1 and a free port, in a background thread.

For the tests' own A2A agents: the app is built once the port is known, so that its card can
name its real URL.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

__all__ = ["serve_app"]

_START_TIMEOUT = 15.0


@contextmanager
def serve_app(build: Callable[[str], Any]) -> Iterator[str]:
    """Serve ``build(base_url)`` on 127.0.0.1; yields ``http://127.0.0.1:<port>``."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    base_url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    config = uvicorn.Config(
        build(base_url), log_level="warning", lifespan="on", timeout_graceful_shutdown=2
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, name="test-agent", daemon=True
    )
    thread.start()
    try:
        deadline = time.monotonic() + _START_TIMEOUT
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the test agent did not start on {base_url}")
            time.sleep(0.01)
        yield base_url
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
