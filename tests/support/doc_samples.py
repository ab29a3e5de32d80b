"""The console samples of the README and the site, run for real and compared with what they show.

A sample is a ``console`` (or ``text``) block right under the HTML comment
``<!-- sample -->``. Its lines that begin with ``$ `` are commands, run in turn in a scratch
folder that holds the extension's example card as ``card.json`` and the cards of
``tests/data/samples/``; the other lines are what the sample says they print (standard
output and standard error, as a terminal shows them). The comment may add, separated by ``;``:

- ``excerpt``: the sample shows part of the output. A line that is only ``…`` stands for any
  number of lines left out; a line ending in ``…`` stands for a line that begins so. The rest
  must appear in the real output, in the same order.
- ``agent PORT [VARIANT]``: ``http://127.0.0.1:PORT`` in the commands is the demo agent (of
  that variant, ``correct`` by default), started on a free port for the run.

Besides ``th-ext ...``, a command may be ``echo $?`` (the exit code of the one before),
``pytest ...`` (th-ext's pytest plugin at work on a test file of ``tests/data/samples/``),
``th-ext demo --serve [--variant V] --port PORT &`` (starts that agent as ``agent`` does),
and ``pre-commit run ...``, run in a git repository of the scratch folder whose
``.pre-commit-config.yaml`` is the page's own ``th-ext-validate`` block, pointed at a snapshot
of this repository.

What must vary from run to run is made equal before the comparison, and nothing else: the port
of an agent started for the sample is written as the sample's, other ports of 127.0.0.1,
UUIDs, durations in seconds and timestamps are compared as placeholders. ``transcript`` writes
them as the sample has them (in order of first appearance), so that a sample rewritten from a
real run changes only where the output did.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.demo_agents import DemoAgents
from tests.support.doc_blocks import code_blocks, one_block
from th_ext.demo import DemoVariant

__all__ = [
    "REPO",
    "Sample",
    "SampleRunner",
    "differences",
    "find_samples",
    "sample_files",
    "snapshot_repo",
    "unmarked_outputs",
]

REPO = Path(__file__).resolve().parents[2]
EXAMPLE_CARD = REPO / "extensions" / "commands" / "v1" / "examples" / "card.json"
SAMPLE_CARDS = REPO / "tests" / "data" / "samples"
MARKER = "sample"
ELLIPSIS = "…"
HOOK_URL = "https://github.com/madarauchiha-314/th-ext"

_UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
#: A UUID cut short by an excerpt of an answer ('... as task 52ccf361-1ff5…').
_CUT_UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f-]{0,22}(?=…|\\u2026)")
_PORT = re.compile(r"(?<=127\.0\.0\.1:)\d+")
_SECONDS = re.compile(r"\b\d+\.\d+(?= ?s\b)|(?<=time=\")\d+\.\d+(?=\")")
_TIMESTAMP = re.compile(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?")
#: What varies from run to run, with the placeholder it is compared as.
VARYING = (
    (_UUID, "<uuid>"),
    (_CUT_UUID, "<uuid>…"),
    (_TIMESTAMP, "<timestamp>"),
    (_SECONDS, "<seconds>"),
)


@dataclass(frozen=True)
class Sample:
    path: Path
    text: str
    start: int
    end: int
    excerpt: bool = False
    agents: tuple[tuple[int, str], ...] = ()
    """The sample's agent ports, each with its demo variant."""

    @property
    def name(self) -> str:
        first = self.text.split("\n", 1)[0]
        return f"{self.path.relative_to(REPO)}: {first}"


def sample_files() -> list[Path]:
    """The README and every page of the site."""
    return [REPO / "README.md", *sorted((REPO / "site").rglob("*.md"))]


