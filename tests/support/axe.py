"""axe-core in headless Chromium: the WCAG 2.1 AA violations of one page.

axe-core comes from npm, installed from ``tests/browser/package-lock.json`` by ``make test``
(``npm ci``); it is injected into the page as a script and run over the whole document.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Page

__all__ = ["AXE_JS", "Violation", "axe_violations"]

AXE_JS = Path(__file__).resolve().parent.parent / "browser/node_modules/axe-core/axe.min.js"
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
_RUN = """
async (tags) => {
  const results = await axe.run(document, {
    runOnly: { type: "tag", values: tags },
    resultTypes: ["violations"],  // passes and the rest are not read: axe keeps one node each
  });
  return results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })),
  }));
}
"""


@dataclass(frozen=True)
class Violation:
    rule: str
    impact: str
    help: str
    nodes: tuple[str, ...]

    def __str__(self) -> str:
        shown = "; ".join(self.nodes[:3])
        more = f" (+{len(self.nodes) - 3} more)" if len(self.nodes) > 3 else ""
        return f"{self.impact} {self.rule}: {self.help} [{len(self.nodes)} nodes: {shown}{more}]"


def axe_violations(page: Page) -> list[Violation]:
    """Every WCAG 2.1 A/AA violation axe-core finds on the page as it is now."""
    page.add_script_tag(path=str(AXE_JS))
    found: list[dict[str, Any]] = page.evaluate(_RUN, WCAG_21_AA)
    return [
        Violation(
            rule=str(item["id"]),
            impact=str(item["impact"]),
            help=str(item["help"]),
            nodes=tuple(f"{node['target']} {node['summary']}" for node in item["nodes"]),
        )
        for item in found
    ]
