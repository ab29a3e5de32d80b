"""The demo agent's executor: the SDK's ``AgentExecutor`` driven by the reference implementation.

Every message is decided with ``parse_command``. A new task is sent first, so that its stream
begins with the Task as A2A 1.0 requires (the server begins a stream for an existing task with
its snapshot). A command runs on the harness and is
answered with ``build_command_reply``: a re-emitted status update in the task's current state,
and nothing else. An ordinary message goes to the stand-in model and leaves the task waiting for
the next input. The broken variants (``DemoVariant``) each depart from this in one way.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from th_ext.commands import CommandCall, build_command_reply, parse_command
from th_ext.demo._harness import DemoHarness
from th_ext.demo._model import stand_in_answer
from th_ext.demo._sdk import (
    AgentExecutor,
    EventQueue,
    InMemoryTaskStore,
    Message,
    RequestContext,
    Task,
    TaskArtifactUpdateEvent,
    TaskState,
    TaskStatus,
    TaskStatusUpdateEvent,
    json_format,
)
from th_ext.demo._variants import DemoVariant

__all__ = ["DemoAgentExecutor"]


class DemoAgentExecutor(AgentExecutor):
    """Answers ordinary messages with the stand-in model and runs the harness's commands."""

    def __init__(
        self, harness: DemoHarness, task_store: InMemoryTaskStore, variant: DemoVariant
    ) -> None:
        self._harness = harness
        self._task_store = task_store
        self._variant = variant

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        message = context.message
        task_id = str(context.task_id)
        context_id = str(context.context_id)
        task = context.current_task
        created = task is None
        if task is None:
            task = _new_task(task_id, context_id, message)
        context_id = task.context_id
        state_name = TaskState.Name(task.status.state)
        message_json = json_format.MessageToDict(message) if message is not None else {}
        call = parse_command(message_json, self._harness.registry.names)
        if call is None and self._variant is DemoVariant.UNREGISTERED_AS_COMMAND:
            call = _any_slash_name(message_json)
        if created and (call is None or self._variant is not DemoVariant.REPLY_AS_MESSAGE):
            await event_queue.enqueue_event(task)
        if call is None:
            await self._answer(message_json, task_id, context_id, event_queue)
            return
        if self._variant is DemoVariant.WORKING_FIRST:
            await event_queue.enqueue_event(
                _status_update(task_id, context_id, "TASK_STATE_WORKING")
            )
        reply = await self._run_command(call, task, state_name, context)
        await self._send_reply(reply, event_queue)
        if self._variant is DemoVariant.REACHES_MODEL:
            await self._answer(message_json, task_id, context_id, event_queue)

    async def _send_reply(self, reply: dict[str, Any], queue: EventQueue) -> None:
        """Send the reply as the spec says, or in the broken shape a variant asks for."""
        message = reply["status"]["message"]
        if self._variant is DemoVariant.REPLY_AS_ARTIFACT:
            artifact = {"artifactId": str(uuid.uuid4()), "parts": message["parts"]}
            event = {
                "taskId": reply["taskId"],
                "contextId": reply["contextId"],
                "artifact": artifact,
                "metadata": reply["metadata"],
            }
            await queue.enqueue_event(json_format.ParseDict(event, TaskArtifactUpdateEvent()))
            return
        if self._variant is DemoVariant.REPLY_AS_MESSAGE:
            await queue.enqueue_event(json_format.ParseDict(message, Message()))
            return
        await queue.enqueue_event(json_format.ParseDict(reply, TaskStatusUpdateEvent()))

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        await event_queue.enqueue_event(
            _status_update(str(context.task_id), str(context.context_id), "TASK_STATE_CANCELED")
        )

    async def _answer(
        self, message_json: dict[str, Any], task_id: str, context_id: str, queue: EventQueue
    ) -> None:
        """An ordinary message: the stand-in model answers, then the task waits for input."""
        text = " ".join(
            part["text"]
            for part in message_json.get("parts", [])
            if isinstance(part, dict) and isinstance(part.get("text"), str)
        )
        await queue.enqueue_event(_status_update(task_id, context_id, "TASK_STATE_WORKING"))
        answer = stand_in_answer(self._harness.model_for(task_id), text)
        await queue.enqueue_event(
            _status_update(task_id, context_id, "TASK_STATE_INPUT_REQUIRED", answer)
        )

    async def _run_command(
        self, call: CommandCall, task: Task, state_name: str, context: RequestContext
    ) -> dict[str, Any]:
        """Run ``call`` on the harness and build its reply (broken on purpose in some variants)."""
        outcome = self._harness.run(call, task.id)
        text, task_ref = outcome.text, None
        if outcome.review_focus is not None:
            task_ref = str(uuid.uuid4())
            if self._variant is not DemoVariant.MISSING_TASK_REF:
                await self._start_review(task, task_ref, outcome.review_focus, context)
            text = self._harness.review_started(task_ref)
        if self._variant is DemoVariant.CHANGED_STATE:
            state_name = "TASK_STATE_COMPLETED"
        reply = build_command_reply(
            task_id=task.id,
            context_id=task.context_id,
            state=state_name,
            command=call.name,
            text=text,
            task_ref=task_ref,
        )
        return _break(reply, self._variant, call.name)

    async def _start_review(
        self, parent: Task, sub_task_id: str, focus: str, context: RequestContext
    ) -> None:
        """Create the review sub-task in the task store, where ``GetTask`` finds it."""
        result = self._harness.review_result(focus, len(parent.history) + 1)
        sub_task = Task(
            id=sub_task_id,
            context_id=parent.context_id,
            status=_status(sub_task_id, parent.context_id, "TASK_STATE_COMPLETED", result),
        )
        sub_task.metadata.update({"parent_task": parent.id})
        await self._task_store.save(sub_task, context.call_context)


