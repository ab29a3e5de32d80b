"""One deadline for one piece of work, passed down to the code that does it."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from th_ext._exceptions import DeadlineError

__all__ = ["Deadline"]


@dataclass(frozen=True, slots=True)
class Deadline:
    """The moment (``time.monotonic()``) by which the work must end, and what to say then.

    A value, not a timer: long work asks it what is left, so each source checked at once (in
    threads or on one event loop) is bounded alone, with no signal.
    """

    expires_at: float
    message: str = field(default="the deadline passed")

    @classmethod
    def after(cls, seconds: float, message: str = "the deadline passed") -> Deadline:
        """A deadline ``seconds`` from now."""
        return cls(time.monotonic() + seconds, message)

    def remaining(self) -> float:
        """Seconds left (never below 0)."""
        return max(self.expires_at - time.monotonic(), 0.0)

    def expired(self) -> bool:
        return time.monotonic() >= self.expires_at

    def check(self) -> None:
        """Raise ``DeadlineError`` with the deadline's message once it has passed."""
        if time.monotonic() >= self.expires_at:
            raise DeadlineError(self.message)
