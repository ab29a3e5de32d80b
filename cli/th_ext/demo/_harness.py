"""The demo agent's harness: its registered commands and what each one does.

This is the part of an agent that the commands extension is about, written without the A2A SDK:
the registry that the card's params come from, and the commands that run on the harness
instead of reaching the model. The server module wires it to the SDK.
"""

from __future__ import annotations

from dataclasses import dataclass

from th_ext.commands import CommandCall, CommandRegistry
from th_ext.demo._model import DEFAULT_MODEL, MODELS

__all__ = ["CommandOutcome", "DemoHarness", "demo_registry"]


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
            f"Review ({focus}): {message_count} message{'s' if message_count != 1 else ''} "
            "read; the stand-in model found nothing to change."
        )
