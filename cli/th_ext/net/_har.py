"""Every HTTP exchange of a run, recorded as an HTTP Archive (HAR 1.2), for devtools to open:
bounded and valid JSON whatever a server sends, with the caller's secrets redacted."""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlsplit

from th_ext._exceptions import ThExtError, counted, is_folder, os_reason
from th_ext._version import __version__
from th_ext.net._scope import redact

if TYPE_CHECKING:
    import httpx

__all__ = [
    "HAR_MAX_HEADERS",
    "HAR_MAX_HEADER_VALUE",
    "HAR_MAX_TOTAL_BODY_BYTES",
    "HarEntry",
    "HarError",
    "HarRecorder",
    "check_har_path",
    "har_recording",
]

HAR_MAX_HEADERS = 256
"""Headers kept of one request or response; the rest are counted in a comment."""
HAR_MAX_HEADER_VALUE = 8 * 1024
"""Characters kept of one header's value."""
HAR_MAX_TOTAL_BODY_BYTES = 256 * 1024 * 1024
"""Bytes of bodies kept in one HAR: past it, a body is left out (and says so)."""
REDACTED = "***"
"""What a redacted header value is written as."""
ALWAYS_REDACTED = frozenset({"authorization", "proxy-authorization"})
"""Headers whose value is never written, given with --header or not (httpx sends the
credentials of a URL's ``user:password@`` as ``Authorization``)."""
PAGE_ID = "run"


class HarError(ThExtError):
    """The HAR file cannot be written."""


@dataclass
class HarEntry:
    """One request and its response, as they went (see ``HarRecorder.start``)."""

    recorder: HarRecorder
    method: str
    url: str
    request_headers: list[tuple[str, str]]
    request_body: bytes | None
    request_type: str
    started: datetime
    clock: float
    status: int = 0
    reason: str = ""
    http_version: str = "HTTP/1.1"
    response_headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytearray = field(default_factory=bytearray)
    received: int = 0
    head_at: float | None = None
    ended_at: float | None = None
    failure: str = ""
    left_out: bool = False

    def response(self, response: httpx.Response) -> None:
        """The response's head has come: its status line and headers, and the request's
        headers as they were sent (httpx adds ``Host``, ``Content-Length``...)."""
        self.head_at = time.perf_counter()
        self.status = response.status_code
        self.reason = response.reason_phrase
        self.http_version = response.http_version or "HTTP/1.1"
        self.response_headers = _latin1(response.headers.raw)
        self.request_headers = _latin1(response.request.headers.raw)

    def body_read(self, piece: bytes) -> None:
        """A piece of the body as read (decoded, within the run's byte cap)."""
        self.received += len(piece)
        if self.left_out:
            return
        if not self.recorder.take(len(piece)):
            self.left_out = True
            self.body.clear()
            return
        self.body += piece

    def end(self, failure: str | None = None) -> None:
        """The exchange is over; ``failure`` says how it went wrong, in th-ext's words."""
        self.ended_at = time.perf_counter()
        if failure:
            self.failure = failure

    def as_har(self, secret: frozenset[str]) -> dict[str, Any]:
        ended = self.ended_at if self.ended_at is not None else time.perf_counter()
        head = self.head_at if self.head_at is not None else ended
        wait, receive = _ms(head - self.clock), _ms(ended - head)
        url = redact(self.url)
        entry: dict[str, Any] = {
            "startedDateTime": self.started.isoformat(timespec="milliseconds"),
            "time": wait + receive,
            "request": {
                "method": self.method,
                "url": url,
                "httpVersion": self.http_version,
                "cookies": [],
                "headers": _headers(self.request_headers, secret),
                "queryString": _query(url),
                "headersSize": -1,
                "bodySize": len(self.request_body) if self.request_body is not None else 0,
            },
            "response": {
                "status": self.status,
                "statusText": _cut(self.reason),
                "httpVersion": self.http_version if self.status else "",
                "cookies": [],
                "headers": _headers(self.response_headers, secret),
                "content": self._content(),
                "redirectURL": redact(_cut(self._header("location"))),
                "headersSize": -1,
                "bodySize": self.received if self.status else -1,
            },
            "cache": {},
            "timings": {"send": 0, "wait": wait, "receive": receive},
        }
        if self.request_body is not None:
            entry["request"]["postData"] = {
                "mimeType": self.request_type,
                **_text(self.request_body),
            }
        if self.failure:
            entry["comment"] = redact(self.failure)
            if not self.status:
                entry["response"]["_error"] = redact(self.failure)
        return entry

    def _content(self) -> dict[str, Any]:
        content: dict[str, Any] = {
            "size": self.received,
            "mimeType": _cut(self._header("content-type")) or "x-unknown",
        }
        if self.left_out:
            content["text"] = ""
            total = self.recorder.max_total_bytes
            content["comment"] = f"left out: the HAR keeps at most {total} bytes of bodies"
        else:
            content.update(_text(bytes(self.body)))
        return content

    def _header(self, name: str) -> str:
        return next((v for k, v in self.response_headers if k.lower() == name), "")


