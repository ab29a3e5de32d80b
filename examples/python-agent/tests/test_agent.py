"""The agent checks itself: its card with check_card, its behaviour with conform."""

from __future__ import annotations

from agent import BASE_URL, build_card, create_app

from th_ext.testing import check_card, conform


def test_card_is_valid() -> None:
    check_card(build_card(BASE_URL), strict=True, extensions=("commands/v1",))


def test_agent_conforms() -> None:
    report = conform(app=create_app(BASE_URL), base_url=BASE_URL)
    assert report.passed
