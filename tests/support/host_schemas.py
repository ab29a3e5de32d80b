"""A stand-in for the host's schema folder (tiny-harness's ``docs/a2a/ext``), made by the tests.

The schemas have the shapes the host's own have (pydantic-generated draft 2020-12 documents,
``$id`` = URI + ``/schema.json``), one per place the data travels: ``task`` (a
``Task.metadata`` key), ``status`` (``Task.metadata`` and status update metadata),
``channel`` (data parts) and ``media`` (card params), plus an exact copy of this project's
commands v1 schema. Switches add what the subtree build must refuse or skip: a drifted
commands schema (``runsOn`` added in place), a second file with the status ``$id``, a tool
descriptor without ``$id`` and a schema whose ``$id`` lies outside the prefix.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = [
    "PREFIX",
    "URIS",
    "make_host_schemas",
    "media_schema",
    "status_schema",
    "tiny_harness_media_card",
]

PREFIX = "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/"
URIS = {name: f"{PREFIX}{name}/v1" for name in ("task", "channel", "status", "commands", "media")}
DRAFT = "https://json-schema.org/draft/2020-12/schema"


def _schema(name: str, title: str, description: str, **body: Any) -> dict[str, Any]:
    return {
        "$schema": DRAFT,
        "$id": f"{URIS[name]}/schema.json",
        "title": title,
        "description": description,
        "type": "object",
        **body,
    }


def status_schema() -> dict[str, Any]:
    return _schema(
        "status",
        "StatusExtensionData",
        "Why a task waits for input, beside its INPUT_REQUIRED state.",
        properties={
            "sub_state": {
                "type": "string",
                "description": "What the agent waits for: awaiting-next-message or"
                " awaiting-answer; an unknown value is read as plain INPUT_REQUIRED.",
            }
        },
        required=["sub_state"],
        additionalProperties=False,
    )


def media_schema() -> dict[str, Any]:
    kinds = {"type": "array", "items": {"type": "string"}}
    return _schema(
        "media",
        "MediaExtensionParams",
        "The media an agent accepts and produces, on its card.",
        properties={
            "input": {**kinds, "description": "Media types the agent reads in file parts."},
            "output": {**kinds, "description": "Media types the agent writes in file parts."},
            "maxFileBytes": {"type": "integer", "minimum": 0, "description": "Largest file."},
            "maxMessageBytes": {"type": "integer", "minimum": 0, "description": "Largest message."},
            "maxAudioSeconds": {"type": "number", "minimum": 0, "description": "Longest audio."},
            "speechToText": {"type": "boolean", "description": "Audio input is transcribed."},
            "textToSpeech": {"type": "boolean", "description": "Replies can be spoken."},
            "imageGeneration": {"type": "boolean", "description": "Images can be generated."},
            "mediaPath": {"type": "string", "description": "Where received files are kept."},
        },
        additionalProperties=False,
    )


def _task_schema() -> dict[str, Any]:
    text = {"type": "string"}
    return _schema(
        "task",
        "TaskExtensionData",
        "A task's name, goal and plan, in Task.metadata.",
        properties={
            "name": {**text, "description": "The task's short name."},
            "goal": {**text, "description": "What the task is for."},
            "acceptance_criteria": {
                "type": "array",
                "items": text,
                "description": "When the task is done.",
            },
            "participants": {"type": "array", "items": text, "description": "Who takes part."},
            "plan": {
                "type": "array",
                "items": {"$ref": "#/$defs/PlanStep"},
                "description": "The steps planned.",
            },
            "sub_tasks": {
                "type": "array",
                "items": text,
                "description": "The ids of the tasks started from this one.",
            },
            "parent": {**text, "description": "The id of the task this one was started from."},
        },
        required=["name"],
        **{
            "$defs": {
                "PlanStep": {
                    "type": "object",
                    "description": "One step of the plan.",
                    "properties": {
                        "step": {**text, "description": "What the step does."},
                        "done": {"type": "boolean", "description": "Whether it is done."},
                    },
                    "required": ["step"],
                }
            }
        },
    )


def _channel_schema() -> dict[str, Any]:
    return _schema(
        "channel",
        "ChannelMessageData",
        "A message on a task's channel: a post, a help request or a reply to one.",
        properties={
            "kind": {"enum": ["message", "help-request", "help-reply"], "description": "Kind."},
            "text": {"type": "string", "description": "What was said."},
            "from": {"type": "string", "description": "Who said it."},
        },
        required=["kind", "text"],
    )


def _write(folder: Path, name: str, document: Any) -> None:
    (folder / name).write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def make_host_schemas(
    folder: Path,
    commands_schema: bytes,
    *,
    drifted: bool = False,
    duplicate: bool = False,
    extras: bool = True,
) -> Path:
    """Write the stand-in schema folder; ``commands_schema`` is this project's v1 schema."""
    folder.mkdir(parents=True, exist_ok=True)
    _write(folder, "task.json", _task_schema())
    _write(folder, "channel.json", _channel_schema())
    _write(folder, "status.json", status_schema())
    _write(folder, "media.json", media_schema())
    commands = commands_schema
    if drifted:
        document = json.loads(commands_schema)
        entry = document["$defs"]["CommandSpec"]["properties"]
        entry["runsOn"] = {"enum": ["agent", "surface"], "title": "Runs On"}
        commands = (json.dumps(document, indent=2, sort_keys=True) + "\n").encode("utf-8")
    (folder / "commands.json").write_bytes(commands)
    if extras:
        tool = {"name": "attach", "description": "Attach a file", "parameters": {"type": "object"}}
        _write(folder, "attach-tool.json", tool)
        a2ui = {"$schema": DRAFT, "$id": "https://a2ui.org/a2a-extension/a2ui/v0.9.1/schema.json"}
        _write(folder, "a2ui.json", a2ui)
    if duplicate:
        _write(folder, "status-copy.json", {**status_schema(), "title": "StatusCopy"})
    return folder


