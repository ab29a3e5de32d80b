"""th-ext inside an agent's own test suite: ``check_card`` and ``conform`` raise an
``AssertionError`` with the report, and the pytest plugin adds the ``th_ext_check_card`` fixture."""

from th_ext.testing._card import CardCheckFailed, check_card
from th_ext.testing._conform import ConformanceFailed, conform

__all__ = ["CardCheckFailed", "ConformanceFailed", "check_card", "conform"]
