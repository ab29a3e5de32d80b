"""The demo agent without the SDK: its commands, its stand-in model, and its card."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from th_ext._version import __version__
from th_ext.commands import CommandCall, CommandRegistry
from th_ext.problems import counted

__all__ = [
    "DEFAULT_MODEL",
    "MODELS",
    "REST_PATH",
    "RPC_PATH",
    "CommandOutcome",
    "DemoHarness",
    "demo_card",
    "demo_registry",
    "stand_in_answer",
]


MODELS = ("balanced", "fast", "thorough")
"""The models a task can choose from with ``/model``."""
DEFAULT_MODEL = "balanced"

_STYLES = {
    "balanced": "Here is a balanced answer",
    "fast": "Quick answer",
    "thorough": "Here is a thorough answer, considered from every side",
}


def stand_in_answer(model: str, text: str) -> str:
    """What the stand-in ``model`` says to ``text``: deterministic, so the demo needs no model or
    network, and naming the model, so that the effect of ``/model`` shows."""
    style = _STYLES.get(model, _STYLES[DEFAULT_MODEL])
    return f"[{model}] {style} to {text!r}."


def demo_registry() -> CommandRegistry:
    """The demo agent's commands, in the order the card lists them."""
    registry = CommandRegistry()
    registry.register("model", "Show or choose this task's model", "[<model>]")
    registry.register("help", "List the commands this agent offers")
    registry.register("review", "Start a review of the conversation as a sub-task", "<focus>")
    return registry


@dataclass(frozen=True, slots=True)
class CommandOutcome:
    """A command's answer; ``review_focus`` is set when it asks for a review sub-task."""

    text: str
    review_focus: str | None = None


class DemoHarness:
    """Runs the demo's commands and remembers each task's model."""

    def __init__(self) -> None:
        self.registry = demo_registry()
        self._models: dict[str, str] = {}

    def model_for(self, task_id: str) -> str:
        return self._models.get(task_id, DEFAULT_MODEL)

    def run(self, call: CommandCall, task_id: str) -> CommandOutcome:
        """Run ``call`` for the task ``task_id``."""
        if call.name == "model":
            return CommandOutcome(self._model(call.arguments, task_id))
        if call.name == "help":
            return CommandOutcome(self._help())
        if call.name == "review":
            return CommandOutcome("", review_focus=call.arguments or "the whole conversation")
        return CommandOutcome(f"/{call.name} is registered but does nothing here.")

    def _model(self, arguments: str, task_id: str) -> str:
        current = self.model_for(task_id)
        choices = ", ".join(MODELS)
        if not arguments:
            return f"Model for this task: {current}. Choose one of: {choices}."
        if arguments not in MODELS:
            return f"Unknown model {arguments!r}; choose one of: {choices}. Still using {current}."
        self._models[task_id] = arguments
        return f"Model for this task: {arguments} (was: {current})."

    def _help(self) -> str:
        lines = ["Commands:"]
        for spec in self.registry:
            usage = f"/{spec.name} {spec.argument_hint}".rstrip()
            lines.append(f"  {usage}  {spec.description}")
        return "\n".join(lines)

    @staticmethod
    def review_started(sub_task_id: str) -> str:
        return f"Started a review of this conversation as task {sub_task_id}."

    @staticmethod
    def review_result(focus: str, message_count: int) -> str:
        return (
            f"Review ({focus}): {counted(message_count, 'message')} "
            "read; the stand-in model found nothing to change."
        )


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
                "url": base_url.rstrip("/") + path,
                "protocolBinding": binding,
                "protocolVersion": "1.0",
            }
            for path, binding in ((RPC_PATH, "JSONRPC"), (REST_PATH, "HTTP+JSON"))
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
