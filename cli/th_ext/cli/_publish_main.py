"""``th-ext-publish``: the site builds, for maintainers, CI and the host site's workflow."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from th_ext import PublishError, SiteBuildError, ThExtError
from th_ext.cli._boundary import run_app, run_guarded
from th_ext.problems import counted, os_reason
from th_ext.publish import ProjectSettings, build_subtree, build_zensical, generate, load_config

__all__ = ["app", "main"]

_PROG = "th-ext-publish"

app = typer.Typer(
    name=_PROG,
    help="Write the extension pages for any site generator, build the site with Zensical,"
    " or build the extensions' folder into an existing Pages artifact.",
    add_completion=False,
    no_args_is_help=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

ConfigOption = Annotated[
    Path, typer.Option("--config", metavar="FILE", help="the site's mkdocs.yml")
]


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _report(command: str, work: Callable[[], str]) -> None:
    """Run ``work``; print its message with the time taken, or each error on one line and
    exit 1 (a publishing rule broken, the site rejected) or 2 (nothing could be built, a file
    or folder the system would not make among the reasons)."""
    started = time.perf_counter()
    try:
        message = work()
    except SiteBuildError as exc:
        sys.stderr.write(f"{_PROG} {command}: error: {_one_line(str(exc))}\n")
        raise typer.Exit(2) from None
    except PublishError as exc:  # a publishing rule is broken, or the generator said no
        for problem in exc.problems:
            sys.stderr.write(f"{_PROG} {command}: error: {_one_line(problem)}\n")
        raise typer.Exit(1) from None
    except ThExtError as exc:
        sys.stderr.write(f"{_PROG} {command}: error: {_one_line(str(exc))}\n")
        raise typer.Exit(2) from None
    except OSError as exc:  # a folder or file the build could not make: the system's words
        where = f"{exc.filename}: " if exc.filename else ""
        sys.stderr.write(f"{_PROG} {command}: error: {_one_line(where + os_reason(exc))}\n")
        raise typer.Exit(2) from None
    sys.stdout.write(f"{message} in {time.perf_counter() - started:.1f} s\n")


@app.command("generate")
def generate_command(
    out: Annotated[Path, typer.Option("--out", metavar="DIR", help="folder to write into")],
    config: ConfigOption = Path("mkdocs.yml"),
) -> None:
    """Write the extension pages, schemas, examples and catalog to a folder."""

    def generate_site() -> str:
        settings = ProjectSettings.from_config(config, load_config(config))
        plan = generate(
            settings.site_url,
            settings.extensions_dir,
            out,
            index_dir=settings.index_dir,
            check_published=settings.check_published,
        )
        return f"wrote {counted(len(plan.files), 'file')} under {out}"

    _report("generate", generate_site)


@app.command("zensical")
def zensical_command(
    config: ConfigOption = Path("mkdocs.yml"),
    site_dir: Annotated[
        Path, typer.Option("--site-dir", metavar="DIR", help="folder to build into")
    ] = Path("build/zensical"),
) -> None:
    """Build the whole site with Zensical."""

    def build_site() -> str:
        build_zensical(config, site_dir)
        return f"built the site with Zensical into {site_dir}"

    _report("zensical", build_site)


@app.command("subtree")
def subtree_command(
    dest: Annotated[Path, typer.Option("--dest", metavar="DIR", help="the Pages artifact folder")],
    config: ConfigOption = Path("mkdocs.yml"),
    work_dir: Annotated[
        Path, typer.Option("--work-dir", metavar="DIR", help="scratch folder")
    ] = Path("build/pages-subtree"),
    host_schemas: Annotated[
        Path | None,
        typer.Option(
            "--host-schemas",
            metavar="DIR",
            help="the host's schema folder (docs/a2a/ext): serve each schema whose $id is"
            " under the extensions' prefix at its $id, with a page where the host has none",
        ),
    ] = None,
) -> None:
    """Build the extensions' folder into an existing Pages artifact."""

    def build_subtree_artifact() -> str:
        result = build_subtree(config, dest, work_dir, host_schemas)
        stale = f", removed {len(result.removed)} stale" if result.removed else ""
        skipped = (
            f"skipped {counted(len(result.skipped), 'host file')}: {', '.join(result.skipped)}\n"
            if result.skipped
            else ""
        )
        return f"{skipped}wrote {counted(len(result.written), 'file')} under {dest}/a2a/ext{stale}"

    _report("subtree", build_subtree_artifact)


def main(argv: list[str] | None = None) -> int:
    """Run ``th-ext-publish`` behind the command line's boundary, its usage errors in the
    words of ``th-ext``'s (``run_app``); return the exit code."""
    return run_guarded(lambda: run_app(app, argv, _PROG))
