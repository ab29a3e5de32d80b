"""``th_ext.conform.checked_requirements``: what a run of given levels and selection checks,
known before anything is sent."""

from __future__ import annotations

from th_ext.conform import checked_requirements, requirement_ids
from th_ext.problems import Selection


def test_every_requirement_is_checked_by_default_the_signatures_with_their_options() -> None:
    assert checked_requirements(signatures=True) == requirement_ids()
    assert "A2A-8.4" not in checked_requirements()
    assert set(checked_requirements()) == set(requirement_ids()) - {"A2A-8.4"}


def test_levels_and_the_selection_narrow_it() -> None:
    assert checked_requirements(("MAY",)) == ()
    should = checked_requirements(("SHOULD",))
    assert should == ("CMD-11", "CMD-17", "CMD-18", "CMD-19", "A2A-8.6")
    assert checked_requirements(("SHOULD",), Selection(select=("CMD-3",))) == ()
    assert checked_requirements(selection=Selection(select=("a2a-",))) == (
        "A2A-3.1.2",
        "A2A-5.1",
        "A2A-8.6",
    )
    assert checked_requirements(selection=Selection(select=("CMD-1",), ignore=("CMD-",))) == ()
