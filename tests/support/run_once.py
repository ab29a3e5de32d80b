"""Work done once per test run, whichever pytest-xdist worker asks for it first.

A session fixture runs once in each worker, so with two workers a site build or a round of
page visits in Chromium would be made twice. These helpers keep the result in a folder that
all workers of one run share (next to each worker's base temporary folder), behind a lock:
the first worker to ask makes it, the others wait for it and read it. A failure is not kept,
so every worker that asks reports it. Without xdist the run's own base folder is used.
Results made of many independent parts (pages to visit) are shared part by part, so that two
workers asking at the same time each make some of the parts.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

import pytest

__all__ = ["folder_once", "run_folder", "shared_results"]


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary folder every worker of this test run shares.

    Under xdist it is named by the run's id, in the parent of the workers' base folders: a
    ``--basetemp`` given by hand is reused by the next run, which must not find these results.
    """
    base = tmp_path_factory.getbasetemp()
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if not os.environ.get("PYTEST_XDIST_WORKER") or not run:
        return base
    folder = base.parent / f"run-{run}"
    folder.mkdir(exist_ok=True)
    return folder


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def folder_once(
    tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]
) -> Path:
    """``run_folder/name``, filled by ``make(folder)`` once for the whole run."""
    root = run_folder(tmp_path_factory)
    folder = root / f"once-{name}"
    done = root / f"once-{name}.done"
    with _locked(root / f"once-{name}.lock"):
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            done.touch()
    return folder


def _claim(keys: list[str], saved: Callable[[str], Path], held: dict[str, TextIO]) -> Iterator[str]:
    """The keys not made yet nor being made by another worker, each locked (in ``held``) as
    it is handed out."""
    for key in keys:
        if saved(key).exists():
            continue
        handle = saved(key).with_suffix(".lock").open("a")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            continue
        if saved(key).exists():  # made by another worker since we looked
            handle.close()
            continue
        held[key] = handle
        yield key


def shared_results(
    tmp_path_factory: pytest.TempPathFactory,
    name: str,
    keys: list[str],
    make: Callable[[Iterator[str]], Iterable[tuple[str, Any]]],
) -> dict[str, Any]:
    """The JSON-able result for every key, each made once for the whole run.

    ``make`` is handed the keys this worker has claimed, one at a time as it asks for the
    next, and gives back ``(key, result)`` pairs; a key another worker is making meanwhile is
    not handed out, so that two workers asking at once share the work instead of one waiting
    for the other. Once its own are made, a worker waits for the others' and reads them all.
    """
    folder = run_folder(tmp_path_factory) / f"once-{name}"
    folder.mkdir(exist_ok=True)

    def saved(key: str) -> Path:
        return folder / (hashlib.sha256(key.encode()).hexdigest()[:20] + ".json")

    while True:
        held: dict[str, TextIO] = {}
        try:
            for key, result in make(_claim(keys, saved, held)):
                partial = saved(key).with_suffix(".partial")
                partial.write_text(json.dumps(result), encoding="utf-8")
                partial.replace(saved(key))
        finally:
            for handle in held.values():
                handle.close()  # closing the file releases its lock
        waiting = [key for key in keys if not saved(key).exists()]
        if not waiting:
            return {key: json.loads(saved(key).read_text(encoding="utf-8")) for key in keys}
        with _locked(saved(waiting[0]).with_suffix(".lock")):
            pass  # another worker is making it: wait until it is done (or has failed)
