"""A loopback server that answers every connection with exact bytes, and keeps each request.

For the tests of how th-ext reads what a server sends, the odd and the hostile included: a
status line of any shape, a body shorter than its length, events split by bare CR, a stream that
stops in the middle. A script is given the request's bytes (head and body) and gives back the
bytes to send, or a list of steps: bytes are sent, a number is a pause in seconds. The
connection is closed after the last step. Each connection is served in a thread of its own, so
a script that stalls holds up no other request.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

__all__ = ["RawRequest", "RawScript", "RawServer", "raw_server"]

Step = bytes | float
RawScript = Callable[[bytes], bytes | Sequence[Step]]
"""Given the request's bytes (head and any body), the bytes to send before closing."""


@dataclass(frozen=True)
class RawRequest:
    """One request as it arrived: ``method``, ``target``, its header ``fields`` in order
    (names lower-cased) and ``headers``, the last value of each name."""

    method: str
    target: str
    fields: tuple[tuple[str, str], ...]
    body: bytes

    @property
    def headers(self) -> dict[str, str]:
        return dict(self.fields)

    @classmethod
    def parse(cls, data: bytes) -> RawRequest:
        head, _, body = data.partition(b"\r\n\r\n")
        line, *lines = head.decode("latin-1").split("\r\n")
        method, target, _ = line.split(" ", 2)
        fields = []
        for text in lines:
            name, _, value = text.partition(":")
            fields.append((name.strip().lower(), value.strip()))
        return cls(method, target, tuple(fields), body)


@dataclass
class RawServer:
    """A started server: its ``base_url`` and the ``requests`` it has read, in order."""

    base_url: str
    requests: list[RawRequest] = field(default_factory=list)


@contextlib.contextmanager
def raw_server(script: RawScript) -> Iterator[RawServer]:
    """Serve ``script`` on 127.0.0.1 and a free port until the block ends."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.05)
    server = RawServer(f"http://127.0.0.1:{listener.getsockname()[1]}")
    stop = threading.Event()

    def answer(conn: socket.socket) -> None:
        with conn:
            conn.settimeout(2)
            data = _read_request(conn)
            with contextlib.suppress(ValueError):
                server.requests.append(RawRequest.parse(data))
            steps = script(data)
            with contextlib.suppress(OSError):
                for step in [steps] if isinstance(steps, bytes) else steps:
                    if isinstance(step, bytes):
                        conn.sendall(step)
                    elif stop.wait(step):
                        return

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=answer, args=(conn,), daemon=True).start()

    accepting = threading.Thread(target=serve, daemon=True)
    accepting.start()
    try:
        yield server
    finally:
        stop.set()
        accepting.join()
        listener.close()


def _read_request(conn: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body