def find_samples(path: Path) -> list[Sample]:
    found = []
    for block in code_blocks(path):
        words = (block.comment or "").split(";")
        if words[0].strip().split(":")[0].strip() != MARKER:
            continue
        clauses = [words[0].split(":", 1)[1] if ":" in words[0] else "", *words[1:]]
        excerpt, agents = False, []
        for clause in (c.split() for c in clauses):
            if clause == ["excerpt"]:
                excerpt = True
            elif clause[:1] == ["agent"] and len(clause) in (2, 3):
                agents.append((int(clause[1]), clause[2] if len(clause) == 3 else "correct"))
            elif clause:
                raise ValueError(f"{path.name}: unknown sample option {' '.join(clause)!r}")
        assert block.language in ("console", "text"), f"{path.name}: a sample is console text"
        found.append(Sample(path, block.text, block.start, block.end, excerpt, tuple(agents)))
    return found


#: A line only th-ext's output has: a problem, an annotation, a verdict, a requirement's line.
_TH_EXT_OUTPUT = re.compile(
    r"^\s*(?:error|warning|note) [a-z0-9-]+ at |^::(?:error|warning|notice) |"
    r"^(?:valid|invalid) \(\d+ errors?|^\s*(?:pass|FAIL|skip)\s+(?:CMD|A2A)-"
)


def unmarked_outputs(path: Path) -> list[str]:
    """The blocks of ``path`` that show th-ext's output but are not marked as samples: console
    blocks with a line that is not a command, and other plain-text blocks with a line only
    th-ext prints."""
    found = []
    for block in code_blocks(path):
        if (block.comment or "").split(":")[0].split(";")[0].strip() == MARKER:
            continue
        lines = block.text.splitlines()
        if block.language == "console":
            shows_output = any(line and not line.startswith("$ ") for line in lines)
        else:
            plain = block.language in ("", "text")
            shows_output = plain and any(_TH_EXT_OUTPUT.search(line) for line in lines)
        if shows_output:
            found.append(block.text.split("\n", 1)[0])
    return found


def normalised(text: str) -> str:
    """``text`` with what varies from run to run written as placeholders."""
    text = _PORT.sub("<port>", text)
    for pattern, placeholder in VARYING:
        text = pattern.sub(placeholder, text)
    return text


def differences(sample: Sample, transcript: str) -> str:
    """Empty when the real run's ``transcript`` shows what the sample shows; else where not."""
    shown = normalised(sample.text).splitlines()
    real = normalised(transcript).splitlines()
    if not sample.excerpt:
        if shown == real:
            return ""
        for number, (want, got) in enumerate(zip(shown, real, strict=False), 1):
            if want != got:
                return f"line {number}: the sample shows\n  {want}\nand a real run prints\n  {got}"
        return f"the sample has {len(shown)} lines and a real run prints {len(real)}"
    return _excerpt_differences(shown, real)


def _excerpt_differences(shown: list[str], real: list[str]) -> str:
    """Each run of lines between ``…`` lines appears whole in ``real``, in order; the first
    at the start and the last at the end unless a ``…`` stands before or after it."""
    chunks: list[tuple[int, list[str]]] = []  # (line number of the chunk's first line, lines)
    for number, line in enumerate(shown, 1):
        if line.strip() == ELLIPSIS:
            chunks.append((number + 1, []))
        elif not chunks:
            chunks.append((number, [line]))
        else:
            chunks[-1][1].append(line)
    open_start = shown[:1] != [] and shown[0].strip() == ELLIPSIS
    open_end = shown[-1:] != [] and shown[-1].strip() == ELLIPSIS
    position = 0
    for index, (number, chunk) in enumerate(chunks):
        if not chunk:
            continue
        anchored = index == 0 and not open_start
        last = index == len(chunks) - 1 and not open_end
        starts = [position] if anchored else range(position, len(real) - len(chunk) + 1)
        if last:
            starts = [s for s in starts if s + len(chunk) == len(real)]
        found = next((s for s in starts if _block_at(chunk, real, s)), None)
        if found is None:
            return _first_miss(number, chunk, real, position)
        position = found + len(chunk)
    return ""


def _block_at(chunk: list[str], real: list[str], start: int) -> bool:
    window = real[start : start + len(chunk)]
    return len(window) == len(chunk) and all(map(_same, chunk, window))


