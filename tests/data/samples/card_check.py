"""A test of an agent card with th-ext's pytest plugin, run by the site's pytest sample."""

from th_ext.testing import check_card


def test_card_is_valid() -> None:
    check_card("agent-card.json", extensions=("commands/v1",))