def tiny_harness_media_card(base_url: str = "http://127.0.0.1:8765/") -> dict[str, Any]:
    """A card as tiny-harness 0.9 serves it with media enabled: two interfaces on one URL, no
    skills, its five extensions (``required: false``), ``attach`` running on the surface."""
    command = {
        "name": "model",
        "description": "Show or choose the model",
        "argument_hint": "[<model>]",
    }
    commands = [
        command,
        {"name": "effort", "description": "Set the effort", "argument_hint": "[low|medium|high]"},
        {"name": "sub-task", "description": "Start a sub-task", "argument_hint": "<description>"},
        {"name": "status", "description": "Show the task's status"},
        {
            "name": "attach",
            "description": "Attach a file",
            "argument_hint": "<path>",
            "runsOn": "surface",
        },
    ]
    media = {
        "input": ["image/png", "audio/wav"],
        "output": ["image/png"],
        "maxFileBytes": 10485760,
        "maxMessageBytes": 20971520,
        "maxAudioSeconds": 120,
        "speechToText": True,
        "textToSpeech": False,
        "imageGeneration": True,
        "mediaPath": "media",
    }
    extensions = [
        {"uri": URIS["task"], "required": False},
        {"uri": URIS["channel"], "required": False},
        {"uri": URIS["status"], "required": False},
        {"uri": URIS["commands"], "required": False, "params": {"commands": commands}},
        {"uri": URIS["media"], "required": False, "params": media},
    ]
    interfaces = [
        {"url": base_url, "protocolBinding": binding, "protocolVersion": "1.0"}
        for binding in ("JSONRPC", "HTTP+JSON")
    ]
    return {
        "name": "tiny-harness",
        "description": "A harness for agents.",
        "version": "0.9.0",
        "supportedInterfaces": interfaces,
        "capabilities": {"streaming": True, "pushNotifications": True, "extensions": extensions},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
    }
