"""th-ext inside an agent's own test suite: check its card and its behaviour from pytest.

``check_card`` validates a card (a parsed object, a path, or bytes) and raises
``CardCheckFailed`` with the whole report when it is not valid. ``conform`` runs the
conformance kit against an ASGI application in-process (no port, no network) or against a
running agent, and raises ``ConformanceFailed`` when the agent does not conform. The module is
also a pytest plugin (the ``pytest11`` entry point ``th_ext``): it adds the
``th_ext_check_card`` fixture and names th-ext's version in pytest's header. Importing it
loads the card check; the conformance kit (and httpx) loads when ``conform`` is first called.
"""

from th_ext.testing._card import CardCheckFailed, check_card
from th_ext.testing._conform import ConformanceFailed, conform

__all__ = ["CardCheckFailed", "ConformanceFailed", "check_card", "conform"]
