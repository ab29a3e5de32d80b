"""Where each problem is in the card's text, the order they are listed in, and their lines.

A problem names its place with a JSON pointer; a person reads a line and a column, and fixes
a card top to bottom. After a card read as text is checked, ``place_problems`` gives each
problem its line and column (a misspelt key at the key, a missing member at the object it
belongs in) and sorts them layer by layer, by position; ``source_lines`` keeps the text of
the lines they are on, so that a renderer can show each line with a caret under the column.
"""

from __future__ import annotations

from dataclasses import replace

from th_ext.problems._problem import LAYERS, Problem

__all__ = ["SUMMARY_CODES", "needs_place", "place_problems", "sort_problems", "source_lines"]


def place_problems(text: str, problems: list[Problem]) -> list[Problem]:
    """``problems`` with ``line`` and ``column`` set from their paths in ``text``, in the
    order a reader fixes them: layer by layer, each layer's problems by position (the "and M
    more" summaries last)."""
    unplaced = _unplaced(problems)
    if not unplaced:
        return sort_problems(problems)
    # Imported here: a card with nothing to place (a valid one) does not pay for the tokenizer.
    from th_ext.validate._positions import locate

    keys = [p.path for p in problems if p.at_key and p.line is None]
    positions = locate(text, unplaced, keys=keys)
    placed = []
    for problem in problems:
        position = positions.get(problem.path) if needs_place(problem) else None
        if position is None:
            placed.append(problem)
        else:
            placed.append(replace(problem, line=position.line, column=position.column))
    return sort_problems(placed)


#: Problems that stand for many places, or for none: never placed, listed after the others.
SUMMARY_CODES = frozenset({"more-problems", "too-many-problems"})


def sort_problems(problems: list[Problem]) -> list[Problem]:
    """Layer by layer; in a layer, by line and column, the unplaced and summaries after."""
    far = 1 << 62

    def key(problem: Problem) -> tuple[int, int, int, int]:
        return (
            LAYERS.index(problem.layer),
            problem.code in SUMMARY_CODES,
            far if problem.line is None else problem.line,
            far if problem.column is None else problem.column,
        )

    return sorted(problems, key=key)


def source_lines(text: str, problems: list[Problem]) -> dict[int, str]:
    """The text of every line a problem is placed on, for showing it under the problem."""
    wanted = {p.line for p in problems if p.line is not None and not p.excerpt}
    if not wanted:
        return {}
    found: dict[int, str] = {}
    last = max(wanted)
    for number, line in enumerate(text.split("\n", last)[:last], start=1):
        if number in wanted:
            found[number] = line.rstrip("\r")
    return found


def needs_place(problem: Problem) -> bool:
    return problem.line is None and problem.layer != "source" and problem.code not in SUMMARY_CODES


def _unplaced(problems: list[Problem]) -> list[str]:
    """The paths of the problems that still need a line and column."""
    return [p.path for p in problems if needs_place(p)]