def _new_task(task_id: str, context_id: str, message: Message | None) -> Task:
    task = Task(
        id=task_id,
        context_id=context_id,
        status=_status(task_id, context_id, "TASK_STATE_SUBMITTED"),
    )
    if message is not None:
        task.history.append(message)
    return task


def _status(task_id: str, context_id: str, state: str, text: str | None = None) -> TaskStatus:
    status = TaskStatus(state=TaskState.Value(state))
    status.timestamp.FromDatetime(datetime.now(UTC))
    if text is not None:
        status.message.CopyFrom(
            json_format.ParseDict(
                {
                    "messageId": str(uuid.uuid4()),
                    "role": "ROLE_AGENT",
                    "parts": [{"text": text}],
                    "contextId": context_id,
                    "taskId": task_id,
                },
                Message(),
            )
        )
    return status


def _status_update(
    task_id: str, context_id: str, state: str, text: str | None = None
) -> TaskStatusUpdateEvent:
    return TaskStatusUpdateEvent(
        task_id=task_id, context_id=context_id, status=_status(task_id, context_id, state, text)
    )


def _break(reply: dict[str, Any], variant: DemoVariant, name: str) -> dict[str, Any]:
    """The reply with the one fault a variant puts into its shape."""
    message = reply["status"]["message"]
    if variant in (DemoVariant.NO_METADATA, DemoVariant.MESSAGE_ONLY):
        del reply["metadata"]
    if variant in (DemoVariant.NO_METADATA, DemoVariant.EVENT_ONLY):
        del message["metadata"]
    if variant is DemoVariant.USER_ROLE:
        message["role"] = "ROLE_USER"
    elif variant is DemoVariant.SLASHED_COMMAND:
        reply["metadata"]["command"] = message["metadata"]["command"] = f"/{name}"
    elif variant is DemoVariant.UNNAMED_TASK:
        del message["taskId"], message["contextId"]
    return reply


def _any_slash_name(message_json: dict[str, Any]) -> CommandCall | None:
    """For the broken variant that takes any ``/name`` for a command."""
    parts = message_json.get("parts") or [{}]
    text = parts[0].get("text") if isinstance(parts[0], dict) else None
    if len(parts) == 1 and isinstance(text, str) and text.startswith("/") and len(text) > 1:
        name, _, arguments = text[1:].partition(" ")
        return CommandCall(name, arguments.strip())
    return None
