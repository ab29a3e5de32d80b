"""The list of sources: lines, comments, bad lines, and a list that arrives slowly."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from th_ext import SourceArgumentError, SourceUnreadableError
from th_ext.batch import MAX_LINE, ListEntry, read_source_list
from th_ext.batch._list import split_lines


def entries(*chunks: bytes) -> list[ListEntry]:
    return [entry for batch in split_lines(iter(chunks), "list.txt") for entry in batch]


def messages(found: list[ListEntry]) -> list[str]:
    return [str(e) if isinstance(e, SourceArgumentError) else e for e in found]


def test_lines_comments_and_blanks() -> None:
    found = entries(b"a.json\n\n# a comment\n  https://x.example  \r\n", b"   \n#\nlast.json")
    assert found == ["a.json", "https://x.example", "last.json"]


@pytest.mark.parametrize(
    "chunks",
    [
        (b"\xef\xbb\xbfa.json\r\nb.json\n",),
        (
            b"\xef",
            b"\xbb\xbfa.json\nb.json",
        ),
        (b"\xef\xbb\xbfa.json",),
    ],
)
def test_a_byte_order_mark_before_the_first_line_is_not_part_of_it(chunks: tuple[bytes]) -> None:
    found = entries(*chunks)
    assert found[0] == "a.json" and found[1:] in ([], ["b.json"])
    assert entries(b"a.json\n\xef\xbb\xbfb.json\n")[1] == "\ufeffb.json"  # only the list's start


def test_a_line_split_across_chunks_is_one_source() -> None:
    assert entries(b"https://agent.", b"example/card", b".json\nb\n") == [
        "https://agent.example/card.json",
        "b",
    ]


def test_a_nul_byte_and_invalid_utf8_are_each_one_bad_line() -> None:
    found = messages(entries(b"good\nba\0d\n\xff\xfe\nalso good\n"))
    assert found == [
        "good",
        "list.txt line 2: holds a NUL byte",
        "list.txt line 3: not UTF-8 text",
        "also good",
    ]


@pytest.mark.parametrize(
    "chunks",
    [
        (b'{\n  "name": "Agent",\n', b'  "skills": []\n}\n'),
        (b"# a list?\n\n", b'[{"name": "Agent"}]'),  # the first source, on the last line
        (b'  {"name": "Agent"}\n',),
    ],
)
def test_a_json_document_given_as_the_list_is_refused_whole(chunks: tuple[bytes, ...]) -> None:
    with pytest.raises(SourceUnreadableError) as raised:
        entries(*chunks)
    assert str(raised.value) == (
        "--from list.txt: a JSON document, not a list of sources (one a line); "
        "give a card as a SOURCE"
    )


def test_a_brace_after_the_first_source_is_a_source_like_any_other() -> None:
    assert entries(b"a.json\n{b.json\n[c.json") == ["a.json", "{b.json", "[c.json"]


def test_an_overlong_line_is_one_bad_line_and_is_never_held_whole() -> None:
    chunk = b"x" * 65536
    huge = (chunk for _ in range(64))  # 4 MiB without a newline, as a generator of chunks

    def chunks() -> object:
        yield b"first\n"
        yield from huge
        yield b"\nnext\n"

    found = messages(
        [e for batch in split_lines(chunks(), "list.txt") for e in batch]  # type: ignore[arg-type]
    )
    assert found == ["first", f"list.txt line 2: longer than {MAX_LINE} bytes", "next"]


def test_a_line_just_over_the_limit_in_one_chunk() -> None:
    found = messages(entries(b"a" * (MAX_LINE + 1) + b"\nb\n" + b"c" * (MAX_LINE + 1)))
    assert found == [
        f"list.txt line 1: longer than {MAX_LINE} bytes",
        "b",
        f"list.txt line 3: longer than {MAX_LINE} bytes",
    ]
    assert entries(b"a" * MAX_LINE + b"\n") == ["a" * MAX_LINE]


async def collect(path: str, count: int) -> list[ListEntry]:
    found: list[ListEntry] = []
    listed: AsyncIterator[ListEntry] = read_source_list(path)
    async for entry in listed:
        found.append(entry)
        if len(found) == count:
            break
    await listed.aclose()  # type: ignore[attr-defined]
    return found


def test_a_fifo_that_never_ends_is_read_as_it_arrives(tmp_path: Path) -> None:
    """The first sources come out while the writer keeps the FIFO open and writes nothing
    more; the run does not wait for an end that never comes."""
    fifo = tmp_path / "list"
    os.mkfifo(fifo)
    stop = threading.Event()

    def writer() -> None:
        with fifo.open("wb", buffering=0) as handle:
            handle.write(b"one\n# skipped\ntwo\n")
            stop.wait(30)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    try:
        found = asyncio.run(asyncio.wait_for(collect(str(fifo), 2), 10))
    finally:
        stop.set()
        thread.join(5)
    assert found == ["one", "two"]


def test_a_missing_list_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SourceUnreadableError, match=r"^--from .*nope\.txt: no such file$"):
        asyncio.run(collect(str(tmp_path / "nope.txt"), 1))


def test_a_directory_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SourceUnreadableError, match="is a directory"):
        asyncio.run(collect(str(tmp_path), 1))
