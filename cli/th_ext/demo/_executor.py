"""The demo agent's executor: the SDK's ``AgentExecutor`` driven by the reference implementation.

Every message is decided with ``parse_command``. A command runs on the harness and is answered
with ``build_command_reply``: a re-emitted status update in the task's current state. An
ordinary message goes to the stand-in model and leaves the task waiting for the next input.
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
        if task is None:
            task = _new_task(task_id, context_id, message)
            await event_queue.enqueue_event(task)
        state_name = TaskState.Name(task.status.state)
        message_json = json_format.MessageToDict(message) if message is not None else {}
        call = parse_command(message_json, self._harness.registry.names)
        if call is None:
            await self._answer(message_json, task_id, context_id, event_queue)
        else:
            reply = await self._run_command(call, task, state_name, context)
            await event_queue.enqueue_event(json_format.ParseDict(reply, TaskStatusUpdateEvent()))

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
            state_name = "TASK_STATE_WORKING"
        reply = build_command_reply(
            task_id=task.id,
            context_id=task.context_id,
            state=state_name,
            command=call.name,
            text=text,
            task_ref=task_ref,
        )
        if self._variant is DemoVariant.NO_METADATA:
            del reply["metadata"]
        return reply

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
