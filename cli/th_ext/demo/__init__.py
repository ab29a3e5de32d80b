"""The demo agent: a real A2A 1.0 server on the official SDK (the optional ``demo`` extra) that
implements the commands extension with th_ext's reference implementation."""

from th_ext.demo._harness import (
    DEFAULT_MODEL,
    MODELS,
    CommandOutcome,
    DemoHarness,
    demo_card,
    demo_registry,
    stand_in_answer,
)
from th_ext.demo._run import DemoRun, run_demo
from th_ext.demo._server import DemoServer, DemoTaskStore, build_demo_app, serve_forever
from th_ext.demo._variants import DemoVariant

__all__ = [
    "DEFAULT_MODEL",
    "MODELS",
    "CommandOutcome",
    "DemoHarness",
    "DemoRun",
    "DemoServer",
    "DemoTaskStore",
    "DemoVariant",
    "build_demo_app",
    "demo_card",
    "demo_registry",
    "run_demo",
    "serve_forever",
    "stand_in_answer",
]
