"""The card's part of conformance: read it (through the run's client when a transport is
given) and check that it lists the registered commands in the extension's params (CMD-7)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from th_ext._exceptions import (
    CardDocumentError,
    FetchError,
    HTTPStatusCodeError,
    SourceTooLargeError,
)
from th_ext.commands._card import CardCommands
from th_ext.conform._model import Check
from th_ext.sources._source import SourceLimits, well_known_urls

if TYPE_CHECKING:
    import httpx

    from th_ext.net import HeaderScope

__all__ = ["card_check", "fetch_card"]


def card_check(extension: CardCommands) -> Check:
    if not extension.declared:
        ok, detail = False, "the card does not declare the extension"
    elif extension.problems:
        ok, detail = False, "; ".join(extension.problems)
    else:
        names = ", ".join(f"/{name}" for name in extension.names) or "none"
        ok, detail = True, f"params list the registered commands: {names}"
    return Check("CMD-7", "pass" if ok else "fail", "card", "the agent card", "card", detail)


async def fetch_card(
    client: httpx.AsyncClient, source: str, limits: SourceLimits, scope: HeaderScope
) -> tuple[dict[str, Any], str]:
    """GET the card through ``client`` with the card reader's limits: the well-known path for a
    base URL, the byte cap, the whole-fetch deadline. Redirects are not followed."""
    import asyncio

    from th_ext.validate._document import parse_document

    url, _ = well_known_urls(source)
    data = bytearray()
    try:
        async with asyncio.timeout(limits.timeout):
            headers = {**dict(scope.headers_for(url)), "Accept": "application/json"}
            async with client.stream("GET", url, headers=headers) as response:
                if response.status_code >= 300:
                    raise HTTPStatusCodeError(
                        f"{url}: HTTP {response.status_code}", status=response.status_code, url=url
                    )
                async for chunk in response.aiter_bytes():
                    data += chunk
                    if len(data) > limits.max_bytes:
                        raise SourceTooLargeError(
                            f"{url}: larger than the cap of {limits.max_bytes} bytes"
                        )
    except TimeoutError:
        raise FetchError(f"{url}: no answer within {limits.timeout:g} s", code="timeout") from None
    except Exception as exc:
        if isinstance(exc, FetchError | SourceTooLargeError):
            raise
        raise FetchError(f"{url}: {type(exc).__name__}: {exc}") from None
    document = parse_document(bytes(data))
    fatal = next((p for p in document.problems if p.fatal), None)
    if fatal is not None or not isinstance(document.value, dict):
        problem = fatal or document.problems[-1]
        raise CardDocumentError(f"{url}: {problem.message}", code=problem.code, path=problem.path)
    return document.value, url