class HarRecorder:
    """The exchanges of one run, in the order they were sent: the code that sends
    (``exchange_http``, the card fetch) opens a ``HarEntry`` with ``start`` for each request.

    ``secret_headers`` are the names of the caller's own headers (``--header``): their values
    are never written. The HAR has one page, ``title`` (what the run was, say ``th-ext
    conform URL``), that holds every entry. Bodies are kept up to ``max_total_bytes`` in all.
    """

    def __init__(
        self,
        secret_headers: Iterable[str] = (),
        title: str = "th-ext",
        *,
        max_total_bytes: int = HAR_MAX_TOTAL_BODY_BYTES,
    ) -> None:
        self.secret = frozenset(name.lower() for name in secret_headers) | ALWAYS_REDACTED
        self.title = redact(title)
        self.started = datetime.now(UTC)
        self.entries: list[HarEntry] = []
        self.kept = 0
        self.max_total_bytes = max_total_bytes

    def start(
        self,
        method: str,
        url: str,
        headers: dict[str, str],
        content: bytes | None,
        content_type: str,
    ) -> HarEntry:
        """A request about to be sent (its headers as the caller gave them, until the
        response's head says how they went)."""
        entry = HarEntry(
            self,
            method,
            url,
            list(headers.items()),
            content,
            content_type,
            datetime.now(UTC),
            time.perf_counter(),
        )
        self.entries.append(entry)
        return entry

    def take(self, size: int) -> bool:
        """Whether ``size`` more bytes of body fit in the HAR's total (counted if so)."""
        if self.kept + size > self.max_total_bytes:
            return False
        self.kept += size
        return True

    def document(self) -> dict[str, Any]:
        """The HAR 1.2 document of every exchange so far."""
        page = {
            "startedDateTime": self.started.isoformat(timespec="milliseconds"),
            "id": PAGE_ID,
            "title": _cut(self.title),
            "pageTimings": {"onContentLoad": -1, "onLoad": -1},
        }
        entries = [{**entry.as_har(self.secret), "pageref": PAGE_ID} for entry in self.entries]
        return {
            "log": {
                "version": "1.2",
                "creator": {"name": "th-ext", "version": __version__},
                "pages": [page],
                "entries": entries,
            }
        }

    def text(self) -> str:
        """The document as JSON text (ASCII, so any byte a server sent is valid JSON)."""
        return json.dumps(self.document(), indent=1, ensure_ascii=True) + "\n"

    def write(self, path: Path) -> None:
        """Write the HAR to ``path``; ``HarError`` when it cannot be written."""
        try:
            path.write_text(self.text(), encoding="ascii")
        except OSError as exc:
            raise HarError(f"--har {path}: cannot be written ({os_reason(exc)})") from None


@contextmanager
def har_recording(
    path: Path | None, secret_headers: Iterable[str] = (), title: str = "th-ext"
) -> Iterator[HarRecorder | None]:
    """A recorder for a run whose HAR goes to ``path`` (``None``: nothing is recorded): the
    path is checked first, and the HAR written when the run ends, also when it ends with an
    error (a HAR of a failed run is the one most wanted)."""
    if path is None:
        yield None
        return
    check_har_path(path)
    recorder = HarRecorder(secret_headers, title)
    try:
        yield recorder
    finally:
        recorder.write(path)


def check_har_path(path: Path) -> None:
    """``HarError`` when ``path``'s folder does not exist: said before a run, not after it."""
    if not is_folder(path.parent):
        raise HarError(f"--har {path}: the folder {path.parent} does not exist")
    if is_folder(path):
        raise HarError(f"--har {path}: a folder, not a file")


def _latin1(raw: Iterable[tuple[bytes, bytes]]) -> list[tuple[str, str]]:
    return [(name.decode("latin-1"), value.decode("latin-1")) for name, value in raw]


def _headers(headers: list[tuple[str, str]], secret: frozenset[str]) -> list[dict[str, str]]:
    kept = [
        {
            "name": _cut(name),
            "value": REDACTED if name.lower() in secret else _cut(value),
        }
        for name, value in headers[:HAR_MAX_HEADERS]
    ]
    left_out = len(headers) - HAR_MAX_HEADERS
    if left_out > 0:
        kept.append(
            {
                "name": "x-th-ext-headers-left-out",
                "value": f"{counted(left_out, 'more header')} "
                f"{'was' if left_out == 1 else 'were'} not kept",
            }
        )
    return kept


def _cut(text: str) -> str:
    return text if len(text) <= HAR_MAX_HEADER_VALUE else text[:HAR_MAX_HEADER_VALUE] + "…"


def _query(url: str) -> list[dict[str, str]]:
    try:
        query = urlsplit(url).query
    except ValueError:
        return []
    return [{"name": k, "value": v} for k, v in parse_qsl(query, keep_blank_values=True)]


def _text(body: bytes) -> dict[str, str]:
    """A body as HAR ``text``: itself when it is UTF-8, else base64 (``encoding``)."""
    try:
        return {"text": body.decode("utf-8")}
    except UnicodeDecodeError:
        return {"text": base64.b64encode(body).decode("ascii"), "encoding": "base64"}


def _ms(seconds: float) -> float:
    return round(max(seconds, 0.0) * 1000, 3)
