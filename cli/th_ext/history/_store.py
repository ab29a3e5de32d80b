"""The history store: every run of ``th-ext validate`` and ``conform`` in one SQLite file."""

from __future__ import annotations

import hashlib
import json
import math
import os
import sqlite3
import time
import zlib
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from th_ext._exceptions import ThExtError, is_folder, os_reason
from th_ext._version import __version__
from th_ext.history._categories import category_of, problem_counts, signature_status

__all__ = [
    "APPLICATION_ID",
    "DEFAULT_BUSY_TIMEOUT",
    "SCHEMA_VERSION",
    "HistoryError",
    "HistoryStore",
    "OutcomeRecord",
    "RunInfo",
    "RunRecorder",
    "RunStatus",
]

APPLICATION_ID = 0x74686578
"""``PRAGMA application_id`` of a th-ext store (the bytes ``thex``)."""
DEFAULT_BUSY_TIMEOUT = 30.0
"""Seconds a write waits for another writer of the same store before giving up."""
BATCH_ROWS = 500
BATCH_SECONDS = 1.0
"""A recorder commits when it holds this many outcomes, or when this long has passed since its
last commit, whichever comes first."""

RunStatus = Literal["running", "complete", "interrupted"]

_SQLITE_MAGIC = b"SQLite format 3\x00"

