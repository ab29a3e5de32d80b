"""The options of a run over many sources, shared by ``validate`` and ``conform``.

Kept apart from the run itself (``th_ext.cli._fleet``), which loads asyncio and httpx: a
command checking one source reads these options and never pays for the batch.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

__all__ = [
    "DEFAULT_JOBS",
    "DEFAULT_PER_ORIGIN",
    "MAX_JOBS",
    "FleetOptions",
    "FromOption",
    "JobsOption",
    "OutputOption",
    "PerOriginOption",
    "QuietOption",
    "ResumeOption",
]

#: The library's defaults (``th_ext.batch``), repeated here so that reading the options does
#: not load the batch; a test holds them equal.
DEFAULT_JOBS = 16
DEFAULT_PER_ORIGIN = 4
MAX_JOBS = 10_000

FromOption = Annotated[
    str | None,
    typer.Option(
        "--from",
        metavar="FILE",
        help="Also check every source listed in FILE, one a line (- for standard input; blank "
        "lines and lines starting with # are skipped). A source listed twice is checked once.",
        show_default=False,
    ),
]
JobsOption = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        metavar="N",
        min=1,
        max=MAX_JOBS,
        help="Check up to N sources at once.",
        show_default=True,
    ),
]
PerOriginOption = Annotated[
    int,
    typer.Option(
        "--per-origin",
        metavar="N",
        min=1,
        max=MAX_JOBS,
        help="Send at most N requests at once to one origin (scheme, host, port).",
        show_default=True,
    ),
]
OutputOption = Annotated[
    Path | None,
    typer.Option(
        "--output",
        "-o",
        metavar="FILE",
        help="Write the output to FILE instead of standard output.",
        show_default=False,
        dir_okay=False,
    ),
]
ResumeOption = Annotated[
    Path | None,
    typer.Option(
        "--resume",
        metavar="FILE",
        help="Resume the run whose JSON Lines are in FILE: skip the sources it holds and "
        "append the others (implies --format jsonl and -o FILE).",
        show_default=False,
        dir_okay=False,
    ),
]
QuietOption = Annotated[
    bool,
    typer.Option(
        "--quiet",
        "-q",
        help="Less output: no progress line on standard error, and text output leaves out "
        "the 'source: ok' and 'document: ok' lines.",
    ),
]


@dataclass(frozen=True, slots=True)
class FleetOptions:
    from_file: str | None = None
    jobs: int = DEFAULT_JOBS
    per_origin: int = DEFAULT_PER_ORIGIN
    output: Path | None = None
    resume: Path | None = None
    quiet: bool = False

    def wanted(self, sources: list[str], output_format: str) -> bool:
        """Whether the run goes through the batch rather than the one-source path."""
        return (
            self.from_file is not None
            or len(sources) > 1
            or output_format == "jsonl"
            or self.output is not None
            or self.resume is not None
        )
