"""Fixtures shared by the acceptance tests: the JS SDK agent, a second implementation."""

from __future__ import annotations

from tests.support.js_agent import js_agent

__all__ = ["js_agent"]
