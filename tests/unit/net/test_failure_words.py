"""A wire failure in words: chosen by the type of the error and of the errors in its cause chain,
the server's words kept to one bounded line."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
import threading
from collections.abc import Iterator

import httpx
import pytest
import trustme

from th_ext.net._exchange import describe, shorten


def _chained(outer: BaseException, cause: BaseException | None) -> BaseException:
    outer.__cause__ = cause
    return outer


def _tls_error(reason: str | None, text: str = "[SSL] handshake failed") -> ssl.SSLError:
    """An ``ssl.SSLError`` as the ssl module raises it, with its ``reason``."""
    error = ssl.SSLError(1, text)
    error.reason = reason  # type: ignore[assignment]
    return error


def _verify_error(message: str) -> ssl.SSLCertVerificationError:
    error = ssl.SSLCertVerificationError(1, "certificate verify failed")
    error.verify_message = message
    return error


@pytest.mark.parametrize(
    ("error", "words"),
    [
        (httpx.ReadError("connection reset"), "the connection failed"),
        (httpx.WriteError("broken pipe"), "the connection failed"),
        (_chained(httpx.WriteError("x"), BrokenPipeError(32, "Broken pipe")),
         "the connection failed (broken pipe)"),
        (_chained(httpx.ReadError("x"), OSError("the link  went\ndown")),
         "the connection failed (the link went down)"),
        (_chained(httpx.ConnectError("x"), OSError(101, "Network is unreachable")),
         "network is unreachable"),
        (_chained(httpx.ConnectError("x"), socket.gaierror("no such name")),
         "cannot resolve the host (no such name)"),
        (_chained(httpx.ConnectError("x"), _tls_error("WRONG_VERSION_NUMBER")),
         "TLS: WRONG_VERSION_NUMBER"),
        (_chained(httpx.ConnectError("x"), _tls_error(None, "[SSL] the  handshake\nfailed")),
         "TLS: [SSL] the handshake failed"),
        (_chained(httpx.ConnectError("x"), _tls_error("R" * 300)),
         "TLS: " + "R" * 119 + "…"),
        (_chained(httpx.ConnectError("x"), _verify_error("self-signed certificate")),
         "TLS: certificate verify failed: self-signed certificate"),
        (_chained(httpx.ConnectError("x"), _verify_error("")),
         "TLS: certificate verify failed"),
        (_chained(httpx.ConnectError("x"), _verify_error("v" * 300)),
         "TLS: certificate verify failed: " + "v" * 119 + "…"),
        (ValueError("many  words\n" * 100),
         "ValueError: " + ("many words " * 100)[:199] + "…"),
    ],
)  # fmt: skip
def test_a_failure_is_put_in_words_by_the_type_of_its_cause(
    error: BaseException, words: str
) -> None:
    assert describe(error) == words


def test_a_tls_error_is_preferred_to_any_socket_error_in_the_chain() -> None:
    refused = _chained(ConnectionRefusedError(111, "Connection refused"), _tls_error("BAD"))
    assert describe(_chained(httpx.ConnectError("x"), refused)) == "TLS: BAD"


def test_a_socket_error_with_a_number_is_preferred_to_one_without() -> None:
    vague = _chained(OSError("All connection attempts failed"), OSError(113, "No route to host"))
    assert describe(_chained(httpx.ConnectError("x"), vague)) == "no route to host"


def test_the_context_is_read_when_an_error_has_no_cause() -> None:
    outer = httpx.ReadError("x")
    outer.__context__ = ConnectionResetError(104, "Connection reset by peer")
    assert describe(outer) == "the connection failed (connection reset by peer)"


def test_every_error_of_a_group_in_the_chain_is_read() -> None:
    group = ExceptionGroup("all attempts", [OSError("first"), OSError(113, "No route to host")])
    assert (
        describe(_chained(httpx.ReadError("x"), group))
        == "the connection failed (no route to host)"
    )


def test_an_error_met_twice_in_the_chain_does_not_end_the_reading() -> None:
    """An error of a group that is also the cause of the one before it: the errors after it
    are still read."""
    shared = OSError("shared")
    shared.__cause__ = ConnectionResetError(104, "Connection reset by peer")
    first = OSError("first")
    first.__cause__ = shared
    group = ExceptionGroup("attempts", [first, shared])
    words = describe(_chained(httpx.ReadError("x"), group))
    assert words == "the connection failed (connection reset by peer)"


def test_a_chain_that_loops_is_read_once() -> None:
    first, second = OSError("first"), OSError("second")
    first.__context__, second.__context__ = second, first
    assert describe(_chained(httpx.ReadError("x"), first)) == "the connection failed (first)"


@pytest.mark.parametrize(("depth", "words"), [(63, "reset"), (64, "vague")])
def test_the_cause_chain_is_read_to_sixty_four_errors(depth: int, words: str) -> None:
    """The 64th error of a chain is read, the 65th is not (a chain can be made to be endless)."""
    error: BaseException = ConnectionResetError(104, "Reset")
    for _ in range(depth - 1):
        error = _chained(OSError("vague"), error)
    assert describe(_chained(httpx.ReadError("x"), error)) == f"the connection failed ({words})"


@pytest.mark.parametrize(
    ("text", "limit", "words"),
    [
        ("x" * 200, 200, "x" * 200),
        ("x" * 201, 200, "x" * 199 + "…"),
        (" a\tb\r\n c ", 200, "a b c"),
        ("abcdef", 4, "abc…"),
        ("abcd", 4, "abcd"),
    ],
)
def test_words_are_kept_to_one_line_of_a_bounded_length(text: str, limit: int, words: str) -> None:
    assert shorten(text, limit) == words
    assert len(words) <= limit


# --- a real TLS server whose certificate th-ext does not trust ---


@pytest.fixture
def untrusted_tls_url() -> Iterator[str]:
    """An HTTPS server on 127.0.0.1 whose certificate a CA of its own signed."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    trustme.CA().issue_cert("127.0.0.1").configure_cert(context)
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.05)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(2)
                # The client refuses the certificate: the handshake fails on this side too.
                with contextlib.suppress(ssl.SSLError, OSError):
                    context.wrap_socket(conn, server_side=True).close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"https://127.0.0.1:{listener.getsockname()[1]}/"
    finally:
        stop.set()
        thread.join()
        listener.close()


def test_an_untrusted_certificate_is_named_with_the_reason_tls_gives(
    untrusted_tls_url: str,
) -> None:
    async def get() -> BaseException:
        async with httpx.AsyncClient(trust_env=False) as client:
            with pytest.raises(httpx.ConnectError) as raised:
                await client.get(untrusted_tls_url)
            return raised.value

    words = describe(asyncio.run(get()))
    assert words == "TLS: certificate verify failed: unable to get local issuer certificate"
