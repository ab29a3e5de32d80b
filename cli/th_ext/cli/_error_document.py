"""The document a machine format gets when a command cannot run at all.

In text mode such an error is one line on standard error. A program that asked for
``--format json``, ``junit`` or ``github`` reads standard output instead, so it gets a document
in that format which carries the error, and the exit code 2:

* JSON: ``{"command": ..., "source": ..., "exit_code": 2, "error": {"code": ..., "message": ...}}``;
* JUnit: one test suite for the command with one test case in ``<error>``;
* GitHub Actions: one ``::error`` workflow command.

``code`` is the stable name of what went wrong when the error has one (a source error's
``unreadable``, ``http-error``, ``too-large``, ...), else the kind of error (``dispatch``,
``conform``, ...). Credentials in a source URL are redacted, as everywhere.
"""

from __future__ import annotations

import re

from th_ext._exceptions import ThExtError
from th_ext.cli._json import to_json
from th_ext.cli._output import shown_source

__all__ = ["error_code", "error_document"]


def error_code(exc: ThExtError) -> str:
    """``exc``'s stable code: its own ``code``, or its class name in kebab case."""
    code = getattr(exc, "code", None)
    if isinstance(code, str) and code:
        return code
    name = type(exc).__name__.removesuffix("Error") or "error"
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()


def error_document(
    exc: ThExtError, output_format: str, *, command: str | None, source: object
) -> str:
    """The error as a document in ``output_format`` (``json``, ``junit`` or ``github``)."""
    message = " ".join(str(exc).split())
    shown = shown_source(source) if isinstance(source, str) else None
    title = f"th-ext {command}" if command else "th-ext"
    if output_format == "junit":
        return _junit(title, shown, error_code(exc), message)
    if output_format == "github":
        from th_ext.cli._github import annotation

        return annotation("error", message, title=title) + "\n"
    return to_json(
        {
            "command": command,
            "source": shown,
            "exit_code": 2,
            "error": {"code": error_code(exc), "message": message},
        }
    )


def _junit(title: str, source: str | None, code: str, message: str) -> str:
    import xml.etree.ElementTree as ET

    from th_ext.problems._junit_xml import junit_text
    from th_ext.problems._text import clean

    suites = ET.Element("testsuites", tests="1", failures="0", errors="1")
    suite = ET.SubElement(
        suites, "testsuite", name=title, tests="1", failures="0", errors="1", skipped="0"
    )
    case = ET.SubElement(
        suite, "testcase", classname=title, name=clean(source) if source else title
    )
    error = ET.SubElement(case, "error", type=code, message=clean(message))
    error.text = clean(message)
    return junit_text(suites)
