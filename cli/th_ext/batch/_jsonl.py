"""Reading a run's JSON Lines back to resume it: the sources the file holds and its worst exit
code, or one line refusing a file that is not th-ext JSON Lines of the same command."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from th_ext._exceptions import SourceArgumentError, os_reason
from th_ext.batch._seen import SeenSources

__all__ = ["ResumeState", "exit_code_of", "read_resume"]

_MAX_LINE = 256 * 1024 * 1024  # far beyond any report th-ext writes


def exit_code_of(document: Any, command: str) -> int | None:
    """The exit code a th-ext JSON Lines line of ``command`` stands for; ``None`` if the line
    is not one."""
    if not isinstance(document, dict) or not isinstance(document.get("source"), str):
        return None
    error = document.get("error")
    if isinstance(error, dict):  # the error document of a source that could not be read
        if document.get("command") == command and document.get("exit_code") == 2:
            return 2
        return None
    code = document.get("exit_code")
    if command == "validate":
        if document.get("format") == 1 and code in (0, 1, 2) and "valid" in document:
            return int(code)
        return None
    if isinstance(document.get("passed"), bool) and isinstance(document.get("agent"), dict):
        return int(code) if code in (0, 1) else 0 if document["passed"] else 1
    return None


@dataclass(slots=True)
class ResumeState:
    """What a resumed run starts from: the sources already reported, the worst exit code."""

    seen: SeenSources = field(default_factory=SeenSources)
    lines: int = 0
    worst: int = 0
    #: Bytes of whole reports from the start of the file; what follows is ``cut``'s fragment.
    whole: int = 0
    #: The number of the last line when it is the start of a report a stopped run was writing
    #: (``{"`` or its first byte, no line end, not a whole report): not counted, cut at ``whole``.
    cut: int | None = None
    #: The last report has no line end (a file edited by hand): one goes before the next line.
    unended: bool = False


def read_resume(path: str, command: str, *, strict: bool | None = None) -> ResumeState:
    """The state in the JSON Lines file at ``path``, written by ``th-ext command``; with
    ``strict``, a report of the other strictness is refused (its verdict would not be this
    run's).

    A file that does not exist yet is an empty state (the same command line starts a run and
    resumes it), and a last line that is the start of a report, cut off where the machine
    stopped the run, is the state's ``cut``. Raises ``SourceArgumentError`` (one line) for any
    other file that is not th-ext JSON Lines of ``command``; the file is only read.
    """
    state = ResumeState()
    try:
        handle = open(path, "rb")  # noqa: PTH123, SIM115 (closed below; str paths throughout)
    except FileNotFoundError:
        return state
    except OSError as exc:
        reason = os_reason(exc)
        raise SourceArgumentError(f"--resume {path}: cannot be read ({reason})") from None
    with handle:
        number = 0
        while True:
            try:
                line = handle.readline(_MAX_LINE + 1)
            except OSError as exc:
                reason = os_reason(exc)
                raise SourceArgumentError(f"--resume {path}: cannot be read ({reason})") from None
            if not line:
                return state
            number += 1
            where = f"--resume {path} line {number}"
            ended = line.endswith(b"\n")
            if not ended and (len(line) > _MAX_LINE or not b'{"'.startswith(line[:2])):
                raise SourceArgumentError(
                    f"{where}: not a whole line; this is not JSON Lines written by th-ext "
                    f"{command} (the file is left as it is)"
                )
            try:
                document = json.loads(line)
            except (ValueError, RecursionError):
                document = None
            code = exit_code_of(document, command)
            if code is None and not ended:  # the machine stopped the run as it wrote the line
                state.cut = number
                return state
            if code is None:
                raise SourceArgumentError(
                    f"{where}: not a report of th-ext {command}; this is not JSON Lines written "
                    f"by th-ext {command} (the file is left as it is)"
                )
            if strict is not None and document.get("strict", strict) is not strict:
                raise SourceArgumentError(
                    f"{where}: checked {'without' if strict else 'with'} --strict; resume with "
                    "the same options, or start a new file"
                )
            state.seen.add(document["source"])
            state.lines += 1
            state.worst = max(state.worst, code)
            state.whole += len(line)
            state.unended = not ended
