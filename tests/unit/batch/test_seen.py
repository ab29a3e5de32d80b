"""The sources a run has met: each once, in a table that grows, compared as shown."""

from __future__ import annotations

from th_ext.batch import SeenSources


def test_each_source_is_new_once_and_found_after() -> None:
    seen = SeenSources()
    sources = [f"https://agent{i}.example/card.json" for i in range(5000)]
    assert all(seen.add(source) for source in sources)  # the table grew past its first size
    assert not any(seen.add(source) for source in sources)
    assert all(source in seen for source in sources)
    assert "https://other.example" not in seen and 3 not in seen
    assert len(seen) == 5000


def test_a_source_is_compared_as_reports_show_it() -> None:
    seen = SeenSources()
    assert seen.add("https://user:secret@agent.example/card.json")
    assert "https://***@agent.example/card.json" in seen
