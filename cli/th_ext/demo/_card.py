"""The demo agent's card, as A2A 1.0 JSON, with the commands params made by the registry."""

from __future__ import annotations

from typing import Any

from th_ext._version import __version__
from th_ext.commands import CommandRegistry

__all__ = ["REST_PATH", "RPC_PATH", "demo_card"]

RPC_PATH = "/a2a"
"""Where the demo serves its JSON-RPC interface, under its base URL."""
REST_PATH = "/rest"
"""Where the demo serves its HTTP+JSON (REST) interface, under its base URL."""


def demo_card(
    base_url: str, registry: CommandRegistry, *, streaming: bool = True
) -> dict[str, Any]:
    """The card the demo agent serves at ``<base_url>/.well-known/agent-card.json``."""
    return {
        "name": "th-ext demo agent",
        "description": (
            "A tiny-harness agent that answers with a stand-in model and runs slash commands "
            "on the harness."
        ),
        "version": __version__,
        "supportedInterfaces": [
            {
                "url": base_url.rstrip("/") + RPC_PATH,
                "protocolBinding": "JSONRPC",
                "protocolVersion": "1.0",
            },
            {
                "url": base_url.rstrip("/") + REST_PATH,
                "protocolBinding": "HTTP+JSON",
                "protocolVersion": "1.0",
            },
        ],
        "capabilities": {
            "streaming": streaming,
            "extensions": [registry.card_extension("Slash commands run on the harness.")],
        },
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [
            {
                "id": "chat",
                "name": "Chat",
                "description": "Answers in plain text with a stand-in model.",
                "tags": ["chat", "demo"],
                "examples": ["What is A2A?", "/model fast", "/help"],
            }
        ],
    }