# Migration N takes a store from schema N to N + 1. A published migration never changes.
_MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        command TEXT NOT NULL,
        list TEXT NOT NULL,
        options TEXT NOT NULL,
        version TEXT NOT NULL,
        started REAL NOT NULL,
        ended REAL,
        status TEXT NOT NULL CHECK (status IN ('running', 'complete', 'interrupted')),
        exit_code INTEGER,
        total INTEGER,
        passed INTEGER,
        categories TEXT,
        p50 REAL,
        p90 REAL,
        p99 REAL
    );
    CREATE INDEX runs_by_list ON runs (command, list, started);
    CREATE TABLE sources (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
    CREATE TABLE documents (
        id INTEGER PRIMARY KEY,
        digest BLOB NOT NULL UNIQUE,
        body BLOB NOT NULL
    );
    CREATE TABLE outcomes (
        run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        source_id INTEGER NOT NULL REFERENCES sources (id),
        exit_code INTEGER NOT NULL,
        seconds REAL NOT NULL,
        category TEXT NOT NULL,
        signature TEXT,
        problems TEXT NOT NULL,
        document_id INTEGER REFERENCES documents (id),
        PRIMARY KEY (run_id, source_id)
    ) WITHOUT ROWID;
    CREATE INDEX outcomes_by_source ON outcomes (source_id, run_id);
    """,
    """
    ALTER TABLE outcomes ADD COLUMN etag TEXT;
    ALTER TABLE outcomes ADD COLUMN last_modified TEXT;
    """,
)
SCHEMA_VERSION = len(_MIGRATIONS)
"""The schema this th-ext writes: 1 the runs and their outcomes, 2 each card's ``ETag`` and
``Last-Modified``."""


class HistoryError(ThExtError):
    """The store cannot be opened, read or written; the message is one line naming the file.

    ``code`` says which: ``not-a-store`` (another file, or another program's database),
    ``newer-store`` (written by a newer th-ext), ``store-busy`` (locked past the busy timeout),
    ``store-unusable`` (a directory, no permission, a full disk, a damaged file).
    """

    def __init__(self, message: str, *, code: str = "store-unusable") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class RunInfo:
    """One recorded run. ``list`` names what was checked (the ``--from`` file and the sources
    given); ``options`` are the options that change verdicts; the totals and latency
    percentiles (seconds) are set when the run finished."""

    id: int
    command: str
    list: str
    options: dict[str, Any]
    version: str
    started: float
    ended: float | None
    status: RunStatus
    exit_code: int | None
    total: int | None
    passed: int | None
    categories: dict[str, int]
    p50: float | None
    p90: float | None
    p99: float | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "command": self.command,
            "list": self.list,
            "options": self.options,
            "version": self.version,
            "started": _iso(self.started),
            "ended": _iso(self.ended) if self.ended is not None else None,
            "status": self.status,
            "exit_code": self.exit_code,
            "total": self.total,
            "passed": self.passed,
            "categories": self.categories,
            "seconds": {"p50": self.p50, "p90": self.p90, "p99": self.p99},
        }


@dataclass(frozen=True, slots=True)
class OutcomeRecord:
    """One source's outcome in one run, as stored."""

    source: str
    exit_code: int
    seconds: float
    category: str
    signature: str | None
    problems: dict[str, int]
    etag: str | None = None
    last_modified: str | None = None

    @property
    def passed(self) -> bool:
        return self.exit_code == 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "exit_code": self.exit_code,
            "seconds": self.seconds,
            "category": self.category,
            "signature": self.signature,
            "problems": self.problems,
        }


class HistoryStore:
    """An open store. Use ``HistoryStore.open``; close it (or use it as a context manager)."""

    def __init__(self, connection: sqlite3.Connection, path: str) -> None:
        self._db = connection
        self.path = path

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        write: bool = True,
        busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
    ) -> HistoryStore:
        """Open the store at ``path``. With ``write`` a missing file is created and an older
        schema migrated; without it the file must exist and is only read. Raises
        ``HistoryError`` (one line) for anything that is not a usable th-ext store, which is
        then left as it was."""
        name = os.fspath(path)
        _check_file(name, write)
        target = name if write else Path(name).resolve().as_uri() + "?mode=ro"
        try:
            # one thread at a time, but not always the opener's: a run under a caller's event
            # loop goes on a thread of its own
            connection = sqlite3.connect(
                target,
                timeout=busy_timeout,
                isolation_level=None,
                uri=not write,
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            raise _error(name, exc) from None
        store = cls(connection, name)
        try:
            store._prepare(write)
        except BaseException:
            connection.close()
            raise
        return store

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> HistoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _prepare(self, write: bool) -> None:
        with self._errors():
            self._db.execute("PRAGMA foreign_keys = ON")
            version = self._check_identity()
            if write:
                if self._db.execute("PRAGMA journal_mode = WAL").fetchone()[0] != "wal":
                    raise HistoryError(f"{self.path}: cannot use write-ahead logging here")
                # WAL's own advice: a commit is durable once the log is synced at checkpoints
                self._db.execute("PRAGMA synchronous = NORMAL")
                if version < SCHEMA_VERSION:
                    self._migrate()
            elif version < SCHEMA_VERSION:
                raise HistoryError(
                    f"{self.path}: written by an older th-ext (schema {version}) and cannot "
                    "be brought up to date read-only; open it once where it can be written"
                )

    def _check_identity(self) -> int:
        application = self._db.execute("PRAGMA application_id").fetchone()[0]
        version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
        tables = self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if application != APPLICATION_ID and (tables or version or application):
            raise HistoryError(
                f"{self.path}: not a th-ext history store (a SQLite database of another "
                "program); it is left as it is",
                code="not-a-store",
            )
        if version > SCHEMA_VERSION:
            raise HistoryError(
                f"{self.path}: written by a newer th-ext (schema {version}; this th-ext "
                f"{__version__} reads up to {SCHEMA_VERSION}); it is left as it is",
                code="newer-store",
            )
        return version

    def _migrate(self) -> None:
        with self._transaction():
            version = self._check_identity()  # another process may have migrated it meanwhile
            for script in _MIGRATIONS[version:]:
                for statement in script.split(";"):
                    if statement.strip():
                        self._db.execute(statement)
            self._db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as exc:
            raise _error(self.path, exc) from None

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        with self._errors():
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # recording

    def start_run(
        self,
        command: str,
        list_name: str,
        options: Mapping[str, Any] | None = None,
        *,
        version: str = __version__,
        started: float | None = None,
        resume: bool = False,
    ) -> RunRecorder:
        """Record the start of a run of ``command`` over ``list_name`` with the options that
        change its verdicts; the recorder takes its outcomes. With ``resume``, the latest run
        of the same command and list, when it was interrupted, goes on instead (its outcomes
        kept, its status ``running`` again)."""
        text = json.dumps(dict(options or {}), sort_keys=True, default=str)
        with self._transaction():
            if resume:
                row = self._db.execute(
                    "SELECT id, status FROM runs WHERE command = ? AND list = ? "
                    "ORDER BY started DESC, id DESC LIMIT 1",
                    (command, list_name),
                ).fetchone()
                if row is not None and row[1] == "interrupted":
                    self._db.execute(
                        "UPDATE runs SET status = 'running', ended = NULL WHERE id = ?", (row[0],)
                    )
                    return RunRecorder(self, row[0])
            cursor = self._db.execute(
                "INSERT INTO runs (command, list, options, version, started, status) "
                "VALUES (?, ?, ?, ?, ?, 'running')",
                (command, list_name, text, version, time.time() if started is None else started),
            )
        assert cursor.lastrowid is not None
        return RunRecorder(self, cursor.lastrowid)

    # reading

    def runs(
        self,
        *,
        command: str | None = None,
        list_name: str | None = None,
        since: float | None = None,
        status: Sequence[RunStatus] | None = None,
    ) -> list[RunInfo]:
        """The recorded runs, oldest first, narrowed by command, list, start time and status."""
        where: list[str] = ["1"]
        args: list[Any] = []
        for column, value in (("command", command), ("list", list_name)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(value)
        if since is not None:
            where.append("started >= ?")
            args.append(since)
        if status:
            where.append(f"status IN ({','.join('?' * len(status))})")
            args.extend(status)
        with self._errors():
            rows = self._db.execute(
                f"SELECT id, command, list, options, version, started, ended, status, "
                f"exit_code, total, passed, categories, p50, p90, p99 FROM runs "
                f"WHERE {' AND '.join(where)} ORDER BY started, id",
                args,
            ).fetchall()
        return [_run_info(row) for row in rows]

    def outcomes(self, run_id: int, *, source: str | None = None) -> dict[str, OutcomeRecord]:
        """The outcomes of one run by source; ``source`` a glob pattern (``*``, ``?``,
        ``[...]``, case-sensitive) that narrows them."""
        narrow = ""
        args: list[Any] = [run_id]
        if source is not None:
            narrow = " AND s.name GLOB ?"
            args.append(source)
        with self._errors():
            rows = self._db.execute(
                "SELECT s.name, o.exit_code, o.seconds, o.category, o.signature, o.problems, "
                "o.etag, o.last_modified FROM outcomes o JOIN sources s ON s.id = o.source_id "
                f"WHERE o.run_id = ?{narrow}",
                args,
            ).fetchall()
        return {
            row[0]: OutcomeRecord(
                row[0], row[1], row[2], row[3], row[4], json.loads(row[5]), row[6], row[7]
            )
            for row in rows
        }

    def verdicts(
        self, run_ids: Sequence[int], *, source: str | None = None
    ) -> dict[str, list[int | None]]:
        """Each source's exit code in each of ``run_ids`` (in that order; ``None`` where the
        source was not in the run)."""
        place = {run_id: index for index, run_id in enumerate(run_ids)}
        found: dict[str, list[int | None]] = {}
        if not run_ids:
            return found
        narrow = ""
        args: list[Any] = list(run_ids)
        if source is not None:
            narrow = " AND s.name GLOB ?"
            args.append(source)
        with self._errors():
            rows = self._db.execute(
                "SELECT s.name, o.run_id, o.exit_code FROM outcomes o "
                "JOIN sources s ON s.id = o.source_id "
                f"WHERE o.run_id IN ({','.join('?' * len(run_ids))}){narrow}",
                args,
            )
            for name, run_id, exit_code in rows:
                codes = found.get(name)
                if codes is None:
                    codes = found[name] = [None] * len(run_ids)
                codes[place[run_id]] = exit_code
        return found

    def last_document(self, source: str, run_id: int | None = None) -> dict[str, Any] | None:
        """The whole JSON Lines document of ``source`` in ``run_id`` (default: its latest
        recorded outcome), or ``None``."""
        query = (
            "SELECT d.body FROM outcomes o JOIN sources s ON s.id = o.source_id "
            "JOIN documents d ON d.id = o.document_id WHERE s.name = ?"
        )
        args: list[Any] = [source]
        if run_id is not None:
            query += " AND o.run_id = ?"
            args.append(run_id)
        with self._errors():
            row = self._db.execute(query + " ORDER BY o.run_id DESC LIMIT 1", args).fetchone()
        if row is None:
            return None
        document: dict[str, Any] = json.loads(zlib.decompress(row[0]))
        return document

    def documents(self, run_id: int, sources: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The whole documents of ``sources`` in one run."""
        found: dict[str, dict[str, Any]] = {}
        with self._errors():
            for start in range(0, len(sources), 500):
                chunk = list(sources[start : start + 500])
                rows = self._db.execute(
                    "SELECT s.name, d.body FROM outcomes o JOIN sources s ON s.id = o.source_id "
                    "JOIN documents d ON d.id = o.document_id "
                    f"WHERE o.run_id = ? AND s.name IN ({','.join('?' * len(chunk))})",
                    [run_id, *chunk],
                )
                for name, body in rows:
                    found[name] = json.loads(zlib.decompress(body))
        return found


class RunRecorder:
    """The outcomes of one run as they stream, committed in batches (every ``BATCH_ROWS``
    outcomes or ``BATCH_SECONDS``), and the run's end."""

    def __init__(self, store: HistoryStore, run_id: int) -> None:
        self.store = store
        self.run_id = run_id
        self.recorded = 0
        self._pending: list[tuple[str, int, float, str, str | None, str, bytes, bytes, Any]] = []
        self._last_commit = time.monotonic()
        self._finished = False
        self._source_ids: dict[str, int] = {}

    def add(
        self,
        source: str,
        exit_code: int,
        seconds: float,
        document: Mapping[str, Any],
        *,
        etag: str | None = None,
        last_modified: str | None = None,
    ) -> None:
        """Take one source's outcome: its exit code, seconds and whole JSON Lines document."""
        doc = document if isinstance(document, dict) else dict(document)
        body = json.dumps(doc, separators=(",", ":"), ensure_ascii=False)
        data = body.encode("utf-8", "surrogatepass")
        self._pending.append(
            (
                source,
                int(exit_code),
                float(seconds),
                category_of(doc, exit_code),
                signature_status(doc),
                json.dumps(problem_counts(doc), sort_keys=True, separators=(",", ":")),
                hashlib.sha256(data).digest(),
                data,
                (etag, last_modified),
            )
        )
        if (
            len(self._pending) >= BATCH_ROWS
            or time.monotonic() - self._last_commit >= BATCH_SECONDS
        ):
            self.flush()

    def flush(self) -> None:
        """Commit the outcomes taken so far (in one transaction, a few statements each for
        the whole batch)."""
        if not self._pending:
            return
        pending, self._pending = self._pending, []
        db = self.store._db
        with self.store._transaction():
            sources = self._ids(
                "sources", "name", {row[0]: None for row in pending}, self._source_ids
            )
            bodies = {row[6]: row[7] for row in pending}
            documents = self._ids("documents", "digest", bodies, {})
            db.executemany(
                "INSERT OR REPLACE INTO outcomes (run_id, source_id, exit_code, seconds, "
                "category, signature, problems, document_id, etag, last_modified) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (self.run_id, sources[row[0]], *row[1:6], documents[row[6]], *row[8])
                    for row in pending
                ],
            )
        self._source_ids.update(sources)  # kept once committed: a rolled-back id is no id
        self.recorded += len(pending)
        self._last_commit = time.monotonic()

    def _ids(
        self, table: str, key: str, wanted: Mapping[Any, bytes | None], known: dict[Any, int]
    ) -> dict[Any, int]:
        """The ids of the rows of ``table`` whose ``key`` is each of ``wanted``, the missing
        ones inserted (a document's body compressed only then)."""
        db = self.store._db
        found = {value: known[value] for value in wanted if value in known}
        for _ in range(2):  # what is there; then what was missing, once inserted
            missing = [value for value in wanted if value not in found]
            for start in range(0, len(missing), 500):
                chunk = missing[start : start + 500]
                rows = db.execute(
                    f"SELECT {key}, id FROM {table} WHERE {key} IN ({','.join('?' * len(chunk))})",
                    chunk,
                )
                found.update(rows.fetchall())
            missing = [value for value in wanted if value not in found]
            if not missing:
                break
            if table == "documents":
                db.executemany(
                    "INSERT OR IGNORE INTO documents (digest, body) VALUES (?, ?)",
                    [(value, zlib.compress(wanted[value] or b"", 1)) for value in missing],
                )
            else:
                db.executemany(
                    "INSERT OR IGNORE INTO sources (name) VALUES (?)",
                    [(value,) for value in missing],
                )
        return found

    def finish(
        self, status: Literal["complete", "interrupted"], exit_code: int | None = None
    ) -> None:
        """Commit what is left and end the run as ``complete`` or ``interrupted``, with its
        totals and latency percentiles; ``exit_code`` defaults to the worst outcome's."""
        if self._finished:
            return
        if status == "complete":
            self.flush()
        else:  # an interrupted run keeps what it finished, as far as it can
            try:
                self.flush()
            finally:
                self._end(status, exit_code)
            return
        self._end(status, exit_code)

    def _end(self, status: str, exit_code: int | None) -> None:
        db = self.store._db
        with self.store._transaction():
            rows = db.execute(
                "SELECT seconds, category, exit_code FROM outcomes WHERE run_id = ? "
                "ORDER BY seconds",
                (self.run_id,),
            ).fetchall()
            seconds = [row[0] for row in rows]
            categories = Counter(row[1] for row in rows)
            if exit_code is None:  # the worst of the outcomes'
                exit_code = max((row[2] for row in rows), default=0)
            db.execute(
                "UPDATE runs SET ended = ?, status = ?, exit_code = ?, total = ?, passed = ?, "
                "categories = ?, p50 = ?, p90 = ?, p99 = ? WHERE id = ?",
                (
                    time.time(),
                    status,
                    exit_code,
                    len(rows),
                    categories.get("passed", 0),
                    json.dumps(categories, sort_keys=True),
                    percentile(seconds, 50),
                    percentile(seconds, 90),
                    percentile(seconds, 99),
                    self.run_id,
                ),
            )
        self._finished = True


def percentile(ordered: Sequence[float], rank: float) -> float | None:
    """The ``rank``-th percentile of sorted values (nearest rank); ``None`` for none."""
    if not ordered:
        return None
    index = max(0, math.ceil(rank / 100 * len(ordered)) - 1)
    return float(ordered[index])


def _check_file(name: str, write: bool) -> None:
    path = Path(name)
    if is_folder(path):
        raise HistoryError(f"{name}: is a directory, not a history store")
    try:
        with path.open("rb") as handle:
            head = handle.read(len(_SQLITE_MAGIC))
    except FileNotFoundError:
        if not write:
            raise HistoryError(f"{name}: no such history store") from None
        if not is_folder(path.parent):
            raise HistoryError(f"{name}: its directory does not exist") from None
        return
    except OSError as exc:
        raise HistoryError(f"{name}: cannot be read ({os_reason(exc)})") from None
    if not head and not write:
        raise HistoryError(
            f"{name}: an empty file, not a th-ext history store (no run was recorded in it)",
            code="not-a-store",
        )
    if head and head != _SQLITE_MAGIC:
        raise HistoryError(
            f"{name}: not a th-ext history store (not a SQLite database); it is left as it is",
            code="not-a-store",
        )
    if write and not os.access(name, os.W_OK):
        raise HistoryError(f"{name}: cannot be written (permission denied)")


def _error(name: str, exc: sqlite3.Error) -> HistoryError:
    message = " ".join(str(exc).split()) or type(exc).__name__
    lowered = message.lower()
    if "locked" in lowered or "busy" in lowered:
        return HistoryError(
            f"{name}: locked by another process beyond the busy timeout ({message})",
            code="store-busy",
        )
    if "not a database" in lowered or "malformed" in lowered:
        return HistoryError(
            f"{name}: damaged or not a th-ext history store ({message}); it is left as it is",
            code="not-a-store",
        )
    return HistoryError(f"{name}: {message}")


def _run_info(row: tuple[Any, ...]) -> RunInfo:
    """A row of ``runs``, its columns in the order of ``RunInfo``'s fields."""
    fields = list(row)
    fields[3] = json.loads(row[3])
    fields[11] = json.loads(row[11]) if row[11] else {}
    return RunInfo(*fields)


def _iso(moment: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(moment))
