"""How the tests' loopback HTTP servers run.

``serve_forever`` looks for a shutdown request once per poll interval (half a second by
default), so every ``shutdown()`` at the end of a fixture waited that long. A short interval
lets a test's server stop at once; the loop's extra wake-ups cost nothing measurable.
"""

from __future__ import annotations

__all__ = ["POLL_SECONDS"]

POLL_SECONDS = 0.01