def _first_miss(number: int, chunk: list[str], real: list[str], position: int) -> str:
    """Where the chunk stops matching at its likeliest place (its longest matching start)."""
    best, best_at = 0, position
    for start in range(position, len(real)):
        length = 0
        while (
            length < len(chunk)
            and start + length < len(real)
            and _same(chunk[length], real[start + length])
        ):
            length += 1
        if length > best:
            best, best_at = length, start
    want = chunk[best] if best < len(chunk) else chunk[-1]
    if best_at + best < len(real) and best:
        got = real[best_at + best]
        return f"line {number + best}: the sample shows\n  {want}\nwhere a real run prints\n  {got}"
    return f"line {number + best}: a real run never prints\n  {want}"


def _same(want: str, got: str) -> bool:
    if want.endswith(ELLIPSIS):
        return got.startswith(want[: -len(ELLIPSIS)])
    return want == got


@dataclass
class _Run:
    """One sample's state while its commands run."""

    ports: dict[int, int] = field(default_factory=dict)
    """Real port -> the sample's."""
    last_code: int = 0


class SampleRunner:
    """Runs samples in a scratch folder; use it as a context manager.

    ``hook_repo`` is a git repository snapshot of this repository and its commit, for the
    ``pre-commit`` samples (``PRE_COMMIT_HOME`` is taken from ``pre_commit_home``).
    """

    def __init__(
        self,
        work: Path,
        *,
        hook_repo: tuple[Path, str] | None = None,
        pre_commit_home: Path | None = None,
    ) -> None:
        self.work = work
        self.hook_repo = hook_repo
        self.pre_commit_home = pre_commit_home
        self._agents = DemoAgents()
        self._stack = ExitStack()

    def __enter__(self) -> SampleRunner:
        self._stack.callback(self._agents.stop_all)
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def transcript(self, sample: Sample) -> str:
        """What the sample's commands print when run, shown as the sample shows it."""
        folder = self._fresh_folder(sample)
        run = _Run()
        for port, variant in sample.agents:
            run.ports[self._agent(variant)] = port
        lines: list[str] = []
        for command in commands(sample.text):
            lines.append(f"$ {command}")
            lines.extend(self._run(command, folder, run).splitlines())
        return _as_sample_shows(sample.text, "\n".join(lines) + "\n", run.ports)

    def _fresh_folder(self, sample: Sample) -> Path:
        stem = re.sub(r"\W+", "-", sample.name)[:60].strip("-")
        folder = self.work / stem
        index = 1
        while folder.exists():
            index += 1
            folder = self.work / f"{stem}-{index}"
        shutil.copytree(SAMPLE_CARDS, folder)
        shutil.copyfile(EXAMPLE_CARD, folder / "card.json")
        return folder

    def _agent(self, variant: str) -> int:
        server = self._agents(DemoVariant(variant))
        return int(server.base_url.rsplit(":", 1)[1])

    def _run(self, command: str, folder: Path, run: _Run) -> str:
        words = shlex.split(command, comments=True)
        if words == ["echo", "$?"]:
            return str(run.last_code)
        if words[-1] == "&":  # th-ext demo --serve ... --port PORT &
            assert words[:3] == ["th-ext", "demo", "--serve"], command
            variant = words[words.index("--variant") + 1] if "--variant" in words else "correct"
            run.ports[self._agent(variant)] = int(words[words.index("--port") + 1])
            return ""
        to_real = {shown: real for real, shown in run.ports.items()}
        words = [
            _PORT.sub(lambda m: str(to_real.get(int(m.group()), m.group())), word) for word in words
        ]
        if words[0] == "th-ext":
            argv = [str(Path(sys.executable).with_name("th-ext")), *words[1:]]
        elif words[0] == "pytest":
            argv = [sys.executable, "-m", "pytest", *words[1:]]
        elif words[0] == "pre-commit":
            argv = [sys.executable, "-m", "pre_commit", *words[1:]]
            self._hook_checkout(folder)
        else:
            raise AssertionError(f"a sample runs th-ext, not {words[0]!r}")
        done = subprocess.run(
            argv,
            cwd=folder,
            env=self._env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=900,
            check=False,
        )
        run.last_code = done.returncode
        return done.stdout.rstrip("\n")

    def _env(self) -> dict[str, str]:
        env = {
            **os.environ,
            "NO_COLOR": "1",
            "COLUMNS": "100",
            "PYTHONUNBUFFERED": "1",  # standard output and error interleaved as on a terminal
            "PRE_COMMIT_COLOR": "never",
        }
        # a sample shows a person's terminal: pytest prints its short summary whole on CI
        for name in ("CI", "BUILD_NUMBER"):
            env.pop(name, None)
        if self.pre_commit_home is not None:
            env["PRE_COMMIT_HOME"] = str(self.pre_commit_home)
        return env

    def _hook_checkout(self, folder: Path) -> None:
        """The scratch folder as a git repository whose pre-commit configuration is the page's."""
        assert self.hook_repo is not None, "a pre-commit sample needs the hook repository"
        repo, commit = self.hook_repo
        config = one_block(REPO / "site" / "th-ext" / "ci.md", "yaml", _is_hook_config).text
        config = config.replace(HOOK_URL, str(repo)).replace("<commit-sha>", commit)
        (folder / ".pre-commit-config.yaml").write_text(config, encoding="utf-8")
        for args in (["init", "-q"], ["add", "-A"]):
            subprocess.run(["git", *args], cwd=folder, check=True, capture_output=True)
        # The hook's environment is installed first, so that pre-commit's "Installing
        # environment" lines (printed once per store) are not part of the sample.
        subprocess.run(
            [sys.executable, "-m", "pre_commit", "install-hooks"],
            cwd=folder,
            env=self._env(),
            check=True,
            capture_output=True,
            timeout=900,
        )


