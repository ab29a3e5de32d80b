"""The one door to the optional A2A SDK and uvicorn, which only the demo agent uses.

Importing this module either gives the demo what it needs from the ``demo`` extra or raises
``DemoUnavailableError`` with the one line that tells the user how to install it.
"""

from __future__ import annotations

from th_ext._exceptions import DemoUnavailableError

try:
    import uvicorn
    from a2a.server.agent_execution import AgentExecutor, RequestContext
    from a2a.server.events import EventQueue
    from a2a.server.request_handlers import DefaultRequestHandler
    from a2a.server.routes import (
        create_agent_card_routes,
        create_jsonrpc_routes,
        create_rest_routes,
    )
    from a2a.server.tasks import InMemoryTaskStore
    from a2a.types import (
        AgentCard,
        Message,
        Task,
        TaskArtifactUpdateEvent,
        TaskState,
        TaskStatus,
        TaskStatusUpdateEvent,
    )
    from google.protobuf import json_format
    from starlette.applications import Starlette
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise DemoUnavailableError(
        f"the demo agent needs the optional 'demo' extra ({exc.name or 'a2a-sdk'} is missing);"
        " install it with: pip install 'th-ext[demo] @ git+https://github.com/madarauchiha-314/th-ext'"
    ) from None

__all__ = [
    "AgentCard",
    "AgentExecutor",
    "DefaultRequestHandler",
    "EventQueue",
    "InMemoryTaskStore",
    "Message",
    "RequestContext",
    "Starlette",
    "Task",
    "TaskArtifactUpdateEvent",
    "TaskState",
    "TaskStatus",
    "TaskStatusUpdateEvent",
    "create_agent_card_routes",
    "create_jsonrpc_routes",
    "create_rest_routes",
    "json_format",
    "uvicorn",
]
