"""``th-ext-publish``: the site builds, for maintainers, CI and the host site's workflow.

``generate`` writes the extension pages, schemas, examples and catalog as files for any site
generator; ``zensical`` builds the whole site with Zensical; ``subtree`` builds the
extensions' folder into an existing Pages artifact. Errors are one line on standard error:
exit 1 when the extensions break a publishing rule or the generator rejects the site, 2 when
nothing could be built (a file in the way, a missing tool or folder).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from th_ext._exceptions import PublishError, SiteBuildError, ThExtError

__all__ = ["main"]

_PROG = "th-ext-publish"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=_PROG,
        description="Write the extension pages for any site generator, build the site with"
        " Zensical, or build the extensions' folder into an existing Pages artifact.",
    )
    config = argparse.ArgumentParser(add_help=False)
    config.add_argument(
        "--config", type=Path, default=Path("mkdocs.yml"), help="the site's mkdocs.yml"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    generate = commands.add_parser(
        "generate",
        parents=[config],
        help="write the extension pages, schemas, examples and catalog to a folder",
    )
    generate.add_argument("--out", type=Path, required=True, help="folder to write into")
    zensical = commands.add_parser(
        "zensical", parents=[config], help="build the whole site with Zensical"
    )
    zensical.add_argument("--site-dir", type=Path, default=Path("build/zensical"))
    subtree = commands.add_parser(
        "subtree",
        parents=[config],
        help="build the extensions' folder into an existing Pages artifact",
    )
    subtree.add_argument("--dest", type=Path, required=True, help="the Pages artifact folder")
    subtree.add_argument(
        "--work-dir", type=Path, default=Path("build/pages-subtree"), help="scratch folder"
    )
    subtree.add_argument(
        "--host-schemas",
        type=Path,
        metavar="DIR",
        help="the host's schema folder (docs/a2a/ext): serve each schema whose $id is under"
        " the extensions' prefix at its $id, with a page where the host has none",
    )
    return parser


def _run(args: argparse.Namespace) -> str:
    from th_ext.publish._build import build_subtree, build_zensical
    from th_ext.publish._site_plan import generate
    from th_ext.publish._stage import ProjectSettings, load_config

    if args.command == "generate":
        settings = ProjectSettings.from_config(args.config, load_config(args.config))
        plan = generate(
            settings.site_url,
            settings.extensions_dir,
            args.out,
            index_dir=settings.index_dir,
            check_published=settings.check_published,
        )
        return f"wrote {len(plan.files)} files under {args.out}"
    if args.command == "zensical":
        build_zensical(args.config, args.site_dir)
        return f"built the site with Zensical into {args.site_dir}"
    result = build_subtree(args.config, args.dest, args.work_dir, args.host_schemas)
    stale = f", removed {len(result.removed)} stale" if result.removed else ""
    skipped = (
        f"skipped {len(result.skipped)} host files: {', '.join(result.skipped)}\n"
        if result.skipped
        else ""
    )
    return f"{skipped}wrote {len(result.written)} files under {args.dest}/a2a/ext{stale}"


def main(argv: list[str] | None = None) -> int:
    """Run ``th-ext-publish`` behind the command line's boundary; return the exit code."""
    from th_ext.cli._boundary import run_guarded

    return run_guarded(lambda: _main(argv))


def _main(argv: list[str] | None) -> int:
    args = _parser().parse_args(argv)
    started = time.perf_counter()
    try:
        message = _run(args)
    except SiteBuildError as exc:
        sys.stderr.write(f"{_PROG} {args.command}: error: {' '.join(str(exc).split())}\n")
        return 2
    except PublishError as exc:  # a publishing rule is broken, or the generator said no
        for problem in exc.problems:
            sys.stderr.write(f"{_PROG} {args.command}: error: {' '.join(problem.split())}\n")
        return 1
    except ThExtError as exc:
        sys.stderr.write(f"{_PROG} {args.command}: error: {' '.join(str(exc).split())}\n")
        return 2
    sys.stdout.write(f"{message} in {time.perf_counter() - started:.1f} s\n")
    return 0
