"""JUnit XML, the test-result format CI systems show, written with the standard library.

``validate``, ``conform`` and the command line's error document all build an ElementTree and
hand it to ``junit_text``, which indents it and adds the XML declaration. ElementTree does the
escaping; what it does not do is refuse characters XML 1.0 cannot hold (most C0 controls, lone
surrogates, U+FFFE, U+FFFF), so every text and attribute taken from a card or an agent goes
through ``clean`` first, which removes them. ``xml.etree`` is imported only when JUnit is asked
for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

__all__ = ["junit_text"]


def junit_text(root: Element) -> str:
    """``root`` (a ``<testsuites>`` element) as an indented document, ending in a newline."""
    import xml.etree.ElementTree as ET

    ET.indent(root, space="  ")
    body = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"