def _is_hook_config(text: str) -> bool:
    return "id: th-ext-validate" in text and "repos:" in text


def commands(text: str) -> Iterator[str]:
    """The commands of a sample, without their ``$ ``."""
    for line in text.splitlines():
        if line.startswith("$ "):
            yield line[2:]


def _as_sample_shows(sample: str, real: str, ports: dict[int, int]) -> str:
    """``real`` with the ports of the sample's agents, and the other ports, UUIDs, durations
    and timestamps the sample shows, in order of first appearance."""
    real = _PORT.sub(lambda m: str(ports.get(int(m.group()), m.group())), real)
    for pattern in (_PORT, _UUID, _CUT_UUID, _TIMESTAMP, _SECONDS):
        known = {str(p) for p in ports.values()} if pattern is _PORT else set()
        wanted = [v for v in dict.fromkeys(pattern.findall(sample)) if v not in known]
        found = [v for v in dict.fromkeys(pattern.findall(real)) if v not in known]
        if pattern is _PORT:  # a port the sample shows as it is stays as it is
            shared = set(wanted) & set(found)
            wanted = [v for v in wanted if v not in shared]
            found = [v for v in found if v not in shared]
        real = _replace(pattern, dict(zip(found, wanted, strict=False)), real)
    return real


def _replace(pattern: re.Pattern[str], table: dict[str, str], text: str) -> str:
    return pattern.sub(lambda m: table.get(m.group(), m.group()), text) if table else text


GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "samples",
    "GIT_AUTHOR_EMAIL": "samples@example.invalid",
    "GIT_COMMITTER_NAME": "samples",
    "GIT_COMMITTER_EMAIL": "samples@example.invalid",
}


def snapshot_repo(target: Path) -> str:
    """This repository's working tree (tracked and new files) committed in a scratch git
    repository at ``target``, for pre-commit to install the hook from; the commit."""

    def git(*args: str, cwd: Path) -> str:
        env = {**os.environ, **GIT_IDENTITY}
        done = subprocess.run(
            ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True
        )
        return done.stdout.strip()

    listed = git("ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=REPO)
    for name in filter(None, listed.split("\0")):
        source = REPO / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    git("init", "-q", cwd=target)
    git("add", "-A", cwd=target)
    git("commit", "-q", "-m", "snapshot", cwd=target)
    return git("rev-parse", "HEAD", cwd=target)
