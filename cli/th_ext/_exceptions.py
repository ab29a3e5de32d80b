"""The exceptions th_ext raises: one small hierarchy, so a caller can catch ``ThExtError``; how
messages quote words they did not write (an operating system error, a long value); and the
questions about a given path that never raise, so that the system's refusal is said by the
open or write that follows."""

from __future__ import annotations

from pathlib import Path

__all__ = [
    "AgentUnreachableError",
    "CatalogError",
    "CommandRegistrationError",
    "ConformError",
    "DeadlineError",
    "DemoUnavailableError",
    "DispatchError",
    "HostSchemaDriftError",
    "MessageError",
    "PublishError",
    "PublishedSchemaChangedError",
    "SiteBuildError",
    "SubtreeConflictError",
    "ThExtError",
    "UnknownCodeError",
    "cut",
    "is_file",
    "is_folder",
    "os_reason",
]


class ThExtError(Exception):
    """Base class of every error th_ext raises on purpose; its message is one line naming the
    thing at fault, fit to show a user as it is."""


class CatalogError(ThExtError):
    """An extension folder is missing a file or its metadata is malformed."""


class PublishError(ThExtError):
    """The site cannot be generated: an extension breaks a publishing rule.

    ``problems`` lists every rule that failed, one line each.
    """

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems if problems is not None else [message]


class PublishedSchemaChangedError(PublishError):
    """A schema that was already published changed or disappeared."""


class CommandRegistrationError(ThExtError):
    """A command cannot be registered: its name breaks the pattern or is already taken."""


class MessageError(ThExtError):
    """A message given to dispatch is not an A2A 1.0 Message in JSON."""


class DispatchError(ThExtError):
    """A dispatch cannot be planned or checked: the card offers no usable interface."""


class ConformError(ThExtError):
    """A conformance run cannot start: no usable card, interface or command selection."""


class AgentUnreachableError(ThExtError):
    """The agent's interfaces cannot be reached: the connection is refused, the name does not
    resolve, TLS fails, or the first request gets no answer in time. Nothing was checked."""

    code = "unreachable"


class DemoUnavailableError(ThExtError):
    """The demo agent needs the optional ``demo`` extra, which is not installed."""


class SourceError(ThExtError):
    """No document could be read from a source (a file, ``-`` or a URL).

    ``code`` is a stable kebab-case name of what went wrong, the same one a validation report
    uses for the problem.
    """

    code = "unreadable"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class SourceArgumentError(SourceError):
    """The source, a header or a limit given by the caller is malformed."""

    code = "bad-argument"


class SourceUnreadableError(SourceError):
    """A local file or standard input cannot be read."""

    code = "unreadable"


class SourceTooLargeError(SourceError):
    """The document is larger than the byte cap (counted after decompression)."""

    code = "too-large"


class FetchError(SourceError):
    """An HTTP fetch failed: the connection, TLS, or the HTTP exchange itself."""

    code = "network-error"


class FetchConnectError(FetchError):
    """No connection to the server: refused, the name did not resolve, or TLS failed."""

    code = "network-error"


class OriginFailedError(FetchError):
    """Not tried: the source's origin failed (no connection, or no answer in time) too many
    times in a row in this run; the message names its first failure."""

    code = "origin-failed"


class FetchTimeoutError(FetchError):
    """The whole fetch, redirects included, took longer than its timeout."""

    code = "timeout"


class HTTPStatusCodeError(FetchError):
    """The server answered with an HTTP status other than 2xx."""

    code = "http-error"

    def __init__(self, message: str, *, status: int, url: str) -> None:
        super().__init__(message)
        self.status = status
        self.url = url


class RedirectError(FetchError):
    """A redirect was refused: too many, a loop, or a target that is not http(s)."""

    code = "too-many-redirects"


class CardDocumentError(SourceError):
    """The bytes were read but are not a JSON object (empty, not UTF-8, not JSON, too deep...)."""

    code = "invalid-json"

    def __init__(self, message: str, *, code: str, path: str = "") -> None:
        super().__init__(message, code=code)
        self.path = path


class UnknownCodeError(ThExtError):
    """``--select`` or ``--ignore`` names a code (or a family of codes) that does not exist."""

    code = "unknown-code"


class SchemaError(ThExtError):
    """An extension schema cannot be used: not valid JSON Schema, or a ``$ref`` unresolvable."""


class DeadlineError(ThExtError):
    """The run's deadline (``--timeout``) passed before the work was done, e.g. a validation."""


class SiteBuildError(PublishError):
    """A site build could not run: a setting, tool or folder it needs is missing or unusable."""


class SubtreeConflictError(SiteBuildError):
    """The subtree build would overwrite or shadow a file in the destination it did not write."""


class HostSchemaDriftError(SiteBuildError):
    """A host's schema has the ``$id`` of a schema this project published, but other bytes."""


def is_folder(path: Path) -> bool:
    """``path.is_dir()``, or ``False`` where the system refuses to look: a name longer than it
    allows, a folder it may not search (Python 3.11's ``Path.is_dir()`` raises for those)."""
    try:
        return path.is_dir()
    except OSError:
        return False


def is_file(path: Path) -> bool:
    """``path.is_file()``, or ``False`` where the system refuses to look (as ``is_folder``)."""
    try:
        return path.is_file()
    except OSError:
        return False


def os_reason(exc: OSError) -> str:
    """What went wrong in the system's words, to sit inside a message: ``strerror`` lower-cased
    (``no such file or directory``), or the error's own text when it has none."""
    return exc.strerror.lower() if exc.strerror else str(exc)


def counted(count: int, noun: str) -> str:
    """``1 check``, ``2 checks``: ``count`` and ``noun``, plural (with an ``s``) unless one."""
    return f"{count} {noun}{'s' * (count != 1)}"


def cut(text: str, limit: int) -> str:
    """``text`` when it has at most ``limit`` characters, else its start and ``…`` (a line a
    person reads: a URL, a pointer or a name from a card, a server's words)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
