"""How ``th-ext demo`` prints its report: each step's verdict and what it found."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from th_ext.cli._conform_text import render_text
from th_ext.cli._dispatch_output import render_plan
from th_ext.problems._text import clean

if TYPE_CHECKING:
    from th_ext.demo._run import DemoRun
    from th_ext.validate import Report

__all__ = ["demo_json", "render_demo"]


def demo_json(run: DemoRun) -> dict[str, Any]:
    return {
        "passed": run.passed,
        "agent": run.base_url,
        "card": run.card_location,
        "validate": run.validation.to_dict(),
        "dry_run": {"passed": run.dry_run_passed, **run.dry_run.to_dict()},
        "conform": run.conformance.to_dict(),
    }


def render_demo(run: DemoRun, *, color: bool) -> str:
    def verdict(ok: bool) -> str:
        word, code = ("passed", "1;32") if ok else ("FAILED", "1;31")
        return f"\033[{code}m{word}\033[0m" if color else word

    def heading(number: int, title: str, ok: bool) -> list[str]:
        return ["", f"{number}. {title}: {verdict(ok)}"]

    lines = [f"demo agent listening at {run.base_url} (stopped again when the demo ends)"]
    lines += heading(1, f"th-ext validate {run.base_url}", run.validation_passed)
    lines += ["   " + line for line in _validation_lines(run.validation)]
    lines += heading(
        2, f"th-ext dispatch {run.base_url} '/model fast' (dry run)", run.dry_run_passed
    )
    plan_text = render_plan(run.dry_run, run.card_location, color=color, compact=True)
    lines += ["   " + line if line else "" for line in plan_text.splitlines()]
    lines += heading(3, f"th-ext conform {run.base_url}", run.conformance.passed)
    report = render_text(run.conformance, color=color)
    lines += ["   " + line if line else "" for line in report.splitlines()]
    lines += ["", f"demo {verdict(run.passed)}"]
    return "\n".join(lines)


def _validation_lines(report: Report) -> list[str]:
    lines = [f"card {clean(report.location)}: " + ("valid" if report.valid else "not valid")]
    lines += [f"{p.severity}: {clean(p.path or '/')}: {clean(p.message)}" for p in report.problems]
    for extension in report.extensions:
        commands = extension.get("commands")
        if isinstance(commands, list):
            names = ", ".join(f"/{name}" for name in commands) or "none"
            lines.append(f"extension {extension.get('uri')}: commands {names}")
    return lines
